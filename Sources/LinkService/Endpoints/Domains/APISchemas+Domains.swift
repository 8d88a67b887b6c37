import LinkKit

/// The components of the domains endpoints (`OpenAPIDocument`).
extension APISchemas {
    /// A substitution variable's name: not empty, no `$`, `(` or `)`, not a built-in variable's.
    private static let substitutionName = Schema.string(pattern: "^[^$()]+$").with(
        "not", .object(["enum": .array(BuiltInVariables.names.sorted().map(JSONValue.string))])
    ).json
    /// A substitution variable's value, which cannot refer to another variable (`$(`).
    private static let substitutionValue = Schema.string(pattern: "^([^$]|\\$+[^($])*\\$*$")

    /// The writable settings, shared by the create and update bodies (the response has them too).
    private static func settingsProperties(input: Bool) -> [Schema.Property] {
        let defaults = Schema.object(
            [
                .optional(
                    "caseSensitive",
                    Schema.boolean.described("Default for every rule: match the path case-sensitively (iOS default: true).")),
                .optional(
                    "percentEncoded", Schema.boolean.described("Default for every rule: patterns are percent-encoded (iOS default: true).")),
            ], closed: input
        ).described("The AASA `defaults` of the domain's applinks section.")
        let appIDs = Schema.array(.uuid, maxItems: 100)
        return [
            .optional("defaults", input ? defaults.nullable : defaults),
            .optional(
                "substitutionVariables",
                Schema.map(.array(substitutionValue, minItems: 1, maxItems: 1000)).with("propertyNames", substitutionName)
                    .described(
                        "AASA substitution variables: name → the values `$(name)` stands for in patterns. Built-in names are reserved."
                    )
                    .example(.object(["section": .array([.string("news"), .string("blog")])]))),
            .optional("webcredentials", appIDs.described("Ids of this workspace's apps listed under `webcredentials` (shared passwords).")),
            .optional("appclips", appIDs.described("Ids of this workspace's iOS apps listed under `appclips`.")),
            .optional(DomainFields.legacyPaths),
            input
                ? .optional(DomainFields.webFallbackURL)
                : .optional(
                    DomainFields.webFallbackURL.name,
                    Schema.url.described("Where a link that no app opens sends the browser (absolute `https://`).")),
            .optional(DomainFields.carryPathToFallback),
            .optional(DomainFields.androidDynamicRules),
            .optional(DomainFields.clickBehavior, nullable: input),
            .optional(DomainFields.deferredTTL, nullable: input),
            .optional(DomainFields.deferredClipboard, nullable: input),
            .optional(DomainFields.linkSlugLength, nullable: input),
        ]
    }

    private static let clickBehavior = Schema.enumeration(ClickBehavior.allCases.map(\.rawValue))

    /// A rule's overrides of the domain's click behaviour and of the destination type's preview metadata.
    static let ruleClick = Schema.object(
        [
            .optional("behavior", clickBehavior.nullable),
            .optional("title", Schema.name(maxLength: TextLimit.name.scalars).nullable),
            .optional("description", Schema.string(maxLength: TextLimit.comment.scalars).nullable),
            .optional("imageUrl", Schema.httpsURLInput.nullable.described("An https image for preview cards.")),
        ], closed: true
    ).described("What the rule's clicks get, overriding the domain's `clickBehavior` and the destination type's preview.")

    static var domains: [(name: String, schema: Schema)] {
        [
            (
                "Domain",
                Schema.object(
                    [.required("hostname", Schema.hostname)] + settingsProperties(input: false) + [
                        .required(
                            "aasaUrl",
                            Schema.url.readOnly.described("Where Apple's CDN fetches this domain's apple-app-site-association file.")),
                        .optional(
                            "lastFetch",
                            Schema.map(.ref("AssociationFetch")).readOnly
                                .described(
                                    "`GET` of one domain only: the last fetch of each association file, by file name (`apple-app-site-association`, `assetlinks.json`)."
                                )),
                        .required("createdAt", Schema.created),
                        .required("updatedAt", Schema.updated),
                    ], closed: false
                ).described("A link domain with its association-file settings. Unique across the service; addressed by hostname.")
            ),
            (
                "AssociationFetch",
                Schema.object(
                    [
                        .required("at", Schema.timestamp),
                        .required("userAgent", Schema.string.described("Who fetched it, e.g. Apple's CDN (`AASA-Bot/…`).")),
                        .optional("etag", Schema.string.described("The version it got.")),
                        .required("status", Schema.integer(minimum: 100, maximum: 599)),
                    ], closed: false
                ).described("When an association file was last fetched, by whom, and which version.")
            ),
            ("DomainCreate", Schema.object([.required("hostname", Schema.hostname)] + settingsProperties(input: true), closed: true)),
            (
                "DomainUpdate",
                Schema.object(
                    [
                        .optional("hostname", Schema.hostname.described("If sent, must be the domain's hostname: it cannot change."))
                    ] + settingsProperties(input: true), closed: true
                ).described("Present settings replace the current ones; absent ones stay.")
            ),
        ]
    }
}
