import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Analytics that say what they count (issue 46, item 4): rows name their thing and its app, what a visitor was served
/// is a dimension of its own, rows add up to the total (an unknown row, the values not listed) or say why not, a link's
/// browsers and destinations are counted, and the audit log names what changed and narrows to a link or a webhook.
@Suite("Analytics that say what they count")
struct AnalyticsHonestyTests {
    static func json(_ fixture: Fixture, _ path: String) throws -> JSONValue {
        try Fixture.expect(200, fixture.service.request("GET", path, key: fixture.key)).json
    }

    static func created(_ fixture: Fixture, _ body: String) throws -> JSONValue {
        try fixture.createLink(body).json
    }

    /// One destination type declared by the iOS and the Android app ("Widgets" both): two rows, each naming its app
    /// and platform, not two identical "Widget (widgetDetail)".
    @Test func destinationsNameTheirApp() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service)
            for agent in [LandingTests.Agent.iPhone, LandingTests.Agent.iPhone, LandingTests.Agent.android] {
                _ = try LandingTests.click(service, "/widget/1", agent: agent)
            }
            #expect(eventually { service.application.hits.counters.written == 3 })
            let items = try #require(try Self.json(fixture, "/v1/analytics/top?dimension=destination")["items"]?.arrayValue)
            let rows = items.map { item in
                "\(item["title"]?.stringValue ?? "-") (\(item["destination"]?.stringValue ?? "-")) \(item["appName"]?.stringValue ?? "-") "
                    + "\(item["appPlatform"]?.stringValue ?? "-") \(item["app"]?.stringValue ?? "-") \(item["hits"]?.serialized ?? "-")"
            }
            #expect(
                rows == [
                    "Widget (widgetDetail) Widgets ios \(fixture.iosApp) 2",
                    "Widget (widgetDetail) Widgets android \(fixture.androidApp) 1",
                ])
            let apps = try #require(try Self.json(fixture, "/v1/analytics/top?dimension=app")["items"]?.arrayValue)
            #expect(
                apps.map { "\($0["name"]?.stringValue ?? "-") \($0["platform"]?.stringValue ?? "-")" } == [
                    "Widgets ios", "Widgets android",
                ])
        }
    }

    /// Desktop taps sent to the website are `open_app` for the rules (an app claims the URL) but `web_fallback` for
    /// what the visitor got; each kind of answer is its own `served` value.
    @Test func servedSaysWhatTheVisitorGot() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service)
            let web = try Self.created(fixture, #"{"domain":"\#(fixture.host)","slug":"page","url":"https://www.example.com/page"}"#)
            let fallback = try Self.created(
                fixture,
                #"""
                {"domain":"\#(fixture.host)","slug":"fb","url":"https://www.example.com/fb","fallbacks":{"ios":"https://m.example.com/fb"}}
                """#)
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"bare.example.com"}"#))
            let expired = try Self.created(
                fixture,
                #"{"domain":"bare.example.com","slug":"old","url":"https://www.example.com/old","expiresAt":"2020-01-01T00:00:00Z"}"#)
            try fixture.waitForCatalog { $0.catalog.entry(exactly: "bare.example.com") != nil }
            let clicks: [(String, String, String)] = [
                ("/widget/1", LandingTests.Agent.iPhone, fixture.host), // landing
                ("/widget/1", LandingTests.Agent.chrome, fixture.host), // web_fallback
                ("/widget/2", LandingTests.Agent.chrome, fixture.host), // web_fallback
                ("/widget/1", LandingTests.Agent.bots[0], fixture.host), // preview
                ("/page", LandingTests.Agent.chrome, fixture.host), // web_page
                ("/fb", LandingTests.Agent.iPhone, fixture.host), // link_fallback
                ("/old", LandingTests.Agent.iPhone, "bare.example.com"), // expired
                ("/nothing", LandingTests.Agent.chrome, "bare.example.com"), // not_found
            ]
            for (path, agent, host) in clicks { _ = try LandingTests.click(service, path, agent: agent, host: host) }
            #expect(eventually { service.application.hits.counters.written == clicks.count })
            _ = (web, fallback, expired)
            let summary = try Self.json(fixture, "/v1/analytics/summary?includeBots=true&period=today")
            guard case .object(let counts)? = summary["byServed"] else { throw TestFailure("no byServed: \(summary.serialized)") }
            let served = counts.filter { $0.value != .number("0") }.map { "\($0.key) \($0.value.serialized)" }
            #expect(served == ["landing 1", "web_page 1", "link_fallback 1", "web_fallback 2", "preview 1", "expired 1", "not_found 1"])
            // The rules' outcome says the app claims /widget/1 on every device; what each got is apart.
            let desktop = try Self.json(fixture, "/v1/analytics/summary?outcome=open_app&served=web_fallback&period=today")
            #expect(desktop["hits"]?.serialized == "2")
            let top = try #require(try Self.json(fixture, "/v1/analytics/top?dimension=served&period=today")["items"]?.arrayValue)
            #expect(top.first?["served"]?.stringValue == "web_fallback" && top.first?["hits"]?.serialized == "2")
        }
    }

    /// Taps of which some have no country (no GeoIP answer) and no campaign: the top lists count them as `unknown`,
    /// the values beyond `limit` as `others`, and the rows add up to `total`; visitors add up for countries (one row a
    /// visitor) and are said not to for links (a visitor can tap two).
    @Test func rowsAddUpToTheTotal() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service)
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
            }
            let (l1, l2) = (UUID(), UUID())
            let hits: [Hit] = [("vA", "DE", l1), ("vA", "DE", l2), ("vB", "US", l1), ("vC", "FR", l1), ("vD", nil, l1), ("vE", nil, l2)]
                .map { visitor, country, link in
                    .sample(
                        workspace: workspace, host: fixture.host, path: "/x", platform: .ios, isBot: false, time: Date(), visitor: visitor,
                        link: link, country: country)
                }
            for hit in hits { service.application.hits.record(hit) }
            #expect(eventually { service.application.hits.counters.written == hits.count })
            let countries = try Self.json(fixture, "/v1/analytics/top?dimension=country&limit=2&period=today")
            let items = try #require(countries["items"]?.arrayValue)
            #expect(items.map { "\($0["country"]?.stringValue ?? "-") \($0["hits"]?.serialized ?? "-")" } == ["DE 2", "FR 1"])
            #expect(countries["unknown"]?.serialized == #"{"hits":2,"visitors":2}"#)
            #expect(countries["others"]?.serialized == #"{"hits":1,"values":1}"#)
            #expect(countries["total"]?.serialized == #"{"hits":6,"visitors":5}"#)
            #expect(countries["visitorsAddUp"] == .bool(true))
            let links = try Self.json(fixture, "/v1/analytics/top?dimension=link&sort=visitors&period=today")
            let visitors = try #require(links["items"]?.arrayValue).compactMap { $0["visitors"]?.stringValue ?? $0["visitors"]?.serialized }
            #expect(visitors == ["4", "2"]) // vA tapped both links: 6 in the rows, 5 in all
            #expect(links["total"]?.serialized == #"{"hits":6,"visitors":5}"#)
            #expect(links["visitorsAddUp"] == .bool(false))
            #expect(links["unknown"]?.serialized == #"{"hits":0,"visitors":0}"#)
            // Paths and referrers: every hit has a path; none of these has a referrer, so all are unknown there.
            let referrers = try Self.json(fixture, "/v1/analytics/top?dimension=referrer&period=today")
            #expect(referrers["unknown"]?["hits"]?.serialized == "6" && referrers["total"]?["hits"]?.serialized == "6")
        }
    }

    /// A link's analytics tab asks for its browsers, its destinations and what its visitors got: counted, not refused.
    @Test func aLinksBrowsersDestinationsAndServed() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service)
            let link = try Self.created(
                fixture,
                #"""
                {"domain":"\#(fixture.host)","slug":"spring","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":7}}}
                """#)
            let id = try #require(link["id"]?.stringValue)
            for agent in [LandingTests.Agent.iPhone, LandingTests.Agent.chrome] {
                _ = try LandingTests.click(service, "/spring", agent: agent)
            }
            #expect(eventually { service.application.hits.counters.written == 2 })
            let browsers = try Self.json(fixture, "/v1/analytics/top?dimension=browser&link=\(id)&period=today")
            #expect(try #require(browsers["total"]?["hits"]).serialized == "2")
            let destinations = try #require(
                try Self.json(fixture, "/v1/analytics/top?dimension=destination&link=\(id)&period=today")["items"]?.arrayValue)
            #expect(
                destinations.first?["destination"]?.stringValue == "widgetDetail"
                    && destinations.first?["appName"]?.stringValue == "Widgets")
            let summary = try Self.json(fixture, "/v1/analytics/summary?link=\(id)&period=today")
            #expect(summary["byServed"]?["landing"]?.serialized == "1")
            #expect(summary["byOutcome"]?["open_app"]?.serialized == "2")
        }
    }

    /// The audit log names each resource as people know it, and narrows to one link or one webhook subscription.
    @Test func auditNamesAndFilters() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try LandingTests.fixture(service)
            let key = try service.key(workspace: "acme", scope: .admin)
            let spring = try #require(
                try Self.created(fixture, #"{"domain":"\#(fixture.host)","slug":"spring","url":"https://www.example.com/s"}"#)["id"]?
                    .stringValue)
            _ = try Self.created(fixture, #"{"domain":"\#(fixture.host)","slug":"summer","url":"https://www.example.com/t"}"#)
            try Fixture.expect(200, service.request("PATCH", "/v1/links/\(spring)", key: fixture.key, json: #"{"name":"Spring"}"#))
            let hook = try #require(
                try Fixture.expect(
                    201,
                    service.request(
                        "POST", "/v1/webhooks", key: key,
                        json: #"{"url":"http://127.0.0.1:9/hooks","events":["link.created"]}"#)
                ).json["id"]?.stringValue)
            func entries(_ query: String) throws -> [String] {
                try #require(try Self.json(fixture, "/v1/audit?\(query)")["items"]?.arrayValue).map {
                    "\($0["action"]?.stringValue ?? "-") \($0["resourceType"]?.stringValue ?? "-") \($0["resourceName"]?.stringValue ?? "null")"
                }
            }
            #expect(try entries("link=\(spring)") == ["update link \(fixture.host)/spring", "create link \(fixture.host)/spring"])
            // A secret's rotation records only that it happened: the webhook is named from before it.
            try Fixture.expect(200, service.request("POST", "/v1/webhooks/\(hook)/rotate-secret", key: key))
            #expect(
                try entries("webhook=\(hook)") == ["update webhook http://127.0.0.1:9/hooks", "create webhook http://127.0.0.1:9/hooks"])
            let everything = try entries("limit=200")
            #expect(everything.contains("create app Widgets (iOS)") && everything.contains("create app Widgets (Android)"))
            #expect(everything.contains("create destination Widget (widgetDetail) · Widgets (iOS)"))
            #expect(try service.request("GET", "/v1/audit?link=nope", key: fixture.key).status == 400)
        }
    }
}
