/// Anything that turns a request into a response; the `Server` calls one on its worker threads.
public protocol Responder: Sendable {
    /// Answers `request`. Called synchronously on an MHD worker thread; must not throw: map errors to responses.
    func respond(to request: Request) -> Response
}

/// Code that runs around every routed handler and the fallback (CORS, authentication).
public protocol Middleware: Sendable {
    /// Handles `request`, usually by calling `next` and adjusting its response, or by answering itself.
    /// - Throws: anything a handler may throw; the `Router` maps it to a problem.
    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response
}
