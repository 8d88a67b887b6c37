/// A path rule of a link domain: the single source of both its AASA component (what iOS matches) and its
/// resolve answer (the typed destination built from the captures).
public struct LinkRule: ComponentOptionsCarrier, Sendable, Hashable {
    /// The stored rule's id, reported by resolve as "the rule that decided".
    public let id: String
    /// The apps the rule applies to (ids of `DomainApp`s), in order.
    public let apps: [String]
    public let path: RulePattern?
    public let query: RuleQuery?
    public let fragment: RulePattern?
    /// `exclude`, `caseSensitive`, `percentEncoded` and `comment`: copied to the component as they are, and read as
    /// members of the rule.
    public let options: ComponentOptions
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
        options = ComponentOptions(exclude: exclude, caseSensitive: caseSensitive, percentEncoded: percentEncoded, comment: comment)
        self.destination = destination
    }

    /// The AASA component this rule writes: captures become wildcards, everything else is copied.
    public var component: AASAComponent {
        let aasaQuery: AASAQuery? = query.map { query in
            switch query {
            case .string(let pattern): .string(pattern)
            case .items(let items): .items(items.map { QueryItemPattern(name: $0.name, pattern: $0.pattern.aasaPattern) })
            }
        }
        var component = AASAComponent(path: path?.aasaPattern, query: aasaQuery, fragment: fragment?.aasaPattern)
        component.options = options
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
