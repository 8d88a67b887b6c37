import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// Countries, devices and unique visitors per link and campaign, periods with the one before, and names next to ids
/// (docs/HITS.md, "Analytics").
@Suite("Analytics by visitor, period and name")
struct AnalyticsDimensionsTests {
    /// Taps of acme's visitors (all clicks):
    ///
    /// | visitor | when (UTC)                  | country | os      | browser       | device  | link | campaign |
    /// | vA      | 11-20 10:00, 10:30, 14:00   | DE      | iOS     | Mobile Safari | mobile  | L1   | spring   |
    /// | vB      | 11-20 11:00                 | DE      | iOS     | Mobile Safari | mobile  | L1   | summer   |
    /// | vC      | 11-20 12:00                 | US      | Android | Chrome Mobile | mobile  | L2   | spring   |
    /// | vD      | 11-20 13:00                 | DE      | Windows | Chrome        | desktop | L1   | spring   |
    /// | vE      | 11-20 15:00 (a bot)         | DE      | Other   | Googlebot     | bot     | L1   | spring   |
    /// | vA      | 11-21 09:00                 | DE      | iOS     | Mobile Safari | mobile  | L1   | spring   |
    /// | vF      | 11-19 09:00 (period before) | DE      | iOS     | Mobile Safari | mobile  | L1   | spring   |
    struct Taps {
        let service: TestService
        let key: String
        let l1 = UUID(), l2 = UUID()
        static let range = "from=2026-11-20&to=2026-11-21"

        init(_ service: TestService) throws {
            self.service = service
            key = try service.key(workspace: "acme", scope: .read)
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
            }
            func at(_ text: String) -> Date { try! Date("2026-\(text):00Z", strategy: .iso8601) }
            let spring = Hit.Campaign(source: "newsletter", campaign: "spring"),
                summer = Hit.Campaign(source: "newsletter", campaign: "summer")
            func tap(
                _ visitor: String, _ time: String, _ country: String, _ os: String, _ browser: String, _ device: String,
                link: UUID, campaign: Hit.Campaign, bot: Bool = false
            ) -> Hit {
                .sample(
                    workspace: workspace, host: "a.example", path: "/x",
                    platform: os == "iOS" ? .ios : os == "Android" ? .android : .desktop,
                    isBot: bot, time: at(time), visitor: visitor, link: link, campaign: campaign, country: country, os: os,
                    browser: browser, device: device)
            }
            let iPhone = ("DE", "iOS", "Mobile Safari", "mobile")
            let hits = [
                tap("vA", "11-20T10:00", iPhone.0, iPhone.1, iPhone.2, iPhone.3, link: l1, campaign: spring),
                tap("vA", "11-20T10:30", iPhone.0, iPhone.1, iPhone.2, iPhone.3, link: l1, campaign: spring),
                tap("vB", "11-20T11:00", iPhone.0, iPhone.1, iPhone.2, iPhone.3, link: l1, campaign: summer),
                tap("vC", "11-20T12:00", "US", "Android", "Chrome Mobile", "mobile", link: l2, campaign: spring),
                tap("vD", "11-20T13:00", "DE", "Windows", "Chrome", "desktop", link: l1, campaign: spring),
                tap("vA", "11-20T14:00", iPhone.0, iPhone.1, iPhone.2, iPhone.3, link: l1, campaign: spring),
                tap("vE", "11-20T15:00", "DE", "Other", "Googlebot", "bot", link: l1, campaign: spring, bot: true),
                tap("vA", "11-21T09:00", iPhone.0, iPhone.1, iPhone.2, iPhone.3, link: l1, campaign: spring),
                tap("vF", "11-19T09:00", iPhone.0, iPhone.1, iPhone.2, iPhone.3, link: l1, campaign: spring),
            ]
            for hit in hits { service.application.hits.record(hit) }
            #expect(eventually { service.application.hits.counters.written == hits.count })
        }

        func json(_ path: String) throws -> JSONValue {
            let response = try service.request("GET", path, key: key)
            #expect(response.status == 200, "\(path): \(response.text)")
            return try response.json
        }

        /// `value hits/visitors` of each item, plus the previous period's when compared.
        func top(_ query: String) throws -> [String] {
            let answer = try json("/v1/analytics/top?\(Self.range)&\(query)")
            let dimension = answer["dimension"]?.stringValue ?? ""
            return answer["items"]?.arrayValue?.map { item in
                var text = "\(item[dimension]?.stringValue ?? "") \(item["hits"]?.serialized ?? "")/\(item["visitors"]?.serialized ?? "")"
                if let hits = item["previousHits"] { text += " before \(hits.serialized)/\(item["previousVisitors"]?.serialized ?? "")" }
                return text
            } ?? []
        }
    }

    /// "Which campaign brought the most unique iPhone visitors from Germany, compared with the period before":
    /// vA counts once a day (twice over the two days), however often it tapped.
    @Test func campaignsByUniqueVisitorsFromACountryOnADevice() throws {
        try TestService.with { service throws in
            let taps = try Taps(service)
            #expect(
                try taps.top("dimension=utm_campaign&sort=visitors&os=iOS&country=DE&device=mobile&compare=previous")
                    == ["spring 4/2 before 1/1", "summer 1/1 before 0/0"])
            let answer = try taps.json("/v1/analytics/top?\(Taps.range)&dimension=utm_campaign&os=iOS&country=DE&compare=previous")
            #expect(
                answer["previousFrom"]?.stringValue == "2026-11-18T00:00:00Z" && answer["previousTo"]?.stringValue == "2026-11-20T00:00:00Z"
            )
            #expect(answer["filters"]?.serialized == #"{"country":"DE","os":"iOS"}"#)
        }
    }

    /// Countries, OS, browsers and devices rank and group with hits and unique visitors; bots only when asked.
    @Test func countriesAndDevices() throws {
        try TestService.with { service throws in
            let taps = try Taps(service)
            #expect(try taps.top("dimension=country") == ["DE 6/4", "US 1/1"])
            #expect(try taps.top("dimension=os") == ["iOS 5/3", "Android 1/1", "Windows 1/1"])
            #expect(try taps.top("dimension=browser&country=DE") == ["Mobile Safari 5/3", "Chrome 1/1"])
            #expect(try taps.top("dimension=device") == ["mobile 6/4", "desktop 1/1"])
            #expect(try taps.top("dimension=device&includeBots=true") == ["mobile 6/4", "bot 1/1", "desktop 1/1"])
            // Per link: L1's visitors are vA, vB and vD on the 20th and vA again on the 21st.
            #expect(
                try taps.top("dimension=link&sort=visitors").map { $0.split(separator: " ").last.map(String.init) ?? "" } == ["6/4", "1/1"])

            let series = try taps.json("/v1/analytics/timeseries?\(Taps.range)&groupBy=device")
            let first = try #require(series["buckets"]?.arrayValue?.first)
            #expect(AnalyticsAPITests.groups(first) == ["mobile": "5", "desktop": "1"])
            #expect(first["groupVisitors"]?["mobile"]?.serialized == "3")
            #expect(first["visitors"]?.serialized == "4")
            #expect(series["visitors"]?.serialized == "5") // 4 on the 20th, vA on the 21st

            let german = try taps.json("/v1/analytics/summary?\(Taps.range)&country=DE&device=mobile")
            #expect(german["hits"]?.serialized == "5")
            #expect(german["uniqueVisitors"]?.serialized == "3")
            let compared = try taps.json("/v1/analytics/summary?\(Taps.range)&country=DE&compare=previous")
            #expect(compared["previous"]?.serialized == #"{"hits":1,"botHits":0,"uniqueVisitors":1}"#)
        }
    }

    /// Named periods are whole days in the time zone asked for, ending with today.
    @Test func periods() throws {
        try TestService.with { service throws in
            let key = try service.key(workspace: "acme", scope: .read)
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
            }
            service.application.hits.record(.sample(workspace: workspace, time: Date(), visitor: "now"))
            #expect(eventually { service.application.hits.counters.written == 1 })
            func summary(_ query: String) throws -> JSONValue {
                try Fixture.expect(200, service.request("GET", "/v1/analytics/summary?\(query)", key: key)).json
            }
            #expect(try summary("period=today")["hits"]?.serialized == "1")
            #expect(try summary("period=7d")["hits"]?.serialized == "1")
            #expect(try summary("period=yesterday")["hits"]?.serialized == "0")
            let today = try summary("period=today&compare=previous&tz=Asia/Tokyo")
            #expect(today["period"]?.stringValue == "today")
            #expect(today["from"]?.stringValue?.hasSuffix("T00:00:00+09:00") == true)
            #expect(today["previousTo"] == today["from"])
            let month = try summary("period=30d")
            let from = try #require(month["from"]?.stringValue.flatMap { try? Date($0, strategy: .iso8601) })
            let to = try #require(month["to"]?.stringValue.flatMap { try? Date($0, strategy: .iso8601) })
            #expect(to.timeIntervalSince(from) == 30 * 86_400)
        }
    }

    /// Top lists name what their ids stand for: the app, the rule's path and position, the link's slug, the
    /// destination type's title; a time series grouped by ids names them too.
    @Test func idsComeWithTheirNames() throws {
        try TestService.with { service throws in
            let fixture = try Fixture(service)
            let link = try fixture.createLink(
                """
                {"domain":"\(fixture.host)","slug":"spring","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":7}}}
                """
            ).json["id"]?.stringValue
            #expect(
                try service.request("GET", "/spring", headers: [("Host", fixture.host), ("User-Agent", HitsEndToEndTests.iPhone)]).status
                    < 400)
            #expect(
                try service.request("GET", "/widget/3", headers: [("Host", fixture.host), ("User-Agent", HitsEndToEndTests.iPhone)]).status
                    < 400)
            #expect(eventually { service.application.hits.counters.written == 2 })
            func items(_ query: String) throws -> [JSONValue] {
                try Fixture.expect(200, service.request("GET", "/v1/analytics/top?\(query)", key: fixture.key)).json["items"]?.arrayValue
                    ?? []
            }
            let links = try items("dimension=link")
            #expect(links.first?["link"]?.stringValue == link && links.first?["slug"]?.stringValue == "spring")
            let apps = try items("dimension=app")
            #expect(apps.first?["app"]?.stringValue == fixture.iosApp && apps.first?["name"]?.stringValue == "Widgets")
            #expect(apps.first?["hits"]?.serialized == "2")
            let rules = try items("dimension=rule")
            #expect(rules.first?["path"]?.stringValue == "/widget/{id}" && rules.first?["position"]?.serialized == "1")
            let destinations = try items("dimension=destination")
            #expect(
                destinations.first?["title"]?.stringValue == "Widget" && destinations.first?["destination"]?.stringValue == "widgetDetail")
            let csv = try service.request("GET", "/v1/analytics/top?dimension=app&format=csv", key: fixture.key)
            #expect(csv.text == "app,name,platform,hits,visitors\r\n\(fixture.iosApp),Widgets,ios,2,1\r\n")

            let series = try Fixture.expect(200, service.request("GET", "/v1/analytics/timeseries?groupBy=link", key: fixture.key)).json
            #expect(series["names"]?[link ?? ""]?["slug"]?.stringValue == "spring")
        }
    }
}
