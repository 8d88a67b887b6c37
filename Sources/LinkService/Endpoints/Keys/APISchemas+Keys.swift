import LinkKit

/// The components of the API keys endpoints (`OpenAPIDocument`).
extension APISchemas {
    private static let keyProperties: [Schema.Property] = [
        .required("id", Schema.uuid.readOnly),
        .required("name", Schema.string(maxLength: 200).described("A label for people; may be empty.")),
        .required("prefix", Schema.string.readOnly.described("`lk_` and the first 8 characters of the key id: tells keys apart in listings.").example("lk_0f3c9a1b")),
        .required("scope", Schema.ref("Scope")),
        .required("createdAt", Schema.created),
        .optional("revokedAt", Schema.timestamp.readOnly.described("When it was revoked; absent while the key is valid.")),
    ]

    static let keys: [(name: String, schema: Schema)] = [
        ("Scope", Schema.enumeration(["read", "write", "admin"])
            .described("What a key may do; each includes the ones before it. `read`: read resources, resolve, analytics. `write`: also change resources. `admin`: also manage keys.")),
        ("APIKey", Schema.object(keyProperties, closed: false).described("An API key as listings show it: never the secret.")),
        ("APIKeyCreate", Schema.object([.optional(KeyFields.name), .required(KeyFields.scope)], closed: true)),
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
}
