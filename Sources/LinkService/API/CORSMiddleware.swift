import Foundation
import HTTPServer

/// Cross-origin access for browser dashboards on configured origins (Fetch standard, "CORS protocol").
///
/// - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from an allowed origin is answered
///   with 204, the origin, the methods the path really has (the `Allow` list of the router's own `OPTIONS`
///   answer), the request headers the API reads and a `Max-Age`.
/// - Every other response to an allowed origin, errors included (a dashboard must be able to read a 422's
///   pointers), carries the origin and the response headers scripts may read (`ETag`, `Location`, …).
/// - Other origins get no `Access-Control-*` header at all, so the browser withholds the response.
/// - `Vary: Origin` goes on every response while CORS is on: the same URL answers differently per origin, and a
///   cache must not hand an answer without `Access-Control-Allow-Origin` to a page of an allowed origin.
///
/// An exact origin is echoed; `*` allows any origin and answers `Access-Control-Allow-Origin: *`. Neither ever
/// sends `Access-Control-Allow-Credentials`: the API authenticates with bearer keys a script puts in a header,
/// never with cookies or TLS client certificates, so no request needs the credentials mode, and a browser then
/// refuses any cross-origin answer to one that uses it (whatever ambient credentials a later version may accept).
struct CORSMiddleware: Middleware {
    /// Request headers the API reads.
    static let allowedHeaders = "Authorization, Content-Type, If-Match, If-None-Match, X-Request-ID"
    /// Response headers scripts may read besides the CORS-safelisted ones.
    static let exposedHeaders = "ETag, Location, Link, X-Request-ID"
    /// How long a browser may cache a preflight answer (Chromium caps it at 2 hours).
    static let maxAge = 600

    private let origins: Set<String>
    private let allowsAnyOrigin: Bool

    /// - Parameter allowedOrigins: origins as `scheme://host[:port]`, or `*`; normalized with `normalize(_:)`.
    /// - Precondition: every entry is valid (configuration parsing checks them first).
    init(allowedOrigins: [String]) {
        var origins: Set<String> = []
        var any = false
        for entry in allowedOrigins {
            guard let origin = Self.normalize(entry) else { preconditionFailure("invalid CORS origin '\(entry)'") }
            if origin == "*" { any = true } else { origins.insert(origin) }
        }
        self.origins = origins
        self.allowsAnyOrigin = any
    }

    /// The canonical form of a configured origin (`https://Dash.Example.com/` → `https://dash.example.com`), `*`
    /// for the wildcard, or nil when it is not an origin: a scheme, `://`, a host and optionally a port; no path,
    /// query, user info or `null`.
    static func normalize(_ text: String) -> String? {
        var origin = text.trimmingCharacters(in: .whitespaces)
        if origin == "*" { return origin }
        if origin.hasSuffix("/") { origin.removeLast() }
        origin = origin.lowercased()
        guard let separator = origin.range(of: "://") else { return nil }
        let scheme = origin[..<separator.lowerBound]
        let authority = origin[separator.upperBound...]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) })
        else { return nil }
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let port = Int(authority[authority.index(after: colon)...]), (1...65535).contains(port), colon != authority.startIndex
            else { return nil }
        }
        return origin
    }

    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        guard let origin = request.headers["Origin"], let allowed = allowedOrigin(origin) else {
            var response = try next(request)
            Self.addVary(to: &response)
            return response
        }
        var response = try next(request)
        if request.method == .OPTIONS, request.headers.contains("Access-Control-Request-Method"),
            response.status == 204, let methods = response.headers["Allow"]
        {
            // The router answered OPTIONS for a known path: turn it into the preflight answer.
            response.headers.replaceOrAdd("Access-Control-Allow-Methods", methods)
            response.headers.replaceOrAdd("Access-Control-Allow-Headers", Self.allowedHeaders)
            response.headers.replaceOrAdd("Access-Control-Max-Age", String(Self.maxAge))
        } else {
            response.headers.replaceOrAdd("Access-Control-Expose-Headers", Self.exposedHeaders)
        }
        response.headers.replaceOrAdd("Access-Control-Allow-Origin", allowed)
        Self.addVary(to: &response)
        return response
    }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`, nil when it is not allowed.
    private func allowedOrigin(_ origin: String) -> String? {
        // Browsers send the serialized origin: lower-case scheme and host, no trailing slash.
        if origins.contains(origin.lowercased()) { return origin }
        return allowsAnyOrigin ? "*" : nil
    }

    /// Adds `Origin` to `Vary`, keeping what a handler already put there.
    private static func addVary(to response: inout Response) {
        let existing = response.headers.values("Vary").flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        if existing.contains(where: { $0 == "*" || $0.lowercased() == "origin" }) { return }
        response.headers.replaceOrAdd("Vary", (existing + ["Origin"]).joined(separator: ", "))
    }
}
