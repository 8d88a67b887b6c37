import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/analytics/timeseries`, in its steps: plan (interval, grouping, the cube and its days), read, fold the
/// rows into buckets (and CSV rows), then the JSON or CSV answer.
extension AnalyticsHandlers {
    /// What a time series reads.
    struct TimeseriesPlan {
        var parameters: AnalyticsParameters
        /// `hour` or `day`.
        let interval: String
        let groupBy: String?
        let cube: AnalyticsCube
        /// The calendar of `tz`, whose days the day buckets are.
        let calendar: Calendar
    }

    typealias TimeseriesRow = (start: Date, group: String?, hits: Int?, visitors: Int?)
    typealias Bucket = (start: Date, total: Int, visitors: Int, groups: [JSONMember], groupVisitors: [JSONMember])

    /// `?interval=hour|day&groupBy=…`: one bucket per hour or day (in `tz`) from `from` to `to`, empty ones
    /// included, each with its total, unique visitors and, when grouped, the count per group (`(none)` for hits
    /// without one). `visitors` over the range is the sum of daily uniques (a bucket's is its own).
    func timeseries(_ request: Request, _ principal: Principal) throws -> Response {
        let plan = try Self.timeseriesPlan(request)
        let (parameters, cube, workspace) = (plan.parameters, plan.cube, principal.workspaceID)
        let (rows, visitors, names, previous) = try AnalyticsStore.read(pool) { connection in
            let range = TopSources.cubeRange(
                cube, from: parameters.from, to: parameters.to, days: plan.interval == "day" ? plan.calendar : nil)
            let rows = try AnalyticsStore.timeseries(
                workspace: workspace, from: parameters.from, to: parameters.to,
                zone: parameters.timeZone.identifier, interval: plan.interval, groupBy: plan.groupBy,
                range: range, filter: parameters.filter, on: connection)
            let visitors = try AnalyticsStore.visitors(
                workspace: workspace, range: TopSources.cubeRange(cube, from: parameters.from, to: parameters.to),
                filter: parameters.filter, on: connection)
            let groups = Set(rows.compactMap(\.group)).map { (context: String?.none, value: $0) }
            let names = try plan.groupBy.map { try AnalyticsStore.names($0, of: groups, workspace: workspace, on: connection) } ?? [:]
            let previous = try parameters.previous.map { period in
                try Self.totals(
                    workspace, TopSources.cubeRange(cube, from: period.from, to: period.to),
                    parameters.filter, on: connection)
            }
            return (rows, visitors, names, previous)
        }
        let (buckets, csvRows, total) = Self.buckets(rows, plan)
        var members = parameters.jsonMembers
        members.append(JSONMember(key: "interval", value: .string(plan.interval)))
        members.append(JSONMember(key: "groupBy", value: plan.groupBy.map(JSONValue.string) ?? .null))
        members.append(JSONMember(key: "total", value: .integer(total)))
        members.append(JSONMember(key: "visitors", value: .integer(visitors)))
        if !names.isEmpty {
            members.append(
                JSONMember(key: "names", value: .object(names.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) })))
        }
        if let previous {
            members.append(
                JSONMember(
                    key: "previous",
                    value: .object([
                        JSONMember(key: "total", value: .integer(previous.hits)),
                        JSONMember(key: "visitors", value: .integer(previous.visitors)),
                    ])))
        }
        members.append(JSONMember(key: "buckets", value: .array(buckets.map { Self.bucketJSON($0, plan) })))
        return AnalyticsOutput(json: .object(members), csvHeader: ["start", plan.groupBy ?? "group", "hits", "visitors"], csvRows: csvRows)
            .response(csv: parameters.csv)
    }

    /// Reads the request's parameters; a cube that counts per UTC day answers for whole UTC days, each in one bucket.
    /// - Throws: `ServiceError.badRequest` for hours over more than 31 days, or day buckets a UTC-day cube cannot fill.
    static func timeseriesPlan(_ request: Request) throws -> TimeseriesPlan {
        var parameters = try AnalyticsParameters(request, also: [Self.interval, Self.groupBy])
        let interval = try Self.interval.value(in: request) ?? "day"
        let groupBy = try Self.groupBy.value(in: request)
        if interval == "hour", parameters.to.timeIntervalSince(parameters.from) > 31 * 86_400 {
            throw ServiceError.badRequest("interval=hour covers at most 31 days; use interval=day for longer ranges.")
        }
        let grouped = groupBy.flatMap(AnalyticsCube.Dimension.init(rawValue:)).map { Set([$0]) } ?? []
        let cube = try Self.cube(for: parameters.filter, grouped)
        // Day buckets in `tz`: a whole UTC day is counted in the one holding its noon, its other hours moved.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = parameters.timeZone
        let inOneBucket = { (day: Int) in
            interval == "day"
                && calendar.isDate(
                    Date(timeIntervalSince1970: Double(day) * 86_400),
                    inSameDayAs: Date(timeIntervalSince1970: Double(day + 1) * 86_400 - 1))
        }
        if !cube.hourly {
            parameters = parameters.inUTCDays()
            let days = Int(parameters.from.timeIntervalSince1970 / 86_400)..<Int(parameters.to.timeIntervalSince1970 / 86_400)
            guard days.allSatisfy(inOneBucket) else {
                throw ServiceError.badRequest(
                    "\(cube.dimensions.map(\.rawValue).joined(separator: ", ")) are counted together per UTC day only: "
                        + "ask for interval=day with tz=UTC, or without \(groupBy.map { "groupBy=\($0) or " } ?? "")one of the filters.")
            }
        }
        return TimeseriesPlan(parameters: parameters, interval: interval, groupBy: groupBy, cube: cube, calendar: calendar)
    }

    /// The rows folded into buckets (one per start, its groups in the rows' order), the CSV rows and the total hits.
    static func buckets(_ rows: [TimeseriesRow], _ plan: TimeseriesPlan) -> (buckets: [Bucket], csvRows: [[String]], total: Int) {
        var buckets: [Bucket] = []
        var csvRows: [[String]] = []
        var total = 0
        for row in rows {
            if buckets.last?.start != row.start { buckets.append((row.start, 0, 0, [], [])) }
            let label = AnalyticsParameters.format(row.start, plan.parameters.timeZone)
            guard let hits = row.hits else {
                csvRows.append([label, "", "0", "0"])
                continue
            }
            let visitors = row.visitors ?? 0
            let last = buckets.count - 1
            buckets[last].total += hits
            buckets[last].visitors += visitors
            total += hits
            let key = row.group ?? "(none)"
            if plan.groupBy != nil {
                buckets[last].groups.append(JSONMember(key: key, value: .integer(hits)))
                buckets[last].groupVisitors.append(JSONMember(key: key, value: .integer(visitors)))
            }
            csvRows.append([label, plan.groupBy == nil ? "" : key, String(hits), String(visitors)])
        }
        return (buckets, csvRows, total)
    }

    /// One bucket of the JSON answer.
    private static func bucketJSON(_ bucket: Bucket, _ plan: TimeseriesPlan) -> JSONValue {
        var fields = [
            JSONMember(key: "start", value: .string(AnalyticsParameters.format(bucket.start, plan.parameters.timeZone))),
            JSONMember(key: "total", value: .integer(bucket.total)),
            JSONMember(key: "visitors", value: .integer(bucket.visitors)),
        ]
        if plan.groupBy != nil {
            fields.append(JSONMember(key: "groups", value: .object(bucket.groups)))
            fields.append(JSONMember(key: "groupVisitors", value: .object(bucket.groupVisitors)))
        }
        return .object(fields)
    }
}
