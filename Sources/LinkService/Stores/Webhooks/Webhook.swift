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

    var json: JSONValue {
        .object([
            "id": .uuid(id),
            "url": .string(url),
            "events": .array(events.map(JSONValue.string)),
            "bulkEvents": .string(bulkEvents),
            "description": .string(description),
            "state": .string(state),
            "disabledAt": disabledAt.map(JSONValue.timestamp) ?? .null,
            "failureRun": .integer(failureRun),
            "createdAt": .timestamp(createdAt),
            "updatedAt": .timestamp(updatedAt),
        ])
    }

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
