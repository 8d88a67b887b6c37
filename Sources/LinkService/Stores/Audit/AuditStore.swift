import Foundation
import LinkKit
import Postgres

/// The SQL of `audit_log`: who changed what, written in the same transaction as the change itself.
enum AuditStore {
    enum Action: String {
        case create, update, delete, replace
    }

    /// Records the entry and keeps its id for the rest of the transaction in the setting `linkd.audit_id`
    /// (transaction-local): the association version a write causes names the write's entry
    /// (`AssociationVersionStore.insert`) without every handler handing the id on.
    static func record(
        on connection: Connection, _ principal: Principal, _ action: Action, type: String, id: String,
        before: JSONValue? = nil, after: JSONValue? = nil
    ) throws {
        try connection.execute("""
            WITH entry AS (
                INSERT INTO audit_log (workspace_id, key_id, action, resource_type, resource_id, before, after)
                VALUES (\(principal.workspaceID), \(principal.keyID), \(action.rawValue), \(type), \(id),
                        \(before.map { JSONText(storable($0).serialized) }), \(after.map { JSONText(storable($0).serialized) }))
                RETURNING id)
            SELECT set_config(\(auditIDSetting), id::text, true) FROM entry
            """)
    }

    /// `value` with each number `jsonb` cannot hold (`JSONNumber.isInRange`) as its text, a string: a row can hold
    /// one in its `json` columns only when written by other means than the API (which refuses them), and its
    /// change or deletion must still be recorded.
    static func storable(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let text) where !JSONNumber.isInRange(text): .string(text)
        case .array(let elements): .array(elements.map(storable))
        case .object(let members): .object(members.map { JSONMember(key: $0.key, value: storable($0.value)) })
        case .null, .bool, .number, .string: value
        }
    }

    /// The transaction-local setting holding the id of the transaction's last audit entry.
    static let auditIDSetting = "linkd.audit_id"

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
