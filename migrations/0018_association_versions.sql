-- Every change of a domain's served association files, numbered per domain (docs/HEALTH.md, "Versions and
-- diffs"): the bytes of both files with their ETags, when, the audit entry of the write that caused it (NULL
-- when found at start: a change the writing node did not record), and what decides the URLs under it (the
-- domain's settings, its rules with their apps, in order, and its link space), from which the diff recompiles
-- the version's matchers.
CREATE TABLE association_versions (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    domain_id        uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    n                int NOT NULL CHECK (n > 0),
    aasa             bytea NOT NULL,
    aasa_etag        text NOT NULL,
    assetlinks       bytea NOT NULL,
    assetlinks_etag  text NOT NULL,
    audit_id         bigint REFERENCES audit_log (id) ON DELETE SET NULL,
    snapshot         json NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT association_versions_number UNIQUE (domain_id, n)
);
