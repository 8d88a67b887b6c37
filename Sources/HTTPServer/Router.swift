import Observability

/// Dispatches requests to handlers by method and path template. Immutable after `init`: safe to call from
/// every MHD worker thread at once.
///
/// - 404 problem when no template matches the path (unless a fallback is set);
/// - 405 problem with `Allow` when the path matches but not the method;
/// - `HEAD` runs the `GET` handler and drops the body, keeping its `Content-Length`;
/// - `OPTIONS` on a known path without an `OPTIONS` route: `204` with `Allow`;
/// - thrown `ProblemConvertible` errors become their problem, anything else a bare 500 plus an error log line;
/// - every response carries `X-Request-ID`; problem bodies carry `requestId`.
public final class Router: Responder, Sendable {
    private let root: RouteNode
    private let middleware: [any Middleware]
    private let fallbackHandler: RouteHandler?
    private let logger: Logger
    private let metrics: MetricsRegistry
    private let accessLog: Bool
    /// Method and template of every route, in registration order.
    public let routes: [(method: HTTPMethod, template: String)]

    /// Compiles `builder`.
    /// - Parameters:
    ///   - builder: routes, middleware and fallback.
    ///   - logger: receives the access log (info) and unhandled errors (error).
    ///   - metrics: receives `linkd_http_requests_total` and `linkd_http_request_duration_seconds`.
    ///   - accessLog: write one `request` line (info) per request. Formatting it and its `write(2)` cost
    ///     about 40% of the throughput of the association endpoint (bench/serving), so `linkd` leaves it
    ///     off unless asked (`--access-log`, `LINKD_ACCESS_LOG`); the metrics count every request either way.
    public init(_ builder: RouterBuilder, logger: Logger, metrics: MetricsRegistry, accessLog: Bool = true) {
        var root = RouteNode()
        for route in builder.routes {
            root.insert(route.template.segments[...],
                        RouteNode.Target(template: route.template.text, parameterNames: route.template.parameterNames, handler: route.handler),
                        for: route.method)
        }
        self.root = root
        self.middleware = builder.middleware
        self.fallbackHandler = builder.fallbackHandler
        self.logger = logger
        self.metrics = metrics
        self.accessLog = accessLog
        self.routes = builder.routes.map { ($0.method, $0.template.text) }
    }

    /// Answers `request`; never throws.
    public func respond(to request: Request) -> Response {
        let started = ContinuousClock.now
        var request = request
        var (routeLabel, response) = dispatch(&request)
        finalize(&response, for: request)

        let elapsed = started.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let status = String(response.status)
        metrics.increment("linkd_http_requests_total", help: "HTTP requests by route template, method and status.",
                          labels: ["route": routeLabel, "method": request.method.rawValue, "status": status])
        metrics.observe("linkd_http_request_duration_seconds", help: "Time spent routing and handling HTTP requests.",
                        labels: ["route": routeLabel], value: seconds)
        guard accessLog else { return response }
        logger.info("request", metadata: [
            "http.method": request.method.rawValue, "http.path": request.path, "http.status": status,
            "http.duration_ms": String(Double(Int(seconds * 1_000_000)) / 1000), "request.id": request.requestID,
        ])
        return response
    }

    /// Finds and runs the handler (through the middleware). Returns the metrics route label and the response.
    private func dispatch(_ request: inout Request) -> (String, Response) {
        guard let match = root.match(path: request.path) else {
            if let fallbackHandler {
                return ("fallback", runMiddleware(request, fallbackHandler))
            }
            return ("unmatched", runMiddleware(request) { _ in throw Problem.notFound })
        }
        let endpoint = match.endpoint
        let method = request.method
        let target = endpoint.targets[method] ?? (method == .HEAD ? endpoint.targets[.GET] : nil)
        guard let target else {
            let allow = endpoint.allowHeader
            let label = endpoint.targets.values.map(\.template).min() ?? "unmatched"
            if method == .OPTIONS {
                return (label, runMiddleware(request) { _ in Response(status: 204, headers: ["Allow": allow]) })
            }
            return (label, runMiddleware(request) { _ in
                var response = Response.problem(.methodNotAllowed)
                response.headers.add("Allow", allow)
                return response
            })
        }
        var parameters: [String: String] = [:]
        for (name, raw) in zip(target.parameterNames, match.captures) {
            parameters[name] = PercentDecoding.decode(raw, plusAsSpace: false)
        }
        request.parameters = parameters
        var response = runMiddleware(request, target.handler)
        if method == .HEAD, endpoint.targets[.HEAD] == nil {
            // HEAD via the GET handler: same headers, the GET body's length, no body (RFC 9110 §9.3.2).
            response.headers.replaceOrAdd("Content-Length", String(response.body.count))
            response.body = []
        }
        return (target.template, response)
    }

    /// Runs `handler` inside the middleware. Errors are mapped to problem responses at every layer, so each
    /// middleware sees a `Response` from `next` (CORS headers land on error responses too).
    private func runMiddleware(_ request: Request, _ handler: @escaping (Request) throws -> Response) -> Response {
        if middleware.isEmpty { return catching(request, handler) }   // no closure chain to build
        var next: (Request) -> Response = { request in self.catching(request, handler) }
        for middleware in self.middleware.reversed() {
            let inner = next
            next = { request in self.catching(request) { try middleware.handle($0, next: inner) } }
        }
        return next(request)
    }

    /// `ProblemConvertible` → its problem; anything else → a bare 500 and an error log line with the details.
    private func catching(_ request: Request, _ body: (Request) throws -> Response) -> Response {
        do {
            return try body(request)
        } catch let error as any ProblemConvertible {
            return .problem(error.problem)
        } catch {
            logger.error("unhandled error", metadata: [
                "request.id": request.requestID, "http.method": request.method.rawValue,
                "http.path": request.path, "error": String(reflecting: error),
            ])
            return .problem(.internal)
        }
    }

    /// Adds `X-Request-ID` and puts the request id into problem bodies.
    private func finalize(_ response: inout Response, for request: Request) {
        response.headers.replaceOrAdd("X-Request-ID", request.requestID)
        if var problem = response.problem, problem.status == response.status, response.body == problem.jsonBytes {
            problem.extensions["requestId"] = request.requestID
            response.body = problem.jsonBytes
            response.problem = problem
        }
    }
}
