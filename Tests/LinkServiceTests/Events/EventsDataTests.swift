import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// What else goes out of `events` (docs/EVENTS.md, "Export", "Erasure"): the CSV export and the erasure of a
/// visitor's events.
@Suite("Events data")
struct EventsDataTests {
    static func send(_ fixture: Fixture, _ json: String) throws -> JSONValue {
        try Fixture.expect(202, EventsAPITests.send(fixture, json)).json
    }

    static func export(_ fixture: Fixture, _ query: String) throws -> TestResponse {
        try fixture.service.request("GET", "/v1/events/export" + query, key: fixture.key)
    }

    /// The CSV file's lines (CRLF-ended, as RFC 4180 writes them).
    static func lines(_ response: TestResponse) -> [String] {
        response.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    /// The CSV file's data rows, each split into cells (the test's values hold no comma or quote).
    static func rows(_ response: TestResponse) -> [[String]] {
        lines(response).dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func theExportWritesTheEventsTheFiltersKeepInTimeOrder() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let now = Date()
            func at(_ hours: Double) -> String { RFC3339.string(now.addingTimeInterval(-hours * 3600)) }
            _ = try Self.send(
                fixture,
                """
                {"events":[
                  {"name":"purchase","idempotencyKey":"=p-1","visitorId":"v1","value":1299,"currency":"EUR","time":"\(at(2))"},
                  {"name":"install","idempotencyKey":"i-1","visitorId":"v1","time":"\(at(3))"},
                  {"name":"signup","idempotencyKey":"s-2","visitorId":"v2","time":"\(at(1))"}
                ]}
                """)
            let all = try Fixture.expect(200, Self.export(fixture, ""))
            #expect(all.headers["Content-Type"]?.hasPrefix("text/csv") == true)
            #expect(Self.lines(all).first == StoredEvent.csvHeader.joined(separator: ","))
            let rows = Self.rows(all)
            try #require(rows.count == 3, "\(all.text)")
            let column = Dictionary(uniqueKeysWithValues: StoredEvent.csvHeader.enumerated().map { ($1, $0) })
            #expect(rows.map { $0[column["name"]!] } == ["install", "purchase", "signup"], "in the order they happened")
            let purchase = rows[1]
            #expect(purchase[column["kind"]!] == "named" && purchase[column["value"]!] == "1299" && purchase[column["currency"]!] == "EUR")
            #expect(purchase[column["idempotencyKey"]!] == "'=p-1", "a cell a spreadsheet would run starts with '")
            #expect(purchase[column["attribution"]!] == "none" && purchase[column["reason"]!] == "no_click_in_window")

            #expect(Self.rows(try Self.export(fixture, "?kind=named")).count == 2)
            #expect(Self.rows(try Self.export(fixture, "?name=purchase")).map { $0[column["name"]!] } == ["purchase"])
            #expect(Self.rows(try Self.export(fixture, "?visitorId=v2")).map { $0[column["name"]!] } == ["signup"])
            let window = "?from=\(at(2.5))&to=\(at(0.5))".replacingOccurrences(of: "+", with: "%2B")
            #expect(Self.rows(try Self.export(fixture, window)).map { $0[column["name"]!] } == ["purchase", "signup"])
            #expect(Self.rows(try Self.export(fixture, "?link=\(UUID().uuidString)")).isEmpty)

            // A page at a time, each with its header row, the next named by `Link`.
            var names: [String] = []
            var next: String? = "/v1/events/export?limit=1"
            while let path = next {
                let page = try Fixture.expect(200, service.request("GET", path, key: fixture.key))
                names += Self.rows(page).map { $0[column["name"]!] }
                next = page.headers["Link"].flatMap { $0.split(separator: "<").last?.split(separator: ">").first.map(String.init) }
                #expect(names.count <= 3)
            }
            #expect(names == ["install", "purchase", "signup"])

            let ndjson = try Fixture.expect(200, Self.export(fixture, "?format=ndjson"))
            let lines = try ndjson.text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
            #expect(lines.map { $0["name"]?.stringValue } == ["install", "purchase", "signup"])
            #expect(lines[1]["value"]?.integer == 1299)

            for bad in [
                "?from=yesterday", "?to=2026-13-01T00:00:00Z", "?from=\(at(1))&to=\(at(2))", "?kind=bogus", "?name=Purchase",
                "?link=nope", "?visitorId=", "?visitorId=\(String(repeating: "v", count: 201))", "?limit=0", "?limit=10001",
                "?cursor=nonsense", "?format=xml", "?colour=red",
            ] {
                let response = try Self.export(fixture, bad.replacingOccurrences(of: "+", with: "%2B"))
                #expect(response.status == 400, "\(bad): \(response.status) \(response.text)")
                #expect(response.headers["Content-Type"] == "application/problem+json", "\(bad)")
            }
        }
    }

    /// A visitor's events go, with the click token of their install and the deliveries that told them; the others'
    /// stay; the erasure is audited without the visitor's id.
    @Test func anErasureDeletesAVisitorsEventsAndIsAudited() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try Fixture(service)
            let receiver = try WebhookReceiver()
            try WebhookTesting.subscribe(service, key: fixture.key, receiver, events: ["conversion.recorded"])
            _ = try EventsAPITests.promo(fixture)
            try fixture.waitForCatalog { _ in (try? EventsAPITests.token(fixture, "/promo")) != nil }
            let token = try EventsAPITests.token(fixture, "/promo")
            let person = "person-7f3a9c"
            _ = try Self.send(
                fixture,
                """
                {"events":[
                  {"name":"install","app":"\(fixture.androidApp)","idempotencyKey":"i-1","visitorId":"\(person)","clickToken":"\(token)"},
                  {"name":"purchase","idempotencyKey":"p-1","visitorId":"\(person)","value":500,"currency":"EUR"},
                  {"name":"signup","idempotencyKey":"s-1","visitorId":"someone-else"}
                ]}
                """)
            _ = receiver.deliveries(count: 3)
            try WebhookTesting.settle(service.application.pool, [receiver])
            func count(_ sql: String) throws -> Int {
                try service.application.pool.withConnection { try $0.query(Query(unsafeSQL: sql)).first!.decode(0, as: Int.self) }
            }
            let tokens = try count("SELECT count(*)::int8 FROM click_tokens")
            let installs = "SELECT count(*)::int8 FROM click_tokens WHERE token_hash = '\(ClickTokens.hash(token))'"
            #expect(try count(installs) == 1)

            for bad in ["", "?visitorId=", "?visitorId=\(String(repeating: "v", count: 201))", "?visitorId=a&also=b"] {
                let response = try service.request("DELETE", "/v1/events" + bad, key: fixture.key)
                #expect(response.status == 400, "\(bad): \(response.status) \(response.text)")
            }
            let reader = try service.key(scope: .read)
            #expect(try service.request("DELETE", "/v1/events?visitorId=\(person)", key: reader).status == 403)
            #expect(try count("SELECT count(*)::int8 FROM events") == 3, "a refused erasure changes nothing")

            let erased = try Fixture.expect(200, service.request("DELETE", "/v1/events?visitorId=\(person)", key: fixture.key)).json
            #expect(erased["events"]?.integer == 2 && erased["clickTokens"]?.integer == 1 && erased["webhookDeliveries"]?.integer == 2)
            #expect(try count("SELECT count(*)::int8 FROM events") == 1)
            #expect(try count("SELECT count(*)::int8 FROM events WHERE visitor_id = 'someone-else'") == 1)
            #expect(try count(installs) == 0, "the install's click token went")
            #expect(try count("SELECT count(*)::int8 FROM click_tokens") == tokens - 1, "the other clicks' tokens stay")
            #expect(try count("SELECT count(*)::int8 FROM webhook_outbox WHERE payload::text LIKE '%\(person)%'") == 0)
            #expect(try count("SELECT count(*)::int8 FROM webhook_outbox") == 1)

            let audit = try Fixture.expect(200, service.request("GET", "/v1/audit?resourceType=event_erasure", key: fixture.key))
            let entries = try #require(try audit.json["items"]?.arrayValue)
            #expect(entries.count == 1)
            #expect(entries.first?["resourceId"]?.stringValue == SHA256.hex(person))
            #expect(entries.first?["before"]?["events"]?.integer == 2)
            #expect(!audit.text.contains(person), "the log keeps the id's hash, not the id")

            let again = try Fixture.expect(200, service.request("DELETE", "/v1/events?visitorId=\(person)", key: fixture.key)).json
            #expect(again["events"]?.integer == 0 && again["clickTokens"]?.integer == 0 && again["webhookDeliveries"]?.integer == 0)
        }
    }
}
