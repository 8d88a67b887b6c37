import LinkKit

/// The components of the API keys endpoints (`OpenAPIDocument`).
extension APISchemas {
    private static let keyProperties: [Schema.Property] = [
        .required("id", Schema.uuid.readOnly),
        .required("name", Schema.string(maxLength: 200).described("A label for people; may be empty.")),
        .required(
            "prefix",
            Schema.string.readOnly.described("`lk_` and the first 8 characters of the key id: tells keys apart in listings.").example(
                "lk_0f3c9a1b")),
        .required("scope", Schema.ref("Scope")),
        .required("role", Schema.ref("Role")),
        .required(
            "createdBy",
            Schema.object(
                [
                    .required("id", Schema.uuid.readOnly),
                    .required("email", Schema.string.nullable),
                ], closed: false
            ).nullable.described(
                "The person who created the key (signed in, or through a key they created); null for a key made on the command line, or when that person is gone."
            )),
        .required("createdAt", Schema.created),
        .optional("revokedAt", Schema.timestamp.readOnly.described("When it was revoked; absent while the key is valid.")),
    ]

    static let keys: [(name: String, schema: Schema)] = [
        (
            "Scope",
            Schema.enumeration(["read", "write", "admin"])
                .described(
                    "What a key may do; each includes the ones before it. `read`: read resources, resolve, analytics. `write`: also change resources. `admin`: also manage keys."
                )
        ),
        (
            "Role",
            Schema.enumeration(Role.allCases.map(\.rawValue))
                .described(
                    "What a person or key may do in a workspace (docs/PEOPLE.md, \"Roles\"); each includes the ones before it. `viewer`: read. `editor`: also links, imports, QR codes. `admin`: also apps, team IDs, domains, rules, webhooks, keys. `owner`: also members, invitations, single sign-on."
                )
        ),
        ("APIKey", Schema.object(keyProperties, closed: false).described("An API key as listings show it: never the secret.")),
        ("APIKeyCreate", Schema.object([.optional(KeyFields.name), .required(KeyFields.scope), .optional(KeyFields.role)], closed: true)),
        (
            "CreatedAPIKey",
            Schema.object(
                keyProperties + [
                    .required(
                        "key",
                        Schema.string(pattern: "^lk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$")
                            .described(
                                "The secret key, shown this once and stored only as a hash. Send it as `Authorization: Bearer <key>`."))
                ], closed: false
            ).described("A new key, with its secret.")
        ),
    ]
}
