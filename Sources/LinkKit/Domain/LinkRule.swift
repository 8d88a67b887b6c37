/// A path rule of a link domain: the single source of both its AASA component (what iOS matches) and its
/// resolve answer (the typed destination built from the captures).
public struct LinkRule: Sendable, Hashable {
    /// The stored rule's id, reported by resolve as "the rule that decided".
    public let id: String
    /// The apps the rule applies to (ids of `DomainApp`s), in order.
    public let apps: [String]
    public let path: RulePattern?
    public let query: RuleQuery?
    public let fragment: RulePattern?
    /// The keys the rule writes into its component as they are (`exclude`, `caseSensitive`, `percentEncoded`,
    /// `comment`): a component without patterns, which `component` completes with what the templates print.
    public let keys: AASAComponent
    /// Where the link leads inside the app; nil for exclusions and rules that only claim URLs.
    public let destination: DestinationBinding?

    public init(
        id: String, apps: [String], path: RulePattern? = nil, query: RuleQuery? = nil, fragment: RulePattern? = nil,
        exclude: Bool? = nil, caseSensitive: Bool? = nil, percentEncoded: Bool? = nil, comment: String? = nil,
        destination: DestinationBinding? = nil
    ) {
        self.id = id
        self.apps = apps
        self.path = path
        self.query = query
        self.fragment = fragment
        keys = AASAComponent(exclude: exclude, caseSensitive: caseSensitive, percentEncoded: percentEncoded, comment: comment)
        self.destination = destination
    }

    public var exclude: Bool? { keys.exclude }
    public var caseSensitive: Bool? { keys.caseSensitive }
    public var percentEncoded: Bool? { keys.percentEncoded }
    public var comment: String? { keys.comment }

    /// The AASA component this rule writes: captures become wildcards, everything else is copied.
    public var component: AASAComponent {
        let aasaQuery: AASAQuery? = query.map { query in
            switch query {
            case .string(let pattern): .string(pattern)
            case .items(let items): .items(items.map { QueryItemPattern(name: $0.name, pattern: $0.pattern.aasaPattern) })
            }
        }
        var component = keys
        component.path = path?.aasaPattern
        component.query = aasaQuery
        component.fragment = fragment?.aasaPattern
        return component
    }

    /// Every capture name of the path, query items and fragment.
    public var captureNames: Set<String> {
        var names = Set(path?.captureNames ?? [])
        names.formUnion(fragment?.captureNames ?? [])
        if case .items(let items)? = query {
            for item in items { names.formUnion(item.pattern.captureNames) }
        }
        return names
    }
}
