import Foundation
import LinkKit
import Postgres

/// The SQL of `workspace_sso` and `sso_attempts`: a workspace's provider settings, and each sign-in between
/// leaving for the provider and coming back.
enum SSOStore {
    static let columns = """
        workspace_id, issuer, client_id, client_secret_sealed, client_secret_key_id, allowed_domains, default_role, groups_claim,
        group_roles::text, required, updated_at
        """

    /// What a PUT sets (the secret already sealed).
    struct Settings: Sendable {
        var issuer: String
        var clientID: String
        var clientSecretSealed: [UInt8]
        var clientSecretKeyID: String
        var allowedDomains: [String]
        var defaultRole: Role?
        var groupsClaim: String?
        var groupRoles: [String: Role]
        var required: Bool
    }

    /// The single sign-on of `workspace`; nil when it has none. `forUpdate` locks it for the transaction.
    static func find(_ workspace: UUID, forUpdate: Bool = false, on connection: Connection) throws -> WorkspaceSSO? {
        try connection.query(
            """
            SELECT \(unescaped: columns) FROM workspace_sso WHERE workspace_id = \(workspace)\(unescaped: forUpdate ? " FOR UPDATE" : "")
            """
        ).first.map(WorkspaceSSO.init(row:))
    }

    /// Sets the single sign-on of `workspace`, replacing what it had.
    static func save(_ settings: Settings, of workspace: UUID, on connection: Connection) throws -> WorkspaceSSO {
        let groupRoles = JSONValue.object(
            settings.groupRoles.sorted { $0.key < $1.key }
                .map { JSONMember(key: $0.key, value: .string($0.value.rawValue)) })
        let row = try connection.query(
            """
            INSERT INTO workspace_sso (workspace_id, issuer, client_id, client_secret_sealed, client_secret_key_id, allowed_domains,
                                       default_role, groups_claim, group_roles, required)
            VALUES (\(workspace), \(settings.issuer), \(settings.clientID), \(settings.clientSecretSealed), \(settings.clientSecretKeyID),
                    \(settings.allowedDomains), \(settings.defaultRole?.rawValue), \(settings.groupsClaim), \(groupRoles.serialized)::jsonb,
                    \(settings.required))
            ON CONFLICT (workspace_id) DO UPDATE SET
                issuer = excluded.issuer, client_id = excluded.client_id, client_secret_sealed = excluded.client_secret_sealed,
                client_secret_key_id = excluded.client_secret_key_id, allowed_domains = excluded.allowed_domains,
                default_role = excluded.default_role, groups_claim = excluded.groups_claim, group_roles = excluded.group_roles,
                required = excluded.required, updated_at = now()
            RETURNING \(unescaped: columns)
            """
        ).first
        guard let row else { throw ServiceError.conflict("The single sign-on could not be saved; try again.") }
        return try WorkspaceSSO(row: row)
    }

    /// Removes the single sign-on of `workspace`; whether it had one. Sign-ins under way end with it.
    @discardableResult
    static func delete(_ workspace: UUID, on connection: Connection) throws -> Bool {
        try connection.execute("DELETE FROM sso_attempts WHERE workspace_id = \(workspace)")
        return try connection.execute("DELETE FROM workspace_sso WHERE workspace_id = \(workspace)") > 0
    }

    /// Whether `person` belongs to a workspace that requires single sign-on: password sign-in is refused for them.
    static func isRequired(for person: UUID, on connection: Connection) throws -> Bool {
        try connection.query(
            """
            SELECT EXISTS (SELECT 1 FROM memberships m JOIN workspace_sso s ON s.workspace_id = m.workspace_id
                           WHERE m.person_id = \(person) AND s.required)
            """
        ).first?.decode(0, as: Bool.self) ?? false
    }

    /// Records a sign-in of `workspace` leaving for the provider: the SHA-256 of its `state`, its nonce and PKCE
    /// verifier, valid for `lifetime` seconds. Attempts long expired are deleted on the way, a few at a time.
    static func begin(
        stateHash: [UInt8], nonce: String, codeVerifier: String, workspace: UUID, lifetime: TimeInterval,
        on connection: Connection
    ) throws {
        try connection.execute(
            """
            DELETE FROM sso_attempts WHERE state_hash IN (
                SELECT state_hash FROM sso_attempts WHERE expires_at < now() - interval '1 hour' LIMIT 100)
            """)
        try connection.execute(
            """
            INSERT INTO sso_attempts (state_hash, workspace_id, nonce, code_verifier, expires_at)
            VALUES (\(stateHash), \(workspace), \(nonce), \(codeVerifier), now() + make_interval(secs => \(lifetime)))
            """)
    }

    /// The sign-in whose `state` hashes to `stateHash`, marked used: once only, and only before it expires; nil
    /// for a state unknown, expired or already used.
    static func claim(stateHash: [UInt8], on connection: Connection) throws -> (workspace: UUID, nonce: String, codeVerifier: String)? {
        try connection.query(
            """
            UPDATE sso_attempts SET used_at = now()
            WHERE state_hash = \(stateHash) AND used_at IS NULL AND expires_at > now()
            RETURNING workspace_id, nonce, code_verifier
            """
        ).first.map { try $0.decode((UUID, String, String).self) }
    }
}
