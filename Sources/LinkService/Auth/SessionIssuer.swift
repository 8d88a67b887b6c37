import Foundation
import HTTPServer
import Postgres

/// Begins people's sessions and writes their cookies: the one place a session starts, whether by password
/// (`POST /v1/sessions`), an accepted invitation or single sign-on.
struct SessionIssuer: Sendable {
    let configuration: SessionConfiguration

    /// A session begun: its id, and the `Set-Cookie` value that hands its token to the browser.
    struct Begun: Sendable {
        let id: UUID
        let setCookie: String
    }

    /// Begins a session of `person` working in `workspace` (nil: they belong to none), signed in `via`
    /// (`password` or `sso`), from the client of `request`; always a new token, whatever cookie the request
    /// carries (no session can be fixed in advance). Run it in the transaction that decided the person may sign in.
    /// - Returns: the session and its cookie, to add to the response (`Response.headers.add("Set-Cookie", …)`).
    func begin(person: UUID, workspace: UUID?, via: String, request: Request, on connection: Connection) throws -> Begun {
        let (id, token) = try SessionStore.create(
            person: person, workspace: workspace, via: via,
            expiresAt: Date() + TimeInterval(configuration.lifetime),
            address: request.remoteAddress, userAgent: request.headers["User-Agent"] ?? "",
            on: connection)
        return Begun(id: id, setCookie: Self.cookie(token.text, maxAge: configuration.lifetime, request: request))
    }

    /// The `Set-Cookie` value that removes the session cookie.
    static func clearingCookie(for request: Request) -> String {
        cookie("", maxAge: 0, request: request)
    }

    /// `HttpOnly` (no script reads it), `SameSite=Lax` (other sites' requests do not carry it, but for top-level
    /// navigations), `Path=/`, and `Secure` when the request came over HTTPS (directly or, as `Request.scheme`
    /// says, through a trusted proxy).
    private static func cookie(_ value: String, maxAge: Int, request: Request) -> String {
        "\(Authenticator.sessionCookie)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax"
            + (request.scheme == "https" ? "; Secure" : "")
    }
}
