-- Analytics a marketer reads (issue 32): country, OS, browser and device class in the hourly rollups, and the
-- unique visitors of every rollup row as a HyperLogLog sketch (the `hll` extension: Debian's
-- postgresql-15-hll; docs/DEPLOYMENT.md), so uniques combine with every filter and grouping.
--
-- A sketch holds the visitor hashes of its row's hour exactly up to about a hundred distinct ones (the "explicit"
-- representation), then estimates within about 2% (log2m 11). Uniques over a day are the cardinality of the
-- union of its hours' sketches; over a range, the sum over its UTC days (the visitor hash's salt rotates daily:
-- a visitor is recognised within a UTC day only). Rows written before this migration have an empty sketch.
CREATE EXTENSION IF NOT EXISTS hll;

ALTER TABLE hit_rollups_hourly
    ADD COLUMN country  text,
    ADD COLUMN os       text,
    ADD COLUMN browser  text,
    ADD COLUMN device   text,
    ADD COLUMN visitors hll NOT NULL DEFAULT hll_empty();
ALTER TABLE hit_rollups_hourly DROP CONSTRAINT hit_rollups_hourly_key;
ALTER TABLE hit_rollups_hourly ADD CONSTRAINT hit_rollups_hourly_key UNIQUE NULLS NOT DISTINCT
    (workspace_id, hour, hostname, app_id, rule_id, destination_type, outcome, platform, source, is_bot, served,
     link_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, os, browser, device);

-- The exact per-day visitor sets are replaced by the sketches: they held every visitor hash of the last days.
DROP TABLE hit_visitors_daily;
DROP TABLE hit_visitor_counts;
