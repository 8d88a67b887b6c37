import Foundation
import LinkKit
import Postgres

/// The outbox's cleanups (docs/WEBHOOKS.md, "Deleting a subscription" and retention), each statement bounded:
/// the rows of deleted subscriptions (named in `webhook_cleanups` by the trigger of migrations/0027), and
/// delivered events past the retention.
extension WebhookStore {
    /// The deleted subscriptions whose outbox rows are still to be deleted, the oldest deletion first, `limit` at
    /// most.
    static func cleanups(limit: Int, on connection: Connection) throws -> [UUID] {
        try connection.query("SELECT webhook_id FROM webhook_cleanups ORDER BY deleted_at, webhook_id LIMIT \(limit)")
            .map { try $0.decode(0, as: UUID.self) }
    }

    /// Deletes up to `limit` outbox rows of the deleted subscription `webhook`; when none was left, the
    /// subscription is off the cleanup list. Returns how many rows were deleted.
    static func cleanUp(_ webhook: UUID, limit: Int, on connection: Connection) throws -> Int {
        let deleted = try connection.execute(
            """
            DELETE FROM webhook_outbox WHERE id IN (SELECT id FROM webhook_outbox WHERE webhook_id = \(webhook) LIMIT \(limit))
            """)
        if deleted < limit {
            try connection.execute(
                """
                DELETE FROM webhook_cleanups c WHERE webhook_id = \(webhook)
                  AND NOT EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.webhook_id = c.webhook_id)
                """)
        }
        return deleted
    }

    /// Deletes up to `limit` delivered events created before `cutoff`; undelivered ones are kept whatever their
    /// age. Returns how many were deleted.
    static func prune(before cutoff: Date, limit: Int, on connection: Connection) throws -> Int {
        try connection.execute(
            """
            DELETE FROM webhook_outbox WHERE id IN (
                SELECT id FROM webhook_outbox WHERE created_at < \(cutoff) AND delivered_at IS NOT NULL LIMIT \(limit))
            """)
    }
}

extension WebhookStore {
    /// Deletes the `conversion.recorded` events of `workspace`'s subscriptions that tell an event of `visitor`, queued or
    /// delivered (an erasure: docs/EVENTS.md, "Erasure"). Returns how many were deleted.
    static func eraseConversions(visitor: String, workspace: UUID, on connection: Connection) throws -> Int {
        try connection.execute(
            """
            DELETE FROM webhook_outbox o USING webhooks w
            WHERE o.webhook_id = w.id AND w.workspace_id = \(workspace) AND o.event_type = 'conversion.recorded'
              AND o.payload -> 'data' -> 'event' ->> 'visitorId' = \(visitor)
            """)
    }
}
