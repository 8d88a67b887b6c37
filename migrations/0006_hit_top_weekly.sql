-- Top lists over long ranges: whole weeks (Monday to Sunday, UTC) of top-value counts, so that a 30-day
-- top list reads about four rows per value for the middle of the range instead of thirty (a 30-day top of
-- every path aggregated ~300,000 daily and hourly rows: 480 ms). The writer compacts a week's hourly rows into
-- it an hour after the week ends (hit_top_weeks records which weeks are compacted), as it does for days;
-- hits arriving later for a compacted week update the hourly, daily (if that day is compacted) and weekly rows.
CREATE TABLE hit_top_weekly (
    workspace_id      uuid NOT NULL,
    dimension         text NOT NULL CHECK (dimension IN ('path', 'referrer')),
    -- The Monday the week starts on.
    week              date NOT NULL,
    hostname          text NOT NULL,
    value             text NOT NULL,
    outcome           text NOT NULL,
    human_resolve     bigint NOT NULL DEFAULT 0,
    human_click       bigint NOT NULL DEFAULT 0,
    bot_resolve       bigint NOT NULL DEFAULT 0,
    bot_click         bigint NOT NULL DEFAULT 0,
    CONSTRAINT hit_top_weekly_key UNIQUE (workspace_id, dimension, week, hostname, value, outcome)
) WITH (fillfactor = 90);

CREATE TABLE hit_top_weeks (
    week  date PRIMARY KEY
);
