-- :events events of one workspace over the 90 days before :'now', in chunks of a million rows (one INSERT each, so
-- the rollup trigger runs once per million rows, as it would for large COPY batches). Deterministic: event i is
-- drawn from i alone. The table's indexes are built after the load (faster than row by row), the same ones.
ALTER TABLE events DROP CONSTRAINT events_pkey, DROP CONSTRAINT events_workspace_id_idempotency_key_key;
DROP INDEX events_time;
INSERT INTO workspaces (id, name) VALUES ('00000000-0000-0000-0000-0000000000e1', 'events bench') ON CONFLICT DO NOTHING;
SELECT format(
    $f$INSERT INTO events (workspace_id, kind, name, occurred_at, value_minor, currency, idempotency_key, link_id,
                          utm_source, utm_campaign, country, os, target, variant, attribution, unattributed_reason)
       SELECT '00000000-0000-0000-0000-0000000000e1', kind, name, %L::timestamptz - make_interval(secs => (i * 7877) %% 7776000),
              CASE WHEN name = 'purchase' THEN 100 + (i * 31) %% 9900 END,
              CASE WHEN name = 'purchase' THEN (ARRAY['EUR', 'USD', 'GBP'])[1 + i %% 3] END,
              'k' || i,
              CASE WHEN attributed THEN md5('link' || link)::uuid END,
              CASE WHEN attributed THEN 'newsletter' END,
              CASE WHEN attributed THEN 'campaign-' || link %% 25 END,
              (ARRAY['US', 'DE', 'FR', 'GB', 'JP', 'BR', 'IN', 'ES', 'IT', 'CA', 'NL', NULL])[1 + (i / 7) %% 12],
              (ARRAY['iOS', 'Android', 'Android', 'iOS', NULL])[1 + (i / 3) %% 5],
              NULL, CASE WHEN attributed AND link < 40 THEN (ARRAY['A', 'B'])[1 + (i / 11) %% 2] END,
              CASE WHEN NOT attributed THEN 'none' WHEN kind = 'install' THEN 'click_token' WHEN kind = 'open' THEN 'link_url' ELSE 'visitor' END,
              CASE WHEN NOT attributed THEN 'no_visitor' END
       FROM (SELECT i, (i * 104729) %% 500 AS link, i %% 10 <> 0 AS attributed,
                    (ARRAY['install', 'install', 'install', 'open', 'open', 'open', 'open', 'reopen', 'reopen', 'signup', 'signup', 'purchase'])[1 + (i * 13) %% 12] AS name
             FROM generate_series(%s::int8, %s::int8) i) g,
            LATERAL (SELECT CASE WHEN name IN ('install', 'open', 'reopen') THEN name ELSE 'named' END AS kind) k$f$,
    :'now', chunk * 1000000 + 1, least((chunk + 1) * 1000000, :events))
FROM generate_series(0, (:events - 1) / 1000000) chunk
\gexec
ALTER TABLE events ADD PRIMARY KEY (id), ADD UNIQUE (workspace_id, idempotency_key);
CREATE INDEX events_time ON events (workspace_id, occurred_at, id);
ANALYZE events;
ANALYZE event_rollups_daily;
ANALYZE event_rollups_weekly;
