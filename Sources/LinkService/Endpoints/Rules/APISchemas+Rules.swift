import LinkKit

/// The components of the rules endpoints (`OpenAPIDocument`).
extension APISchemas {
    /// The members a client writes in a rule (`allowIdentity` adds the ones read back from `GET`).
    private static func ruleProperties(appsRequired: Bool, nullable: Bool) -> [Schema.Property] {
        func field(_ schema: Schema) -> Schema { nullable ? schema.nullable : schema }
        let apps = Schema.array(.uuid, minItems: 1, maxItems: 50).described("Ids of the workspace's apps the rule applies to, in order.")
        let pattern = Schema.string(maxLength: TextLimit.pattern.scalars)
        return [
            appsRequired ? .required("apps", apps) : .optional("apps", apps),
            .optional(
                "path",
                field(
                    pattern.described(
                        "A path template with typed captures (`/widget/{id}`, `/docs/{rest*}`) or a raw AASA pattern (`/help/*`)."
                    )
                    .example("/widget/{id}"))),
            .optional("query", field(Schema.ref("RuleQuery"))),
            .optional("fragment", field(pattern.described("A fragment pattern or template."))),
            .optional(
                "exclude",
                field(Schema.boolean.described("Matching URLs open no app (an AASA `exclude` component). An exclusion has no destination."))
            ),
            .optional("caseSensitive", field(Schema.boolean)),
            .optional("percentEncoded", field(Schema.boolean)),
            .optional("comment", field(Schema.string(maxLength: 500))),
            .optional("destination", field(Schema.ref("DestinationBinding"))),
            .optional("click", nullable ? ruleClick.nullable : ruleClick),
        ]
    }

    private static let position = Schema.integer(minimum: 0).described(
        "Where the rule goes in the list (0 is first); the end when absent or beyond it.")

    static var rules: [(name: String, schema: Schema)] {
        [
            (
                "Rule",
                Schema.object(
                    [
                        .required("id", Schema.uuid.readOnly),
                        .required(
                            "position",
                            Schema.integer(minimum: 0).readOnly.described("Its place in the list: the first matching rule wins.")),
                    ] + ruleProperties(appsRequired: true, nullable: false) + [
                        .required("createdAt", Schema.created),
                        .required("updatedAt", Schema.updated),
                    ], closed: false
                ).described("One path rule: the single source of its AASA component and of its resolve answer.")
            ),
            (
                "RuleQuery",
                Schema.oneOf([
                    Schema.string(maxLength: TextLimit.pattern.scalars).described("A pattern for the whole query string (cannot capture)."),
                    Schema.map(Schema.string(maxLength: TextLimit.pattern.scalars)).described("Query item name → pattern or `{capture}`."),
                ]).described("A query-string pattern, or a dictionary of query items.")
            ),
            (
                "DestinationBinding",
                Schema.object(
                    [
                        .required("type", Schema.identifier.described("A destination type every app of the rule declares.")),
                        .optional(
                            "params",
                            Schema.map(.oneOf([.string, Schema([JSONMember(key: "type", value: .string("number"))]), .boolean]))
                                .described(
                                    "Parameter → `\"{capture}\"` or a constant. An unbound parameter takes the capture of the same name.")),
                    ], closed: true
                ).example(.object(["type": .string("widgetDetail"), "params": .object(["id": .string("{id}"), "tab": .string("info")])]))
            ),
            (
                "RuleCreate",
                Schema.object(ruleProperties(appsRequired: true, nullable: false) + [.optional("position", position)], closed: true)
            ),
            (
                "RuleUpdate",
                Schema.object(
                    ruleProperties(appsRequired: false, nullable: true) + [
                        .optional("position", position.described("Moves the rule there."))
                    ],
                    closed: true
                ).described("Present fields replace the rule's, `null` clears one, `position` moves the rule.")
            ),
            (
                "RuleListEntry",
                Schema.object(
                    [
                        .optional(
                            "id",
                            Schema.uuid.described(
                                "Keep this rule's identity (and its analytics); a new id is made when absent or not one of the domain's rules."
                            )),
                        .optional("position", Schema([]).described("Ignored: the order of the list is the order.")),
                        .optional("createdAt", Schema([]).described("Ignored.")),
                        .optional("updatedAt", Schema([]).described("Ignored.")),
                    ] + ruleProperties(appsRequired: true, nullable: false), closed: true
                )
                .described("A rule in a whole list; what `GET` returns can be sent back.")
            ),
            (
                "RuleListReplace",
                Schema.object(
                    [
                        .required(
                            "rules",
                            Schema.array(.ref("RuleListEntry"), maxItems: 10_000).described(
                                "The new list, in order; rules left out are deleted."))
                    ], closed: true)
            ),
            (
                "RuleList",
                Schema.object([.required("items", Schema.array(.ref("Rule")))], closed: false)
                    .described("The whole rule list, in order. Its ETag is the domain's rule-list version.")
            ),
            (
                "PreviewRequest",
                Schema.object(
                    [
                        .optional(
                            "rules",
                            Schema.array(.ref("RuleListEntry"), maxItems: 10_000).described("A proposed list; the stored one when absent."))
                    ], closed: true)
            ),
            (
                "Preview",
                Schema.object(
                    [
                        .required("aasa", Schema.ref("AASAFile")),
                        .required("assetlinks", Schema.ref("AssetLinks")),
                        .required(
                            "size", Schema.integer(minimum: 0).described("Bytes of the generated AASA file (iOS rejects more than 128 KB).")
                        ),
                        .required(
                            "lint", Schema.array(.ref("LintFinding")).described("Warnings about the generated file (errors are 422s).")),
                        .required(
                            "moved",
                            Schema.array(.ref("URLMove")).described(
                                "The URLs whose decision the list would change, against what the domain serves now.")),
                        .required("corpus", Schema.ref("MoveCorpus")),
                    ], closed: false
                ).described("What the rule list would generate. Nothing is saved.")
            ),
            (
                "AASAFile",
                Schema.object(
                    [
                        .optional("applinks", Schema.ref("AASAAppLinks")),
                        .optional("webcredentials", Schema.ref("AASAServiceApps")),
                        .optional("appclips", Schema.ref("AASAServiceApps")),
                        .optional("activitycontinuation", Schema.ref("AASAServiceApps")),
                    ], closed: false
                ).described("An apple-app-site-association file, as Apple documents it.")
            ),
            (
                "AASAAppLinks",
                Schema.object(
                    [
                        .optional("apps", Schema.array(.string).described("The legacy key iOS 12 needs, empty.")),
                        .optional("defaults", Schema.ref("AASAComponent")),
                        .optional(
                            "substitutionVariables",
                            Schema.map(.array(.string)).described("Named lists of patterns a component writes `$(name)` for.")),
                        .required("details", Schema.array(.ref("AASADetail"))),
                    ], closed: false
                ).described("The `applinks` section: universal links.")
            ),
            (
                "AASADetail",
                Schema.object(
                    [
                        .optional("appIDs", Schema.array(.string).described("`TEAMID.bundle.id` of the apps the entry is for.")),
                        .optional("appID", Schema.string.described("The legacy paths-only form's one app.")),
                        .optional("defaults", Schema.ref("AASAComponent")),
                        .optional("components", Schema.array(.ref("AASAComponent")).described("In order: the first that matches decides.")),
                        .optional("paths", Schema.array(.string).described("The legacy form (iOS 12).")),
                    ], closed: false)
            ),
            (
                "AASAComponent",
                patterns(
                    Schema.object(
                        [
                            .optional("exclude", Schema.boolean),
                            .optional("caseSensitive", Schema.boolean),
                            .optional("percentEncoded", Schema.boolean),
                            .optional("comment", Schema.string),
                        ], closed: false)
                )
                .described(
                    "A pattern of URLs: `/` (the path), `?` (the query, or a pattern per query item) and `#` (the fragment); as `defaults`, the options of those after it."
                )
            ),
            (
                "AASAServiceApps",
                Schema.object([.required("apps", .array(.string))], closed: false)
                    .described("`webcredentials`, `appclips`, `activitycontinuation`: the apps, `TEAMID.bundle.id`.")
            ),
            ("AssetLinks", Schema.array(.ref("AssetLinksStatement")).described("A Digital Asset Links statement list (assetlinks.json).")),
            (
                "AssetLinksStatement",
                Schema.object(
                    [
                        .required("relation", Schema.array(.string)),
                        .required("target", Schema.ref("AssetLinksTarget")),
                        .optional(
                            "relation_extensions",
                            Schema.map(.ref("AssetLinksRelationExtension")).described(
                                "With `androidDynamicRules`: per relation (`delegate_permission/common.handle_all_urls`), the app's rules in order."
                            )),
                    ], closed: false)
            ),
            (
                "AssetLinksTarget",
                Schema.object(
                    [
                        .required("namespace", Schema.string.described("`android_app` (or `web`).")),
                        .optional("package_name", Schema.string),
                        .optional("sha256_cert_fingerprints", Schema.array(.string)),
                        .optional("site", Schema.string),
                    ], closed: false)
            ),
            (
                "AssetLinksRelationExtension",
                Schema.object(
                    [
                        .optional("dynamic_app_link_components", Schema.array(.ref("AndroidDynamicComponent")))
                    ], closed: false)
            ),
            (
                "AndroidDynamicComponent",
                patterns(Schema.object([.optional("exclude", Schema.boolean)], closed: false))
                    .described(
                        "An Android 15+ dynamic rule (docs/ANDROID.md): `/` (the path), `?` (a pattern per query item) and `#` (the fragment)."
                    )
            ),
            (
                "LintFinding",
                Schema.object(
                    [
                        .required("severity", .enumeration(["error", "warning"])),
                        .required("code", Schema.string.described("Stable identifier of the kind of finding.").example("unreachableRule")),
                        .required("pointer", Schema.string.described("RFC 6901 pointer into the generated file.")),
                        .required("message", Schema.string),
                    ], closed: false)
            ),
        ]
    }

    /// `object` with the members `/` (a path pattern), `?` (a query pattern, or one per query item) and `#` (a fragment
    /// pattern) of an AASA component or an Android dynamic rule, as `additionalProperties` and `propertyNames`:
    /// generators turn member names into identifiers, and these three would all be the same empty one.
    private static func patterns(_ object: Schema) -> Schema {
        let names = (object.json["properties"]?.objectMembers ?? []).map(\.key)
        return object.with("additionalProperties", Schema.oneOf([.string, .map(.string)]).json)
            .with("propertyNames", Schema.enumeration(["/", "?", "#"] + names).json)
    }
}
