import LinkKit

/// The named schemas of the OpenAPI document (`#/components/schemas/<name>`): every resource as the API
/// returns it and every request body as the API accepts it. Request bodies are closed
/// (`additionalProperties: false`) because the API rejects unknown members with a 422 pointing at them.
///
/// List envelopes (`<Name>Page`) are generated from the operations that return pages.
enum APISchemas {
    /// Every component schema, in document order.
    static var all: [(name: String, schema: Schema)] {
        problems + service + keys + teams + apps + destinations + domains + rules + resolve + links + audit + analytics
    }

    // MARK: Shared field shapes

    static let teamID = Schema.string(pattern: "^[A-Z0-9]{10}$").described("An Apple team ID: 10 upper-case letters or digits.").example("ABCDE12345")
    static let identifier = Schema.string(pattern: "^[A-Za-z][A-Za-z0-9_]{0,63}$")
    static let created = Schema.timestamp.readOnly.described("When it was created.")
    static let updated = Schema.timestamp.readOnly.described("When it last changed.")
    /// An absolute `https://` URL as `Validators.httpsURL` accepts it (written with RFC 3986's characters, no user
    /// or password): redirect targets and store links in request bodies.
    static let httpsURLInput = Schema.string(
        format: "uri",
        pattern: "^[Hh][Tt][Tt][Pp][Ss]://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/(\(urlCharacter)|/)*)?(\\?(\(urlCharacter)|[/?])*)?(#(\(urlCharacter)|[/?])*)?$",
        maxLength: 2000
    ).described("An absolute `https://` URL.")
    /// A port number, 0 to 65535.
    private static let port = "[0-9]{1,4}|[0-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]"
    /// One character of a URL's path, query or fragment as RFC 3986 writes it (unreserved, sub-delims, `:`, `@`, `%XX`).
    private static let urlCharacter = "[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2}"
    /// A link to resolve: an absolute `http` or `https` URL as `AASAURL` splits it (any characters after the
    /// authority: raw ones are percent-encoded as a browser does; a port, when written, is a number), or a
    /// custom-scheme link (any other scheme but `javascript`, `data` and `file`).
    static let linkURL = Schema.string(pattern: "^([Hh][Tt][Tt][Pp][Ss]?://([^/?#]*@)?([^/?#@:\\[\\]]*|\\[[^/?#@\\[\\]]*\\])(:(\(port))?)?([/?#][\\s\\S]*)?"
        + "|(?![Hh][Tt][Tt][Pp][Ss]?:|[Jj][Aa][Vv][Aa][Ss][Cc][Rr][Ii][Pp][Tt]:|[Dd][Aa][Tt][Aa]:|[Ff][Ii][Ll][Ee]:)[A-Za-z][A-Za-z0-9+.-]*:[\\s\\S]*)$")
        .described("""
            An absolute http(s) URL, or a custom-scheme link (`widgets://widget/42`), whose first path segment is read as \
            its path's first segment: `widgets://widget/42` and `widgets:///widget/42` are both the path `/widget/42`.
            """).example("https://links.example.com/widget/42")

    // MARK: Problems

    static let problems: [(name: String, schema: Schema)] = [
        ("Problem", Schema.object([
            .required("type", .string(format: "uri").described("Stable URI naming the kind of problem; clients may match on it.")
                .example("https://linkd.dev/problems/not-found")),
            .required("title", Schema.string.described("Short summary of the kind; the same for every problem of a type.")),
            .required("status", Schema.integer(minimum: 400, maximum: 599).described("The HTTP status code.")),
            .optional("detail", Schema.string.described("What went wrong this time, for a person.")),
            .optional("errors", Schema.array(.ref("FieldError")).described("Validation failures (422): one per offending field.")),
            .optional("requestId", Schema.string.described("The request id, also sent as X-Request-ID; quote it when reporting a problem.")),
        ], closed: false).described("An RFC 9457 problem detail (`application/problem+json`): the body of every error response.")),
        ("ValidationProblem", Schema([
            JSONMember(key: "allOf", value: .array([Schema.ref("Problem").json, Schema.object([.required("errors", .array(.ref("FieldError"), minItems: 1))], closed: false).json])),
        ]).described("A 422 problem: `errors` lists every offending field of the request body.")),
        ("FieldError", Schema.object([
            .required("pointer", Schema.string.described("RFC 6901 JSON pointer into the request body (`\"\"` is the whole body).").example("/rules/3/path")),
            .required("detail", Schema.string.described("What is wrong with the field.")),
        ], closed: false)),
    ]

    // MARK: Service endpoints

    static let service: [(name: String, schema: Schema)] = [
        ("Health", Schema.object([.required("status", .constant("ok"))], closed: false).described("The process is up.")),
        ("TLSAsk", Schema.object([.required("domain", APISchemas.hostname)], closed: true).described("linkd serves this hostname: a certificate may be issued for it.")),
        ("Readiness", Schema.object([
            .required("status", .constant("ready")),
            .required("database", .constant("ok")),
            .required("migrations", .constant("current")),
            .required("catalog", Schema.object([
                .required("domains", Schema.integer(minimum: 0).described("Link domains in this node's in-memory catalog.")),
                .required("state", Schema.enumeration(["current", "stale"]).described("`stale`: change notifications are not arriving; the last good catalog keeps serving.")),
                .optional("staleSince", Schema.timestamp),
            ], closed: false)),
            .required("services", Schema.array(Schema.object([
                .required("name", Schema.string.described("`change feed`, `fetch log`, `hit writer`.")),
                .required("healthy", Schema.boolean.described("Whether it is doing its work now (the change feed: its listener is connected).")),
            ], closed: false)).described("The background services, in start order.")),
        ], closed: false).described("The database answers, its schema is current and the catalog is loaded.")),
    ]

    // MARK: API keys

    private static let keyProperties: [Schema.Property] = [
        .required("id", Schema.uuid.readOnly),
        .required("name", Schema.string(maxLength: 200).described("A label for people; may be empty.")),
        .required("prefix", Schema.string.readOnly.described("`lk_` and the first 8 characters of the key id: tells keys apart in listings.").example("lk_0f3c9a1b")),
        .required("scope", Schema.ref("Scope")),
        .required("createdAt", created),
        .optional("revokedAt", Schema.timestamp.readOnly.described("When it was revoked; absent while the key is valid.")),
    ]

    static let keys: [(name: String, schema: Schema)] = [
        ("Scope", Schema.enumeration(["read", "write", "admin"])
            .described("What a key may do; each includes the ones before it. `read`: read resources, resolve, analytics. `write`: also change resources. `admin`: also manage keys.")),
        ("APIKey", Schema.object(keyProperties, closed: false).described("An API key as listings show it: never the secret.")),
        ("APIKeyCreate", Schema.object([
            .optional("name", Schema.string(maxLength: 200)),
            .required("scope", .ref("Scope")),
        ], closed: true)),
        ("CreatedAPIKey", Schema.object(keyProperties + [
            .required("key", Schema.string(pattern: "^lk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$")
                .described("The secret key, shown this once and stored only as a hash. Send it as `Authorization: Bearer <key>`.")),
        ], closed: false).described("A new key, with its secret.")),
        ("WhoAmI", Schema.object([
            .required("workspace", Schema.object([
                .required("id", Schema.uuid.readOnly),
                .required("name", Schema.string(maxLength: 100)),
            ], closed: false)),
            .required("key", Schema.ref("APIKey")),
        ], closed: false).described("The caller's workspace and the key it called with.")),
    ]

    // MARK: Teams

    static let teams: [(name: String, schema: Schema)] = [
        ("Team", Schema.object([
            .required("teamId", teamID),
            .required("name", Schema.string(maxLength: 200)),
            .required("createdAt", created),
            .required("updatedAt", updated),
        ], closed: false).described("A registered Apple team ID, the prefix of every iOS app ID in the workspace. Addressed by the team ID itself.")),
        ("TeamCreate", Schema.object([
            .required("teamId", teamID),
            .required("name", Schema.string(maxLength: 200)),
        ], closed: true)),
        ("TeamUpdate", Schema.object([
            .optional("name", Schema.string(maxLength: 200)),
        ], closed: true).described("The team ID cannot be changed (sending `teamId` is a 422); register the new team and move the apps.")),
    ]

    // MARK: Apps

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

    // MARK: Destination types

    private static let parameterMap = Schema.map(.ref("ParameterSpec")).with("propertyNames", identifier.json)
        .described("The typed parameters, by name.")
        .example(.object(["id": .object(["type": .string("int"), "min": .integer(1)]),
                          "tab": .object(["type": .string("enum"), "values": .array([.string("info"), .string("reviews")]), "optional": .bool(true)])]))
    private static let optionalFlag = Schema.boolean.described("A link may leave it out (default false).")

    static let destinations: [(name: String, schema: Schema)] = [
        ("Destination", Schema.object([
            .required("name", identifier.described("The type's name, unique per app: what resolve answers as `type`.")),
            .optional("title", Schema.string(maxLength: 200)),
            .optional("description", Schema.string(maxLength: 500).described("Preview cards and the landing page.")),
            .optional("imageUrl", Schema.url.described("An https image for preview cards.")),
            .required("params", parameterMap),
            .required("requiresSignIn", Schema.boolean.described("Links to it are for signed-in users: resolve says so, and a generated router keeps it until the app reports a signed-in user (default false).")),
            .required("createdAt", created),
            .required("updatedAt", updated),
        ], closed: false).described("A destination type: one typed in-app screen an app has.")),
        ("DestinationCreate", Schema.object([
            .required("name", identifier.example("widgetDetail")),
            .optional("title", Schema.string(maxLength: 200).nullable),
            .optional("description", Schema.string(maxLength: 500).nullable),
            .optional("imageUrl", httpsURLInput.nullable),
            .optional("params", parameterMap),
            .optional("requiresSignIn", Schema.boolean.described("Links to it are for signed-in users: resolve says so, and a generated router keeps it until the app reports a signed-in user (default false).").nullable),
        ], closed: true)),
        ("DestinationReplace", Schema.object([
            .optional("name", identifier.described("If sent, must be the name in the path: the name is the address and cannot change.")),
            .optional("title", Schema.string(maxLength: 200).nullable),
            .optional("description", Schema.string(maxLength: 500).nullable),
            .optional("imageUrl", httpsURLInput.nullable),
            .optional("params", parameterMap),
            .optional("requiresSignIn", Schema.boolean.described("Links to it are for signed-in users: resolve says so, and a generated router keeps it until the app reports a signed-in user (default false).").nullable),
        ], closed: true).described("Replaces title, preview metadata and parameters: absent ones become empty.")),
        ("ParameterSpec", Schema.oneOf([.ref("StringParameter"), .ref("IntParameter"), .ref("UUIDParameter"), .ref("BoolParameter"), .ref("EnumParameter")],
                                       discriminator: "type", mapping: ["string": "StringParameter", "int": "IntParameter", "uuid": "UUIDParameter",
                                                                        "bool": "BoolParameter", "enum": "EnumParameter"])),
        ("StringParameter", Schema.object([
            .required("type", .constant("string")),
            .optional("minLength", Schema.integer(minimum: 0)),
            .optional("maxLength", Schema.integer(minimum: 0)),
            .optional("optional", optionalFlag),
        ], closed: true)),
        ("IntParameter", Schema.object([
            .required("type", .constant("int")),
            .optional("min", Schema.integer.described("Smallest accepted value (64-bit).")),
            .optional("max", Schema.integer.described("Largest accepted value (64-bit).")),
            .optional("optional", optionalFlag),
        ], closed: true)),
        ("UUIDParameter", Schema.object([.required("type", .constant("uuid")), .optional("optional", optionalFlag)], closed: true)),
        ("BoolParameter", Schema.object([.required("type", .constant("bool")), .optional("optional", optionalFlag)], closed: true)),
        ("EnumParameter", Schema.object([
            .required("type", .constant("enum")),
            .required("values", Schema.array(.string, minItems: 1, maxItems: 200, unique: true)),
            .optional("optional", optionalFlag),
        ], closed: true)),
    ]
}
