-- Funnels (issue 52, item 3; docs/EVENTS.md, "Funnels"): the country and OS an event is counted under, and the
-- rollups funnels read instead of scanning `events`.
--
-- A click token keeps the country and the OS family (uap-core's) of the click that got it, so that the install
-- claiming it is counted under them; an event keeps those of the click it is attributed to.
ALTER TABLE click_tokens ADD COLUMN country text CHECK (country ~ '^[A-Z]{2}$'), ADD COLUMN os text CHECK (length(os) <= 100);
ALTER TABLE events ADD COLUMN country text CHECK (country ~ '^[A-Z]{2}$'), ADD COLUMN os text CHECK (length(os) <= 100);

-- Events per UTC day, workspace, name and currency (count and value), in narrow cubes as the hits' (docs/HITS.md):
-- `cube` is the GROUPING() bitmask of (link_id, utm_campaign, country, os, target, variant) in the statement below,
-- a bit set for each dimension the cube does not keep (that column is then NULL): 63 keeps none (the workspace's
-- totals), 31 the link, 47 the campaign, 55 the country, 59 the OS, 15 link and campaign, 28 link, target and
-- variant (the experiments), 0 all of them. A NULL in a kept column is an event without that value.
CREATE TABLE event_rollups_daily (
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    cube         int2 NOT NULL,
    day          date NOT NULL,
    link_id      uuid,
    utm_campaign text,
    country      text,
    os           text,
    target       text,
    variant      text,
    name         text NOT NULL,
    currency     text,
    events       int8 NOT NULL,
    -- The sum of the events' values, in minor units of `currency` (0 without one).
    value        int8 NOT NULL,
    UNIQUE NULLS NOT DISTINCT (workspace_id, cube, day, link_id, utm_campaign, country, os, target, variant, name, currency)
);
-- One link's days (a link's funnel, its experiments) without reading every link's.
CREATE INDEX event_rollups_daily_link ON event_rollups_daily (workspace_id, cube, link_id, day) WHERE link_id IS NOT NULL;

-- Adds the rows `inserted` holds to the rollups, however they were inserted (one row, a batch, a COPY): one
-- statement per inserting statement, its rows upserted in key order, so concurrent inserts lock rollup rows in one
-- order. Deleted events (retention, erasure) stay counted, as hits do in their rollups.
CREATE FUNCTION event_rollups_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO event_rollups_daily AS r
        (workspace_id, cube, day, link_id, utm_campaign, country, os, target, variant, name, currency, events, value)
    SELECT workspace_id, GROUPING(link_id, utm_campaign, country, os, target, variant), day,
           link_id, utm_campaign, country, os, target, variant, name, currency, count(*), coalesce(sum(value_minor), 0)
    FROM (SELECT *, (occurred_at AT TIME ZONE 'UTC')::date AS day FROM inserted) e
    GROUP BY workspace_id, day, name, currency,
        GROUPING SETS ((), (link_id), (utm_campaign), (country), (os), (link_id, utm_campaign),
                       (link_id, target, variant), (link_id, utm_campaign, country, os, target, variant))
    ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
    ON CONFLICT (workspace_id, cube, day, link_id, utm_campaign, country, os, target, variant, name, currency)
    DO UPDATE SET events = r.events + excluded.events, value = r.value + excluded.value;
    RETURN NULL;
END $$;

CREATE TRIGGER events_rollup AFTER INSERT ON events REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION event_rollups_add();

-- The events stored before this migration.
INSERT INTO event_rollups_daily (workspace_id, cube, day, link_id, utm_campaign, country, os, target, variant, name, currency, events, value)
SELECT workspace_id, GROUPING(link_id, utm_campaign, country, os, target, variant), day,
       link_id, utm_campaign, country, os, target, variant, name, currency, count(*), coalesce(sum(value_minor), 0)
FROM (SELECT *, (occurred_at AT TIME ZONE 'UTC')::date AS day FROM events) e
GROUP BY workspace_id, day, name, currency,
    GROUPING SETS ((), (link_id), (utm_campaign), (country), (os), (link_id, utm_campaign),
                   (link_id, target, variant), (link_id, utm_campaign, country, os, target, variant));
