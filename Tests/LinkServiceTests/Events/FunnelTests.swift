import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Funnels (docs/EVENTS.md, "Funnels"): the events' rollups kept by the database, the country and OS an event is
/// counted under, `GET /v1/analytics/funnel` and the experiment view's conversions. A real server, a private PostgreSQL.
@Suite("Funnels")
struct FunnelTests {
    /// The steps of a funnel answer's figures as `step count rate`.
    static func steps(_ figures: JSONValue?) -> [String] {
        figures?["steps"]?.arrayValue?.map {
            "\($0["step"]?.stringValue ?? "") \($0["count"]?.serialized ?? "") \($0["rate"]?.serialized ?? "")"
        } ?? []
    }

    static func funnel(_ fixture: Fixture, _ query: String) throws -> JSONValue {
        try Fixture.expect(200, fixture.service.request("GET", "/v1/analytics/funnel?\(query)", key: fixture.key)).json
    }

    /// The whole journey of issue 52: a tap on an Android phone, the Play Store link carrying the click token, the
    /// install claiming it, an open by the link's URL, a purchase; the link's funnel shows each step once, with the
    /// revenue, under the tap's country and OS.
    @Test func aWholeJourneyShowsEachStepOnceInTheLinksFunnel() throws {
        let database = try HitDimensionsTests.countryDatabase(["127.0.0.2/32=DE"])
        defer { try? FileManager.default.removeItem(atPath: (database as NSString).deletingLastPathComponent) }
        try TestService.with(configure: { $0.hits.geoIPDatabase = database }) { service in
            let fixture = try Fixture(service)
            let link = try EventsAPITests.promo(fixture)
            let resolve = "/v1/resolve?url=" + "https://\(fixture.host)/promo".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            try fixture.waitForCatalog { _ in (try? service.request("GET", resolve, key: fixture.key).json)?["link"] != nil }

            // The tap: an Android phone's landing page, whose store link hands the Play Store the click token.
            let page = try HTTPTestClient.request(
                port: service.port, path: "/promo", headers: [("Host", fixture.host), ("User-Agent", EventsAPITests.pixel)],
                source: "127.0.0.2")
            #expect(page.status == 200)
            let store = try #require(LandingTests.href(page.text, "get"))
            #expect(store.hasPrefix("https://play.google.com/store/apps/details?"))
            let referrer = try #require(URLComponents(string: store)?.queryItems?.first { $0.name == "referrer" }?.value)
            #expect(referrer.hasPrefix(ClickHandler.referrerPrefix))
            let token = String(referrer.dropFirst(ClickHandler.referrerPrefix.count))

            // The install claiming it, counted under the tap's country and OS; the open, under its app's OS.
            try Fixture.expect(
                202,
                EventsAPITests.send(
                    fixture,
                    """
                    {"name":"install","app":"\(fixture.androidApp)","idempotencyKey":"i-1","visitorId":"v1","clickToken":"\(token)"}
                    """)
            )
            let install = try #require(try EventsAPITests.attribution(service, "i-1"))
            #expect(install["link"]?.stringValue == link)
            #expect(install["country"]?.stringValue == "DE")
            #expect(install["os"]?.stringValue == "Android")
            try Fixture.expect(
                202,
                EventsAPITests.send(
                    fixture,
                    """
                    {"name":"open","app":"\(fixture.androidApp)","idempotencyKey":"o-1","visitorId":"v1","url":"https://\(fixture.host)/promo"}
                    """)
            )
            let open = try #require(try EventsAPITests.attribution(service, "o-1"))
            #expect(open["link"]?.stringValue == link)
            #expect(open["country"]?.stringValue == "DE", "no click linkd saw: the visitor's last click's")
            #expect(open["os"]?.stringValue == "Android")
            let purchase = #"{"name":"purchase","idempotencyKey":"p-1","visitorId":"v1","value":1299,"currency":"EUR"}"#
            try Fixture.expect(202, EventsAPITests.send(fixture, purchase))
            let bought = try #require(try EventsAPITests.attribution(service, "p-1"))
            #expect(bought["link"]?.stringValue == link)
            #expect(bought["country"]?.stringValue == "DE", "the visitor's last click's")
            try Fixture.expect(202, EventsAPITests.send(fixture, purchase))
            #expect(try EventsAPITests.count(service, "idempotency_key = 'p-1'") == 1, "a key sent again counts once")

            // The tap reaches the hits' rollups when the writer has written it.
            #expect(eventually { (try? Self.steps(Self.funnel(fixture, "link=\(link)&period=7d")["total"]).first) == "clicks 1 null" })
            let funnel = try Self.funnel(fixture, "link=\(link)&period=7d")
            #expect(funnel["steps"] == .array(["clicks", "install", "open", "purchase"].map(JSONValue.string)))
            #expect(
                Self.steps(funnel["total"]) == ["clicks 1 null", "install 1 1.0000", "open 1 1.0000", "purchase 1 1.0000"])
            #expect(
                funnel["total"]?["revenue"]
                    == .array([.object(["currency": .string("EUR"), "value": .integer(1299), "events": .integer(1)])]))
            #expect(funnel["filters"]?["link"]?.stringValue == link)
            // The same link by country and by OS: the tap's, for every step.
            let byCountry = try Self.funnel(fixture, "link=\(link)&period=7d&groupBy=country")
            #expect(byCountry["groups"]?.arrayValue?.count == 1)
            #expect(byCountry["groups"]?.arrayValue?.first?["value"]?.stringValue == "DE")
            #expect(
                Self.steps(byCountry["groups"]?.arrayValue?.first) == [
                    "clicks 1 null", "install 1 1.0000", "open 1 1.0000", "purchase 1 1.0000",
                ])
            let byOS = try Self.funnel(fixture, "period=7d&groupBy=os")
            #expect(
                Self.steps(byOS["groups"]?.arrayValue?.first) == [
                    "clicks 1 null", "install 1 1.0000", "open 1 1.0000", "purchase 1 1.0000",
                ])
            #expect(byOS["groups"]?.arrayValue?.first?["value"]?.stringValue == "Android")
            let byLink = try Self.funnel(fixture, "period=7d&groupBy=link")
            #expect(byLink["groups"]?.arrayValue?.first?["slug"]?.stringValue == "promo")

            // An open by a visitor without a click before: the app's OS, no country.
            try Fixture.expect(
                202,
                EventsAPITests.send(
                    fixture,
                    """
                    {"name":"open","app":"\(fixture.androidApp)","idempotencyKey":"o-2","url":"https://\(fixture.host)/promo"}
                    """)
            )
            let stranger = try #require(try EventsAPITests.attribution(service, "o-2"))
            #expect(stranger["os"]?.stringValue == "Android")
            #expect(stranger["country"] == nil)
        }
    }

    /// The rollups hold however rows land (one statement of many rows, single rows, a COPY), and equal the raw scan for
    /// every cube; a filter events are not counted under is a 400 naming it.
    @Test func rollupsEqualTheRawEventsHoweverTheyLand() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT workspace_id FROM apps WHERE id = \(UUID(uuidString: fixture.androidApp)!)").first!.decode(
                    0, as: UUID.self)
            }
            try service.application.pool.withConnection { connection in
                _ = try connection.execute(
                    """
                    INSERT INTO events (workspace_id, kind, name, occurred_at, value_minor, currency, idempotency_key, link_id,
                                        utm_campaign, country, os, variant, attribution, unattributed_reason)
                    SELECT \(workspace)::uuid, CASE WHEN i % 4 = 0 THEN 'install' WHEN i % 4 = 1 THEN 'open' ELSE 'named' END,
                           CASE WHEN i % 4 = 0 THEN 'install' WHEN i % 4 = 1 THEN 'open' WHEN i % 4 = 2 THEN 'signup' ELSE 'purchase' END,
                           now() - make_interval(hours => i % 50),
                           CASE WHEN i % 4 = 3 THEN i END, CASE WHEN i % 4 = 3 THEN (ARRAY['EUR', 'USD'])[1 + i % 2] END,
                           'k' || i, CASE WHEN i % 5 <> 0 THEN md5('l' || i % 3)::uuid END, 'c' || i % 2,
                           (ARRAY['DE', 'US', NULL])[1 + i % 3], (ARRAY['iOS', 'Android'])[1 + i % 2], (ARRAY['A', 'B', NULL])[1 + i % 3],
                           CASE WHEN i % 5 <> 0 THEN 'visitor' ELSE 'none' END, CASE WHEN i % 5 = 0 THEN 'no_visitor' END
                    FROM generate_series(1, 300) i
                    """)
                _ = try connection.execute(
                    """
                    INSERT INTO events (workspace_id, kind, name, occurred_at, idempotency_key, country, attribution, unattributed_reason)
                    VALUES (\(workspace)::uuid, 'install', 'install', now(), 'single', 'FR', 'none', 'no_click_token')
                    """)
                _ = try connection.copyFrom(
                    "COPY events (workspace_id, kind, name, occurred_at, idempotency_key, os, attribution, unattributed_reason) FROM STDIN",
                    rows: (0..<20).map { index -> [String?] in
                        [workspace.canonicalText, "open", "open", RFC3339.string(Date()), "copied-\(index)", "iOS", "none", "no_url"]
                    })
            }
            let today = Int(Date().timeIntervalSince1970 / 86_400)
            try service.application.pool.withConnection { connection in
                for groupBy in [nil] + EventFunnelStore.Dimension.allCases {
                    for filter: EventFunnelStore.Filter in [[:], [.country: "DE"], [.os: "iOS", .variant: "A"], [.campaign: "c1"]] {
                        func sorted(_ counts: [EventFunnelStore.Count]) -> [String] {
                            counts.map { "\($0.group ?? "-") \($0.name) \($0.currency ?? "-") \($0.events) \($0.value)" }.sorted()
                        }
                        let rolled = try EventFunnelStore.counts(
                            workspace: workspace, fromDay: today - 3, toDay: today + 1, filter: filter, groupBy: groupBy, on: connection)
                        let scanned = try EventFunnelStore.scannedCounts(
                            workspace: workspace, fromDay: today - 3, toDay: today + 1, filter: filter, groupBy: groupBy, on: connection)
                        #expect(sorted(rolled) == sorted(scanned), "groupBy \(groupBy?.rawValue ?? "-"), filter \(filter)")
                        #expect(!rolled.isEmpty)
                    }
                }
            }
            let whole = try Self.funnel(fixture, "period=7d")
            #expect(Self.steps(whole["total"]).prefix(3) == ["clicks 0 null", "install 76 null", "open 95 1.2500"])
            for refused in ["browser=Chrome", "host=\(fixture.host)", "utm_source=x", "source=resolve", "compare=previous"] {
                let answer = try fixture.service.request("GET", "/v1/analytics/funnel?\(refused)", key: fixture.key)
                #expect(answer.status == 400, "\(refused)")
            }
        }
    }

    /// The experiment view counts each variant's conversions per click, with the 95 % Wilson interval of the rate.
    @Test func theExperimentViewCountsConversionsPerVariant() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let link = try fixture.createLink(
                """
                {"domain":"\(fixture.host)","slug":"split","app":"\(fixture.androidApp)","destination":{"type":"widgetDetail","params":{"id":9}},
                 "variants":[{"name":"A","weight":1,"url":"https://www.example.com/a"},{"name":"B","weight":1,"url":"https://www.example.com/b"}]}
                """
            ).json["id"]!.stringValue!
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT workspace_id FROM links WHERE id = \(UUID(uuidString: link)!)").first!.decode(0, as: UUID.self)
            }
            try service.application.pool.withConnection { connection in
                _ = try connection.execute(
                    """
                    INSERT INTO events (workspace_id, kind, name, occurred_at, value_minor, currency, idempotency_key, link_id, variant, attribution)
                    SELECT \(workspace)::uuid, CASE WHEN i <= 3 THEN 'install' ELSE 'named' END, CASE WHEN i <= 3 THEN 'install' ELSE 'purchase' END,
                           now(), CASE WHEN i > 3 THEN 500 END, CASE WHEN i > 3 THEN 'EUR' END, 'e' || i, \(UUID(uuidString: link)!)::uuid,
                           CASE WHEN i % 2 = 0 THEN 'B' ELSE 'A' END, 'click_token'
                    FROM generate_series(1, 4) i
                    """)
            }
            let view = try Fixture.expect(200, service.request("GET", "/v1/links/\(link)/experiment", key: fixture.key)).json
            let variants = try #require(view["experiments"]?.arrayValue?.first?["variants"]?.arrayValue)
            #expect(variants.map { $0["name"]?.stringValue } == ["A", "B"])
            let a = variants[0]["conversions"], b = variants[1]["conversions"]
            #expect(a?["steps"]?.arrayValue?.map { $0["step"]?.stringValue ?? "" } == ["install", "open", "purchase"])
            #expect(a?["steps"]?.arrayValue?.first?["count"] == .integer(2), "events 1 and 3")
            #expect(b?["steps"]?.arrayValue?.last?["count"] == .integer(1))
            #expect(a?["steps"]?.arrayValue?.first?["rate"] == .null, "no clicks: no rate")
            #expect(a?["steps"]?.arrayValue?.first?["interval"] == .null)
            #expect(b?["revenue"] == .array([.object(["currency": .string("EUR"), "value": .integer(500), "events": .integer(1)])]))
            let interval = try #require(ExperimentComparison.wilson(5, of: 100))
            #expect(abs(interval.low - 0.0215) < 0.0005 && abs(interval.high - 0.1118) < 0.0005)
            #expect(ExperimentComparison.wilson(3, of: 2) == nil)
        }
    }
}
