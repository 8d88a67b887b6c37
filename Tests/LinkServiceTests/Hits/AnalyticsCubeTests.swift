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
    /// columns `AnalyticsCube.all` lists, in slot order (the cubes it made, 1 to 7; `migrations/0025` adds the others).
    @Test func theUpgradeRegroupsAsTheCubesAreDefined() throws {
        let migration = try String(contentsOf: migrationsDirectory.appendingPathComponent("0023_hit_cubes.sql"), encoding: .utf8)
        let rows = migration.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            $0.hasPrefix("(") && $0.contains("::int2")
        }
        let written = rows.map { row in
            row.trimmingCharacters(in: CharacterSet(charactersIn: "(),")).components(separatedBy: ", ")
                .map { $0.replacingOccurrences(of: "r.", with: "") }
        }
        let defined = AnalyticsCube.all.filter { $0.id <= 7 }.sorted { $0.id < $1.id }.map { cube in
            ["\(cube.id)::int2"] + cube.dimensions.map(\.hitsColumn)
                + Array(repeating: "NULL::text", count: AnalyticsCube.slots - cube.dimensions.count)
        }
        #expect(written == defined)
    }

    /// Runs `body` on a database of its own migrated up to `version` (not included), with every migration at hand.
    static func migratedBefore(_ version: Int, _ body: (ConnectionPool, [Migration]) throws -> Void) throws {
        try withTestDatabase { parameters in
            let pool = ConnectionPool(parameters: parameters, maxConnections: 1, logger: .quiet)
            defer { pool.shutdown() }
            let migrations = try Migration.load(from: migrationsDirectory)
            try Migrator(migrations: migrations.filter { $0.version < version }, logger: .quiet).migrate(using: pool)
            try body(pool, migrations)
        }
    }

    /// `migrations/0025` on the rows an older build kept (cubes 1 to 7; daily rows of the hourly cubes for compacted
    /// days only, here the first of two): afterwards every cube's hourly and daily rows are what the folds make of the
    /// raw hits (`rollupSQL`), the narrow cubes and the day not compacted included, each daily row with its visitors.
    @Test func theOpenDaysUpgradeLeavesWhatTheFoldsMake() throws {
        try Self.migratedBefore(25) { pool, migrations in
            let old = AnalyticsCube.all.filter { $0.id <= 7 }
            let columns = "workspace_id, cube, hour, source, is_bot, \(AnalyticsCube.slotList), hits, visitors"
            let daily = columns.replacingOccurrences(of: "hour", with: "day")
            try pool.withConnection { connection in
                try connection.executeScript(
                    """
                    CREATE TABLE hits_p20261120 PARTITION OF hits FOR VALUES FROM ('2026-11-20T00:00:00Z') TO ('2026-11-22T00:00:00Z');
                    INSERT INTO hits (time, workspace_id, hostname, path, outcome, app_id, rule_id, destination_type, source, platform, is_bot,
                                      visitor_hash, served, country, os, browser, device, link_id, utm_source, utm_campaign)
                    SELECT timestamptz '2026-11-20T00:00:00Z' + i * interval '37 minutes', md5('acme')::uuid, 'h' || i % 2 || '.example',
                           '/w/' || i % 3, (ARRAY['open_app', 'no_match'])[1 + i % 2], md5('app' || i % 2)::uuid, md5('rule' || i % 3)::uuid,
                           'dest' || i % 3, (ARRAY['click', 'resolve'])[1 + i % 3 / 2], (ARRAY['ios', 'android', 'desktop'])[1 + i % 3],
                           i % 7 = 0, 'v' || i % 5, 'landing', (ARRAY['DE', 'FR'])[1 + i % 2], 'iOS', 'Mobile Safari', 'mobile',
                           md5('link' || i % 3)::uuid, 'mail', (ARRAY['spring', 'fall'])[1 + i % 4 / 3]
                    FROM generate_series(0, 70) i;
                    INSERT INTO hit_cubes_hourly (\(columns)) \(AnalyticsCube.rollupSQL(cubes: old.filter(\.hourly)));
                    INSERT INTO hit_cubes_daily (\(daily)) \(AnalyticsCube.rollupSQL(daily: true, cubes: old.filter { !$0.hourly }));
                    INSERT INTO hit_cubes_daily (\(daily))
                        \(AnalyticsCube.rollupSQL(where: "h.time < '2026-11-21T00:00:00Z'", daily: true, cubes: old.filter(\.hourly)));
                    INSERT INTO hit_top_days (day) VALUES ('2026-11-20');
                    """)
            }
            #expect(try Migrator(migrations: migrations.filter { $0.version <= 25 }, logger: .quiet).migrate(using: pool) == [25])
            func rows(_ sql: String) throws -> [String] { try Self.cubeRows(sql, pool) }
            // The cubes of that version (`migrations/0029` adds the per-link ones).
            let then = AnalyticsCube.all.filter { $0.id <= 11 }
            let hourly = try rows(AnalyticsCube.rollupSQL(cubes: then.filter(\.hourly)))
            #expect(Set(hourly.map { $0.prefix { $0 != " " } }) == Set(then.filter(\.hourly).map { "\($0.id)" }))
            #expect(try rows("SELECT \(columns) FROM hit_cubes_hourly") == hourly)
            #expect(try rows("SELECT \(daily) FROM hit_cubes_daily") == rows(AnalyticsCube.rollupSQL(daily: true, cubes: then)))
            let miscounted = try pool.withConnection { connection in
                try connection.query("SELECT count(*)::int8 FROM hit_cubes_daily WHERE visitors_count <> round(hll_cardinality(visitors))")
                    .first!.decode(0, as: Int.self)
            }
            #expect(miscounted == 0)
        }
    }

    /// `migrations/0029` on the cubes an older build kept, with hits of a pending hour: afterwards the per-link cubes
    /// (12, 13) hold what the folds make of the raw hits before that hour, hourly and daily, and the pending hour is
    /// left to the fold, which then counts it in every cube.
    @Test func thePerLinkCubesAreMadeOfTheHitsKept() throws {
        try Self.migratedBefore(29) { pool, migrations in
            let perLink = AnalyticsCube.all.filter { [12, 13].contains($0.id) }
            let columns = "workspace_id, cube, hour, source, is_bot, \(AnalyticsCube.slotList), hits, visitors"
            let daily = columns.replacingOccurrences(of: "hour", with: "day")
            try pool.withConnection { connection in
                try connection.executeScript(
                    """
                    CREATE TABLE hits_p20261120 PARTITION OF hits FOR VALUES FROM ('2026-11-20T00:00:00Z') TO ('2026-11-22T00:00:00Z');
                    INSERT INTO hits (time, workspace_id, hostname, path, outcome, app_id, destination_type, source, platform, is_bot,
                                      visitor_hash, served, browser, link_id)
                    SELECT timestamptz '2026-11-20T00:00:00Z' + i * interval '37 minutes', md5('acme')::uuid, 'h' || i % 2 || '.example',
                           '/w/' || i % 3, (ARRAY['open_app', 'no_match'])[1 + i % 2], md5('app' || i % 2)::uuid, 'dest' || i % 3,
                           (ARRAY['click', 'resolve'])[1 + i % 3 / 2], (ARRAY['ios', 'android', 'desktop'])[1 + i % 3], i % 7 = 0,
                           'v' || i % 5, (ARRAY['landing', 'store', 'web_fallback'])[1 + i % 3], (ARRAY['Chrome', NULL])[1 + i % 2],
                           CASE WHEN i % 4 > 0 THEN md5('link' || i % 3)::uuid END
                    FROM generate_series(0, 70) i;
                    INSERT INTO hit_rollups_pending (workspace_id, hour, hostname, outcome, platform, source, is_bot, hits, visitors)
                    VALUES (md5('acme')::uuid, '2026-11-21T18:00:00Z', 'h0.example', 'open_app', 'ios', 'click', false, 1, hll_empty());
                    """)
            }
            #expect(try Migrator(migrations: migrations.filter { $0.version <= 29 }, logger: .quiet).migrate(using: pool) == [29])
            func rows(_ sql: String) throws -> [String] { try Self.cubeRows(sql, pool) }
            let before = "h.time < '2026-11-21T18:00:00Z'"
            let hourly = try rows(AnalyticsCube.rollupSQL(where: before, cubes: perLink))
            #expect(Set(hourly.map { $0.prefix { $0 != " " } }) == ["12", "13"])
            #expect(try rows("SELECT \(columns) FROM hit_cubes_hourly") == hourly)
            #expect(
                try rows("SELECT \(daily) FROM hit_cubes_daily")
                    == rows(AnalyticsCube.rollupSQL(where: before, daily: true, cubes: perLink)))
        }
    }

    /// `migrations/0032` on the cubes an older build kept, with hits of targeted links and of a pending hour: afterwards
    /// the target cubes (14 hourly and daily, 15 daily) hold what the folds make of the raw hits before that hour.
    @Test func theTargetCubesAreMadeOfTheHitsKept() throws {
        try Self.migratedBefore(32) { pool, migrations in
            let targets = AnalyticsCube.all.filter { $0.id >= 14 }
            let columns = "workspace_id, cube, hour, source, is_bot, \(AnalyticsCube.slotList), hits, visitors"
            let daily = columns.replacingOccurrences(of: "hour", with: "day")
            try pool.withConnection { connection in
                try connection.executeScript(
                    """
                    CREATE TABLE hits_p20261120 PARTITION OF hits FOR VALUES FROM ('2026-11-20T00:00:00Z') TO ('2026-11-22T00:00:00Z');
                    INSERT INTO hits (time, workspace_id, hostname, path, outcome, source, platform, is_bot, visitor_hash, served, country,
                                      os, device, link_id, target, variant)
                    SELECT timestamptz '2026-11-20T00:00:00Z' + i * interval '37 minutes', md5('acme')::uuid, 'h' || i % 2 || '.example',
                           '/w/' || i % 3, 'open_app', (ARRAY['click', 'resolve'])[1 + i % 3 / 2], (ARRAY['ios', 'android'])[1 + i % 2],
                           i % 7 = 0, 'v' || i % 5, (ARRAY['landing', 'store', NULL])[1 + i % 3], (ARRAY['DE', 'US', NULL])[1 + i % 3],
                           (ARRAY['iOS', 'Android'])[1 + i % 2], 'mobile', md5('link' || i % 2)::uuid,
                           (ARRAY['germany', NULL])[1 + i % 2], (ARRAY['a', 'b', NULL])[1 + i % 3]
                    FROM generate_series(0, 70) i;
                    INSERT INTO hit_rollups_pending (workspace_id, hour, hostname, outcome, platform, source, is_bot, hits, visitors)
                    VALUES (md5('acme')::uuid, '2026-11-21T18:00:00Z', 'h0.example', 'open_app', 'ios', 'click', false, 1, hll_empty());
                    """)
            }
            #expect(try Migrator(migrations: migrations.filter { $0.version <= 32 }, logger: .quiet).migrate(using: pool) == [32])
            func rows(_ sql: String) throws -> [String] { try Self.cubeRows(sql, pool) }
            let before = "h.time < '2026-11-21T18:00:00Z'"
            let hourly = try rows(AnalyticsCube.rollupSQL(where: before, cubes: targets.filter(\.hourly)))
            #expect(Set(hourly.map { $0.prefix { $0 != " " } }) == ["14"])
            #expect(try rows("SELECT \(columns) FROM hit_cubes_hourly WHERE cube >= 14") == hourly)
            let days = try rows(AnalyticsCube.rollupSQL(where: before, daily: true, cubes: targets))
            #expect(Set(days.map { $0.prefix { $0 != " " } }) == ["14", "15"])
            #expect(try rows("SELECT \(daily) FROM hit_cubes_daily WHERE cube >= 14") == days)
        }
    }

    /// `migrations/0026` on the top values an older build kept (hourly rows; daily rows for compacted days only, here
    /// the first of two, recorded in `hit_top_days`): afterwards both days have the daily rows the folds make of the
    /// raw hits, and the day ledger is gone.
    @Test func theTopUpgradeGivesEveryDayItsDailyRows() throws {
        try Self.migratedBefore(26) { pool, migrations in
            let columns = "workspace_id, dimension, hour, hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click"
            try pool.withConnection { connection in
                try connection.executeScript(
                    """
                    CREATE TABLE hits_p20261120 PARTITION OF hits FOR VALUES FROM ('2026-11-20T00:00:00Z') TO ('2026-11-22T00:00:00Z');
                    INSERT INTO hits (time, workspace_id, hostname, path, outcome, source, platform, is_bot, referrer_host)
                    SELECT timestamptz '2026-11-20T00:00:00Z' + i * interval '37 minutes', md5('acme')::uuid, 'h' || i % 2 || '.example',
                           '/w/' || i % 3, (ARRAY['open_app', 'no_match'])[1 + i % 2], (ARRAY['click', 'resolve', 'claim'])[1 + i % 3],
                           'ios', i % 7 = 0, CASE WHEN i % 4 = 0 THEN 'news.example' END
                    FROM generate_series(0, 70) i;
                    INSERT INTO hit_top_hourly (\(columns)) \(Self.topRollupSQL(daily: false));
                    INSERT INTO hit_top_daily (\(columns.replacingOccurrences(of: "hour", with: "day")))
                        SELECT * FROM (\(Self.topRollupSQL(daily: true))) r WHERE t < '2026-11-21';
                    INSERT INTO hit_top_days (day) VALUES ('2026-11-20');
                    """)
            }
            #expect(try Migrator(migrations: migrations.filter { $0.version <= 26 }, logger: .quiet).migrate(using: pool) == [26])
            let daily = try Self.topRows(Self.topRollupSQL(daily: true), pool)
            #expect(Set(daily.map { $0.split(separator: " ")[1] }).count == 2)
            #expect(try Self.topRows("SELECT \(columns.replacingOccurrences(of: "hour", with: "day")) FROM hit_top_daily", pool) == daily)
            #expect(try pool.withConnection { try $0.query("SELECT to_regclass('hit_top_days') IS NULL").first!.decode(0, as: Bool.self) })
        }
    }

    /// The same questions, asked while the hits are pending, after they were folded into the cubes' hourly and daily
    /// rows, after their days were compacted, and after late hits: the same answers (the late hits' added), in UTC
    /// and in a zone whose days straddle two UTC days.
    @Test func answersDoNotDependOnWhereTheRowsAre() throws {
        try TestService.with { service throws in
            let data = try AnalyticsAPITests.Dataset(service)
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
            }
            let link = UUID()
            let tapped = try Date("2026-11-20T22:30:00Z", strategy: .iso8601)
            for (index, country) in ["DE", "DE", "FR"].enumerated() {
                service.application.hits.record(
                    .sample(
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
                // One daily row per link and day once folded: their stored counts, or the sketches on a day with pending rows.
                "/v1/analytics/top?\(range)&dimension=link&sort=visitors&source=click",
                // Top values: whole days and the hours around them, pending or folded.
                "/v1/analytics/top?\(range)&dimension=path&includeBots=true",
                "/v1/analytics/top?from=2026-11-20T11:00:00Z&to=2026-11-21T01:00:00Z&dimension=path&source=click",
                "/v1/analytics/top?\(range)&dimension=referrer",
            ]
            func answers() throws -> [String] { try questions.map { try data.json($0).serialized } }
            // The answers without the Paris series' bucket visitors (question 1), which compaction moves (below).
            func answersButParisVisitors() throws -> [String] { Self.withoutParisVisitors(try answers()) }
            func number(_ sql: String) throws -> Int {
                try service.application.pool.withConnection { try $0.query(Query(unsafeSQL: sql)).first!.decode(0, as: Int.self) }
            }
            let pending = try answers()
            #expect(pending[5].contains(#""utm_campaign":"spring","hits":2,"visitors":2"#))

            try service.application.pool.withConnection { try HitFold.fold(on: $0) }
            #expect(try number("SELECT count(*)::int8 FROM hit_rollups_pending") == 0)
            #expect(try number("SELECT count(*)::int8 FROM hit_top_pending") == 0)
            // And the top values' hourly and daily rows what the raw hits give.
            let tops = "workspace_id, dimension, hour, hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click"
            let pool = service.application.pool
            #expect(try Self.topRows("SELECT \(tops) FROM hit_top_hourly", pool) == Self.topRows(Self.topRollupSQL(daily: false), pool))
            #expect(
                try Self.topRows("SELECT \(tops.replacingOccurrences(of: "hour", with: "day")) FROM hit_top_daily", pool)
                    == Self.topRows(Self.topRollupSQL(daily: true), pool))
            #expect(try Self.topRows(Self.topRollupSQL(daily: true), pool).count > 10)
            // What the writer and the fold made is what `rollupSQL` makes of the raw hits (the benchmark builds with it).
            func rows(_ sql: String) throws -> [String] { try Self.cubeRows(sql, service.application.pool) }
            let slots = "workspace_id, cube, hour, source, is_bot, \(AnalyticsCube.slotList), hits, visitors"
            #expect(try rows("SELECT \(slots) FROM hit_cubes_hourly") == rows(AnalyticsCube.rollupSQL()))
            #expect(
                try rows("SELECT \(slots.replacingOccurrences(of: "hour", with: "day")) FROM hit_cubes_daily")
                    == rows(AnalyticsCube.rollupSQL(daily: true)))
            #expect(try rows(AnalyticsCube.rollupSQL()).count > 20)
            // Every cube has its daily rows from the first fold of a day on, over or not, each with its visitors counted.
            #expect(try number("SELECT count(DISTINCT day)::int8 FROM hit_cubes_daily WHERE cube IN (\(AnalyticsCube.hourlyIDs))") == 2)
            #expect(try number("SELECT sum(hits)::int8 FROM hit_cubes_daily WHERE cube = 7 AND d1 IS NOT NULL") == 3)
            #expect(try number("SELECT count(*)::int8 FROM hit_cubes_daily WHERE visitors_count <> round(hll_cardinality(visitors))") == 0)
            // Hits alike everywhere; in Paris a whole UTC day's visitors go to the bucket holding its noon (from the
            // daily sketch) where the pending rows put each hour's in its own bucket.
            #expect(try answersButParisVisitors() == Self.withoutParisVisitors(pending))
            #expect(
                try Self.withoutBucketVisitors(answers()[1]).contains(
                    #""start":"2026-11-20T00:00:00+01:00","total":8,"groups":{"(none)":7,"DE":1}"#))
            let folded = try answers()

            // The days are over: maintenance compacts the top values; the cubes' daily rows were there already.
            _ = try service.application.hits.store.maintain()
            #expect(try number("SELECT count(DISTINCT day)::int8 FROM hit_cubes_daily") == 2)
            #expect(try number("SELECT sum(hits)::int8 FROM hit_cubes_daily WHERE cube = 1") == 13)
            #expect(try answers() == folded)

            // Late taps on a compacted day are counted there once folded, and read the same before: a new visitor, and
            // one already counted that day, once (while pending, the link's day is its daily sketch with the pending one).
            for visitor in ["c9", "c0"] {
                service.application.hits.record(
                    .sample(
                        workspace: workspace, host: "a.example", path: "/s/spring", time: tapped, visitor: visitor, link: link,
                        campaign: Hit.Campaign(source: "mail", campaign: "spring"), country: "DE", os: "iOS", browser: "Mobile Safari",
                        device: "mobile"))
            }
            #expect(eventually { service.application.hits.counters.written == 15 })
            let late = try answersButParisVisitors()
            #expect(late[5].contains(#""utm_campaign":"spring","hits":4,"visitors":3"#))
            #expect(late[10].contains(#""hits":5,"visitors":4"#))
            #expect(late[11] != folded[11] && late[11].contains(#""path":"/s/spring","hits":5"#))
            try service.application.pool.withConnection { try HitFold.fold(on: $0) }
            #expect(try number("SELECT sum(hits)::int8 FROM hit_cubes_daily WHERE cube = 1") == 15)
            #expect(try answersButParisVisitors() == late)
        }
    }

    /// The rows `sql` selects (as `hit_cubes_hourly`'s or `_daily`'s columns but `visitors_count`), each as one line
    /// with its sketch's cardinality, in order: what two sets of cube rows are compared by.
    static func cubeRows(_ sql: String, _ pool: ConnectionPool) throws -> [String] {
        try pool.withConnection { connection in
            try connection.query(
                Query(
                    unsafeSQL: """
                        SELECT concat_ws(' ', cube, t, source, is_bot, \(AnalyticsCube.slotList), hits, round(hll_cardinality(visitors)))
                        FROM (\(sql)) r(workspace_id, cube, t, source, is_bot, \(AnalyticsCube.slotList), hits, visitors) ORDER BY 1
                        """)
            ).map { try $0.decode(0, as: String.self) }
        }
    }

    /// The top-value rows the writer and the fold make of the raw hits (claims count as clicks), per hour or per UTC
    /// day, as `hit_top_hourly`'s or `_daily`'s columns (the time as `t`).
    static func topRollupSQL(daily: Bool) -> String {
        let t = daily ? "(time AT TIME ZONE 'UTC')::date" : "date_trunc('hour', time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'"
        let counts = """
            count(*) FILTER (WHERE NOT is_bot AND source = 'resolve'), count(*) FILTER (WHERE NOT is_bot AND source <> 'resolve'),
            count(*) FILTER (WHERE is_bot AND source = 'resolve'), count(*) FILTER (WHERE is_bot AND source <> 'resolve')
            """
        return """
            SELECT workspace_id, 'path' AS dimension, \(t) AS t, hostname, path, outcome, \(counts)
            FROM hits WHERE workspace_id IS NOT NULL GROUP BY 1, 3, 4, 5, 6
            UNION ALL
            SELECT workspace_id, 'referrer', \(t), hostname, referrer_host, outcome, \(counts)
            FROM hits WHERE workspace_id IS NOT NULL AND referrer_host IS NOT NULL GROUP BY 1, 3, 4, 5, 6
            """
    }

    /// The top-value rows `sql` selects (as `hit_top_hourly`'s or `_daily`'s columns), each as one line, in order.
    static func topRows(_ sql: String, _ pool: ConnectionPool) throws -> [String] {
        try pool.withConnection { connection in
            try connection.query(
                Query(
                    unsafeSQL: """
                        SELECT concat_ws(' ', d, t, hostname, value, outcome, hr, hc, br, bc)
                        FROM (\(sql)) r(workspace_id, d, t, hostname, value, outcome, hr, hc, br, bc) ORDER BY 1
                        """)
            ).map { try $0.decode(0, as: String.self) }
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
            #expect(try data.get("/v1/analytics/timeseries?groupBy=browser&utm_campaign=spring").status == 400)
            // The audience cubes count per UTC day: a question on one is answered for whole UTC days, and says so.
            let audience = try data.json(
                "/v1/analytics/top?from=2026-11-20T10:00:00Z&to=2026-11-20T13:00:00Z&dimension=country&link=\(UUID())&compare=previous")
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
