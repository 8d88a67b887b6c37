import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/analytics/top`, in its steps: plan (what to read, refusing what cannot be answered), read (from the
/// top-value tables for path and referrer, else from a cube), then one pass writing the JSON and the CSV rows.
extension AnalyticsHandlers {
    /// What a top list reads and how its rows are labelled.
    struct TopPlan {
        var parameters: AnalyticsParameters
        let dimension: String
        let limit: Int
        let ranking: AnalyticsStore.Ranking
        /// Path and referrer come from the top-value tables, the other dimensions from a cube.
        let fromTopValues: Bool
        /// The cube a rollup top list reads; nil for the top-value tables.
        let cube: AnalyticsCube?
        /// The item's label columns: the context's name (`app` for a destination's, `host` for the others that
        /// have one), then the dimension's.
        let columns: [String]
    }

    typealias TopItem = (context: String?, value: String, hits: Int, visitors: Int?)

    /// What a top list read: its items, their names, the previous period's figures by context and value, the
    /// list's own totals and the filters' total.
    struct TopRead {
        let items: [TopItem]
        let names: [String: JSONValue]
        let previous: [String: (hits: Int, visitors: Int?)]
        let list: AnalyticsStore.TopList
        let total: (hits: Int, visitors: Int)
    }

    /// `?dimension=…&limit=&sort=hits|visitors`: the most frequent values, with their names, hits and unique
    /// visitors (and the previous period's, with `compare=previous`). `outcome=no_match&dimension=path` lists the
    /// broken or unclaimed links to fix; `dimension=utm_campaign&sort=visitors&os=iOS&country=DE` the campaigns that
    /// brought the most iPhone visitors from Germany.
    func top(_ request: Request, _ principal: Principal) throws -> Response {
        let plan = try Self.topPlan(request)
        let workspace = principal.workspaceID
        let read = try AnalyticsStore.read(pool) { connection in
            plan.fromTopValues
                ? try Self.readTopValues(plan, workspace: workspace, on: connection)
                : try Self.readTopRollups(plan, workspace: workspace, on: connection)
        }
        return Self.topAnswer(plan, read)
    }

    /// Reads the request's parameters and refuses the filters and sorts the dimension's source cannot answer.
    /// - Throws: `ServiceError.badRequest` naming what is not available for the dimension.
    static func topPlan(_ request: Request) throws -> TopPlan {
        var parameters = try AnalyticsParameters(request, also: [Self.dimension, Self.limit, Self.sort])
        let dimension = try Self.dimension.value(in: request)!
        let limit = try Self.limit.number(in: request) ?? 10
        let ranking = try Self.sort.value(in: request).flatMap(AnalyticsStore.Ranking.init(rawValue:)) ?? .hits
        let fromTopValues = dimension == "path" || dimension == "referrer"
        guard !fromTopValues else {
            if parameters.filter.app != nil {
                throw ServiceError.badRequest(
                    "The app filter is not available for dimension=\(dimension) (path and referrer counts are kept per host, not per app).")
            }
            if parameters.filter.served != nil {
                throw ServiceError.badRequest(
                    "The served filter is not available for dimension=\(dimension) (path and referrer counts do not keep what a click got)."
                )
            }
            if parameters.filter.hasRollupOnlyFilter {
                throw ServiceError.badRequest(
                    "The link, utm_*, country, os, browser and device filters are not available for dimension=\(dimension) (path and referrer counts are kept per host only)."
                )
            }
            if ranking == .visitors {
                throw ServiceError.badRequest(
                    "sort=visitors is not available for dimension=\(dimension) (path and referrer counts keep no visitors).")
            }
            return TopPlan(
                parameters: parameters, dimension: dimension, limit: limit, ranking: ranking, fromTopValues: true, cube: nil,
                columns: dimension == "path" ? ["host", "path"] : ["host", "referrer"])
        }
        let cube = try Self.cube(for: parameters.filter, Self.needed(dimension))
        guard let (context, _) = AnalyticsStore.rollupDimensions[dimension] else {
            preconditionFailure("dimension is one of its declaration's values")
        }
        // A cube counting per UTC day answers for whole UTC days, and says so.
        if !cube.hourly { parameters = parameters.inUTCDays() }
        return TopPlan(
            parameters: parameters, dimension: dimension, limit: limit, ranking: ranking, fromTopValues: false, cube: cube,
            columns: context.map { [$0.rawValue, dimension] } ?? [dimension])
    }

    /// Path or referrer: the top-value tables, which keep no visitors and no names.
    static func readTopValues(_ plan: TopPlan, workspace: UUID, on connection: Connection) throws -> TopRead {
        let parameters = plan.parameters
        func read(_ from: Date, _ to: Date, limit: Int, only: [String]? = nil) throws -> AnalyticsStore.TopList {
            let sources = try TopSources.read(from: from, to: to, on: connection)
            return try AnalyticsStore.topValues(
                plan.dimension, workspace: workspace, limit: limit, weeks: sources.weeks, days: sources.days,
                hours: sources.hours, range: (sources.from, sources.to),
                only: only, filter: parameters.filter, on: connection)
        }
        let list = try read(parameters.from, parameters.to, limit: plan.limit)
        let items = list.items.map { TopItem($0.context, $0.value, $0.hits, nil) }
        var previous: [String: (hits: Int, visitors: Int?)] = [:]
        if let period = parameters.previous, !items.isEmpty {
            for item in try read(period.from, period.to, limit: 100_000, only: Array(Set(items.map(\.value)))).items {
                previous["\(item.context ?? "") \(item.value)"] = (item.hits, nil)
            }
        }
        // Every hit has a path; a hit without a referrer has none: the total comes from the cube of the filters.
        let cube = try Self.cube(for: parameters.filter)
        let total = try Self.totals(
            workspace, TopSources.cubeRange(cube, from: parameters.from, to: parameters.to),
            parameters.filter, on: connection)
        return TopRead(items: items, names: [:], previous: previous, list: list, total: total)
    }

    /// Any other dimension: the plan's cube, with visitors and the values' names.
    static func readTopRollups(_ plan: TopPlan, workspace: UUID, on connection: Connection) throws -> TopRead {
        let (parameters, dimension) = (plan.parameters, plan.dimension)
        guard let cube = plan.cube else { preconditionFailure("a rollup dimension has its cube") }
        let range = TopSources.cubeRange(cube, from: parameters.from, to: parameters.to)
        let list = try AnalyticsStore.topRollups(
            dimension, workspace: workspace, range: range,
            limit: plan.limit, ranking: plan.ranking, filter: parameters.filter, on: connection)
        let items = list.items.map { TopItem($0.context, $0.value, $0.hits, $0.visitors) }
        let names = try AnalyticsStore.names(dimension, of: items.map { ($0.context, $0.value) }, workspace: workspace, on: connection)
        var previous: [String: (hits: Int, visitors: Int?)] = [:]
        if let period = parameters.previous, !items.isEmpty {
            for item in try AnalyticsStore.topRollups(
                dimension, workspace: workspace,
                range: TopSources.cubeRange(cube, from: period.from, to: period.to), limit: 100_000,
                only: Array(Set(items.map(\.value))), filter: parameters.filter, on: connection
            ).items {
                previous["\(item.context ?? "") \(item.value)"] = (item.hits, item.visitors)
            }
        }
        let visitors = try AnalyticsStore.visitors(workspace: workspace, range: range, filter: parameters.filter, on: connection)
        return TopRead(items: items, names: names, previous: previous, list: list, total: (list.valued + list.unknown.hits, visitors))
    }

    /// The answer: the list's figures (what the items leave out, so that the rows add up) and its items, as JSON or CSV.
    static func topAnswer(_ plan: TopPlan, _ read: TopRead) -> Response {
        let (items, list, total) = (read.items, read.list, read.total)
        let nameKeys = Set(
            read.names.values.flatMap { value -> [String] in
                guard case .object(let members) = value else { return [] }
                return members.map(\.key)
            }
        ).sorted()
        var members = plan.parameters.jsonMembers
        members.append(JSONMember(key: "dimension", value: .string(plan.dimension)))
        members.append(JSONMember(key: "sort", value: .string(plan.ranking.rawValue)))
        // What the items leave out, so that the rows add up: the hits without a value, and those of the values not listed.
        let listed = items.map(\.hits).reduce(0, +)
        let unknown =
            plan.fromTopValues
            ? (hits: max(0, total.hits - list.valued), visitors: nil)
            : (hits: list.unknown.hits, visitors: Optional(list.unknown.visitors))
        func figures(_ hits: Int, _ visitors: Int?) -> JSONValue {
            .object(
                [JSONMember(key: "hits", value: .integer(hits))]
                    + (visitors.map { [JSONMember(key: "visitors", value: .integer($0))] } ?? []))
        }
        members.append(JSONMember(key: "total", value: figures(total.hits, total.visitors)))
        members.append(JSONMember(key: "unknown", value: figures(unknown.hits, unknown.visitors)))
        members.append(
            JSONMember(
                key: "others",
                value: .object([
                    JSONMember(key: "hits", value: .integer(max(0, list.valued - listed))),
                    JSONMember(key: "values", value: .integer(max(0, list.values - items.count))),
                ])))
        members.append(JSONMember(key: "visitorsAddUp", value: .bool(Self.oneRowPerVisitor.contains(plan.dimension))))
        var csvRows: [[String]] = []
        members.append(
            JSONMember(
                key: "items",
                value: .array(
                    items.map { item in
                        let (fields, csv) = topRow(item, plan, read, nameKeys: nameKeys)
                        csvRows.append(csv)
                        return .object(fields)
                    })))
        var header = plan.columns + nameKeys + ["hits"]
        if !plan.fromTopValues { header.append("visitors") }
        if plan.parameters.previous != nil { header += plan.fromTopValues ? ["previousHits"] : ["previousHits", "previousVisitors"] }
        return AnalyticsOutput(json: .object(members), csvHeader: header, csvRows: csvRows).response(csv: plan.parameters.csv)
    }

    /// One item as its JSON members and its CSV cells, in the same order.
    private static func topRow(_ item: TopItem, _ plan: TopPlan, _ read: TopRead, nameKeys: [String]) -> ([JSONMember], [String]) {
        let columns = plan.columns
        var fields: [JSONMember] = []
        var csv: [String] = []
        if columns.count == 2 {
            if let context = item.context { fields.append(JSONMember(key: columns[0], value: .string(context))) }
            csv.append(item.context ?? "")
        }
        fields.append(JSONMember(key: columns[columns.count - 1], value: .string(item.value)))
        csv.append(item.value)
        let name = read.names[AnalyticsStore.key(plan.dimension, context: item.context, value: item.value)]
        for key in nameKeys {
            let value = name?[key] ?? .null
            fields.append(JSONMember(key: key, value: value))
            csv.append(value.stringValue ?? (value == .null ? "" : value.serialized))
        }
        fields.append(JSONMember(key: "hits", value: .integer(item.hits)))
        csv.append(String(item.hits))
        if let visitors = item.visitors {
            fields.append(JSONMember(key: "visitors", value: .integer(visitors)))
            csv.append(String(visitors))
        }
        if plan.parameters.previous != nil {
            let before = read.previous["\(item.context ?? "") \(item.value)"]
            fields.append(JSONMember(key: "previousHits", value: .integer(before?.hits ?? 0)))
            csv.append(String(before?.hits ?? 0))
            if item.visitors != nil {
                fields.append(JSONMember(key: "previousVisitors", value: .integer(before?.visitors ?? 0)))
                csv.append(String(before?.visitors ?? 0))
            }
        }
        return (fields, csv)
    }
}
