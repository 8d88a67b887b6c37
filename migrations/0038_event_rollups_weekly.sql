-- Funnels over long ranges (issue 52, item 3; docs/EVENTS.md, "Funnels"): the events' rollups per ISO week (Monday to
-- Sunday, UTC) beside the daily ones, so that a funnel over many weeks reads one row a week of each group, and the
-- daily rows only for the days at its ends that make no whole week.

-- No event is inserted while the trigger changes and the weekly rows are made from the daily ones (an insert in
-- flight is waited for): the weekly rows then count exactly what the daily rows count.
LOCK TABLE events IN SHARE MODE;

-- The rows of `event_rollups_daily` summed per week: `week` is the week's Monday; the other columns mean what they
-- mean there (`cube` is the same GROUPING bitmask).
CREATE TABLE event_rollups_weekly (
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    cube         int2 NOT NULL,
    week         date NOT NULL CHECK (extract(isodow FROM week) = 1),
    link_id      uuid,
    utm_campaign text,
    country      text,
    os           text,
    target       text,
    variant      text,
    name         text NOT NULL,
    currency     text,
    events       int8 NOT NULL,
    value        int8 NOT NULL,
    UNIQUE NULLS NOT DISTINCT (workspace_id, cube, week, link_id, utm_campaign, country, os, target, variant, name, currency)
);
-- One link's weeks (a link's funnel over a long range) without reading every link's.
CREATE INDEX event_rollups_weekly_link ON event_rollups_weekly (workspace_id, cube, link_id, week) WHERE link_id IS NOT NULL;

-- As migrations/0034's, and the same counts summed per week into the weekly rows: the inserted rows are aggregated
-- once (per day), then upserted in key order into each table, the weekly rows first (the statement's main part runs
-- before the daily rows' part, which it does not read), so concurrent inserts lock rollup rows in one order.
CREATE OR REPLACE FUNCTION event_rollups_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    WITH daily AS MATERIALIZED (
        SELECT workspace_id, GROUPING(link_id, utm_campaign, country, os, target, variant) AS cube, day,
               link_id, utm_campaign, country, os, target, variant, name, currency,
               count(*) AS events, coalesce(sum(value_minor), 0) AS value
        FROM (SELECT *, (occurred_at AT TIME ZONE 'UTC')::date AS day FROM inserted) e
        GROUP BY workspace_id, day, name, currency,
            GROUPING SETS ((), (link_id), (utm_campaign), (country), (os), (link_id, utm_campaign),
                           (link_id, target, variant), (link_id, utm_campaign, country, os, target, variant))
    ), added AS (
        INSERT INTO event_rollups_daily AS r
            (workspace_id, cube, day, link_id, utm_campaign, country, os, target, variant, name, currency, events, value)
        SELECT workspace_id, cube, day, link_id, utm_campaign, country, os, target, variant, name, currency, events, value
        FROM daily
        ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
        ON CONFLICT (workspace_id, cube, day, link_id, utm_campaign, country, os, target, variant, name, currency)
        DO UPDATE SET events = r.events + excluded.events, value = r.value + excluded.value
    )
    INSERT INTO event_rollups_weekly AS r
        (workspace_id, cube, week, link_id, utm_campaign, country, os, target, variant, name, currency, events, value)
    SELECT workspace_id, cube, date_trunc('week', day)::date, link_id, utm_campaign, country, os, target, variant, name, currency,
           sum(events)::int8, sum(value)::int8
    FROM daily
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
    ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
    ON CONFLICT (workspace_id, cube, week, link_id, utm_campaign, country, os, target, variant, name, currency)
    DO UPDATE SET events = r.events + excluded.events, value = r.value + excluded.value;
    RETURN NULL;
END $$;

-- The weeks of the daily rows kept so far (which still count deleted events, as the weekly rows will).
INSERT INTO event_rollups_weekly (workspace_id, cube, week, link_id, utm_campaign, country, os, target, variant, name, currency, events, value)
SELECT workspace_id, cube, date_trunc('week', day)::date, link_id, utm_campaign, country, os, target, variant, name, currency,
       sum(events)::int8, sum(value)::int8
FROM event_rollups_daily
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11;
