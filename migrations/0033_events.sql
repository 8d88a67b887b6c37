-- Conversions (issue 52, docs/EVENTS.md): installs, opens, reopens and named events an app or a server reports,
-- each stored once with the link, campaign, target and variant it is attributed to (last click), or none and why.
--
-- One plain table, not daily partitions as hits: the idempotency key is unique per workspace whatever the time an
-- event says, and a unique constraint of a partitioned table must include the partition key. Time ranges read
-- through (workspace_id, occurred_at).
CREATE TABLE events (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id     uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    app_id           uuid REFERENCES apps (id) ON DELETE SET NULL,
    kind             text NOT NULL CHECK (kind IN ('install', 'open', 'reopen', 'named')),
    name             text NOT NULL CHECK (name ~ '^[a-z][a-z0-9_.]{0,63}$'),
    occurred_at      timestamptz NOT NULL,
    received_at      timestamptz NOT NULL DEFAULT now(),
    value_minor      int8,
    currency         text CHECK (currency ~ '^[A-Z]{3}$'),
    idempotency_key  text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 200),
    visitor_id       text CHECK (length(visitor_id) BETWEEN 1 AND 200),
    -- The click token as sent, kept as its SHA-256 only (a token is a credential, as in click_tokens).
    click_token_hash text CHECK (length(click_token_hash) = 64),
    url              text CHECK (length(url) <= 2000),
    -- The attribution: the stored link (no foreign key, as hits: a deleted link's events keep their id), its campaign,
    -- target and variant; `attribution` says through what, or `none` with `unattributed_reason`.
    link_id          uuid,
    utm_source       text CHECK (length(utm_source) <= 200),
    utm_medium       text CHECK (length(utm_medium) <= 200),
    utm_campaign     text CHECK (length(utm_campaign) <= 200),
    utm_term         text CHECK (length(utm_term) <= 200),
    utm_content      text CHECK (length(utm_content) <= 200),
    target           text CHECK (length(target) <= 200),
    variant          text CHECK (length(variant) <= 200),
    attribution      text NOT NULL CHECK (attribution IN ('click_token', 'link_url', 'visitor', 'none')),
    unattributed_reason text CHECK (length(unattributed_reason) <= 64),
    CHECK ((value_minor IS NULL) = (currency IS NULL)),
    CHECK ((attribution = 'none') = (unattributed_reason IS NOT NULL)),
    UNIQUE (workspace_id, idempotency_key)
);
-- Time ranges of a workspace (funnels, exports).
CREATE INDEX events_time ON events (workspace_id, occurred_at, id);
-- A named event's attribution: the visitor's last click (an event attributed through a token or a URL) before it.
CREATE INDEX events_visitor ON events (workspace_id, visitor_id, occurred_at DESC)
    WHERE visitor_id IS NOT NULL AND attribution IN ('click_token', 'link_url');

-- How long after an attributed event a visitor's named events are attributed to its link (docs/EVENTS.md).
ALTER TABLE workspaces ADD COLUMN event_window_days int NOT NULL DEFAULT 7 CHECK (event_window_days BETWEEN 1 AND 90);

-- Publishable app keys (docs/EVENTS.md, "Who may send"): one per app, safe to ship inside it. It sends events for
-- its app and nothing else; only its SHA-256 is stored. Replacing it makes the old one stop working.
CREATE TABLE app_event_keys (
    app_id       uuid PRIMARY KEY REFERENCES apps (id) ON DELETE CASCADE,
    workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    key_hash     text NOT NULL UNIQUE CHECK (length(key_hash) = 64),
    prefix       text NOT NULL CHECK (length(prefix) <= 16),
    created_at   timestamptz NOT NULL DEFAULT now()
);
