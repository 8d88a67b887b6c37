-- Top values folded like the cubes (issue 32: the top paths of every outcome took 125-178 ms at 10 million hits,
-- most of it the hourly rows of today and of days not compacted yet).
--
-- 1. The hit writer appends each batch's path and referrer counts to `hit_top_pending` instead of upserting them
--    into `hit_top_hourly` (and into the daily and weekly rows of late hits) under the compaction lock. The fold
--    (`HitFold`) moves them into the hourly and daily rows of their hour and day, and into the weekly row of a
--    week already compacted; reads add the pending rows, as they do the pending rollups.
-- 2. So every day has daily rows, today included, and a day is no longer compacted: `hit_top_days` goes. Here
--    the days without daily rows (not compacted yet) get them from their hourly rows. Weeks are still compacted
--    (`hit_top_weeks`), from the daily rows of a finished week.
CREATE TABLE hit_top_pending (
    workspace_id      uuid NOT NULL,
    dimension         text NOT NULL CHECK (dimension IN ('path', 'referrer')),
    hour              timestamptz NOT NULL,
    hostname          text NOT NULL,
    value             text NOT NULL,
    outcome           text NOT NULL,
    human_resolve     bigint NOT NULL,
    human_click       bigint NOT NULL,
    bot_resolve       bigint NOT NULL,
    bot_click         bigint NOT NULL
);
CREATE INDEX hit_top_pending_hour ON hit_top_pending (workspace_id, hour);

INSERT INTO hit_top_daily (workspace_id, dimension, day, hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click)
SELECT workspace_id, dimension, (hour AT TIME ZONE 'UTC')::date AS day, hostname, value, outcome,
       sum(human_resolve), sum(human_click), sum(bot_resolve), sum(bot_click)
FROM hit_top_hourly
WHERE (hour AT TIME ZONE 'UTC')::date NOT IN (SELECT day FROM hit_top_days)
GROUP BY workspace_id, dimension, day, hostname, value, outcome;

DROP TABLE hit_top_days;

ANALYZE hit_top_daily;
