import Foundation
import Postgres

/// The SQL of `sessions`: a person's signed-in browsers, found by the SHA-256 of their cookie's token.
enum SessionStore {
    /// A session as authentication reads it.
    struct Found: Sendable {
        let id: UUID
        let personID: UUID
        let workspaceID: UUID?
        /// The absolute end.
        let expiresAt: Date
    }

    /// A session as its person's list shows it.
    struct Listed: Sendable {
        let id: UUID
        let via: String
        let createdAt: Date
        let lastSeenAt: Date
        let expiresAt: Date
        let address: String
        let userAgent: String
    }

    /// Begins a session of `person` working in `workspace`, ending at `expiresAt` at the latest; returns its id
    /// and token (the cookie's value, shown once).
    static func create(
        person: UUID, workspace: UUID?, via: String, expiresAt: Date, address: String, userAgent: String,
        on connection: Connection
    ) throws -> (id: UUID, token: SecretToken) {
        let token = SecretToken.generate()
        let row = try connection.query(
            """
            INSERT INTO sessions (person_id, token_hash, workspace_id, via, expires_at, address, user_agent)
            VALUES (\(person), \(token.hash), \(workspace), \(via), \(expiresAt), \(address), \(String(userAgent.prefix(512))))
            RETURNING id
            """
        ).first
        guard let row else { throw ServiceError.conflict("The session could not be begun; try again.") }
        return (try row.decode(0, as: UUID.self), token)
    }

    /// The live session of `token`: not revoked, before its absolute end, and seen within `idle`; nil otherwise.
    static func find(_ token: SecretToken, idle: TimeInterval, on connection: Connection) throws -> Found? {
        try connection.query(
            """
            SELECT id, person_id, workspace_id, expires_at FROM sessions
            WHERE token_hash = \(token.hash) AND revoked_at IS NULL AND expires_at > now()
              AND last_seen_at > now() - make_interval(secs => \(idle))
            """
        ).first.map(Found.init(row:))
    }

    /// The live session of `token`, as `find`, marked seen now (its idle end moves on).
    static func touch(_ token: SecretToken, idle: TimeInterval, on connection: Connection) throws -> Found? {
        try connection.query(
            """
            UPDATE sessions SET last_seen_at = now()
            WHERE token_hash = \(token.hash) AND revoked_at IS NULL AND expires_at > now()
              AND last_seen_at > now() - make_interval(secs => \(idle))
            RETURNING id, person_id, workspace_id, expires_at
            """
        ).first.map(Found.init(row:))
    }

    /// The live sessions of `person`, newest first.
    static func list(of person: UUID, idle: TimeInterval, on connection: Connection) throws -> [Listed] {
        try connection.query(
            """
            SELECT \(unescaped: listedColumns) FROM sessions
            WHERE person_id = \(person) AND revoked_at IS NULL AND expires_at > now()
              AND last_seen_at > now() - make_interval(secs => \(idle))
            ORDER BY created_at DESC, id
            """
        ).map(Listed.init(row:))
    }

    /// The session `id` as its person's list shows it, whether or not it is live.
    static func listed(_ id: UUID, on connection: Connection) throws -> Listed? {
        try connection.query("SELECT \(unescaped: listedColumns) FROM sessions WHERE id = \(id)").first.map(Listed.init(row:))
    }

    private static let listedColumns = "id, via, created_at, last_seen_at, expires_at, address, user_agent"

    /// Moves the live session `id` of `person` to `workspace`; whether there was such a session.
    static func switchWorkspace(_ id: UUID, of person: UUID, to workspace: UUID, on connection: Connection) throws -> Bool {
        try connection.execute(
            """
            UPDATE sessions SET workspace_id = \(workspace) WHERE id = \(id) AND person_id = \(person) AND revoked_at IS NULL
            """) > 0
    }

    /// Ends the session `id` of `person`; whether there was such a live session.
    @discardableResult
    static func revoke(_ id: UUID, of person: UUID, on connection: Connection) throws -> Bool {
        try connection.execute(
            """
            UPDATE sessions SET revoked_at = now() WHERE id = \(id) AND person_id = \(person) AND revoked_at IS NULL
            """) > 0
    }

    /// Ends every session of `person` ("sign out everywhere", a member removed); how many were live.
    @discardableResult
    static func revokeAll(of person: UUID, on connection: Connection) throws -> Int {
        try connection.execute("UPDATE sessions SET revoked_at = now() WHERE person_id = \(person) AND revoked_at IS NULL")
    }
}

extension SessionStore.Found {
    /// Decodes `id, person_id, workspace_id, expires_at`.
    init(row: Row) throws {
        (id, personID, workspaceID, expiresAt) = try row.decode((UUID, UUID, UUID?, Date).self)
    }
}

extension SessionStore.Listed {
    /// Decodes `id, via, created_at, last_seen_at, expires_at, address, user_agent`.
    init(row: Row) throws {
        (id, via, createdAt, lastSeenAt, expiresAt, address, userAgent) = try row.decode(
            (UUID, String, Date, Date, Date, String, String).self)
    }
}
