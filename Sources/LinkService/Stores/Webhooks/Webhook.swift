import Foundation
import LinkKit
import Postgres

/// A webhook subscription: where a workspace's events of the listed types are sent (docs/WEBHOOKS.md). Its
/// signing secret is held sealed (`secretSealed` under the key `secretKeyID`) and never shown after creation.
struct Webhook: VersionedResource {
    static let auditType = "webhook"

    let id: UUID
    let url: String
    let events: [String]
    let description: String
    let paused: Bool
    /// When linkd disabled it after a run of failed deliveries; nil while enabled.
    let disabledAt: Date?
    /// Consecutive failed deliveries.
    let failureRun: Int
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    let sortMicros: Int64
    let secretSealed: [UInt8]
    let secretKeyID: String
    /// What a bulk request or import tells it, when it lists `link.created`: `summary`, one `links.bulk_created`
    /// event; `each`, one `link.created` per link.
    let bulkEvents: String

    /// `active`, `paused` (by the workspace: events queue, nothing is sent) or `disabled` (by linkd after failures:
    /// nothing is queued until it is resumed).
    var state: String { disabledAt != nil ? "disabled" : paused ? "paused" : "active" }

    var json: JSONValue { Self.members.json(self) }

    /// The API's form, declared once for the answers (`json`) and the document's `Webhook` component (and
    /// `CreatedWebhook`, which adds the secret).
    static let members: [ResourceMember<Webhook>] = [
        .required("id", Schema.uuid.readOnly) { .uuid($0.id) },
        .required("url", Schema.url) { .string($0.url) },
        .required("events", Schema.array(.ref("WebhookEventType"))) { .array($0.events.map(JSONValue.string)) },
        .required(WebhookFields.bulkEvents.name, WebhookFields.bulkEvents.schema) { .string($0.bulkEvents) },
        .required("description", Schema.string(maxLength: TextLimit.comment.scalars)) { .string($0.description) },
        .required(
            "state",
            Schema.enumeration(["active", "paused", "disabled"]).readOnly
                .described(
                    "`active`; `paused` by the workspace (events queue, nothing is sent until it is resumed); `disabled` by linkd after a run of failed deliveries (events are not queued; resuming delivers what was queued before)."
                )
        ) { .string($0.state) },
        .nullable("disabledAt", Schema.timestamp.nullable.readOnly) { $0.disabledAt.map(JSONValue.timestamp) ?? .null },
        .required("failureRun", Schema.integer(minimum: 0).readOnly.described("Consecutive failed deliveries.")) {
            .integer($0.failureRun)
        },
        .required("createdAt", Schema.created) { .timestamp($0.createdAt) },
        .required("updatedAt", Schema.updated) { .timestamp($0.updatedAt) },
    ]

    var auditID: String { id.canonicalText }
}

extension Webhook {
    init(row: Row) throws {
        (
            id, url, events, description, paused, disabledAt, failureRun, version, createdAt, updatedAt, sortMicros, secretSealed,
            secretKeyID,
            bulkEvents
        ) = try row.decode((UUID, String, [String], String, Bool, Date?, Int, Int, Date, Date, Int64, [UInt8], String, String).self)
    }
}
