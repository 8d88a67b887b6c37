-- Webhook subscriptions and their outbox (docs/WEBHOOKS.md). A subscription belongs to a workspace and names
-- the event types it receives. Its signing secret (the 24 to 64 random bytes behind `whsec_`) is kept so that
-- deliveries can be signed, sealed with a key from configuration (`secret_sealed`: nonce, ciphertext and tag;
-- `secret_key_id` names the key, so that keys can be rotated); it is answered once, at creation.
CREATE TABLE webhooks (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id      uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    url               text NOT NULL CHECK (length(url) <= 2048),
    events            text[] NOT NULL CHECK (cardinality(events) BETWEEN 1 AND 32),
    description       text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
    secret_sealed     bytea NOT NULL,
    secret_key_id     text NOT NULL CHECK (length(secret_key_id) <= 64),
    -- Paused by the workspace (events still queue, nothing is sent); disabled by linkd after
    -- `failure_run` consecutive failed deliveries reached the configured limit (events are no longer queued).
    paused            boolean NOT NULL DEFAULT false,
    disabled_at       timestamptz,
    failure_run       integer NOT NULL DEFAULT 0 CHECK (failure_run >= 0),
    version           integer NOT NULL DEFAULT 1,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);
-- Lists a workspace's subscriptions, and finds those an event of the workspace is queued for (a few a workspace).
CREATE INDEX webhooks_list ON webhooks (workspace_id, created_at, id);

-- One row per event and subscription, inserted in the same transaction as the change that causes the event, so a
-- committed change always has its rows and a rolled-back one never does. `id` orders a subscription's events.
-- `event_id` is the Standard Webhooks `webhook-id` (the same for every subscription an event goes to, and across
-- retries, so that receivers can drop duplicates). The payload is stored as `json`: the bytes signed and sent.
CREATE TABLE webhook_outbox (
    id               bigserial PRIMARY KEY,
    webhook_id       uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id         text NOT NULL CHECK (length(event_id) <= 64),
    event_type       text NOT NULL CHECK (length(event_type) <= 64),
    payload          json NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    delivered_at     timestamptz,
    last_status      integer,
    last_error       text CHECK (length(last_error) <= 500),
    UNIQUE (webhook_id, event_id)
);
-- The delivery query: undelivered rows that are due, oldest first, claimed with `FOR UPDATE SKIP LOCKED`.
-- Partial, so delivered rows (kept for the delivery log until retention removes them) cost it nothing.
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at, id) WHERE delivered_at IS NULL;
-- In order per subscription: a delivery waits for the subscription's oldest undelivered event.
CREATE INDEX webhook_outbox_pending ON webhook_outbox (webhook_id, id) WHERE delivered_at IS NULL;
-- The delivery log (`GET /v1/webhooks/{id}/deliveries`, newest first) and retention (by `created_at`).
CREATE INDEX webhook_outbox_log ON webhook_outbox (webhook_id, created_at DESC, id DESC);
