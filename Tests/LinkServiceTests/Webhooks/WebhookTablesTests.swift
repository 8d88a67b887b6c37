import Foundation
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// The webhook tables (migrations/0020, 0027): their constraints, and the indexes the delivery's queries use
/// (docs/WEBHOOKS.md, `WebhookStore+Delivery`).
@Suite("Webhook tables")
struct WebhookTablesTests {
    /// A service whose workspace `acme` has one subscription with `events` outbox rows; its id.
    static func withOutbox(events: Int, _ body: (Connection, UUID) throws -> Void) throws {
        try TestService.with { service in
            _ = try service.key()
            try service.application.pool.withConnection { connection in
                let webhook = try connection.query(
                    """
                    INSERT INTO webhooks (workspace_id, url, events, secret_sealed, secret_key_id)
                    VALUES ((SELECT id FROM workspaces WHERE name = 'acme'), 'https://hooks.example.com/in',
                            '{link.created,link.deleted}', '\\x00'::bytea, 'k1')
                    RETURNING id
                    """
                ).first!.decode(0, as: UUID.self)
                try connection.execute(
                    """
                    INSERT INTO webhook_outbox (webhook_id, event_id, event_type, payload)
                    SELECT \(webhook), 'msg_' || i, 'link.created', json_build_object('i', i)
                    FROM generate_series(1, \(events)) i
                    """)
                try body(connection, webhook)
            }
        }
    }

    /// The plan of `sql` with sequential scans discouraged (the tables are small: only whether an index serves
    /// the query's shape is asked).
    static func plan(_ sql: String, on connection: Connection) throws -> String {
        try connection.execute("SET enable_seqscan = off")
        defer { _ = try? connection.execute("RESET enable_seqscan") }
        return try connection.query(Query(unsafeSQL: "EXPLAIN " + sql, binds: [])).map { try $0.decode(0, as: String.self) }.joined(
            separator: "\n")
    }

    @Test("the delivery query, the order per subscription and the delivery log each have their index")
    func queriesHaveTheirIndexes() throws {
        try Self.withOutbox(events: 50) { connection, webhook in
            let due = try Self.plan(
                """
                SELECT id FROM webhooks WHERE due_at <= now() AND NOT paused AND disabled_at IS NULL AND workspace_id <> ALL('{}'::uuid[])
                ORDER BY claimed_at NULLS FIRST, id LIMIT 1 FOR NO KEY UPDATE SKIP LOCKED
                """, on: connection)
            #expect(due.contains("webhooks_due"), "\(due)")
            let head = try Self.plan(
                """
                SELECT id FROM webhook_outbox WHERE webhook_id = '\(webhook.canonicalText)' AND delivered_at IS NULL ORDER BY id LIMIT 1
                """, on: connection)
            #expect(head.contains("webhook_outbox_pending"), "\(head)")
            let oldest = try Self.plan(
                """
                SELECT min(id) FROM webhook_outbox WHERE webhook_id = '\(webhook.canonicalText)' AND delivered_at IS NULL
                """, on: connection)
            #expect(oldest.contains("webhook_outbox_pending"), "\(oldest)")
            let log = try Self.plan(
                """
                SELECT id FROM webhook_outbox WHERE webhook_id = '\(webhook.canonicalText)' ORDER BY created_at DESC, id DESC LIMIT 20
                """, on: connection)
            #expect(log.contains("webhook_outbox_log"), "\(log)")
        }
    }

    @Test("an event goes once to a subscription; bad rows are refused; deleting the workspace leaves its outbox rows to the cleanup")
    func constraintsHold() throws {
        try Self.withOutbox(events: 3) { connection, webhook in
            func sqlState(_ sql: String) -> SQLState? {
                do { try connection.execute(Query(unsafeSQL: sql, binds: [])); return nil } catch { return error.sqlState }
            }
            #expect(
                sqlState(
                    """
                    INSERT INTO webhook_outbox (webhook_id, event_id, event_type, payload)
                    VALUES ('\(webhook.canonicalText)', 'msg_1', 'link.created', '{}')
                    """) == .uniqueViolation)
            #expect(sqlState("UPDATE webhooks SET events = '{}'") == .checkViolation)
            #expect(sqlState("UPDATE webhooks SET failure_run = -1") == .checkViolation)
            #expect(sqlState("UPDATE webhook_outbox SET attempts = -1") == .checkViolation)
            try connection.execute("DELETE FROM workspaces WHERE name = 'acme'")
            let left = try connection.query(
                """
                SELECT (SELECT count(*) FROM webhooks)::int8, (SELECT count(*) FROM webhook_cleanups WHERE webhook_id = \(webhook))::int8
                """
            ).first!.decode((Int64, Int64).self)
            #expect(left == (0, 1), "the subscription is gone and named for the cleanup")
            #expect(try WebhookStore.cleanUp(webhook, limit: 2, on: connection) == 2)
            #expect(try WebhookStore.cleanUp(webhook, limit: 2, on: connection) == 1)
            let after = try connection.query(
                """
                SELECT (SELECT count(*) FROM webhook_outbox)::int8, (SELECT count(*) FROM webhook_cleanups)::int8
                """
            ).first!.decode((Int64, Int64).self)
            #expect(after == (0, 0))
        }
    }
}
