import Foundation
import LinkKit
import Postgres

/// Writes who changed what, in the same transaction as the change itself.
enum AuditLog {
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
                    \(before.map { JSONB($0.serialized) }), \(after.map { JSONB($0.serialized) }))
            """)
    }
}
