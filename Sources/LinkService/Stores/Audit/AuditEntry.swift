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

    var json: JSONValue { Self.members.json(self) }

    /// The API's form, declared once for the answers (`json`) and the document's `AuditEntry` component.
    static let members: [ResourceMember<AuditEntry>] = [
        .required("id", Schema.integer(minimum: 1).described("Increases with every change.")) { .number(String($0.id)) },
        .nullable(
            "keyId",
            Schema.uuid.nullable.described(
                "The API key that made the change; null for changes made from the command line or by a signed-in person.")
        ) { $0.keyID.map(JSONValue.uuid) ?? .null },
        .nullable(
            "personId",
            Schema.uuid.nullable.described("The person who made the change: signed in, or who created the key; null when nobody is named.")
        ) { $0.personID.map(JSONValue.uuid) ?? .null },
        .nullable(
            "actor",
            Schema.object(
                [
                    .required("type", Schema.enumeration(["person", "key"])),
                    .required("id", Schema.uuid),
                    .required(
                        "name",
                        Schema.string.nullable.described(
                            "The key's name (its prefix when unnamed) or the person's email, as it was when the change was made."
                        )),
                ], closed: false
            ).nullable.described("Who made the change: the key, else the signed-in person; null for changes made from the command line.")
        ) { $0.actorJSON },
        .nullable(
            "address",
            Schema.string.nullable.described(
                "The client address the change came from (behind a trusted proxy, the one it forwarded); null for changes made from the command line or before linkd recorded addresses."
            )
        ) { $0.address.map(JSONValue.string) ?? .null },
        .required("at", Schema.timestamp) { .timestamp($0.at) },
        .required("action", Schema.enumeration(["create", "update", "delete", "replace"])) { .string($0.action) },
        .required("resourceType", Schema.string.described("`key`, `team`, `app`, `destination`, `domain`, `rules`…")) {
            .string($0.resourceType)
        },
        .required("resourceId", Schema.string.described("The resource's address: an id, a team ID, a hostname, `<app id>/<name>`.")) {
            .string($0.resourceID)
        },
        .nullable(
            "resourceName",
            Schema.string.nullable.described(
                """
                What people call the resource, from the entry: a link's `domain/slug`, an app's name and platform (`Acme Shop (iOS)`), \
                a destination's title and type with its app's name and platform, a webhook's URL (a delivery's: its subscription's), \
                a key's or team's name; null when the entry names no single resource (a bulk create) or has no name.
                """)
        ) { $0.resourceName.map(JSONValue.string) ?? .null },
        .nullable("before", Schema([]).described("The resource before the change (null on create).")) { $0.before ?? .null },
        .nullable("after", Schema([]).described("The resource after the change (null on delete).")) { $0.after ?? .null },
    ]
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
