-- Links people create (issue 29): `https://<domain>/<slug>` in a workspace, pointing at a typed destination of
-- an app or at a web URL, with fallbacks, a campaign, tags, a social preview, an expiry, a click limit and a
-- small JSON payload for the app. The text bounds equal the API's (`TextLimit+Fields.swift`).

CREATE TABLE links (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    workspace_id  uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    domain_id     uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    -- One or more path segments, compared exactly.
    slug          text NOT NULL CHECK (length(slug) BETWEEN 1 AND 200),
    -- A typed destination of an app ({"type", "params"}, as links/build takes it)...
    app_id        uuid REFERENCES apps (id) ON DELETE RESTRICT,
    destination   json,
    -- ...or a web URL.
    url           text CHECK (length(url) <= 2000 AND lower(url) LIKE 'https://%'),
    -- Per-platform fallback URLs: ios, ipad, android, desktop.
    fallbacks     json NOT NULL DEFAULT '{}',
    utm_source    text CHECK (length(utm_source) <= 200),
    utm_medium    text CHECK (length(utm_medium) <= 200),
    utm_campaign  text CHECK (length(utm_campaign) <= 200),
    utm_term      text CHECK (length(utm_term) <= 200),
    utm_content   text CHECK (length(utm_content) <= 200),
    tags          text[] NOT NULL DEFAULT '{}' CHECK (cardinality(tags) <= 20),
    -- The social preview: title, description, imageUrl.
    preview       json NOT NULL DEFAULT '{}',
    expires_at    timestamptz,
    max_clicks    int8 CHECK (max_clicks >= 1),
    name          text CHECK (length(name) <= 200),
    -- Handed to the app with the resolve answer and the deferred claim.
    data          json CHECK (octet_length(data::text) <= 4096),
    version       integer NOT NULL DEFAULT 1,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (domain_id, slug),
    CHECK (
        (app_id IS NOT NULL AND destination IS NOT NULL AND url IS NULL)
        OR (app_id IS NULL AND destination IS NULL AND url IS NOT NULL)
    )
);
CREATE INDEX links_list ON links (workspace_id, created_at, id);
CREATE INDEX links_tags ON links USING gin (tags);
CREATE INDEX links_campaign ON links (workspace_id, utm_campaign);
