import Foundation
import LinkKit
import Postgres

/// One entry of `audit_log` as `GET /v1/audit` shows it: who (the key or person, by the name they had), from where,
/// when, what (before/after), and the name people know the resource by.
struct AuditEntry: Sendable {
    /// The identity column: the keyset of the log's pages, newest first.
    let id: Int64
    let keyID: UUID?
    /// The person: signed in, or who created the key.
    let personID: UUID?
    /// The key's or person's name when the change was made.
    let actorName: String?
    /// The client address the change came from; nil for changes made from the command line.
    let address: String?
    let at: Date
    let action: String
    let resourceType: String
    let resourceID: String
    let resourceName: String?
    let before: JSONValue?
    let after: JSONValue?

    /// Who made the change: the key when there was one, else the signed-in person; nil from the command line.
    var actor: (type: String, id: UUID, name: String?)? {
        if let keyID { return ("key", keyID, actorName) }
        if let personID { return ("person", personID, actorName) }
        return nil
    }

    private var actorJSON: JSONValue {
        guard let actor else { return .null }
        let name: JSONValue = actor.name.map(JSONValue.string) ?? .null
        return .object(["type": .string(actor.type), "id": .uuid(actor.id), "name": name])
    }

    var json: JSONValue {
        .object([
            "id": .number(String(id)),
            "keyId": keyID.map(JSONValue.uuid) ?? .null,
            "personId": personID.map(JSONValue.uuid) ?? .null,
            "actor": actorJSON,
            "address": address.map(JSONValue.string) ?? .null,
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
        personID = try row.decode(9, as: UUID?.self)
        actorName = try row.decode(10, as: String?.self)
        address = try row.decode(11, as: String?.self)
    }
}
