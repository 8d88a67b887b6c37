import LinkKit

/// The members of the apps' request bodies, each declared once for the document and for `AppInput`, which reads
/// them (`BodyField`); the fingerprints are read by `AppInput` itself.
enum AppFields {
    static let name = BodyField.text("name", limit: .name)
    static let teamID = BodyField.validated(
        "teamId", Schema.teamID.described("A team ID registered in this workspace (POST /v1/teams)."),
        Validators.teamID)
    static let bundleID = BodyField.validated(
        "bundleId",
        Schema.string(pattern: "^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$", maxLength: 155)
            .described("The bundle ID, reverse-DNS.").example("com.example.app"), limit: .bundleID, Validators.bundleID)
    static let appStoreID = BodyField.validated(
        "appStoreId",
        Schema.string(pattern: "^[0-9]{1,20}$")
            .described("The numeric App Store ID.").example("1234567890"), Validators.appStoreID)
    static let customScheme = BodyField.validated(
        "customScheme",
        Schema.string(pattern: "^[A-Za-z][A-Za-z0-9+.-]{0,63}$")
            .described(
                """
                The app's own URL scheme, without `:` (not http, https, file, javascript or data), stored lower-case: registered in an iOS \
                app's Info.plist or an Android app's manifest (the generated manifest carries its intent filter). Unique per platform \
                in the workspace (409): an iOS and an Android app of one product share theirs.
                """
            ).example("myapp"), Validators.customScheme)
    static let packageName = BodyField.validated(
        "packageName",
        Schema.string(pattern: "^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$", maxLength: 255)
            .described("The Android package name.").example("com.example.app"), limit: .packageName, Validators.packageName)
    static let playStoreURL = BodyField.validated("playStoreUrl", Schema.httpsURLInput, limit: .url, Validators.httpsURL)
    static let iconURL = BodyField.validated(
        "iconUrl",
        Schema.httpsURLInput.described(
            """
            The app's icon (square; shown at 48 px) as an `https://` URL: the landing page shows it beside the app's name.
            """), limit: .url, Validators.httpsURL)
    /// A hostname, normalised; whether it is a link domain of the workspace naming the app is `AppPrimaryDomain`'s
    /// question.
    static let primaryDomain = BodyField.hostname(
        "primaryDomain",
        Schema.hostname.nullable.described(
            """
            A link domain of the workspace whose rules name the app (else 422; so not on create, when no rule can name it yet): \
            its rules decide the app's custom-scheme links and its links are built on it. `null` clears it.
            """), refusal: "primaryDomain must be the hostname of a link domain of this workspace.")
}
