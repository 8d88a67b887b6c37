import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/analytics/*`: time series, top lists and a summary of the caller's workspace hits, served from the
/// hourly rollups (`hit_rollups_hourly`, `hit_top_hourly`/`hit_top_daily`, `hit_visitor_counts`), never from raw hits.
/// Every query is filtered by the caller's workspace.
struct AnalyticsHandlers: Sendable {
    let pool: ConnectionPool
    let auth: Authenticator

    func register(in routes: inout RouterBuilder) {
        routes.add(.GET, "/v1/analytics/timeseries", scope: .read, auth: auth, timeseries)
        routes.add(.GET, "/v1/analytics/top", scope: .read, auth: auth, top)
        routes.add(.GET, "/v1/analytics/summary", scope: .read, auth: auth, summary)
    }

    /// Group-by names → rollup column (as text).
    static let groupColumns: [String: String] = [
        "outcome": "outcome", "platform": "platform", "destination": "destination_type",
        "rule": "rule_id::text", "host": "hostname", "app": "app_id::text", "source": "source",
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
        let rows = try pool.withConnection { connection in
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

    /// `?dimension=path|destination|rule|referrer&limit=`: the most frequent values, most hits first.
    /// `outcome=no_match&dimension=path` lists the broken or unclaimed links to fix.
    func top(_ request: Request, _ principal: Principal) throws -> Response {
        let parameters = try AnalyticsParameters(request, allowed: ["dimension", "limit"])
        guard let dimension = request.query("dimension") else {
            throw ServiceError.badRequest("dimension is required: path, destination, rule or referrer.")
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
            // Whole UTC days inside the range that are compacted come from the daily table; the partial days at
            // either end and any whole day not compacted yet from the hourly one, each as its own index range
            // ($5 first whole day, $6 the day after the last one, $7/$8 the same as times; without whole days
            // $7 = $8 and the two edge ranges together cover [from, to)).
            filters = parameters.conditions(firstBind: 9, topValues: true)
            let count = parameters.topCount
            let keys = dimension == "path" ? "hostname, value" : "NULL::text, value"
            columns = dimension == "path" ? ["host", "path"] : ["host", "referrer"]
            sql = """
                SELECT \(keys), sum(hits)::int8 AS hits FROM (
                    SELECT hostname, value, \(count) AS hits FROM hit_top_daily
                    WHERE workspace_id = $1 AND dimension = '\(dimension)'
                      AND day >= date '1970-01-01' + $5::int AND day < date '1970-01-01' + $6::int\(filters.sql)
                    UNION ALL
                    SELECT hostname, value, \(count) AS hits FROM hit_top_hourly
                    WHERE workspace_id = $1 AND dimension = '\(dimension)'
                      AND hour >= $2::timestamptz AND hour < least($7::timestamptz, $3::timestamptz)\(filters.sql)
                    UNION ALL
                    SELECT hostname, value, \(count) AS hits FROM hit_top_hourly
                    WHERE workspace_id = $1 AND dimension = '\(dimension)'
                      AND hour >= greatest($8::timestamptz, $2::timestamptz) AND hour < $3::timestamptz\(filters.sql)
                    UNION ALL
                    SELECT hostname, value, \(count) AS hits
                    FROM generate_series($5::int, $6::int - 1) AS d(n)
                    JOIN hit_top_hourly ON workspace_id = $1 AND dimension = '\(dimension)'
                      AND hour >= to_timestamp(d.n * 86400) AND hour < to_timestamp((d.n + 1) * 86400)
                    WHERE NOT EXISTS (SELECT 1 FROM hit_top_days t WHERE t.day = date '1970-01-01' + d.n)\(filters.sql)
                ) counted
                GROUP BY 1, 2 HAVING sum(hits) > 0 ORDER BY 3 DESC, 1, 2 LIMIT $4
                """
        case "destination", "rule":
            filters = parameters.conditions(firstBind: 5)
            let column = dimension == "destination" ? "destination_type" : "rule_id::text"
            columns = dimension == "destination" ? ["app", "destination"] : ["host", "rule"]
            let first = dimension == "destination" ? "app_id::text" : "hostname"
            sql = """
                SELECT \(first), \(column), sum(hits)::int8 AS hits FROM hit_rollups_hourly
                WHERE workspace_id = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz AND \(column) IS NOT NULL\(filters.sql)
                GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT $4
                """
        default:
            throw ServiceError.badRequest("dimension must be one of path, destination, rule, referrer, not '\(dimension)'.")
        }
        var binds: [any PostgresEncodable] = [principal.workspaceID, parameters.from, parameters.to, limit]
        if dimension == "path" || dimension == "referrer" {
            let (first, end) = Self.wholeDays(from: parameters.from, to: parameters.to)
            binds += [Int(first), Int(end), Date(timeIntervalSince1970: Double(first) * 86_400), Date(timeIntervalSince1970: Double(end) * 86_400)]
        }
        binds += filters.binds.map { $0 as any PostgresEncodable }
        let rows = try pool.withConnection { connection in
            try connection.query(Query(unsafeSQL: sql, binds: binds)).map { row in
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

    /// The whole UTC days inside `[from, to)`: `first..<end` (empty, with `end == first`, when there are none).
    static func wholeDays(from: Date, to: Date) -> (first: Int64, end: Int64) {
        let first = Int64((from.timeIntervalSince1970 / 86_400).rounded(.up))
        let end = Int64((to.timeIntervalSince1970 / 86_400).rounded(.down))
        return end > first ? (first, end) : (first, first)
    }

    /// Totals, bot share, unique visitors and counts per outcome, source and platform.
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
        let (rows, visitors) = try pool.withConnection { connection in
            let rows = try connection.query(Query(unsafeSQL: """
                SELECT outcome, source, platform, is_bot, sum(hits)::int8 FROM hit_rollups_hourly
                WHERE workspace_id = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz\(everything.sql)
                GROUP BY 1, 2, 3, 4
                """, binds: binds)).map { row in
                try (row.decode(0, as: String.self), row.decode(1, as: String.self), row.decode(2, as: String.self),
                     row.decode(3, as: Bool.self), row.decode(4, as: Int.self))
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
        var byPlatform = Dictionary(uniqueKeysWithValues: UserAgent.Platform.allCases.map { ($0.rawValue, 0) })
        for (outcome, source, platform, isBot, hits) in rows {
            all += hits
            if isBot { bots += hits }
            guard parameters.includeBots || !isBot else { continue }
            counted += hits
            byOutcome[outcome, default: 0] += hits
            bySource[source, default: 0] += hits
            byPlatform[platform, default: 0] += hits
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
            JSONMember(key: "byPlatform", value: object(byPlatform, order: UserAgent.Platform.allCases.map(\.rawValue))),
        ]
        var csvRows = [["hits", String(counted)], ["botHits", String(bots)], ["botShare", shareText], ["uniqueVisitors", String(visitors)]]
        csvRows += Hit.Outcome.allCases.map { ["outcome.\($0.rawValue)", String(byOutcome[$0.rawValue] ?? 0)] }
        csvRows += Hit.Source.allCases.map { ["source.\($0.rawValue)", String(bySource[$0.rawValue] ?? 0)] }
        csvRows += UserAgent.Platform.allCases.map { ["platform.\($0.rawValue)", String(byPlatform[$0.rawValue] ?? 0)] }
        return AnalyticsOutput(json: .object(members), csvHeader: ["metric", "value"], csvRows: csvRows).response(csv: parameters.csv)
    }
}
