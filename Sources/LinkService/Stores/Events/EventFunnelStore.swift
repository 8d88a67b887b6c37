import Foundation
import LinkKit
import Postgres

/// The SQL of the events' rollups (`event_rollups_daily`, `migrations/0034`, and `event_rollups_weekly`,
/// `migrations/0038`; docs/EVENTS.md, "Funnels"): events and their values per UTC day (and ISO week), name and
/// currency, in narrow cubes that the database keeps from `events` itself (a trigger on every insert), read instead
/// of the raw events.
enum EventFunnelStore {
    /// What an event is counted under, besides its day, name and currency: the attribution's link, campaign
    /// (`utm_campaign`), target and variant, and its click's country and OS.
    enum Dimension: String, CaseIterable, Sendable {
        case link, campaign = "utm_campaign", country, os, target, variant

        /// Its column in `events` and the rollups.
        var column: String { self == .link ? "link_id" : rawValue }
    }

    /// One rollup: the dimensions it keeps. `id` is the rollup's `cube` (the GROUPING bitmask of the migration's
    /// statement: a bit set for each dimension not kept, the order of `Dimension.allCases` from the highest bit).
    struct Cube: Equatable, Sendable {
        let dimensions: Set<Dimension>

        var id: Int {
            Dimension.allCases.enumerated().reduce(0) { bits, item in
                dimensions.contains(item.element) ? bits : bits | 1 << (Dimension.allCases.count - 1 - item.offset)
            }
        }

        /// The cubes the trigger keeps, smallest first.
        static let all: [Cube] = [
            [], [.os], [.country], [.campaign], [.link], [.link, .campaign], [.link, .target, .variant], Set(Dimension.allCases),
        ].map(Cube.init(dimensions:))

        /// The smallest cube keeping every dimension of `needed` (the last keeps them all).
        static func covering(_ needed: Set<Dimension>) -> Cube { all.first { needed.isSubset(of: $0.dimensions) }! }
    }

    /// What a funnel is narrowed to: a value per dimension.
    typealias Filter = [Dimension: String]

    /// One row read: the group's value (nil without one, or when not grouped), the event's name and currency, how many
    /// and their values' sum (minor units).
    struct Count: Equatable, Sendable {
        var group: String?
        var name: String
        var currency: String?
        var events: Int
        var value: Int
    }

    /// The events of `workspace` from UTC day `fromDay` to before `toDay` (days since 1970-01-01) matching `filter`,
    /// per name and currency, and per value of `groupBy` when given: from the smallest rollup keeping them, its weekly
    /// rows for the whole weeks of the range and its daily rows for the days before and after them.
    static func counts(
        workspace: UUID, fromDay: Int, toDay: Int, filter: Filter, groupBy: Dimension?, on connection: Connection
    ) throws -> [Count] {
        let cube = Cube.covering(Set(filter.keys).union(groupBy.map { [$0] } ?? []))
        let weeks = wholeWeeks(fromDay: fromDay, toDay: toDay)
        // Grouped by the column as stored (a link's uuid hashes faster than its text), printed as text after.
        // Built with hand-numbered binds: the filters vary with the request; only column names are spliced.
        var binds: [any PostgresEncodable] = [workspace, cube.id, fromDay, weeks.lowerBound, weeks.upperBound, toDay]
        let conditions = Self.conditions(filter, binds: &binds)
        let group = groupBy?.column ?? "NULL::text"
        func rows(_ table: String, _ column: String, from: Int, to: Int) -> String {
            """
            SELECT \(group) AS g, name, currency, events, value FROM \(table)
                    WHERE workspace_id = $1 AND cube = $2 AND \(column) >= date '1970-01-01' + $\(from)::int
                      AND \(column) < date '1970-01-01' + $\(to)::int\(conditions)
            """
        }
        let sql = """
            SELECT g::text, name, currency, e, v FROM (
                SELECT g, name, currency, sum(events)::int8 AS e, sum(value)::int8 AS v FROM (
                    \(rows("event_rollups_weekly", "week", from: 4, to: 5))
                    UNION ALL
                    \(rows("event_rollups_daily", "day", from: 3, to: 4))
                    UNION ALL
                    \(rows("event_rollups_daily", "day", from: 5, to: 6))
                ) kept
                GROUP BY 1, 2, 3
            ) grouped
            """
        return try connection.query(Query(unsafeSQL: sql, binds: binds)).map(Self.count)
    }

    /// The whole ISO weeks (Monday to Sunday) among the UTC days `fromDay ..< toDay`, as the days they span; empty
    /// (`toDay ..< toDay`) when there is none. Day 4 (1970-01-05) was a Monday.
    static func wholeWeeks(fromDay: Int, toDay: Int) -> Range<Int> {
        let firstMonday = fromDay + ((4 - fromDay) % 7 + 7) % 7
        let lastMonday = toDay - ((toDay - 4) % 7 + 7) % 7
        return firstMonday < lastMonday ? firstMonday..<lastMonday : toDay..<toDay
    }

    /// The events of `link` in `workspace` per target and variant (every day kept, so the weekly rows), per name and
    /// currency: an experiment's conversions.
    static func experimentCounts(
        link: UUID, workspace: UUID, on connection: Connection
    ) throws -> [(target: String?, variant: String, count: Count)] {
        let cube = Cube.covering([.link, .target, .variant])
        return try connection.query(
            """
            SELECT target, variant, name, currency, sum(events)::int8, sum(value)::int8 FROM event_rollups_weekly
            WHERE workspace_id = \(workspace) AND cube = \(cube.id) AND link_id = \(link) AND variant IS NOT NULL
            GROUP BY 1, 2, 3, 4
            """
        ).map { row in
            let (target, variant, name, currency, events, value) = try row.decode((String?, String, String, String?, Int, Int).self)
            return (target, variant, Count(group: variant, name: name, currency: currency, events: events, value: value))
        }
    }

    /// The same counts over the raw events (every event ever stored, none deleted): what the rollups must equal, and
    /// the baseline of the benchmark (bench/events).
    static func scannedCounts(
        workspace: UUID, fromDay: Int, toDay: Int, filter: Filter, groupBy: Dimension?, on connection: Connection
    ) throws -> [Count] {
        var binds: [any PostgresEncodable] = [workspace, fromDay, toDay]
        let conditions = Self.conditions(filter, binds: &binds)
        let group = groupBy?.column ?? "NULL::text"
        let sql = """
            SELECT g::text, name, currency, e, v FROM (
                SELECT \(group) AS g, name, currency, count(*)::int8 AS e, coalesce(sum(value_minor), 0)::int8 AS v FROM events
                WHERE workspace_id = $1 AND occurred_at >= timestamptz '1970-01-01 00:00:00+00' + make_interval(days => $2::int)
                  AND occurred_at < timestamptz '1970-01-01 00:00:00+00' + make_interval(days => $3::int)\(conditions)
                GROUP BY 1, 2, 3
            ) grouped
            """
        return try connection.query(Query(unsafeSQL: sql, binds: binds)).map(Self.count)
    }

    /// The filter's conditions, its values bound after `binds`.
    private static func conditions(_ filter: Filter, binds: inout [any PostgresEncodable]) -> String {
        var sql = ""
        for dimension in Dimension.allCases {
            guard let value = filter[dimension] else { continue }
            binds.append(value)
            sql += " AND \(dimension.column) = $\(binds.count)\(dimension == .link ? "::uuid" : "")"
        }
        return sql
    }

    private static func count(_ row: Row) throws -> Count {
        let (group, name, currency, events, value) = try row.decode((String?, String, String?, Int, Int).self)
        return Count(group: group, name: name, currency: currency, events: events, value: value)
    }
}
