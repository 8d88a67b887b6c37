-- Analytics per item and day without a sketch per item and day (issue 32: "top links by visitors" took 0.7 s at
-- 10 million hits, one `hll_union_agg` state of 128 KB for each of 31,000 link-days).
--
-- 1. Daily rows for every day: the fold now writes each cube's daily row of the day it folds as well as the hourly
--    one (`HitCubeFold`), so a day being counted ("today") has its daily row like a finished one, and compaction no
--    longer builds them. Here the days not compacted yet get theirs from their hourly rows. Their rows are updated by
--    every fold of their day, so they get the hourly rows' free space for updates in place.
-- 2. `visitors_count`: each daily row's distinct visitors, kept with it. A read whose filters and grouping name
--    every dimension of its cube reads one daily row per item and day, and sums these instead of uniting sketches
--    (`AnalyticsStore`).
-- 3. Narrow cubes for the most common reads, whose rows were a wide cube's: "links" (8: link, host), for links
--    without campaign fields, which then have one daily row per link and day; "outcomes" (9: outcome, platform,
--    served, device), for summaries and series by those; "destinations" (10: app, destination); "countries" (11).
--    Each is regrouped from a cube keeping its dimensions: link campaigns (4), traffic (1) and visitors (2).
ALTER TABLE hit_cubes_daily SET (fillfactor = 70);

-- links (8) from link campaigns (4): link d1, host d2.
INSERT INTO hit_cubes_hourly (workspace_id, cube, hour, source, is_bot, d1, d2, hits, visitors)
SELECT workspace_id, 8, hour, source, is_bot, d1, d2, sum(hits), hll_union_agg(visitors) FROM hit_cubes_hourly WHERE cube = 4
GROUP BY workspace_id, hour, source, is_bot, d1, d2;
INSERT INTO hit_cubes_daily (workspace_id, cube, day, source, is_bot, d1, d2, hits, visitors)
SELECT workspace_id, 8, day, source, is_bot, d1, d2, sum(hits), hll_union_agg(visitors) FROM hit_cubes_daily WHERE cube = 4
GROUP BY workspace_id, day, source, is_bot, d1, d2;

-- outcomes (9) from traffic (1): outcome d5, platform d6, served d7, device d8.
INSERT INTO hit_cubes_hourly (workspace_id, cube, hour, source, is_bot, d1, d2, d3, d4, hits, visitors)
SELECT workspace_id, 9, hour, source, is_bot, d5, d6, d7, d8, sum(hits), hll_union_agg(visitors) FROM hit_cubes_hourly WHERE cube = 1
GROUP BY workspace_id, hour, source, is_bot, d5, d6, d7, d8;
INSERT INTO hit_cubes_daily (workspace_id, cube, day, source, is_bot, d1, d2, d3, d4, hits, visitors)
SELECT workspace_id, 9, day, source, is_bot, d5, d6, d7, d8, sum(hits), hll_union_agg(visitors) FROM hit_cubes_daily WHERE cube = 1
GROUP BY workspace_id, day, source, is_bot, d5, d6, d7, d8;

-- destinations (10) from traffic (1): app d2, destination d4.
INSERT INTO hit_cubes_hourly (workspace_id, cube, hour, source, is_bot, d1, d2, hits, visitors)
SELECT workspace_id, 10, hour, source, is_bot, d2, d4, sum(hits), hll_union_agg(visitors) FROM hit_cubes_hourly WHERE cube = 1
GROUP BY workspace_id, hour, source, is_bot, d2, d4;
INSERT INTO hit_cubes_daily (workspace_id, cube, day, source, is_bot, d1, d2, hits, visitors)
SELECT workspace_id, 10, day, source, is_bot, d2, d4, sum(hits), hll_union_agg(visitors) FROM hit_cubes_daily WHERE cube = 1
GROUP BY workspace_id, day, source, is_bot, d2, d4;

-- countries (11) from visitors (2): country d1.
INSERT INTO hit_cubes_hourly (workspace_id, cube, hour, source, is_bot, d1, hits, visitors)
SELECT workspace_id, 11, hour, source, is_bot, d1, sum(hits), hll_union_agg(visitors) FROM hit_cubes_hourly WHERE cube = 2
GROUP BY workspace_id, hour, source, is_bot, d1;
INSERT INTO hit_cubes_daily (workspace_id, cube, day, source, is_bot, d1, hits, visitors)
SELECT workspace_id, 11, day, source, is_bot, d1, sum(hits), hll_union_agg(visitors) FROM hit_cubes_daily WHERE cube = 2
GROUP BY workspace_id, day, source, is_bot, d1;

-- The cubes with hourly rows (all but the audience cubes, 6 and 7) had daily rows for compacted days only.
INSERT INTO hit_cubes_daily (workspace_id, cube, day, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8, hits, visitors)
SELECT workspace_id, cube, (hour AT TIME ZONE 'UTC')::date AS day, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8, sum(hits),
       hll_union_agg(visitors)
FROM hit_cubes_hourly
WHERE cube NOT IN (6, 7) AND (hour AT TIME ZONE 'UTC')::date NOT IN (SELECT day FROM hit_top_days)
GROUP BY workspace_id, cube, day, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8;

-- Adding a stored generated column rewrites the table, with the fill factor above.
ALTER TABLE hit_cubes_daily ADD COLUMN visitors_count bigint GENERATED ALWAYS AS (round(hll_cardinality(visitors))::bigint) STORED;

-- The rows added above change what the planner should expect of each cube.
ANALYZE hit_cubes_hourly, hit_cubes_daily;
