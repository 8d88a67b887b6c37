import Foundation
import Postgres

/// Folds the hourly top-value rows of finished UTC days into `hit_top_daily`, and of finished weeks (Monday
/// to Sunday) into `hit_top_weekly`, so that top lists over long ranges read one row per value and week, or
/// day, instead of one per value and hour. (The cubes' daily rows are kept by every fold, `HitCubeFold`.)
///
/// A day or week is compacted once it has been over for `grace` seconds (hits that late are rare: a spool
/// replay after an outage). Compaction and any batch holding such late hits serialize on one advisory lock
/// (exclusive for the compaction, shared for batches), so a late hit is counted in the daily and weekly
/// tables either by the compaction or by its batch, never by neither. Both are summed from the hourly rows,
/// which stay the complete record: a compacted day or week always equals the sum of its hours.
/// Its SQL is the hit writer's maintenance (locks, folds, ledgers in one transaction), so it stays here.
enum HitTopCompaction {
    /// Seconds after the end of a UTC day (or week) before it is compacted.
    static let grace: Double = 3600
    /// The advisory lock key (`hits` in ASCII).
    static let lockKey = 0x6869_7473
    /// Weeks compacted at most per maintenance pass (hourly).
    static let weeksPerPass = 4

    /// A span of days the hourly rows are compacted by.
    enum Span {
        case day, week

        var days: Int64 { self == .day ? 1 : 7 }
        var table: String { self == .day ? "hit_top_daily" : "hit_top_weekly" }
        var column: String { self == .day ? "day" : "week" }
        /// The table recording the compacted spans.
        var ledger: String { self == .day ? "hit_top_days" : "hit_top_weeks" }

        /// The span a UTC day (days since 1970) falls in, as the day number it starts on (a Monday for weeks;
        /// 1970-01-05, day 4, was one).
        func start(of day: Int64) -> Int64 {
            self == .day ? day : day - ((day - 4) % 7 + 7) % 7
        }
    }

    /// The days and weeks (by their Monday) among those of `days` already compacted, read under the shared
    /// lock (held until the transaction ends).
    static func compacted(among days: Set<Int64>, on connection: Connection) throws -> (days: Set<Int64>, weeks: Set<Int64>) {
        _ = try connection.query("SELECT pg_advisory_xact_lock_shared(\(lockKey))")
        let weeks = Set(days.map(Span.week.start(of:)))
        let rows = try connection.query("""
            SELECT 0, day - date '1970-01-01' FROM hit_top_days WHERE day - date '1970-01-01' = ANY(\(days.map(Int.init))::int[])
            UNION ALL
            SELECT 1, week - date '1970-01-01' FROM hit_top_weeks WHERE week - date '1970-01-01' = ANY(\(weeks.map(Int.init))::int[])
            """).map { try $0.decode((Int, Int).self) }
        return (Set(rows.filter { $0.0 == 0 }.map { Int64($0.1) }), Set(rows.filter { $0.0 == 1 }.map { Int64($0.1) }))
    }

    /// Compacts every finished day, then every finished week (over for `grace`), that has hourly rows and is
    /// not compacted yet.
    static func compactFinished(now: Date, on connection: Connection) throws {
        let lastFinished = Int64(((now.timeIntervalSince1970 - grace) / 86_400).rounded(.down)) - 1
        let pendingDays = try connection.query("""
            SELECT DISTINCT (hour AT TIME ZONE 'UTC')::date - date '1970-01-01' AS day FROM hit_top_hourly
            WHERE hour < to_timestamp(\((Int(lastFinished) + 1) * 86_400))
              AND (hour AT TIME ZONE 'UTC')::date NOT IN (SELECT day FROM hit_top_days)
            ORDER BY 1
            """).map { Int64(try $0.decode(0, as: Int.self)) }
        for day in pendingDays { try compact(.day, starting: day, on: connection) }
        // Every week with hourly rows has a compacted day once its days are finished (just above), and a
        // late hit for a day of a compacted week is added to it by its batch. Newest first and a few per pass:
        // the first pass after an upgrade finds every past week pending, and maintenance runs before the
        // server starts (top lists read the days of a week not compacted yet, so nothing waits on them).
        let pendingWeeks = try connection.query("""
            SELECT DISTINCT week - date '1970-01-01' FROM (
                SELECT day - ((day - date '1970-01-05') % 7 + 7) % 7 AS week FROM hit_top_days
            ) monday
            WHERE week + 6 <= date '1970-01-01' + \(Int(lastFinished))::int AND week NOT IN (SELECT week FROM hit_top_weeks)
            ORDER BY 1 DESC LIMIT \(weeksPerPass)
            """).map { Int64(try $0.decode(0, as: Int.self)) }
        for week in pendingWeeks { try compact(.week, starting: week, on: connection) }
    }

    /// Sums the hourly rows of one span into its table and records it as compacted, in one transaction under
    /// the exclusive lock.
    private static func compact(_ span: Span, starting start: Int64, on connection: Connection) throws {
        try connection.executeScript("BEGIN")
        do {
            _ = try connection.query("SELECT pg_advisory_xact_lock(\(lockKey))")
            // Table and column names come from `Span`, the numbers from integers: safe to interpolate.
            try connection.execute(Query(unsafeSQL: """
                INSERT INTO \(span.table) AS d (workspace_id, dimension, \(span.column), hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click)
                SELECT workspace_id, dimension, date '1970-01-01' + \(start)::int, hostname, value, outcome,
                       sum(human_resolve), sum(human_click), sum(bot_resolve), sum(bot_click)
                FROM hit_top_hourly
                WHERE hour >= to_timestamp(\(start * 86_400)) AND hour < to_timestamp(\((start + span.days) * 86_400))
                GROUP BY workspace_id, dimension, hostname, value, outcome
                ON CONFLICT ON CONSTRAINT \(span.table)_key DO UPDATE SET human_resolve = EXCLUDED.human_resolve,
                    human_click = EXCLUDED.human_click, bot_resolve = EXCLUDED.bot_resolve, bot_click = EXCLUDED.bot_click
                """))
            try connection.execute(Query(unsafeSQL: "INSERT INTO \(span.ledger) (\(span.column)) VALUES (date '1970-01-01' + \(start)::int) ON CONFLICT DO NOTHING"))
            try connection.executeScript("COMMIT")
        } catch {
            try? connection.executeScript("ROLLBACK")
            throw error
        }
    }
}
