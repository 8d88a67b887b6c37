import LinkKit

/// The components of the API keys endpoints (`OpenAPIDocument`).
extension APISchemas {
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
        ("APIKey", APIKey.members.schema(closed: false).described("An API key as listings show it: never the secret.")),
        ("APIKeyCreate", Schema.object([.optional(KeyFields.name), .required(KeyFields.scope), .optional(KeyFields.role)], closed: true)),
        (
            "CreatedAPIKey",
            APIKey.members.schema(
                closed: false,
                adding: [
                    .required(
                        "key",
                        Schema.string(pattern: "^lk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$")
                            .described(
                                "The secret key, shown this once and stored only as a hash. Send it as `Authorization: Bearer <key>`."))
                ]
            ).described("A new key, with its secret.")
        ),
    ]
}
