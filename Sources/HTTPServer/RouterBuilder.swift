/// A route handler: synchronous, runs on an MHD worker thread.
public typealias RouteHandler = @Sendable (Request) throws -> Response

/// Collects routes, middleware and the fallback; `Router.init` compiles it into an immutable `Router`.
public struct RouterBuilder {
    struct Route {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: RouteHandler
        /// Runs inside the builder's middleware, around this route's handler alone.
        let middleware: [any Middleware]
    }

    var routes: [Route] = []
    var middleware: [any Middleware] = []
    var fallbackHandler: RouteHandler?

    /// An empty builder.
    public init() {}

    /// Adds a route. Templates: literal segments, `{name}` segments and an optional last `{name*}`
    /// capturing the rest of the path. Literal segments win over parameters.
    /// `middleware` runs around this route's handler alone (inside the builder's own, outermost first), and
    /// sees its errors as problem responses, as every middleware does.
    /// - Precondition: the template is well-formed and `method` + template is not already registered.
    public mutating func add(
        _ method: HTTPMethod, _ template: String, middleware: [any Middleware] = [],
        _ handler: @escaping RouteHandler
    ) {
        let parsed = RoutePattern(template)
        precondition(
            !routes.contains(where: { $0.method == method && $0.pattern.segments.map(Self.shape) == parsed.segments.map(Self.shape) }),
            "duplicate route \(method) \(template)")
        routes.append(Route(method: method, pattern: parsed, handler: handler, middleware: middleware))
    }

    /// Adds a `GET` route (see `add(_:_:_:)`).
    public mutating func get(_ template: String, _ handler: @escaping RouteHandler) { add(.GET, template, handler) }
    /// Adds a `HEAD` route (see `add(_:_:_:)`).
    public mutating func head(_ template: String, _ handler: @escaping RouteHandler) { add(.HEAD, template, handler) }
    /// Adds a `POST` route (see `add(_:_:_:)`).
    public mutating func post(_ template: String, _ handler: @escaping RouteHandler) { add(.POST, template, handler) }
    /// Adds a `PUT` route (see `add(_:_:_:)`).
    public mutating func put(_ template: String, _ handler: @escaping RouteHandler) { add(.PUT, template, handler) }
    /// Adds a `PATCH` route (see `add(_:_:_:)`).
    public mutating func patch(_ template: String, _ handler: @escaping RouteHandler) { add(.PATCH, template, handler) }
    /// Adds a `DELETE` route (see `add(_:_:_:)`).
    public mutating func delete(_ template: String, _ handler: @escaping RouteHandler) { add(.DELETE, template, handler) }
    /// Adds a `OPTIONS` route (see `add(_:_:_:)`).
    public mutating func options(_ template: String, _ handler: @escaping RouteHandler) { add(.OPTIONS, template, handler) }

    /// Adds middleware; it runs around every routed handler, the fallback and the router's own 404/405/OPTIONS
    /// answers, outermost first in the order added.
    public mutating func use(_ middleware: any Middleware) {
        self.middleware.append(middleware)
    }

    /// Called instead of the 404 problem when no route's path matches.
    public mutating func fallback(_ handler: @escaping RouteHandler) {
        fallbackHandler = handler
    }

    /// Parameter names don't matter for duplicates: `/a/{x}` and `/a/{y}` are the same path.
    private static func shape(_ segment: RoutePattern.Segment) -> String {
        switch segment {
        case .literal(let text): "l:" + text
        case .parameter: "p"
        case .rest: "r"
        }
    }
}
