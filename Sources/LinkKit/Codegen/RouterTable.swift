/// What a generated router decides with, for one app: its destination types, the link domains that name it,
/// each with the rules (compiled as resolve compiles them: `CompiledRule`'s patterns) in the entries of every app
/// the domain lists (the app's decision depends on the others': the earliest deciding entry wins),
/// and its custom scheme. The table is data; each language has one small interpreter of it (docs/CODEGEN.md),
/// so the decisions are made in one place, LinkKit's compilation, and only read three times.
public struct RouterTable: Sendable {
    /// One link domain as the generator sees it.
    public typealias Domain = HostedDomain

    public let appID: String
    public let platform: AppPlatform
    public let scheme: String?
    public let destinations: [DestinationType]
    /// The app's domains first (in order), then domains that only shadow one of its wildcards.
    public let domains: [Domain]
    /// The domain a custom-scheme URL is resolved on (the app's primary domain), an index in `domains`.
    public let schemeDomain: Int?
    /// The app's domains whose iOS landing pages put the claim link on the pasteboard (`deferredClipboard`): the
    /// only ones whose claim links the app's `LinkDeferredClaim` reads (docs/LANDING.md).
    public let claimDomains: [String]
    /// The slugs of each domain's targeted links (targets or variants), by hostname: the router hands them to
    /// resolve (`needsResolve`) rather than decide them from the rules alone (docs/CODEGEN.md, "Targeted links").
    public let targetedLinks: [String: [String]]

    /// - Parameters:
    ///   - domains: the domains whose rules name the app, the scheme's domain among them; and exact domains a
    ///     wildcard of them governs (they take precedence on their host, so the router must know them).
    ///   - claimDomains: the hostnames of `domains` that opted in to pasteboard claims.
    ///   - targetedLinks: the slugs of the targeted links of `domains`, by hostname.
    public init(
        appID: String, platform: AppPlatform, scheme: String?, destinations: [DestinationType],
        domains: [Domain], schemeDomain: Int?, claimDomains: [String] = [], targetedLinks: [String: [String]] = [:]
    ) {
        self.appID = appID
        self.platform = platform
        self.scheme = scheme?.lowercased()
        self.destinations = destinations.sorted { $0.name < $1.name }
        self.domains = domains
        self.schemeDomain = schemeDomain
        self.claimDomains = claimDomains.sorted()
        self.targetedLinks = targetedLinks.mapValues { $0.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
    }

    /// The table as one value, every field by its name and the defaults left out:
    /// `Table(scheme:, schemeDomain:, specs:, domains:)`. A rule is written once, inside its domain, where it
    /// stands in the domain's order: adding one rule adds its line and changes no number elsewhere.
    public var value: CodeValue {
        let schemeHost = schemeDomain.map { domains[$0].hostname }
        return .record(
            "Table",
            [
                "scheme": scheme.map(CodeValue.string),
                "schemeDomain": schemeHost.map(CodeValue.string),
                "specs": .listed(destinations.map(Self.specValue), lines: true),
                "domains": .listed(
                    domains.map { Self.domainValue($0, appID: appID, platform: platform, targeted: targetedLinks[$0.hostname] ?? []) },
                    lines: true),
            ])
    }

    /// `Domain(host:, decides:, apps:, app:, entries:, targeted:)`: the apps the domain lists (`apps`, in the order a tie goes
    /// to the first), this app among them (`app`, left out when the domain names it not), and the entries in the
    /// order they decide: each `Entry(apps:, rules:)` a run of consecutive rules for the same apps, as the AASA
    /// file's `details` (an earlier entry wins over a later one among apps). `decides` says whose semantics decide:
    /// `.ios` (the AASA file, `RuleMatcher`), `.android` (the manifest alone) or `.androidDynamicRules` (the
    /// manifest and the dynamic rules, `AndroidAppLinks.decide`); for Android, an app's rules in their positions.
    /// `targeted`: the slugs of the domain's targeted links, left out when none.
    private static func domainValue(_ domain: Domain, appID: String, platform: AppPlatform, targeted: [String]) -> CodeValue {
        let compiled = domain.compiled
        let linkRules = compiled.rules
        let variables = RuleMatcher.variables(compiled.settings.substitutionVariables)
        // The apps of each rule in deciding order, as (position, app indices), then runs of the same apps.
        var order: [(position: Int, apps: [Int], android: AndroidAppLinks.Rule?)] = []
        let names: [String]
        let selfIndex: Int?
        let decides: String
        if platform == .android {
            let android = compiled.android
            names = android.apps.map(\.app.identifier)
            selfIndex = android.apps.firstIndex { $0.app.id == appID }
            decides = android.dynamicRules ? "androidDynamicRules" : "android"
            var byPosition: [Int: (apps: [Int], rule: AndroidAppLinks.Rule)] = [:]
            for (index, entry) in android.apps.enumerated() {
                for rule in entry.rules { byPosition[rule.position, default: ([], rule)].apps.append(index) }
            }
            order = byPosition.keys.sorted().map { ($0, byPosition[$0]!.apps, byPosition[$0]!.rule) }
        } else {
            let matcher = compiled.ios
            names = matcher.appIDs
            selfIndex = compiled.iosApps.firstIndex { $0?.id == appID }
            decides = "ios"
            var appsOfEntry = [[Int]](repeating: [], count: matcher.entries.count)
            for (index, group) in matcher.groupOfAppIndex.enumerated() {
                for entry in matcher.groups[group].ruleNumbers { appsOfEntry[Int(entry)].append(index) }
            }
            order = appsOfEntry.indices.map { (Int(matcher.entries.rule(Int32($0))), appsOfEntry[$0], nil) }
        }
        var entries: [(apps: [Int], rules: [CodeValue])] = []
        for (position, apps, android) in order where !apps.isEmpty {
            let rule = ruleValue(
                linkRules[position], settings: compiled.settings, variables: variables,
                captures: linkRules[position].apps.contains(appID), android: android)
            if entries.last?.apps == apps { entries[entries.count - 1].rules.append(rule) } else { entries.append((apps, [rule])) }
        }
        return .record(
            "Domain",
            [
                "host": .string(domain.hostname),
                "decides": .token("Decides", decides),
                "apps": .list(names.map(CodeValue.string)),
                "app": selfIndex.map { .string(names[$0]) },
                "entries": .listed(
                    entries.map { entry in
                        .record("Entry", ["apps": .list(entry.apps.map { .string(names[$0]) }), "rules": .lines(entry.rules)])
                    }, lines: true),
                "targeted": .listed(targeted.map(CodeValue.string)),
            ])
    }

    /// `Rule(path:, parent:, query:, items:, fragment:, caseSensitive:, percentEncoded:, exclude:, never:, capture:,
    /// manifest:, dynamic:)`: the patterns as `CompiledRule` compiles them (lower-cased when case-insensitive) as
    /// glob tokens (`Glob`), the form each compares in, `capture` (left out: no destination) what resolve
    /// extracts, and for an Android app the rule as Android reads it: the manifest's path attributes
    /// (`AndroidPatternMatcher`) and the dynamic rules (`Dynamic(path:, fragment:, query:)`, simple globs).
    private static func ruleValue(
        _ rule: LinkRule, settings: DomainSettings, variables: [String: [String]], captures: Bool,
        android: AndroidAppLinks.Rule?
    ) -> CodeValue {
        let compiled = CompiledRule(
            effective: RuleMatcher.effective(rule.component, detailDefaults: nil, fileDefaults: settings.defaults),
            variables: variables)
        func pattern(_ pattern: Pattern?) -> CodeValue? { pattern.map { patternTokens($0.elements) } }
        var queryString: CodeValue?
        var items: [CodeValue] = []
        switch compiled.query {
        case .any: break
        case .string(let query): queryString = pattern(query)
        case .items(let requirements):
            items = requirements.map {
                .record("Item", ["name": .string(String(decoding: $0.name, as: UTF8.self)), "pattern": pattern($0.pattern)])
            }
        }
        let form = compiled.form.slot
        return .record(
            "Rule",
            [
                "path": pattern(compiled.path),
                "parent": pattern(compiled.parentPath),
                "query": queryString,
                "items": .listed(items),
                "fragment": pattern(compiled.fragment),
                "caseSensitive": .flag(form % 2 == 0, default: true),
                "percentEncoded": .flag(form < 2, default: true),
                "exclude": .flag(compiled.exclude, default: false),
                "never": .flag(compiled.never, default: false),
                "capture": captures ? captureValue(rule, settings: settings) : nil,
                "manifest": .listed((android?.manifest?.elements ?? []).map(\.tableValue)),
                "dynamic": .listed((android?.dynamic ?? []).map(\.tableValue)),
            ])
    }

    /// `Capture(type:, path:, items:, fragment:, params:)`: the templates as parts (`Part`) and the destination
    /// binding's explicit parameters, `Param(name:, capture:)` or `Param(name:, constant:)`. A raw pattern captures
    /// nothing: it is one `.printed` part when it names one URL (the server's builder prints it,
    /// `RulePattern.printed`), left out when it has wildcards; a rule without a path prints `/`, and a raw query's
    /// text follows the path's parts as `.printed("?" + text)`.
    private static func captureValue(_ rule: LinkRule, settings: DomainSettings) -> CodeValue? {
        guard let binding = rule.destination else { return nil }
        let encoded = rule.percentEncoded ?? settings.defaults?.percentEncoded ?? true
        var items: [CodeValue] = []
        if case .items(let queryItems)? = rule.query {
            items = queryItems.map {
                .record(
                    "CaptureItem",
                    ["name": .string($0.name), "template": templateTokens($0.pattern, isPath: false, percentEncoded: encoded)])
            }
        }
        let params: [CodeValue] = binding.params.keys.sorted().map { name in
            switch binding.params[name]! {
            case .capture(let capture): .record("Param", ["name": .string(name), "capture": .string(capture)])
            case .constant(let value): .record("Param", ["name": .string(name), "constant": .string(value)])
            }
        }
        var path =
            rule.path.map { templateTokens($0, isPath: true, percentEncoded: encoded) } ?? .list([.token("Part", "printed", .string("/"))])
        if case .list(let tokens)? = path, case .string(let raw)? = rule.query,
            let literal = RulePattern.raw(raw).printed([:], isPath: false, percentEncoded: true), !literal.isEmpty
        {
            path = .list(tokens + [.token("Part", "printed", .string("?" + literal))])
        }
        return .record(
            "Capture",
            [
                "type": .string(binding.type),
                "path": path,
                "items": .listed(items),
                "fragment": rule.fragment.flatMap { templateTokens($0, isPath: false, percentEncoded: encoded) },
                "params": .listed(params),
            ])
    }

    /// A template's elements as parts: `.literal`, `.capture` (one segment), `.optional` (one segment, possibly
    /// empty: an optional capture), `.rest` (the rest); a raw pattern's printed text as `.printed` (nil when it
    /// has wildcards).
    private static func templateTokens(_ pattern: RulePattern, isPath: Bool, percentEncoded: Bool) -> CodeValue? {
        guard case .template(let template) = pattern else {
            return pattern.printed([:], isPath: isPath, percentEncoded: percentEncoded).map {
                .list([.token("Part", "printed", .string($0))])
            }
        }
        return .list(
            template.elements.map { element in
                switch element {
                case .literal(let text): .token("Part", "literal", .string(text))
                case .capture(let name, let rest):
                    .token("Part", rest ? "rest" : template.optionalCaptures.contains(name) ? "optional" : "capture", .string(name))
                }
            })
    }

    /// A pattern's elements as glob tokens: `.literal`, `.one` (`?`), `.star` (`*`), `.never`, `.characterClass`
    /// (`anyCase`: either case), `.alternatives` (a substitution variable's values, each a token list).
    private static func patternTokens(_ elements: [Pattern.Element]) -> CodeValue {
        .list(
            elements.map { element -> CodeValue in
                switch element {
                case .literal(let bytes): .token("Glob", "literal", .string(String(decoding: bytes, as: UTF8.self)))
                case .one: .token("Glob", "one")
                case .star: .token("Glob", "star")
                case .variable(.never): .token("Glob", "never")
                case .variable(.characterClass(let characterClass, let anyCase)):
                    .token("Glob", "characterClass", .string("\(characterClass)"), ["anyCase": .flag(anyCase, default: false)])
                case .variable(.alternatives(let values)):
                    // In a fixed order (the compiled order follows a set's): the table and its ETag are the same on
                    // every node. Any order decides alike: every alternative is tried.
                    .token(
                        "Glob", "alternatives", .list(values.map(patternTokens).sorted { $0.source(.typescript) < $1.source(.typescript) }))
                }
            })
    }

    /// `Spec(type:, requiresSignIn:, params:)` with `ParamSpec(name:, kind:, optional:, min:, max:, values:)`: `min`
    /// and `max` as decimal text (lengths for strings), so 64-bit bounds survive every language.
    private static func specValue(_ destination: DestinationType) -> CodeValue {
        .record(
            "Spec",
            [
                "type": .string(destination.name),
                "requiresSignIn": .flag(destination.requiresSignIn, default: false),
                "params": .listed(
                    destination.parameters.map { spec in
                        var low: String?
                        var high: String?
                        var values: [String] = []
                        switch spec.kind {
                        case .string(let minLength, let maxLength): (low, high) = (minLength.map(String.init), maxLength.map(String.init))
                        case .int(let min, let max): (low, high) = (min.map(String.init), max.map(String.init))
                        case .enumeration(let list): values = list
                        case .uuid, .bool: break
                        }
                        return .record(
                            "ParamSpec",
                            [
                                "name": .string(spec.name), "kind": .string(spec.kind.name),
                                "optional": .flag(spec.optional, default: false),
                                "min": low.map(CodeValue.string), "max": high.map(CodeValue.string),
                                "values": .listed(values.map(CodeValue.string)),
                            ])
                    }, lines: true),
            ])
    }
}
