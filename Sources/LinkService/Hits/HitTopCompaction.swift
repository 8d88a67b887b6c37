import Foundation
import Postgres

/// Sums the daily top-value rows of finished weeks (Monday to Sunday) into `hit_top_weekly`, so that top lists over
/// long ranges read one row per value and week instead of one per value and day. (Every day has its daily rows from
/// its first fold on, `HitFold`.)
///
/// A week is compacted once it has been over for `grace` seconds (hits that late are rare: a spool replay after an
/// outage). Compaction and every fold serialize on one advisory lock (exclusive for the compaction, shared for
/// folds), so a late hit is counted in the weekly table either by the compaction (from the daily rows its fold
/// wrote) or by its fold, never by neither. The daily rows stay the complete record: a compacted week always equals
/// the sum of its days. Its SQL is the hit writer's maintenance (locks, sums, ledger in one transaction), so it
/// stays here.
enum HitTopCompaction {
    /// Seconds after the end of a week before it is compacted.
    static let grace: Double = 3600
    /// The advisory lock key (`hits` in ASCII).
    static let lockKey = 0x6869_7473
    /// Weeks compacted at most per maintenance pass (hourly).
    static let weeksPerPass = 4

    /// The week a UTC day (days since 1970) falls in, as the day number of its Monday (1970-01-05, day 4, was one).
    static func week(of day: Int64) -> Int64 {
        day - ((day - 4) % 7 + 7) % 7
    }

    /// `week(of:)` in SQL: the Monday of the week holding `date`, a SQL expression of type `date`.
    static func mondaySQL(of date: String) -> String {
        "\(date) - ((\(date) - date '1970-01-05') % 7 + 7) % 7"
    }

    /// Compacts the finished weeks (over for `grace`) that have daily rows and are not compacted yet, newest first
    /// and a few per pass: the first pass after an upgrade may find many past weeks pending, and maintenance runs
    /// before the server starts (top lists read the days of a week not compacted yet, so nothing waits on them).
    static func compactFinished(now: Date, on connection: Connection) throws {
        let lastFinished = Int64(((now.timeIntervalSince1970 - grace) / 86_400).rounded(.down)) - 1
        let pendingWeeks = try connection.query(
            """
            SELECT DISTINCT week - date '1970-01-01' FROM (
                SELECT DISTINCT \(unescaped: mondaySQL(of: "day")) AS week FROM hit_top_daily
            ) monday
            WHERE week + 6 <= date '1970-01-01' + \(Int(lastFinished))::int AND week NOT IN (SELECT week FROM hit_top_weeks)
            ORDER BY 1 DESC LIMIT \(weeksPerPass)
            """
        ).map { Int64(try $0.decode(0, as: Int.self)) }
        for week in pendingWeeks { try compact(week: week, on: connection) }
    }

    /// Sums the daily rows of the week starting on day `monday` into the weekly table and records it as compacted,
    /// in one transaction under the exclusive lock.
    private static func compact(week monday: Int64, on connection: Connection) throws {
        try connection.executeScript("BEGIN")
        do {
            _ = try connection.query("SELECT pg_advisory_xact_lock(\(lockKey))")
            // The numbers come from integers: safe to interpolate.
            try connection.execute(
                """
                INSERT INTO hit_top_weekly AS w (workspace_id, dimension, week, hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click)
                SELECT workspace_id, dimension, date '1970-01-01' + \(Int(monday))::int, hostname, value, outcome,
                       sum(human_resolve), sum(human_click), sum(bot_resolve), sum(bot_click)
                FROM hit_top_daily
                WHERE day >= date '1970-01-01' + \(Int(monday))::int AND day < date '1970-01-01' + \(Int(monday + 7))::int
                GROUP BY workspace_id, dimension, hostname, value, outcome
                ON CONFLICT ON CONSTRAINT hit_top_weekly_key DO UPDATE SET human_resolve = EXCLUDED.human_resolve,
                    human_click = EXCLUDED.human_click, bot_resolve = EXCLUDED.bot_resolve, bot_click = EXCLUDED.bot_click
                """)
            try connection.execute(
                "INSERT INTO hit_top_weeks (week) VALUES (date '1970-01-01' + \(Int(monday))::int) ON CONFLICT DO NOTHING")
            try connection.executeScript("COMMIT")
        } catch {
            try? connection.executeScript("ROLLBACK")
            throw error
        }
    }
}
