-- The catalog: team IDs, apps, their typed destinations, link domains and their ordered path rules,
-- plus the audit log of every change. Every row carries its workspace; every mutable row a version
-- (the ETag) that optimistic updates compare and bump.

CREATE TABLE teams (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    team_id       text NOT NULL,
    name          text NOT NULL,
    version       integer NOT NULL DEFAULT 1,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (workspace_id, team_id)
);
CREATE INDEX teams_list ON teams (workspace_id, created_at, id);

CREATE TABLE apps (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    platform      text NOT NULL CHECK (platform IN ('ios', 'android')),
    name          text NOT NULL,
    -- iOS
    team_id       text,
    bundle_id     text,
    app_store_id  text,
    custom_scheme text,
    -- Android
    package_name  text,
    sha256_cert_fingerprints jsonb NOT NULL DEFAULT '[]',
    play_store_url text,
    version       integer NOT NULL DEFAULT 1,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    -- An iOS app's team must be registered in the same workspace; a team with apps cannot be deleted.
    FOREIGN KEY (workspace_id, team_id) REFERENCES teams (workspace_id, team_id) ON UPDATE CASCADE,
    CHECK (
        (platform = 'ios' AND team_id IS NOT NULL AND bundle_id IS NOT NULL AND package_name IS NULL)
        OR (platform = 'android' AND package_name IS NOT NULL AND team_id IS NULL AND bundle_id IS NULL)
    )
);
-- Bundle IDs are case-insensitive (Apple glossary); one registration per app and workspace.
CREATE UNIQUE INDEX apps_ios_identity ON apps (workspace_id, team_id, lower(bundle_id)) WHERE platform = 'ios';
CREATE UNIQUE INDEX apps_android_identity ON apps (workspace_id, package_name) WHERE platform = 'android';
CREATE INDEX apps_list ON apps (workspace_id, created_at, id);

CREATE TABLE destinations (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    app_id        uuid NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    name          text NOT NULL,
    title         text,
    -- Parameter name -> {type, optional, min, max, minLength, maxLength, values}.
    params        jsonb NOT NULL DEFAULT '{}',
    version       integer NOT NULL DEFAULT 1,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, name)
);
CREATE INDEX destinations_list ON destinations (app_id, created_at, id);

CREATE TABLE domains (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- Lower-case, punycode, no trailing dot; `*.example.com` for a wildcard. Unique across the service:
    -- one host has one association file.
    hostname      text NOT NULL UNIQUE,
    -- AASA settings: defaults, substitutionVariables, webcredentials/appclips app ids, legacyPaths,
    -- webFallbackUrl. Validated by the API before they are stored.
    settings      jsonb NOT NULL DEFAULT '{}',
    version       integer NOT NULL DEFAULT 1,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX domains_list ON domains (workspace_id, created_at, id);

CREATE TABLE rules (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    domain_id     uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    -- Order is meaning: the first matching rule wins. Dense from 0; moves renumber within one transaction.
    position      integer NOT NULL CHECK (position >= 0),
    -- The rule as the API accepts it (path template or raw pattern, query, fragment, flags, destination).
    definition    jsonb NOT NULL,
    version       integer NOT NULL DEFAULT 1,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (domain_id, position) DEFERRABLE INITIALLY DEFERRED
);

-- Which apps a rule applies to, in the rule's order; an app used by a rule cannot be deleted.
CREATE TABLE rule_apps (
    rule_id   uuid NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
    app_id    uuid NOT NULL REFERENCES apps (id),
    ordinal   integer NOT NULL,
    PRIMARY KEY (rule_id, app_id)
);
CREATE INDEX rule_apps_app ON rule_apps (app_id);

CREATE TABLE audit_log (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace_id   uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    key_id         uuid,
    at             timestamptz NOT NULL DEFAULT now(),
    action         text NOT NULL CHECK (action IN ('create', 'update', 'delete', 'replace')),
    resource_type  text NOT NULL,
    resource_id    text NOT NULL,
    before         jsonb,
    after          jsonb
);
CREATE INDEX audit_log_list ON audit_log (workspace_id, id);
