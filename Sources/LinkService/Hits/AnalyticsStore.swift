import Foundation
import LinkKit
import Postgres

/// The SQL of the analytics reads (`/v1/analytics/*`): the hourly rollups (`hit_rollups_hourly`, with their
/// visitor sketches) and the top-value tables (`hit_top_hourly`/`_daily`/`_weekly` and their compaction ledgers),
/// never raw hits. Every query is filtered by a workspace.
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

        /// Whether the filter names a link, a campaign value or a visitor's country or device (which the top-value
        /// tables do not keep).
        var hasRollupOnlyFilter: Bool { link != nil || !campaign.isEmpty || !visitor.isEmpty }

        /// SQL conditions on the rollup columns and their binds, numbered after `firstBind - 1` existing ones.
        /// - Parameter topValues: for the top-value tables, which have no `app_id` and keep source and bot
        ///   flag as count columns (see `topCount`) instead of key columns, and no `served`, link or campaign.
        func conditions(firstBind: Int, topValues: Bool = false) -> (sql: String, binds: [String]) {
            var sql = ""
            var binds: [String] = []
            func add(_ column: String, _ value: String, cast: String = "") {
                binds.append(value)
                sql += " AND \(column) = $\(firstBind + binds.count - 1)\(cast)"
            }
            if let host { add("hostname", host) }
            if !topValues, let app { add("app_id", app.uuidString, cast: "::uuid") }
            if let outcome { add("outcome", outcome.rawValue) }
            if !topValues, let source { add("source", source.rawValue) }
            if !topValues, let served { add("served", served.rawValue) }
            if !topValues, let link { add("link_id", link.uuidString, cast: "::uuid") }
            if !topValues {
                for field in Hit.Campaign.Field.allCases { if let value = campaign[field] { add(field.rawValue, value) } }
                for field in VisitorField.allCases { if let value = visitor[field] { add(field.rawValue, value) } }
            }
            if !topValues, !includeBots { sql += " AND NOT is_bot" }
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

    /// Group-by names → rollup column (as text). The campaign and visitor fields are named as their columns
    /// (`utm_source`, `country`, …).
    static let groupColumns: [String: String] = [
        "outcome": "outcome", "platform": "platform", "destination": "destination_type",
        "rule": "rule_id::text", "host": "hostname", "app": "app_id::text", "source": "source",
        "served": "served", "link": "link_id::text",
    ].merging(Hit.Campaign.Field.allCases.map { ($0.rawValue, $0.rawValue) } + VisitorField.allCases.map { ($0.rawValue, $0.rawValue) }) { first, _ in first }

    /// Top-list dimensions read from the hourly rollups → (the column naming each item's context, or nil, and the
    /// ranked column, as text): `destination` with its app, `rule`, `served` and `link` with their host, and the
    /// campaign and visitor fields alone (one campaign, or country, spans a workspace's domains).
    static let rollupDimensions: [String: (context: String?, column: String)] = {
        var dimensions: [String: (context: String?, column: String)] = [
            "destination": ("app_id::text", "destination_type"), "rule": ("hostname", "rule_id::text"), "served": ("hostname", "served"),
            "link": ("hostname", "link_id::text"), "app": (nil, "app_id::text"), "host": (nil, "hostname"),
        ]
        for field in Hit.Campaign.Field.allCases { dimensions[field.rawValue] = (nil, field.rawValue) }
        for field in VisitorField.allCases { dimensions[field.rawValue] = (nil, field.rawValue) }
        return dimensions
    }()

    /// Runs an analytics read in a transaction without JIT compilation: these queries take tens to hundreds of
    /// milliseconds, and JIT-compiling them costs more than it saves.
    static func read<T>(_ pool: ConnectionPool, _ body: (Connection) throws -> T) throws -> T {
        try pool.withTransaction { connection in
            try connection.executeScript("SET LOCAL jit = off")
            return try body(connection)
        }
    }

    /// The URLs hit most on `hostname` (a wildcard's names included) in the last `days` days, most first, at most
    /// `limit`: host, path and query as they were asked (an association diff's corpus).
    static func recentURLs(workspace: UUID, hostname: String, days: Int, limit: Int, on connection: Connection) throws
        -> [(host: String, path: String, query: String?)] {
        let root = hostname.hasPrefix("*.") ? String(hostname.dropFirst(2)) : hostname
        return try connection.query(Query(unsafeSQL: """
            SELECT hostname, path, query FROM hits
            WHERE workspace_id = $1 AND time >= now() - make_interval(days => $2::int)
              AND (hostname = $3 OR ($4 AND hostname LIKE '%.' || $3))
            GROUP BY hostname, path, query ORDER BY count(*) DESC, hostname, path, query LIMIT $5
            """, binds: [workspace, days, root, hostname.hasPrefix("*."), limit])).map { row in
            try row.decode((String, String, String?).self)
        }.map { (host: $0.0, path: $0.1, query: $0.2) }
    }

    /// The distinct visitors of the rows grouped, per UTC day (summed over days by the caller's SQL).
    private static let dailyVisitors = "round(hll_cardinality(hll_union_agg(visitors)))::int8"

    /// One row per `interval` (`hour`, `day`) bucket in `zone` from `from` to `to` and group (`groupColumn`, one of
    /// `groupColumns`, or `NULL::text`): its start, group, hits and unique visitors, most hits first; an empty
    /// bucket has one row of nils.
    static func timeseries(
        workspace: UUID, from: Date, to: Date, zone: String, interval: String, groupColumn: String, filter: Filter, on connection: Connection
    ) throws -> [(start: Date, group: String?, hits: Int?, visitors: Int?)] {
        let filters = filter.conditions(firstBind: 6)
        // $1 workspace, $2 from, $3 to, $4 zone, $5 interval unit; filters from $6.
        let sql = """
            WITH buckets AS (
                SELECT generate_series(date_trunc($5, $2::timestamptz AT TIME ZONE $4),
                                       ($3::timestamptz - interval '1 microsecond') AT TIME ZONE $4,
                                       ('1 ' || $5)::interval) AS b
            ), data AS (
                SELECT b, key, sum(hits)::int8 AS hits, sum(visitors)::int8 AS visitors FROM (
                    SELECT date_trunc($5, hour AT TIME ZONE $4) AS b, \(groupColumn) AS key, sum(hits) AS hits,
                           \(dailyVisitors) AS visitors
                    FROM hit_rollups_hourly
                    WHERE workspace_id = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz\(filters.sql)
                    GROUP BY 1, 2, (hour AT TIME ZONE 'UTC')::date
                ) daily
                GROUP BY 1, 2
            )
            SELECT (buckets.b AT TIME ZONE $4) AS start, data.key, data.hits, data.visitors
            FROM buckets LEFT JOIN data USING (b)
            ORDER BY buckets.b, data.hits DESC NULLS LAST, data.key
            """
        var binds: [any PostgresEncodable] = [workspace, from, to, zone, interval]
        binds += filters.binds.map { $0 as any PostgresEncodable }
        return try connection.query(Query(unsafeSQL: sql, binds: binds)).map { row in
            try (row.decode(0, as: Date.self), row.decode(1, as: String?.self), row.decode(2, as: Int?.self), row.decode(3, as: Int?.self))
        }
    }

    /// The top `limit` values of `dimension` (`path`: with their host, `referrer`), most hits first, from the
    /// compacted `weeks` (day numbers of their Mondays) and `days`, and the hour ranges `[hourStarts[i], hourEnds[i])`
    /// (seconds since 1970); with `only`, just those values (for a comparison).
    static func topValues(
        _ dimension: String, workspace: UUID, limit: Int, weeks: [Int], days: [Int], hourStarts: [Int], hourEnds: [Int],
        only: [String]? = nil, filter: Filter, on connection: Connection
    ) throws -> [(String?, String, Int)] {
        // Compacted weeks from the weekly table, other compacted whole days from the daily one, everything
        // else from the hourly one (`TopSources`): $3 the weeks' Mondays and $4 the days (day numbers), $5/$6
        // the starts and ends of the hour ranges (seconds since 1970). Each week, day or hour range is its own
        // index range (LATERAL, kept apart by OFFSET 0, so the planner cannot turn them into one scan).
        let filters = filter.conditions(firstBind: 8, topValues: true)
        let keys = dimension == "path" ? "hostname, value" : "NULL::text, value"
        let select = "SELECT hostname, value, \(filter.topCount) AS hits"
        let dimensionFilter = "workspace_id = $1 AND dimension = '\(dimension)' AND ($7::text[] IS NULL OR value = ANY($7::text[]))"
        let sql = """
            SELECT \(keys), sum(hits)::int8 AS hits FROM (
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
            ) counted
            GROUP BY 1, 2 HAVING sum(hits) > 0 ORDER BY 3 DESC, 1, 2 LIMIT $2
            """
        var binds: [any PostgresEncodable] = [workspace, limit, weeks, days, hourStarts, hourEnds, only]
        binds += filters.binds.map { $0 as any PostgresEncodable }
        return try topRows(sql, binds, on: connection)
    }

    /// How a rollup top list ranks its items.
    enum Ranking: String, CaseIterable {
        case hits, visitors
    }

    /// An item of a rollup top list: its context (the column naming it, or nil), value, hits and unique visitors.
    typealias RollupItem = (context: String?, value: String, hits: Int, visitors: Int)

    /// The top `limit` values of a rollup `dimension` (one of `rollupDimensions`, each with its context column's
    /// value or nil) from `from` to `to`, ranked by `ranking`; with `only`, just those values (for a comparison).
    static func topRollups(
        _ dimension: String, workspace: UUID, from: Date, to: Date, limit: Int, ranking: Ranking = .hits, only: [String]? = nil,
        filter: Filter, on connection: Connection
    ) throws -> [RollupItem] {
        let filters = filter.conditions(firstBind: 6)
        let (context, column) = rollupDimensions[dimension]!
        let first = context ?? "NULL::text"
        let order = ranking == .hits ? "3 DESC, 4 DESC" : "4 DESC, 3 DESC"
        let sql = """
            SELECT context, value, sum(hits)::int8, sum(visitors)::int8 FROM (
                SELECT \(first) AS context, \(column) AS value, sum(hits) AS hits, \(dailyVisitors) AS visitors
                FROM hit_rollups_hourly
                WHERE workspace_id = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz AND \(column) IS NOT NULL
                  AND ($5::text[] IS NULL OR \(column) = ANY($5::text[]))\(filters.sql)
                GROUP BY 1, 2, (hour AT TIME ZONE 'UTC')::date
            ) daily
            GROUP BY 1, 2 ORDER BY \(order), 1, 2 LIMIT $4
            """
        var binds: [any PostgresEncodable] = [workspace, from, to, limit, only]
        binds += filters.binds.map { $0 as any PostgresEncodable }
        return try connection.query(Query(unsafeSQL: sql, binds: binds)).map { row in
            try (row.decode(0, as: String?.self), row.decode(1, as: String.self), row.decode(2, as: Int.self), row.decode(3, as: Int.self))
        }
    }

    private static func topRows(_ sql: String, _ binds: [any PostgresEncodable], on connection: Connection) throws -> [(String?, String, Int)] {
        try connection.query(Query(unsafeSQL: sql, binds: binds)).map { row in
            try (row.decode(0, as: String?.self), row.decode(1, as: String.self), row.decode(2, as: Int.self))
        }
    }

    /// Hits from `from` to `to` by outcome, source, platform, bot flag and what clicks got (`served`), bots
    /// included whatever `filter.includeBots` says.
    static func summary(
        workspace: UUID, from: Date, to: Date, filter: Filter, on connection: Connection
    ) throws -> [(outcome: String, source: String, platform: String, isBot: Bool, hits: Int, served: String?)] {
        var everything = filter
        everything.includeBots = true
        let conditions = everything.conditions(firstBind: 4)
        var binds: [any PostgresEncodable] = [workspace, from, to]
        binds += conditions.binds.map { $0 as any PostgresEncodable }
        return try connection.query(Query(unsafeSQL: """
            SELECT outcome, source, platform, is_bot, sum(hits)::int8, served FROM hit_rollups_hourly
            WHERE workspace_id = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz\(conditions.sql)
            GROUP BY 1, 2, 3, 4, 6
            """, binds: binds)).map { row in
            try (row.decode(0, as: String.self), row.decode(1, as: String.self), row.decode(2, as: String.self),
                 row.decode(3, as: Bool.self), row.decode(4, as: Int.self), row.decode(5, as: String?.self))
        }
    }

    /// The unique visitors of the hits from `from` to `to` matching `filter` (bots per `filter.includeBots`): the
    /// sum over UTC days of each day's distinct visitors.
    static func visitors(workspace: UUID, from: Date, to: Date, filter: Filter, on connection: Connection) throws -> Int {
        let conditions = filter.conditions(firstBind: 4)
        var binds: [any PostgresEncodable] = [workspace, from, to]
        binds += conditions.binds.map { $0 as any PostgresEncodable }
        return try connection.query(Query(unsafeSQL: """
            SELECT coalesce(sum(visitors), 0)::int8 FROM (
                SELECT \(dailyVisitors) AS visitors FROM hit_rollups_hourly
                WHERE workspace_id = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz\(conditions.sql)
                GROUP BY (hour AT TIME ZONE 'UTC')::date
            ) daily
            """, binds: binds)).first!.decode(0, as: Int.self)
    }

    /// What names the ids and values of `dimension` (`app`, `rule`, `link`, `destination`; nothing for the others),
    /// by key (`key(context:value:)`): an app's name, a rule's path and position, a link's slug, a destination
    /// type's title. Ids of deleted things, or of another workspace, have none.
    static func names(_ dimension: String, of items: [(context: String?, value: String)], workspace: UUID,
                      on connection: Connection) throws -> [String: JSONValue] {
        let sql: String
        switch dimension {
        case "app": sql = "SELECT id::text, json_build_object('name', name)::text FROM apps WHERE workspace_id = $1 AND id::text = ANY($2::text[])"
        case "rule":
            sql = """
                SELECT id::text, json_build_object('path', coalesce(definition->>'path', definition->>'pattern'), 'position', position)::text
                FROM rules WHERE workspace_id = $1 AND id::text = ANY($2::text[])
                """
        case "link": sql = "SELECT id::text, json_build_object('slug', slug)::text FROM links WHERE workspace_id = $1 AND id::text = ANY($2::text[])"
        case "destination":
            sql = """
                SELECT app_id::text || ' ' || name, json_build_object('title', title)::text FROM destinations
                WHERE workspace_id = $1 AND app_id::text || ' ' || name = ANY($2::text[])
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
        dimension == "destination" ? "\(context ?? "") \(value)" : value
    }

    /// The compacted days and weeks (by their Monday), as day numbers, from day `first` to before day `last`.
    static func compacted(fromDay first: Int, toDay last: Int, on connection: Connection) throws -> (days: Set<Int64>, weeks: Set<Int64>) {
        let rows = try connection.query("""
            SELECT 0, day - date '1970-01-01' FROM hit_top_days
            WHERE day >= date '1970-01-01' + \(first)::int AND day < date '1970-01-01' + \(last)::int
            UNION ALL
            SELECT 1, week - date '1970-01-01' FROM hit_top_weeks
            WHERE week >= date '1970-01-01' + \(first)::int AND week < date '1970-01-01' + \(last)::int
            """).map { try $0.decode((Int, Int).self) }
        return (Set(rows.filter { $0.0 == 0 }.map { Int64($0.1) }), Set(rows.filter { $0.0 == 1 }.map { Int64($0.1) }))
    }
}
