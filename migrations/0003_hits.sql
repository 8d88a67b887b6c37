-- Link hits: every resolve and click, written in batches with COPY by the hit writer (HitBatcher).
--
-- `hits` holds the raw rows, partitioned by UTC day. The writer creates the partitions ahead of time
-- (today + 7 days, at start and hourly, and for any day a batch needs) and drops whole partitions older
-- than the retention setting. There is no default partition on purpose: a partition cannot be created
-- for a range that a default partition already holds rows of.
--
-- The analytics API never scans `hits`: it reads the rollups below, which the writer upserts in the same
-- transaction as the COPY of the batch they summarise (so a committed hit is always counted, and a
-- rolled-back batch never is).

-- Ingest order: one value per row in the order the writer copied them (spool replay included).
-- No CACHE: cached values would interleave between the pool's connections.
CREATE SEQUENCE hits_id_seq AS bigint;

CREATE TABLE hits (
    id                bigint NOT NULL DEFAULT nextval('hits_id_seq'),
    time              timestamptz NOT NULL,
    -- NULL when no workspace can be named; such hits are kept but never reach a rollup.
    workspace_id      uuid,
    hostname          text NOT NULL,
    path              text NOT NULL,
    query             text,
    -- open_app | excluded | no_match | unknown_domain | invalid_param (not CHECKed: COPY speed, one writer)
    outcome           text NOT NULL,
    app_id            uuid,
    rule_id           uuid,
    destination_type  text,
    -- resolve | click
    source            text NOT NULL,
    -- ios | android | desktop | other
    platform          text NOT NULL,
    is_bot            boolean NOT NULL,
    referrer_host     text,
    -- Salted SHA-256 of IP + user agent (salt rotating daily); the IP itself is never stored.
    visitor_hash      text
) PARTITION BY RANGE (time);

ALTER SEQUENCE hits_id_seq OWNED BY hits.id;

-- Counts per hour and per combination of every dimension the time series can filter or group by.
-- NULLS NOT DISTINCT: a hit without app/rule/destination still has exactly one row to add to.
CREATE TABLE hit_rollups_hourly (
    workspace_id      uuid NOT NULL,
    hour              timestamptz NOT NULL,
    hostname          text NOT NULL,
    app_id            uuid,
    rule_id           uuid,
    destination_type  text,
    outcome           text NOT NULL,
    platform          text NOT NULL,
    source            text NOT NULL,
    is_bot            boolean NOT NULL,
    hits              bigint NOT NULL,
    CONSTRAINT hit_rollups_hourly_key UNIQUE NULLS NOT DISTINCT
        (workspace_id, hour, hostname, app_id, rule_id, destination_type, outcome, platform, source, is_bot)
) WITH (fillfactor = 70);

-- Top lists that need a value the main rollup does not keep: `path` (e.g. the top no_match paths,
-- the broken links to fix) and `referrer` (referrer host; hits without one are not counted here).
CREATE TABLE hit_top_hourly (
    workspace_id      uuid NOT NULL,
    dimension         text NOT NULL CHECK (dimension IN ('path', 'referrer')),
    hour              timestamptz NOT NULL,
    hostname          text NOT NULL,
    value             text NOT NULL,
    outcome           text NOT NULL,
    -- Source and bot flag as columns, not key parts: a quarter of the rows to upsert and to scan.
    human_resolve     bigint NOT NULL DEFAULT 0,
    human_click       bigint NOT NULL DEFAULT 0,
    bot_resolve       bigint NOT NULL DEFAULT 0,
    bot_click         bigint NOT NULL DEFAULT 0,
    CONSTRAINT hit_top_hourly_key UNIQUE (workspace_id, dimension, hour, hostname, value, outcome)
) WITH (fillfactor = 70);

-- The same per UTC day, for days that are over: a long range reads whole compacted days here and only
-- the rest from the hourly table (paths have a high cardinality; 30 days of hourly rows would be millions).
-- The writer compacts a day's hourly rows into it an hour after the day ends (hit_top_days records which
-- days are compacted); hits arriving later for a compacted day update both tables.
CREATE TABLE hit_top_daily (
    workspace_id      uuid NOT NULL,
    dimension         text NOT NULL CHECK (dimension IN ('path', 'referrer')),
    day               date NOT NULL,
    hostname          text NOT NULL,
    value             text NOT NULL,
    outcome           text NOT NULL,
    human_resolve     bigint NOT NULL DEFAULT 0,
    human_click       bigint NOT NULL DEFAULT 0,
    bot_resolve       bigint NOT NULL DEFAULT 0,
    bot_click         bigint NOT NULL DEFAULT 0,
    CONSTRAINT hit_top_daily_key UNIQUE (workspace_id, dimension, day, hostname, value, outcome)
) WITH (fillfactor = 70);

CREATE TABLE hit_top_days (
    day   date PRIMARY KEY
);

-- Unique visitors: the exact set of visitor hashes per workspace and UTC day. The salt rotates daily, so a
-- hash only identifies a visitor within one day: uniques over a range are the sum of daily uniques.
CREATE TABLE hit_visitors_daily (
    workspace_id      uuid NOT NULL,
    day               date NOT NULL,
    is_bot            boolean NOT NULL,
    visitor_hash      text NOT NULL,
    PRIMARY KEY (workspace_id, day, is_bot, visitor_hash)
);

-- The size of each of those sets, kept by the writer as it inserts new hashes: the summary sums a few
-- rows instead of counting millions.
CREATE TABLE hit_visitor_counts (
    workspace_id      uuid NOT NULL,
    day               date NOT NULL,
    is_bot            boolean NOT NULL,
    visitors          bigint NOT NULL,
    PRIMARY KEY (workspace_id, day, is_bot)
);

-- The daily visitor-hash salts, shared by every node through the database. Random (not derived from a
-- secret), and deleted two days after their day: once gone, old hashes cannot be linked to an IP again.
CREATE TABLE hit_visitor_salts (
    day   date PRIMARY KEY,
    salt  text NOT NULL
);
