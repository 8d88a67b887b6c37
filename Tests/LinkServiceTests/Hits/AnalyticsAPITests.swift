import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// The analytics endpoints against a small hand-counted data set (see `Dataset`).
@Suite("Analytics API")
struct AnalyticsAPITests {
    /// Nine hits of `acme` over two UTC days and one of `other`:
    ///
    /// | # | time (UTC)       | source   | platform | outcome   | host      | path      | rule | dest    | bot | visitor |
    /// | 1 | 11-20 10:15      | click    | ios      | open_app  | a.example | /w/1      | R1   | widget  |     | v1 (ref news.example) |
    /// | 2 | 11-20 10:45      | click    | ios      | open_app  | a.example | /w/2      | R1   | widget  |     | v1 |
    /// | 3 | 11-20 11:05      | resolve  | android  | open_app  | a.example | /p/9      | R2   | profile |     | v2 |
    /// | 4 | 11-20 11:10      | click    | desktop  | no_match  | a.example | /old/x    |      |         |     | v3 |
    /// | 5 | 11-20 11:20      | click    | desktop  | no_match  | a.example | /old/x    |      |         |     | v4 |
    /// | 6 | 11-20 11:30      | click    | other    | no_match  | b.example | /missing  |      |         |     | v5 |
    /// | 7 | 11-20 12:00      | click    | other    | open_app  | a.example | /w/1      | R1   | widget  | bot | v6 |
    /// | 8 | 11-21 03:00      | click    | ios      | open_app  | a.example | /w/3      | R1   | widget  |     | v1 |
    /// | 9 | 11-21 23:30      | click    | android  | excluded  | a.example | /w/admin  |      |         |     | v7 |
    /// | o | 11-20 10:00      | click    | ios      | no_match  | a.other   | /secret   | (workspace other)            |
    /// Hits 1-3 and 7-9 are of app A.
    struct Dataset {
        let service: TestService
        let acme: String
        let other: String
        let app = UUID()
        let rule1 = UUID()
        let rule2 = UUID()

        init(_ service: TestService) throws {
            self.service = service
            acme = try service.key(workspace: "acme", scope: .read)
            other = try service.key(workspace: "other", scope: .read)
            let ids = try service.application.pool.withConnection { connection in
                try connection.query("SELECT name, id FROM workspaces").map { try $0.decode((String, UUID).self) }
            }
            let workspace = Dictionary(uniqueKeysWithValues: ids)
            let w = workspace["acme"]!
            func at(_ text: String) -> Date { try! Date("2026-\(text):00Z", strategy: .iso8601) }
            let hits: [Hit] = [
                .sample(
                    workspace: w, host: "a.example", path: "/w/1", time: at("11-20T10:15"), app: app, rule: rule1, destination: "widget",
                    referrer: "news.example", visitor: "v1"),
                .sample(
                    workspace: w, host: "a.example", path: "/w/2", time: at("11-20T10:45"), app: app, rule: rule1, destination: "widget",
                    visitor: "v1"),
                .sample(
                    workspace: w, host: "a.example", path: "/p/9", source: .resolve, platform: .android, time: at("11-20T11:05"), app: app,
                    rule: rule2, destination: "profile", visitor: "v2"),
                .sample(
                    workspace: w, host: "a.example", path: "/old/x", outcome: .noMatch, platform: .desktop, time: at("11-20T11:10"),
                    visitor: "v3"),
                .sample(
                    workspace: w, host: "a.example", path: "/old/x", outcome: .noMatch, platform: .desktop, time: at("11-20T11:20"),
                    visitor: "v4"),
                .sample(
                    workspace: w, host: "b.example", path: "/missing", outcome: .noMatch, platform: .other, time: at("11-20T11:30"),
                    visitor: "v5"),
                .sample(
                    workspace: w, host: "a.example", path: "/w/1", platform: .other, isBot: true, time: at("11-20T12:00"), app: app,
                    rule: rule1, destination: "widget", visitor: "v6"),
                .sample(
                    workspace: w, host: "a.example", path: "/w/3", time: at("11-21T03:00"), app: app, rule: rule1, destination: "widget",
                    visitor: "v1"),
                .sample(
                    workspace: w, host: "a.example", path: "/w/admin", outcome: .excluded, platform: .android, time: at("11-21T23:30"),
                    app: app, visitor: "v7"),
                .sample(
                    workspace: workspace["other"]!, host: "a.other", path: "/secret", outcome: .noMatch, time: at("11-20T10:00"),
                    visitor: "v9"),
            ]
            for hit in hits { service.application.hits.record(hit) }
            #expect(eventually { service.application.hits.counters.written == hits.count })
        }

        /// The data set's figures count every source (clicks and resolves): `source=all` unless the path names a
        /// source (the default, clicks only, is checked by `clicksOnlyByDefault`).
        func get(_ path: String, key: String? = nil, csv: Bool = false) throws -> TestResponse {
            try service.request("GET", AnalyticsAPITests.everySource(path), key: key ?? acme, headers: csv ? [("Accept", "text/csv")] : [])
        }

        func json(_ path: String, key: String? = nil) throws -> JSONValue {
            let response = try get(path, key: key)
            #expect(response.status == 200, "\(path): \(response.text)")
            return try response.json
        }
    }

    static let range = "from=2026-11-20&to=2026-11-21"

    /// `path` counting every source (`source=all`) unless it names one: these data sets mix clicks and resolves.
    static func everySource(_ path: String) -> String {
        path.contains("source=") ? path : path + (path.contains("?") ? "&" : "?") + "source=all"
    }

    static func groups(_ bucket: JSONValue?) -> [String: String] {
        guard case .object(let members)? = bucket?["groups"] else { return [:] }
        return Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value.serialized) })
    }

    @Test func dailySeriesByOutcomeExcludesBotsByDefault() throws {
        try TestService.with { service throws in
            let data = try Dataset(service)
            let series = try data.json("/v1/analytics/timeseries?\(Self.range)&interval=day&groupBy=outcome")
            let buckets = try #require(series["buckets"]?.arrayValue)
            #expect(buckets.count == 2)
            #expect(buckets[0]["start"]?.stringValue == "2026-11-20T00:00:00Z")
            #expect(buckets[0]["total"]?.serialized == "6")
            #expect(Self.groups(buckets[0]) == ["open_app": "3", "no_match": "3"])
            #expect(Self.groups(buckets[1]) == ["open_app": "1", "excluded": "1"])
            #expect(series["total"]?.serialized == "8")

            let withBots = try data.json("/v1/analytics/timeseries?\(Self.range)&groupBy=outcome&includeBots=true")
            #expect(Self.groups(withBots["buckets"]?.arrayValue?[0]) == ["open_app": "4", "no_match": "3"])
        }
    }

    @Test func groupingsAndFilters() throws {
        try TestService.with { service throws in
            let data = try Dataset(service)
            let base = "/v1/analytics/timeseries?\(Self.range)"
            let platforms = try data.json("\(base)&groupBy=platform")
            #expect(Self.groups(platforms["buckets"]?.arrayValue?[0]) == ["ios": "2", "android": "1", "desktop": "2", "other": "1"])
            let rules = try data.json("\(base)&groupBy=rule")
            #expect(
                Self.groups(rules["buckets"]?.arrayValue?[0]) == [
                    data.rule1.uuidString.lowercased(): "2", data.rule2.uuidString.lowercased(): "1", "(none)": "3",
                ])
            let hosts = try data.json("\(base)&groupBy=host")
            #expect(Self.groups(hosts["buckets"]?.arrayValue?[0]) == ["a.example": "5", "b.example": "1"])
            let destinations = try data.json("\(base)&groupBy=destination")
            #expect(Self.groups(destinations["buckets"]?.arrayValue?[0]) == ["widget": "2", "profile": "1", "(none)": "3"])
            #expect(try data.json("\(base)&host=b.example")["total"]?.serialized == "1")
            #expect(try data.json("\(base)&outcome=no_match")["total"]?.serialized == "3")
            #expect(try data.json("\(base)&source=resolve")["total"]?.serialized == "1")
            #expect(try data.json("\(base)&app=\(data.app)")["total"]?.serialized == "5")
            #expect(
                try data.json("\(base)&app=\(data.app)&groupBy=app")["buckets"]?.arrayValue?[1]["groups"]?[
                    data.app.uuidString.lowercased()]?.serialized == "2")
        }
    }

    @Test func hourlyBucketsAndTimeZones() throws {
        try TestService.with { service throws in
            let data = try Dataset(service)
            let hourly = try data.json("/v1/analytics/timeseries?from=2026-11-20&to=2026-11-20&interval=hour")
            let buckets = try #require(hourly["buckets"]?.arrayValue)
            #expect(buckets.count == 24)
            #expect(buckets[10]["start"]?.stringValue == "2026-11-20T10:00:00Z")
            #expect(
                buckets.map { $0["total"]?.serialized ?? "-" }.joined(separator: ",")
                    == "0,0,0,0,0,0,0,0,0,0,2,4,0,0,0,0,0,0,0,0,0,0,0,0")
            // New York is UTC-5 in November: hit 8 (03:00 UTC on the 21st) falls on the evening of the 20th.
            let newYork = try data.json("/v1/analytics/timeseries?\(Self.range)&tz=America/New_York")
            let days = try #require(newYork["buckets"]?.arrayValue)
            #expect(days.map { $0["start"]?.stringValue ?? "" } == ["2026-11-20T00:00:00-05:00", "2026-11-21T00:00:00-05:00"])
            #expect(days.map { $0["total"]?.serialized ?? "" } == ["7", "1"])
            #expect(newYork["timeZone"]?.stringValue == "America/New_York")
        }
    }

    @Test func topLists() throws {
        try TestService.with { service throws in
            let data = try Dataset(service)
            let paths = try data.json("/v1/analytics/top?\(Self.range)&dimension=path&outcome=no_match")
            let items = try #require(paths["items"]?.arrayValue)
            #expect(
                items.map { "\($0["host"]?.stringValue ?? "") \($0["path"]?.stringValue ?? "") \($0["hits"]?.serialized ?? "")" }
                    == ["a.example /old/x 2", "b.example /missing 1"])
            let destinations = try data.json("/v1/analytics/top?\(Self.range)&dimension=destination")["items"]?.arrayValue ?? []
            #expect(
                destinations.map { "\($0["destination"]?.stringValue ?? "") \($0["hits"]?.serialized ?? "")" } == ["widget 3", "profile 1"])
            let withBots =
                try data.json("/v1/analytics/top?\(Self.range)&dimension=destination&includeBots=true")["items"]?.arrayValue ?? []
            #expect(withBots.first?["hits"]?.serialized == "4")
            let rules = try data.json("/v1/analytics/top?\(Self.range)&dimension=rule")["items"]?.arrayValue ?? []
            #expect(
                rules.map { $0["rule"]?.stringValue ?? "" } == [data.rule1.uuidString.lowercased(), data.rule2.uuidString.lowercased()])
            let referrers = try data.json("/v1/analytics/top?\(Self.range)&dimension=referrer")["items"]?.arrayValue ?? []
            #expect(referrers.map { "\($0["referrer"]?.stringValue ?? "") \($0["hits"]?.serialized ?? "")" } == ["news.example 1"])
            let limited = try data.json("/v1/analytics/top?\(Self.range)&dimension=path&limit=1")["items"]?.arrayValue ?? []
            #expect(limited.count == 1)

            // Once folded into the hourly and daily rows (read for the whole days), the lists are the same, and a hit
            // arriving late for a finished day still counts.
            try service.application.pool.withConnection { try HitFold.fold(on: $0) }
            #expect(
                try service.application.pool.withConnection {
                    try $0.query("SELECT count(DISTINCT day)::int8 FROM hit_top_daily").first!.decode(0, as: Int.self)
                } == 2)
            let folded = try data.json("/v1/analytics/top?\(Self.range)&dimension=path&outcome=no_match")
            #expect(folded["items"] == paths["items"])
            let late = try data.json("/v1/analytics/top?from=2026-11-20T11:00:00Z&to=2026-11-21&dimension=path&outcome=no_match")
            #expect(late["items"] == paths["items"]) // a partial first day comes from the hourly rows
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
            }
            service.application.hits.record(
                .sample(
                    workspace: workspace, host: "b.example", path: "/missing", outcome: .noMatch, platform: .other,
                    time: try Date("2026-11-20T18:00:00Z", strategy: .iso8601)))
            #expect(eventually { service.application.hits.counters.written == 11 })
            let after = try data.json("/v1/analytics/top?\(Self.range)&dimension=path&outcome=no_match")["items"]?.arrayValue ?? []
            #expect(after.map { $0["hits"]?.serialized ?? "" } == ["2", "2"])
        }
    }

    @Test func topListsOverCompactedWeeks() throws {
        try TestService.with { service throws in
            let data = try Dataset(service)
            // Monday 2026-11-16 to Sunday 2026-11-22 holds every hit of the data set.
            let week = "from=2026-11-16&to=2026-11-22"
            func list(_ query: String) throws -> [String] {
                try data.json("/v1/analytics/top?\(query)")["items"]?.arrayValue?.map {
                    "\($0["host"]?.stringValue ?? "") \($0["path"]?.stringValue ?? "") \($0["hits"]?.serialized ?? "")"
                } ?? []
            }
            let everyPath = [
                "a.example /old/x 2", "a.example /w/1 2", "a.example /p/9 1", "a.example /w/2 1", "a.example /w/3 1",
                "a.example /w/admin 1", "b.example /missing 1",
            ]
            #expect(try list("\(week)&dimension=path&includeBots=true") == everyPath)

            // The week is over (the tests run later), so maintenance folds its days' rows and compacts the week.
            _ = try service.application.hits.store.maintain()
            func number(_ sql: String) throws -> Int {
                try service.application.pool.withConnection { try $0.query(Query(unsafeSQL: sql)).first!.decode(0, as: Int.self) }
            }
            #expect(try number("SELECT count(*)::int8 FROM hit_top_weeks WHERE week = '2026-11-16'") == 1)
            #expect(try number("SELECT count(*)::int8 FROM hit_top_weeks") == 1)
            // Ten hits in the week (nine of acme, one of other), counted once per path.
            #expect(
                try number(
                    "SELECT sum(human_resolve + human_click + bot_resolve + bot_click)::int8 FROM hit_top_weekly WHERE dimension = 'path'")
                    == 10)
            #expect(try number("SELECT sum(human_click)::int8 FROM hit_top_weekly WHERE dimension = 'referrer'") == 1)
            #expect(try list("\(week)&dimension=path&includeBots=true") == everyPath)
            #expect(
                try list("\(week)&dimension=path") == [
                    "a.example /old/x 2", "a.example /p/9 1", "a.example /w/1 1", "a.example /w/2 1",
                    "a.example /w/3 1", "a.example /w/admin 1", "b.example /missing 1",
                ])
            // Partial days around the week come from the hourly rows.
            #expect(try list("from=2026-11-15T22:00:00Z&to=2026-11-23T01:00:00Z&dimension=path&includeBots=true") == everyPath)

            // A hit arriving late for a day without hits (so not compacted) of the compacted week still counts.
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
            }
            service.application.hits.record(
                .sample(
                    workspace: workspace, host: "b.example", path: "/missing", outcome: .noMatch, platform: .other,
                    time: try Date("2026-11-18T09:00:00Z", strategy: .iso8601)))
            #expect(eventually { service.application.hits.counters.written == 11 })
            #expect(try list("\(week)&dimension=path&outcome=no_match") == ["a.example /old/x 2", "b.example /missing 2"])
            #expect(try list("from=2026-11-18&to=2026-11-18&dimension=path&outcome=no_match") == ["b.example /missing 1"])
            // Folded, it is in the compacted week's row too (the week is read from it alone), not pending twice.
            try service.application.pool.withConnection { try HitFold.fold(on: $0) }
            #expect(try number("SELECT count(*)::int8 FROM hit_top_pending") == 0)
            #expect(
                try number(
                    "SELECT sum(human_resolve + human_click + bot_resolve + bot_click)::int8 FROM hit_top_weekly WHERE dimension = 'path'")
                    == 11)
            #expect(try list("\(week)&dimension=path&outcome=no_match") == ["a.example /old/x 2", "b.example /missing 2"])
        }
    }

    @Test func topSourcesSplitARangeIntoWeeksDaysAndHours() {
        func at(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
        func day(_ text: String) -> Int64 { Int64(at("\(text)T00:00:00Z").timeIntervalSince1970 / 86_400) }
        let monday = day("2026-11-16")
        let from = at("2026-11-14T22:00:00Z"), to = at("2026-11-24T05:00:00Z")
        let all = TopSources(from: from, to: to, compactedWeeks: [monday])
        #expect(all.weeks == [Int(monday)])
        #expect(all.days == [Int(day("2026-11-15")), Int(day("2026-11-23"))])
        #expect(all.hours.map(\.start) == [Int(from.timeIntervalSince1970), Int(day("2026-11-24")) * 86_400])
        #expect(all.hours.map(\.end) == [Int(day("2026-11-15")) * 86_400, Int(to.timeIntervalSince1970)])
        #expect((all.from, all.to) == (Int(from.timeIntervalSince1970), Int(to.timeIntervalSince1970)))
        // Without the week, its days.
        let days = TopSources(from: from, to: to, compactedWeeks: [])
        #expect(days.weeks.isEmpty)
        #expect(days.days == (day("2026-11-15")...day("2026-11-23")).map(Int.init))
        #expect(days.hours.count == 2)
        // A range inside one day is one hour range.
        let short = TopSources(from: at("2026-11-16T01:00:00Z"), to: at("2026-11-16T03:00:00Z"), compactedWeeks: [monday])
        #expect(short.weeks.isEmpty && short.days.isEmpty && short.hours.count == 1)
    }

    /// A top list whose range reaches now reads its last UTC day whole, from the daily rows (no hit of that day is
    /// later than now yet); one ending before now keeps its last hours.
    @Test func aTopListReachingNowReadsItsLastDayWhole() throws {
        try withTestDatabase { parameters in
            let pool = ConnectionPool(parameters: parameters, maxConnections: 1, logger: .quiet)
            defer { pool.shutdown() }
            try Migrator(migrations: Migration.load(from: migrationsDirectory), logger: .quiet).migrate(using: pool)
            let connection = try Connection(parameters)
            func at(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
            let now = at("2026-11-24T05:20:00Z")
            let reaching = try TopSources.read(from: at("2026-11-22T10:00:00Z"), to: now, now: now, on: connection)
            #expect(
                reaching.days.map { $0 * 86_400 }
                    == [at("2026-11-23T00:00:00Z"), at("2026-11-24T00:00:00Z")].map { Int($0.timeIntervalSince1970) })
            #expect(reaching.hours.count == 1 && reaching.to == Int(at("2026-11-25T00:00:00Z").timeIntervalSince1970))
            let past = try TopSources.read(from: at("2026-11-22T10:00:00Z"), to: now, now: now.addingTimeInterval(1), on: connection)
            #expect(past.days.count == 1 && past.hours.count == 2 && past.to == Int(now.timeIntervalSince1970))
        }
    }

    /// A cube read takes its whole UTC days from the daily rows and the rest from hours; a range reaching now takes
    /// its last day whole (no later hit exists yet), unless a daily series would count that day's visitors in a
    /// bucket after its last one.
    @Test func aRangeReachingNowReadsItsLastDayWhole() throws {
        func at(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }
        func day(_ text: String) -> Int { Int(at("\(text)T00:00:00Z").timeIntervalSince1970 / 86_400) }
        let cube = AnalyticsCube.all[0]
        let from = at("2026-11-14T10:00:00Z"), to = at("2026-11-16T15:00:00Z")
        let past = TopSources.cubeRange(cube, from: from, to: to, now: at("2026-11-16T16:00:00Z"))
        #expect(past.days == [day("2026-11-15")])
        #expect(past.hours.map(\.start) == [Int(from.timeIntervalSince1970), day("2026-11-16") * 86_400])
        #expect(past.to == Int(to.timeIntervalSince1970))
        let present = TopSources.cubeRange(cube, from: from, to: to, now: at("2026-11-16T14:30:00Z"))
        #expect(present.days == [day("2026-11-15"), day("2026-11-16")])
        #expect(present.hours.map(\.start) == [Int(from.timeIntervalSince1970)])
        #expect(present.to == day("2026-11-17") * 86_400)
        // In New York the range's last hour is on the 15th, the 16th's noon (UTC) on the 16th: hours, as before.
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = TimeZone(identifier: "America/New_York")!
        let evening = TopSources.cubeRange(cube, from: from, to: at("2026-11-16T03:00:00Z"), days: newYork, now: at("2026-11-16T02:30:00Z"))
        #expect(evening.days == [day("2026-11-15")])
        #expect(
            evening.hours.last.map { [$0.start, $0.end] } == [
                day("2026-11-16") * 86_400, Int(at("2026-11-16T03:00:00Z").timeIntervalSince1970),
            ])
    }

    @Test func summary() throws {
        try TestService.with { service throws in
            let data = try Dataset(service)
            let summary = try data.json("/v1/analytics/summary?\(Self.range)")
            #expect(summary["hits"]?.serialized == "8")
            #expect(summary["botHits"]?.serialized == "1")
            #expect(summary["botShare"]?.serialized == "0.1111")
            #expect(summary["uniqueVisitors"]?.serialized == "7") // v1-v5 on the 20th, v1 and v7 on the 21st
            #expect(
                summary["byOutcome"]?.serialized
                    == #"{"open_app":4,"excluded":1,"no_match":3,"unknown_domain":0,"unknown_scheme":0,"invalid_param":0}"#)
            #expect(summary["bySource"]?.serialized == #"{"resolve":1,"click":7,"claim":0}"#)
            let withBots = try data.json("/v1/analytics/summary?\(Self.range)&includeBots=true")
            #expect(withBots["hits"]?.serialized == "9")
            #expect(withBots["uniqueVisitors"]?.serialized == "8")
            #expect(try data.json("/v1/analytics/summary?from=2026-11-21&to=2026-11-21")["hits"]?.serialized == "2")
        }
    }

    /// Taps on links are what every answer counts unless asked otherwise: the API resolve (hit 3) apart.
    @Test func clicksOnlyByDefault() throws {
        try TestService.with { service throws in
            let data = try Dataset(service)
            func summary(_ query: String) throws -> JSONValue {
                let response = try service.request("GET", "/v1/analytics/summary?\(Self.range)\(query)", key: data.acme)
                #expect(response.status == 200, "\(response.text)")
                return try response.json
            }
            let clicks = try summary("")
            #expect(clicks["source"]?.stringValue == "click")
            #expect(clicks["hits"]?.serialized == "7")
            #expect(clicks["bySource"]?.serialized == #"{"resolve":0,"click":7,"claim":0}"#)
            #expect(clicks["uniqueVisitors"]?.serialized == "6") // v2 only resolved
            #expect(try summary("&source=resolve")["hits"]?.serialized == "1")
            #expect(try summary("&source=all")["hits"]?.serialized == "8")
            let top = try service.request("GET", "/v1/analytics/top?\(Self.range)&dimension=destination", key: data.acme).json
            #expect(top["items"]?.arrayValue?.map { $0["destination"]?.stringValue ?? "" } == ["widget"])
        }
    }

    /// Clicks and resolves of rule URLs carrying `utm_*` items: each hit records its campaign, and the analytics
    /// rank, filter and group by each field.
    @Test func campaignsOfTappedURLs() throws {
        try TestService.with { service throws in
            let fixture = try Fixture(service)
            func click(_ target: String, _ agent: String = HitsEndToEndTests.iPhone) throws {
                let response = try service.request("GET", target, headers: [("Host", "links.example.com"), ("User-Agent", agent)])
                #expect(response.status < 400, "\(target): \(response.status)")
            }
            try click("/widget/1?utm_source=newsletter&utm_medium=email&utm_campaign=spring+sale&utm_content=hero")
            try click("/widget/2?tab=info&utm_campaign=spring%20sale&utm_source=twitter", HitsEndToEndTests.pixel)
            try click("/about?utm_campaign=winter") // claimed by no app: still a campaign tap
            try click("/widget/3") // no campaign
            let url = "https://links.example.com/widget/42?utm_campaign=winter&utm_term=shoes"
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            #expect(try service.request("GET", "/v1/resolve?url=\(url)", key: fixture.key).status == 200)
            #expect(eventually { service.application.hits.counters.written == 5 })

            let stored = try service.application.pool.withConnection { connection in
                try connection.query("SELECT path, utm_source, utm_medium, utm_campaign, utm_term, utm_content FROM hits ORDER BY id")
                    .map { try $0.decode((String, String?, String?, String?, String?, String?).self) }
            }
            #expect(
                stored.map { "\($0.0) \($0.1 ?? "-") \($0.2 ?? "-") \($0.3 ?? "-") \($0.4 ?? "-") \($0.5 ?? "-")" } == [
                    "/widget/1 newsletter email spring sale - hero", "/widget/2 twitter - spring sale - -", "/about - - winter - -",
                    "/widget/3 - - - - -", "/widget/42 - - winter shoes -",
                ])

            func json(_ path: String) throws -> JSONValue {
                let response = try service.request("GET", Self.everySource(path), key: fixture.key)
                #expect(response.status == 200, "\(path): \(response.text)")
                return try response.json
            }
            /// Each item's members but its names and visitors (checked elsewhere).
            func items(_ query: String) throws -> [String] {
                try json("/v1/analytics/top?\(query)")["items"]?.arrayValue?.map { item in
                    guard case .object(let members) = item else { return "" }
                    return members.filter { !["visitors", "title"].contains($0.key) }
                        .map { "\($0.key)=\($0.value.stringValue ?? $0.value.serialized)" }.joined(separator: " ")
                } ?? []
            }
            #expect(try items("dimension=utm_campaign") == ["utm_campaign=spring sale hits=2", "utm_campaign=winter hits=2"])
            #expect(try items("dimension=utm_campaign&source=click") == ["utm_campaign=spring sale hits=2", "utm_campaign=winter hits=1"])
            #expect(try items("dimension=utm_source") == ["utm_source=newsletter hits=1", "utm_source=twitter hits=1"])
            #expect(try items("dimension=utm_term&source=resolve") == ["utm_term=shoes hits=1"])
            #expect(try items("dimension=utm_content&utm_source=newsletter") == ["utm_content=hero hits=1"])
            #expect(
                try items("dimension=destination&utm_campaign=spring%20sale")
                    == [
                        "app=\(fixture.iosApp) destination=widgetDetail appName=Widgets appPlatform=ios hits=1",
                        "app=\(fixture.androidApp) destination=widgetDetail appName=Widgets appPlatform=android hits=1",
                    ].sorted())
            // Clicks only by default: the resolve's winter is left out. Each campaign's taps came from distinct visitors.
            let csv = try service.request("GET", "/v1/analytics/top?dimension=utm_campaign&format=csv", key: fixture.key)
            #expect(csv.text == "utm_campaign,hits,visitors\r\nspring sale,2,2\r\nwinter,1,1\r\n")

            let summary = try json("/v1/analytics/summary?utm_campaign=spring+sale")
            #expect(summary["hits"]?.serialized == "2")
            #expect(summary["byPlatform"]?.serialized == #"{"ios":1,"android":1,"desktop":0,"other":0}"#)
            #expect(summary["filters"]?.serialized == #"{"utm_campaign":"spring sale"}"#)
            #expect(summary["source"]?.stringValue == "all")
            #expect(try json("/v1/analytics/summary?utm_campaign=winter&outcome=no_match")["hits"]?.serialized == "1")
            #expect(try json("/v1/analytics/summary?utm_medium=email&utm_source=twitter")["hits"]?.serialized == "0")
            let series = try json("/v1/analytics/timeseries?interval=day&groupBy=utm_campaign")
            #expect(series["total"]?.serialized == "5")
            #expect(Self.groups(series["buckets"]?.arrayValue?.last) == ["spring sale": "2", "winter": "2", "(none)": "1"])
        }
    }

    /// Hits on stored links (as serving records them: a link id and the link's own campaign) rank by link.
    @Test func linksAndTheirCampaigns() throws {
        try TestService.with { service throws in
            let data = try Dataset(service)
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
            }
            let spring = UUID(), autumn = UUID()
            let springCampaign = Hit.Campaign(source: "newsletter", campaign: "spring24")
            func at(_ text: String) -> Date { try! Date("2026-11-20T\(text):00Z", strategy: .iso8601) }
            let hits: [Hit] = [
                .sample(
                    workspace: workspace, host: "a.example", path: "/spring", time: at("10:00"), app: data.app, link: spring,
                    campaign: springCampaign),
                .sample(
                    workspace: workspace, host: "a.example", path: "/spring", time: at("10:05"), app: data.app, link: spring,
                    campaign: springCampaign),
                .sample(
                    workspace: workspace, host: "a.example", path: "/spring", time: at("10:10"), app: data.app, link: spring,
                    campaign: Hit.Campaign.of(query: "utm_source=twitter", link: springCampaign)),
                .sample(workspace: workspace, host: "b.example", path: "/autumn", platform: .android, time: at("11:00"), link: autumn),
            ]
            for hit in hits { service.application.hits.record(hit) }
            #expect(eventually { service.application.hits.counters.written == 14 })
            let links = try data.json("/v1/analytics/top?\(Self.range)&dimension=link")["items"]?.arrayValue ?? []
            #expect(
                links.map { "\($0["host"]?.stringValue ?? "") \($0["link"]?.stringValue ?? "") \($0["hits"]?.serialized ?? "")" }
                    == ["a.example \(spring.canonicalText) 3", "b.example \(autumn.canonicalText) 1"])
            let sources = try data.json("/v1/analytics/top?\(Self.range)&dimension=utm_source&link=\(spring)")["items"]?.arrayValue ?? []
            #expect(
                sources.map { "\($0["utm_source"]?.stringValue ?? "") \($0["hits"]?.serialized ?? "")" } == ["newsletter 2", "twitter 1"])
            #expect(try data.json("/v1/analytics/summary?\(Self.range)&link=\(autumn)")["byPlatform"]?["android"]?.serialized == "1")
            #expect(try data.json("/v1/analytics/summary?\(Self.range)&link=\(spring)&utm_campaign=spring24")["hits"]?.serialized == "3")
            let byLink = try data.json("/v1/analytics/timeseries?\(Self.range)&groupBy=link&host=a.example")
            #expect(Self.groups(byLink["buckets"]?.arrayValue?[0]) == [spring.canonicalText: "3", "(none)": "5"])
            // Another workspace does not see them.
            #expect(try data.json("/v1/analytics/top?\(Self.range)&dimension=link", key: data.other)["items"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func csv() throws {
        try TestService.with { service throws in
            let data = try Dataset(service)
            let top = try data.get("/v1/analytics/top?\(Self.range)&dimension=path&outcome=no_match", csv: true)
            #expect(top.status == 200)
            #expect(top.headers["Content-Type"]?.hasPrefix("text/csv") == true)
            #expect(top.text == "host,path,hits\r\na.example,/old/x,2\r\nb.example,/missing,1\r\n")
            let series = try data.get("/v1/analytics/timeseries?\(Self.range)&groupBy=outcome", csv: true)
            #expect(
                series.text
                    == "start,outcome,hits,visitors\r\n2026-11-20T00:00:00Z,no_match,3,3\r\n2026-11-20T00:00:00Z,open_app,3,2\r\n2026-11-21T00:00:00Z,excluded,1,1\r\n2026-11-21T00:00:00Z,open_app,1,1\r\n"
            )
            let summary = try data.get("/v1/analytics/summary?\(Self.range)&format=csv")
            #expect(summary.text.hasPrefix("metric,value\r\nhits,8\r\nbotHits,1\r\n"))
        }
    }

    @Test func otherWorkspacesSeeOnlyTheirOwn() throws {
        try TestService.with { service throws in
            let data = try Dataset(service)
            let acmePaths = try data.json("/v1/analytics/top?\(Self.range)&dimension=path&includeBots=true&limit=100")
            #expect(!acmePaths.serialized.contains("secret"))
            let otherSummary = try data.json("/v1/analytics/summary?\(Self.range)", key: data.other)
            #expect(otherSummary["hits"]?.serialized == "1")
            #expect(otherSummary["uniqueVisitors"]?.serialized == "1")
            let otherPaths = try data.json("/v1/analytics/top?\(Self.range)&dimension=path", key: data.other)["items"]?.arrayValue ?? []
            #expect(otherPaths.map { $0["path"]?.stringValue ?? "" } == ["/secret"])
            // Filtering by another workspace's host or app finds nothing.
            #expect(try data.json("/v1/analytics/timeseries?\(Self.range)&host=a.example", key: data.other)["total"]?.serialized == "0")
            #expect(try data.json("/v1/analytics/timeseries?\(Self.range)&app=\(data.app)", key: data.other)["total"]?.serialized == "0")
            #expect(try service.request("GET", "/v1/analytics/summary").status == 401)
        }
    }

    @Test(
        "bad parameters are 400 with a clear detail",
        arguments: [
            ("/v1/analytics/timeseries?interval=week", "interval"),
            ("/v1/analytics/timeseries?groupBy=color", "groupBy"),
            ("/v1/analytics/timeseries?tz=Mars/Olympus", "tz"),
            ("/v1/analytics/timeseries?from=yesterday", "from"),
            ("/v1/analytics/timeseries?from=2026-11-21&to=2026-11-20", "before"),
            ("/v1/analytics/timeseries?from=2026-02-30", "from"),
            // A year 0 reached PostgreSQL, which refuses it: a 500 (found by scripts/fuzz-api).
            ("/v1/analytics/timeseries?to=0000-01-01", "1970"),
            ("/v1/analytics/summary?from=1969-12-31", "1970"),
            ("/v1/analytics/timeseries?from=2020-01-01&to=2026-01-01", "400 days"),
            ("/v1/analytics/timeseries?from=2026-01-01&to=2026-03-01&interval=hour", "31 days"),
            ("/v1/analytics/timeseries?outcome=opened", "outcome"),
            ("/v1/analytics/timeseries?source=email", "source"),
            ("/v1/analytics/timeseries?includeBots=yes", "includeBots"),
            ("/v1/analytics/timeseries?app=42", "app"),
            ("/v1/analytics/timeseries?groupby=outcome", "Unknown parameter 'groupby'"),
            ("/v1/analytics/top", "dimension is required"),
            ("/v1/analytics/top?dimension=planet", "dimension"),
            ("/v1/analytics/top?dimension=path&limit=0", "limit"),
            ("/v1/analytics/top?dimension=path&app=7b1a6c8e-2f0e-4b8a-9d8e-2f5c1f3f8a11", "app filter"),
            ("/v1/analytics/summary?format=xml", "format"),
            ("/v1/analytics/summary?link=42", "link"),
            ("/v1/analytics/summary?utm_source=", "utm_source"),
            ("/v1/analytics/timeseries?utm_term=" + String(repeating: "x", count: 201), "utm_term"),
            ("/v1/analytics/timeseries?groupBy=utm_color", "groupBy"),
            ("/v1/analytics/top?dimension=utm_color", "dimension"),
            ("/v1/analytics/top?dimension=path&utm_campaign=spring", "utm_*"),
            ("/v1/analytics/top?dimension=referrer&link=7b1a6c8e-2f0e-4b8a-9d8e-2f5c1f3f8a11", "link, utm_*"),
            ("/v1/analytics/top?dimension=path&country=DE", "country"),
            ("/v1/analytics/top?dimension=path&sort=visitors", "sort=visitors"),
            ("/v1/analytics/top?dimension=country&sort=people", "sort"),
            ("/v1/analytics/summary?country=de", "country"),
            ("/v1/analytics/summary?country=DEU", "country"),
            ("/v1/analytics/summary?device=phone", "device"),
            ("/v1/analytics/summary?os=", "os"),
            ("/v1/analytics/summary?browser=" + String(repeating: "x", count: 101), "browser"),
            ("/v1/analytics/summary?period=week", "period"),
            ("/v1/analytics/summary?period=7d&from=2026-11-01", "period"),
            ("/v1/analytics/summary?compare=last", "compare"),
            ("/v1/analytics/summary?from=1970-01-01&to=1970-01-02&compare=previous", "1970"),
            ("/v1/analytics/summary?source=everything", "source"),
        ])
    func badParameters(path: String, mention: String) throws {
        try TestService.with { service throws in
            let response = try service.request("GET", path, key: try service.key(scope: .read))
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
            let detail = try response.json["detail"]?.stringValue ?? ""
            #expect(detail.contains(mention), "\(detail)")
        }
    }
}
