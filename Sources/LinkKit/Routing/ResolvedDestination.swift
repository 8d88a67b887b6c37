/// What resolve answers for a link that opens an app: a typed destination, or an explicit error.
public enum ResolvedDestination: Sendable, Hashable {
    /// `{"type": "widgetDetail", "params": {"id": 42}}`; params sorted by name.
    case destination(type: String, params: [(name: String, value: TypedValue)])
    /// `{"error": {"code": "invalid_param", "param": "id", "detail": "..."}}`.
    case error(DestinationError)

    public static func == (lhs: ResolvedDestination, rhs: ResolvedDestination) -> Bool {
        switch (lhs, rhs) {
        case let (.destination(a, p), .destination(b, q)):
            a == b && p.map(\.name) == q.map(\.name) && p.map(\.value) == q.map(\.value)
        case let (.error(a), .error(b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .destination(let type, let params):
            hasher.combine(type)
            for param in params { hasher.combine(param.name); hasher.combine(param.value) }
        case .error(let error): hasher.combine(error)
        }
    }
}
