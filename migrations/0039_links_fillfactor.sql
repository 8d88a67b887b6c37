-- Every node adds its taps to `links.clicks` every second, one updated row for every link tapped (docs/LINKS.md,
-- "Taps"): a campaign of links tapped once each updates as many rows. No index holds `clicks`, so such an update can
-- stay on its page as a heap-only tuple (no new entry in any of the table's indexes) when the page has room for it;
-- pages filled to the brim by COPY and bulk inserts have none. New pages keep a fifth free for it.
ALTER TABLE links SET (fillfactor = 80);
