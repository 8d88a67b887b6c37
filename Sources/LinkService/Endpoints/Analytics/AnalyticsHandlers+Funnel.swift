import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/analytics/funnel` (docs/EVENTS.md, "Funnels"): clicks (from the hits' cubes), installs, opens and each
/// named event (from the events' rollups, `EventFunnelStore`), the rate of each step from the one before, and revenue
/// per currency; for the whole filter, and per value of `groupBy`. Events are counted per UTC day, so a funnel answers
/// for the whole UTC days its range touches, as the audience cubes do, and says so in `from` and `to`.
extension AnalyticsHandlers {
    static let funnelGroupBy = QueryParameter(
        "groupBy", .enumeration(EventFunnelStore.Dimension.allCases.map(\.rawValue).sorted()),
        "Split the funnel by this dimension (`link`, `utm_campaign`, `country`, `os`, `target`, `variant`).")

    /// The analytics filters a funnel takes: what events are counted under.
    static let funnelFilters: Set<AnalyticsCube.Dimension> = [.link, .utmCampaign, .country, .os, .target, .variant]

    func funnel(_ request: Request, _ principal: Principal) throws -> Response {
        let asked = try AnalyticsParameters(request, also: [Self.funnelGroupBy])
        let filter = try Self.funnelFilter(asked)
        let parameters = asked.inUTCDays()
        let groupBy = try Self.funnelGroupBy.value(in: request).flatMap(EventFunnelStore.Dimension.init(rawValue:))
        let workspace = principal.workspaceID
        let hitCube = try Self.cube(for: parameters.filter, groupBy.map { Self.needed($0.rawValue) } ?? [])
        let fromDay = Int(parameters.from.timeIntervalSince1970 / 86_400), toDay = Int(parameters.to.timeIntervalSince1970 / 86_400)
        let (clicks, events, names) = try AnalyticsStore.read(pool) { connection in
            let range = TopSources.cubeRange(hitCube, from: parameters.from, to: parameters.to)
            var clicks: [String?: Int] = [:]
            if let groupBy {
                let list = try AnalyticsStore.topRollups(
                    groupBy.rawValue, workspace: workspace, range: range, limit: 100_000, filter: parameters.filter, on: connection)
                for item in list.items { clicks[item.value, default: 0] += item.hits }
                if list.unknown.hits > 0 { clicks[nil, default: 0] += list.unknown.hits }
            } else {
                clicks[nil] = try Self.totals(workspace, range, parameters.filter, on: connection).hits
            }
            let events = try EventFunnelStore.counts(
                workspace: workspace, fromDay: fromDay, toDay: toDay, filter: filter, groupBy: groupBy, on: connection)
            let links = groupBy == .link ? Set(clicks.keys.compactMap { $0 } + events.compactMap(\.group)) : []
            let names = try AnalyticsStore.names("link", of: links.map { (nil, $0) }, workspace: workspace, on: connection)
            return (clicks, events, names)
        }
        let funnel = Funnel(clicks: clicks, events: events)
        var members = parameters.jsonMembers
        members.append(JSONMember(key: "groupBy", value: groupBy.map { .string($0.rawValue) } ?? .null))
        members.append(JSONMember(key: "steps", value: .array(funnel.steps.map(JSONValue.string))))
        var csvRows: [[String]] = []
        members.append(JSONMember(key: "total", value: .object(funnel.figures(of: funnel.total, csv: &csvRows, group: nil))))
        if groupBy != nil {
            var rows: [[String]] = []
            let groups = funnel.groups.map { group -> JSONValue in
                var fields = [JSONMember(key: "value", value: group.value.map(JSONValue.string) ?? .null)]
                if let value = group.value, let name = names[value]?["slug"] { fields.append(JSONMember(key: "slug", value: name)) }
                return .object(fields + funnel.figures(of: group, csv: &rows, group: group.value ?? ""))
            }
            members.append(JSONMember(key: "groups", value: .array(groups)))
            csvRows = rows
        }
        return AnalyticsOutput(
            json: .object(members), csvHeader: ["group", "step", "count", "rate", "currency", "value"], csvRows: csvRows
        ).response(csv: parameters.csv)
    }

    /// The events' filter of the request's parameters; a 400 for a filter events are not counted under.
    static func funnelFilter(_ parameters: AnalyticsParameters) throws -> EventFunnelStore.Filter {
        let refused = parameters.filter.dimensions.subtracting(funnelFilters).map(\.rawValue).sorted()
        if let first = refused.first {
            throw ServiceError.badRequest(
                "The \(first) filter is not available for funnels: events are counted by link, utm_campaign, country, os, target and variant."
            )
        }
        if parameters.filter.source != .click || parameters.filter.includeBots {
            throw ServiceError.badRequest("A funnel starts with people's clicks on links: source=click (the default), includeBots=false.")
        }
        if parameters.previous != nil { throw ServiceError.badRequest("compare is not available for funnels.") }
        var filter = EventFunnelStore.Filter()
        let hits = parameters.filter
        filter[.link] = hits.link?.canonicalText
        filter[.campaign] = hits.campaign[.campaign]
        filter[.country] = hits.visitor[.country]
        filter[.os] = hits.visitor[.os]
        filter[.target] = hits.target
        filter[.variant] = hits.variant
        return filter
    }
}
