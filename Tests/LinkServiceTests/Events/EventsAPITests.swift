import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `POST /v1/events` and the last-click attribution of docs/EVENTS.md: a real server, a private PostgreSQL.
@Suite("Events")
struct EventsAPITests {
    static let pixel = ClickTests.pixel

    /// A stored link `/promo` with its own campaign; its id.
    static func promo(_ fixture: Fixture) throws -> String {
        try fixture.createLink(
            """
            {"domain":"\(fixture.host)","slug":"promo","app":"\(fixture.androidApp)","destination":{"type":"widgetDetail","params":{"id":9}},
             "campaign":{"source":"push","campaign":"autumn"}}
            """
        ).json["id"]!.stringValue!
    }

    /// The click token an Android phone's landing page of `path` hands the Play Store.
    static func token(_ fixture: Fixture, _ path: String) throws -> String {
        let page = try fixture.service.request("GET", path, headers: [("Host", fixture.host), ("User-Agent", pixel)])
        let store = try #require(LandingTests.href(page.text, "get"))
        let referrer = try #require(URLComponents(string: store)?.queryItems?.first { $0.name == "referrer" }?.value)
        return String(referrer.dropFirst(ClickHandler.referrerPrefix.count))
    }

    /// Sends `json`, then waits until the event pipeline has written what it accepted (events are stored after the
    /// answer, in batches: docs/EVENTS.md, "Storing").
    static func send(_ fixture: Fixture, _ json: String, key: String? = nil) throws -> TestResponse {
        let response = try fixture.service.request("POST", "/v1/events", key: key ?? fixture.key, json: json)
        try settle(fixture.service)
        return response
    }

    /// Waits until every event accepted is written (none queued or spooled).
    static func settle(_ service: TestService) throws {
        let settled = eventually(timeout: 30) {
            let counters = service.application.events.counters
            return counters.queued == 0 && counters.spooled == 0
        }
        if !settled { Issue.record("events still queued after 30 s: \(service.application.events.counters)") }
    }

    /// The stored attribution of the event with idempotency key `key` (unique across the test's workspaces), as the
    /// JSON the answers once carried (`EventAttribution.json`); nil when no such event is stored.
    static func attribution(_ service: TestService, _ key: String) throws -> JSONValue? {
        try service.application.pool.withConnection { connection in
            try connection.query("SELECT row_to_json(e)::text FROM events e WHERE idempotency_key = \(key)").first.map {
                try EventColumns.attribution(fromRow: try $0.decode(0, as: String.self)).json
            }
        }
    }

    static func count(_ service: TestService, _ condition: String = "true") throws -> Int {
        try service.application.pool.withConnection {
            try $0.query("SELECT count(*)::int8 FROM events WHERE \(unescaped: condition)").first!.decode(0, as: Int.self)
        }
    }

    /// A tap on an Android phone, the install claiming its token, an open by the link's URL and a purchase: each stored
    /// once, attributed to the link and its campaign; a repeated purchase counts once.
    @Test func aJourneyIsAttributedToTheLinkOnce() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let link = try Self.promo(fixture)
            try fixture.waitForCatalog { _ in (try? Self.token(fixture, "/promo")) != nil }
            let token = try Self.token(fixture, "/promo")
            try Fixture.expect(200, service.request("POST", "/v1/deferred/claim", json: #"{"token":"\#(token)"}"#))

            let install = try Fixture.expect(
                202,
                Self.send(
                    fixture,
                    """
                    {"name":"install","app":"\(fixture.androidApp)","idempotencyKey":"i-1","visitorId":"v1","clickToken":"\(token)"}
                    """)
            ).json
            #expect(install["status"]?.stringValue == "accepted")
            #expect(install["kind"]?.stringValue == "install")
            let installed = try Self.attribution(service, "i-1")
            #expect(installed?["via"]?.stringValue == "click_token")
            #expect(installed?["link"]?.stringValue == link)
            #expect(installed?["campaign"]?["campaign"]?.stringValue == "autumn")

            try Fixture.expect(
                202,
                Self.send(
                    fixture,
                    """
                    {"name":"open","idempotencyKey":"o-1","visitorId":"v1","url":"https://\(fixture.host)/promo?utm_source=mail"}
                    """)
            )
            let open = try Self.attribution(service, "o-1")
            #expect(open?["via"]?.stringValue == "link_url")
            #expect(open?["link"]?.stringValue == link)
            #expect(open?["campaign"]?["source"]?.stringValue == "mail", "the URL's utm_* first")
            #expect(open?["campaign"]?["campaign"]?.stringValue == "autumn", "then the link's own")

            let purchase = #"{"name":"purchase","idempotencyKey":"p-1","visitorId":"v1","value":1299,"currency":"EUR"}"#
            try Fixture.expect(202, Self.send(fixture, purchase))
            let bought = try Self.attribution(service, "p-1")
            #expect(bought?["via"]?.stringValue == "visitor")
            #expect(bought?["link"]?.stringValue == link)
            #expect(bought?["campaign"]?["source"]?.stringValue == "mail", "the last click: the open's")
            // Sent again (a retry), it is accepted and counts once: the stored event stays as it was.
            let again = try Fixture.expect(202, Self.send(fixture, purchase.replacingOccurrences(of: "1299", with: "5"))).json
            #expect(again["status"]?.stringValue == "accepted")
            #expect(try Self.count(service) == 3)
            #expect(try Self.count(service, "name = 'purchase' AND value_minor = 1299 AND currency = 'EUR' AND link_id = '\(link)'") == 1)

            // Without a click: unattributed, counted as such with the reason.
            try Fixture.expect(202, Self.send(fixture, #"{"name":"signup","idempotencyKey":"s-2","visitorId":"v2"}"#))
            #expect(try Self.attribution(service, "s-2") == .object(["via": .string("none"), "reason": .string("no_click_in_window")]))
            // Only a click at or before the event counts (and within the window, 7 days by default).
            let old = RFC3339.string(Date().addingTimeInterval(-86_400))
            try Fixture.expect(
                202, Self.send(fixture, #"{"name":"signup","idempotencyKey":"s-1","visitorId":"v1","time":"\#(old)"}"#))
            #expect(
                try Self.attribution(service, "s-1")?["via"]?.stringValue == "none",
                "an event before the visitor's first click is not the click's")
            try Fixture.expect(
                202, Self.send(fixture, #"{"name":"install","idempotencyKey":"i-2","clickToken":"\#(String(repeating: "a", count: 32))"}"#))
            #expect(try Self.attribution(service, "i-2")?["reason"]?.stringValue == "unknown_click_token")
            #expect(try Self.count(service, "attribution = 'none'") == 3)

            // The last click wins whether it is stored or earlier in the same batch: an open in the batch, later than the
            // stored ones, attributes the purchase after it; the batch's order does not matter, its times do.
            let now = Date()
            try Fixture.expect(
                202,
                Self.send(
                    fixture,
                    """
                    {"events":[
                      {"name":"purchase","idempotencyKey":"p-2","visitorId":"v1","time":"\(RFC3339.string(now.addingTimeInterval(2)))"},
                      {"name":"open","idempotencyKey":"o-2","visitorId":"v1","time":"\(RFC3339.string(now.addingTimeInterval(1)))",
                       "url":"https://\(fixture.host)/promo?utm_source=sms"}
                    ]}
                    """))
            let later = try Self.attribution(service, "p-2")
            #expect(later?["via"]?.stringValue == "visitor")
            #expect(later?["campaign"]?["source"]?.stringValue == "sms")
        }
    }

    /// A batch checks each event alone: the bad ones are refused at their pointers and not stored, the rest are; a
    /// key repeated within the batch counts once.
    @Test func aBatchRefusesEachBadEventAlone() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let other = try Fixture(service, workspace: "globex", host: "go.globex.com")
            let future = RFC3339.string(Date().addingTimeInterval(86_400))
            let report = try Fixture.expect(
                202,
                Self.send(
                    fixture,
                    """
                    {"events":[
                      {"name":"signup","idempotencyKey":"a","app":"\(fixture.iosApp)"},
                      {"name":"purchase","idempotencyKey":"b","value":100,"currency":"XYZ"},
                      {"name":"purchase","idempotencyKey":"c","time":"\(future)"},
                      {"name":"open","idempotencyKey":"d","app":"\(other.iosApp)"},
                      {"name":"signup","idempotencyKey":"a"},
                      {"name":"Bad Name","idempotencyKey":"e","value":5},
                      {"name":"reopen","idempotencyKey":"f"}
                    ]}
                    """)
            ).json
            #expect(report["accepted"] == .number("2"))
            #expect(report["duplicates"] == .number("1"))
            #expect(report["refused"] == .number("4"))
            let results = try #require(report["results"]?.arrayValue)
            func pointers(_ index: Int) -> [String] {
                results[index]["error"]?["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
            }
            #expect(
                results.map { $0["status"]?.stringValue } == [
                    "accepted", "refused", "refused", "refused", "duplicate", "refused", "accepted",
                ])
            #expect(pointers(1) == ["/events/1/currency"])
            #expect(pointers(2) == ["/events/2/time"])
            #expect(pointers(3) == ["/events/3/app"], "another workspace's app is refused as none")
            #expect(Set(pointers(5)) == ["/events/5/name", "/events/5/currency"])
            #expect(results[1]["error"]?["status"] == .number("422"))
            #expect(try Self.count(service) == 2)
            #expect(try Self.count(service, "idempotency_key IN ('b', 'c', 'd', 'e')") == 0)

            // One event alone refused: a 422 problem, nothing stored.
            let single = try Self.send(fixture, #"{"name":"purchase","idempotencyKey":"g","value":1,"currency":"eur"}"#)
            #expect(single.status == 422)
            #expect(single.headers["Content-Type"] == "application/problem+json")
            #expect(try single.json["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/currency")
            // Unknown members are refused at theirs.
            let unknown = try Self.send(fixture, #"{"name":"signup","idempotencyKey":"h","extra":1}"#)
            #expect(unknown.status == 422)
            #expect(try Self.count(service) == 2)
            // A key whose first event was refused (another workspace's app) is recorded by its next valid one.
            let retried = try Fixture.expect(
                202,
                Self.send(
                    fixture,
                    """
                    {"events":[{"name":"open","idempotencyKey":"x","app":"\(other.iosApp)"},{"name":"open","idempotencyKey":"x"}]}
                    """)
            ).json
            #expect(retried["results"]?.arrayValue?.map { $0["status"]?.stringValue } == ["refused", "accepted"])
            #expect(try Self.count(service) == 3)
            // The same key in another workspace is another event.
            try Fixture.expect(202, Self.send(other, #"{"name":"signup","idempotencyKey":"a"}"#))
            #expect(try Self.count(service) == 4)
        }
    }

    /// Sending events needs the write scope with the editor role (docs/PEOPLE.md): a read key is refused.
    @Test func aReadKeyCannotSendEvents() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let reader = try service.key(workspace: "acme", scope: .read)
            let refused = try Self.send(fixture, #"{"name":"signup","idempotencyKey":"a"}"#, key: reader)
            #expect(refused.status == 403)
            #expect(try Self.count(service) == 0)
        }
    }

    /// An app's publishable key sends events for its app only, reads nothing, stops working once replaced, and is
    /// limited per client address with 429 and Retry-After.
    @Test func aPublishableAppKeySendsItsAppsEventsOnly() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let made = try Fixture.expect(200, service.request("POST", "/v1/apps/\(fixture.androidApp)/event-key", key: fixture.key)).json
            let key = try #require(made["key"]?.stringValue)
            #expect(key.hasPrefix("lkp_") && made["app"]?.stringValue == fixture.androidApp)
            func send(_ json: String, _ key: String) throws -> TestResponse {
                try service.request("POST", "/v1/events", json: json, headers: [("X-Linkd-App-Key", key)])
            }
            let sent = try Fixture.expect(202, send(#"{"name":"install","idempotencyKey":"k-1"}"#, key)).json
            #expect(sent["status"]?.stringValue == "accepted")
            try Self.settle(service)
            #expect(try Self.count(service, "app_id = '\(fixture.androidApp)'") == 1, "the key's app")
            let foreign = try send(#"{"name":"install","idempotencyKey":"k-2","app":"\#(fixture.iosApp)"}"#, key)
            #expect(foreign.status == 422)
            #expect(try foreign.json["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/app")
            // No reads: the key is no API key anywhere else.
            #expect(try service.request("GET", "/v1/apps", headers: [("X-Linkd-App-Key", key)]).status == 401)
            #expect(try service.request("GET", "/v1/apps", headers: [("Authorization", "Bearer \(key)")]).status == 401)
            // A viewer may not make one; another workspace's app is none.
            let viewer = try service.key(workspace: "acme", scope: .read)
            #expect(try service.request("POST", "/v1/apps/\(fixture.androidApp)/event-key", key: viewer).status == 403)
            let other = try service.key(workspace: "globex")
            #expect(try service.request("POST", "/v1/apps/\(fixture.androidApp)/event-key", key: other).status == 404)
            // Replaced: the old key stops working.
            let newer = try #require(
                try Fixture.expect(200, service.request("POST", "/v1/apps/\(fixture.androidApp)/event-key", key: fixture.key))
                    .json["key"]?.stringValue)
            #expect(try send(#"{"name":"open","idempotencyKey":"k-3"}"#, key).status == 401)
            // Per client address: past the limit, 429 with Retry-After, and nothing stored.
            var statuses: [Int] = []
            for index in 0..<125 {
                let response = try send(#"{"name":"reopen","idempotencyKey":"r-\#(index)"}"#, newer)
                statuses.append(response.status)
                if response.status == 429 {
                    #expect(Int(response.headers["Retry-After"] ?? "") ?? 0 >= 1)
                    break
                }
            }
            #expect(statuses.last == 429)
            #expect(statuses.dropLast().allSatisfy { $0 == 202 })
            // 120 a minute per address, each request counted once (a few were sent from it above).
            #expect(statuses.count - 1 >= 110, "\(statuses.count - 1) accepted")
            try Self.settle(service)
            #expect(try Self.count(service, "name = 'reopen'") == statuses.count - 1)
            // Removed: refused.
            try Fixture.expect(204, service.request("DELETE", "/v1/apps/\(fixture.androidApp)/event-key", key: fixture.key))
            try Fixture.expect(404, service.request("DELETE", "/v1/apps/\(fixture.androidApp)/event-key", key: fixture.key))
        }
    }

    /// The app keys' limits are options (`--event-address-rate-limit`, `--event-key-rate-limit`): past the address's,
    /// 429 for that address only; past the key's, 429 from any address; a refused request stores nothing.
    @Test func theAppKeysLimitsAreOptions() throws {
        try TestService.with(configure: {
            $0.eventKeyRequestsPerMinute = 5; $0.eventAddressRequestsPerMinute = 3
        }) { service in
            let fixture = try Fixture(service)
            let made = try Fixture.expect(200, service.request("POST", "/v1/apps/\(fixture.androidApp)/event-key", key: fixture.key)).json
            let key = try #require(made["key"]?.stringValue)
            func send(_ index: Int, from source: String) throws -> Int {
                try HTTPTestClient.request(
                    port: service.port, method: "POST", path: "/v1/events",
                    headers: [("X-Linkd-App-Key", key), ("Content-Type", "application/json")],
                    body: Array(#"{"name":"reopen","idempotencyKey":"r-\#(index)"}"#.utf8), source: source
                ).status
            }
            // Both windows start with the first request: the few below fit in one minute.
            #expect(try (0..<4).map { try send($0, from: "127.0.0.1") } == [202, 202, 202, 429], "3 a minute from an address")
            #expect(try (4..<7).map { try send($0, from: "127.0.0.2") } == [202, 202, 429], "5 a minute for the key")
            // Five accepted, and once the writer has written what it took, five stored.
            let events = service.application.events
            #expect(events.counters.accepted == 5)
            #expect(eventually { events.counters.written == events.counters.accepted })
            #expect(try Self.count(service, "name = 'reopen'") == 5)
        }
    }

    /// The attribution window is the workspace's: a purchase two days after the open is the link's with 7 days (the
    /// default) and unattributed with 1; a window out of range is refused, and only admins change it.
    @Test func theWindowIsTheWorkspaces() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            _ = try Self.promo(fixture)
            try fixture.waitForCatalog { _ in (try? Self.token(fixture, "/promo")) != nil }
            let settings = try Fixture.expect(200, service.request("GET", "/v1/events/settings", key: fixture.key)).json
            #expect(settings == .object(["attributionWindowDays": .number("7")]))
            let twoDaysAgo = RFC3339.string(Date().addingTimeInterval(-2 * 86_400))
            try Fixture.expect(
                202,
                Self.send(
                    fixture,
                    #"{"name":"open","idempotencyKey":"o","visitorId":"v","time":"\#(twoDaysAgo)","url":"https://\#(fixture.host)/promo"}"#)
            )
            try Fixture.expect(202, Self.send(fixture, #"{"name":"purchase","idempotencyKey":"p-1","visitorId":"v"}"#))
            #expect(try Self.attribution(service, "p-1")?["via"]?.stringValue == "visitor")
            let refused = try service.request("PUT", "/v1/events/settings", key: fixture.key, json: #"{"attributionWindowDays":0}"#)
            #expect(refused.status == 422)
            #expect(try refused.json["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/attributionWindowDays")
            let editor = try service.key(workspace: "acme", scope: .read)
            #expect(try service.request("PUT", "/v1/events/settings", key: editor, json: #"{"attributionWindowDays":1}"#).status == 403)
            try Fixture.expect(200, service.request("PUT", "/v1/events/settings", key: fixture.key, json: #"{"attributionWindowDays":1}"#))
            try Fixture.expect(202, Self.send(fixture, #"{"name":"purchase","idempotencyKey":"p-2","visitorId":"v"}"#))
            #expect(try Self.attribution(service, "p-2")?["reason"]?.stringValue == "no_click_in_window")
            let audit = try Fixture.expect(200, service.request("GET", "/v1/audit", key: fixture.key)).text
            #expect(audit.contains("event_settings"))
        }
    }
}
