import Foundation
import HTTPServer
import Postgres

/// Authentication with a person's session cookie (docs/PEOPLE.md, "Sessions"): asked only when a request carries
/// no `Authorization` header.
extension Authenticator {
    /// The cookie's name.
    static let sessionCookie = "linkd_session"

    /// The person signed in with the request's session cookie, in the session's workspace, with the role they have
    /// there; the scope is the most that role may use (viewer: `read`, editor: `write`, admin and owner: `admin`).
    ///
    /// A cookie is ambient: the browser sends it with requests other sites make it send. So a cookie never
    /// authorises a request that says it comes from another origin (`checkSameOrigin`), whatever `--cors-origins`
    /// allows, and a write (any method but `GET`, `HEAD`, `OPTIONS`) must say it comes from this origin
    /// (docs/PEOPLE.md, "Sessions").
    /// A cookie that names no live session is ignored as if absent (401): nothing a browser was given elsewhere
    /// can become a session here.
    /// - Throws: `ServiceError.forbidden` for a cross-origin request, a write that does not show its origin, a
    ///   person of no workspace or a role below `scope`; `.unauthorized` when no cookie names a live session;
    ///   `PostgresError` (503) when the session is not cached and the database cannot be reached.
    func authenticateSession(_ request: Request, requiring scope: Scope) throws -> Principal {
        try authenticateSession(request, tokens: Self.sessionTokens(request), requiring: scope)
    }

    /// `authenticateSession(_:requiring:)` with the request's session tokens read already.
    func authenticateSession(_ request: Request, tokens: [SecretToken], requiring scope: Scope) throws -> Principal {
        try Self.checkSameOrigin(request)
        var found: SessionCache.CachedSession?
        for token in tokens {
            if let session = try liveSession(token) {
                found = session
                break
            }
        }
        guard let session = found else {
            throw ServiceError.unauthorized("The session has ended or is unknown; sign in again (POST /v1/sessions).")
        }
        guard let workspace = session.workspaceID else {
            throw ServiceError.forbidden("You are not a member of any workspace; ask an owner to invite you.")
        }
        guard let role = session.role else {
            throw ServiceError.forbidden(
                "You are no longer a member of the workspace this session works in; sign in again (POST /v1/sessions).")
        }
        let allowed = Self.scope(of: role)
        guard allowed >= scope else {
            throw ServiceError.forbidden(
                "This call needs the '\(scope.rawValue)' scope; as \(role.rawValue) you have '\(allowed.rawValue)'.")
        }
        return Principal(
            workspaceID: workspace, keyID: nil, personID: session.personID, sessionID: session.sessionID,
            scope: allowed, role: role)
    }

    /// The most a role may use of the key scopes.
    static func scope(of role: Role) -> Scope {
        switch role {
        case .viewer: .read
        case .editor: .write
        case .admin, .owner: .admin
        }
    }

    /// The tokens of every `linkd_session` cookie the request carries, in order; values of another shape are
    /// left out. Read as bytes: every cookie-authenticated request parses its `Cookie` fields.
    static func sessionTokens(_ request: Request) -> [SecretToken] {
        var tokens: [SecretToken] = []
        Cookie.forEachValue(prefix: sessionCookiePrefix, in: request) { value in
            if let token = SecretToken(presented: Substring(value)) { tokens.append(token) }
        }
        return tokens
    }

    /// `linkd_session=` as bytes.
    private static let sessionCookiePrefix = Array("\(sessionCookie)=".utf8)

    /// Refuses a cross-origin request, and a write that does not show it is same-origin.
    ///
    /// `Sec-Fetch-Site`, when sent, decides: browsers set it and no page can change it (`same-origin`; `none`, a
    /// URL typed or bookmarked, for reads only). Without it (older browsers), an `Origin` must be this server's
    /// own, and a write must send one.
    /// - Throws: `ServiceError.forbidden`.
    static func checkSameOrigin(_ request: Request) throws {
        let safe = request.method == .GET || request.method == .HEAD || request.method == .OPTIONS
        if let site = request.headers["Sec-Fetch-Site"] {
            switch site.lowercased() {
            case "same-origin": return
            case "none" where safe: return
            default:
                throw ServiceError.forbidden(
                    "A session cookie is not accepted from another site (Sec-Fetch-Site: \(site.prefix(20))); call with an API key.")
            }
        }
        if let origin = request.headers["Origin"] {
            guard let own = PublicOrigin.requested(request), origin.lowercased() == own else {
                throw ServiceError.forbidden(
                    "A session cookie is not accepted from another origin (\(origin.prefix(100))); call with an API key.")
            }
            return
        }
        guard safe else {
            throw ServiceError.forbidden(
                "A write with a session cookie must come from this server's own pages (Origin or Sec-Fetch-Site: same-origin).")
        }
    }

    /// The live session of `token`: from the cache when it may serve, else read (and marked seen) in the database
    /// with the person's role in its workspace.
    private func liveSession(_ token: SecretToken) throws -> SessionCache.CachedSession? {
        guard let sessions else { return nil }
        if let cached = sessions.lookup(token.text) { return cached }
        let epoch = sessions.epoch
        let read = try pool.withConnection { connection -> SessionCache.CachedSession? in
            guard let found = try SessionStore.touch(token, idle: sessions.idleSeconds, on: connection) else { return nil }
            let role = try found.workspaceID.flatMap { try MembershipStore.role(of: found.personID, in: $0, on: connection) }
            let now = ContinuousClock.now
            return SessionCache.CachedSession(
                sessionID: found.id, personID: found.personID, workspaceID: found.workspaceID, role: role,
                expiresAt: found.expiresAt, seenAt: now, storedAt: now)
        }
        if let read { sessions.store(token.text, read, epoch: epoch) }
        return read
    }
}
