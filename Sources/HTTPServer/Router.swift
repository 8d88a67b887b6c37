import Observability

/// Dispatches requests to handlers by method and path template. Immutable after `init`: safe to call from
/// every MHD worker thread at once.
///
/// - 404 problem when no template matches the path (unless a fallback is set);
/// - 405 problem with `Allow` when the path matches but not the method;
/// - `HEAD` runs the `GET` handler and drops the body, keeping its `Content-Length`;
/// - `OPTIONS` on a known path without an `OPTIONS` route: `204` with `Allow`;
/// - a path or query parameter holding `%00` (a NUL once decoded) is a 400 naming it, before any handler runs;
/// - thrown `ProblemConvertible` errors become their problem, anything else a bare 500 plus an error log line; a
///   problem of status 500 is logged at error level too (it is a failure of ours, whatever error carried it);
/// - responses carry `X-Request-ID` and problem bodies `requestId`, by the rule in docs/DESIGN.md ("Request ids").
public final class Router: Responder, Sendable {
    private let root: RouteNode
    /// Paths of templates without parameters, for one hash lookup instead of a walk of the trie (which would find
    /// the same endpoint: literal segments win there).
    private let exact: [String: RouteNode.Endpoint]
    private let middleware: [any Middleware]
    private let fallback: (@Sendable (Request) -> Response)?
    private let notFound: @Sendable (Request) -> Response
    private let logger: Logger
    private let accessLog: Bool
    /// The server's handoff, when it has one: an answer discarded because its request asked to wait is neither
    /// logged nor counted (the run on a handoff thread is).
    private let handoff: Handoff?
    /// Per route label; `unmatched` and `fallback` included.
    private let metricsByLabel: [String: RouteMetrics]
    /// Method and template of every route, in registration order.
    public let routes: [(method: HTTPMethod, template: String)]

    /// Compiles `builder`: composes every handler with the middleware and resolves its metrics series once.
    /// - Parameters:
    ///   - builder: routes, middleware and fallback.
    ///   - logger: receives the access log (info) and unhandled errors (error).
    ///   - metrics: receives `linkd_http_requests_total` and `linkd_http_request_duration_seconds`.
    ///   - accessLog: write one `request` line (info) per request; `linkd` writes it unless told not to
    ///     (`--access-log off`, `LINKD_ACCESS_LOG`). The metrics count every request either way.
    ///   - handoff: the `Handoff` given to the `Server` this router answers for, if any.
    public init(_ builder: RouterBuilder, logger: Logger, metrics: MetricsRegistry, accessLog: Bool = true, handoff: Handoff? = nil) {
        let middleware = builder.middleware
        var metricsByLabel: [String: RouteMetrics] = [:]
        for label in builder.routes.map(\.pattern.text) + ["unmatched", "fallback"] where metricsByLabel[label] == nil {
            metricsByLabel[label] = RouteMetrics(label: label, registry: metrics)
        }
        var root = RouteNode()
        for route in builder.routes {
            let target = RouteNode.Target(
                template: route.pattern.text, parameterNames: route.pattern.parameterNames,
                run: Self.compose(middleware + route.middleware, logger: logger, route.handler),
                metrics: metricsByLabel[route.pattern.text]!)
            root.insert(route.pattern.segments[...], target, for: route.method)
        }
        var exact: [String: RouteNode.Endpoint] = [:]
        for route in builder.routes where route.pattern.parameterNames.isEmpty && !route.pattern.text.contains("{") {
            exact[route.pattern.text] = root.match(path: route.pattern.text)?.endpoint
        }
        self.root = root
        self.exact = exact
        self.middleware = middleware
        self.fallback = builder.fallbackHandler.map { Self.compose(middleware, logger: logger, $0) }
        self.notFound = Self.compose(middleware, logger: logger) { _ in throw Problem.notFound }
        self.logger = logger
        self.accessLog = accessLog
        self.handoff = handoff
        self.metricsByLabel = metricsByLabel
        self.routes = builder.routes.map { ($0.method, $0.pattern.text) }
    }

    /// Answers `request`; never throws.
    public func respond(to request: Request) -> Response {
        let started = ContinuousClock.now
        var (routeMetrics, response) = dispatch(request)
        if let handoff, handoff.wasAsked { return response } // discarded: the request runs again where it may wait
        finalize(&response, for: request)

        let seconds = started.duration(to: .now).inSeconds
        routeMetrics.record(method: request.method, status: response.status, seconds: seconds)
        guard accessLog else { return response }
        logger.info(
            "request",
            metadata: [
                "http.method": request.method.rawValue, "http.path": request.path, "http.status": String(response.status),
                "http.duration_ms": String(Double(Int(seconds * 1_000_000)) / 1000), "request.id": request.requestID,
            ])
        return response
    }

    /// Finds and runs the handler (through the middleware). Returns the route's metrics and the response.
    private func dispatch(_ request: Request) -> (RouteMetrics, Response) {
        let endpoint: RouteNode.Endpoint
        var captures: [Substring] = []
        if let found = exact[request.path] {
            endpoint = found
        } else if let match = root.match(path: request.path) {
            endpoint = match.endpoint
            captures = match.captures
        } else if let fallback {
            return (metricsByLabel["fallback"]!, fallback(request))
        } else {
            return (metricsByLabel["unmatched"]!, notFound(request))
        }
        let method = request.method
        let target = endpoint.targets[method] ?? (method == .HEAD ? endpoint.targets[.GET] : nil)
        guard let target else {
            let allow = endpoint.allowHeader
            let label = endpoint.targets.values.map(\.template).min() ?? "unmatched"
            let answer: RouteHandler
            if method == .OPTIONS {
                answer = { _ in Response(status: 204, headers: ["Allow": allow]) }
            } else {
                answer = { _ in
                    var response = Response.problem(.methodNotAllowed)
                    response.headers.add("Allow", allow)
                    return response
                }
            }
            return (metricsByLabel[label] ?? metricsByLabel["unmatched"]!, Self.compose(middleware, logger: logger, answer)(request))
        }
        if request.queryHoldsNUL {
            return (target.metrics, refuse(request, Self.queryParameterWithNUL(request)))
        }
        var response: Response
        if captures.isEmpty {
            response = target.run(request)
        } else {
            var routed = request // a copy only for routes with parameters
            var withNUL: String?
            for (name, raw) in zip(target.parameterNames, captures) {
                var decodedNUL = false
                routed.parameters[name] = RequestTargetDecoding.decode(raw, plusAsSpace: false, noticingNUL: &decodedNUL)
                if decodedNUL, withNUL == nil { withNUL = name }
            }
            if let withNUL {
                return (
                    target.metrics, refuse(request, .badRequest(detail: "The path parameter '\(withNUL)' contains a NUL character (%00)."))
                )
            }
            response = target.run(routed)
        }
        if method == .HEAD, endpoint.targets[.HEAD] == nil {
            // HEAD via the GET handler: same headers, the GET body's length, no body (RFC 9110 §9.3.2).
            response.headers.replaceOrAdd("Content-Length", String(response.body.count))
            response.body = []
        }
        return (target.metrics, response)
    }

    /// `problem` through the middleware (CORS headers land on it too).
    private func refuse(_ request: Request, _ problem: Problem) -> Response {
        Self.compose(middleware, logger: logger) { _ in throw problem }(request)
    }

    /// The 400 for a query whose decoded text holds a NUL (`%00`), naming the first such parameter: no handler
    /// receives one (PostgreSQL refuses NUL in text, C strings end there).
    private static func queryParameterWithNUL(_ request: Request) -> Problem {
        let item = request.queryItems.first { $0.name.utf8.contains(0) || $0.value.utf8.contains(0) }
        let name = item.map { $0.name.prefix(64).split(separator: "\0", omittingEmptySubsequences: false).joined(separator: "%00") } ?? ""
        return .badRequest(detail: "The query parameter '\(name)' contains a NUL character (%00).")
    }

    /// `handler` inside `middleware` (outermost first). Errors are mapped to problem responses at every layer, so
    /// each middleware sees a `Response` from `next` (CORS headers land on error responses too).
    private static func compose(
        _ middleware: [any Middleware], logger: Logger, _ handler: @escaping RouteHandler
    ) -> @Sendable (Request) -> Response {
        var next: @Sendable (Request) -> Response = { request in catching(request, logger: logger, handler) }
        for layer in middleware.reversed() {
            let inner = next
            next = { request in catching(request, logger: logger) { try layer.handle($0, next: inner) } }
        }
        return next
    }

    /// `ProblemConvertible` → its problem; anything else → a bare 500 and an error log line with the details.
    private static func catching(_ request: Request, logger: Logger, _ body: (Request) throws -> Response) -> Response {
        do {
            return try body(request)
        } catch let error as any ProblemConvertible {
            let problem = error.problem
            if problem.status == 500 {
                // A failure of ours (a database error that is no conflict, say): the client sees a bare 500, the log
                // the cause.
                logger.error(
                    "request failed",
                    metadata: [
                        "request.id": request.requestID, "http.method": request.method.rawValue,
                        "http.path": request.path, "error": String(reflecting: error),
                    ])
            }
            return .problem(problem)
        } catch {
            logger.error(
                "unhandled error",
                metadata: [
                    "request.id": request.requestID, "http.method": request.method.rawValue,
                    "http.path": request.path, "error": String(reflecting: error),
                ])
            return .problem(.internal)
        }
    }

    /// Adds `X-Request-ID` and puts the request id into problem bodies, except to a prepared response the request
    /// offered no id for (docs/DESIGN.md, "Request ids").
    private func finalize(_ response: inout Response, for request: Request) {
        if response.prepared != nil && !request.headers.contains("X-Request-ID") { return }
        response.headers.replaceOrAdd("X-Request-ID", request.requestID)
        if var problem = response.problem, problem.status == response.status, response.body == problem.jsonBytes {
            problem.extensions["requestId"] = request.requestID
            response.body = problem.jsonBytes
            response.problem = problem
        }
    }
}
