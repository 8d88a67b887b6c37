import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/sessions`: a person signs in with an email and a password, lists their sessions, switches workspace and
/// signs out (here or everywhere); `/v1/password` sets a password with a one-time link (docs/PEOPLE.md).
struct SessionHandlers: EndpointGroup {
    let pool: ConnectionPool
    let auth: Authenticator
    let changes: CatalogChanges
    let issuer: SessionIssuer
    let throttle: SignInThrottle

    private var hasher: PasswordHasher { issuer.configuration.passwordHasher }

    static var schemas: [(name: String, schema: Schema)] { APISchemas.sessions }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/sessions", "signIn", "Sign in with an email and a password", tag: "Sessions",
                description: """
                    Begins a session: `Set-Cookie: linkd_session=…; Path=/; HttpOnly; SameSite=Lax` (and `Secure` over \
                    HTTPS), then answers as `GET /v1/whoami`. A wrong email or password answers 401, the same whether or \
                    not the account exists; failed sign-ins are limited per account and per client address (429 with \
                    `Retry-After`). A member of a workspace that requires single sign-on signs in through it (403).
                    """,
                body: "SignIn", success: .json(201, "WhoAmI", headers: ["Set-Cookie"]), errors: [401, 403, 429], signIn),
            Endpoint(
                .GET, "/v1/sessions", "listSessions", "The signed-in person's live sessions", tag: "Sessions", scope: .read,
                description: "Only with a session cookie (a key is nobody's session: 403). Newest first; `current` marks the caller's.",
                success: .json(200, "SessionList"), list),
            Endpoint(
                .DELETE, "/v1/sessions", "signOutEverywhere", "Sign out everywhere: end every session of the person", tag: "Sessions",
                scope: .read,
                description: "Ends every session of the signed-in person, this one included, at once on every node; clears the cookie.",
                success: .noContent, signOutEverywhere),
            Endpoint(
                .DELETE, "/v1/sessions/current", "signOut", "Sign out: end this session", tag: "Sessions", scope: .read,
                description: "Ends the caller's session at once on every node and clears the cookie.",
                success: .noContent, signOut),
            Endpoint(
                .PUT, "/v1/sessions/current/workspace", "switchWorkspace", "Work in another of the person's workspaces", tag: "Sessions",
                scope: .read,
                description: "The session acts in that workspace, with the person's role there, from now on; answers as `GET /v1/whoami`.",
                body: "SessionWorkspace", success: .json(200, "WhoAmI"), switchWorkspace),
            Endpoint(
                .DELETE, "/v1/sessions/{id}", "revokeSession", "End one of the person's sessions", tag: "Sessions", scope: .read,
                description: "Ends the session at once on every node (another browser of the person, say).",
                success: .noContent, revoke),
            Endpoint(
                .POST, "/v1/password", "setPassword", "Set a password with a one-time link", tag: "Sessions",
                description: """
                    The `token` of a set-password link (`linkd users create`) or of a reset link: each works once, before \
                    it expires. The password has at least 12 characters and is not the email address. Every session of the \
                    person ends.
                    """,
                body: "PasswordSet", success: .noContent, setPassword),
        ]
    }

    // MARK: Signing in

    func signIn(_ request: Request) throws -> Response {
        let (email, password) = try JSONBody.read(request) {
            (SessionFields.email.read(&$0, required: true), SessionFields.password.read(&$0, required: true))
        }
        guard let email, let password else { throw ServiceError.badRequest("Send an email and a password.") }
        // The first database read: the request may run again from here on a handoff thread, so nothing before it
        // counts an attempt (docs/DESIGN.md, "No worker thread waits on the database").
        let credentials = try pool.withConnection { try PersonStore.credentials(email: email, on: $0) }
        let attempt: SignInThrottle.Attempt
        switch throttle.begin(email: email, address: request.remoteAddress) {
        case .success(let begun): attempt = begun
        case .failure(let refusal):
            throw ServiceError.tooManyRequests(
                "Too many failed sign-ins; try again in \(refusal.retryAfter) seconds.", retryAfter: refusal.retryAfter)
        }
        // An unknown email, or a person without a password, costs what a wrong password costs.
        var right = false
        if let stored = credentials?.passwordHash {
            right = hasher.verify(password, against: stored)
        } else {
            hasher.verifyNothing(password)
        }
        guard right, let person = credentials?.id else { throw ServiceError.unauthorized("The email or the password is wrong.") }
        throttle.succeeded(attempt)
        var response = try pool.withTransaction { connection -> Response in
            let workspaces = try MembershipStore.signInWorkspaces(of: person, on: connection)
            guard let workspace = workspaces.first(where: { !$0.requiresSSO }) else {
                if workspaces.isEmpty { throw ServiceError.forbidden("You are not a member of any workspace; ask an owner to invite you.") }
                throw ServiceError.forbidden("Your workspace \(workspaces[0].name) requires single sign-on: use Sign in with SSO.")
            }
            let begun = try issuer.begin(person: person, workspace: workspace.id, via: "password", request: request, on: connection)
            let principal = Principal(
                workspaceID: workspace.id, keyID: nil, personID: person, sessionID: begun.id,
                scope: Authenticator.scope(of: workspace.role), role: workspace.role)
            var response = Response.json(try WhoAmI.body(principal, on: connection).serializedBytes, status: 201)
            response.headers.add("Set-Cookie", begun.setCookie)
            return response
        }
        response.headers.replaceOrAdd("Cache-Control", "no-store")
        return response
    }

    // MARK: The person's sessions

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let (person, current) = try Self.person(principal)
        let sessions = try pool.withConnection { try SessionStore.list(of: person, idle: auth.sessions?.idleSeconds ?? 0, on: $0) }
        let body = JSONValue.object(["items": .array(sessions.map { $0.json(current: current) })])
        return Response.json(body.serializedBytes)
    }

    func signOut(_ request: Request, _ principal: Principal) throws -> Response {
        let (person, current) = try Self.person(principal)
        try changes.commit { connection, changed in
            if try SessionStore.revoke(current, of: person, on: connection) {
                try AuditStore.record(on: connection, principal, .delete, type: "session", id: current.canonicalText)
            }
            try changed.sessionsChanged(person: person, on: connection)
        }
        return Self.signedOut(request)
    }

    func signOutEverywhere(_ request: Request, _ principal: Principal) throws -> Response {
        let (person, _) = try Self.person(principal)
        try changes.commit { connection, changed in
            let ended = try SessionStore.revokeAll(of: person, on: connection)
            try AuditStore.record(
                on: connection, principal, .delete, type: "sessions", id: person.canonicalText, before: .object(["live": .integer(ended)]))
            try changed.sessionsChanged(person: person, on: connection)
        }
        return Self.signedOut(request)
    }

    func revoke(_ request: Request, _ principal: Principal) throws -> Response {
        let (person, _) = try Self.person(principal)
        guard let id = request.parameters["id"].flatMap(UUID.init(uuidString:)) else { throw ServiceError.notFound("The session") }
        try changes.commit { connection, changed in
            guard try SessionStore.revoke(id, of: person, on: connection) else { throw ServiceError.notFound("The session") }
            try AuditStore.record(on: connection, principal, .delete, type: "session", id: id.canonicalText)
            try changed.sessionsChanged(person: person, on: connection)
        }
        return .empty()
    }

    func switchWorkspace(_ request: Request, _ principal: Principal) throws -> Response {
        let (person, current) = try Self.person(principal)
        let workspace = try JSONBody.read(request) { SessionFields.workspace.read(&$0, required: true) }.flatMap(UUID.init(uuidString:))
        guard let workspace else { throw ServiceError.badRequest("Send the workspace's id.") }
        let bytes = try changes.commit { connection, changed -> [UInt8] in
            // Another workspace's id answers as one that does not exist.
            guard let target = try MembershipStore.signInWorkspaces(of: person, on: connection).first(where: { $0.id == workspace }) else {
                throw ServiceError.validation([.init(pointer: "/workspace", detail: "You are not a member of that workspace.")])
            }
            if target.requiresSSO, try SessionStore.listed(current, on: connection)?.via != "sso" {
                throw ServiceError.forbidden("The workspace \(target.name) requires single sign-on: use Sign in with SSO.")
            }
            guard try SessionStore.switchWorkspace(current, of: person, to: workspace, on: connection) else {
                throw ServiceError.unauthorized("The session has ended; sign in again (POST /v1/sessions).")
            }
            try changed.sessionsChanged(person: person, on: connection)
            let principal = Principal(
                workspaceID: workspace, keyID: nil, personID: person, sessionID: current,
                scope: Authenticator.scope(of: target.role), role: target.role)
            return try WhoAmI.body(principal, on: connection).serializedBytes
        }
        return Response.json(bytes)
    }

    // MARK: Passwords

    func setPassword(_ request: Request) throws -> Response {
        let (text, password) = try JSONBody.read(request) {
            (SessionFields.token.read(&$0, required: true), SessionFields.newPassword.read(&$0, required: true))
        }
        let expired = ServiceError.validation([
            .init(pointer: "/token", detail: "The link is unknown, used already or expired; ask for a new one.")
        ])
        guard let token = text.flatMap({ SecretToken(presented: Substring($0)) }), let password else { throw expired }
        guard let link = try pool.withConnection({ try OneTimeLinkStore.peek(token, on: $0) }) else { throw expired }
        if let refusal = PasswordPolicy.refusal(password, email: link.email) {
            throw ServiceError.validation([.init(pointer: "/password", detail: refusal)])
        }
        let hash = hasher.hash(password)
        try changes.commit { connection, changed in
            guard let used = try OneTimeLinkStore.consume(token, on: connection) else { throw expired }
            try PersonStore.setPassword(used.person, hash: hash, on: connection)
            try SessionStore.revokeAll(of: used.person, on: connection)
            try changed.sessionsChanged(person: used.person, on: connection)
        }
        return .empty()
    }

    // MARK: Helpers

    /// The person and session of a caller signed in with a cookie.
    /// - Throws: `ServiceError.forbidden` for a key.
    private static func person(_ principal: Principal) throws -> (person: UUID, session: UUID) {
        guard let person = principal.personID, let session = principal.sessionID else {
            throw ServiceError.forbidden("This call is a signed-in person's (a session cookie), not an API key's.")
        }
        return (person, session)
    }

    /// 204 clearing the cookie.
    private static func signedOut(_ request: Request) -> Response {
        var response = Response.empty()
        response.headers.add("Set-Cookie", SessionIssuer.clearingCookie(for: request))
        return response
    }
}
