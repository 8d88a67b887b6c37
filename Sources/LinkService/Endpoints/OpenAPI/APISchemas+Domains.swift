import LinkKit

/// Domains, their ordered rules and the preview of what a rule list generates.
extension APISchemas {
    // MARK: Domains

    /// What `Hostname` accepts written in ASCII: two labels or more of letters, digits and inner `-` (63 at most),
    /// the last starting with a letter, an optional `*.` first label and trailing dot. Internationalised names
    /// are also accepted and stored in punycode.
    static let hostname = Schema.string(
        pattern: "^(\\*\\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.?$", maxLength: 253
    ).described("The hostname, lower-case, internationalised names in punycode; `*.example.com` covers the subdomains of example.com.")
        .example("links.example.com")

    /// A substitution variable's name: not empty, no `$`, `(` or `)`, not a built-in variable's.
    private static let substitutionName = Schema.string(pattern: "^[^$()]+$").with("not", .object(["enum": .array(BuiltInVariables.names.sorted().map(JSONValue.string))])).json
    /// A substitution variable's value, which cannot refer to another variable (`$(`).
    private static let substitutionValue = Schema.string(pattern: "^([^$]|\\$+[^($])*\\$*$")

    /// The writable settings, shared by the create and update bodies (the response has them too).
    private static func settingsProperties(input: Bool) -> [Schema.Property] {
        let defaults = Schema.object([
            .optional("caseSensitive", Schema.boolean.described("Default for every rule: match the path case-sensitively (iOS default: true).")),
            .optional("percentEncoded", Schema.boolean.described("Default for every rule: patterns are percent-encoded (iOS default: true).")),
        ], closed: input).described("The AASA `defaults` of the domain's applinks section.")
        let appIDs = Schema.array(.uuid, maxItems: 100)
        return [
            .optional("defaults", input ? defaults.nullable : defaults),
            .optional("substitutionVariables", Schema.map(.array(substitutionValue, minItems: 1, maxItems: 1000)).with("propertyNames", substitutionName)
                .described("AASA substitution variables: name → the values `$(name)` stands for in patterns. Built-in names are reserved.")
                .example(.object(["section": .array([.string("news"), .string("blog")])]))),
            .optional("webcredentials", appIDs.described("Ids of this workspace's apps listed under `webcredentials` (shared passwords).")),
            .optional("appclips", appIDs.described("Ids of this workspace's iOS apps listed under `appclips`.")),
            .optional("legacyPaths", Schema.boolean.described("Also write the legacy `paths` form that iOS 12 and older read.")),
            .optional("webFallbackUrl", (input ? APISchemas.httpsURLInput : Schema.url)
                .described("Where a link that no app opens sends the browser (absolute `https://`).")),
            .optional("carryPathToFallback", Schema.boolean.described("Append the link's path and query to the web fallback URL.")),
            .optional("androidDynamicRules", Schema.boolean.described(
                "Also write the rules into assetlinks.json as Android 15+ dynamic rules (`relation_extensions`, `dynamic_app_link_components`; docs/ANDROID.md).")),
            .optional("clickBehavior", (input ? clickBehavior.nullable : clickBehavior).described("""
                What a click on an app link gets: `landing` (the landing page: open in the app, get the app, continue to the website;                 the default for new domains) or `redirect` (302 to the store or the web fallback). Rules can override it (docs/LANDING.md).
                """)),
            .optional("deferredTTL", (input ? deferredTTL.nullable : deferredTTL).described("Seconds a landing page's click token can be claimed (default 86400).")),
            .optional("deferredClipboard", (input ? Schema.boolean.nullable : Schema.boolean).described("""
                iOS: "Get the app" puts the token's claim link on the pasteboard (said on the page), for the app to claim on first launch.
                """)),
        ]
    }

    private static let clickBehavior = Schema.enumeration(ClickBehavior.allCases.map(\.rawValue))
    private static let deferredTTL = Schema.integer(minimum: DomainSettingsInput.deferredTTLRange.lowerBound, maximum: DomainSettingsInput.deferredTTLRange.upperBound)

    /// A rule's overrides of the domain's click behaviour and of the destination type's preview metadata.
    static let ruleClick = Schema.object([
        .optional("behavior", clickBehavior.nullable),
        .optional("title", Schema.string(maxLength: TextLimit.name.scalars).nullable),
        .optional("description", Schema.string(maxLength: TextLimit.comment.scalars).nullable),
        .optional("imageUrl", APISchemas.httpsURLInput.nullable.described("An https image for preview cards.")),
    ], closed: true).described("What the rule's clicks get, overriding the domain's `clickBehavior` and the destination type's preview.")

    static var domains: [(name: String, schema: Schema)] {
        [
            ("Domain", Schema.object([.required("hostname", hostname)] + settingsProperties(input: false) + [
                .required("aasaUrl", Schema.url.readOnly.described("Where Apple's CDN fetches this domain's apple-app-site-association file.")),
                .optional("lastFetch", Schema.map(.ref("AssociationFetch")).readOnly
                    .described("`GET` of one domain only: the last fetch of each association file, by file name (`apple-app-site-association`, `assetlinks.json`).")),
                .required("createdAt", created),
                .required("updatedAt", updated),
            ], closed: false).described("A link domain with its association-file settings. Unique across the service; addressed by hostname.")),
            ("AssociationFetch", Schema.object([
                .required("at", Schema.timestamp),
                .required("userAgent", Schema.string.described("Who fetched it, e.g. Apple's CDN (`AASA-Bot/…`).")),
                .optional("etag", Schema.string.described("The version it got.")),
                .required("status", Schema.integer(minimum: 100, maximum: 599)),
            ], closed: false).described("When an association file was last fetched, by whom, and which version.")),
            ("DomainCreate", Schema.object([.required("hostname", hostname)] + settingsProperties(input: true), closed: true)),
            ("DomainUpdate", Schema.object([
                .optional("hostname", hostname.described("If sent, must be the domain's hostname: it cannot change.")),
            ] + settingsProperties(input: true), closed: true).described("Present settings replace the current ones; absent ones stay.")),
        ]
    }

    // MARK: Rules

    /// The members a client writes in a rule (`allowIdentity` adds the ones read back from `GET`).
    private static func ruleProperties(appsRequired: Bool, nullable: Bool) -> [Schema.Property] {
        func field(_ schema: Schema) -> Schema { nullable ? schema.nullable : schema }
        let apps = Schema.array(.uuid, minItems: 1, maxItems: 50).described("Ids of the workspace's apps the rule applies to, in order.")
        let pattern = Schema.string(maxLength: TextLimit.pattern.scalars)
        return [
            appsRequired ? .required("apps", apps) : .optional("apps", apps),
            .optional("path", field(pattern.described("A path template with typed captures (`/widget/{id}`, `/docs/{rest*}`) or a raw AASA pattern (`/help/*`).")
                .example("/widget/{id}"))),
            .optional("query", field(Schema.ref("RuleQuery"))),
            .optional("fragment", field(pattern.described("A fragment pattern or template."))),
            .optional("exclude", field(Schema.boolean.described("Matching URLs open no app (an AASA `exclude` component). An exclusion has no destination."))),
            .optional("caseSensitive", field(Schema.boolean)),
            .optional("percentEncoded", field(Schema.boolean)),
            .optional("comment", field(Schema.string(maxLength: 500))),
            .optional("destination", field(Schema.ref("DestinationBinding"))),
            .optional("click", nullable ? ruleClick.nullable : ruleClick),
        ]
    }

    private static let position = Schema.integer(minimum: 0).described("Where the rule goes in the list (0 is first); the end when absent or beyond it.")

    static var rules: [(name: String, schema: Schema)] {
        [
            ("Rule", Schema.object([
                .required("id", Schema.uuid.readOnly),
                .required("position", Schema.integer(minimum: 0).readOnly.described("Its place in the list: the first matching rule wins.")),
            ] + ruleProperties(appsRequired: true, nullable: false) + [
                .required("createdAt", created),
                .required("updatedAt", updated),
            ], closed: false).described("One path rule: the single source of its AASA component and of its resolve answer.")),
            ("RuleQuery", Schema.oneOf([
                Schema.string(maxLength: TextLimit.pattern.scalars).described("A pattern for the whole query string (cannot capture)."),
                Schema.map(Schema.string(maxLength: TextLimit.pattern.scalars)).described("Query item name → pattern or `{capture}`."),
            ]).described("A query-string pattern, or a dictionary of query items.")),
            ("DestinationBinding", Schema.object([
                .required("type", identifier.described("A destination type every app of the rule declares.")),
                .optional("params", Schema.map(.oneOf([.string, Schema([JSONMember(key: "type", value: .string("number"))]), .boolean]))
                    .described("Parameter → `\"{capture}\"` or a constant. An unbound parameter takes the capture of the same name.")),
            ], closed: true).example(.object(["type": .string("widgetDetail"), "params": .object(["id": .string("{id}"), "tab": .string("info")])]))),
            ("RuleCreate", Schema.object(ruleProperties(appsRequired: true, nullable: false) + [.optional("position", position)], closed: true)),
            ("RuleUpdate", Schema.object(ruleProperties(appsRequired: false, nullable: true) + [.optional("position", position.described("Moves the rule there."))],
                                         closed: true).described("Present fields replace the rule's, `null` clears one, `position` moves the rule.")),
            ("RuleListEntry", Schema.object([
                .optional("id", Schema.uuid.described("Keep this rule's identity (and its analytics); a new id is made when absent or not one of the domain's rules.")),
                .optional("position", Schema([]).described("Ignored: the order of the list is the order.")),
                .optional("createdAt", Schema([]).described("Ignored.")),
                .optional("updatedAt", Schema([]).described("Ignored.")),
            ] + ruleProperties(appsRequired: true, nullable: false), closed: true)
                .described("A rule in a whole list; what `GET` returns can be sent back.")),
            ("RuleListReplace", Schema.object([
                .required("rules", Schema.array(.ref("RuleListEntry"), maxItems: 10_000).described("The new list, in order; rules left out are deleted.")),
            ], closed: true)),
            ("RuleList", Schema.object([.required("items", Schema.array(.ref("Rule")))], closed: false)
                .described("The whole rule list, in order. Its ETag is the domain's rule-list version.")),
            ("PreviewRequest", Schema.object([
                .optional("rules", Schema.array(.ref("RuleListEntry"), maxItems: 10_000).described("A proposed list; the stored one when absent.")),
            ], closed: true)),
            ("Preview", Schema.object([
                .required("aasa", Schema.ref("AASAFile")),
                .required("assetlinks", Schema.ref("AssetLinks")),
                .required("size", Schema.integer(minimum: 0).described("Bytes of the generated AASA file (iOS rejects more than 128 KB).")),
                .required("lint", Schema.array(.ref("LintFinding")).described("Warnings about the generated file (errors are 422s).")),
            ], closed: false).described("What the rule list would generate. Nothing is saved.")),
            ("AASAFile", Schema.object([
                .optional("applinks", Schema.anyObject.described("`apps`, `defaults`, `substitutionVariables` and `details` with `appIDs` and `components`.")),
                .optional("webcredentials", Schema.object([.required("apps", .array(.string))], closed: false)),
                .optional("appclips", Schema.object([.required("apps", .array(.string))], closed: false)),
            ], closed: false).described("An apple-app-site-association file, as Apple documents it.")),
            ("AssetLinks", Schema.array(Schema.object([
                .required("relation", Schema.array(.string)),
                .required("target", Schema.anyObject.described("`namespace`, `package_name` and `sha256_cert_fingerprints`.")),
                .optional("relation_extensions", Schema.anyObject.described(
                    "With `androidDynamicRules`: `{\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_link_components\": [{\"/\", \"?\", \"#\", \"exclude\"}…]}}`, the app's rules in order.")),
            ], closed: false)).described("A Digital Asset Links statement list (assetlinks.json).")),
            ("LintFinding", Schema.object([
                .required("severity", .enumeration(["error", "warning"])),
                .required("code", Schema.string.described("Stable identifier of the kind of finding.").example("unreachableRule")),
                .required("pointer", Schema.string.described("RFC 6901 pointer into the generated file.")),
                .required("message", Schema.string),
            ], closed: false)),
        ]
    }
}
