-- A link's own analytics name its destinations (with their apps), what its visitors got, its outcomes and its
-- browsers (issue 46): two cubes keep them (`AnalyticsCube`, docs/HITS.md "Storage"), "link traffic" (12: link,
-- host, app, destination, outcome, platform, served) and "link browsers" (13: link, host, browser), both hourly
-- and daily. The folds write them from now on; here they are made of the raw hits kept (the retention's days),
-- up to the oldest hour still pending (those hits reach them through the next fold, as they reach every cube),
-- so that a link's history is counted in them as far back as its raw hits go.
CREATE TEMPORARY TABLE cutoff AS
SELECT coalesce((SELECT min(hour) FROM hit_rollups_pending), date_trunc('hour', now()) + interval '1 hour') AS before;

CREATE TEMPORARY TABLE per_link_hours AS
SELECT h.workspace_id, c.cube, date_trunc('hour', h.time) AS hour, h.source, h.is_bot,
       c.d1, c.d2, c.d3, c.d4, c.d5, c.d6, c.d7, count(*)::int8 AS hits,
       coalesce(hll_add_agg(hll_hash_text(h.visitor_hash)), hll_empty()) AS visitors
FROM hits h CROSS JOIN LATERAL (VALUES
    (12::int2, h.link_id::text, h.hostname, h.app_id::text, h.destination_type, h.outcome, h.platform, h.served),
    (13::int2, h.link_id::text, h.hostname, h.browser, NULL::text, NULL::text, NULL::text, NULL::text)
) AS c(cube, d1, d2, d3, d4, d5, d6, d7)
WHERE h.workspace_id IS NOT NULL AND h.time < (SELECT before FROM cutoff)
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12;

INSERT INTO hit_cubes_hourly (workspace_id, cube, hour, source, is_bot, d1, d2, d3, d4, d5, d6, d7, hits, visitors)
SELECT workspace_id, cube, hour, source, is_bot, d1, d2, d3, d4, d5, d6, d7, hits, visitors FROM per_link_hours;

INSERT INTO hit_cubes_daily (workspace_id, cube, day, source, is_bot, d1, d2, d3, d4, d5, d6, d7, hits, visitors)
SELECT workspace_id, cube, (hour AT TIME ZONE 'UTC')::date, source, is_bot, d1, d2, d3, d4, d5, d6, d7, sum(hits), hll_union_agg(visitors)
FROM per_link_hours
GROUP BY workspace_id, cube, (hour AT TIME ZONE 'UTC')::date, source, is_bot, d1, d2, d3, d4, d5, d6, d7;

DROP TABLE per_link_hours;
DROP TABLE cutoff;
