import Foundation
import LinkKit
import Postgres

/// One event queued for one subscription (a `webhook_outbox` row) as the delivery log shows it.
struct WebhookDelivery: Sendable {
    let id: Int64
    let eventID: String
    let eventType: String
    let createdAt: Date
    let attempts: Int
    let nextAttemptAt: Date
    let deliveredAt: Date?
    let lastStatus: Int?
    let lastError: String?

    /// `delivered`, `pending` (never tried) or `retrying` (tried and failed, tried again at `nextAttemptAt`).
    var status: String { deliveredAt != nil ? "delivered" : attempts == 0 ? "pending" : "retrying" }

    var json: JSONValue {
        .object([
            "id": .string(String(id)),
            "eventId": .string(eventID),
            "eventType": .string(eventType),
            "status": .string(status),
            "attempts": .integer(attempts),
            "createdAt": .timestamp(createdAt),
            "nextAttemptAt": deliveredAt == nil ? .timestamp(nextAttemptAt) : .null,
            "deliveredAt": deliveredAt.map(JSONValue.timestamp) ?? .null,
            "responseStatus": lastStatus.map { .integer($0) } ?? .null,
            "error": lastError.map(JSONValue.string) ?? .null,
        ])
    }

    static let columns = "id, event_id, event_type, created_at, attempts, next_attempt_at, delivered_at, last_status, last_error"

    init(row: Row) throws {
        (id, eventID, eventType, createdAt, attempts, nextAttemptAt, deliveredAt, lastStatus, lastError) = try row.decode(
            (Int64, String, String, Date, Int, Date, Date?, Int?, String?).self)
    }
}

/// A due delivery claimed by this node (`WebhookStore.claim`): the event, and the subscription's target and
/// sealed secret to sign it with.
struct ClaimedDelivery: Sendable {
    let id: Int64
    let webhookID: UUID
    let workspaceID: UUID
    let eventID: String
    let eventType: String
    let payload: String
    let attempts: Int
    let url: String
    let secretSealed: [UInt8]
    let secretKeyID: String
    /// The claim's lease end in microseconds since 1970: the attempt's result is recorded only while the row still
    /// holds this lease, so a retry asked for while the attempt was in flight is not undone by its result.
    let lease: Int64

    init(row: Row) throws {
        (id, webhookID, workspaceID, eventID, eventType, payload, attempts, url, secretSealed, secretKeyID, lease) = try row.decode(
            (Int64, UUID, UUID, String, String, String, Int, String, [UInt8], String, Int64).self)
    }
}
