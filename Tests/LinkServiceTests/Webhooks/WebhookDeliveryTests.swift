import Foundation
import LinkKit
@testable import LinkService
import Outbound
import Postgres
import Testing
import TestSupport

/// Deliveries reach a receiver that verifies them with the Standard Webhooks reference library, through failures,
/// restarts and two nodes: at least once, in order per subscription, nothing lost (docs/WEBHOOKS.md, "Delivery").
@Suite("Webhook delivery", .serialized)
struct WebhookDeliveryTests {
    private static func createLink(_ fixture: Fixture, slug: String, on service: TestService? = nil) throws -> String {
        let response = try Fixture.expect(
            201,
            (service ?? fixture.service).request(
                "POST", "/v1/links?acknowledgeMoves=true", key: fixture.key,
                json: #"{"domain":"\#(fixture.host)","slug":"\#(slug)","url":"https://www.example.com/\#(slug)"}"#))
        return try #require(try response.json["id"]?.stringValue)
    }

    /// 500, 500, then 200: one delivery, three attempts with the same event id and valid signatures, in the log.
    @Test func aReceiverFailingTwiceGetsTheEventOnTheThirdAttempt() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try Fixture(service)
            let receiver = try WebhookReceiver()
            let webhook = try WebhookTesting.subscribe(service, key: fixture.key, receiver, events: ["link.created"], statuses: [500, 500])
            let link = try Self.createLink(fixture, slug: "spring")
            let seen = receiver.deliveries(count: 3, seconds: 120)
            #expect(seen.map(\.status) == [500, 500, 200])
            #expect(seen.allSatisfy { $0.verified }, "every attempt is signed with the subscription's secret")
            #expect(Set(seen.map(\.id)).count == 1, "one event id across the attempts")
            #expect(
                seen.allSatisfy { $0.type == "link.created" && $0.data?["id"]?.stringValue == link && $0.contentType == "application/json" }
            )
            #expect(seen[0].body["timestamp"]?.stringValue != nil)
            try WebhookTesting.wait("the delivery log to say delivered") {
                try WebhookTesting.log(service, key: fixture.key, webhook).first?["status"]?.stringValue == "delivered"
            }
            let entry = try #require(try WebhookTesting.log(service, key: fixture.key, webhook).first)
            #expect(entry["attempts"]?.integer == 3)
            #expect(entry["responseStatus"]?.integer == 200)
            #expect(entry["eventId"]?.stringValue == seen[0].id)
            #expect(try WebhookTesting.settle(service.application.pool, [receiver]) == 3)
            #expect(receiver.deliveries.count == 3, "nothing more is sent once taken")

            // Retry sends a delivered event again, with its id.
            let id = try #require(entry["id"]?.stringValue)
            try Fixture.expect(202, service.request("POST", "/v1/webhooks/\(webhook)/deliveries/\(id)/retry", key: fixture.key))
            let again = receiver.deliveries(count: 4)
            #expect(again.count == 4 && again[3].id == seen[0].id && again[3].verified)
            #expect(try service.request("POST", "/v1/webhooks/\(webhook)/deliveries/999999/retry", key: fixture.key).status == 404)
        }
    }

    /// A retry asked for while an attempt is in flight is not undone by that attempt's result: with the
    /// subscription paused meanwhile, the attempt answers 200, yet the delivery stays due and is sent again on resume.
    @Test func aRetryDuringAnAttemptSendsTheEventAgain() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try Fixture(service)
            let receiver = try WebhookReceiver()
            let webhook = try WebhookTesting.subscribe(service, key: fixture.key, receiver, events: ["link.created"], delays: [2])
            _ = try Self.createLink(fixture, slug: "slow")
            let event = try #require(receiver.arrivals(count: 1).first)
            let etag = try #require(try service.request("GET", "/v1/webhooks/\(webhook)", key: fixture.key).headers["ETag"])
            try Fixture.expect(
                200, service.request("POST", "/v1/webhooks/\(webhook)/pause", key: fixture.key, headers: [("If-Match", etag)]))
            let entry = try #require(try WebhookTesting.log(service, key: fixture.key, webhook).first)
            #expect(entry["eventId"]?.stringValue == event)
            let id = try #require(entry["id"]?.stringValue)
            try Fixture.expect(202, service.request("POST", "/v1/webhooks/\(webhook)/deliveries/\(id)/retry", key: fixture.key))

            let answered = receiver.deliveries(count: 1)
            #expect(answered.map(\.status) == [200] && answered.first?.verified == true)
            // The attempt's result is in (and changed nothing) once the node counts it.
            try WebhookTesting.wait("the attempt's result") { try WebhookTesting.attempts(service, outcome: "delivered") == 1 }
            let waiting = try #require(try WebhookTesting.log(service, key: fixture.key, webhook).first)
            #expect(waiting["status"]?.stringValue == "pending", "the retry stands: \(waiting)")
            #expect(waiting["attempts"]?.integer == 0)

            let paused = try #require(try service.request("GET", "/v1/webhooks/\(webhook)", key: fixture.key).headers["ETag"])
            try Fixture.expect(
                200, service.request("POST", "/v1/webhooks/\(webhook)/resume", key: fixture.key, headers: [("If-Match", paused)]))
            let again = receiver.deliveries(count: 2)
            #expect(again.count == 2 && again[1].id == event && again[1].verified)
            try WebhookTesting.wait("the delivery log to say delivered") {
                try WebhookTesting.log(service, key: fixture.key, webhook).first?["status"]?.stringValue == "delivered"
            }
        }
    }

    /// The receiver is down; linkd restarts; the receiver comes back: the event is delivered after.
    @Test func anEventOutlivesARestartWhileTheReceiverIsDown() throws {
        let database = try TestDatabase.create(template: MigratedTemplate.databaseName())
        defer { try? database.drop() }
        var receiver = try WebhookReceiver()
        let port = receiver.port
        let control = receiver.controlFile
        receiver.stop()
        let (key, webhook): (String, String) = try {
            let service = try TestService(parameters: database.parameters, configure: WebhookTesting.configure)
            defer { service.close() }
            let fixture = try Fixture(service)
            let webhook = try WebhookTesting.subscribe(service, key: fixture.key, receiver, events: ["link.created"])
            _ = try Self.createLink(fixture, slug: "outage")
            try WebhookTesting.wait("a failed attempt") {
                try WebhookTesting.log(service, key: fixture.key, webhook).first?["status"]?.stringValue == "retrying"
            }
            let entry = try WebhookTesting.log(service, key: fixture.key, webhook)[0]
            #expect(entry["error"]?.stringValue?.contains("connect") == true, "\(entry)")
            return (fixture.key, webhook)
        }()
        receiver = try WebhookReceiver(port: port, controlFile: control)
        let secret = try String(contentsOf: control, encoding: .utf8)
        #expect(secret.contains("whsec_"))
        let service = try TestService(parameters: database.parameters, configure: WebhookTesting.configure)
        defer { service.close() }
        let seen = receiver.deliveries(count: 1, seconds: 120)
        #expect(seen.count == 1 && seen[0].verified && seen[0].type == "link.created")
        try WebhookTesting.wait("the log to say delivered") {
            try WebhookTesting.log(service, key: key, webhook).first?["status"]?.stringValue == "delivered"
        }
    }

    /// Two nodes over one database each deliver what they claim: every event reaches the receiver exactly once,
    /// in the order the changes were made. Waits on the outbox (everything delivered, every attempt answered), not
    /// on a fixed time, so a busy machine only makes it slower.
    @Test func twoNodesDeliverEachEventOnce() throws {
        let database = try TestDatabase.create(template: MigratedTemplate.databaseName())
        defer { try? database.drop() }
        let first = try TestService(parameters: database.parameters, configure: WebhookTesting.configure)
        defer { first.close() }
        let second = try TestService(parameters: database.parameters, configure: WebhookTesting.configure)
        defer { second.close() }
        let fixture = try Fixture(first)
        let receiver = try WebhookReceiver()
        try WebhookTesting.subscribe(first, key: fixture.key, receiver, events: ["link.created"])
        var ids: [String] = []
        for index in 0..<40 {
            ids.append(try Self.createLink(fixture, slug: "node\(index)", on: index.isMultiple(of: 2) ? first : second))
        }
        let seen = receiver.deliveries(count: 40, seconds: 120)
        #expect(try WebhookTesting.settle(first.application.pool, [receiver]) == 40, "one attempt an event")
        let all = receiver.deliveries
        #expect(all.count == 40, "each event once: \(all.count)")
        #expect(all.map { $0.data?["id"]?.stringValue ?? "" } == ids, "in order")
        #expect(seen.allSatisfy { $0.verified })
    }

    /// A change that rolls back queues nothing; the same change committed queues its event.
    @Test func aRolledBackChangeQueuesNoEvent() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try Fixture(service)
            let receiver = try WebhookReceiver()
            let webhook = try WebhookTesting.subscribe(service, key: fixture.key, receiver, events: ["link.created"])
            let workspace = try service.application.pool.withConnection { connection in
                try connection.query("SELECT workspace_id FROM webhooks").first!.decode(0, as: UUID.self)
            }
            struct Refused: Error {}
            let changes = service.application.catalogChanges
            #expect(throws: Refused.self) {
                try changes.commit { connection, changed in
                    try changed.event(.linkCreated, workspace: workspace, on: connection) { .object(["rolled": .bool(true)]) }
                    throw Refused()
                }
            }
            try changes.commit { connection, changed in
                try changed.event(.linkCreated, workspace: workspace, on: connection) { .object(["committed": .bool(true)]) }
            }
            let seen = receiver.deliveries(count: 1)
            try WebhookTesting.settle(service.application.pool, [receiver])
            #expect(receiver.deliveries.count == 1)
            #expect(seen.first?.data == .object(["committed": .bool(true)]))
            #expect(try WebhookTesting.log(service, key: fixture.key, webhook).count == 1)
        }
    }

    /// A target allowed when it was given is refused at delivery once its addresses are no longer allowed (the
    /// check is made on the address connected to, so DNS changing is caught too): the receiver is not contacted.
    @Test func aTargetRefusedAtDeliveryIsNotContacted() throws {
        let database = try TestDatabase.create(template: MigratedTemplate.databaseName())
        defer { try? database.drop() }
        let receiver = try WebhookReceiver()
        let key: String
        let webhook: String
        do {
            let service = try TestService(parameters: database.parameters, configure: WebhookTesting.configure)
            defer { service.close() }
            key = try service.key()
            webhook = try WebhookTesting.subscribe(service, key: key, receiver, events: ["webhook.disabled"])
        }
        let service = try TestService(parameters: database.parameters) { configuration in
            WebhookTesting.configure(&configuration)
            configuration.webhooks.allowedRanges = []
        }
        defer { service.close() }
        try Fixture.expect(202, service.request("POST", "/v1/webhooks/\(webhook)/test", key: key))
        try WebhookTesting.wait("a refused attempt") {
            try WebhookTesting.log(service, key: key, webhook).first?["status"]?.stringValue == "retrying"
        }
        let entry = try WebhookTesting.log(service, key: key, webhook)[0]
        #expect(entry["error"]?.stringValue?.contains("127.0.0.0/8") == true, "\(entry)")
        #expect(entry["responseStatus"] == .null)
        #expect(receiver.deliveries.isEmpty, "the receiver was never contacted")
    }

    /// A run of failures reaching the limit disables the subscription, and the workspace's other subscribers are
    /// told; resuming delivers what was queued.
    @Test func aRunOfFailuresDisablesTheSubscription() throws {
        try TestService.with(configure: { configuration in
            WebhookTesting.configure(&configuration)
            configuration.webhooks.failureLimit = 2
        }) { service in
            let fixture = try Fixture(service)
            let failing = try WebhookReceiver()
            let watcher = try WebhookReceiver()
            let broken = try WebhookTesting.subscribe(service, key: fixture.key, failing, events: ["link.created"], statuses: [500, 503])
            try WebhookTesting.subscribe(service, key: fixture.key, watcher, events: ["webhook.disabled"])
            _ = try Self.createLink(fixture, slug: "first")
            let told = watcher.deliveries(count: 1, seconds: 120)
            #expect(told.first?.type == "webhook.disabled")
            #expect(told.first?.data?["webhook"]?["id"]?.stringValue == broken)
            #expect(told.first?.data?["webhook"]?["state"]?.stringValue == "disabled")
            let state = try Fixture.expect(200, service.request("GET", "/v1/webhooks/\(broken)", key: fixture.key)).json
            #expect(state["state"]?.stringValue == "disabled" && state["failureRun"]?.integer == 2)
            // Disabled: new events are not queued for it; resuming delivers the one it held.
            _ = try Self.createLink(fixture, slug: "second")
            try Fixture.expect(200, service.request("POST", "/v1/webhooks/\(broken)/resume", key: fixture.key))
            let seen = failing.deliveries(count: 3)
            try WebhookTesting.settle(service.application.pool, [failing, watcher])
            #expect(failing.deliveries.map(\.status) == [500, 503, 200])
            #expect(seen.last?.data?["slug"]?.stringValue == "first")
        }
    }

    /// Every change of the kinds subscribed reaches the receiver, each with its documented payload.
    @Test func changesOfEachKindAreTold() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try Fixture(service)
            let receiver = try WebhookReceiver()
            try WebhookTesting.subscribe(
                service, key: fixture.key, receiver,
                events: ["link.created", "link.updated", "link.deleted", "rules.changed", "domain.association.changed"])
            let link = try Self.createLink(fixture, slug: "kinds")
            try Fixture.expect(200, service.request("PATCH", "/v1/links/\(link)", key: fixture.key, json: #"{"name":"Kinds"}"#))
            try Fixture.expect(204, service.request("DELETE", "/v1/links/\(link)", key: fixture.key))
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                    json: """
                        {"apps":["\(fixture.iosApp)"],"path":"/promo/*","exclude":true,"position":0}
                        """))
            let seen = receiver.deliveries(count: 5)
            let types = seen.compactMap(\.type)
            // A web page link leaves the files as they are (it opens no app): only the rule changes them.
            #expect(types.starts(with: ["link.created", "link.updated", "link.deleted"]), "\(types)")
            #expect(Set(types.dropFirst(3)) == ["rules.changed", "domain.association.changed"], "\(types)")
            #expect(seen[1].data?["name"]?.stringValue == "Kinds")
            let rules = try #require(seen.first { $0.type == "rules.changed" }?.data)
            #expect(rules["domain"]?.stringValue == fixture.host && rules["action"]?.stringValue == "create")
            #expect(rules["rules"]?.arrayValue?.count == 4)
            let association = try #require(seen.last { $0.type == "domain.association.changed" }?.data)
            #expect(association["domain"]?.stringValue == fixture.host)
            #expect(
                (association["version"]?.integer ?? 0) >= 2
                    && association["previousVersion"]?.integer == (association["version"]?.integer ?? 0) - 1)
            #expect((association["moved"]?.integer ?? 0) >= 1, "the new exclusion moves /promo/ URLs: \(association)")
            #expect(seen.allSatisfy { $0.verified })
        }
    }

    /// A bulk request is one `links.bulk_created` event for a subscription that did not ask for more (one outbox
    /// row, whatever the number of links), and one `link.created` a created link (none for a refused item) for a
    /// subscription with `bulkEvents: each`.
    @Test func aBulkRequestIsOneEventUnlessEachLinkIsAskedFor() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try Fixture(service)
            let summaries = try WebhookReceiver()
            let each = try WebhookReceiver()
            let summary = try WebhookTesting.subscribe(service, key: fixture.key, summaries, events: ["link.created"])
            let perLink = try WebhookTesting.subscribe(service, key: fixture.key, each, events: ["link.created"], bulkEvents: "each")
            #expect(
                try Fixture.expect(200, service.request("GET", "/v1/webhooks/\(summary)", key: fixture.key)).json["bulkEvents"]?.stringValue
                    == "summary")
            let items =
                (0..<50).map { #"{"domain":"links.example.com","slug":"b\#($0)","url":"https://www.example.com/\#($0)"}"# }
                + [#"{"domain":"links.example.com","slug":"b1","url":"https://www.example.com/again"}"#]
            try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/links/bulk?acknowledgeMoves=true", key: fixture.key, json: "[" + items.joined(separator: ",") + "]"))
            try WebhookTesting.settle(service.application.pool, [summaries, each])

            let told = summaries.deliveries
            #expect(told.count == 1 && told[0].type == "links.bulk_created" && told[0].verified, "\(told.map(\.type))")
            let data = try #require(told.first?.data)
            #expect(data["source"]?.stringValue == "bulk" && data["created"]?.integer == 50 && data["refused"]?.integer == 1)
            #expect(data["domains"] == .array([.object(["domain": .string("links.example.com"), "created": .integer(50)])]))
            #expect(data["links"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } == (0..<50).map { "b\($0)" })
            #expect(data["truncated"] == .bool(false) && data["createdAt"]?.stringValue != nil)
            #expect(try WebhookTesting.log(service, key: fixture.key, summary).count == 1, "one outbox row")

            let seen = each.deliveries
            #expect(
                seen.allSatisfy { $0.type == "link.created" }
                    && seen.compactMap { $0.data?["slug"]?.stringValue } == (0..<50).map { "b\($0)" })
            #expect(try WebhookTesting.log(service, key: fixture.key, perLink).count == 50)

            // A single create is still a `link.created` for both.
            _ = try Self.createLink(fixture, slug: "single")
            try WebhookTesting.settle(service.application.pool, [summaries, each])
            #expect(summaries.deliveries.last?.type == "link.created" && each.deliveries.last?.data?["slug"]?.stringValue == "single")
        }
    }

    /// A flood of taps on one link becomes one `link.clicked` event an interval with the count; bots are not
    /// counted.
    @Test func aClickFloodIsCoalescedWithinTheRate() throws {
        try TestService.with(configure: { configuration in
            WebhookTesting.configure(&configuration)
            configuration.webhooks.clickInterval = 1
            configuration.webhooks.clickLimit = 5
        }) { service in
            let fixture = try Fixture(service)
            let receiver = try WebhookReceiver()
            try WebhookTesting.subscribe(service, key: fixture.key, receiver, events: ["link.clicked"])
            _ = try Self.createLink(fixture, slug: "viral")
            _ = try Self.createLink(fixture, slug: "warm")
            let phone =
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
            // The subscribers are read every 5 s: taps on another link until one is told say they count now.
            try WebhookTesting.wait("a tap counted") {
                _ = try HTTPTestClient.request(port: service.port, path: "/warm", headers: [("Host", fixture.host), ("User-Agent", phone)])
                return receiver.deliveries.contains { $0.data?["link"]?["slug"]?.stringValue == "warm" }
            }
            let started = Date()
            for _ in 0..<300 {
                _ = try HTTPTestClient.request(
                    port: service.port, path: "/viral", headers: [("Host", fixture.host), ("User-Agent", phone)])
            }
            for _ in 0..<20 {
                _ = try HTTPTestClient.request(
                    port: service.port, path: "/viral", headers: [("Host", fixture.host), ("User-Agent", "Googlebot/2.1")])
            }
            let seconds = Date().timeIntervalSince(started)
            func viral() -> [WebhookReceiver.Delivery] { receiver.deliveries.filter { $0.data?["link"]?["slug"]?.stringValue == "viral" } }
            try WebhookTesting.wait("300 taps told") {
                viral().compactMap { $0.data?["clicks"]?.integer }.reduce(0, +) >= 300
            }
            // One more tap, of the warm-up link: the pass that tells it tells every tap counted before it (each is
            // counted as it is answered), the bots' included had they been.
            let warm = receiver.deliveries.filter { $0.data?["link"]?["slug"]?.stringValue == "warm" }.count
            _ = try HTTPTestClient.request(port: service.port, path: "/warm", headers: [("Host", fixture.host), ("User-Agent", phone)])
            try WebhookTesting.wait("the last tap told") {
                receiver.deliveries.filter { $0.data?["link"]?["slug"]?.stringValue == "warm" }.count > warm
            }
            try WebhookTesting.settle(service.application.pool, [receiver])
            let events = viral()
            #expect(events.compactMap { $0.data?["clicks"]?.integer }.reduce(0, +) == 300, "bots are not counted")
            #expect(events.allSatisfy { $0.type == "link.clicked" && $0.data?["link"]?["slug"]?.stringValue == "viral" && $0.verified })
            #expect(Double(events.count) <= seconds + 4, "one event a second at most: \(events.count) in \(seconds) s")
        }
    }
}
