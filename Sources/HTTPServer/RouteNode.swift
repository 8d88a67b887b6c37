/// The routing trie: one level per path segment. Literal children are tried before the parameter child,
/// and both before a rest (`{name*}`) capture, backtracking when a branch leads nowhere.
struct RouteNode: Sendable {
    struct Target: Sendable {
        let template: String
        let parameterNames: [String]
        /// The handler inside the router's middleware, composed once.
        let run: @Sendable (Request) -> Response
        let metrics: RouteMetrics
    }

    /// The handlers of one path shape, by method.
    struct Endpoint: Sendable {
        var targets: [HTTPMethod: Target] = [:]

        /// `Allow` value: registered methods, `HEAD` when `GET` exists, `OPTIONS`; sorted.
        var allowHeader: String {
            var methods = Set(targets.keys.map(\.rawValue))
            if methods.contains("GET") { methods.insert("HEAD") }
            methods.insert("OPTIONS")
            return methods.sorted().joined(separator: ", ")
        }
    }

    struct Match {
        let endpoint: Endpoint
        /// Raw (still percent-encoded) captures in template order.
        let captures: [Substring]
    }

    /// Keyed by `Substring` so a request's path segment is looked up without copying it into a `String`.
    var literals: [Substring: RouteNode] = [:]
    /// Zero or one child for a `{name}` segment (an array gives the recursive struct its indirection).
    var parameter: [RouteNode] = []
    /// Routes ending in `{name*}` at this depth.
    var rest: Endpoint?
    /// Routes ending exactly here.
    var endpoint: Endpoint?

    mutating func insert(_ segments: ArraySlice<RoutePattern.Segment>, _ target: Target, for method: HTTPMethod) {
        guard let first = segments.first else {
            endpoint = endpoint ?? Endpoint()
            endpoint!.targets[method] = target
            return
        }
        switch first {
        case .literal(let text):
            literals[Substring(text), default: RouteNode()].insert(segments.dropFirst(), target, for: method)
        case .parameter:
            if parameter.isEmpty { parameter.append(RouteNode()) }
            parameter[0].insert(segments.dropFirst(), target, for: method)
        case .rest:
            rest = rest ?? Endpoint()
            rest!.targets[method] = target
        }
    }

    /// Matches a raw path such as `/v1/domains/a.example/rules`.
    func match(path: String) -> Match? {
        guard path.hasPrefix("/") else { return nil }
        let body = path.dropFirst()
        let segments = body.split(separator: "/", omittingEmptySubsequences: false)
        var captures: [Substring] = []
        return match(segments, 0, body, &captures)
    }

    private func match(_ segments: [Substring], _ index: Int, _ whole: Substring, _ captures: inout [Substring]) -> Match? {
        if index == segments.count {
            if let endpoint { return Match(endpoint: endpoint, captures: captures) }
            if let rest { return Match(endpoint: rest, captures: captures + [whole[whole.endIndex...]]) }
            return nil
        }
        let segment = segments[index]
        if let child = literals[segment], let found = child.match(segments, index + 1, whole, &captures) {
            return found
        }
        if let child = parameter.first, !segment.isEmpty {
            captures.append(segment)
            if let found = child.match(segments, index + 1, whole, &captures) { return found }
            captures.removeLast()
        }
        if let rest {
            // The remainder of the raw path from this segment on, slashes included.
            return Match(endpoint: rest, captures: captures + [whole[segment.startIndex...]])
        }
        return nil
    }
}
