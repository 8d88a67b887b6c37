-- Clicks that open the app (docs/LANDING.md): the landing page, preview metadata, deferred deep links and
-- what each click got.

-- Domains registered before the landing page keep answering clicks with redirects; new ones default to the
-- landing page (`clickBehavior` absent from the stored settings reads as "landing").
UPDATE domains SET settings = settings || '{"clickBehavior": "redirect"}'::jsonb
WHERE NOT settings ? 'clickBehavior';

-- Preview metadata of a destination type (og: and twitter: tags of the landing and preview pages).
ALTER TABLE destinations
    ADD COLUMN description text CHECK (length(description) <= 1000),
    ADD COLUMN image_url   text CHECK (length(image_url) <= 2048 AND lower(image_url) LIKE 'https://%');

-- What a click got: landing | redirect | preview | claim; NULL for resolve requests. (Not CHECKed on `hits`:
-- COPY speed, one writer.)
ALTER TABLE hits ADD COLUMN served text;
ALTER TABLE hit_rollups_hourly ADD COLUMN served text;
ALTER TABLE hit_rollups_hourly DROP CONSTRAINT hit_rollups_hourly_key;
ALTER TABLE hit_rollups_hourly ADD CONSTRAINT hit_rollups_hourly_key UNIQUE NULLS NOT DISTINCT
    (workspace_id, hour, hostname, app_id, rule_id, destination_type, outcome, platform, source, is_bot, served);

-- Deferred deep links: one row per landing page shown to a mobile browser. Only the SHA-256 of the token
-- (128 random bits) is stored, as for API keys; the row holds the link, its resolve answer (the JSON the
-- claim returns) and nothing about the visitor: no IP address, no user agent, no fingerprint.
CREATE TABLE click_tokens (
    token_hash    text PRIMARY KEY,
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    domain_id     uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    url           text NOT NULL,
    platform      text NOT NULL,
    answer        json NOT NULL,
    created_at    timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL,
    claimed_at    timestamptz
);
-- The expiry job deletes by this.
CREATE INDEX click_tokens_expiry ON click_tokens (expires_at);
