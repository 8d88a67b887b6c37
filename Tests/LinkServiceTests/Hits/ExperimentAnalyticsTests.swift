import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// The results of targeting and experiments (issue 51, item 4; docs/HITS.md "Experiments"): `target` and `variant` as
/// analytics dimensions named with their link, the experiment view with its confidence intervals, and the webhooks
/// telling when an experiment starts or stops. Hits go through the real pipeline, answers through the real server.
@Suite("Experiment analytics")
struct ExperimentAnalyticsTests {
    static let page = "https://www.example.com/default"
    static let german = """
        [{"name":"germany","conditions":{"countries":["DE"]},"url":"https://www.example.com/de",
          "variants":[{"name":"a","weight":50,"url":"https://www.example.com/de-a"},{"name":"b","weight":50,"url":"https://www.example.com/de-b"}]}]
        """

    private static func create(_ fixture: Fixture, _ members: String) throws -> String {
        try #require(
            try fixture.createLink(
                """
                {"domain":"\(fixture.host)","url":"\(page)"\(members)}
                """
            ).json["id"]?.stringValue)
    }

    private static func workspace(_ service: TestService) throws -> UUID {
        try service.application.pool.withConnection {
            try $0.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
        }
    }

    /// Records `hits` through the pipeline and waits until they are written.
    private static func record(_ service: TestService, _ hits: [Hit]) throws {
        let before = service.application.hits.counters.written
        for hit in hits { service.application.hits.record(hit) }
        try waitUntil("the hits written") { service.application.hits.counters.written >= before + hits.count }
    }

    private static func json(_ fixture: Fixture, _ path: String) throws -> JSONValue {
        let response = try fixture.service.request("GET", path, key: fixture.key)
        guard response.status == 200 else { throw TestFailure("\(path): \(response.status) \(response.text)") }
        return try response.json
    }

    @Test func targetsAndVariantsAreDimensionsOfEveryMeasure() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let link = try Self.create(fixture, #","slug":"spring","name":"Spring sale","targets":"# + Self.german)
            let workspace = try Self.workspace(service)
            let at = try Date("2026-11-20T10:00:00Z", strategy: .iso8601)
            func tap(_ visitor: String, _ target: String?, _ variant: String?, _ country: String, _ os: String, _ served: Hit.Served) -> Hit
            {
                var hit = Hit.sample(
                    workspace: workspace, host: fixture.host, path: "/spring", platform: os == "iOS" ? .ios : .android, time: at,
                    visitor: visitor, served: served, link: UUID(uuidString: link)!, country: country, os: os,
                    browser: "Mobile Safari", device: "mobile")
                hit.target = target
                hit.variant = variant
                return hit
            }
            try Self.record(
                service,
                [
                    tap("vA", "germany", "a", "DE", "iOS", .landing), tap("vA", "germany", "a", "DE", "iOS", .landing),
                    tap("vB", "germany", "b", "DE", "Android", .store), tap("vC", "germany", "b", "AT", "iOS", .landing),
                    tap("vD", nil, nil, "US", "iOS", .webPage),
                ])
            let range = "from=2026-11-20&to=2026-11-20"
            let variants = try Self.json(fixture, "/v1/analytics/top?dimension=variant&link=\(link)&\(range)")
            let items = try #require(variants["items"]?.arrayValue)
            #expect(
                items.map { "\($0["variant"]?.stringValue ?? "-") \($0["hits"]!.serialized) \($0["visitors"]!.serialized)" }.sorted() == [
                    "a 2 1", "b 2 2",
                ], "\(variants)")
            #expect(items.first?["link"]?.stringValue == link)
            #expect(
                items.compactMap { $0["label"]?.stringValue }.sorted() == [
                    "Spring sale · germany (target) · a (variant)",
                    "Spring sale · germany (target) · b (variant)",
                ], "\(variants)")
            #expect(variants["unknown"]?["hits"] == .number("1"), "the hits no variant decided")
            let targets = try Self.json(fixture, "/v1/analytics/top?dimension=target&\(range)")
            #expect(targets["items"]?.arrayValue?.first?["label"]?.stringValue == "Spring sale · germany (target)", "\(targets)")
            #expect(targets["items"]?.arrayValue?.first?["hits"] == .number("4"))
            // Countries and OS per variant (the target audience cube), what was served per variant, the summary.
            let countries = try Self.json(fixture, "/v1/analytics/top?dimension=country&variant=b&link=\(link)&\(range)")
            #expect(
                countries["items"]?.arrayValue?.map { "\($0["country"]?.stringValue ?? "-") \($0["hits"]!.serialized)" } == [
                    "AT 1", "DE 1",
                ], "\(countries)")
            #expect(countries["filters"]?["variant"]?.stringValue == "b")
            let systems = try Self.json(fixture, "/v1/analytics/top?dimension=os&target=germany&\(range)")
            #expect(
                systems["items"]?.arrayValue?.map { "\($0["os"]?.stringValue ?? "-") \($0["hits"]!.serialized)" } == [
                    "iOS 3", "Android 1",
                ], "\(systems)")
            let served = try Self.json(fixture, "/v1/analytics/top?dimension=served&variant=a&\(range)")
            #expect(
                served["items"]?.arrayValue?.map { "\($0["served"]?.stringValue ?? "-") \($0["hits"]!.serialized)" } == ["landing 2"],
                "\(served)")
            let summary = try Self.json(fixture, "/v1/analytics/summary?variant=b&link=\(link)&\(range)")
            #expect(summary["hits"] == .number("2") && summary["uniqueVisitors"] == .number("2"), "\(summary)")
            #expect(summary["byServed"]?["store"] == .number("1"), "\(summary)")
            let series = try Self.json(fixture, "/v1/analytics/timeseries?interval=day&groupBy=variant&link=\(link)&\(range)")
            let groups = series["buckets"]?.arrayValue?.first?["groups"]?.objectMembers ?? []
            #expect(
                Dictionary(uniqueKeysWithValues: groups.map { ($0.key, $0.value) }) == [
                    "(none)": .number("1"), "a": .number("2"), "b": .number("2"),
                ], "\(series)")
            // An empty name is refused, as every filter's bad value is.
            #expect(try service.request("GET", "/v1/analytics/top?dimension=os&variant=", key: fixture.key).status == 400)
        }
    }

    @Test func theExperimentViewComparesEachVariantWithTheControl() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let link = try Self.create(
                fixture,
                """
                ,"slug":"split","targets":\(Self.german),
                "variants":[{"name":"control","weight":50,"url":"https://www.example.com/c"},{"name":"treat","weight":50,"url":"https://www.example.com/t"}]
                """)
            let workspace = try Self.workspace(service)
            func tap(_ visitor: String, _ target: String?, _ variant: String, bot: Bool = false) -> Hit {
                var hit = Hit.sample(
                    workspace: workspace, host: fixture.host, path: "/split", isBot: bot, visitor: visitor, link: UUID(uuidString: link)!)
                hit.target = target
                hit.variant = variant
                return hit
            }
            var hits: [Hit] = []
            // Control: 40 visitors, one click each. Treatment: 40 visitors, half of them clicking twice.
            for n in 0..<40 { hits.append(tap("c\(n)", nil, "control")) }
            for n in 0..<40 { hits += Array(repeating: tap("t\(n)", nil, "treat"), count: n < 20 ? 2 : 1) }
            hits.append(tap("bot", nil, "treat", bot: true))
            for n in 0..<3 { hits.append(tap("g\(n)", "germany", "a")) }
            for n in 0..<2 { hits.append(tap("h\(n)", "germany", "b")) }
            try Self.record(service, hits)
            let view = try Self.json(fixture, "/v1/links/\(link)/experiment")
            #expect(view["method"]?["confidence"] == .number("0.95") && view["unit"]?.stringValue == "visitor-day", "\(view)")
            let own = try #require(view["experiments"]?.arrayValue?.first)
            #expect(own["target"] == .null)
            let control = try #require(own["variants"]?.arrayValue?.first),
                treat = try #require(own["variants"]?.arrayValue?.dropFirst().first)
            #expect(control["name"]?.stringValue == "control" && control["control"] == .bool(true))
            #expect(control["visitors"] == .number("40") && control["clicks"] == .number("40") && control["difference"] == .null)
            #expect(treat["visitors"] == .number("40") && treat["clicks"] == .number("60"), "bots are not counted: \(treat)")
            #expect(treat["clicksPerVisitor"] == .number("1.5000"))
            // 0.5 ± 1.96 · √(0.2564 / 40 + 0 / 40).
            #expect(
                treat["difference"] == .object(["estimate": .number("0.5000"), "low": .number("0.3431"), "high": .number("0.6569")]),
                "\(treat)")
            #expect(treat["differenceUnavailable"] == .null)
            // No events yet: no conversions, each step's rate 0 per click with its interval (docs/EVENTS.md, "Funnels").
            let steps = treat["conversions"]?["steps"]?.arrayValue ?? []
            #expect(steps.map { $0["step"]?.stringValue ?? "" } == ["install", "open"] && steps.allSatisfy { $0["count"] == .number("0") })
            #expect(steps.first?["rate"] == .number("0.0000") && steps.first?["interval"]?["low"] == .number("0.0000"), "\(steps)")
            let germany = try #require(view["experiments"]?.arrayValue?.dropFirst().first)
            #expect(germany["label"]?.stringValue == "split · germany (target)")
            let b = try #require(germany["variants"]?.arrayValue?.dropFirst().first)
            #expect(b["name"]?.stringValue == "b" && b["visitors"] == .number("2") && b["difference"] == .null)
            #expect(b["differenceUnavailable"]?.stringValue?.hasPrefix("too few visitors") == true, "\(b)")
            #expect(b["label"]?.stringValue == "split · germany (target) · b (variant)")
            #expect(try service.request("GET", "/v1/links/\(UUID().canonicalText)/experiment", key: fixture.key).status == 404)
        }
    }

    @Test func anIntervalNeedsEnoughVisitorsAndSomeVariation() {
        typealias Sample = ExperimentComparison.Sample
        let ones = Sample(visitors: 30, clicks: 30, squares: 30)
        // Too few visitors in one arm; no variation in either.
        #expect(throws: ExperimentComparison.Unavailable.self) {
            try ExperimentComparison.compare(Sample(visitors: 29, clicks: 40, squares: 62), with: ones).get()
        }
        #expect(throws: ExperimentComparison.Unavailable.self) { try ExperimentComparison.compare(ones, with: ones).get() }
        // A variant clicking less than the control: the interval lies below zero, symmetric around the estimate.
        let comparison = try? ExperimentComparison.compare(ones, with: Sample(visitors: 30, clicks: 45, squares: 75)).get()
        #expect(
            comparison.map { $0.estimate == -0.5 && $0.high < 0 && abs(($0.low + $0.high) / 2 + 0.5) < 1e-9 } == true,
            "\(String(describing: comparison))")
    }

    @Test func webhooksTellWhenAnExperimentStartsAndStops() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try Fixture(service)
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/webhooks", key: fixture.key,
                    json: #"{"url":"http://127.0.0.1:9/hooks","events":["link.experiment.started","link.experiment.stopped"]}"#))
            func events() throws -> [String] {
                try service.application.pool.withConnection { connection in
                    try connection.query("SELECT event_type, payload::text FROM webhook_outbox ORDER BY id").map { row in
                        let (type, payload) = try row.decode((String, String).self)
                        let data = try JSONValue.parse(payload)["data"]!
                        return
                            "\(type) \(data["target"]?.stringValue ?? "-") \(data["variant"]?.stringValue ?? "-") \(data["reason"]?.stringValue ?? "?")"
                    }
                }
            }
            _ = try Self.create(fixture, #","slug":"plain""#)
            #expect(try events().isEmpty, "a link without variants starts nothing")
            let link = try Self.create(fixture, #","slug":"exp","targets":"# + Self.german)
            #expect(try events() == ["link.experiment.started germany - created"])
            let stopped = Self.german.replacingOccurrences(
                of: #""weight":50,"url":"https://www.example.com/de-b"}"#,
                with: #""weight":50,"url":"https://www.example.com/de-b","stopped":true}"#)
            try Fixture.expect(200, service.request("PATCH", "/v1/links/\(link)", key: fixture.key, json: #"{"targets":"# + stopped + "}"))
            try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/links/\(link)", key: fixture.key,
                    json: """
                        {"variants":[{"name":"x","weight":1,"url":"https://www.example.com/x"},{"name":"y","weight":1,"url":"https://www.example.com/y"}]}
                        """))
            try Fixture.expect(200, service.request("PATCH", "/v1/links/\(link)", key: fixture.key, json: #"{"targets":null}"#))
            try Fixture.expect(204, service.request("DELETE", "/v1/links/\(link)", key: fixture.key))
            try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/links/bulk?acknowledgeMoves=true", key: fixture.key,
                    json: """
                        [{"domain":"\(fixture.host)","slug":"bulk","url":"\(Self.page)","targets":\(Self.german)}]
                        """))
            #expect(
                try events() == [
                    "link.experiment.started germany - created",
                    "link.experiment.stopped germany b variantStopped",
                    "link.experiment.started - - added",
                    "link.experiment.stopped germany - removed",
                    "link.experiment.stopped - - linkDeleted",
                    "link.experiment.started germany - created",
                ])
        }
    }
}
