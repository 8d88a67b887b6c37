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
        (extract(epoch FROM created_at) * 1000000)::int8, secret_sealed, secret_key_id, bulk_events
        """
    static let address = (key: "id", owner: "workspace_id")

    // MARK: Subscriptions

    /// Subscribes `url` of `workspace` to `events`, with its signing secret sealed (`secret`) under the key `keyID`;
    /// `bulkEvents` nil: the table's default.
    static func insert(
        _ id: UUID, workspace: UUID, url: String, events: [String], description: String?, secret: [UInt8], keyID: String,
        bulkEvents: String?, on connection: Connection
    ) throws -> Webhook {
        try insert(
            "id, workspace_id, url, events, description, secret_sealed, secret_key_id, bulk_events",
            [id, workspace, url, events, description, secret, keyID, bulkEvents], on: connection)
    }

    /// Changes the fields given (nil: kept) of the subscription `id` as a new version.
    static func change(
        _ id: UUID, url: String?, events: [String]?, description: String?, bulkEvents: String?,
        on connection: Connection
    ) throws -> Webhook {
        try update(
            id,
            set: """
                url = coalesce($2, url), events = coalesce($3::text[], events), description = coalesce($4, description),
                bulk_events = coalesce($5, bulk_events)
                """, [url, events, description, bulkEvents], on: connection)
    }

    /// Replaces the sealed signing secret of the subscription `id` (sealed under the key `keyID`) as a new version.
    static func reseal(_ id: UUID, secret: [UInt8], keyID: String, on connection: Connection) throws -> Webhook {
        try update(id, set: "secret_sealed = $2, secret_key_id = $3", [secret, keyID], on: connection)
    }

    /// Pauses the subscription `id` (its events stay queued) as a new version.
    static func pause(_ id: UUID, on connection: Connection) throws -> Webhook {
        try update(id, set: "paused = true", on: connection)
    }

    // MARK: Queueing

    /// The event types some enabled subscription of `workspace` receives.
    static func wanted(workspace: UUID, on connection: Connection) throws -> Set<String> {
        Set(
            try connection.query(
                """
                SELECT DISTINCT unnest(events) FROM webhooks WHERE workspace_id = \(workspace) AND disabled_at IS NULL
                """
            ).map { try $0.decode(0, as: String.self) })
    }

    /// What the enabled `link.created` subscriptions of `workspace` take of a bulk write (`summary`, `each`).
    static func bulkModes(workspace: UUID, on connection: Connection) throws -> Set<String> {
        Set(
            try connection.query(
                """
                SELECT DISTINCT bulk_events FROM webhooks
                WHERE workspace_id = \(workspace) AND disabled_at IS NULL AND 'link.created' = ANY(events)
                """
            ).map { try $0.decode(0, as: String.self) })
    }

    /// The workspaces with an enabled subscription to `link.clicked`.
    static func clickSubscribers(on connection: Connection) throws -> Set<UUID> {
        Set(
            try connection.query(
                """
                SELECT DISTINCT workspace_id FROM webhooks WHERE 'link.clicked' = ANY(events) AND disabled_at IS NULL
                """
            ).map { try $0.decode(0, as: UUID.self) })
    }

    /// Which subscriptions of an event's workspace an event is queued for.
    enum Audience: Sendable {
        /// The enabled subscriptions listing the event's type.
        case subscribers
        /// The enabled subscriptions listing `link.created` whose `bulkEvents` is `mode`: what a bulk request or
        /// import tells (`each`: one `link.created` a link; `summary`: one `links.bulk_created`).
        case bulkSubscribers(mode: String)
        /// That subscription alone, whatever it lists (`webhook.test`).
        case only(UUID)
    }

    /// Queues each of `events` for every subscription of its workspace in `audience`, in the order given, and
    /// marks the subscriptions due now (`markDue`; a write that queues in chunks marks once,
    /// before COMMIT, with `markDue(workspaces:)`, so that its transaction holds the subscriptions' rows only
    /// then). The subscriptions' rows are share-locked by key, as a foreign key would: a subscription deleted
    /// meanwhile waits for this transaction, and its cleanup then finds these rows too. Returns the rows queued.
    @discardableResult
    static func enqueue(
        _ events: [WebhookEvent], to audience: Audience = .subscribers, markDue: Bool = true,
        on connection: Connection
    ) throws -> Int {
        guard !events.isEmpty else { return 0 }
        var only: UUID?
        var listed: String?
        var mode: String?
        switch audience {
        case .subscribers: break
        case .bulkSubscribers(let bulkMode): (listed, mode) = (WebhookEventType.linkCreated.rawValue, bulkMode)
        case .only(let id): only = id
        }
        // Numbered: nine binds, five of them arrays `unnest` reads side by side, read best listed once below.
        let row = try connection.query(
            Query(
                unsafeSQL: """
                    WITH queued AS (
                        INSERT INTO webhook_outbox (webhook_id, event_id, event_type, payload, created_at)
                        SELECT w.id, e.id, e.type, e.payload::json, timestamptz 'epoch' + e.micros * interval '1 microsecond'
                        FROM unnest($1::text[], $2::text[], $3::text[], $4::uuid[], $5::int8[]) WITH ORDINALITY
                             AS e (id, type, payload, workspace, micros, n)
                        JOIN webhooks w ON w.workspace_id = e.workspace AND w.disabled_at IS NULL
                             AND CASE WHEN $6::uuid IS NOT NULL THEN w.id = $6::uuid
                                      ELSE coalesce($7::text, e.type) = ANY(w.events) AND ($8::text IS NULL OR w.bulk_events = $8::text) END
                        ORDER BY e.n, w.id
                        FOR KEY SHARE OF w
                        RETURNING webhook_id),
                    due AS (
                        UPDATE webhooks SET due_at = least(due_at, now())
                        WHERE $9 AND id IN (SELECT webhook_id FROM queued)
                        RETURNING 1)
                    SELECT (SELECT count(*) FROM queued)::int8
                    """,
                binds: [
                    events.map(\.id), events.map(\.type.rawValue), events.map(\.payload), events.map(\.workspace.canonicalText),
                    events.map { Int64(($0.time.timeIntervalSince1970 * 1_000_000).rounded()) }, only, listed, mode, markDue,
                ])
        ).first
        return Int(try row?.decode(0, as: Int64.self) ?? 0)
    }

    /// Marks due now the subscriptions of `workspaces` that have undelivered events (after
    /// `enqueue(markDue: false)`).
    ///
    /// Every such subscription is marked, not only those with no due time: one whose delivery is in flight
    /// records its result by setting its due time to its head's next attempt, read in a snapshot that cannot see
    /// this transaction's rows; without the row lock this update takes (held to COMMIT, so the result waits and
    /// then sees them), a result recorded meanwhile would leave the new events with no due time, never sent. A
    /// subscription marked due whose head is not is corrected by the claim.
    static func markDue(workspaces: [UUID], on connection: Connection) throws {
        guard !workspaces.isEmpty else { return }
        try connection.execute(
            """
            UPDATE webhooks w SET due_at = least(w.due_at, now())
            WHERE w.workspace_id = ANY(\(workspaces.map(\.canonicalText))::uuid[])
              AND EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.webhook_id = w.id AND o.delivered_at IS NULL)
            """)
    }

    /// How many subscriptions `workspace` has, counted under a lock that the creation of another one waits for
    /// (held until the transaction ends), so two creations cannot both pass the limit.
    static func countLocked(workspace: UUID, on connection: Connection) throws -> Int {
        _ = try connection.query("SELECT pg_advisory_xact_lock(hashtextextended('linkd.webhooks:' || \(workspace.canonicalText)::text, 0))")
        let row = try connection.query("SELECT count(*)::int8 FROM webhooks WHERE workspace_id = \(workspace)").first
        return Int(try row?.decode(0, as: Int64.self) ?? 0)
    }

    // MARK: The delivery log

    /// The deliveries of `webhook`, newest first, those before the delivery `before` (a cursor), up to `limit`
    /// (one more when another page exists); `status` narrows to `delivered`, `pending` or `retrying`.
    static func deliveries(
        webhook: UUID, before: Int64?, status: String?, limit: Int, on connection: Connection
    ) throws -> [WebhookDelivery] {
        try connection.query(
            """
            SELECT \(unescaped: WebhookDelivery.columns) FROM webhook_outbox
            WHERE webhook_id = \(webhook) AND (\(before)::int8 IS NULL
                   OR (created_at, id) < (SELECT created_at, id FROM webhook_outbox WHERE id = \(before)))
              AND (\(status)::text IS NULL
                   OR \(status) = 'delivered' AND delivered_at IS NOT NULL
                   OR \(status) = 'pending' AND delivered_at IS NULL AND attempts = 0
                   OR \(status) = 'retrying' AND delivered_at IS NULL AND attempts > 0)
            ORDER BY created_at DESC, id DESC LIMIT \(limit + 1)
            """
        ).map(WebhookDelivery.init(row:))
    }

    /// Makes the delivery `id` of `webhook` due now (a delivered one is sent again, with its event id, so a
    /// receiver that keeps ids sees a repeat). Nil when the subscription has no such delivery.
    /// The subscription's row must be locked (`find(forUpdate:)`): its due time is set from its head again.
    static func retry(_ id: Int64, webhook: UUID, on connection: Connection) throws -> WebhookDelivery? {
        let delivery = try connection.query(
            """
            UPDATE webhook_outbox SET delivered_at = NULL, next_attempt_at = now()
            WHERE id = \(id) AND webhook_id = \(webhook) RETURNING \(unescaped: WebhookDelivery.columns)
            """
        ).first.map(WebhookDelivery.init(row:))
        if delivery != nil { try refreshDue(webhook, on: connection) }
        return delivery
    }

    /// Enables `webhook` again (paused or disabled): its failure run starts over and its undelivered events are
    /// due now.
    static func resume(_ webhook: UUID, on connection: Connection) throws -> Webhook {
        try connection.execute(
            """
            UPDATE webhook_outbox SET next_attempt_at = now()
            WHERE webhook_id = \(webhook) AND delivered_at IS NULL AND next_attempt_at > now()
            """)
        try refreshDue(webhook, on: connection)
        return try update(webhook, set: "paused = false, disabled_at = NULL, failure_run = 0", on: connection)
    }
}
