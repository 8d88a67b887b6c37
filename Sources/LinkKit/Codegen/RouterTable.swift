/// What a generated router decides with, for one app: its destination types, the link domains that name it,
/// each with the rules (compiled as resolve compiles them: `CompiledRule`'s patterns) and the entry groups of
/// every app the domain lists (the app's decision depends on the others': the earliest deciding entry wins),
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

    /// - Parameters:
    ///   - domains: the domains whose rules name the app, the scheme's domain among them; and exact domains a
    ///     wildcard of them governs (they take precedence on their host, so the router must know them).
    ///   - claimDomains: the hostnames of `domains` that opted in to pasteboard claims.
    public init(appID: String, platform: AppPlatform, scheme: String?, destinations: [DestinationType],
                domains: [Domain], schemeDomain: Int?, claimDomains: [String] = []) {
        self.appID = appID
        self.platform = platform
        self.scheme = scheme?.lowercased()
        self.destinations = destinations.sorted { $0.name < $1.name }
        self.domains = domains
        self.schemeDomain = schemeDomain
        self.claimDomains = claimDomains.sorted()
    }

    /// The table as one value: `Table(scheme, schemeDomain, specs, domains, rules, variables)`.
    public var value: CodeValue {
        var rules: [CodeValue] = []
        var alternatives: [CodeValue] = []
        let domainValues = domains.map { domain in Self.domainValue(domain, appID: appID, platform: platform, rules: &rules, alternatives: &alternatives) }
        return .call("Table", [
            scheme.map(CodeValue.string) ?? .null,
            .int(schemeDomain ?? -1),
            .list(destinations.map(Self.specValue)),
            .list(domainValues),
            .list(rules),
            .list(alternatives),
        ])
    }

    /// `Domain(host, groups, appGroups, app, android)`: each group lists entry numbers and rule numbers (in the
    /// table's rules) alternately, in entry order; `appGroups[i]` is the group of the domain's `i`-th app; `app` is
    /// this app's index among them (-1: the domain names it not). `android` says whose semantics decide: 0 iOS's
    /// (the AASA file's entries, `RuleMatcher`), 1 Android's manifest alone, 2 the manifest and the dynamic rules
    /// (`AndroidAppLinks.decide`); for Android, a group is one app's rules with their positions as entry numbers.
    private static func domainValue(_ domain: Domain, appID: String, platform: AppPlatform,
                                    rules: inout [CodeValue], alternatives: inout [CodeValue]) -> CodeValue {
        let compiled = domain.compiled
        let linkRules = compiled.rules
        let variables = RuleMatcher.variables(compiled.settings.substitutionVariables)
        var numbered: [Int: Int] = [:]   // position in the domain → number in the table
        // A rule's destination binding is written when the rule names the app (only its decisions build one).
        func number(_ position: Int, android: AndroidAppLinks.Rule?) -> Int {
            if let known = numbered[position] { return known }
            let number = rules.count
            numbered[position] = number
            rules.append(ruleValue(linkRules[position], settings: compiled.settings, variables: variables,
                                   captures: linkRules[position].apps.contains(appID),
                                   android: android, alternatives: &alternatives))
            return number
        }
        if platform == .android {
            let android = compiled.android
            let selfIndex = android.apps.firstIndex { $0.app.id == appID } ?? -1
            let groups: [CodeValue] = android.apps.map { entry in
                .list(entry.rules.flatMap { rule -> [CodeValue] in
                    [.int(rule.position), .int(number(rule.position, android: rule))]
                })
            }
            return .call("Domain", [
                .string(domain.hostname), .list(groups), .list(android.apps.indices.map(CodeValue.int)), .int(selfIndex),
                .int(android.dynamicRules ? 2 : 1),
            ])
        }
        let (matcher, apps) = (compiled.ios, compiled.iosApps)
        let selfIndex = apps.firstIndex { $0?.id == appID } ?? -1
        let groups: [CodeValue] = matcher.groups.map { group in
            .list(group.ruleNumbers.flatMap { entry -> [CodeValue] in
                let position = Int(matcher.entries.rule(entry))
                return [.int(Int(entry)), .int(number(position, android: nil))]
            })
        }
        return .call("Domain", [
            .string(domain.hostname), .list(groups), .list(matcher.groupOfAppIndex.map(CodeValue.int)), .int(selfIndex), .int(0),
        ])
    }

    /// `Rule(slot, exclude, never, path, parent, queryString, queryItems, fragment, capture, manifest, dynamic)`:
    /// the patterns as `CompiledRule` compiles them (lower-cased when case-insensitive), `slot` the form
    /// (`MatchSubject.Form.slot`), `capture` (nil: no destination) what resolve extracts, and for an Android
    /// app the rule as Android reads it (`AndroidPatternMatcher.tableText`, `AndroidDynamicRule.tableTexts`; empty
    /// lists for an iOS app).
    private static func ruleValue(_ rule: LinkRule, settings: DomainSettings, variables: [String: [String]], captures: Bool,
                                  android: AndroidAppLinks.Rule?, alternatives: inout [CodeValue]) -> CodeValue {
        let compiled = CompiledRule(effective: RuleMatcher.effective(rule.component, detailDefaults: nil, fileDefaults: settings.defaults),
                                    variables: variables)
        func pattern(_ pattern: Pattern?) -> CodeValue {
            guard let pattern else { return .null }
            return patternTokens(pattern.elements, alternatives: &alternatives)
        }
        var queryString = CodeValue.null
        var items: [CodeValue] = []
        switch compiled.query {
        case .any: break
        case .string(let query): queryString = pattern(query)
        case .items(let requirements):
            items = requirements.map { .call("Item", [.string(String(decoding: $0.name, as: UTF8.self)), pattern($0.pattern)]) }
        }
        return .call("Rule", [
            .int(compiled.form.slot), .bool(compiled.exclude), .bool(compiled.never), pattern(compiled.path), pattern(compiled.parentPath),
            queryString, .list(items), pattern(compiled.fragment),
            captures ? captureValue(rule, settings: settings) : .null,
            .list((android?.manifest?.elements ?? []).map { .string($0.tableText) }),
            .list((android?.dynamic ?? []).map { .list($0.tableTexts.map(CodeValue.string)) }),
        ])
    }

    /// `Capture(path, fragment, items, type, params)`: the templates and the destination binding's explicit
    /// parameters `Param(name, isConstant, value)`. A raw pattern captures nothing: its text is one `P` token when
    /// it names one URL (the server's builder prints it, `RulePattern.printed`), nil when it has wildcards; a rule
    /// without a path prints `/`, and a raw query's text follows the path's tokens as `P?` + text.
    private static func captureValue(_ rule: LinkRule, settings: DomainSettings) -> CodeValue {
        guard let binding = rule.destination else { return .null }
        let encoded = rule.percentEncoded ?? settings.defaults?.percentEncoded ?? true
        var items: [CodeValue] = []
        if case .items(let queryItems)? = rule.query {
            items = queryItems.map { .call("CaptureItem", [.string($0.name), templateTokens($0.pattern, isPath: false, percentEncoded: encoded)]) }
        }
        let params: [CodeValue] = binding.params.keys.sorted().map { name in
            switch binding.params[name]! {
            case .capture(let capture): .call("Param", [.string(name), .bool(false), .string(capture)])
            case .constant(let value): .call("Param", [.string(name), .bool(true), .string(value)])
            }
        }
        var path = rule.path.map { templateTokens($0, isPath: true, percentEncoded: encoded) } ?? .list([.string("P/")])
        if case .list(let tokens) = path, case .string(let raw)? = rule.query,
           let literal = RulePattern.raw(raw).printed([:], isPath: false, percentEncoded: true), !literal.isEmpty {
            path = .list(tokens + [.string("P?" + literal)])
        }
        return .call("Capture", [path, rule.fragment.map { templateTokens($0, isPath: false, percentEncoded: encoded) } ?? .null,
                                 .list(items), .string(binding.type), .list(params)])
    }

    /// A template's elements as tokens: `L` + literal, `C` + name (one segment), `O` + name (one segment, possibly
    /// empty: an optional capture), `R` + name (the rest); a raw pattern's printed text as `P` + text (nil when
    /// it has wildcards).
    private static func templateTokens(_ pattern: RulePattern, isPath: Bool, percentEncoded: Bool) -> CodeValue {
        guard case .template(let template) = pattern else {
            return pattern.printed([:], isPath: isPath, percentEncoded: percentEncoded).map { .list([.string("P" + $0)]) } ?? .null
        }
        return .list(template.elements.map { element in
            switch element {
            case .literal(let text): .string("L" + text)
            case .capture(let name, let rest): .string((rest ? "R" : template.optionalCaptures.contains(name) ? "O" : "C") + name)
            }
        })
    }

    /// A pattern's elements as tokens: `L` + literal, `?`, `*`, `N` (never matches), `C`/`c` + class name (`c`:
    /// either case), `V` + the index of its alternatives (each a token list without variables).
    private static func patternTokens(_ elements: [Pattern.Element], alternatives: inout [CodeValue]) -> CodeValue {
        .list(elements.map { element -> CodeValue in
            switch element {
            case .literal(let bytes): .string("L" + String(decoding: bytes, as: UTF8.self))
            case .one: .string("?")
            case .star: .string("*")
            case .variable(.never): .string("N")
            case .variable(.characterClass(let characterClass, let anyCase)): .string((anyCase ? "c" : "C") + "\(characterClass)")
            case .variable(.alternatives(let values)):
                {
                    let index = alternatives.count
                    alternatives.append(.null)
                    // In a fixed order (the compiled order follows a set's): the table and its ETag are the same on
                    // every node. Any order decides alike: every alternative is tried.
                    let listed = values.map { patternTokens($0, alternatives: &alternatives) }
                    alternatives[index] = .list(listed.sorted { $0.source(.typescript) < $1.source(.typescript) })
                    return .string("V\(index)")
                }()
            }
        })
    }

    /// `Spec(type, requiresSignIn, params)` with `ParamSpec(name, kind, optional, min, max, values)`: `min` and
    /// `max` as decimal text (lengths for strings), so 64-bit bounds survive every language.
    private static func specValue(_ destination: DestinationType) -> CodeValue {
        .call("Spec", [.string(destination.name), .bool(destination.requiresSignIn), .list(destination.parameters.map { spec in
            var low: String?
            var high: String?
            var values: [String] = []
            switch spec.kind {
            case .string(let minLength, let maxLength): (low, high) = (minLength.map(String.init), maxLength.map(String.init))
            case .int(let min, let max): (low, high) = (min.map(String.init), max.map(String.init))
            case .enumeration(let list): values = list
            case .uuid, .bool: break
            }
            return .call("ParamSpec", [.string(spec.name), .string(spec.kind.name), .bool(spec.optional),
                                       low.map(CodeValue.string) ?? .null, high.map(CodeValue.string) ?? .null,
                                       .list(values.map(CodeValue.string))])
        })])
    }
}
