-- Analytics at a hundred million taps (issue 32): the one hourly rollup keyed by every dimension had about as many
-- rows as hits once countries, agents, links and campaigns varied, so a month's answer read a month of hits. It is
-- replaced by narrow rollups, "cubes" (`AnalyticsCube`, docs/HITS.md "Storage"): each counts the hits and unique
-- visitors of every combination of a few dimensions, besides source and bot flag, per hour and, once a UTC day is
-- over, per day. A read takes the smallest cube keeping what it filters and groups by; whole compacted days come
-- from the daily rows, the rest of its range from the hourly ones.
--
-- The audience cubes (6 and 7: a campaign's or a link's visitors by country, OS and device) have daily rows
-- only: per hour, links × countries × devices leave about one row per hit.
--
-- One pair of tables for every cube: `cube` names the cube and `d1`…`d8` hold its dimensions as text, in the order
-- `AnalyticsCube.all` lists them (unused slots NULL). Visitor sketches as before (migration 0022).
--
-- The hit writer keeps upserting each batch into the rollup keyed by every dimension, renamed
-- `hit_rollups_pending`: every few seconds `HitCubeFold` moves its rows into the cubes (one transaction: a read sees
-- a hit in one place or the other), so the table holds only the last seconds of hits and the cubes are written
-- once per key and fold instead of once per key and batch. Reads add its rows to the cube's.
CREATE TABLE hit_cubes_hourly (
    workspace_id  uuid NOT NULL,
    cube          smallint NOT NULL,
    hour          timestamptz NOT NULL,
    source        text NOT NULL,
    is_bot        boolean NOT NULL,
    d1 text, d2 text, d3 text, d4 text, d5 text, d6 text, d7 text, d8 text,
    hits          bigint NOT NULL,
    visitors      hll NOT NULL,
    CONSTRAINT hit_cubes_hourly_key UNIQUE NULLS NOT DISTINCT (workspace_id, cube, hour, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8)
) WITH (fillfactor = 70);

-- Whole UTC days, summed from the hourly rows by the compaction that fills `hit_top_daily` (the `hit_top_days`
-- ledger records both); late hits of a compacted day are added to both tables by their batch.
CREATE TABLE hit_cubes_daily (
    workspace_id  uuid NOT NULL,
    cube          smallint NOT NULL,
    day           date NOT NULL,
    source        text NOT NULL,
    is_bot        boolean NOT NULL,
    d1 text, d2 text, d3 text, d4 text, d5 text, d6 text, d7 text, d8 text,
    hits          bigint NOT NULL,
    visitors      hll NOT NULL,
    CONSTRAINT hit_cubes_daily_key UNIQUE NULLS NOT DISTINCT (workspace_id, cube, day, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8)
) WITH (fillfactor = 90);
-- A cube's first dimension as the lead: one link's (or country's) days without reading every link's.
CREATE INDEX hit_cubes_daily_lead ON hit_cubes_daily (workspace_id, cube, d1, day);

-- The counts kept so far, regrouped into the cubes (exactly: hits add up and sketches union), hourly first.
CREATE TEMPORARY TABLE regrouped ON COMMIT DROP AS
SELECT r.workspace_id, c.cube, r.hour, r.source, r.is_bot, c.d1, c.d2, c.d3, c.d4, c.d5, c.d6, c.d7, c.d8, sum(r.hits) AS hits,
       hll_union_agg(r.visitors) AS visitors
FROM hit_rollups_hourly r CROSS JOIN LATERAL (VALUES
        (1::int2, r.hostname, r.app_id::text, r.rule_id::text, r.destination_type, r.outcome, r.platform, r.served, r.device),
        (2::int2, r.country, r.os, r.browser, r.device, r.platform, NULL::text, NULL::text, NULL::text),
        (3::int2, r.utm_source, r.utm_medium, r.utm_campaign, r.utm_term, r.utm_content, NULL::text, NULL::text, NULL::text),
        (4::int2, r.link_id::text, r.hostname, r.utm_source, r.utm_medium, r.utm_campaign, r.utm_term, r.utm_content, NULL::text),
        (5::int2, r.utm_campaign, r.utm_source, r.utm_medium, r.app_id::text, r.destination_type, r.outcome, r.platform, r.served),
        (6::int2, r.country, r.os, r.device, r.utm_source, r.utm_medium, r.utm_campaign, NULL::text, NULL::text),
        (7::int2, r.link_id::text, r.hostname, r.country, r.os, r.device, r.platform, NULL::text, NULL::text)
    ) AS c(cube, d1, d2, d3, d4, d5, d6, d7, d8)
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13;

INSERT INTO hit_cubes_hourly (workspace_id, cube, hour, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8, hits, visitors)
SELECT * FROM regrouped WHERE cube NOT IN (6, 7);

-- Daily rows: the compacted days of the hourly cubes, every day of the audience cubes.
INSERT INTO hit_cubes_daily (workspace_id, cube, day, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8, hits, visitors)
SELECT workspace_id, cube, (hour AT TIME ZONE 'UTC')::date, source, is_bot, d1, d2, d3, d4, d5, d6, d7, d8, sum(hits), hll_union_agg(visitors)
FROM regrouped
WHERE cube IN (6, 7) OR (hour AT TIME ZONE 'UTC')::date IN (SELECT day FROM hit_top_days)
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13;

TRUNCATE hit_rollups_hourly;
ALTER TABLE hit_rollups_hourly RENAME TO hit_rollups_pending;
ALTER TABLE hit_rollups_pending RENAME CONSTRAINT hit_rollups_hourly_key TO hit_rollups_pending_key;
