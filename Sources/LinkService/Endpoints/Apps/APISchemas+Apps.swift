import LinkKit

/// The components of the apps endpoints (`OpenAPIDocument`).
extension APISchemas {
    private static let bundleID = Schema.string(pattern: "^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$", maxLength: 155)
        .described("The bundle ID, reverse-DNS.").example("com.example.app")
    private static let appStoreID = Schema.string(pattern: "^[0-9]{1,20}$").described("The numeric App Store ID.").example("1234567890")
    private static let customScheme = Schema.string(pattern: "^[A-Za-z][A-Za-z0-9+.-]{0,63}$")
        .described("The app's own URL scheme, without `:` (not http, https, file, javascript or data).").example("myapp")
    private static let packageName = Schema.string(pattern: "^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$", maxLength: 255)
        .described("The Android package name.").example("com.example.app")
    private static let httpsURL = Schema.url.described("An absolute `https://` URL.")
    private static let fingerprintsInput = Schema.array(.ref("FingerprintInput"), minItems: 1, maxItems: 20, unique: true)
        .described("The SHA-256 fingerprints of the signing certificates. With Play App Signing, list the Play app-signing key's (and, for local builds, the upload and debug keys').")

    private static let primaryDomainInput = APISchemas.hostname.nullable.described("""
        A link domain of the workspace whose rules name the app (else 422; so not on create, when no rule can name it yet): \
        its rules decide the app's custom-scheme links and its links are built on it. `null` clears it.
        """)

    static let apps: [(name: String, schema: Schema)] = [
        ("App", Schema.oneOf([.ref("IOSApp"), .ref("AndroidApp")], discriminator: "platform", mapping: ["ios": "IOSApp", "android": "AndroidApp"])),
        ("IOSApp", Schema.object([
            .required("id", Schema.uuid.readOnly),
            .required("platform", .constant("ios")),
            .required("name", Schema.string(maxLength: 200)),
            .required("teamId", teamID),
            .required("bundleId", bundleID),
            .required("appId", Schema.string.readOnly.described("`TEAMID.bundle.id`, as the AASA file lists it.").example("ABCDE12345.com.example.app")),
            .optional("appStoreId", appStoreID),
            .optional("customScheme", customScheme),
            .optional("primaryDomain", APISchemas.hostname.readOnly
                .described("The link domain whose rules its custom-scheme links follow and its links are built on; absent: the oldest domain whose rules name the app.")),
            .required("createdAt", created),
            .required("updatedAt", updated),
        ], closed: false)),
        ("AndroidApp", Schema.object([
            .required("id", Schema.uuid.readOnly),
            .required("platform", .constant("android")),
            .required("name", Schema.string(maxLength: 200)),
            .required("packageName", packageName),
            .required("sha256CertFingerprints", Schema.array(.ref("Fingerprint"))),
            .optional("playStoreUrl", httpsURL),
            .optional("primaryDomain", APISchemas.hostname.readOnly.described("The link domain its links are built on.")),
            .required("createdAt", created),
            .required("updatedAt", updated),
        ], closed: false)),
        ("Fingerprint", Schema.object([
            .required("value", Schema.string(pattern: "^([0-9A-F]{2}:){31}[0-9A-F]{2}$").described("32 upper-case hex bytes separated by colons, as assetlinks.json writes it.")),
            .optional("label", Schema.string(maxLength: 100).described("Which key this is.").example("Play App Signing")),
        ], closed: false)),
        ("FingerprintInput", Schema.object([
            .required("value", Schema.string(pattern: "^[: ]*([0-9A-Fa-f][: ]*){64}$", maxLength: 1000)
                .described("A SHA-256 fingerprint in any common spelling (64 hex digits, any case, with or without colons or spaces); stored and returned in the canonical form.")),
            .optional("label", Schema.string(maxLength: 100).described("Which key this is: \"Play App Signing\", \"upload\", \"debug\"…")),
        ], closed: true)),
        ("AppCreate", Schema.oneOf([.ref("IOSAppCreate"), .ref("AndroidAppCreate")], discriminator: "platform",
                                   mapping: ["ios": "IOSAppCreate", "android": "AndroidAppCreate"])),
        ("IOSAppCreate", Schema.object([
            .required("platform", .constant("ios")),
            .required("name", Schema.string(maxLength: 200)),
            .required("teamId", teamID.described("A team ID registered in this workspace (POST /v1/teams).")),
            .required("bundleId", bundleID),
            .optional("appStoreId", appStoreID.nullable),
            .optional("customScheme", customScheme.nullable),
            .optional("primaryDomain", primaryDomainInput),
        ], closed: true)),
        ("AndroidAppCreate", Schema.object([
            .required("platform", .constant("android")),
            .required("name", Schema.string(maxLength: 200)),
            .required("packageName", packageName),
            .required("sha256CertFingerprints", fingerprintsInput),
            .optional("playStoreUrl", httpsURLInput),
            .optional("primaryDomain", primaryDomainInput),
        ], closed: true)),
        ("AppUpdate", Schema.anyOf([.ref("IOSAppUpdate"), .ref("AndroidAppUpdate")])
            .described("Present fields replace, `null` clears an optional one. Only the fields of the app's platform are accepted; the platform cannot change.")),
        ("IOSAppUpdate", Schema.object([
            .optional("platform", .constant("ios")),
            .optional("name", Schema.string(maxLength: 200)),
            .optional("teamId", teamID),
            .optional("bundleId", bundleID),
            .optional("appStoreId", appStoreID.nullable),
            .optional("customScheme", customScheme.nullable),
            .optional("primaryDomain", primaryDomainInput),
        ], closed: true)),
        ("AndroidAppUpdate", Schema.object([
            .optional("platform", .constant("android")),
            .optional("name", Schema.string(maxLength: 200)),
            .optional("packageName", packageName),
            .optional("sha256CertFingerprints", fingerprintsInput),
            .optional("playStoreUrl", httpsURLInput),
            .optional("primaryDomain", primaryDomainInput),
        ], closed: true)),
    ]
}
