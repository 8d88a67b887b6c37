import Foundation
import Postgres

/// The SQL of `invitations`: created by an owner, listed, revoked, and accepted once through their token.
enum InvitationStore: ResourceStore {
    typealias Resource = Invitation
    static let table = "invitations"
    static let columns = """
        id, workspace_id, email, role, invited_by, (SELECT p.email FROM people p WHERE p.id = invited_by), created_at, expires_at, \
        accepted_at, revoked_at, expires_at <= now(), (extract(epoch FROM created_at) * 1000000)::int8
        """
    static let address = (key: "id", owner: "workspace_id")

    /// A new invitation of `email` to `workspace` with `role`, by `inviter`, valid for `ttl`; with its token (shown
    /// once, stored as its SHA-256).
    static func create(
        email: String, role: Role, workspace: UUID, invitedBy inviter: UUID?, ttl: TimeInterval,
        on connection: Connection
    ) throws -> (Invitation, SecretToken) {
        let token = SecretToken.generate()
        let row = try connection.query(
            """
            INSERT INTO invitations (workspace_id, email, role, token_hash, invited_by, expires_at)
            VALUES (\(workspace), \(email.lowercased()), \(role.rawValue), \(token.hash), \(inviter), now() + make_interval(secs => \(ttl)))
            RETURNING \(unescaped: columns)
            """
        ).first
        guard let row else { throw ServiceError.conflict("The invitation could not be made; try again.") }
        return (try Invitation(row: row), token)
    }

    /// Revokes the pending invitation `id` of `workspace`; the invitation as it is after, nil when there is none.
    /// An invitation already accepted, revoked or expired is left as it is.
    static func revoke(_ id: UUID, workspace: UUID, on connection: Connection) throws -> Invitation? {
        _ = try connection.execute(
            """
            UPDATE invitations SET revoked_at = now()
            WHERE id = \(id) AND workspace_id = \(workspace) AND accepted_at IS NULL AND revoked_at IS NULL
            """)
        return try find(id, of: workspace, on: connection)
    }

    /// The pending invitation of `token` (not accepted, not revoked, before its end), locked until the
    /// transaction ends; nil otherwise.
    static func pending(_ token: SecretToken, on connection: Connection) throws -> Invitation? {
        try connection.query(
            """
            SELECT \(unescaped: columns) FROM invitations
            WHERE token_hash = \(token.hash) AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
            FOR UPDATE
            """
        ).first.map(Invitation.init(row:))
    }

    /// Marks `id` accepted by `person`.
    static func accept(_ id: UUID, by person: UUID, on connection: Connection) throws {
        try connection.execute("UPDATE invitations SET accepted_at = now(), accepted_by = \(person) WHERE id = \(id)")
    }
}

extension InvitationStore {
    /// Revokes the pending invitations of `email` to `workspace` (a new one replaces them).
    static func revokePending(email: String, workspace: UUID, on connection: Connection) throws {
        try connection.execute(
            """
            UPDATE invitations SET revoked_at = now()
            WHERE workspace_id = \(workspace) AND email = \(email.lowercased()) AND accepted_at IS NULL AND revoked_at IS NULL
            """)
    }
}
