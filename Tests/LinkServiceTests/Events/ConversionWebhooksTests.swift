import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// `conversion.recorded` (docs/EVENTS.md, "Out"): read from the events table's feed by a background service, signed and
/// delivered as every webhook, each conversion once across nodes, restarts and transactions that commit late.
@Suite("Conversion webhooks")
struct ConversionWebhooksTests {
    /// Sends `json` and waits until its events are written (docs/EVENTS.md, "Storing").
    static func send(_ service: TestService, key: String, _ json: String) throws -> JSONValue {
        let answer = try Fixture.expect(202, service.request("POST", "/v1/events", key: key, json: json)).json
        try EventsAPITests.settle(service)
        return answer
    }

    /// The stored id of the event of idempotency key `key`.
    static func id(_ service: TestService, _ key: String) throws -> String? {
        try service.application.pool.withConnection {
            try $0.query("SELECT id::text FROM events WHERE idempotency_key = \(key)").first?.decode(0, as: String.self)
        }
    }

    /// An open, a reopen and a purchase: the open and the purchase are told (a reopen is no conversion), each once,
    /// verified by the Standard Webhooks library, carrying the event and the attribution it was stored with.
    @Test func conversionsAreToldOnceWithTheirAttribution() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try Fixture(service)
            let types = try Fixture.expect(200, service.request("GET", "/v1/webhooks/events", key: fixture.key)).text
            #expect(types.contains("conversion.recorded"), "the catalogue lists it")
            let receiver = try WebhookReceiver()
            try WebhookTesting.subscribe(service, key: fixture.key, receiver, events: ["conversion.recorded"])
            let link = try EventsAPITests.promo(fixture)
            let now = Date()
            let report = try Self.send(
                service, key: fixture.key,
                """
                {"events":[
                  {"name":"open","idempotencyKey":"o-1","visitorId":"v1","url":"https://\(fixture.host)/promo?utm_source=mail",
                   "time":"\(RFC3339.string(now.addingTimeInterval(-3)))"},
                  {"name":"reopen","idempotencyKey":"r-1","visitorId":"v1","time":"\(RFC3339.string(now.addingTimeInterval(-2)))"},
                  {"name":"purchase","idempotencyKey":"p-1","visitorId":"v1","value":1299,"currency":"EUR",
                   "time":"\(RFC3339.string(now.addingTimeInterval(-1)))"}
                ]}
                """)
            let results = try #require(report["results"]?.arrayValue)
            #expect(results.allSatisfy { $0["status"]?.stringValue == "accepted" }, "\(report)")
            let seen = receiver.deliveries(count: 2)
            #expect(
                try WebhookTesting.settle(service.application.pool, [receiver]) == 2, "one delivery per conversion, none for the reopen")
            #expect(seen.count == 2 && seen.allSatisfy { $0.verified && $0.type == "conversion.recorded" })
            let byKey = Dictionary(uniqueKeysWithValues: seen.map { ($0.data?["event"]?["idempotencyKey"]?.stringValue ?? "", $0) })
            #expect(Set(byKey.keys) == ["o-1", "p-1"])
            for result in results where result["kind"]?.stringValue != "reopen" {
                let key = try #require(result["idempotencyKey"]?.stringValue)
                let delivery = try #require(byKey[key])
                let id = try #require(try Self.id(service, key))
                #expect(delivery.id == "evt_" + id.replacingOccurrences(of: "-", with: ""), "the webhook id derives from the event's")
                #expect(delivery.data?["event"]?["id"]?.stringValue == id)
                #expect(delivery.data?["event"]?["attribution"] == (try EventsAPITests.attribution(service, key)), "the stored attribution")
            }
            let purchase = try #require(byKey["p-1"]?.data?["event"])
            #expect(purchase["kind"]?.stringValue == "named" && purchase["name"]?.stringValue == "purchase")
            #expect(purchase["value"]?.integer == 1299 && purchase["currency"]?.stringValue == "EUR")
            #expect(purchase["visitorId"]?.stringValue == "v1")
            #expect(purchase["attribution"]?["link"]?.stringValue == link)
            #expect(purchase["attribution"]?["campaign"]?["source"]?.stringValue == "mail")
            #expect(purchase["time"]?.stringValue != nil && purchase["receivedAt"]?.stringValue != nil)
        }
    }

    /// An event whose transaction commits after later ones is still told (a cursor over the sequence alone would have
    /// passed it), and two nodes, then a node started again, tell every conversion exactly once.
    @Test func eachConversionIsToldOnceAcrossNodesRestartsAndLateCommits() throws {
        let database = try TestDatabase.create(template: MigratedTemplate.databaseName())
        defer { try? database.drop() }
        let receiver = try WebhookReceiver()
        let first = try TestService(parameters: database.parameters, configure: WebhookTesting.configure)
        let fixture = try Fixture(first)
        try WebhookTesting.subscribe(first, key: fixture.key, receiver, events: ["conversion.recorded"])
        let second = try TestService(parameters: database.parameters, configure: WebhookTesting.configure)
        defer { second.close() }
        var keys: Set<String> = ["late"]
        try first.application.pool.withConnection { connection in
            // Stored first (its sequence number is the lowest), committed last. Another name than the events sent
            // meanwhile: their rollup rows are not the ones this open transaction holds (docs/EVENTS.md, "Funnels").
            try connection.executeScript("BEGIN")
            try connection.execute(
                """
                INSERT INTO events (workspace_id, kind, name, occurred_at, idempotency_key, attribution, unattributed_reason)
                SELECT id, 'named', 'waitlist', now(), 'late', 'none', 'no_visitor' FROM workspaces
                """)
            for index in 0..<6 {
                let node = index.isMultiple(of: 2) ? first : second
                _ = try Self.send(node, key: fixture.key, #"{"name":"signup","idempotencyKey":"n-\#(index)"}"#)
                keys.insert("n-\(index)")
            }
            // Time for a reader that does not wait for the open transaction to tell the later events and pass it.
            _ = receiver.deliveries(count: 1, seconds: 5)
            try connection.executeScript("COMMIT")
        }
        _ = receiver.deliveries(count: keys.count)
        first.close()
        let third = try TestService(parameters: database.parameters, configure: WebhookTesting.configure)
        defer { third.close() }
        _ = try Self.send(third, key: fixture.key, #"{"name":"signup","idempotencyKey":"after-restart"}"#)
        keys.insert("after-restart")
        _ = receiver.deliveries(count: keys.count)
        #expect(try WebhookTesting.settle(third.application.pool, [receiver]) == keys.count, "one attempt a conversion")
        let told = receiver.deliveries.map { $0.data?["event"]?["idempotencyKey"]?.stringValue ?? "" }
        #expect(told.count == keys.count, "each told once: \(told.sorted())")
        #expect(Set(told) == keys)
        #expect(receiver.deliveries.allSatisfy { $0.verified })
    }
}
