import Foundation
import Postgres

/// Moves what the batches appended into the tables reads sum: the rows of `hit_rollups_pending` (keyed by every
/// dimension) into the cubes (`AnalyticsCube`), and those of `hit_top_pending` into the top-value tables.
///
/// Each pending rollup is regrouped into every cube's hourly row (but the audience cubes', which have none) and daily
/// row, hits summed and visitor sketches united; each pending top value into its hourly and daily row, and into its
/// weekly row when its week is already compacted (`HitTopCompaction`, whose lock the fold holds shared). So the daily
/// rows of a day are the sum of its hours from its first fold on, whether the day is over or not, late hits
/// included, and reads take whole days from them.
///
/// One transaction deletes the pending rows it moves and upserts them, so a read (which adds the pending rows to the
/// tables', `AnalyticsStore`) counts every hit exactly once, whichever side of a fold it falls on. Rows a batch adds
/// meanwhile stay for the next fold. The hit pipeline's fold thread runs it every `HitsConfiguration.foldInterval`
/// (`HitBatcher`), and the writer's maintenance before compacting weeks.
enum HitFold {
    /// Folds every pending row; answers how many there were (rollups and top values).
    @discardableResult
    static func fold(on connection: Connection) throws -> Int {
        try connection.executeScript("BEGIN")
        do {
            let moved = try foldRollups(on: connection) + foldTops(on: connection)
            try connection.executeScript("COMMIT")
            return moved
        } catch {
            try? connection.executeScript("ROLLBACK")
            throw error
        }
    }

    /// The pending rollups into the cubes' hourly and daily rows. The rows of one combination of dimensions (appended
    /// by several batches) are merged first, so each combination is spread over the cubes once: that spreading makes
    /// a row of each for every cube, which the regrouping sorts. Upserted in key order, so two nodes folding at once
    /// lock rows in the same order.
    private static func foldRollups(on connection: Connection) throws -> Int {
        let slots = AnalyticsCube.slotList
        let dimensions = AnalyticsCube.dimensionColumns
        let key = "workspace_id, cube, hour, source, is_bot, \(slots)"
        let upsert = "hits = r.hits + EXCLUDED.hits, visitors = hll_union(r.visitors, EXCLUDED.visitors)"
        return try connection.query(
            Query(
                unsafeSQL: """
                    WITH moved AS (
                        DELETE FROM hit_rollups_pending RETURNING *
                    ), merged AS (
                        SELECT workspace_id, hour, source, is_bot, \(dimensions), sum(hits)::int8 AS hits, hll_union_agg(visitors) AS visitors
                        FROM moved
                        GROUP BY workspace_id, hour, source, is_bot, \(dimensions)
                    ), regrouped AS (
                        SELECT m.workspace_id, c.cube, m.hour, m.source, m.is_bot, \(slots), sum(m.hits)::int8 AS hits,
                               hll_union_agg(m.visitors) AS visitors
                        FROM merged m CROSS JOIN LATERAL \(AnalyticsCube.values(of: "m"))
                        GROUP BY \(key)
                    ), hourly AS (
                        INSERT INTO hit_cubes_hourly AS r (\(key), hits, visitors)
                        SELECT \(key), hits, visitors FROM regrouped WHERE cube IN (\(AnalyticsCube.hourlyIDs)) ORDER BY \(key)
                        ON CONFLICT ON CONSTRAINT hit_cubes_hourly_key DO UPDATE SET \(upsert)
                        RETURNING 1
                    ), daily AS (
                        INSERT INTO hit_cubes_daily AS r (workspace_id, cube, day, source, is_bot, \(slots), hits, visitors)
                        SELECT workspace_id, cube, (hour AT TIME ZONE 'UTC')::date AS day, source, is_bot, \(slots), sum(hits), hll_union_agg(visitors)
                        FROM regrouped
                        GROUP BY workspace_id, cube, day, source, is_bot, \(slots)
                        ORDER BY workspace_id, cube, day, source, is_bot, \(slots)
                        ON CONFLICT ON CONSTRAINT hit_cubes_daily_key DO UPDATE SET \(upsert)
                        RETURNING 1
                    )
                    SELECT count(*)::int8 FROM moved
                    """)
        ).first!.decode(0, as: Int.self)
    }

    /// The pending top values into their hourly and daily rows, and into the weekly rows of compacted weeks, under the
    /// compaction lock (shared): a week compacted meanwhile either sums this fold's daily rows or is seen by it.
    private static func foldTops(on connection: Connection) throws -> Int {
        _ = try connection.query("SELECT pg_advisory_xact_lock_shared(\(HitTopCompaction.lockKey))")
        let counts = "human_resolve, human_click, bot_resolve, bot_click"
        let sums = "sum(human_resolve), sum(human_click), sum(bot_resolve), sum(bot_click)"
        let add =
            "human_resolve = r.human_resolve + EXCLUDED.human_resolve, human_click = r.human_click + EXCLUDED.human_click, "
            + "bot_resolve = r.bot_resolve + EXCLUDED.bot_resolve, bot_click = r.bot_click + EXCLUDED.bot_click"
        func into(_ table: String, _ column: String, _ value: String, where condition: String = "") -> String {
            """
            INSERT INTO \(table) AS r (workspace_id, dimension, \(column), hostname, value, outcome, \(counts))
            SELECT workspace_id, dimension, \(value) AS t, hostname, value, outcome, \(sums)
            FROM grouped\(condition)
            GROUP BY workspace_id, dimension, t, hostname, value, outcome
            ORDER BY workspace_id, dimension, t, hostname, value, outcome
            ON CONFLICT ON CONSTRAINT \(table)_key DO UPDATE SET \(add)
            RETURNING 1
            """
        }
        let day = "(hour AT TIME ZONE 'UTC')::date"
        let week = HitTopCompaction.mondaySQL(of: day)
        return try connection.query(
            Query(
                unsafeSQL: """
                    WITH moved AS (
                        DELETE FROM hit_top_pending RETURNING *
                    ), grouped AS (
                        SELECT workspace_id, dimension, hour, hostname, value, outcome, sum(human_resolve) AS human_resolve,
                               sum(human_click) AS human_click, sum(bot_resolve) AS bot_resolve, sum(bot_click) AS bot_click
                        FROM moved GROUP BY workspace_id, dimension, hour, hostname, value, outcome
                    ), hourly AS (
                        \(into("hit_top_hourly", "hour", "hour"))
                    ), daily AS (
                        \(into("hit_top_daily", "day", day))
                    ), weekly AS (
                        \(into("hit_top_weekly", "week", week, where: " WHERE \(week) IN (SELECT week FROM hit_top_weeks)"))
                    )
                    SELECT count(*)::int8 FROM moved
                    """)
        ).first!.decode(0, as: Int.self)
    }
}
