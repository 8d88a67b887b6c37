import Foundation
import LinkKit
@testable import LinkService
import Postgres
import TestSupport
import Testing

/// The cubes the analytics read (`AnalyticsCube`): answers do not depend on where the rows are (pending, hourly,
/// daily), the upgrade regroups as the cubes are defined, and combinations no cube keeps are refused.
@Suite("Analytics cubes")
struct AnalyticsCubeTests {
    /// `migrations/0023` regroups the old rollup into the cubes with its own `VALUES` list: it names, per cube, the
    /// columns `AnalyticsCube.all` lists, in slot order.
    @Test func theUpgradeRegroupsAsTheCubesAreDefined() throws {
        let migration = try String(contentsOf: migrationsDirectory.appendingPathComponent("0023_hit_cubes.sql"), encoding: .utf8)
        let rows = migration.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("(") && $0.contains("::int2") }
        let written = rows.map { row in
            row.trimmingCharacters(in: CharacterSet(charactersIn: "(),")).components(separatedBy: ", ")
                .map { $0.replacingOccurrences(of: "r.", with: "") }
        }
        let defined = AnalyticsCube.all.map { cube in
            ["\(cube.id)::int2"] + cube.dimensions.map(\.hitsColumn) + Array(repeating: "NULL::text", count: AnalyticsCube.slots - cube.dimensions.count)
        }
        #expect(written == defined)
    }

    /// The same questions, asked while the hits are pending, after they were folded into the cubes' hourly rows,
    /// after their days were compacted into daily rows, and after a late hit: the same answers (the late hit's
    /// added), in UTC and in a zone whose days straddle two UTC days.
    @Test func answersDoNotDependOnWhereTheRowsAre() throws {
        try TestService.with { service throws in
            let data = try AnalyticsAPITests.Dataset(service)
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
            }
            let link = UUID()
            let tapped = try Date("2026-11-20T22:30:00Z", strategy: .iso8601)
            for (index, country) in ["DE", "DE", "FR"].enumerated() {
                service.application.hits.record(.sample(
                    workspace: workspace, host: "a.example", path: "/s/spring", time: tapped.addingTimeInterval(Double(index) * 3600),
                    visitor: "c\(index)", link: link, campaign: Hit.Campaign(source: "mail", campaign: "spring"),
                    country: country, os: "iOS", browser: "Mobile Safari", device: "mobile"))
            }
            #expect(eventually { service.application.hits.counters.written == 13 })
            let range = "from=2026-11-19&to=2026-11-22"
            let questions = [
                "/v1/analytics/timeseries?\(range)&interval=day&groupBy=platform",
                "/v1/analytics/timeseries?\(range)&interval=day&groupBy=country&tz=Europe/Paris&includeBots=true",
                "/v1/analytics/timeseries?\(range)&interval=hour&groupBy=destination",
                "/v1/analytics/timeseries?\(range)&interval=day&link=\(link)",
                "/v1/analytics/top?\(range)&dimension=rule&includeBots=true",
                "/v1/analytics/top?\(range)&dimension=utm_campaign&country=DE&os=iOS&sort=visitors",
                "/v1/analytics/top?\(range)&dimension=country&link=\(link)",
                "/v1/analytics/top?from=2026-11-20T12:00:00Z&to=2026-11-21T12:00:00Z&dimension=link&tz=America/New_York",
                "/v1/analytics/summary?\(range)",
                "/v1/analytics/summary?\(range)&country=DE&compare=previous",
            ]
            func answers() throws -> [String] { try questions.map { try data.json($0).serialized } }
            // The answers without the Paris series' bucket visitors (question 1), which compaction moves (below).
            func answersButParisVisitors() throws -> [String] { Self.withoutParisVisitors(try answers()) }
            func number(_ sql: String) throws -> Int {
                try service.application.pool.withConnection { try $0.query(Query(unsafeSQL: sql)).first!.decode(0, as: Int.self) }
            }
            let pending = try answers()
            #expect(pending[5].contains(#""utm_campaign":"spring","hits":2,"visitors":2"#))

            try service.application.pool.withConnection { try HitCubeFold.fold(on: $0) }
            #expect(try number("SELECT count(*)::int8 FROM hit_rollups_pending") == 0)
            // What the writer and the fold made is what `rollupSQL` makes of the raw hits (the benchmark builds with it).
            func rows(_ sql: String) throws -> [String] {
                try service.application.pool.withConnection { connection in
                    try connection.query(Query(unsafeSQL: """
                        SELECT concat_ws(' ', cube, t, source, is_bot, \(AnalyticsCube.slotList), hits, round(hll_cardinality(visitors)))
                        FROM (\(sql)) r(workspace_id, cube, t, source, is_bot, \(AnalyticsCube.slotList), hits, visitors) ORDER BY 1
                        """)).map { try $0.decode(0, as: String.self) }
                }
            }
            let slots = "workspace_id, cube, hour, source, is_bot, \(AnalyticsCube.slotList), hits, visitors"
            #expect(try rows("SELECT \(slots) FROM hit_cubes_hourly") == rows(AnalyticsCube.rollupSQL()))
            #expect(try rows("SELECT \(slots.replacingOccurrences(of: "hour", with: "day")) FROM hit_cubes_daily") == rows(AnalyticsCube.rollupSQL(daily: true)))
            #expect(try rows(AnalyticsCube.rollupSQL()).count > 20)
            // Daily rows only for the cubes counting per day; the others' days are not compacted yet.
            #expect(try number("SELECT count(*)::int8 FROM hit_cubes_daily WHERE cube IN (\(AnalyticsCube.hourlyIDs))") == 0)
            #expect(try number("SELECT sum(hits)::int8 FROM hit_cubes_daily WHERE cube = 7 AND d1 IS NOT NULL") == 3)
            #expect(try answers() == pending)

            // The days are over: maintenance compacts them, and the reads take whole days from the daily rows.
            _ = try service.application.hits.store.maintain()
            #expect(try number("SELECT count(DISTINCT day)::int8 FROM hit_cubes_daily") == 2)
            #expect(try number("SELECT sum(hits)::int8 FROM hit_cubes_daily WHERE cube = 1") == 13)
            // Hits alike everywhere; in Paris a compacted UTC day's visitors go to the bucket holding its noon (from the
            // daily sketch) where the hourly rows put each hour's in its own bucket.
            #expect(try answersButParisVisitors() == Self.withoutParisVisitors(pending))
            #expect(try Self.withoutBucketVisitors(answers()[1]).contains(#""start":"2026-11-20T00:00:00+01:00","total":8,"groups":{"(none)":7,"DE":1}"#))

            // A late tap on a compacted day is counted there once folded, and read the same before.
            service.application.hits.record(.sample(
                workspace: workspace, host: "a.example", path: "/s/spring", time: tapped, visitor: "c9", link: link,
                campaign: Hit.Campaign(source: "mail", campaign: "spring"), country: "DE", os: "iOS", browser: "Mobile Safari", device: "mobile"))
            #expect(eventually { service.application.hits.counters.written == 14 })
            let late = try answersButParisVisitors()
            #expect(late[5].contains(#""utm_campaign":"spring","hits":3,"visitors":3"#))
            try service.application.pool.withConnection { try HitCubeFold.fold(on: $0) }
            #expect(try number("SELECT sum(hits)::int8 FROM hit_cubes_daily WHERE cube = 1") == 14)
            #expect(try answersButParisVisitors() == late)
        }
    }

    /// The questions' answers with the Paris series (question 1) without its buckets' visitor figures.
    static func withoutParisVisitors(_ answers: [String]) -> [String] {
        answers.enumerated().map { $0.offset == 1 ? withoutBucketVisitors($0.element) : $0.element }
    }

    /// A time series' JSON without its buckets' visitor figures.
    static func withoutBucketVisitors(_ json: String) -> String {
        json.replacing(/,"visitors":[0-9]+,"groups"/, with: ",\"groups\"").replacing(/,"groupVisitors":\{[^}]*\}/, with: "")
    }

    /// A combination no cube keeps is a 400 listing the kept ones; a summary whose filters' cube keeps no outcome
    /// says so with nulls rather than zeros.
    @Test func combinationsNoCubeKeepsAreRefused() throws {
        try TestService.with { service throws in
            let data = try AnalyticsAPITests.Dataset(service)
            let refused = try data.get("/v1/analytics/top?dimension=rule&country=DE")
            #expect(refused.status == 400)
            #expect(refused.text.contains("do not keep country, host, rule together"))
            #expect(refused.text.contains("(country, os, browser, device, platform)"))
            #expect(try data.get("/v1/analytics/timeseries?groupBy=browser&link=\(UUID())").status == 400)
            // The audience cubes count per UTC day: a question on one is answered for whole UTC days, and says so.
            let audience = try data.json("/v1/analytics/top?from=2026-11-20T10:00:00Z&to=2026-11-20T13:00:00Z&dimension=country&link=\(UUID())&compare=previous")
            #expect(audience["from"]?.stringValue == "2026-11-20T00:00:00Z")
            #expect(audience["to"]?.stringValue == "2026-11-21T00:00:00Z")
            #expect(audience["previousFrom"]?.stringValue == "2026-11-19T00:00:00Z")
            let hourly = try data.get("/v1/analytics/timeseries?interval=hour&link=\(UUID())&country=DE")
            #expect(hourly.status == 400)
            #expect(hourly.text.contains("per UTC day only"))
            #expect(try data.get("/v1/analytics/timeseries?interval=day&link=\(UUID())&country=DE&tz=Asia/Tokyo").status == 400)
            #expect(try data.get("/v1/analytics/timeseries?interval=day&link=\(UUID())&country=DE").status == 200)
            let summary = try data.json("/v1/analytics/summary?\(AnalyticsAPITests.range)&country=DE")
            #expect(summary["byOutcome"] == .null)
            #expect(summary["byServed"] == .null)
            #expect(summary["byPlatform"]?["ios"] != nil)
            #expect(try data.json("/v1/analytics/summary?\(AnalyticsAPITests.range)")["byOutcome"]?["no_match"]?.serialized == "3")
        }
    }
}
