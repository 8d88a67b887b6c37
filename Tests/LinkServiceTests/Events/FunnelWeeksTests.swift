import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// Funnels over long ranges (docs/EVENTS.md, "Funnels"): the weekly rollups (`migrations/0038`) the trigger keeps beside
/// the daily ones, and reads that take whole weeks from them and the days at the ends from the daily rows.
@Suite("Funnels over long ranges")
struct FunnelWeeksTests {
    /// Counts as sorted lines, to compare answers whatever their order.
    static func lines(_ counts: [EventFunnelStore.Count]) -> [String] {
        counts.map { "\($0.group ?? "-") \($0.name) \($0.currency ?? "-") \($0.events) \($0.value)" }.sorted()
    }

    @Test(arguments: [
        // (from, to, whole weeks): day 4 (1970-01-05) was a Monday; the last, bench/events' 90 days (2026-09-08, a Tuesday,
        // to 2026-12-07).
        (4, 11, 4..<11), (4, 10, 10..<10), (5, 18, 11..<18), (5, 17, 17..<17), (3, 26, 4..<25), (0, 1, 1..<1),
        (-10, 4, -10..<4), (-11, 4, -10..<4), (20_704, 20_794, 20_710..<20_794),
    ])
    func wholeWeeksAreTheMondaysToSundaysInside(from: Int, to: Int, weeks: Range<Int>) {
        #expect(EventFunnelStore.wholeWeeks(fromDay: from, toDay: to) == weeks)
    }

    /// Events of 40 links over 100 days, landed as a multi-row statement, a COPY and single rows: for ranges with and
    /// without whole weeks and edges on any weekday, grouped and filtered as funnels are, the read (weeks and edge days)
    /// gives the numbers of the daily rows alone and of the raw events; the weekly rows are the daily ones summed.
    @Test func aLongRangeOverManyGroupsGivesTheNumbersOfTheDailyRows() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT workspace_id FROM apps WHERE id = \(UUID(uuidString: fixture.androidApp)!)").first!.decode(
                    0, as: UUID.self)
            }
            // 2026-08-01 to 2026-11-09: 100 days starting on a Saturday.
            let firstDay = 20_666
            try service.application.pool.withConnection { connection in
                _ = try connection.execute(
                    """
                    INSERT INTO events (workspace_id, kind, name, occurred_at, value_minor, currency, idempotency_key, link_id,
                                        utm_campaign, country, os, variant, attribution)
                    SELECT \(workspace)::uuid, CASE WHEN i % 3 = 0 THEN 'install' WHEN i % 3 = 1 THEN 'open' ELSE 'named' END,
                           CASE WHEN i % 3 = 0 THEN 'install' WHEN i % 3 = 1 THEN 'open' ELSE 'purchase' END,
                           timestamptz '2026-08-01 00:00:00+00' + make_interval(secs => (i * 7919) % 8640000),
                           CASE WHEN i % 3 = 2 THEN i END, CASE WHEN i % 3 = 2 THEN (ARRAY['EUR', 'USD'])[1 + i % 2] END,
                           'k' || i, CASE WHEN i % 9 <> 0 THEN md5('l' || i % 40)::uuid END, 'c' || i % 4,
                           (ARRAY['DE', 'US', 'FR', NULL])[1 + i % 4], (ARRAY['iOS', 'Android', NULL])[1 + i % 3],
                           CASE WHEN i % 40 < 6 THEN (ARRAY['A', 'B'])[1 + i % 2] END, 'visitor'
                    FROM generate_series(1, 4000) i
                    """)
                _ = try connection.copyFrom(
                    "COPY events (workspace_id, kind, name, occurred_at, idempotency_key, link_id, country, attribution) FROM STDIN",
                    rows: (0..<300).map { index -> [String?] in
                        let time = Date(timeIntervalSince1970: Double(firstDay * 86_400 + index * 28_813))
                        return [
                            workspace.canonicalText, "open", "open", RFC3339.string(time), "copied-\(index)",
                            index % 5 == 0 ? nil : "00000000-0000-0000-0000-0000000000\(10 + index % 40)", "DE", "link_url",
                        ]
                    })
                for index in 0..<5 {
                    _ = try connection.execute(
                        """
                        INSERT INTO events (workspace_id, kind, name, occurred_at, idempotency_key, country, attribution,
                                            unattributed_reason)
                        VALUES (\(workspace)::uuid, 'install', 'install',
                                timestamptz '2026-09-14 23:59:59+00' + make_interval(days => \(index * 9)),
                                \("single-\(index)"), 'FR', 'none', 'no_click_token')
                        """)
                }
            }
            try service.application.pool.withConnection { connection in
                let weeklyDiffers = try connection.query(
                    """
                    SELECT count(*) FROM (
                        (SELECT cube, date_trunc('week', day)::date, link_id, utm_campaign, country, os, target, variant, name, currency,
                                sum(events)::int8, sum(value)::int8
                         FROM event_rollups_daily WHERE workspace_id = \(workspace) GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
                         EXCEPT ALL
                         SELECT cube, week, link_id, utm_campaign, country, os, target, variant, name, currency, events, value
                         FROM event_rollups_weekly WHERE workspace_id = \(workspace))
                        UNION ALL
                        (SELECT cube, week, link_id, utm_campaign, country, os, target, variant, name, currency, events, value
                         FROM event_rollups_weekly WHERE workspace_id = \(workspace)
                         EXCEPT ALL
                         SELECT cube, date_trunc('week', day)::date, link_id, utm_campaign, country, os, target, variant, name, currency,
                                sum(events)::int8, sum(value)::int8
                         FROM event_rollups_daily WHERE workspace_id = \(workspace) GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
                    ) differing
                    """
                ).first!.decode(0, as: Int.self)
                #expect(weeklyDiffers == 0, "the weekly rows are the daily rows summed per week")

                let link = "00000000-0000-0000-0000-000000000017"
                let ranges = [
                    (firstDay, firstDay + 100), (firstDay + 2, firstDay + 30), (firstDay + 3, firstDay + 93), (firstDay + 5, firstDay + 12),
                    (firstDay + 1, firstDay + 2), (firstDay + 16, firstDay + 44), (firstDay - 20, firstDay + 120),
                ]
                let filters: [EventFunnelStore.Filter] = [[:], [.country: "DE"], [.link: link], [.campaign: "c1", .os: "iOS"]]
                for (from, to) in ranges {
                    for groupBy: EventFunnelStore.Dimension? in [nil, .link, .variant, .country] {
                        for filter in filters {
                            let read = try EventFunnelStore.counts(
                                workspace: workspace, fromDay: from, toDay: to, filter: filter, groupBy: groupBy, on: connection)
                            let scanned = try EventFunnelStore.scannedCounts(
                                workspace: workspace, fromDay: from, toDay: to, filter: filter, groupBy: groupBy, on: connection)
                            let daily = try Self.dailyCounts(workspace, from, to, filter, groupBy, on: connection)
                            let context = "days \(from)..<\(to), groupBy \(groupBy?.rawValue ?? "-"), filter \(filter)"
                            #expect(Self.lines(read) == Self.lines(daily), "\(context)")
                            #expect(Self.lines(read) == Self.lines(scanned), "\(context)")
                            if filter.isEmpty && groupBy == .link && to - from >= 28 { #expect(read.count > 40, "\(context)") }
                        }
                    }
                }
            }
        }
    }

    /// The same counts from the daily rows alone (as funnels read them before the weekly rows).
    static func dailyCounts(
        _ workspace: UUID, _ fromDay: Int, _ toDay: Int, _ filter: EventFunnelStore.Filter, _ groupBy: EventFunnelStore.Dimension?,
        on connection: Connection
    ) throws -> [EventFunnelStore.Count] {
        let cube = EventFunnelStore.Cube.covering(Set(filter.keys).union(groupBy.map { [$0] } ?? []))
        var conditions = ""
        for (dimension, value) in filter {
            conditions += " AND \(dimension.column)::text = '\(value)'"
        }
        let sql = """
            SELECT (\(groupBy?.column ?? "NULL::text"))::text, name, currency, sum(events)::int8, sum(value)::int8 FROM event_rollups_daily
            WHERE workspace_id = '\(workspace.canonicalText)' AND cube = \(cube.id)
              AND day >= date '1970-01-01' + \(fromDay) AND day < date '1970-01-01' + \(toDay)\(conditions)
            GROUP BY 1, 2, 3
            """
        return try connection.query(Query(unsafeSQL: sql, binds: [])).map { row in
            let (group, name, currency, events, value) = try row.decode((String?, String, String?, Int, Int).self)
            return EventFunnelStore.Count(group: group, name: name, currency: currency, events: events, value: value)
        }
    }
}
