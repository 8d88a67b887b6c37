import Foundation
import Postgres

/// Folds the hourly top-value rows of finished UTC days into `hit_top_daily`, so that top lists over long
/// ranges read one row per value and day instead of one per value and hour.
///
/// A day is compacted once it has been over for `grace` seconds (hits that late are rare: a spool replay
/// after an outage). Compaction and any batch holding such late hits serialize on one advisory lock
/// (exclusive for the compaction, shared for batches), so a late hit is counted in the daily table either
/// by the compaction or by its batch, never by neither.
enum HitTopCompaction {
    /// Seconds after the end of a UTC day before it is compacted.
    static let grace: Double = 3600
    /// The advisory lock key (`hits` in ASCII).
    static let lockKey = 0x6869_7473

    /// The days among `days` already compacted, read under the shared lock (held until the transaction ends).
    static func compactedDays(among days: Set<Int64>, on connection: Connection) throws -> Set<Int64> {
        _ = try connection.query("SELECT pg_advisory_xact_lock_shared(\(lockKey))")
        let rows = try connection.query("""
            SELECT day - date '1970-01-01' FROM hit_top_days WHERE day - date '1970-01-01' = ANY(\(days.map(Int.init))::int[])
            """)
        return Set(try rows.map { Int64(try $0.decode(0, as: Int.self)) })
    }

    /// Compacts every finished day (over for `grace`) that has hourly rows and is not compacted yet.
    static func compactFinishedDays(now: Date, on connection: Connection) throws {
        let lastFinished = Int64(((now.timeIntervalSince1970 - grace) / 86_400).rounded(.down)) - 1
        let pending = try connection.query("""
            SELECT DISTINCT (hour AT TIME ZONE 'UTC')::date - date '1970-01-01' AS day FROM hit_top_hourly
            WHERE hour < to_timestamp(\((Int(lastFinished) + 1) * 86_400))
              AND (hour AT TIME ZONE 'UTC')::date NOT IN (SELECT day FROM hit_top_days)
            ORDER BY 1
            """).map { Int64(try $0.decode(0, as: Int.self)) }
        for day in pending {
            try connection.executeScript("BEGIN")
            do {
                _ = try connection.query("SELECT pg_advisory_xact_lock(\(lockKey))")
                try connection.execute("""
                    INSERT INTO hit_top_daily AS d (workspace_id, dimension, day, hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click)
                    SELECT workspace_id, dimension, date '1970-01-01' + \(Int(day))::int, hostname, value, outcome,
                           sum(human_resolve), sum(human_click), sum(bot_resolve), sum(bot_click)
                    FROM hit_top_hourly
                    WHERE hour >= to_timestamp(\(Int(day) * 86_400)) AND hour < to_timestamp(\((Int(day) + 1) * 86_400))
                    GROUP BY workspace_id, dimension, hostname, value, outcome
                    ON CONFLICT ON CONSTRAINT hit_top_daily_key DO UPDATE SET human_resolve = EXCLUDED.human_resolve,
                        human_click = EXCLUDED.human_click, bot_resolve = EXCLUDED.bot_resolve, bot_click = EXCLUDED.bot_click
                    """)
                try connection.execute("INSERT INTO hit_top_days (day) VALUES (date '1970-01-01' + \(Int(day))::int) ON CONFLICT DO NOTHING")
                try connection.executeScript("COMMIT")
            } catch {
                try? connection.executeScript("ROLLBACK")
                throw error
            }
        }
    }
}
