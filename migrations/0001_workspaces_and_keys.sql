-- Tenancy and access: every object belongs to a workspace; API keys are stored as SHA-256 hashes only.
CREATE TABLE workspaces (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name          text NOT NULL DEFAULT '' CHECK (length(name) <= 200),
    -- The first characters of the secret, shown in listings so people can tell keys apart.
    prefix        text NOT NULL,
    -- SHA-256 of the whole secret; the secret itself is shown once at creation and never stored.
    secret_hash   bytea NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
    scope         text NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    revoked_at    timestamptz
);

CREATE INDEX api_keys_workspace ON api_keys (workspace_id, created_at, id);
