import HTTPServer

/// `Cache-Control: no-store` on every answer of an endpoint that needs a key, errors included.
///
/// What such an endpoint answers depends on the caller's key (its workspace, its scope), so no cache, shared or
/// the browser's own, may keep it: a proxy that ignored `Authorization` would hand one workspace's links to
/// another, and a browser would keep a console's data on disk after the key is gone. The rule is the route's,
/// set where its authentication is (`Endpoint.middleware`), and it replaces what a handler chose (a QR code's
/// `private, max-age`, generated code's `no-cache`). ETags stay: clients send them back in `If-Match` and
/// `If-None-Match` themselves, which needs no cache. docs/CONNECTIONS.md, "Caching".
struct NoStoreMiddleware: Middleware {
    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        var response = try next(request)
        response.headers.replaceOrAdd("Cache-Control", "no-store")
        return response
    }
}
