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

    var json: JSONValue { Self.members.json(self) }

    /// The API's form, declared once for the answers (`json`) and the document's `WebhookDelivery` component.
    static let members: [ResourceMember<WebhookDelivery>] = [
        .required("id", Schema.string(pattern: "^[0-9]+$").described("The delivery's id, for `…/deliveries/{deliveryId}/retry`.")) {
            .string(String($0.id))
        },
        .required("eventId", Schema.string.described("The `webhook-id` header: the same for every delivery of one event.")) {
            .string($0.eventID)
        },
        .required("eventType", Schema.string) { .string($0.eventType) },
        .required("status", Schema.enumeration(["pending", "retrying", "delivered"])) { .string($0.status) },
        .required("attempts", Schema.integer(minimum: 0)) { .integer($0.attempts) },
        .required("createdAt", Schema.timestamp) { .timestamp($0.createdAt) },
        .nullable("nextAttemptAt", Schema.timestamp.nullable.described("When it is tried next; null once delivered.")) {
            $0.deliveredAt == nil ? .timestamp($0.nextAttemptAt) : .null
        },
        .nullable("deliveredAt", Schema.timestamp.nullable) { $0.deliveredAt.map(JSONValue.timestamp) ?? .null },
        .nullable(
            "responseStatus",
            Schema.integer.nullable.described("The receiver's HTTP status at the last attempt; null when it did not answer.")
        ) { $0.lastStatus.map { .integer($0) } ?? .null },
        .nullable(
            "error",
            Schema.string.nullable.described(
                "Why the last attempt failed: the status, or `dns`, `connect`, `tls`, `timeout`, `refused_address`, ...")
        ) { $0.lastError.map(JSONValue.string) ?? .null },
    ]

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
