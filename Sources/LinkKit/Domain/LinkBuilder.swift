/// Builds links from typed destinations: the inverse of resolve, over one compiled domain (docs/LINKS.md).
///
/// The first rule in order bound to the destination type, for the app, whose patterns can print the values
/// gives the URL; that URL is then resolved on the same domain, and returned only when resolve gives back
/// the same rule and destination. A URL an earlier rule or exclusion decides is refused, never returned.
public struct LinkBuilder: Sendable {
    /// One built link: the universal link and the rule that prints (and resolves) it.
    public struct Link: Sendable, Equatable {
        /// The https URL on the domain.
        public let url: AASAURL
        public let rule: LinkRule
        public let position: Int

        /// The same link in `scheme` (`widgets://widget/42?tab=reviews`).
        public func custom(scheme: String) -> String {
            AASAURL.customSchemeText(scheme: scheme, path: url.path, query: url.query, fragment: url.fragment)
        }
    }

    /// Why no link could be built.
    public enum Failure: Error, Sendable, Equatable {
        /// No rule of the app bound to the type can print the values; the sentence says why.
        case noRule(String)
        /// The printed URL is decided by an earlier rule (or exclusion) than the one that printed it.
        case shadowed(String)

        public var detail: String {
            switch self {
            case .noRule(let detail), .shadowed(let detail): detail
            }
        }
    }

    public let domain: CompiledDomain
    /// The host of the universal links (a wildcard domain's root).
    public let host: String
    private let rules: [LinkRule]
    private let ruleID: @Sendable (Int) -> String?

    /// - Parameter ruleID: the id of the rule at a position (as `CompiledDomain.resolve`).
    public init(domain: CompiledDomain, host: String, ruleID: @escaping @Sendable (Int) -> String? = { _ in nil }) {
        self.domain = domain
        self.host = host
        rules = domain.rules
        self.ruleID = ruleID
    }

    /// The link to `type` with `values` (checked with `DestinationType.values`) for `app`.
    public func build(_ type: String, _ values: [String: TypedValue], for app: DomainApp) -> Result<Link, Failure> {
        guard let destination = app.destinations[type] else {
            return .failure(.noRule("The app has no destination type '\(type)'."))
        }
        var reasons: [String] = []
        for (position, rule) in rules.enumerated()
        where rule.destination?.type == type && rule.exclude != true && rule.apps.contains(app.id) {
            let label = "The rule at position \(position)"
            guard let printed = print(rule, values, destination, reasons: &reasons, label: label) else { continue }
            let url: AASAURL
            do { url = try AASAURL("https://" + host + printed) } catch {
                reasons.append("\(label) prints '\(printed)', which is no URL."); continue
            }
            let resolved = domain.resolve(url, platform: app.platform, ruleID: ruleID)
            let expected = Self.expected(type, values, rule.destination!, destination)
            if resolved.outcome == .openApp, resolved.app?.id == app.id, resolved.position == position, resolved.destination == expected {
                return .success(Link(url: url, rule: resolved.rule ?? rule, position: position))
            }
            if let earlier = resolved.position, earlier < position {
                let verb = resolved.outcome == .excluded ? "excludes" : "decides"
                return .failure(
                    .shadowed(
                        "\(label) prints \(url.text), but the earlier rule at position \(earlier)\(resolved.rule.map { $0.id.isEmpty ? "" : " (\($0.id))" } ?? "") \(verb) that URL first."
                    ))
            }
            let got = resolved.position.map { "\(resolved.outcome.rawValue) by the rule at position \($0)" } ?? resolved.outcome.rawValue
            reasons.append(
                "\(label) prints \(url.text), which resolves to \(got)\(resolved.position == position ? " with another destination" : "").")
        }
        if reasons.isEmpty {
            return .failure(.noRule("No rule of this domain is bound to the destination type '\(type)' for the app."))
        }
        return .failure(.noRule(reasons.joined(separator: " ")))
    }

    /// The destination resolve gives for the printed URL: the values, and the binding's constants.
    static func expected(
        _ type: String, _ values: [String: TypedValue], _ binding: DestinationBinding, _ destination: DestinationType
    ) -> ResolvedDestination {
        var params: [(name: String, value: TypedValue)] = []
        for spec in destination.parameters {
            if case .constant(let text)? = binding.params[spec.name], case .success(let value) = spec.convert(text) {
                params.append((spec.name, value))
            } else if let value = values[spec.name] {
                params.append((spec.name, value))
            }
        }
        return .destination(type: type, params: params)
    }

    /// The path, query and fragment `rule` prints for `values`, or nil (with the reason added) when it cannot.
    private func print(
        _ rule: LinkRule, _ values: [String: TypedValue], _ destination: DestinationType, reasons: inout [String], label: String
    ) -> String? {
        if let path = rule.path, path.isWildcard {
            reasons.append("\(label) cannot print its path: '\(path.text)' is a raw AASA pattern, which names no one URL.")
            return nil
        }
        let binding = rule.destination!
        let available = rule.captureNames
        var captures: [String: String] = [:]
        for spec in destination.parameters {
            let value = values[spec.name]
            switch binding.params[spec.name] ?? .capture(spec.name) {
            case .constant(let text):
                if let value, spec.convert(text) != .success(value) {
                    reasons.append("\(label) sets '\(spec.name)' to the constant '\(text)'.")
                    return nil
                }
            case .capture(let name):
                guard let value else { continue }
                guard available.contains(name) else {
                    reasons.append("\(label) has no capture for the parameter '\(spec.name)'.")
                    return nil
                }
                captures[name] = value.text
            }
        }
        // (Case needs nothing: extraction keeps the case of captured text whatever `caseSensitive` says.)
        let encoded = rule.percentEncoded ?? domain.settings.defaults?.percentEncoded ?? true
        func fail(_ what: String) -> String? {
            reasons.append("\(label) cannot print \(what).")
            return nil
        }
        var out = "/"
        if let path = rule.path {
            guard let printed = path.printed(captures, isPath: true, percentEncoded: encoded) else {
                return fail("its path '\(path.text)' with these parameters")
            }
            out = printed.utf8.first == UInt8(ascii: "/") ? printed : "/" + printed
        }
        switch rule.query {
        case .string(let pattern)?:
            // A wildcard query is left out (resolve then says whether the rule still claims the URL).
            if let literal = RulePattern.raw(pattern).printed([:], isPath: false, percentEncoded: true), !literal.isEmpty {
                out += "?" + literal
            }
        case .items(let items)?:
            var query: [String] = []
            for item in items {
                // A wildcard no parameter fills is left out (resolve then says whether the rule still claims the URL).
                if item.pattern.isWildcard { continue }
                guard let value = item.pattern.printed(captures, isPath: false, percentEncoded: encoded) else {
                    // A required capture without a value: left out too, for resolve to refuse with its reason.
                    if item.pattern.captureNames.allSatisfy({ captures[$0] == nil }) { continue }
                    return fail("the query item '\(item.name)' with these parameters")
                }
                // An optional capture left out prints nothing: an absent item reads as the empty value
                // (docs/aasa-semantics.md §5), so the item is left out.
                if value.isEmpty, !item.pattern.captureNames.isEmpty { continue }
                let name = encoded ? item.name : PercentEncoding.encode(item.name, keepingSlashes: false)
                query.append(name + "=" + value)
            }
            if !query.isEmpty { out += "?" + query.joined(separator: "&") }
        case nil:
            break
        }
        if let fragment = rule.fragment {
            let names = fragment.captureNames
            if !fragment.isWildcard, names.isEmpty || names.contains(where: { captures[$0] != nil }) {
                guard let printed = fragment.printed(captures, isPath: false, percentEncoded: encoded) else {
                    return fail("its fragment '\(fragment.text)' with these parameters")
                }
                out += "#" + printed
            } else if !fragment.isWildcard, let printed = fragment.printed(captures, isPath: false, percentEncoded: encoded),
                !printed.isEmpty
            {
                // Every capture optional and left out, around literal text the pattern still needs.
                out += "#" + printed
            }
        }
        return out
    }
}
