import Foundation
import LinkKit
import Postgres

/// The delivery's SQL (docs/WEBHOOKS.md, "Delivery"). Each subscription is a queue whose head is its oldest
/// undelivered event; `webhooks.due_at` says when that head is next due (NULL: nothing queued), so a claim looks
/// at subscriptions, never at the events behind their heads. Every change of `due_at` is made holding the
/// subscription's row lock, which keeps it equal to the head's next attempt (or later by a lease).
extension WebhookStore {
    /// What the claim is told of this node's deliveries in flight.
    struct Fairness: Sendable {
        /// Workspaces that have as many deliveries in flight on this node as one may: not claimed for now.
        var full: [UUID] = []
        /// Workspaces this node claimed for lately, the least recent first: a workspace it has not claimed for
        /// goes before them all, then these in this order.
        var recent: [UUID] = []
    }

    /// Claims one due delivery: the head of the due subscription (neither paused nor disabled) of the workspace
    /// this node served least recently (`fairness`), and within it of the subscription claimed least recently.
    /// The subscription's row is taken with `FOR NO KEY UPDATE SKIP LOCKED` and the head leased before COMMIT
    /// (its next attempt and the subscription's due time move `lease` ahead), so two nodes never take the same
    /// event and a node that dies while sending leaves it due again then (at least once). Runs in the caller's
    /// transaction. Nil when nothing is due.
    static func claim(lease: Duration, fairness: Fairness, on connection: Connection) throws -> ClaimedDelivery? {
        // A subscription marked due may turn out not to be (its head retries later, or it has none): its due
        // time is corrected, and the next one is asked, a few times at most per claim.
        for _ in 0..<8 {
            let picked = try connection.query(
                """
                SELECT id FROM webhooks
                WHERE due_at <= now() AND NOT paused AND disabled_at IS NULL
                  AND workspace_id <> ALL(\(fairness.full.map(\.canonicalText))::uuid[])
                ORDER BY coalesce(array_position(\(fairness.recent.map(\.canonicalText))::uuid[], workspace_id), 0),
                         claimed_at NULLS FIRST, id
                LIMIT 1 FOR NO KEY UPDATE SKIP LOCKED
                """
            ).first
            guard let webhook = try picked?.decode(0, as: UUID.self) else { return nil }
            let head = try connection.query(
                """
                SELECT id, next_attempt_at <= now() FROM webhook_outbox
                WHERE webhook_id = \(webhook) AND delivered_at IS NULL ORDER BY id LIMIT 1 FOR UPDATE
                """
            ).first
            guard let head, try head.decode(1, as: Bool.self) else {
                try refreshDue(webhook, on: connection)
                continue
            }
            return try connection.query(
                """
                WITH subscription AS (
                    UPDATE webhooks SET due_at = now() + \(lease.milliseconds)::int8 * interval '1 millisecond',
                        claimed_at = clock_timestamp()
                    WHERE id = \(webhook) RETURNING id, workspace_id, url, secret_sealed, secret_key_id)
                UPDATE webhook_outbox o SET next_attempt_at = now() + \(lease.milliseconds)::int8 * interval '1 millisecond'
                FROM subscription w WHERE o.id = \(try head.decode(0, as: Int64.self)) AND w.id = o.webhook_id
                RETURNING o.id, o.webhook_id, w.workspace_id, o.event_id, o.event_type, o.payload::text, o.attempts, w.url,
                          w.secret_sealed, w.secret_key_id, \(unescaped: leaseMicros)
                """
            ).first.map(ClaimedDelivery.init(row:))
        }
        return nil
    }

    /// A claimed row's lease end (`next_attempt_at`) in microseconds since 1970, exact (`extract` is numeric).
    private static let leaseMicros = "(extract(epoch FROM o.next_attempt_at) * 1000000)::int8"

    /// Sets the due time of `webhook` (whose row the caller holds locked) to its head's next attempt, or NULL.
    static func refreshDue(_ webhook: UUID, on connection: Connection) throws {
        try connection.execute("UPDATE webhooks SET due_at = \(unescaped: headDue) WHERE id = \(webhook)")
    }

    /// The next attempt of the head of the subscription `webhooks.id` (NULL: nothing queued), for `SET due_at =`.
    private static let headDue = """
        (SELECT o.next_attempt_at FROM webhook_outbox o
         WHERE o.webhook_id = webhooks.id AND o.delivered_at IS NULL ORDER BY o.id LIMIT 1)
        """

    /// Locks the row of `webhook` (gone: nothing to lock, its rows are being cleaned up), first of the rows an
    /// attempt's result changes, in the order the claim takes them.
    private static func lock(_ webhook: UUID, on connection: Connection) throws {
        _ = try connection.query("SELECT 1 FROM webhooks WHERE id = \(webhook) FOR NO KEY UPDATE")
    }

    /// The claimed `delivery` was taken with `status`: the subscription's failure run ends and its next event is
    /// due. Nothing is recorded when the row no longer holds the claim's lease (retried by hand meanwhile: that
    /// attempt's result counts).
    static func delivered(_ delivery: ClaimedDelivery, status: Int, on connection: Connection) throws {
        try lock(delivery.webhookID, on: connection)
        let recorded = try connection.execute(
            """
            UPDATE webhook_outbox o SET delivered_at = now(), attempts = attempts + 1, last_status = \(status), last_error = NULL
            WHERE id = \(delivery.id) AND delivered_at IS NULL AND \(unescaped: leaseMicros) = \(delivery.lease)
            """)
        try connection.execute(
            """
            UPDATE webhooks SET failure_run = CASE WHEN \(recorded > 0) THEN 0 ELSE failure_run END, due_at = \(unescaped: headDue)
            WHERE id = \(delivery.webhookID)
            """)
    }

    /// The claimed `delivery` failed (`status`: the receiver's answer, if any; `error`: why): tried again after
    /// `retry` (and the subscription with it: its events go in order); the subscription's failure run grows, and
    /// reaching `failureLimit` disables it. Returns the subscription when this failure disabled it. Nothing is
    /// recorded when the row no longer holds the claim's lease.
    static func failed(
        _ delivery: ClaimedDelivery, status: Int?, error: String, retry: Duration, failureLimit: Int,
        on connection: Connection
    ) throws -> Webhook? {
        try lock(delivery.webhookID, on: connection)
        let recorded = try connection.execute(
            """
            UPDATE webhook_outbox o SET attempts = attempts + 1, last_status = \(status), last_error = left(\(error), 500),
                   next_attempt_at = now() + \(retry.milliseconds)::int8 * interval '1 millisecond'
            WHERE id = \(delivery.id) AND delivered_at IS NULL AND \(unescaped: leaseMicros) = \(delivery.lease)
            """)
        try refreshDue(delivery.webhookID, on: connection)
        guard recorded > 0 else { return nil }
        let row = try connection.query(
            """
            UPDATE webhooks SET failure_run = failure_run + 1,
                   disabled_at = CASE WHEN failure_run + 1 >= \(failureLimit) THEN coalesce(disabled_at, now()) ELSE disabled_at END
            WHERE id = \(delivery.webhookID) RETURNING \(unescaped: columns), failure_run = \(failureLimit)
            """
        ).first
        guard let row, try row.decode(14, as: Bool.self) else { return nil }
        return try Webhook(row: row)
    }
}

private extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
