import Foundation
import LinkKit
import Postgres

/// An API key as listings show it: never the secret, only its prefix.
struct APIKey: Sendable {
    let id: UUID
    let name: String
    let prefix: String
    let scope: String
    let createdAt: Date
    let revokedAt: Date?
    let sortMicros: Int64

    static let columns = "id, name, prefix, scope, created_at, revoked_at, (extract(epoch FROM created_at) * 1000000)::int8"

    init(row: Row) throws {
        (id, name, prefix, scope, createdAt, revokedAt, sortMicros) = try row.decode((UUID, String, String, String, Date, Date?, Int64).self)
    }

    var json: JSONValue {
        JSONValue.object([
            "id": .uuid(id),
            "name": .string(name),
            "prefix": .string(prefix),
            "scope": .string(scope),
            "createdAt": .timestamp(createdAt),
            "revokedAt": revokedAt.map(JSONValue.timestamp) ?? .null,
        ]).compacted
    }

    /// Creates a key in `workspaceID` and returns it with its secret (shown once, never stored).
    static func create(on connection: Connection, workspaceID: UUID, name: String, scope: Scope) throws -> (APIKey, APIKeySecret) {
        let secret = APIKeySecret.generate()
        let row = try connection.query(Query(unsafeSQL: """
            INSERT INTO api_keys (id, workspace_id, name, prefix, secret_hash, scope) VALUES ($1, $2, $3, $4, $5, $6)
            RETURNING \(columns)
            """, binds: [secret.keyID, workspaceID, name, secret.prefix, secret.hash, scope.rawValue])).first!
        return (try APIKey(row: row), secret)
    }
}
