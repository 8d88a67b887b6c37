import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Dispatch
import Synchronization
import Testing
import TestSupport

/// Deleting a subscription answers at once, whatever it holds queued; its rows go in bounded batches in the
/// background, and no request of another workspace is refused meanwhile (docs/WEBHOOKS.md, "Deleting a
/// subscription").
@Suite("Webhook cleanup", .serialized)
struct WebhookCleanupTests {
    /// The outbox rows of `webhook`.
    private static func rows(_ service: TestService, _ webhook: String) throws -> Int64 {
        try service.application.pool.withConnection { connection in
            try connection.query("SELECT count(*)::int8 FROM webhook_outbox WHERE webhook_id = \(UUID(uuidString: webhook)!)")
                .first!.decode(0, as: Int64.self)
        }
    }

    @Test func deletingASubscriptionWithABacklogAnswersAtOnceAndRefusesNoBystander() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try Fixture(service)
            let bystander = try Fixture(service, workspace: "other", host: "other.example.com")
            let receiver = try WebhookReceiver()
            let webhook = try WebhookTesting.subscribe(service, key: fixture.key, receiver, events: ["link.created"])
            try Fixture.expect(200, service.request("POST", "/v1/webhooks/\(webhook)/pause", key: fixture.key))
            try service.application.pool.withConnection { connection in
                try connection.execute(
                    """
                    INSERT INTO webhook_outbox (webhook_id, event_id, event_type, payload)
                    SELECT \(UUID(uuidString: webhook)!), 'evt_' || i, 'link.created', json_build_object('n', i)
                    FROM generate_series(1, 300000) i
                    """)
            }
            // Another workspace reads its links all along.
            let stop = Atomic<Bool>(false)
            let statuses = Mutex<[Int]>([])
            let reader = DispatchGroup()
            let (other, otherKey) = (bystander.service, bystander.key)
            DispatchQueue.global().async(group: reader) {
                while !stop.load(ordering: .relaxed) {
                    let status = (try? other.request("GET", "/v1/links", key: otherKey).status) ?? 0
                    statuses.withLock { $0.append(status) }
                }
            }
            defer {
                stop.store(true, ordering: .relaxed)
                reader.wait()
            }
            try WebhookTesting.wait("the bystander reading") { statuses.withLock { $0.count } >= 3 }

            let started = Date()
            let deleted = try service.request("DELETE", "/v1/webhooks/\(webhook)", key: fixture.key)
            let took = Date().timeIntervalSince(started)
            #expect(deleted.status == 204, "\(deleted.text)")
            #expect(took < 1.5, "the delete waited \(took) s")
            #expect(try service.request("GET", "/v1/webhooks/\(webhook)", key: fixture.key).status == 404)
            try WebhookTesting.wait(seconds: 180, "the backlog deleted and the cleanup done") {
                try Self.rows(service, webhook) == 0
                    && service.application.pool.withConnection { connection in
                        try connection.query("SELECT count(*)::int8 FROM webhook_cleanups").first!.decode(0, as: Int64.self)
                    } == 0
            }
            stop.store(true, ordering: .relaxed)
            let seen = statuses.withLock { $0 }
            #expect(
                seen.count >= 3 && seen.allSatisfy { $0 == 200 },
                "the other workspace's reads: \(Dictionary(grouping: seen, by: { $0 }).mapValues(\.count))")
            #expect(receiver.deliveries.isEmpty, "nothing of a deleted subscription is sent")
        }
    }
}
