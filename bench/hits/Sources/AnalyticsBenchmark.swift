import Foundation
import HTTPServer
import LinkService
import Observability
import Postgres
import TestSupport

/// 10 million hits over 30 days generated in SQL (`generate_series`) straight into `hits` and, aggregated
/// from them, into the rollups the writer and its compaction maintain; then each analytics endpoint over HTTP,
/// median of several rounds.
///
/// Each hit's visitor dimensions are functions of its visitor and platform (`Self.visitor`), so a visitor keeps
/// one country, OS and browser as real ones do, and a tap on `/w/N` is on stored link N, whose campaign (80% of
/// the links have one, of 30) it carries: the rollups get the cardinality real traffic gives them.
struct AnalyticsBenchmark {
    let parameters: ConnectionParameters
    let migrations: URL
    /// How many hits to generate; nil: read the ones a previous run generated (`--reuse`).
    let hits: Int?
    let rounds: Int
    let logger: Logger

    func generate(_ hits: Int, pool: ConnectionPool, workspace: UUID) throws {
        try pool.withConnection { connection in
            try connection.executeScript("SET TimeZone = 'UTC'; SET work_mem = '256MB'; SET maintenance_work_mem = '512MB'")
            let today = Int((Date().timeIntervalSince1970 / 86_400).rounded(.down))
            for day in (today - 31)...(today + 1) {
                let from = Date(timeIntervalSince1970: Double(day) * 86_400), to = Date(timeIntervalSince1970: Double(day + 1) * 86_400)
                let format = ISO8601DateFormatter()
                let name = "hits_p" + format.string(from: from).prefix(10).replacingOccurrences(of: "-", with: "")
                try connection.executeScript(
                    "CREATE TABLE IF NOT EXISTS \(name) PARTITION OF hits FOR VALUES FROM ('\(format.string(from: from))') TO ('\(format.string(from: to))')"
                )
            }
            let w = workspace.uuidString.lowercased()
            var started = Date()
            // One row per hit: outcome, host, rule, platform, source, bot, referrer and visitor drawn at random
            // with the same shape as the ingestion benchmark (rules belong to hosts, 1,300 paths; a link's taps on
            // its host and rule), then the visitor's dimensions and the link's campaign (`Self.visitor`). A day has
            // one visitor per 200 hits generated (50,000 at 10 million), so visitors come back as often at any
            // scale. In statements of 5 million rows, two at a time.
            let chunks = (0..<(hits + 4_999_999) / 5_000_000).map { min(5_000_000, hits - $0 * 5_000_000) }
            try Self.onTwoConnections(
                pool,
                chunks.map { count in
                    { connection in
                        try connection.executeScript(
                            """
                            INSERT INTO hits (time, workspace_id, hostname, path, query, outcome, app_id, rule_id, destination_type, source, platform, is_bot,
                                              referrer_host, visitor_hash, country, os, browser, device, link_id, utm_source, utm_campaign)
                            SELECT time, workspace_id, hostname, path, query, outcome, app_id, rule_id, destination_type, source, platform, is_bot,
                                   referrer_host, visitor_hash, v_country, v_os, v_browser, v_device, v_link, v_utm_source, v_utm_campaign
                            FROM (SELECT *, \(Self.visitor) FROM (
                                SELECT t AS time, '\(w)'::uuid AS workspace_id, 'h' || hh || '.bench.example' AS hostname,
                                       CASE WHEN o < 70 THEN '/w/' || p % 1000 ELSE '/old/' || p % 300 END AS path, NULL::text AS query,
                                       CASE WHEN o < 70 THEN 'open_app' WHEN o < 85 THEN 'no_match' WHEN o < 90 THEN 'excluded' WHEN o < 95 THEN 'invalid_param' ELSE 'unknown_domain' END AS outcome,
                                       CASE WHEN o < 70 OR o BETWEEN 90 AND 94 THEN md5('app' || rr % 2)::uuid END AS app_id,
                                       CASE WHEN o < 70 OR o BETWEEN 90 AND 94 THEN md5('rule' || hh || '-' || rr)::uuid END AS rule_id,
                                       CASE WHEN o < 70 OR o BETWEEN 90 AND 94 THEN 'dest' || (hh * 4 + rr) % 6 END AS destination_type,
                                       CASE WHEN s < 3 THEN 'resolve' ELSE 'click' END AS source,
                                       (ARRAY['ios', 'android', 'desktop', 'other'])[1 + pl] AS platform, b = 0 AS is_bot,
                                       CASE WHEN rf < 20 THEN 'ref' || rf || '.example' END AS referrer_host,
                                       left(md5(floor(extract(epoch FROM t) / 86400)::text || '-' || v), 32) AS visitor_hash
                                FROM (
                                    SELECT now() - random() * interval '30 days' AS t, floor(random() * 100)::int AS o, floor(random() * 3)::int AS h,
                                           floor(random() * 4)::int AS r, floor(random() * 100000)::int AS p, floor(random() * 10)::int AS s,
                                           floor(random() * 4)::int AS pl, floor(random() * 10)::int AS b, floor(random() * 40)::int AS rf,
                                           floor(random() * \(max(hits / 200, 1_000)))::int AS v
                                    FROM generate_series(1, \(count))
                                ) r0, LATERAL (
                                    -- A link lives on one host and opens one rule: a tap on /w/N takes N's.
                                    SELECT CASE WHEN o < 70 THEN p % 1000 % 3 ELSE h END AS hh, CASE WHEN o < 70 THEN p % 1000 / 3 % 4 ELSE r END AS rr
                                ) g
                            ) generated) hits
                            """)
                    }
                })
            say(String(format: "  %d raw hits inserted in %.1f s", hits, Date().timeIntervalSince(started)))
            started = Date()
            // The cubes as the writer's folds make them (`AnalyticsCube.rollupSQL`): hourly rows, and the daily rows of
            // the cubes counting per day only (the others' below, from their hourly rows); a day at a time, two at once.
            try Self.onTwoConnections(
                pool,
                ((today - 31)...(today + 1)).map { day in
                    { connection in
                        let ofDay = "h.time >= to_timestamp(\(day * 86_400)) AND h.time < to_timestamp(\((day + 1) * 86_400))"
                        try connection.executeScript(
                            """
                            INSERT INTO hit_cubes_hourly (workspace_id, cube, hour, source, is_bot, \(AnalyticsCube.slotList), hits, visitors)
                            \(AnalyticsCube.rollupSQL(where: ofDay))
                            """)
                        try connection.executeScript(
                            """
                            INSERT INTO hit_cubes_daily (workspace_id, cube, day, source, is_bot, \(AnalyticsCube.slotList), hits, visitors)
                            \(AnalyticsCube.rollupSQL(where: ofDay, daily: true, cubes: AnalyticsCube.all.filter { !$0.hourly }))
                            """)
                    }
                })
            say(String(format: "  cubes built in %.1f s", Date().timeIntervalSince(started)))
            started = Date()
            try connection.executeScript(
                """
                INSERT INTO hit_top_hourly (workspace_id, dimension, hour, hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click)
                SELECT * FROM (
                    SELECT workspace_id, 'path', date_trunc('hour', time) AS hour, hostname, path, outcome,
                           count(*) FILTER (WHERE NOT is_bot AND source = 'resolve'), count(*) FILTER (WHERE NOT is_bot AND source = 'click'),
                           count(*) FILTER (WHERE is_bot AND source = 'resolve'), count(*) FILTER (WHERE is_bot AND source = 'click')
                    FROM hits GROUP BY 1, 3, 4, 5, 6
                    UNION ALL
                    SELECT workspace_id, 'referrer', date_trunc('hour', time), hostname, referrer_host, outcome,
                           count(*) FILTER (WHERE NOT is_bot AND source = 'resolve'), count(*) FILTER (WHERE NOT is_bot AND source = 'click'),
                           count(*) FILTER (WHERE is_bot AND source = 'resolve'), count(*) FILTER (WHERE is_bot AND source = 'click')
                    FROM hits WHERE referrer_host IS NOT NULL GROUP BY 1, 3, 4, 5, 6
                ) counted ORDER BY hour;  -- the order the writer adds them in, hour after hour
                INSERT INTO hit_top_daily (workspace_id, dimension, day, hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click)
                SELECT workspace_id, dimension, (hour AT TIME ZONE 'UTC')::date, hostname, value, outcome,
                       sum(human_resolve), sum(human_click), sum(bot_resolve), sum(bot_click)
                FROM hit_top_hourly GROUP BY 1, 2, 3, 4, 5, 6;
                INSERT INTO hit_cubes_daily (workspace_id, cube, day, source, is_bot, \(AnalyticsCube.slotList), hits, visitors)
                SELECT workspace_id, cube, (hour AT TIME ZONE 'UTC')::date AS day, source, is_bot, \(AnalyticsCube.slotList), sum(hits), hll_union_agg(visitors)
                FROM hit_cubes_hourly
                GROUP BY workspace_id, cube, day, source, is_bot, \(AnalyticsCube.slotList);
                INSERT INTO hit_top_weekly (workspace_id, dimension, week, hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click)
                SELECT workspace_id, dimension, day - ((day - date '1970-01-05') % 7 + 7) % 7 AS week, hostname, value, outcome,
                       sum(human_resolve), sum(human_click), sum(bot_resolve), sum(bot_click)
                FROM hit_top_daily WHERE day - ((day - date '1970-01-05') % 7 + 7) % 7 + 7 <= (now() - interval '1 hour')::date
                GROUP BY 1, 2, 3, 4, 5, 6;
                INSERT INTO hit_top_weeks (week) SELECT DISTINCT week FROM hit_top_weekly;
                """)
            // VACUUM cannot run in the implicit transaction of a multi-statement script.
            try connection.executeScript(
                "VACUUM ANALYZE hit_cubes_hourly, hit_cubes_daily, hit_top_hourly, hit_top_daily, hit_top_weekly, hit_top_weeks")
            say(String(format: "  top values and daily rows built in %.1f s", Date().timeIntervalSince(started)))
        }
    }

    /// Each table's rows and size.
    func report(pool: ConnectionPool) throws {
        try pool.withConnection { connection in
            for table in ["hits", "hit_cubes_hourly", "hit_cubes_daily", "hit_top_hourly", "hit_top_daily", "hit_top_weekly"] {
                let (count, bytes) = try connection.query(
                    Query(
                        unsafeSQL: """
                            SELECT count(*)::int8, (SELECT sum(pg_total_relation_size(c.oid))::int8 FROM pg_class c
                                WHERE c.relname = '\(table)' OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = '\(table)'::regclass))
                            FROM \(table)
                            """)
                ).first!.decode((Int, Int).self)
                say("  \(table): \(count) rows, \(bytes / 1_048_576) MB")
            }
        }
    }

    /// Runs `jobs` on two connections of `pool` at once (the machine's two cores), each taking the next job.
    static func onTwoConnections(_ pool: ConnectionPool, _ jobs: [@Sendable (Connection) throws -> Void]) throws {
        final class Queue: @unchecked Sendable {
            let lock = NSLock()
            var next = 0
            var failure: (any Error)?
        }
        let queue = Queue()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                try pool.withConnection { connection in
                    try connection.executeScript("SET TimeZone = 'UTC'; SET work_mem = '256MB'; SET jit = off")
                    while true {
                        let index: Int? = queue.lock.withLock {
                            guard queue.failure == nil, queue.next < jobs.count else { return nil }
                            queue.next += 1
                            return queue.next - 1
                        }
                        guard let index else { return }
                        try jobs[index](connection)
                    }
                }
            } catch {
                queue.lock.withLock { queue.failure = queue.failure ?? error }
            }
        }
        if let failure = queue.failure { throw failure }
    }

    /// A hit's visitor dimensions as columns of `SELECT *, <this> FROM <hits>`, named `v_…` apart from the hits' own:
    /// country (20, weighted), OS and browser by platform, device class, the stored link of a `/w/N` tap and the
    /// link's campaign.
    static let visitor = """
        (ARRAY['US','US','US','US','DE','DE','DE','GB','GB','FR','IN','IN','BR','JP','CA','ES','IT','NL','MX','KR'])[1 + abs(hashtext(visitor_hash)) % 20] AS v_country,
        CASE WHEN is_bot THEN 'Other' WHEN platform = 'ios' THEN 'iOS' WHEN platform = 'android' THEN 'Android'
             WHEN platform = 'desktop' THEN (ARRAY['Windows','Windows','Mac OS X','Linux'])[1 + abs(hashtext(visitor_hash || 'o')) % 4] ELSE 'Other' END AS v_os,
        CASE WHEN is_bot THEN 'Googlebot'
             WHEN platform = 'ios' THEN (ARRAY['Mobile Safari','Mobile Safari','Mobile Safari','Chrome Mobile iOS','Instagram'])[1 + abs(hashtext(visitor_hash || 'b')) % 5]
             WHEN platform = 'android' THEN (ARRAY['Chrome Mobile','Chrome Mobile','Samsung Internet','Chrome Mobile WebView','Facebook'])[1 + abs(hashtext(visitor_hash || 'b')) % 5]
             WHEN platform = 'desktop' THEN (ARRAY['Chrome','Chrome','Safari','Firefox','Edge'])[1 + abs(hashtext(visitor_hash || 'b')) % 5] ELSE 'Other' END AS v_browser,
        CASE WHEN is_bot THEN 'bot' WHEN platform IN ('ios', 'android') THEN CASE WHEN abs(hashtext(visitor_hash || 'd')) % 10 = 0 THEN 'tablet' ELSE 'mobile' END
             WHEN platform = 'desktop' THEN 'desktop' ELSE 'other' END AS v_device,
        CASE WHEN path LIKE '/w/%' THEN md5('link' || path)::uuid END AS v_link,
        CASE WHEN path LIKE '/w/%' AND abs(hashtext(path)) % 10 >= 2 THEN (ARRAY['newsletter','twitter','facebook','google'])[1 + abs(hashtext(path || 's')) % 4] END AS v_utm_source,
        CASE WHEN path LIKE '/w/%' AND abs(hashtext(path)) % 10 >= 2 THEN 'campaign-' || abs(hashtext(path || 'n')) % 30 END AS v_utm_campaign
        """

    func run() throws -> [(String, Double, Int)] {
        var server = ServerConfiguration()
        server.port = 0
        let application = try Application(
            configuration: ServiceConfiguration(
                server: server, database: parameters, migrationsDirectory: migrations, migrateOnStart: false),
            logger: logger
        )
        try application.start()
        defer { application.shutdown() }
        let key = try Workspace.createKey(pool: application.pool, workspace: "bench", scope: .read)
        let workspace = try application.pool.withConnection {
            try $0.query("SELECT id FROM workspaces WHERE name = 'bench'").first!.decode(0, as: UUID.self)
        }
        if let hits { try generate(hits, pool: application.pool, workspace: workspace) }
        try report(pool: application.pool)
        // The link of `/w/5`, whose page a user opens.
        let link = try application.pool.withConnection {
            try $0.query("SELECT md5('link' || '/w/5')::uuid").first!.decode(0, as: UUID.self)
        }
        let to = Date(), from = to.addingTimeInterval(-30 * 86_400)
        let format = ISO8601DateFormatter()
        let range = "from=\(format.string(from: from))&to=\(format.string(from: to))"
        let lastWeek = "from=\(format.string(from: to.addingTimeInterval(-7 * 86_400)))&to=\(format.string(from: to))"
        let endpoints = [
            "/v1/analytics/timeseries?\(range)&interval=day&groupBy=outcome",
            "/v1/analytics/timeseries?\(range)&interval=day&groupBy=platform&tz=Europe/Paris&includeBots=true",
            "/v1/analytics/timeseries?\(lastWeek)&interval=hour&groupBy=destination",
            "/v1/analytics/timeseries?\(range)&interval=day&host=h1.bench.example&outcome=open_app",
            "/v1/analytics/top?\(range)&dimension=path&outcome=no_match&limit=20",
            "/v1/analytics/top?\(range)&dimension=path&limit=20",
            "/v1/analytics/top?\(range)&dimension=destination",
            "/v1/analytics/top?\(range)&dimension=rule",
            "/v1/analytics/top?\(range)&dimension=referrer&tz=America/New_York",
            "/v1/analytics/summary?\(range)",
            "/v1/analytics/summary?\(range)&includeBots=true&format=csv",
            "/v1/analytics/top?\(range)&dimension=country&source=all",
            "/v1/analytics/top?\(range)&dimension=link&sort=visitors",
            "/v1/analytics/top?\(lastWeek)&dimension=utm_campaign&sort=visitors&os=iOS&country=DE&compare=previous",
            "/v1/analytics/timeseries?\(range)&interval=day&groupBy=device",
            "/v1/analytics/summary?\(range)&country=DE&device=mobile&compare=previous",
            "/v1/analytics/timeseries?\(range)&interval=day&link=\(link)&compare=previous",
            "/v1/analytics/top?\(range)&dimension=country&link=\(link)&sort=visitors",
            // The console's periods: whole days in the zone, the last ending with today.
            "/v1/analytics/top?period=30d&dimension=link&sort=visitors",
            "/v1/analytics/timeseries?period=30d&interval=day&groupBy=platform&tz=Europe/Paris",
            "/v1/analytics/summary?period=30d&compare=previous",
        ]
        var results: [(String, Double, Int)] = []
        for endpoint in endpoints {
            var times: [Double] = []
            var bytes = 0
            for _ in 0..<rounds {
                let client = try HTTPTestClient(port: application.port, timeout: 60)
                let started = ContinuousClock.now
                let response = try client.request("GET", endpoint, headers: [("Host", "localhost"), ("Authorization", "Bearer \(key)")])
                times.append((ContinuousClock.now - started).seconds * 1000)
                // A failed endpoint is said and the others still measured.
                guard response.status == 200 else {
                    say("  \(endpoint): \(response.status) \(response.text.prefix(300)) after \(Int(times.last!)) ms")
                    Thread.sleep(forTimeInterval: 5) // the pool refuses waits for a moment after a timeout
                    break
                }
                bytes = response.body.count
            }
            guard bytes > 0 else { continue }
            times.sort()
            let name = endpoint.replacingOccurrences(of: range, with: "<30 days>").replacingOccurrences(of: lastWeek, with: "<7 days>")
                .replacingOccurrences(of: link.uuidString, with: "<link>")
            say(String(format: "  %7.1f ms  %@", times[times.count / 2], name))
            results.append((name, times[times.count / 2], bytes))
        }
        return results
    }
}
