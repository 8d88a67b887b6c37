-- People (docs/PEOPLE.md): accounts that sign in to the console and the API, their roles per workspace, their
-- server-side sessions, the one-time links that set or reset a password and accept an invitation, and each
-- workspace's single sign-on. API keys gain the role they act as and the person who created them; the audit
-- log names the person or key behind each change and where it came from.

CREATE TABLE people (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email          text NOT NULL CHECK (length(email) BETWEEN 3 AND 254 AND email = lower(email)),
    name           text NOT NULL DEFAULT '' CHECK (length(name) <= 200),
    -- Argon2id in its PHC string form ($argon2id$v=19$m=...,t=...,p=...$salt$hash); NULL until a password is set.
    password_hash  text CHECK (password_hash IS NULL OR password_hash LIKE '$argon2id$%'),
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX people_email ON people (email);

CREATE TABLE memberships (
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    person_id     uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    role          text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, person_id)
);
CREATE INDEX memberships_person ON memberships (person_id);

-- A session is a random token in a cookie; only its SHA-256 is stored, so a copy of this table signs nobody in.
CREATE TABLE sessions (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    person_id     uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    token_hash    bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    -- The workspace the person is working in (switched in the console); NULL when they belong to none.
    workspace_id  uuid REFERENCES workspaces (id) ON DELETE SET NULL,
    via           text NOT NULL CHECK (via IN ('password', 'sso')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now(),
    -- The absolute end; the idle end is last_seen_at plus the configured idle lifetime.
    expires_at    timestamptz NOT NULL,
    address       text NOT NULL DEFAULT '',
    user_agent    text NOT NULL DEFAULT '' CHECK (length(user_agent) <= 512),
    revoked_at    timestamptz
);
CREATE INDEX sessions_person ON sessions (person_id, created_at);

-- One-time links: set a first password, reset one. Only the SHA-256 of the token is stored; used once.
CREATE TABLE one_time_links (
    token_hash  bytea PRIMARY KEY CHECK (length(token_hash) = 32),
    person_id   uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    purpose     text NOT NULL CHECK (purpose IN ('set-password', 'reset-password')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX one_time_links_person ON one_time_links (person_id);

CREATE TABLE invitations (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email         text NOT NULL CHECK (length(email) BETWEEN 3 AND 254 AND email = lower(email)),
    role          text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
    token_hash    bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    invited_by    uuid REFERENCES people (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL,
    accepted_at   timestamptz,
    accepted_by   uuid REFERENCES people (id) ON DELETE SET NULL,
    revoked_at    timestamptz
);
CREATE INDEX invitations_workspace ON invitations (workspace_id, created_at, id);

-- Single sign-on with OpenID Connect, one provider per workspace.
CREATE TABLE workspace_sso (
    workspace_id          uuid PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    issuer                text NOT NULL,
    client_id             text NOT NULL,
    -- The client secret sealed as webhook secrets are (docs/WEBHOOKS.md), under the key named by its id.
    client_secret_sealed  bytea NOT NULL,
    client_secret_key_id  text NOT NULL,
    allowed_domains       text[] NOT NULL DEFAULT '{}',
    -- The role given to a person created at their first sign-in; NULL: nobody is created that way.
    default_role          text CHECK (default_role IN ('owner', 'admin', 'editor', 'viewer')),
    groups_claim          text,
    -- {"group name": "role"}: the highest role of the person's groups wins over default_role.
    group_roles           jsonb NOT NULL DEFAULT '{}',
    -- Members must sign in through the provider: password sign-in is refused for them.
    required              boolean NOT NULL DEFAULT false,
    updated_at            timestamptz NOT NULL DEFAULT now()
);

-- One sign-in through the provider, from the redirect to the callback: used once, short-lived.
CREATE TABLE sso_attempts (
    state_hash     bytea PRIMARY KEY CHECK (length(state_hash) = 32),
    workspace_id   uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    nonce          text NOT NULL UNIQUE,
    code_verifier  text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    expires_at     timestamptz NOT NULL,
    used_at        timestamptz
);

-- Keys act as a role (existing keys: read as viewer, write and admin as admin) and name who created them.
ALTER TABLE api_keys
    ADD COLUMN role text CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
    ADD COLUMN created_by uuid REFERENCES people (id) ON DELETE SET NULL;
UPDATE api_keys SET role = CASE scope WHEN 'read' THEN 'viewer' ELSE 'admin' END;
ALTER TABLE api_keys ALTER COLUMN role SET NOT NULL;

ALTER TABLE audit_log
    ADD COLUMN person_id uuid REFERENCES people (id) ON DELETE SET NULL,
    -- The name the actor had when the change was made (a person's email, a key's name), kept after either goes.
    ADD COLUMN actor_name text,
    -- The client address the change came from (behind a trusted proxy, the one it forwarded).
    ADD COLUMN address text;
CREATE INDEX audit_log_person ON audit_log (workspace_id, person_id, id);
