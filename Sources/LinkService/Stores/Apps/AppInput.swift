import LinkKit

/// The writable fields of an app, read and validated from a request body.
struct AppInput {
    var name: String?
    var teamID: String?
    var bundleID: String?
    var appStoreID: String?
    var customScheme: String?
    var packageName: String?
    var fingerprints: [App.Fingerprint]?
    var playStoreURL: String?
    var iconURL: String?
    /// The hostname sent as `primaryDomain`, normalised; checked against the workspace's domains by `AppPrimaryDomain`.
    var primaryDomain: String?

    /// Reads the fields of `platform`; a field of the other platform is an error. On create, the
    /// identity fields are required.
    init(reading body: inout JSONObjectReader, platform: AppPlatform?, creating: Bool) {
        name = AppFields.name.read(&body, required: creating)
        primaryDomain = AppFields.primaryDomain.read(&body)
        iconURL = AppFields.iconURL.read(&body)
        switch platform {
        case .ios?:
            teamID = AppFields.teamID.read(&body, required: creating)
            bundleID = AppFields.bundleID.read(&body, required: creating)
            appStoreID = AppFields.appStoreID.read(&body)
        case .android?:
            packageName = AppFields.packageName.read(&body, required: creating)
            fingerprints = Self.readFingerprints(&body, required: creating)
            playStoreURL = AppFields.playStoreURL.read(&body)
        case nil:
            return
        }
        // Both platforms register schemes (docs/LINKS.md): an iOS app in its Info.plist, an Android one in its manifest.
        customScheme = AppFields.customScheme.read(&body)
    }

    /// The identity of an existing app, for the duplicate checks.
    init(from app: App) {
        teamID = app.teamID
        bundleID = app.bundleID
        packageName = app.packageName
        customScheme = app.customScheme
    }

    /// Applies a PATCH: present fields replace, `null` clears the optional ones.
    func apply(to app: inout App, body: JSONObjectReader) {
        if let name { app.name = name }
        if let teamID { app.teamID = teamID }
        if let bundleID { app.bundleID = bundleID }
        if let packageName { app.packageName = packageName }
        if let fingerprints { app.fingerprints = fingerprints }
        if body.has(AppFields.appStoreID.name) { app.appStoreID = appStoreID }
        if body.has(AppFields.customScheme.name) { app.customScheme = customScheme }
        if body.has(AppFields.playStoreURL.name) { app.playStoreURL = playStoreURL }
        if body.has(AppFields.iconURL.name) { app.iconURL = iconURL }
    }

    var fingerprintsJSON: JSONValue {
        .array((fingerprints ?? []).map { JSONValue.object(["value": .string($0.value), "label": .optional($0.label)]).compacted })
    }

    private static func readFingerprints(_ body: inout JSONObjectReader, required: Bool) -> [App.Fingerprint]? {
        let errors = body.errors
        guard let elements = body.array("sha256CertFingerprints", required: required, maxCount: 20) else { return nil }
        if elements.isEmpty {
            errors.add(
                "/sha256CertFingerprints",
                "List at least one SHA-256 signing-certificate fingerprint (with Play App Signing, the Play app-signing key's).")
        }
        var fingerprints: [App.Fingerprint] = []
        for (element, pointer) in elements {
            var item = JSONObjectReader(element, at: pointer, errors: errors)
            let value = Validators.fingerprint(item.string("value", required: true), at: item.at("value"), errors)
            let label = item.string("label", limit: .label)
            item.finish()
            guard let value else { continue }
            if fingerprints.contains(where: { $0.value == value }) {
                errors.add(item.at("value"), "This fingerprint is listed twice.")
            }
            fingerprints.append(App.Fingerprint(value: value, label: label))
        }
        return fingerprints
    }
}
