-- The latest fetch of each association file per host: when Apple's CDN (user agent AASA-Bot) or Android's
-- verifier last picked up which version (ETag). One row per host and file, upserted by the serving nodes.
CREATE TABLE association_fetches (
    hostname    text NOT NULL,
    file        text NOT NULL CHECK (file IN ('apple-app-site-association', 'assetlinks.json')),
    fetched_at  timestamptz NOT NULL,
    user_agent  text NOT NULL,
    etag        text,
    status      integer NOT NULL,
    PRIMARY KEY (hostname, file)
);
