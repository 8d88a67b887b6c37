import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/analytics/*`: time series, top lists and a summary of the caller's workspace hits, served from the
/// hourly rollups (`hit_rollups_hourly`, `hit_top_hourly`/`hit_top_daily`, `hit_visitor_counts`), never from raw hits.
/// Every query is filtered by the caller's workspace.
struct AnalyticsHandlers: EndpointGroup {
    let pool: ConnectionPool
    let auth: Authenticator

    static var schemas: [(name: String, schema: Schema)] { APISchemas.analytics }

    var endpoints: [Endpoint] {
        [
            Endpoint(.GET, "/v1/analytics/timeseries", "analyticsTimeseries", "Hits per hour or day, optionally grouped", tag: "Analytics",
                     scope: .read,
                     query: Self.parameters + [
                        QueryParameter("interval", .enumeration(["hour", "day"]), "Bucket size (default day; hour covers at most 31 days)."),
                        QueryParameter("groupBy", .enumeration(["outcome", "platform", "destination", "rule", "host", "app", "source", "served"]), "Split each bucket by this dimension."),
                     ],
                     success: Self.answer(json: "`{from, to, timeZone, includeBots, filters, interval, groupBy, total, buckets: [{start, total, groups?}]}`.",
                                     csv: "`start,group,hits`, one row per bucket and group."), timeseries),
            Endpoint(.GET, "/v1/analytics/top", "analyticsTop", "The most frequent paths, destinations, rules or referrers", tag: "Analytics",
                     scope: .read,
                     query: Self.parameters + [
                        QueryParameter("dimension", .enumeration(["path", "destination", "rule", "referrer", "served"]), "What to rank, e.g. `path` with `outcome=no_match`, or `destination` with `served=landing` and then `served=claim` (clicks and claims per destination).", required: true),
                        QueryParameter("limit", Schema.integer(minimum: 1, maximum: 100), "How many (default 10)."),
                     ],
                     success: Self.answer(json: "`{…, dimension, items: [{host?|app?, path|destination|rule|referrer|served, hits}]}`.",
                                     csv: "A header row naming the columns, then one row per item."), top),
            Endpoint(.GET, "/v1/analytics/summary", "analyticsSummary", "Totals, unique visitors, bot share, per outcome", tag: "Analytics",
                     scope: .read, query: Self.parameters,
                     success: Self.answer(json: "`{…, hits, botHits, botShare, uniqueVisitors, byOutcome, bySource, byPlatform, byServed}`.",
                                     csv: "`metric,value`, one row per figure."), summary),
        ]
    }

    /// The parameters every analytics endpoint takes (see `AnalyticsParameters`).
    private static let parameters: [QueryParameter] = [
        QueryParameter("from", instant, "Start: RFC 3339 or a date in `tz` (default: 7 days before `to`); rounded down to the hour. Must be before `to`, at most \(AnalyticsParameters.maxDays) days before it, and not before 1970 (UTC)."),
        QueryParameter("to", instant, "End, exclusive: RFC 3339 or a date in `tz` (that whole day; default now); rounded up to the hour."),
        QueryParameter("tz", Schema.ref("TimeZone"), "IANA time zone for day buckets and dates (default UTC)."),
        QueryParameter("host", Schema.string(maxLength: 253), "Only hits on this link domain."),
        QueryParameter("app", .uuid, "Only hits of this app."),
        QueryParameter("outcome", .enumeration(["open_app", "excluded", "no_match", "unknown_domain", "invalid_param"]), "Only hits with this outcome."),
        QueryParameter("source", .enumeration(["resolve", "click", "claim"]), "Only resolves, clicks or deferred-link claims."),
        QueryParameter("served", .enumeration(["landing", "redirect", "preview", "claim"]), "Only clicks that got this (the landing page, a redirect, the preview page bots get) or claims."),
        QueryParameter("includeBots", .enumeration(["true", "false"]), "Count crawlers, link-preview fetchers and HEAD requests too (default false)."),
        QueryParameter("format", .enumeration(["json", "csv"]), "`csv` answers text/csv (as does `Accept: text/csv`)."),
    ]

    /// `from` and `to`: an RFC 3339 timestamp or a date, from 1970 to 9999 (`AnalyticsParameters`).
    private static let instant = Schema.string(
        pattern: "^(19[7-9][0-9]|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]{1,9})?(Z|[+-](0[0-9]|1[0-7]):[0-5][0-9]))?$"
    ).example("2026-11-01T00:00:00Z")

    /// An analytics answer: JSON, or CSV (RFC 4180, with a header row) for `format=csv` or `Accept: text/csv`.
    private static func answer(json: String, csv: String) -> Endpoint.Success {
        .alternatives(200, [
            ("application/json", Schema.anyObject.described(json)),
            ("text/csv", Schema.string.described(csv + " Sent as `text/csv; charset=utf-8; header=present`.")),
        ])
    }

    /// Group-by names → rollup column (as text).
    static let groupColumns: [String: String] = [
        "outcome": "outcome", "platform": "platform", "destination": "destination_type",
        "rule": "rule_id::text", "host": "hostname", "app": "app_id::text", "source": "source",
        "served": "served",
    ]

    /// `?interval=hour|day&groupBy=…`: one bucket per hour or day (in `tz`) from `from` to `to`, empty ones
    /// included, each with its total and, when grouped, the count per group (`(none)` for hits without one).
    func timeseries(_ request: Request, _ principal: Principal) throws -> Response {
        let parameters = try AnalyticsParameters(request, allowed: ["interval", "groupBy"])
        let interval = request.query("interval") ?? "day"
        guard interval == "hour" || interval == "day" else {
            throw ServiceError.badRequest("interval must be hour or day, not '\(interval)'.")
        }
        let groupBy = request.query("groupBy")
        var groupColumn = "NULL::text"
        if let groupBy {
            guard let column = Self.groupColumns[groupBy] else {
                throw ServiceError.badRequest("groupBy must be one of \(Self.groupColumns.keys.sorted().joined(separator: ", ")), not '\(groupBy)'.")
            }
            groupColumn = column
        }
        if interval == "hour", parameters.to.timeIntervalSince(parameters.from) > 31 * 86_400 {
            throw ServiceError.badRequest("interval=hour covers at most 31 days; use interval=day for longer ranges.")
        }
        let filters = parameters.conditions(firstBind: 6)
        // $1 workspace, $2 from, $3 to, $4 zone, $5 interval unit; filters from $6.
        let sql = """
            WITH buckets AS (
                SELECT generate_series(date_trunc($5, $2::timestamptz AT TIME ZONE $4),
                                       ($3::timestamptz - interval '1 microsecond') AT TIME ZONE $4,
                                       ('1 ' || $5)::interval) AS b
            ), data AS (
                SELECT date_trunc($5, hour AT TIME ZONE $4) AS b, \(groupColumn) AS key, sum(hits)::int8 AS hits
                FROM hit_rollups_hourly
                WHERE workspace_id = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz\(filters.sql)
                GROUP BY 1, 2
            )
            SELECT (buckets.b AT TIME ZONE $4) AS start, data.key, data.hits
            FROM buckets LEFT JOIN data USING (b)
            ORDER BY buckets.b, data.hits DESC NULLS LAST, data.key
            """
        var binds: [any PostgresEncodable] = [principal.workspaceID, parameters.from, parameters.to, parameters.timeZone.identifier, interval]
        binds += filters.binds.map { $0 as any PostgresEncodable }
        let rows = try Self.read(pool) { connection in
            try connection.query(Query(unsafeSQL: sql, binds: binds)).map { row in
                try (row.decode(0, as: Date.self), row.decode(1, as: String?.self), row.decode(2, as: Int?.self))
            }
        }
        var buckets: [(start: Date, total: Int, groups: [JSONMember])] = []
        var csvRows: [[String]] = []
        var total = 0
        for (start, key, hits) in rows {
            if buckets.last?.start != start { buckets.append((start, 0, [])) }
            let label = AnalyticsParameters.format(start, parameters.timeZone)
            guard let hits else {
                csvRows.append([label, "", "0"])
                continue
            }
            buckets[buckets.count - 1].total += hits
            total += hits
            if groupBy != nil { buckets[buckets.count - 1].groups.append(JSONMember(key: key ?? "(none)", value: .number(String(hits)))) }
            csvRows.append([label, groupBy == nil ? "" : key ?? "(none)", String(hits)])
        }
        var members = parameters.jsonMembers
        members.append(JSONMember(key: "interval", value: .string(interval)))
        members.append(JSONMember(key: "groupBy", value: groupBy.map(JSONValue.string) ?? .null))
        members.append(JSONMember(key: "total", value: .number(String(total))))
        members.append(JSONMember(key: "buckets", value: .array(buckets.map { bucket in
            var fields = [
                JSONMember(key: "start", value: .string(AnalyticsParameters.format(bucket.start, parameters.timeZone))),
                JSONMember(key: "total", value: .number(String(bucket.total))),
            ]
            if groupBy != nil { fields.append(JSONMember(key: "groups", value: .object(bucket.groups))) }
            return .object(fields)
        })))
        return AnalyticsOutput(json: .object(members), csvHeader: ["start", groupBy ?? "group", "hits"], csvRows: csvRows)
            .response(csv: parameters.csv)
    }

    /// `?dimension=path|destination|rule|referrer|served&limit=`: the most frequent values, most hits first.
    /// `outcome=no_match&dimension=path` lists the broken or unclaimed links to fix; `dimension=destination`
    /// with `served=landing` and then `served=claim` gives clicks and claims per destination.
    func top(_ request: Request, _ principal: Principal) throws -> Response {
        let parameters = try AnalyticsParameters(request, allowed: ["dimension", "limit"])
        guard let dimension = request.query("dimension") else {
            throw ServiceError.badRequest("dimension is required: path, destination, rule, referrer or served.")
        }
        var limit = 10
        if let text = request.query("limit") {
            guard let value = Int(text), (1...100).contains(value) else {
                throw ServiceError.badRequest("limit must be a whole number from 1 to 100, not '\(text)'.")
            }
            limit = value
        }
        let sql: String
        let filters: (sql: String, binds: [String])
        let columns: [String]
        switch dimension {
        case "path", "referrer":
            if parameters.app != nil {
                throw ServiceError.badRequest("The app filter is not available for dimension=\(dimension) (path and referrer counts are kept per host, not per app).")
            }
            if parameters.served != nil {
                throw ServiceError.badRequest("The served filter is not available for dimension=\(dimension) (path and referrer counts do not keep what a click got).")
            }
            // Compacted weeks from the weekly table, other compacted whole days from the daily one, everything
            // else from the hourly one (`TopSources`): $3 the weeks' Mondays and $4 the days (day numbers), $5/$6
            // the starts and ends of the hour ranges (seconds since 1970). Each week, day or hour range is its own
            // index range (LATERAL, kept apart by OFFSET 0, so the planner cannot turn them into one scan).
            filters = parameters.conditions(firstBind: 7, topValues: true)
            let keys = dimension == "path" ? "hostname, value" : "NULL::text, value"
            columns = dimension == "path" ? ["host", "path"] : ["host", "referrer"]
            let select = "SELECT hostname, value, \(parameters.topCount) AS hits"
            let dimensionFilter = "workspace_id = $1 AND dimension = '\(dimension)'"
            sql = """
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
        case "destination", "rule", "served":
            filters = parameters.conditions(firstBind: 5)
            let column = ["destination": "destination_type", "rule": "rule_id::text", "served": "served"][dimension]!
            columns = ["destination": ["app", "destination"], "rule": ["host", "rule"], "served": ["host", "served"]][dimension]!
            let first = dimension == "destination" ? "app_id::text" : "hostname"
            sql = """
                SELECT \(first), \(column), sum(hits)::int8 AS hits FROM hit_rollups_hourly
                WHERE workspace_id = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz AND \(column) IS NOT NULL\(filters.sql)
                GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT $4
                """
        default:
            throw ServiceError.badRequest("dimension must be one of path, destination, rule, referrer, served, not '\(dimension)'.")
        }
        let rows = try Self.read(pool) { connection in
            var binds: [any PostgresEncodable] = [principal.workspaceID]
            if dimension == "path" || dimension == "referrer" {
                let sources = try TopSources.read(from: parameters.from, to: parameters.to, on: connection)
                binds += [limit, sources.weeks, sources.days, sources.hours.map(\.start), sources.hours.map(\.end)]
            } else {
                binds += [parameters.from, parameters.to, limit]
            }
            binds += filters.binds.map { $0 as any PostgresEncodable }
            return try connection.query(Query(unsafeSQL: sql, binds: binds)).map { row in
                try (row.decode(0, as: String?.self), row.decode(1, as: String.self), row.decode(2, as: Int.self))
            }
        }
        var members = parameters.jsonMembers
        members.append(JSONMember(key: "dimension", value: .string(dimension)))
        members.append(JSONMember(key: "items", value: .array(rows.map { first, value, hits in
            var fields: [JSONMember] = []
            if let first { fields.append(JSONMember(key: columns[0], value: .string(first))) }
            fields.append(JSONMember(key: columns[1], value: .string(value)))
            fields.append(JSONMember(key: "hits", value: .number(String(hits))))
            return .object(fields)
        })))
        return AnalyticsOutput(json: .object(members), csvHeader: columns + ["hits"],
                               csvRows: rows.map { [$0.0 ?? "", $0.1, String($0.2)] })
            .response(csv: parameters.csv)
    }

    /// Runs an analytics read in a transaction without JIT compilation: these queries take tens to hundreds of
    /// milliseconds, and JIT-compiling them costs more than it saves.
    static func read<T>(_ pool: ConnectionPool, _ body: (Connection) throws -> T) throws -> T {
        try pool.withTransaction { connection in
            try connection.executeScript("SET LOCAL jit = off")
            return try body(connection)
        }
    }

    /// Totals, bot share, unique visitors and counts per outcome, source, platform and what clicks got (`byServed`).
    ///
    /// `hits` and the breakdowns follow `includeBots`; `botHits` and `botShare` always count every hit
    /// matching the filters. `uniqueVisitors` is the sum over the UTC days the range touches of that
    /// day's distinct visitor hashes in the workspace (the salt rotates daily, so a visitor seen on two
    /// days counts twice; host/app/outcome/source filters do not apply to it).
    func summary(_ request: Request, _ principal: Principal) throws -> Response {
        let parameters = try AnalyticsParameters(request, allowed: [])
        var everything = parameters.conditions(firstBind: 4)
        if !parameters.includeBots { everything.sql = everything.sql.replacingOccurrences(of: " AND NOT is_bot", with: "") }
        var binds: [any PostgresEncodable] = [principal.workspaceID, parameters.from, parameters.to]
        binds += everything.binds.map { $0 as any PostgresEncodable }
        let fromDay = VisitorHasher.day(of: parameters.from)
        let lastDay = VisitorHasher.day(of: parameters.to.addingTimeInterval(-0.000_001))
        let (rows, visitors) = try Self.read(pool) { connection in
            let rows = try connection.query(Query(unsafeSQL: """
                SELECT outcome, source, platform, is_bot, sum(hits)::int8, served FROM hit_rollups_hourly
                WHERE workspace_id = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz\(everything.sql)
                GROUP BY 1, 2, 3, 4, 6
                """, binds: binds)).map { row in
                try (row.decode(0, as: String.self), row.decode(1, as: String.self), row.decode(2, as: String.self),
                     row.decode(3, as: Bool.self), row.decode(4, as: Int.self), row.decode(5, as: String?.self))
            }
            let visitors = try connection.query(Query(unsafeSQL: """
                SELECT coalesce(sum(visitors), 0)::int8 FROM hit_visitor_counts
                WHERE workspace_id = $1 AND day BETWEEN date '1970-01-01' + $2::int AND date '1970-01-01' + $3::int AND ($4 OR NOT is_bot)
                """, binds: [principal.workspaceID, Int(fromDay), Int(lastDay), parameters.includeBots])).first!.decode(0, as: Int.self)
            return (rows, visitors)
        }
        var all = 0, bots = 0, counted = 0
        var byOutcome = Dictionary(uniqueKeysWithValues: Hit.Outcome.allCases.map { ($0.rawValue, 0) })
        var bySource = Dictionary(uniqueKeysWithValues: Hit.Source.allCases.map { ($0.rawValue, 0) })
        var byPlatform = Dictionary(uniqueKeysWithValues: DevicePlatform.allCases.map { ($0.rawValue, 0) })
        var byServed = Dictionary(uniqueKeysWithValues: Hit.Served.allCases.map { ($0.rawValue, 0) })
        for (outcome, source, platform, isBot, hits, served) in rows {
            all += hits
            if isBot { bots += hits }
            guard parameters.includeBots || !isBot else { continue }
            counted += hits
            byOutcome[outcome, default: 0] += hits
            bySource[source, default: 0] += hits
            byPlatform[platform, default: 0] += hits
            if let served { byServed[served, default: 0] += hits }
        }
        let share = all == 0 ? 0 : Double(bots) / Double(all)
        let shareText = String(format: "%.4f", share)
        func object(_ counts: [String: Int], order: [String]) -> JSONValue {
            .object(order.map { JSONMember(key: $0, value: .number(String(counts[$0] ?? 0))) })
        }
        var members = parameters.jsonMembers
        members += [
            JSONMember(key: "hits", value: .number(String(counted))),
            JSONMember(key: "botHits", value: .number(String(bots))),
            JSONMember(key: "botShare", value: .number(shareText)),
            JSONMember(key: "uniqueVisitors", value: .number(String(visitors))),
            JSONMember(key: "byOutcome", value: object(byOutcome, order: Hit.Outcome.allCases.map(\.rawValue))),
            JSONMember(key: "bySource", value: object(bySource, order: Hit.Source.allCases.map(\.rawValue))),
            JSONMember(key: "byPlatform", value: object(byPlatform, order: DevicePlatform.allCases.map(\.rawValue))),
            JSONMember(key: "byServed", value: object(byServed, order: Hit.Served.allCases.map(\.rawValue))),
        ]
        var csvRows = [["hits", String(counted)], ["botHits", String(bots)], ["botShare", shareText], ["uniqueVisitors", String(visitors)]]
        csvRows += Hit.Outcome.allCases.map { ["outcome.\($0.rawValue)", String(byOutcome[$0.rawValue] ?? 0)] }
        csvRows += Hit.Source.allCases.map { ["source.\($0.rawValue)", String(bySource[$0.rawValue] ?? 0)] }
        csvRows += DevicePlatform.allCases.map { ["platform.\($0.rawValue)", String(byPlatform[$0.rawValue] ?? 0)] }
        csvRows += Hit.Served.allCases.map { ["served.\($0.rawValue)", String(byServed[$0.rawValue] ?? 0)] }
        return AnalyticsOutput(json: .object(members), csvHeader: ["metric", "value"], csvRows: csvRows).response(csv: parameters.csv)
    }
}
