import Foundation
import LinkKit
import Postgres

/// The SQL of `webhooks` and `webhook_outbox` (docs/WEBHOOKS.md): subscriptions, the events queued for them in
/// the transaction of the change that caused them, and their delivery.
enum WebhookStore: ResourceStore {
    typealias Resource = Webhook
    static let table = "webhooks"
    static let columns = """
        id, url, events, description, paused, disabled_at, failure_run, version, created_at, updated_at, \
        (extract(epoch FROM created_at) * 1000000)::int8, secret_sealed, secret_key_id
        """
    static let address = (key: "id", owner: "workspace_id")

    // MARK: Queueing

    /// The event types some enabled subscription of `workspace` receives.
    static func wanted(workspace: UUID, on connection: Connection) throws -> Set<String> {
        Set(try connection.query("""
            SELECT DISTINCT unnest(events) FROM webhooks WHERE workspace_id = \(workspace) AND disabled_at IS NULL
            """).map { try $0.decode(0, as: String.self) })
    }

    /// The workspaces with an enabled subscription to `link.clicked`.
    static func clickSubscribers(on connection: Connection) throws -> Set<UUID> {
        Set(try connection.query("""
            SELECT DISTINCT workspace_id FROM webhooks WHERE 'link.clicked' = ANY(events) AND disabled_at IS NULL
            """).map { try $0.decode(0, as: UUID.self) })
    }

    /// Queues each of `events` for every enabled subscription of its workspace that lists its type (`only`: for
    /// that subscription alone, whatever it lists), in the order given. Returns the rows queued.
    @discardableResult
    static func enqueue(_ events: [WebhookEvent], only: UUID? = nil, on connection: Connection) throws -> Int {
        guard !events.isEmpty else { return 0 }
        return try connection.execute(Query(unsafeSQL: """
            INSERT INTO webhook_outbox (webhook_id, event_id, event_type, payload, created_at)
            SELECT w.id, e.id, e.type, e.payload::json, timestamptz 'epoch' + e.micros * interval '1 microsecond'
            FROM unnest($1::text[], $2::text[], $3::text[], $4::uuid[], $5::int8[]) WITH ORDINALITY
                 AS e (id, type, payload, workspace, micros, n)
            JOIN webhooks w ON w.workspace_id = e.workspace AND w.disabled_at IS NULL
                 AND ($6::uuid IS NULL AND e.type = ANY(w.events) OR w.id = $6::uuid)
            ORDER BY e.n, w.id
            """, binds: [events.map(\.id), events.map(\.type.rawValue), events.map(\.payload), events.map(\.workspace.canonicalText),
                         events.map { Int64(($0.time.timeIntervalSince1970 * 1_000_000).rounded()) }, only]))
    }

    // MARK: Delivery

    /// Claims up to `limit` due deliveries, each its subscription's oldest undelivered event (so a subscription's
    /// events go out in order), of subscriptions neither paused nor disabled. Rows are picked with
    /// `FOR UPDATE SKIP LOCKED`, so two nodes never take the same one, and leased: their next attempt moves
    /// `lease` ahead, so a node that dies while sending leaves them due again then (at least once).
    static func claim(limit: Int, lease: Duration, on connection: Connection) throws -> [ClaimedDelivery] {
        try connection.query(Query(unsafeSQL: """
            WITH due AS (
                SELECT o.id FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
                WHERE o.delivered_at IS NULL AND o.next_attempt_at <= now() AND NOT w.paused AND w.disabled_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM webhook_outbox p
                                  WHERE p.webhook_id = o.webhook_id AND p.delivered_at IS NULL AND p.id < o.id)
                ORDER BY o.next_attempt_at, o.id LIMIT $1
                FOR UPDATE OF o SKIP LOCKED)
            UPDATE webhook_outbox o SET next_attempt_at = now() + $2::int8 * interval '1 millisecond'
            FROM due, webhooks w WHERE o.id = due.id AND w.id = o.webhook_id
            RETURNING o.id, o.webhook_id, w.workspace_id, o.event_id, o.event_type, o.payload::text, o.attempts, w.url,
                      w.secret_sealed, w.secret_key_id, \(Self.leaseMicros)
            """, binds: [limit, lease.milliseconds])).map(ClaimedDelivery.init(row:))
    }

    /// A claimed row's lease end (`next_attempt_at`) in microseconds since 1970, exact (`extract` is numeric).
    private static let leaseMicros = "(extract(epoch FROM o.next_attempt_at) * 1000000)::int8"

    /// The claimed `delivery` was taken with `status`: the subscription's failure run ends. Nothing changes when
    /// the row no longer holds the claim's lease (retried by hand meanwhile: that attempt's result counts).
    static func delivered(_ delivery: ClaimedDelivery, status: Int, on connection: Connection) throws {
        let recorded = try connection.execute(Query(unsafeSQL: """
            UPDATE webhook_outbox o SET delivered_at = now(), attempts = attempts + 1, last_status = $2, last_error = NULL
            WHERE id = $1 AND delivered_at IS NULL AND \(leaseMicros) = $3
            """, binds: [delivery.id, status, delivery.lease]))
        guard recorded > 0 else { return }
        try connection.execute("UPDATE webhooks SET failure_run = 0 WHERE id = \(delivery.webhookID) AND failure_run <> 0")
    }

    /// The claimed `delivery` failed (`status`: the receiver's answer, if any; `error`: why): tried again after
    /// `retry`; the subscription's failure run grows, and reaching `failureLimit` disables it. Returns the
    /// subscription when this failure disabled it. Nothing changes when the row no longer holds the claim's lease.
    static func failed(_ delivery: ClaimedDelivery, status: Int?, error: String, retry: Duration, failureLimit: Int,
                       on connection: Connection) throws -> Webhook? {
        let recorded = try connection.execute(Query(unsafeSQL: """
            UPDATE webhook_outbox o SET attempts = attempts + 1, last_status = $2, last_error = left($3, 500),
                   next_attempt_at = now() + $4::int8 * interval '1 millisecond'
            WHERE id = $1 AND delivered_at IS NULL AND \(leaseMicros) = $5
            """, binds: [delivery.id, status, error, retry.milliseconds, delivery.lease]))
        guard recorded > 0 else { return nil }
        let webhook = delivery.webhookID
        let row = try connection.query(Query(unsafeSQL: """
            UPDATE webhooks SET failure_run = failure_run + 1,
                   disabled_at = CASE WHEN failure_run + 1 >= $2 THEN coalesce(disabled_at, now()) ELSE disabled_at END
            WHERE id = $1 RETURNING \(columns), failure_run = $2
            """, binds: [webhook, failureLimit])).first
        guard let row, try row.decode(13, as: Bool.self) else { return nil }
        return try Webhook(row: row)
    }

    // MARK: The delivery log

    /// The deliveries of `webhook`, newest first, those before the delivery `before` (a cursor), up to `limit`
    /// (one more when another page exists); `status` narrows to `delivered`, `pending` or `retrying`.
    static func deliveries(webhook: UUID, before: Int64?, status: String?, limit: Int, on connection: Connection) throws -> [WebhookDelivery] {
        try connection.query(Query(unsafeSQL: """
            SELECT \(WebhookDelivery.columns) FROM webhook_outbox
            WHERE webhook_id = $1 AND ($2::int8 IS NULL OR (created_at, id) < (SELECT created_at, id FROM webhook_outbox WHERE id = $2))
              AND ($3::text IS NULL
                   OR $3 = 'delivered' AND delivered_at IS NOT NULL
                   OR $3 = 'pending' AND delivered_at IS NULL AND attempts = 0
                   OR $3 = 'retrying' AND delivered_at IS NULL AND attempts > 0)
            ORDER BY created_at DESC, id DESC LIMIT $4
            """, binds: [webhook, before, status, limit + 1])).map(WebhookDelivery.init(row:))
    }

    /// Makes the delivery `id` of `webhook` due now (a delivered one is sent again, with its event id, so a
    /// receiver that keeps ids sees a repeat). Nil when the subscription has no such delivery.
    static func retry(_ id: Int64, webhook: UUID, on connection: Connection) throws -> WebhookDelivery? {
        try connection.query(Query(unsafeSQL: """
            UPDATE webhook_outbox SET delivered_at = NULL, next_attempt_at = now()
            WHERE id = $1 AND webhook_id = $2 RETURNING \(WebhookDelivery.columns)
            """, binds: [id, webhook])).first.map(WebhookDelivery.init(row:))
    }

    /// Enables `webhook` again (paused or disabled): its failure run starts over and its undelivered events are
    /// due now.
    static func resume(_ webhook: UUID, on connection: Connection) throws -> Webhook {
        try connection.execute("""
            UPDATE webhook_outbox SET next_attempt_at = now()
            WHERE webhook_id = \(webhook) AND delivered_at IS NULL AND next_attempt_at > now()
            """)
        return try update(webhook, set: "paused = false, disabled_at = NULL, failure_run = 0", on: connection)
    }

    /// Deletes delivered events created before `cutoff`; undelivered ones are kept whatever their age. Returns
    /// how many were deleted.
    static func prune(before cutoff: Date, limit: Int, on connection: Connection) throws -> Int {
        try connection.execute(Query(unsafeSQL: """
            DELETE FROM webhook_outbox WHERE id IN (
                SELECT id FROM webhook_outbox WHERE created_at < $1 AND delivered_at IS NOT NULL LIMIT $2)
            """, binds: [cutoff, limit]))
    }
}

private extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
