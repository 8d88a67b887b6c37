import LinkKit

/// The components of the single sign-on endpoints.
extension APISchemas {
    static let sso: [(name: String, schema: Schema)] = [
        (
            "SSO",
            Schema.object(
                [
                    .required(SSOFields.issuer),
                    .required(SSOFields.clientID),
                    .required(
                        "clientSecretSet", Schema.boolean.readOnly.described("Always true: a secret is stored (sealed; never shown).")),
                    .required(SSOFields.allowedDomains),
                    .required("defaultRole", SSOFields.defaultRole.schema.nullable),
                    .required("groupsClaim", SSOFields.groupsClaim.schema.nullable),
                    .required(SSOFields.groupRoles),
                    .required(SSOFields.required),
                    .required(
                        "redirectUri",
                        Schema.url.readOnly
                            .described(
                                "The callback to register at the provider: this server's `/v1/sso/callback`, as the request reached it.")),
                    .required("updatedAt", Schema.updated),
                ], closed: false
            )
            .described("A workspace's single sign-on through an OpenID Connect provider (docs/PEOPLE.md, \"Single sign-on\").")
        ),
        (
            "SSOSettings",
            Schema.object(
                [
                    .required(SSOFields.issuer), .required(SSOFields.clientID), .optional(SSOFields.clientSecret),
                    .optional(SSOFields.allowedDomains, nullable: true), .optional(SSOFields.defaultRole, nullable: true),
                    .optional(SSOFields.groupsClaim, nullable: true), .optional(SSOFields.groupRoles, nullable: true),
                    .optional(SSOFields.required, nullable: true),
                ], closed: true
            )
            .described("Every setting; an absent or null member takes its default, an absent `clientSecret` keeps the stored one.")
        ),
    ]
}
