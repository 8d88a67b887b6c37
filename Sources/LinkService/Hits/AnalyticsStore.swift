import Foundation
import LinkKit
import Postgres

/// The SQL of the analytics reads (`/v1/analytics/*`): the cubes (`AnalyticsCube`: `hit_cubes_hourly`/`_daily`, with
/// their visitor sketches) and the top-value tables (`hit_top_hourly`/`_daily`/`_weekly` and the weeks' ledger), with
/// the pending rows not folded into them yet, never raw hits. Every query is filtered by a workspace, and reads one
/// cube, chosen by the caller.
///
/// Unique visitors are the sum over UTC days of the cardinality of the union of the day's sketches (a visitor
/// hash identifies a visitor within one UTC day: its salt rotates daily), per bucket or item.
enum AnalyticsStore {
    /// What a read is narrowed to besides the workspace and the range.
    struct Filter {
        var host: String?
        var app: UUID?
        var outcome: Hit.Outcome?
        /// nil: every source.
        var source: Hit.Source?
        var served: Hit.Served?
        var includeBots: Bool
        /// The stored link the hits were on.
        var link: UUID? = nil
        /// Campaign values the hits had (as hits keep them: `Hit.Campaign.keptValue`).
        var campaign: [Hit.Campaign.Field: String] = [:]
        /// The visitor's country, OS and browser families, and device class (`Hit.country`, …), by column name.
        var visitor: [VisitorField: String] = [:]
        /// The target and the variant of a targeted link that decided the hits (their names, `Hit.target`, `.variant`).
        var target: String? = nil
        var variant: String? = nil

        /// The cube dimensions the filter names (source and the bot flag are kept by every cube).
        var dimensions: Set<AnalyticsCube.Dimension> {
            var named: Set<AnalyticsCube.Dimension> = []
            if host != nil { named.insert(.host) }
            if app != nil { named.insert(.app) }
            if outcome != nil { named.insert(.outcome) }
            if served != nil { named.insert(.served) }
            if link != nil { named.insert(.link) }
            if target != nil { named.insert(.target) }
            if variant != nil { named.insert(.variant) }
            for field in campaign.keys { named.insert(AnalyticsCube.Dimension(field)) }
            for field in visitor.keys { named.insert(AnalyticsCube.Dimension(rawValue: field.rawValue)!) }
            return named
        }

        /// Whether the filter names anything the top-value tables do not keep (they keep host and outcome).
        var hasRollupOnlyFilter: Bool { !dimensions.subtracting([.host, .outcome]).isEmpty }

        /// SQL conditions on rows whose dimensions `column` names (a cube's slots, or the pending rollups' columns),
        /// values bound in `binds`.
        func conditions(_ column: (AnalyticsCube.Dimension) -> String, binds: inout Binds) -> String {
            var sql = ""
            func add(_ dimension: AnalyticsCube.Dimension, _ value: String) {
                sql += " AND \(column(dimension)) = \(binds.add(value))"
            }
            if let host { add(.host, host) }
            if let app { add(.app, app.canonicalText) }
            if let outcome { add(.outcome, outcome.rawValue) }
            if let served { add(.served, served.rawValue) }
            if let link { add(.link, link.canonicalText) }
            if let target { add(.target, target) }
            if let variant { add(.variant, variant) }
            for field in Hit.Campaign.Field.allCases { if let value = campaign[field] { add(AnalyticsCube.Dimension(field), value) } }
            for field in VisitorField.allCases {
                if let value = visitor[field] { add(AnalyticsCube.Dimension(rawValue: field.rawValue)!, value) }
            }
            if let source { sql += " AND source = \(binds.add(source.rawValue))" }
            if !includeBots { sql += " AND NOT is_bot" }
            return sql
        }

        /// SQL conditions on the top-value tables (host and outcome; source and bot flag are `topCount`'s), numbered
        /// after `firstBind - 1` existing binds.
        func topConditions(firstBind: Int) -> (sql: String, binds: [String]) {
            var sql = ""
            var binds: [String] = []
            for (column, value) in [("hostname", host), ("outcome", outcome?.rawValue)] {
                guard let value else { continue }
                binds.append(value)
                sql += " AND \(column) = $\(firstBind + binds.count - 1)"
            }
            return (sql, binds)
        }

        /// The count a top-value row contributes under the `source` and `includeBots` filters (claims are counted
        /// with clicks there, `HitBatchSummary.TopCounts`).
        var topCount: String {
            let sources = source.map { [$0 == .claim ? "click" : $0.rawValue] } ?? ["resolve", "click"]
            let kinds = includeBots ? ["human", "bot"] : ["human"]
            return kinds.flatMap { kind in sources.map { "\(kind)_\($0)" } }.joined(separator: " + ")
        }
    }

    /// What the rollups keep of the visitor besides the platform: named as their columns and query parameters.
    enum VisitorField: String, CaseIterable {
        case country, os, browser, device
    }

    /// What a time series can be grouped by: a cube dimension, or `source` (every cube keeps it).
    static let groupings: [String] = (["source"] + AnalyticsCube.Dimension.allCases.map(\.rawValue)).sorted()

    /// Top-list dimensions read from the cubes → (the dimension naming each item's context, or nil, and the ranked
    /// one): `destination` with its app, `rule`, `served` and `link` with their host, and the campaign and visitor
    /// fields alone (one campaign, or country, spans a workspace's domains).
    static let rollupDimensions: [String: (context: AnalyticsCube.Dimension?, dimension: AnalyticsCube.Dimension)] = {
        var dimensions: [String: (context: AnalyticsCube.Dimension?, dimension: AnalyticsCube.Dimension)] = [
            "destination": (.app, .destination), "rule": (.host, .rule), "served": (.host, .served), "link": (.host, .link),
            "app": (nil, .app), "host": (nil, .host),
            // A target's or variant's name means something with its link only.
            "target": (.link, .target), "variant": (.link, .variant),
        ]
        for field in Hit.Campaign.Field.allCases { dimensions[field.rawValue] = (nil, AnalyticsCube.Dimension(field)) }
        for field in VisitorField.allCases { dimensions[field.rawValue] = (nil, AnalyticsCube.Dimension(rawValue: field.rawValue)!) }
        return dimensions
    }()

    /// The parameters of a query being written: `add` binds a value and answers its placeholder.
    struct Binds {
        var values: [any PostgresEncodable] = []

        mutating func add(_ value: any PostgresEncodable) -> String {
            values.append(value)
            return "$\(values.count)"
        }
    }

    /// Where a cube read takes its range from: compacted UTC days (day numbers) from the daily rows, hour ranges
    /// (`[start, end)`, seconds since 1970) from the hourly ones (`TopSources` splits a range so).
    struct CubeRange {
        var cube: AnalyticsCube
        var days: [Int]
        var hours: [(start: Int, end: Int)]
        /// The whole range, seconds since 1970 (what the pending rollups are read for).
        var from: Int
        var to: Int
        /// Hours (their start) of the range's days whose hits a daily time series counts in their own bucket, not in
        /// the one holding their day's noon, where the daily rows go (`TopSources.cubeRange`).
        var moved: [Int] = []
    }

    /// Runs an analytics read in a transaction without JIT compilation (these queries take tens of milliseconds, and
    /// JIT-compiling them costs more than it saves) and with 32 MB to sort and hash in (tens of thousands of rows
    /// grouped: the default 4 MB sends them to disk).
    static func read<T>(_ pool: ConnectionPool, _ body: (Connection) throws -> T) throws -> T {
        try pool.withTransaction { connection in
            try connection.executeScript("SET LOCAL jit = off; SET LOCAL work_mem = '32MB'")
            return try body(connection)
        }
    }

    /// The URLs hit most on `hostname` (a wildcard's names included) in the last `days` days, most first, at most
    /// `limit`: host, path and query as they were asked (an association diff's corpus).
    static func recentURLs(
        workspace: UUID, hostname: String, days: Int, limit: Int, on connection: Connection
    ) throws
        -> [(host: String, path: String, query: String?)]
    {
        let root = hostname.hasPrefix("*.") ? String(hostname.dropFirst(2)) : hostname
        return try connection.query(
            """
            SELECT hostname, path, query FROM hits
            WHERE workspace_id = \(workspace) AND time >= now() - make_interval(days => \(days)::int)
              AND (hostname = \(root) OR (\(hostname.hasPrefix("*.")) AND hostname LIKE '%.' || \(root)))
            GROUP BY hostname, path, query ORDER BY count(*) DESC, hostname, path, query LIMIT \(limit)
            """
        ).map { row in
            try row.decode((String, String, String?).self)
        }.map { (host: $0.0, path: $0.1, query: $0.2) }
    }

    /// The distinct visitors of the rows grouped, per UTC day (summed over days by the caller's SQL): a daily row's
    /// stored count where it is its group's only row that day (`rows`, `pinned`), else the union of the sketches.
    /// Only rows with a sketch reach the union: `hll_union_agg` allocates a 128 KB state for each group it sees.
    private static let dailyVisitors = """
        (coalesce(sum(counted), 0) + coalesce(round(hll_cardinality(hll_union_agg(visitors) FILTER (WHERE visitors IS NOT NULL))), 0))::int8
        """

    /// Whether a read of `cube` grouped by `grouped` has at most one daily row per group and day: its filters and
    /// grouping name every dimension of the cube, it counts one source, and humans only.
    static func pinned(_ cube: AnalyticsCube, grouped: Set<AnalyticsCube.Dimension>, filter: Filter) -> Bool {
        filter.source != nil && !filter.includeBots && Set(cube.dimensions).isSubset(of: filter.dimensions.union(grouped))
    }

    /// A column a cube read selects: a dimension, source or the bot flag, or none (NULL).
    enum Column {
        case dimension(AnalyticsCube.Dimension), source, isBot, none

        /// Its SQL in rows whose dimensions `column` names.
        func sql(_ column: (AnalyticsCube.Dimension) -> String?) -> String {
            switch self {
            case .dimension(let dimension): column(dimension) ?? "NULL::text"
            case .source: "source"
            case .isBot: "is_bot"
            case .none: "NULL::text"
            }
        }
    }

    /// The rows of `range` matching `filter` as one relation (for `FROM (…) x`): `utc_day` (the UTC day whose
    /// visitors the row's sketch counts), `t` (the hour, or the day's noon), `hits`, `visitors` (a sketch, or NULL),
    /// `counted` (a daily row's stored visitors, or NULL) and each of `columns` under its alias: the cube's daily rows
    /// of the range's days, its hourly rows of the range's hours, and the pending rollups of the whole range (not in
    /// the cube yet, `HitFold`). Each day and hour range is its own index range (LATERAL, kept apart by OFFSET 0).
    ///
    /// When the read is `pinned`, a daily row is its group's only row that day unless the day has pending rows too: it
    /// then brings its stored count instead of its sketch (`dailyVisitors`), and no `utc_day`, so that the callers'
    /// grouping by day, which unites sketches, leaves it with the other days' counts of its group.
    ///
    /// A moved hour (`CubeRange.moved`) adds two rows without visitors: its hits taken from its day's noon and
    /// given to its own hour. So a daily series in any zone counts hits exactly, and a day's visitors in the bucket
    /// holding its noon.
    private static func rows(
        _ range: CubeRange, columns: [(column: Column, alias: String)], filter: Filter, workspace: UUID,
        binds: inout Binds
    ) -> String {
        let cube = range.cube
        let w = binds.add(workspace), c = binds.add(Int32(cube.id))
        let slot = { (dimension: AnalyticsCube.Dimension) in cube.slot(dimension) }
        let conditions = filter.conditions({ slot($0)! }, binds: &binds)
        let pendingConditions = filter.conditions(\.hitsColumn, binds: &binds)
        func selected(_ column: (AnalyticsCube.Dimension) -> String?, counts: String = "hits, visitors, NULL::int8 AS counted") -> String {
            ([counts] + columns.map { "\($0.column.sql(column)) AS \($0.alias)" }).joined(separator: ", ")
        }
        let grouped = Set(columns.compactMap { if case .dimension(let dimension) = $0.column { dimension } else { nil } })
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withFullDate]
        let days = binds.add(range.days.map { format.string(from: Date(timeIntervalSince1970: Double($0) * 86_400)) })
        let starts = binds.add(range.hours.map { Int64($0.start) }), ends = binds.add(range.hours.map { Int64($0.end) })
        let from = binds.add(Int64(range.from)), to = binds.add(Int64(range.to))
        let moved = binds.add(range.moved.map(Int64.init))
        var dailyDay = "day", dailyCounts = "hits, visitors, NULL::int8 AS counted"
        if pinned(cube, grouped: grouped, filter: filter) {
            let mixed = """
                day IN (SELECT (hour AT TIME ZONE 'UTC')::date FROM hit_rollups_pending
                        WHERE workspace_id = \(w) AND hour >= to_timestamp(\(from)) AND hour < to_timestamp(\(to)))
                """
            dailyDay = "CASE WHEN \(mixed) THEN day END"
            dailyCounts =
                "hits, CASE WHEN \(mixed) THEN visitors END AS visitors, CASE WHEN NOT \(mixed) THEN visitors_count END AS counted"
        }
        return """
            SELECT \(dailyDay) AS utc_day, day::timestamp AT TIME ZONE 'UTC' + interval '12 hours' AS t, \(selected(slot, counts: dailyCounts))
            FROM hit_cubes_daily
            WHERE workspace_id = \(w) AND cube = \(c) AND day = ANY(\(days)::date[])\(conditions)
            UNION ALL
            SELECT h.* FROM unnest(\(starts)::int8[], \(ends)::int8[]) AS r(s, e), LATERAL (
                SELECT (hour AT TIME ZONE 'UTC')::date AS utc_day, hour AS t, \(selected(slot)) FROM hit_cubes_hourly
                WHERE workspace_id = \(w) AND cube = \(c) AND hour >= to_timestamp(r.s) AND hour < to_timestamp(r.e)\(conditions) OFFSET 0) h
            UNION ALL
            SELECT m.* FROM unnest(\(moved)::int8[]) AS k(s), LATERAL (
                SELECT NULL::date AS utc_day, v.t, \(selected(slot, counts: "v.sign * hits AS hits, NULL::hll AS visitors, NULL::int8 AS counted"))
                FROM hit_cubes_hourly CROSS JOIN LATERAL
                     (VALUES (hour, 1), ((hour AT TIME ZONE 'UTC')::date::timestamp AT TIME ZONE 'UTC' + interval '12 hours', -1)) AS v(t, sign)
                WHERE workspace_id = \(w) AND cube = \(c) AND hour = to_timestamp(k.s)\(conditions) OFFSET 0) m
            UNION ALL
            SELECT (hour AT TIME ZONE 'UTC')::date AS utc_day, hour AS t, \(selected { $0.hitsColumn }) FROM hit_rollups_pending
            WHERE workspace_id = \(w) AND hour >= to_timestamp(\(from)) AND hour < to_timestamp(\(to))\(pendingConditions)
            """
    }

    /// A grouping's column: a dimension, or `source`.
    private static func column(_ grouping: String) -> Column {
        grouping == "source" ? .source : .dimension(AnalyticsCube.Dimension(rawValue: grouping)!)
    }

    /// One row per `interval` (`hour`, `day`) bucket in `zone` from `from` to `to` and group (`groupBy`, one of
    /// `groupings`, or nil): its start, group, hits and unique visitors, most hits first; an empty bucket has one row
    /// of nils. `range`'s days must each lie in one bucket.
    static func timeseries(
        workspace: UUID, from: Date, to: Date, zone: String, interval: String, groupBy: String?, range: CubeRange, filter: Filter,
        on connection: Connection
    ) throws -> [(start: Date, group: String?, hits: Int?, visitors: Int?)] {
        var binds = Binds()
        let (f, t, z, i) = (binds.add(from), binds.add(to), binds.add(zone), binds.add(interval))
        let source = rows(range, columns: [(groupBy.map(column) ?? .none, "key")], filter: filter, workspace: workspace, binds: &binds)
        let sql = """
            WITH buckets AS (
                SELECT generate_series(date_trunc(\(i), \(f)::timestamptz AT TIME ZONE \(z)),
                                       (\(t)::timestamptz - interval '1 microsecond') AT TIME ZONE \(z),
                                       ('1 ' || \(i))::interval) AS b
            ), data AS (
                SELECT b, key, sum(hits)::int8 AS hits, sum(visitors)::int8 AS visitors FROM (
                    SELECT date_trunc(\(i), t AT TIME ZONE \(z)) AS b, key, sum(hits) AS hits, \(dailyVisitors) AS visitors
                    FROM (\(source)) x
                    GROUP BY 1, 2, utc_day
                ) daily
                GROUP BY 1, 2
            )
            SELECT (buckets.b AT TIME ZONE \(z)) AS start, data.key, data.hits, data.visitors
            FROM buckets LEFT JOIN data USING (b)
            ORDER BY buckets.b, data.hits DESC NULLS LAST, data.key
            """
        return try connection.query(Query(unsafeSQL: sql, binds: binds.values)).map { row in
            try (row.decode(0, as: Date.self), row.decode(1, as: String?.self), row.decode(2, as: Int?.self), row.decode(3, as: Int?.self))
        }
    }

    /// The top `limit` values of `dimension` (`path`: with their host, `referrer`), most hits first, from the
    /// compacted `weeks` (day numbers of their Mondays), the whole `days`, the `hours` ranges and the pending rows of
    /// `range` (`[start, end)`, seconds since 1970); with `only`, just those values (for a comparison). The list's
    /// `valued` and `values` count every value (a hit without a referrer has none; its visitors are not kept).
    static func topValues(
        _ dimension: String, workspace: UUID, limit: Int, weeks: [Int], days: [Int], hours: [(start: Int, end: Int)],
        range: (start: Int, end: Int), only: [String]? = nil, filter: Filter, on connection: Connection
    ) throws -> TopList {
        // Compacted weeks from the weekly table, other whole days from the daily one, the hours at either end from
        // the hourly one, and the pending rows of the whole range (`TopSources`): $3 the weeks' Mondays and $4 the
        // days (day numbers), $5/$6 the starts and ends of the hour ranges and $8/$9 the range's (seconds since 1970).
        // Each week, day or hour range is its own index range (LATERAL, kept apart by OFFSET 0, so the planner cannot
        // turn them into one scan).
        let filters = filter.topConditions(firstBind: 10)
        let keys = dimension == "path" ? "hostname, value" : "NULL::text AS hostname, value"
        let select = "SELECT hostname, value, \(filter.topCount) AS hits"
        let dimensionFilter = "workspace_id = $1 AND dimension = '\(dimension)' AND ($7::text[] IS NULL OR value = ANY($7::text[]))"
        let sql = """
            WITH items AS (SELECT \(keys), sum(hits)::int8 AS hits FROM (
                SELECT t.* FROM unnest($3::int[]) AS w(n), LATERAL (
                    \(select) FROM hit_top_weekly
                    WHERE \(dimensionFilter) AND week = date '1970-01-01' + w.n\(filters.sql) OFFSET 0) t
                UNION ALL
                SELECT t.* FROM unnest($4::int[]) AS d(n), LATERAL (
                    \(select) FROM hit_top_daily
                    WHERE \(dimensionFilter) AND day = date '1970-01-01' + d.n\(filters.sql) OFFSET 0) t
                UNION ALL
                SELECT t.* FROM unnest($5::int8[], $6::int8[]) AS r(s, e), LATERAL (
                    \(select) FROM hit_top_hourly
                    WHERE \(dimensionFilter) AND hour >= to_timestamp(r.s) AND hour < to_timestamp(r.e)\(filters.sql) OFFSET 0) t
                UNION ALL
                \(select) FROM hit_top_pending
                WHERE \(dimensionFilter) AND hour >= to_timestamp($8) AND hour < to_timestamp($9)\(filters.sql)
            ) counted
            GROUP BY 1, 2 HAVING sum(hits) > 0)
            (SELECT 0::int8 AS kind, hostname, value, hits FROM items ORDER BY 4 DESC, 2, 3 LIMIT $2)
            UNION ALL
            SELECT count(*)::int8 + 1, NULL, NULL, coalesce(sum(hits), 0)::int8 FROM items
            """
        var binds: [any PostgresEncodable] = [
            workspace, limit, weeks, days, hours.map(\.start), hours.map(\.end), only, range.start, range.end,
        ]
        binds += filters.binds.map { $0 as any PostgresEncodable }
        var list = TopList()
        // Kind 0: an item listed; else how many values there are (plus one) and their hits.
        for row in try connection.query(Query(unsafeSQL: sql, binds: binds)) {
            let (kind, hits) = (try row.decode(0, as: Int.self), try row.decode(3, as: Int.self))
            if kind == 0 {
                list.items.append((try row.decode(1, as: String?.self), try row.decode(2, as: String.self), hits, 0))
            } else {
                (list.valued, list.values) = (hits, kind - 1)
            }
        }
        return list
    }

    /// How a rollup top list ranks its items.
    enum Ranking: String, CaseIterable {
        case hits, visitors
    }

    /// An item of a rollup top list: its context (the column naming it, or nil), value, hits and unique visitors.
    typealias RollupItem = (context: String?, value: String, hits: Int, visitors: Int)

    /// A top list with what it leaves out: the hits and visitors without a value (`unknown`: no country known, a
    /// campaign-less tap), and the hits of every value and how many values there are, listed or not.
    struct TopList {
        var items: [RollupItem] = []
        var unknown: (hits: Int, visitors: Int) = (0, 0)
        /// Hits with a value (`items` and the values not listed).
        var valued = 0
        /// How many distinct values (with their context) there are.
        var values = 0
    }

    /// The top `limit` values of a rollup `dimension` (one of `rollupDimensions`, each with its context's value or
    /// nil) in `range`, ranked by `ranking`; with `only`, just those values (for a comparison). The hits without a
    /// value are counted apart (`TopList.unknown`), with the hits and number of all the values.
    static func topRollups(
        _ dimension: String, workspace: UUID, range: CubeRange, limit: Int, ranking: Ranking = .hits, only: [String]? = nil,
        filter: Filter, on connection: Connection
    ) throws -> TopList {
        let (context, ranked) = rollupDimensions[dimension]!
        var binds = Binds()
        let source = rows(
            range, columns: [(context.map(Column.dimension) ?? .none, "context"), (.dimension(ranked), "value")],
            filter: filter, workspace: workspace, binds: &binds)
        let (l, o) = (binds.add(limit), binds.add(only))
        let order = ranking == .hits ? "hits DESC, visitors DESC" : "visitors DESC, hits DESC"
        // Kind 0: the items listed; 1: the hits without a value; 2: the hits of every value, and how many values.
        let sql = """
            WITH items AS (
                SELECT context, value, sum(hits)::int8 AS hits, sum(visitors)::int8 AS visitors FROM (
                    SELECT context, value, sum(hits) AS hits, \(dailyVisitors) AS visitors
                    FROM (\(source)) x
                    WHERE \(o)::text[] IS NULL OR value = ANY(\(o)::text[])
                    GROUP BY 1, 2, utc_day
                ) daily
                GROUP BY 1, 2
            )
            (SELECT 0::int8 AS kind, context, value, hits, visitors FROM items WHERE value IS NOT NULL
             ORDER BY \(order), context, value LIMIT \(l))
            UNION ALL
            SELECT 1::int8, NULL, NULL, coalesce(sum(hits), 0)::int8, coalesce(sum(visitors), 0)::int8 FROM items WHERE value IS NULL
            UNION ALL
            SELECT 2::int8, NULL, NULL, coalesce(sum(hits), 0)::int8, count(*)::int8 FROM items WHERE value IS NOT NULL
            """
        var list = TopList()
        for row in try connection.query(Query(unsafeSQL: sql, binds: binds.values)) {
            let (hits, visitors) = (try row.decode(3, as: Int.self), try row.decode(4, as: Int.self))
            switch try row.decode(0, as: Int.self) {
            case 0: list.items.append((try row.decode(1, as: String?.self), try row.decode(2, as: String.self), hits, visitors))
            case 1: list.unknown = (hits, visitors)
            default: (list.valued, list.values) = (hits, visitors)
            }
        }
        return list
    }

    /// Hits in `range` by outcome, source, platform, bot flag and what clicks got (`served`), bots included whatever
    /// `filter.includeBots` says. Outcome, platform and served are nil when `range.cube` does not keep them.
    static func summary(
        workspace: UUID, range: CubeRange, filter: Filter, on connection: Connection
    ) throws -> [(outcome: String?, source: String, platform: String?, isBot: Bool, hits: Int, served: String?)] {
        var everything = filter
        everything.includeBots = true
        var binds = Binds()
        // What the cube does not keep is NULL in the pending rows too: the same answer before and after a fold.
        let kept = { (dimension: AnalyticsCube.Dimension) in range.cube.slot(dimension) == nil ? Column.none : .dimension(dimension) }
        let source = rows(
            range,
            columns: [
                (kept(.outcome), "outcome"), (.source, "source"), (kept(.platform), "platform"),
                (.isBot, "is_bot"), (kept(.served), "served"),
            ],
            filter: everything, workspace: workspace, binds: &binds)
        return try connection.query(
            Query(
                unsafeSQL: """
                    SELECT outcome, source, platform, is_bot, sum(hits)::int8, served FROM (\(source)) x GROUP BY 1, 2, 3, 4, 6
                    """, binds: binds.values)
        ).map { row in
            try (
                row.decode(0, as: String?.self), row.decode(1, as: String.self), row.decode(2, as: String?.self),
                row.decode(3, as: Bool.self), row.decode(4, as: Int.self), row.decode(5, as: String?.self)
            )
        }
    }

    /// The unique visitors of the hits in `range` matching `filter` (bots per `filter.includeBots`): the sum over UTC
    /// days of each day's distinct visitors.
    static func visitors(workspace: UUID, range: CubeRange, filter: Filter, on connection: Connection) throws -> Int {
        var binds = Binds()
        let source = rows(range, columns: [], filter: filter, workspace: workspace, binds: &binds)
        return try connection.query(
            Query(
                unsafeSQL: """
                    SELECT coalesce(sum(visitors), 0)::int8 FROM (
                        SELECT \(dailyVisitors) AS visitors FROM (\(source)) x GROUP BY utc_day
                    ) daily
                    """, binds: binds.values)
        ).first!.decode(0, as: Int.self)
    }

    /// What names the ids and values of `dimension` (`app`, `rule`, `link`, `destination`; nothing for the others),
    /// by key (`key(context:value:)`): an app's name and platform, a rule's path and position, a link's slug, a
    /// destination type's title with its app's name and platform (one type name can be declared by several apps). Ids of deleted things, or of another workspace, have none.
    static func names(
        _ dimension: String, of items: [(context: String?, value: String)], workspace: UUID,
        on connection: Connection
    ) throws -> [String: JSONValue] {
        let sql: String
        switch dimension {
        case "app":
            sql = """
                SELECT id::text, json_build_object('name', name, 'platform', platform)::text
                FROM apps WHERE workspace_id = $1 AND id::text = ANY($2::text[])
                """
        case "rule":
            sql = """
                SELECT id::text, json_build_object('path', coalesce(definition->>'path', definition->>'pattern'), 'position', position)::text
                FROM rules WHERE workspace_id = $1 AND id::text = ANY($2::text[])
                """
        case "link":
            sql = "SELECT id::text, json_build_object('slug', slug)::text FROM links WHERE workspace_id = $1 AND id::text = ANY($2::text[])"
        case "target", "variant":
            // "Spring sale · Germany (target) · B (variant)" (the link's name, else its slug): a variant is named with the target carrying it (none for
            // the link's own variants; the first target with a variant of that name otherwise).
            let label =
                dimension == "target"
                ? "coalesce(l.name, l.slug) || ' · ' || k.value || ' (target)'"
                : """
                coalesce(l.name, l.slug) || coalesce(' · ' || CASE WHEN EXISTS (SELECT 1 FROM json_array_elements(coalesce(l.variants, '[]')) v WHERE v->>'name' = k.value)
                    THEN NULL ELSE (SELECT t->>'name' FROM json_array_elements(coalesce(l.targets, '[]')) WITH ORDINALITY AS x(t, n)
                    WHERE EXISTS (SELECT 1 FROM json_array_elements(coalesce(t->'variants', '[]')) v WHERE v->>'name' = k.value) ORDER BY n LIMIT 1) END
                    || ' (target)', '') || ' · ' || k.value || ' (variant)'
                """
            sql = """
                SELECT k0.key, json_build_object('slug', l.slug, 'name', l.name, 'label', \(label))::text
                FROM unnest($2::text[]) AS k0(key) CROSS JOIN LATERAL (SELECT split_part(k0.key, ' ', 1) AS link, substr(k0.key, 38) AS value) k
                JOIN links l ON l.workspace_id = $1 AND l.id::text = k.link
                """
        case "destination":
            sql = """
                SELECT d.app_id::text || ' ' || d.name, json_build_object('title', d.title, 'appName', a.name, 'appPlatform', a.platform)::text
                FROM destinations d JOIN apps a ON a.id = d.app_id
                WHERE d.workspace_id = $1 AND d.app_id::text || ' ' || d.name = ANY($2::text[])
                """
        default: return [:]
        }
        let keys = items.map { key(dimension, context: $0.context, value: $0.value) }
        var names: [String: JSONValue] = [:]
        for row in try connection.query(Query(unsafeSQL: sql, binds: [workspace, keys])) {
            let (key, json) = try row.decode((String, String).self)
            names[key] = try? JSONValue.parse(json)
        }
        return names
    }

    /// The key `names` answers an item under: its value, or for a destination type its app's id and type.
    static func key(_ dimension: String, context: String?, value: String) -> String {
        dimension == "destination" || dimension == "target" || dimension == "variant" ? "\(context ?? "") \(value)" : value
    }

    /// The compacted weeks (by their Monday), as day numbers, from day `first` to before day `last`.
    static func compactedWeeks(fromDay first: Int, toDay last: Int, on connection: Connection) throws -> Set<Int64> {
        Set(
            try connection.query(
                """
                SELECT week - date '1970-01-01' FROM hit_top_weeks
                WHERE week >= date '1970-01-01' + \(first)::int AND week < date '1970-01-01' + \(last)::int
                """
            ).map { Int64(try $0.decode(0, as: Int.self)) })
    }
}
