import Foundation
import Postgres

/// Moves the rows of `hit_rollups_pending` (the batches' rollups, keyed by every dimension) into the cubes
/// (`AnalyticsCube`): each row is regrouped into every cube's hourly row (but the audience cubes', which have none)
/// and daily row, hits summed and visitor sketches united. So the daily rows of a day are the sum of its hours from
/// its first fold on, whether the day is over or not, late hits included, and reads take whole days from them.
///
/// One statement deletes the pending rows it moves and upserts them, so a read (which adds the pending rows to
/// the cube's, `AnalyticsStore`) counts every hit exactly once, whichever side of a fold it falls on. Rows a batch
/// adds meanwhile stay for the next fold. The hit pipeline's fold thread runs it every
/// `HitsConfiguration.foldInterval` (`HitBatcher`), and the writer's maintenance before compacting.
enum HitCubeFold {
    /// Folds every pending row; answers how many there were.
    @discardableResult
    static func fold(on connection: Connection) throws -> Int {
        let slots = AnalyticsCube.slotList
        let key = "workspace_id, cube, hour, source, is_bot, \(slots)"
        let upsert = "hits = r.hits + EXCLUDED.hits, visitors = hll_union(r.visitors, EXCLUDED.visitors)"
        try connection.executeScript("BEGIN")
        do {
            // Upserted in key order, so two nodes folding at once lock rows in the same order.
            let moved = try connection.query(Query(unsafeSQL: """
                WITH moved AS (
                    DELETE FROM hit_rollups_pending RETURNING *
                ), regrouped AS (
                    SELECT m.workspace_id, c.cube, m.hour, m.source, m.is_bot, \(slots), sum(m.hits)::int8 AS hits,
                           hll_union_agg(m.visitors) AS visitors
                    FROM moved m CROSS JOIN LATERAL \(AnalyticsCube.values(of: "m"))
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
                """)).first!.decode(0, as: Int.self)
            try connection.executeScript("COMMIT")
            return moved
        } catch {
            try? connection.executeScript("ROLLBACK")
            throw error
        }
    }
}
