import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// The issue's "done when": someone clicks and resolves a few links and sees them, correctly classified,
/// in the analytics moments later.
@Suite("Hits end to end")
struct HitsEndToEndTests {
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
    static let pixel =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
    static let desktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"

    @Test func clicksAndResolvesAppearInTheAnalytics() throws {
        try TestService.with { service throws in
            let fixture = try Fixture(service)
            func click(_ path: String, _ agent: String, method: String = "GET") throws {
                _ = try service.request(method, path, headers: [("Host", "links.example.com"), ("User-Agent", agent)])
            }
            try click("/widget/1", Self.iPhone)
            try click("/widget/1", Self.iPhone) // the same visitor again
            try click("/widget/2", Self.pixel)
            try click("/about", Self.desktop) // claimed by no app
            try click("/widget/1", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)")
            try click("/widget/1", Self.iPhone, method: "HEAD") // HEAD: a bot, whatever it claims to be
            try click("/widget/1", "curl/8.5.0") // a tool "clicking": a bot
            let url = "https://links.example.com/widget/42".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let resolved = try service.request("GET", "/v1/resolve?url=\(url)", key: fixture.key)
            #expect(resolved.status == 200)
            let resolvedRule = try #require(try resolved.json["rule"]?["id"]?.stringValue)
            let started = Date()
            #expect(eventually { service.application.hits.counters.written == 8 })
            #expect(Date().timeIntervalSince(started) < 2)

            // Taps on links by default; the API resolve counted apart.
            let clicks = try service.request("GET", "/v1/analytics/summary", key: fixture.key).json
            #expect(clicks["source"]?.stringValue == "click")
            #expect(clicks["hits"]?.serialized == "4")
            #expect(clicks["bySource"]?.serialized == #"{"resolve":0,"click":4,"claim":0}"#)
            #expect(clicks["uniqueVisitors"]?.serialized == "3") // iPhone, Pixel, desktop
            let summary = try service.request("GET", "/v1/analytics/summary?source=all", key: fixture.key).json
            #expect(summary["hits"]?.serialized == "5")
            #expect(summary["botHits"]?.serialized == "3")
            #expect(summary["byOutcome"]?["no_match"]?.serialized == "1")
            #expect(summary["bySource"]?.serialized == #"{"resolve":1,"click":4,"claim":0}"#)
            #expect(summary["byPlatform"]?.serialized == #"{"ios":2,"android":1,"desktop":1,"other":1}"#)
            #expect(summary["uniqueVisitors"]?.serialized == "4") // iPhone, Pixel, desktop, the resolving backend

            let broken = try service.request("GET", "/v1/analytics/top?dimension=path&outcome=no_match", key: fixture.key).json
            #expect(broken["items"]?.arrayValue?.map { $0["path"]?.stringValue ?? "" } == ["/about"])
            let series = try service.request(
                "GET", "/v1/analytics/timeseries?interval=hour&groupBy=outcome&includeBots=true&source=all", key: fixture.key
            ).json
            #expect(series["total"]?.serialized == "8")
            let destinations = try service.request("GET", "/v1/analytics/top?dimension=destination", key: fixture.key).json
            #expect(destinations["items"]?.arrayValue?.first?["destination"]?.stringValue == "widgetDetail")
            // The resolve hit records the rule the answer named.
            let byRule = try service.request("GET", "/v1/analytics/timeseries?interval=day&groupBy=rule&source=resolve", key: fixture.key)
                .json
            let groups = byRule["buckets"]?.arrayValue?.compactMap { bucket -> [String]? in
                guard case .object(let members)? = bucket["groups"] else { return nil }
                return members.map(\.key)
            }.flatMap { $0 }
            #expect(groups == [resolvedRule])
        }
    }
}
