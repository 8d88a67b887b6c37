import Foundation
import LinkKit
import Postgres

/// An event as `events` keeps it (docs/EVENTS.md): what the `conversion.recorded` webhook carries and the export writes.
/// The click token's hash is not read: it is a credential's, and said nothing to a reader.
struct StoredEvent: Sendable, Equatable {
    let id: UUID
    let workspace: UUID
    let app: UUID?
    let kind: Event.Kind
    let name: String
    let occurredAt: Date
    let receivedAt: Date
    let value: Int64?
    let currency: String?
    let idempotencyKey: String
    let visitorID: String?
    let url: String?
    let attribution: EventAttribution

    /// What `init(row:)` decodes, in order (the table's alias `e`).
    static let columns = """
        e.id, e.workspace_id, e.app_id, e.kind, e.name, e.occurred_at, e.received_at, e.value_minor, e.currency, e.idempotency_key, \
        e.visitor_id, e.url, e.attribution, e.link_id, e.utm_source, e.utm_medium, e.utm_campaign, e.utm_term, e.utm_content, \
        e.target, e.variant, e.unattributed_reason, e.country, e.os
        """
    /// How many columns `columns` names: a query's next column is at this index.
    static let columnCount = 24

    init(row: Row) throws {
        let (id, workspace, app, kind, name, occurredAt, receivedAt, value, currency, key, visitor) =
            try row.decode((UUID, UUID, UUID?, String, String, Date, Date, Int64?, String?, String, String?).self)
        self.id = id
        self.workspace = workspace
        self.app = app
        self.kind = Event.Kind(rawValue: kind) ?? .named
        self.name = name
        self.occurredAt = occurredAt
        self.receivedAt = receivedAt
        self.value = value
        self.currency = currency
        idempotencyKey = key
        visitorID = visitor
        url = try row.decode(11, as: String?.self)
        var attribution = EventAttribution(via: EventAttribution.Via(rawValue: try row.decode(12, as: String.self)) ?? .none)
        (
            attribution.linkID, attribution.utmSource, attribution.utmMedium, attribution.utmCampaign, attribution.utmTerm,
            attribution.utmContent, attribution.target, attribution.variant, attribution.reason, attribution.country,
            attribution.os
        ) = (
            try row.decode(13, as: UUID?.self), try row.decode(14, as: String?.self), try row.decode(15, as: String?.self),
            try row.decode(16, as: String?.self), try row.decode(17, as: String?.self), try row.decode(18, as: String?.self),
            try row.decode(19, as: String?.self), try row.decode(20, as: String?.self), try row.decode(21, as: String?.self),
            try row.decode(22, as: String?.self), try row.decode(23, as: String?.self)
        )
        self.attribution = attribution
    }

    /// The event as the webhook and the NDJSON export show it (`StoredEvent` in the OpenAPI document).
    var json: JSONValue {
        var members = [
            JSONMember(key: "id", value: .uuid(id)),
            JSONMember(key: "kind", value: .string(kind.rawValue)),
            JSONMember(key: "name", value: .string(name)),
            JSONMember(key: "time", value: .timestamp(occurredAt)),
            JSONMember(key: "receivedAt", value: .timestamp(receivedAt)),
        ]
        func put(_ key: String, _ value: JSONValue?) {
            if let value { members.append(JSONMember(key: key, value: value)) }
        }
        put("value", value.map { .integer(Int($0)) })
        put("currency", currency.map(JSONValue.string))
        put("app", app.map(JSONValue.uuid))
        put("visitorId", visitorID.map(JSONValue.string))
        members.append(JSONMember(key: "idempotencyKey", value: .string(idempotencyKey)))
        put("url", url.map(JSONValue.string))
        members.append(JSONMember(key: "attribution", value: attribution.json))
        return .object(members)
    }
}
