import Foundation
import LinkKit
import Postgres

/// The SQL of `api_keys` (as listings see them: never the hash) and the decoding of its rows.
enum KeyStore: ResourceStore {
    typealias Resource = APIKey
    static let table = "api_keys"
    static let columns = """
        id, name, prefix, scope, created_at, revoked_at, (extract(epoch FROM created_at) * 1000000)::int8, role, created_by,
        (SELECT p.email FROM people p WHERE p.id = api_keys.created_by)
        """
    static let address = (key: "id", owner: "workspace_id")

    /// Creates a key in `workspaceID` acting as `role` (by default the one its scope implies), created by the person
    /// `createdBy` if any, and returns it with its secret (shown once, never stored).
    static func create(
        on connection: Connection, workspaceID: UUID, name: String, scope: Scope, role: Role? = nil,
        createdBy: UUID? = nil
    ) throws -> (APIKey, APIKeySecret) {
        let secret = APIKeySecret.generate()
        let role = role ?? Role.implied(by: scope)
        let key = try insert(
            "id, workspace_id, name, prefix, secret_hash, scope, role, created_by",
            [secret.keyID, workspaceID, name, secret.prefix, secret.hash, scope.rawValue, role.rawValue, createdBy],
            on: connection)
        return (key, secret)
    }

    /// The workspace, secret hash, scope and role names and creator of the key `id`; nil when there is no such key or it
    /// is revoked.
    static func credentials(
        of id: UUID, on connection: Connection
    ) throws
        -> (workspaceID: UUID, secretHash: [UInt8], scope: String, role: String, createdBy: UUID?)?
    {
        let row = try connection.query(
            """
            SELECT workspace_id, secret_hash, scope, role, created_by FROM api_keys WHERE id = \(id) AND revoked_at IS NULL
            """
        ).first
        return try row.map { try $0.decode((UUID, [UInt8], String, String, UUID?).self) }
    }

    /// Which of `ids` (uuid text) are keys that are not revoked.
    static func unrevoked(_ ids: [String], on connection: Connection) throws -> Set<UUID> {
        Set(
            try connection.query(
                """
                SELECT id FROM api_keys WHERE id = ANY(\(ids)::uuid[]) AND revoked_at IS NULL
                """
            ).map { try $0.decode(0, as: UUID.self) })
    }

    /// Revokes the key `id` of `workspace` (a key revoked before keeps its time); nil when it has no such key.
    static func revoke(_ id: UUID, workspace: UUID, on connection: Connection) throws -> APIKey? {
        let row = try connection.query(
            """
            UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
            WHERE id = \(id) AND workspace_id = \(workspace) RETURNING \(unescaped: columns)
            """
        ).first
        return try row.map(APIKey.init(row:))
    }
}

extension APIKey {
    init(row: Row) throws {
        (id, name, prefix, scope, createdAt, revokedAt, sortMicros, role, createdBy, creatorEmail) = try row.decode(
            (UUID, String, String, String, Date, Date?, Int64, String, UUID?, String?).self)
    }
}
