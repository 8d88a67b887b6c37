import Foundation
import LinkKit
import Postgres

/// The SQL of `audit_log`: who changed what, written in the same transaction as the change itself.
enum AuditStore {
    enum Action: String {
        case create, update, delete, replace
    }

    static func record(
        on connection: Connection, _ principal: Principal, _ action: Action, type: String, id: String,
        before: JSONValue? = nil, after: JSONValue? = nil
    ) throws {
        try connection.execute("""
            INSERT INTO audit_log (workspace_id, key_id, action, resource_type, resource_id, before, after)
            VALUES (\(principal.workspaceID), \(principal.keyID), \(action.rawValue), \(type), \(id),
                    \(before.map { JSONText($0.serialized) }), \(after.map { JSONText($0.serialized) }))
            """)
    }

    /// Up to `limit` of `workspace`'s entries (of `type` only, when given), newest first, from before the identity
    /// `before` (the keyset of `GET /v1/audit`).
    static func page(workspace: UUID, before: Int64?, type: String?, limit: Int, on connection: Connection) throws -> QueryResult {
        try connection.query(Query(unsafeSQL: """
            SELECT id, key_id, at, action, resource_type, resource_id, before, after FROM audit_log
            WHERE workspace_id = $1 AND ($2::int8 IS NULL OR id < $2) AND ($3::text IS NULL OR resource_type = $3)
            ORDER BY id DESC LIMIT $4
            """, binds: [workspace, before, type, limit]))
    }
}
