-- Targets and variants as analytics dimensions (issue 51, docs/HITS.md "Storage"): the pending rollups keep a hit's
-- `target` and `variant`, and two cubes keep them with their link: "link targets" (14: link, host, target, variant,
-- outcome, platform, served), hourly and daily, and "target audience" (15: link, host, target, variant, country, os,
-- device, platform), daily only. Made here of the raw hits kept, up to the oldest hour still pending (those reach them
-- through the next fold, as they reach every cube), as migrations/0029 made the link cubes.
ALTER TABLE hit_rollups_pending ADD COLUMN target text, ADD COLUMN variant text;

CREATE TEMPORARY TABLE cutoff AS
SELECT coalesce((SELECT min(hour) FROM hit_rollups_pending), date_trunc('hour', now()) + interval '1 hour') AS before;

CREATE TEMPORARY TABLE target_hours AS
SELECT h.workspace_id, c.cube, date_trunc('hour', h.time) AS hour, h.source, h.is_bot,
       c.d1, c.d2, c.d3, c.d4, c.d5, c.d6, c.d7, c.d8, count(*)::int8 AS hits,
       coalesce(hll_add_agg(hll_hash_text(h.visitor_hash)), hll_empty()) AS visitors
FROM hits h CROSS JOIN LATERAL (VALUES
    (14::int2, h.link_id::text, h.hostname, h.target, h.variant, h.outcome, h.platform, h.served, NULL::text),
    (15::int2, h.link_id::text, h.hostname, h.target, h.variant, h.country, h.os, h.device, h.platform)
) AS c(cube, d1, d2, d3, d4, d5, d6, d7, d8)
WHERE h.workspace_id IS NOT NULL AND h.time < (SELECT before FROM cutoff)
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13;

INSERT INTO hit_cubes_hourly (workspace_id, cube, hour, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8, hits, visitors)
SELECT workspace_id, cube, hour, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8, hits, visitors FROM target_hours WHERE cube = 14;

INSERT INTO hit_cubes_daily (workspace_id, cube, day, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8, hits, visitors)
SELECT workspace_id, cube, (hour AT TIME ZONE 'UTC')::date, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8, sum(hits), hll_union_agg(visitors)
FROM target_hours
GROUP BY workspace_id, cube, (hour AT TIME ZONE 'UTC')::date, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8;

DROP TABLE target_hours;
DROP TABLE cutoff;

-- The experiment view (`GET /v1/links/{id}/experiment`) counts each visitor's clicks of a link's variants in the raw
-- hits: an index of the hits with a variant only, so that other hits cost it nothing.
CREATE INDEX hits_link_variant ON hits (link_id, variant) WHERE variant IS NOT NULL;
