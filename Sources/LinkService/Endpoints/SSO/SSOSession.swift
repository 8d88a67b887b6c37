import Foundation
import HTTPServer
import Postgres

/// Begins the session of a person who signed in through their workspace's provider, and writes its cookie.
///
/// A stand-in for the accounts' own session beginning (issue 50, item 1): when that lands, `begin` calls it and
/// the cookie's name and attributes are theirs. Until then: `linkd_session`, `HttpOnly`, `SameSite=Lax`,
/// `Path=/`, `Secure` when the request came over HTTPS (directly or through a trusted proxy).
enum SSOSession {
    static let cookieName = "linkd_session"

    /// The `Set-Cookie` value of a new session of `person` working in `workspace`, ending after `lifetime`.
    static func begin(person: UUID, workspace: UUID, request: Request, lifetime: TimeInterval, on connection: Connection) throws -> String {
        let (_, token) = try SessionStore.create(person: person, workspace: workspace, via: "sso",
                                                 expiresAt: Date().addingTimeInterval(lifetime), address: request.remoteAddress,
                                                 userAgent: request.headers["User-Agent"] ?? "", on: connection)
        return cookie(cookieName, token.text, path: "/", maxAge: Int(lifetime), request: request)
    }

    /// A `Set-Cookie` value: `HttpOnly`, `SameSite=Lax`, `Secure` over HTTPS.
    static func cookie(_ name: String, _ value: String, path: String, maxAge: Int, request: Request) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (request.scheme == "https" ? "; Secure" : "")
    }

    /// The value of the cookie `name` the request carries; nil when it has none.
    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
            }
        }
        return nil
    }
}
