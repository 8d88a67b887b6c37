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
                     query: AnalyticsParameters.declared + [Self.interval, Self.groupBy],
                     success: Self.answer(json: "`{from, to, timeZone, includeBots, filters, interval, groupBy, total, buckets: [{start, total, groups?}]}`.",
                                     csv: "`start,group,hits`, one row per bucket and group."), timeseries),
            Endpoint(.GET, "/v1/analytics/top", "analyticsTop", "The most frequent paths, destinations, rules, referrers, links or campaigns", tag: "Analytics",
                     scope: .read,
                     query: AnalyticsParameters.declared + [Self.dimension, Self.limit],
                     success: Self.answer(json: "`{…, dimension, items: [{host?|app?, path|destination|rule|referrer|served|link|utm_*, hits}]}`.",
                                     csv: "A header row naming the columns, then one row per item."), top),
            Endpoint(.GET, "/v1/analytics/summary", "analyticsSummary", "Totals, unique visitors, bot share, per outcome", tag: "Analytics",
                     scope: .read, query: AnalyticsParameters.declared,
                     success: Self.answer(json: "`{…, hits, botHits, botShare, uniqueVisitors, byOutcome, bySource, byPlatform, byServed}`.",
                                     csv: "`metric,value`, one row per figure."), summary),
        ]
    }

    private static let interval = QueryParameter("interval", .enumeration(["hour", "day"]), "Bucket size (default day; hour covers at most 31 days).")
    private static let groupBy = QueryParameter("groupBy", .enumeration(AnalyticsStore.groupColumns.keys.sorted()), "Split each bucket by this dimension.")
    private static let dimension = QueryParameter("dimension", .enumeration(["path", "referrer"] + AnalyticsStore.rollupDimensions.keys.sorted()),
                                                  "What to rank, e.g. `path` with `outcome=no_match`, `destination` with `served=landing` and then `served=claim` (clicks and claims per destination), or `utm_campaign` (taps per campaign; `link`: per stored link).",
                                                  required: true)
    private static let limit = QueryParameter("limit", Schema.integer(minimum: 1, maximum: 100), "How many (default 10).")

    /// An analytics answer: JSON, or CSV (RFC 4180, with a header row) for `format=csv` or `Accept: text/csv`.
    private static func answer(json: String, csv: String) -> Endpoint.Success {
        .alternatives(200, [
            ("application/json", Schema.anyObject.described(json)),
            ("text/csv", Schema.string.described(csv + " Sent as `text/csv; charset=utf-8; header=present`.")),
        ])
    }

    /// `?interval=hour|day&groupBy=…`: one bucket per hour or day (in `tz`) from `from` to `to`, empty ones
    /// included, each with its total and, when grouped, the count per group (`(none)` for hits without one).
    func timeseries(_ request: Request, _ principal: Principal) throws -> Response {
        let parameters = try AnalyticsParameters(request, also: [Self.interval, Self.groupBy])
        let interval = try Self.interval.value(in: request) ?? "day"
        let groupBy = try Self.groupBy.value(in: request)
        let groupColumn = groupBy.flatMap { AnalyticsStore.groupColumns[$0] } ?? "NULL::text"
        if interval == "hour", parameters.to.timeIntervalSince(parameters.from) > 31 * 86_400 {
            throw ServiceError.badRequest("interval=hour covers at most 31 days; use interval=day for longer ranges.")
        }
        let rows = try AnalyticsStore.read(pool) { connection in
            try AnalyticsStore.timeseries(workspace: principal.workspaceID, from: parameters.from, to: parameters.to,
                                          zone: parameters.timeZone.identifier, interval: interval, groupColumn: groupColumn,
                                          filter: parameters.filter, on: connection)
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

    /// `?dimension=path|destination|rule|referrer|served|link|utm_*&limit=`: the most frequent values, most hits first.
    /// `outcome=no_match&dimension=path` lists the broken or unclaimed links to fix; `dimension=destination`
    /// with `served=landing` and then `served=claim` gives clicks and claims per destination.
    func top(_ request: Request, _ principal: Principal) throws -> Response {
        let parameters = try AnalyticsParameters(request, also: [Self.dimension, Self.limit])
        let dimension = try Self.dimension.value(in: request)!
        let limit = try Self.limit.number(in: request) ?? 10
        let columns: [String]
        switch dimension {
        case "path", "referrer":
            if parameters.filter.app != nil {
                throw ServiceError.badRequest("The app filter is not available for dimension=\(dimension) (path and referrer counts are kept per host, not per app).")
            }
            if parameters.filter.served != nil {
                throw ServiceError.badRequest("The served filter is not available for dimension=\(dimension) (path and referrer counts do not keep what a click got).")
            }
            if parameters.filter.hasLinkOrCampaign {
                throw ServiceError.badRequest("The link and utm_* filters are not available for dimension=\(dimension) (path and referrer counts are kept per host, not per link or campaign).")
            }
            columns = dimension == "path" ? ["host", "path"] : ["host", "referrer"]
        default:
            guard let (context, _) = AnalyticsStore.rollupDimensions[dimension] else {
                preconditionFailure("dimension is one of its declaration's values")
            }
            // The context's name, then the dimension's: `app` for a destination's, `host` for the others that have one.
            columns = context == nil ? [dimension] : [dimension == "destination" ? "app" : "host", dimension]
        }
        let rows = try AnalyticsStore.read(pool) { connection in
            if dimension == "path" || dimension == "referrer" {
                let sources = try TopSources.read(from: parameters.from, to: parameters.to, on: connection)
                return try AnalyticsStore.topValues(dimension, workspace: principal.workspaceID, limit: limit, weeks: sources.weeks, days: sources.days,
                                                    hourStarts: sources.hours.map(\.start), hourEnds: sources.hours.map(\.end),
                                                    filter: parameters.filter, on: connection)
            }
            return try AnalyticsStore.topRollups(dimension, workspace: principal.workspaceID, from: parameters.from, to: parameters.to,
                                                 limit: limit, filter: parameters.filter, on: connection)
        }
        var members = parameters.jsonMembers
        members.append(JSONMember(key: "dimension", value: .string(dimension)))
        members.append(JSONMember(key: "items", value: .array(rows.map { first, value, hits in
            var fields: [JSONMember] = []
            if columns.count == 2, let first { fields.append(JSONMember(key: columns[0], value: .string(first))) }
            fields.append(JSONMember(key: columns[columns.count - 1], value: .string(value)))
            fields.append(JSONMember(key: "hits", value: .number(String(hits))))
            return .object(fields)
        })))
        return AnalyticsOutput(json: .object(members), csvHeader: columns + ["hits"],
                               csvRows: rows.map { (columns.count == 2 ? [$0.0 ?? ""] : []) + [$0.1, String($0.2)] })
            .response(csv: parameters.csv)
    }

    /// Totals, bot share, unique visitors and counts per outcome, source, platform and what clicks got (`byServed`).
    ///
    /// `hits` and the breakdowns follow `includeBots`; `botHits` and `botShare` always count every hit
    /// matching the filters. `uniqueVisitors` is the sum over the UTC days the range touches of that
    /// day's distinct visitor hashes in the workspace (the salt rotates daily, so a visitor seen on two
    /// days counts twice; no filter applies to it, link and campaign filters included).
    func summary(_ request: Request, _ principal: Principal) throws -> Response {
        let parameters = try AnalyticsParameters(request)
        let fromDay = VisitorHasher.day(of: parameters.from)
        let lastDay = VisitorHasher.day(of: parameters.to.addingTimeInterval(-0.000_001))
        let (rows, visitors) = try AnalyticsStore.read(pool) { connection in
            let rows = try AnalyticsStore.summary(workspace: principal.workspaceID, from: parameters.from, to: parameters.to,
                                                  filter: parameters.filter, on: connection)
            let visitors = try AnalyticsStore.visitors(workspace: principal.workspaceID, fromDay: fromDay, lastDay: lastDay,
                                                       includeBots: parameters.filter.includeBots, on: connection)
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
            guard parameters.filter.includeBots || !isBot else { continue }
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
