import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/analytics/*`: time series, top lists and a summary of the caller's workspace hits, served from the
/// rollups (the cubes of `AnalyticsCube` with their visitor sketches, `hit_top_hourly`/`_daily`/`_weekly`), never from
/// raw hits, on `pool` (the analytics database: a replica when `--analytics-database-url` names one). Every query
/// is filtered by the caller's workspace; ids come with their names (`AnalyticsStore.names`).
struct AnalyticsHandlers: EndpointGroup {
    let pool: ConnectionPool

    static var schemas: [(name: String, schema: Schema)] { APISchemas.analytics }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/analytics/timeseries", "analyticsTimeseries", "Hits per hour or day, optionally grouped", tag: "Analytics",
                scope: .read,
                query: AnalyticsParameters.declared + [Self.interval, Self.groupBy],
                success: Self.answer(
                    json: "AnalyticsTimeseries",
                    csv: "`start,group,hits,visitors`, one row per bucket and group."), timeseries),
            Endpoint(
                .GET, "/v1/analytics/top", "analyticsTop",
                "The most frequent paths, destinations, rules, referrers, links, campaigns, countries or devices", tag: "Analytics",
                scope: .read,
                query: AnalyticsParameters.declared + [Self.dimension, Self.limit, Self.sort],
                success: Self.answer(
                    json: "AnalyticsTop",
                    csv: "A header row naming the columns, then one row per item."), top),
            Endpoint(
                .GET, "/v1/analytics/summary", "analyticsSummary", "Totals, unique visitors, bot share, per outcome", tag: "Analytics",
                scope: .read, query: AnalyticsParameters.declared,
                success: Self.answer(
                    json: "AnalyticsSummary",
                    csv: "`metric,value`, one row per figure."), summary),
            Endpoint(
                .GET, "/v1/analytics/funnel", "analyticsFunnel",
                "Clicks, installs, opens and named events, the rate between steps, revenue per currency", tag: "Analytics",
                scope: .read,
                description: """
                    Clicks from the hits' rollups, events from the events' rollups (docs/EVENTS.md, "Funnels"), for the whole UTC \
                    days the range touches. Filters: `link`, `utm_campaign`, `country`, `os`, `target`, `variant`; the others \
                    are a 400.
                    """,
                query: AnalyticsParameters.declared + [Self.funnelGroupBy],
                success: Self.answer(
                    json: "AnalyticsFunnel",
                    csv: "`group,step,count,rate,currency,value`: a row per group and step, then its revenue per currency."), funnel),
            Endpoint(
                .GET, "/v1/links/{id}/experiment", "getLinkExperiment",
                "A link's experiments: per variant, visitors, clicks and the difference from the control",
                tag: "Analytics", scope: .read,
                description: """
                    Per experiment of the link (its own variants, then each target's), per variant: the visitors who clicked                         (visitor-days), their clicks, clicks per visitor, and the difference from the control (the first variant)                         with a 95 % confidence interval, its method stated in `method` (null with `differenceUnavailable` saying                         why when the samples are too small). From the raw hits kept; docs/HITS.md, "Experiments".
                    """,
                success: .json(200, "LinkExperiment"), errors: [404], experiment),
        ]
    }

    static let interval = QueryParameter(
        "interval", .enumeration(["hour", "day"]), "Bucket size (default day; hour covers at most 31 days).")
    static let groupBy = QueryParameter("groupBy", .enumeration(AnalyticsStore.groupings), "Split each bucket by this dimension.")
    static let dimension = QueryParameter(
        "dimension", .enumeration(["path", "referrer"] + AnalyticsStore.rollupDimensions.keys.sorted()),
        "What to rank, e.g. `path` with `outcome=no_match`, `destination` with `served=landing` and then `served=claim` (clicks and claims per destination), `utm_campaign` (taps per campaign; `link`: per stored link), or `country`, `os`, `browser`, `device`.",
        required: true)
    static let sort = QueryParameter(
        "sort", .enumeration(AnalyticsStore.Ranking.allCases.map(\.rawValue)),
        "Rank by hits (the default) or unique visitors (not for path and referrer, which keep no visitors).")
    static let limit = QueryParameter("limit", Schema.integer(minimum: 1, maximum: 100), "How many (default 10).")

    /// An analytics answer: JSON (the component named `json`), or CSV (RFC 4180, with a header row) for `format=csv`
    /// or `Accept: text/csv`.
    private static func answer(json: String, csv: String) -> Endpoint.Success {
        .alternatives(
            200,
            [
                ("application/json", Schema.ref(json)),
                (
                    "text/csv",
                    Schema.string.described(
                        csv + """
                            Sent as `text/csv; charset=utf-8; header=present`. A cell a spreadsheet would run (starting with `=`, `+`, \
                            `-`, `@`, a tab or a carriage return) starts with `'`, and a value of quotes before one of those with one \
                            quote more (docs/LINKS-IMPORT.md, "Formulas").
                            """)
                ),
            ])
    }

    /// The dimensions whose every visitor is in one row only (within a UTC day): what the visitor hash is made of (the
    /// address's country, the `User-Agent`'s OS, browser and device). Elsewhere a visitor can be in several rows (two
    /// links tapped), and the rows' visitors add up to more than the total.
    static let oneRowPerVisitor: Set<String> = ["country", "os", "browser", "device"]

    /// Totals, bot share, unique visitors and counts per outcome, source, platform and what clicks got (`byServed`).
    ///
    /// `hits` and the breakdowns follow `includeBots`; `botHits` and `botShare` always count every hit
    /// matching the filters. `uniqueVisitors` is the sum over the UTC days the range touches of that day's
    /// distinct visitors matching the filters (the salt rotates daily, so a visitor seen on two days counts twice).
    func summary(_ request: Request, _ principal: Principal) throws -> Response {
        var parameters = try AnalyticsParameters(request)
        let workspace = principal.workspaceID
        // The breakdowns come from the cube keeping the most of them with the filters; those it does not keep are null.
        let filterCube = try Self.cube(for: parameters.filter)
        let cube =
            [[.outcome, .platform, .served], [.platform]].lazy.compactMap { (wanted: Set<AnalyticsCube.Dimension>) in
                AnalyticsCube.covering(parameters.filter.dimensions.union(wanted))
            }.first ?? filterCube
        if !cube.hourly || !filterCube.hourly { parameters = parameters.inUTCDays() }
        let (rows, visitors, previous) = try AnalyticsStore.read(pool) { [parameters] connection in
            func read(_ from: Date, _ to: Date) throws -> ([SummaryRow], Int) {
                let range = TopSources.cubeRange(cube, from: from, to: to)
                // The visitors' cube is most often the breakdowns' one: its range is then the same.
                let visitorRange = filterCube == cube ? range : TopSources.cubeRange(filterCube, from: from, to: to)
                return (
                    try AnalyticsStore.summary(workspace: workspace, range: range, filter: parameters.filter, on: connection),
                    try AnalyticsStore.visitors(workspace: workspace, range: visitorRange, filter: parameters.filter, on: connection)
                )
            }
            let (rows, visitors) = try read(parameters.from, parameters.to)
            return (rows, visitors, try parameters.previous.map { try read($0.from, $0.to) })
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
            if let outcome { byOutcome[outcome, default: 0] += hits }
            bySource[source, default: 0] += hits
            if let platform { byPlatform[platform, default: 0] += hits }
            if let served { byServed[served, default: 0] += hits }
        }
        let share = all == 0 ? 0 : Double(bots) / Double(all)
        let shareText = String(format: "%.4f", share)
        /// The counts per value, or null when the cube read does not keep `dimension`.
        func object(_ counts: [String: Int], order: [String], _ dimension: AnalyticsCube.Dimension? = nil) -> JSONValue {
            if let dimension, cube.slot(dimension) == nil { return .null }
            return .object(order.map { JSONMember(key: $0, value: .integer(counts[$0] ?? 0)) })
        }
        var members = parameters.jsonMembers
        members += [
            JSONMember(key: "hits", value: .integer(counted)),
            JSONMember(key: "botHits", value: .integer(bots)),
            JSONMember(key: "botShare", value: .number(shareText)),
            JSONMember(key: "uniqueVisitors", value: .integer(visitors)),
            JSONMember(key: "byOutcome", value: object(byOutcome, order: Hit.Outcome.allCases.map(\.rawValue), .outcome)),
            JSONMember(key: "bySource", value: object(bySource, order: Hit.Source.allCases.map(\.rawValue))),
            JSONMember(key: "byPlatform", value: object(byPlatform, order: DevicePlatform.allCases.map(\.rawValue), .platform)),
            JSONMember(key: "byServed", value: object(byServed, order: Hit.Served.allCases.map(\.rawValue), .served)),
        ]
        var csvRows = [
            ["hits", String(counted)], ["botHits", String(bots)], ["botShare", shareText], ["uniqueVisitors", String(visitors)],
        ]
        if let (rows, visitors) = previous {
            let (hits, bots) = Self.counted(rows, includeBots: parameters.filter.includeBots)
            members.append(
                JSONMember(
                    key: "previous",
                    value: .object([
                        JSONMember(key: "hits", value: .integer(hits)), JSONMember(key: "botHits", value: .integer(bots)),
                        JSONMember(key: "uniqueVisitors", value: .integer(visitors)),
                    ])))
            csvRows += [
                ["previous.hits", String(hits)], ["previous.botHits", String(bots)], ["previous.uniqueVisitors", String(visitors)],
            ]
        }
        // Breakdowns the cube read does not keep are left out (null in JSON).
        if cube.slot(.outcome) != nil {
            csvRows += Hit.Outcome.allCases.map { ["outcome.\($0.rawValue)", String(byOutcome[$0.rawValue] ?? 0)] }
        }
        csvRows += Hit.Source.allCases.map { ["source.\($0.rawValue)", String(bySource[$0.rawValue] ?? 0)] }
        if cube.slot(.platform) != nil {
            csvRows += DevicePlatform.allCases.map { ["platform.\($0.rawValue)", String(byPlatform[$0.rawValue] ?? 0)] }
        }
        if cube.slot(.served) != nil {
            csvRows += Hit.Served.allCases.map { ["served.\($0.rawValue)", String(byServed[$0.rawValue] ?? 0)] }
        }
        return AnalyticsOutput(json: .object(members), csvHeader: ["metric", "value"], csvRows: csvRows).response(csv: parameters.csv)
    }

    /// A summary row: outcome, source, platform, bot flag, hits and what clicks got (nil where the cube keeps none).
    typealias SummaryRow = (outcome: String?, source: String, platform: String?, isBot: Bool, hits: Int, served: String?)

    /// The cube keeping the filter's dimensions and `also` (a grouping, a ranked dimension and its context).
    /// - Throws: a 400 naming the combinations kept, when no cube keeps them together.
    static func cube(for filter: AnalyticsStore.Filter, _ also: Set<AnalyticsCube.Dimension> = []) throws -> AnalyticsCube {
        let needed = filter.dimensions.union(also)
        guard let cube = AnalyticsCube.covering(needed) else { throw ServiceError.badRequest(AnalyticsCube.refusal(needed)) }
        return cube
    }

    /// The dimensions a rollup top list of `dimension` reads: it and its context.
    static func needed(_ dimension: String) -> Set<AnalyticsCube.Dimension> {
        let (context, ranked) = AnalyticsStore.rollupDimensions[dimension]!
        return Set([ranked] + (context.map { [$0] } ?? []))
    }

    /// Hits (bots per the filter) and unique visitors in `range`.
    static func totals(
        _ workspace: UUID, _ range: AnalyticsStore.CubeRange, _ filter: AnalyticsStore.Filter,
        on connection: Connection
    ) throws -> (hits: Int, visitors: Int) {
        let rows = try AnalyticsStore.summary(workspace: workspace, range: range, filter: filter, on: connection)
        return (
            counted(rows, includeBots: filter.includeBots).hits,
            try AnalyticsStore.visitors(workspace: workspace, range: range, filter: filter, on: connection)
        )
    }

    /// The hits of summary rows (bots only with `includeBots`), and the bots' hits whatever it says.
    private static func counted(_ rows: [SummaryRow], includeBots: Bool) -> (hits: Int, bots: Int) {
        (rows.filter { includeBots || !$0.isBot }.map(\.hits).reduce(0, +), rows.filter(\.isBot).map(\.hits).reduce(0, +))
    }
}
