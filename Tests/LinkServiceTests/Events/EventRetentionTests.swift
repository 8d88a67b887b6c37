import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// The retention of raw events (`--events-retention-days`, docs/EVENTS.md "Retention"): `EventRetention`.
@Suite("Event retention")
struct EventRetentionTests {
    static func send(_ fixture: Fixture, _ json: String) throws -> JSONValue {
        try Fixture.expect(202, EventsAPITests.send(fixture, json)).json
    }

    /// Events that happened before the retention go; newer ones stay, and so does an old one the conversion feed has
    /// not passed yet.
    @Test func theRetentionDeletesOldEventsOnly() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let now = Date()
            _ = try Self.send(
                fixture,
                """
                {"events":[
                  {"name":"signup","idempotencyKey":"old","time":"\(RFC3339.string(now.addingTimeInterval(-10 * 86_400)))"},
                  {"name":"signup","idempotencyKey":"new","time":"\(RFC3339.string(now.addingTimeInterval(-86_400)))"}
                ]}
                """)
            let pool = service.application.pool
            func keys() throws -> [String] {
                try pool.withConnection {
                    try $0.query("SELECT idempotency_key FROM events ORDER BY idempotency_key").map { try $0.decode(0, as: String.self) }
                }
            }
            try WebhookTesting.wait("the feed to pass the events") {
                try pool.withConnection {
                    try $0.query("SELECT (SELECT max(seq) FROM events) <= seq FROM event_feed_cursors").first!.decode(0, as: Bool.self)
                }
            }
            // The feed held (its cursor's row locked, as a pass of another node would): an old event stored now is not read.
            let retention = EventRetention(pool: pool, retentionDays: 5, batch: 1, logger: .quiet)
            let deleted = try pool.withConnection { holder in
                try holder.executeScript("BEGIN")
                _ = try holder.query("SELECT 1 FROM event_feed_cursors FOR UPDATE")
                defer { try? holder.executeScript("COMMIT") }
                try pool.withConnection { connection in
                    try connection.execute(
                        """
                        INSERT INTO events (workspace_id, kind, name, occurred_at, idempotency_key, attribution, unattributed_reason)
                        SELECT id, 'named', 'signup', now() - interval '20 days', 'unread', 'none', 'no_visitor' FROM workspaces
                        """)
                }
                return try retention.prune(now: now)
            }
            #expect(deleted == 1)
            #expect(try keys() == ["new", "unread"], "the old event went; the new one and the one not yet told stay")
        }
    }
}
