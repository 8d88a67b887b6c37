-- Hostname suffixes a workspace may register link domains under, set by operators with
-- `linkd workspaces allow-suffix`. A workspace with no rows may register any hostname; one with rows
-- only hostnames equal to or under one of them (docs/WORKSPACES.md). Suffixes are stored normalised
-- (lower-case, punycode, no wildcard, no trailing dot), as `Hostname` writes them.
CREATE TABLE workspace_host_suffixes (
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    suffix        text NOT NULL CHECK (length(suffix) BETWEEN 3 AND 253 AND suffix NOT LIKE '*%'),
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, suffix)
);

-- Registration refuses a wildcard that would govern another workspace's names: those ending in
-- `.<its root>`, found by prefix in the reversed hostnames (`text_pattern_ops`: LIKE 'prefix%' whatever
-- the database's collation). Hostnames hold no '%' or '_' (letters, digits, '-', '.', a leading '*').
CREATE INDEX domains_reversed_hostname ON domains (reverse(hostname) text_pattern_ops);
