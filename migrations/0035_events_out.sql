-- Events going out (issue 52 item 5, docs/EVENTS.md "Out"): `conversion.recorded` webhooks read from the table,
-- the export, retention and erasure by visitor.
--
-- The feed reads newly stored events by a cursor rather than from the insert path. A sequence alone cannot be such a
-- cursor: numbers are taken when rows are inserted and become visible when their transactions commit, in another
-- order, so a reader past number 10 would never see a 9 committed after it. Each row therefore also keeps the
-- transaction that wrote it (`tx`), and the feed reads in (tx, seq) order only rows whose transaction is older than
-- every transaction still running (`pg_snapshot_xmin`): those are all committed or gone, and no row can appear
-- before the cursor afterwards.
ALTER TABLE events
    ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY,
    ADD COLUMN tx xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX events_feed ON events (tx, seq);
-- Erasure and the export's visitor filter: every event of a visitor, attributed or not.
CREATE INDEX events_visitor_all ON events (workspace_id, visitor_id) WHERE visitor_id IS NOT NULL;

-- Where each reader of the feed stands: the last (tx, seq) it has passed, updated in the transaction that queued what
-- it read (the outbox rows), so each event is told once across restarts. One row a reader, `conversion.recorded`
-- now; events stored before this migration (all written by its transaction, as the column's default says) are
-- behind it.
CREATE TABLE event_feed_cursors (
    reader     text PRIMARY KEY CHECK (length(reader) <= 64),
    tx         xid8 NOT NULL,
    seq        bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO event_feed_cursors (reader, tx, seq)
SELECT 'conversion.recorded', pg_current_xact_id(), coalesce((SELECT max(seq) FROM events), 0);
