import Foundation
import LinkKit
import Postgres

/// One entry of `audit_log` as `GET /v1/audit` shows it: who (key id), when, what (before/after), and the name
/// people know the resource by.
struct AuditEntry: Sendable {
    /// The identity column: the keyset of the log's pages, newest first.
    let id: Int64
    let keyID: UUID?
    let at: Date
    let action: String
    let resourceType: String
    let resourceID: String
    let resourceName: String?
    let before: JSONValue?
    let after: JSONValue?

    var json: JSONValue {
        .object([
            "id": .number(String(id)),
            "keyId": keyID.map(JSONValue.uuid) ?? .null,
            "at": .timestamp(at),
            "action": .string(action),
            "resourceType": .string(resourceType),
            "resourceId": .string(resourceID),
            "resourceName": resourceName.map(JSONValue.string) ?? .null,
            "before": before ?? .null,
            "after": after ?? .null,
        ])
    }
}

extension AuditEntry {
    /// Decodes the columns `AuditStore.page` selects, in order.
    init(row: Row) throws {
        id = try row.decode(0, as: Int64.self)
        keyID = try row.decode(1, as: UUID?.self)
        at = try row.decode(2, as: Date.self)
        action = try row.decode(3, as: String.self)
        resourceType = try row.decode(4, as: String.self)
        resourceID = try row.decode(5, as: String.self)
        before = try row.decode(6, as: JSONText?.self).flatMap { try? JSONValue.parse($0.json) }
        after = try row.decode(7, as: JSONText?.self).flatMap { try? JSONValue.parse($0.json) }
        resourceName = try row.decode(8, as: String?.self)
    }
}
