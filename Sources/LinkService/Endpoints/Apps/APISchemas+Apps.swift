import LinkKit

/// The components of the apps endpoints (`OpenAPIDocument`).
extension APISchemas {
    private static let httpsURL = Schema.url.described("An absolute `https://` URL.")
    private static let fingerprintsInput = Schema.array(.ref("FingerprintInput"), minItems: 1, maxItems: 20, unique: true)
        .described(
            "The SHA-256 fingerprints of the signing certificates. With Play App Signing, list the Play app-signing key's (and, for local builds, the upload and debug keys')."
        )

    /// The members a request may write for an app of `platform`, declared once for its create and its update: a
    /// create must send the `sent` ones, an update may leave out any (`null` clears the `nullable` ones).
    private static func appProperties(_ platform: AppPlatform, creating: Bool) -> [Schema.Property] {
        func sent<Value>(_ field: BodyField<Value>) -> Schema.Property { creating ? .required(field) : .optional(field) }
        func sent(_ name: String, _ schema: Schema) -> Schema.Property { creating ? .required(name, schema) : .optional(name, schema) }
        let members: [Schema.Property] =
            switch platform {
            case .ios:
                [
                    sent(AppFields.teamID),
                    sent(AppFields.bundleID),
                    .optional(AppFields.appStoreID, nullable: true),
                ]
            case .android:
                [
                    sent(AppFields.packageName),
                    sent("sha256CertFingerprints", fingerprintsInput),
                    .optional(AppFields.playStoreURL),
                ]
            }
        return [sent("platform", .constant(platform.rawValue)), sent(AppFields.name)] + members + [
            .optional(AppFields.customScheme, nullable: true),
            .optional(AppFields.primaryDomain),
            .optional(AppFields.iconURL, nullable: true),
        ]
    }

    /// The members every app row ends with, whatever its platform.
    static let appRowTail: [Schema.Property] = [
        .optional("customScheme", AppFields.customScheme.schema),
        .optional(
            "primaryDomain",
            Schema.hostname.readOnly
                .described(
                    "The link domain whose rules its custom-scheme links follow and its links are built on; absent: the oldest domain whose rules name the app."
                )),
        .optional("iconUrl", httpsURL.described("The app's icon, shown on the landing page.")),
        .required("createdAt", Schema.created),
        .required("updatedAt", Schema.updated),
    ]

    static let apps: [(name: String, schema: Schema)] = [
        (
            "App",
            Schema.oneOf(
                [.ref("IOSApp"), .ref("AndroidApp")], discriminator: "platform", mapping: ["ios": "IOSApp", "android": "AndroidApp"])
        ),
        (
            "IOSApp",
            Schema.object(
                [
                    .required("id", Schema.uuid.readOnly),
                    .required("platform", .constant("ios")),
                    .required("name", Schema.string(maxLength: 200)),
                    .required("teamId", Schema.teamID),
                    .required("bundleId", AppFields.bundleID.schema),
                    .required(
                        "appId",
                        Schema.string.readOnly.described("`TEAMID.bundle.id`, as the AASA file lists it.").example(
                            "ABCDE12345.com.example.app")),
                    .optional("appStoreId", AppFields.appStoreID.schema),
                ] + appRowTail, closed: false)
        ),
        (
            "AndroidApp",
            Schema.object(
                [
                    .required("id", Schema.uuid.readOnly),
                    .required("platform", .constant("android")),
                    .required("name", Schema.string(maxLength: 200)),
                    .required("packageName", AppFields.packageName.schema),
                    .required("sha256CertFingerprints", Schema.array(.ref("Fingerprint"))),
                    .optional("playStoreUrl", httpsURL),
                ] + appRowTail, closed: false)
        ),
        (
            "Fingerprint",
            Schema.object(
                [
                    .required(
                        "value",
                        Schema.string(pattern: "^([0-9A-F]{2}:){31}[0-9A-F]{2}$").described(
                            "32 upper-case hex bytes separated by colons, as assetlinks.json writes it.")),
                    .optional("label", Schema.string(maxLength: 100).described("Which key this is.").example("Play App Signing")),
                ], closed: false)
        ),
        (
            "FingerprintInput",
            Schema.object(
                [
                    .required(
                        "value",
                        Schema.string(pattern: "^[: ]*([0-9A-Fa-f][: ]*){64}$", maxLength: 1000)
                            .described(
                                "A SHA-256 fingerprint in any common spelling (64 hex digits, any case, with or without colons or spaces); stored and returned in the canonical form."
                            )),
                    .optional(
                        "label",
                        Schema.name(maxLength: TextLimit.label.scalars).described(
                            "Which key this is: \"Play App Signing\", \"upload\", \"debug\"…")),
                ], closed: true)
        ),
        (
            "AppCreate",
            Schema.oneOf(
                [.ref("IOSAppCreate"), .ref("AndroidAppCreate")], discriminator: "platform",
                mapping: ["ios": "IOSAppCreate", "android": "AndroidAppCreate"])
        ),
        ("IOSAppCreate", Schema.object(appProperties(.ios, creating: true), closed: true)),
        ("AndroidAppCreate", Schema.object(appProperties(.android, creating: true), closed: true)),
        (
            "AppUpdate",
            Schema.anyOf([.ref("IOSAppUpdate"), .ref("AndroidAppUpdate")])
                .described(
                    "Present fields replace, `null` clears an optional one. Only the fields of the app's platform are accepted; the platform cannot change."
                )
        ),
        ("IOSAppUpdate", Schema.object(appProperties(.ios, creating: false), closed: true)),
        ("AndroidAppUpdate", Schema.object(appProperties(.android, creating: false), closed: true)),
    ]
}
