-- A link's per-platform fallback is offered beside the store (issue 46): a phone without the app still gets the
-- store page and the click token of the deferred link, and the fallback as the website to continue to. A link
-- that sends phones to its fallback instead of the store says so with `skip_store` (docs/LINKS.md). Links stored
-- before keep the default: their fallbacks now stand beside the store.
ALTER TABLE links ADD COLUMN skip_store boolean NOT NULL DEFAULT false;
