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
        if let workspace {
            // The audit log names the person and the address; a principal's scope and role are not recorded.
            var actor = Principal(workspaceID: workspace, keyID: nil, personID: person, sessionID: id, scope: .read, role: .viewer)
            actor.address = request.remoteAddress
            try AuditStore.record(
                on: connection, actor, .create, type: "session", id: id.canonicalText,
                after: .object(["via": .string(via), "userAgent": .string(String((request.headers["User-Agent"] ?? "").prefix(200)))]))
        }
        return Begun(id: id, setCookie: Self.cookie(token.text, maxAge: configuration.lifetime, request: request))
    }

    /// The `Set-Cookie` value that removes the session cookie.
    static func clearingCookie(for request: Request) -> String {
        cookie("", maxAge: 0, request: request)
    }

    /// The session cookie (`Cookie.set`: `HttpOnly`, `SameSite=Lax`, `Secure` over HTTPS) on every path.
    private static func cookie(_ value: String, maxAge: Int, request: Request) -> String {
        Cookie.set(Authenticator.sessionCookie, value, path: "/", maxAge: maxAge, request: request)
    }
}
