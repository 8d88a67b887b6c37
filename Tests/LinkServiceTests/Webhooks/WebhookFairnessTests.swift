import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// One workspace's webhooks do not hold back another's (docs/WEBHOOKS.md, "Fairness"): a backlog, receivers that
/// never answer, the number of subscriptions.
@Suite("Webhook fairness", .serialized)
struct WebhookFairnessTests {
    /// How long another workspace's next event may wait, on a busy machine: "a few seconds".
    static let bound: TimeInterval = 5

    /// Creates a link of `fixture` and answers how long its `link.created` took to reach `receiver`.
    private static func latency(_ fixture: Fixture, slug: String, _ receiver: WebhookReceiver) throws -> TimeInterval {
        let started = Date()
        try fixture.createLink(#"{"domain":"\#(fixture.host)","slug":"\#(slug)","url":"https://www.example.com/\#(slug)"}"#)
        let seen = receiver.deliveries(count: 1, seconds: 120)
        #expect(seen.first?.data?["slug"]?.stringValue == slug)
        return Date().timeIntervalSince(started)
    }

    /// A workspace with 60,000 deliveries queued for 12 subscriptions (more than the workers), its receiver taking
    /// them as fast as it can: another workspace's next event goes out within seconds, not after the backlog.
    @Test func anotherWorkspacesBacklogDoesNotHoldBackTheNextEvent() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let noisy = try Fixture(service)
            let quiet = try Fixture(service, workspace: "quiet", host: "quiet.example.com")
            let flood = try WebhookReceiver()
            for _ in 0..<12 { try WebhookTesting.subscribe(service, key: noisy.key, flood, events: ["link.created"]) }
            let quietReceiver = try WebhookReceiver()
            try WebhookTesting.subscribe(service, key: quiet.key, quietReceiver, events: ["link.created"])
            let workspace = try service.application.pool.withConnection { connection in
                try connection.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
            }
            try service.application.pool.withConnection { connection in
                let events = (0..<5_000).map { WebhookEvent(.linkCreated, workspace: workspace, data: .object(["n": .integer($0)])) }
                try WebhookStore.enqueue(events, on: connection)
            }
            _ = flood.deliveries(count: 20) // the backlog is being sent
            let waited = try Self.latency(quiet, slug: "next", quietReceiver)
            #expect(waited < Self.bound, "the quiet workspace's event waited \(waited) s behind the backlog")
            let left = try service.application.pool.withConnection { connection in
                try connection.query("SELECT count(*)::int8 FROM webhook_outbox WHERE delivered_at IS NULL").first!.decode(
                    0, as: Int64.self)
            }
            #expect(left > 1_000, "the backlog was still there: \(left)")
        }
    }

    /// A workspace whose 12 receivers never answer (each attempt runs into the timeout) holds at most all workers
    /// but one: another workspace's next event goes out within seconds.
    @Test func slowReceiversDoNotHoldBackAnotherWorkspace() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let noisy = try Fixture(service)
            let quiet = try Fixture(service, workspace: "quiet", host: "quiet.example.com")
            let hanging = try WebhookReceiver()
            for _ in 0..<12 {
                try WebhookTesting.subscribe(
                    service, key: noisy.key, hanging, events: ["link.created"], delays: Array(repeating: 30, count: 200))
            }
            let quietReceiver = try WebhookReceiver()
            try WebhookTesting.subscribe(service, key: quiet.key, quietReceiver, events: ["link.created"])
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/links?acknowledgeMoves=true", key: noisy.key,
                    json: #"{"domain":"\#(noisy.host)","slug":"slow","url":"https://www.example.com/slow"}"#))
            _ = hanging.arrivals(count: WebhookDeliveries.threads - 1) // the workers it may have are waiting on it
            let waited = try Self.latency(quiet, slug: "next", quietReceiver)
            #expect(waited < Self.bound, "the quiet workspace's event waited \(waited) s behind slow receivers")
        }
    }

    /// A workspace has at most `--webhook-subscription-limit` subscriptions: one more is a 409 problem and
    /// changes nothing; other workspaces are not counted; deleting one makes room.
    @Test func subscriptionsPerWorkspaceAreLimited() throws {
        try TestService.with(configure: { configuration in
            WebhookTesting.configure(&configuration)
            configuration.webhooks.subscriptionLimit = 2
        }) { service in
            let key = try service.key()
            let body = #"{"url":"http://127.0.0.1:9/hooks","events":["link.created"]}"#
            let first = try Fixture.expect(201, service.request("POST", "/v1/webhooks", key: key, json: body))
            try Fixture.expect(201, service.request("POST", "/v1/webhooks", key: key, json: body))
            let refused = try service.request("POST", "/v1/webhooks", key: key, json: body)
            #expect(refused.status == 409, "\(refused.text)")
            #expect(refused.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
            #expect(refused.text.contains("2 webhook subscriptions"), "\(refused.text)")
            #expect(try Fixture.expect(200, service.request("GET", "/v1/webhooks", key: key)).json["items"]?.arrayValue?.count == 2)
            try Fixture.expect(201, service.request("POST", "/v1/webhooks", key: service.key(workspace: "other"), json: body))
            let id = try #require(try first.json["id"]?.stringValue)
            try Fixture.expect(204, service.request("DELETE", "/v1/webhooks/\(id)", key: key))
            try Fixture.expect(201, service.request("POST", "/v1/webhooks", key: key, json: body))
        }
    }
}
