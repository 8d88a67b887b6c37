-- Webhook delivery fair between workspaces and subscriptions, bulk writes told in one event, and subscriptions
-- deleted without waiting on their backlog (docs/WEBHOOKS.md, "Delivery" and "Deleting a subscription").

-- Each subscription is one queue: `due_at` is when its oldest undelivered event (its head) is next due (the end
-- of the lease while it is being sent), NULL when nothing is queued. The claim picks a subscription by it (and by
-- `claimed_at`, its last claim, for the round-robin), then takes that subscription's head: a backlog is as many
-- rows here as it has subscriptions, however many events it holds.
-- `bulk_events`: what a bulk request or import tells a `link.created` subscriber: one `links.bulk_created` summary
-- (`summary`, the default of new subscriptions) or one `link.created` per link (`each`, which the subscriptions made
-- before this migration keep: it is what they received until now).
ALTER TABLE webhooks
    ADD COLUMN due_at timestamptz,
    ADD COLUMN claimed_at timestamptz,
    ADD COLUMN bulk_events text NOT NULL DEFAULT 'each' CHECK (bulk_events IN ('summary', 'each'));
ALTER TABLE webhooks ALTER COLUMN bulk_events SET DEFAULT 'summary';
UPDATE webhooks w SET due_at = (SELECT o.next_attempt_at FROM webhook_outbox o
                                WHERE o.webhook_id = w.id AND o.delivered_at IS NULL ORDER BY o.id LIMIT 1);
CREATE INDEX webhooks_due ON webhooks (due_at) WHERE due_at IS NOT NULL AND NOT paused AND disabled_at IS NULL;

-- The claim finds heads by subscription (`webhook_outbox_pending`); the global order is no longer asked.
DROP INDEX webhook_outbox_due;

-- Deleting a subscription no longer deletes its outbox rows in the same statement (a backlog of a million rows
-- held the delete for seconds): the row goes at once, and `webhook_cleanups` names it until a background service
-- has deleted its outbox rows in bounded batches. The trigger covers every way a subscription goes (its
-- DELETE, its workspace's).
ALTER TABLE webhook_outbox DROP CONSTRAINT webhook_outbox_webhook_id_fkey;
CREATE TABLE webhook_cleanups (
    webhook_id  uuid PRIMARY KEY,
    deleted_at  timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION webhooks_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO webhook_cleanups (webhook_id) SELECT id FROM gone ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER webhooks_deleted AFTER DELETE ON webhooks
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION webhooks_deleted();
