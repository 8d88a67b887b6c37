-- Campaigns and links on every tap (issue 29): the stored link a hit was on, and the five `utm_*` campaign
-- fields (the URL's query items, then the link's own campaign for the fields the query does not carry).
-- Values are at most 200 bytes (the writer cuts them: `Hit.Campaign`), so the rollups' key stays within an
-- index row. Not CHECKed on `hits` (COPY speed, one writer); no foreign key to `links`: a deleted link's hits
-- stay counted.
ALTER TABLE hits
    ADD COLUMN link_id      uuid,
    ADD COLUMN utm_source   text,
    ADD COLUMN utm_medium   text,
    ADD COLUMN utm_campaign text,
    ADD COLUMN utm_term     text,
    ADD COLUMN utm_content  text;

-- The hourly rollups count per link and campaign too, so every analytics filter and grouping combines with
-- them. Hits without either (NULLs, not distinct) add to the rows they added to before. The writer bounds the
-- campaigns each workspace's hour keeps (`HitsConfiguration.campaignsPerHour`; beyond it, values are counted
-- as `(other)`), so URLs carrying random `utm_*` values cannot grow this table a row per hit.
ALTER TABLE hit_rollups_hourly
    ADD COLUMN link_id      uuid,
    ADD COLUMN utm_source   text,
    ADD COLUMN utm_medium   text,
    ADD COLUMN utm_campaign text,
    ADD COLUMN utm_term     text,
    ADD COLUMN utm_content  text;
ALTER TABLE hit_rollups_hourly DROP CONSTRAINT hit_rollups_hourly_key;
ALTER TABLE hit_rollups_hourly ADD CONSTRAINT hit_rollups_hourly_key UNIQUE NULLS NOT DISTINCT
    (workspace_id, hour, hostname, app_id, rule_id, destination_type, outcome, platform, source, is_bot, served,
     link_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content);
