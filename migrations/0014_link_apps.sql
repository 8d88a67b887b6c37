-- Which apps a domain's links open, with how many links each (a NULL app counts the links to web pages): the
-- catalog reads this small table, never the links themselves, to know whether a domain has links and which apps
-- its association files claim the link space for (docs/LINKS.md, "Serving links"). Kept by statement-level
-- triggers, so a bulk insert updates it once per statement, not once per row.

CREATE TABLE link_apps (
    domain_id  uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    app_id     uuid REFERENCES apps (id) ON DELETE CASCADE,
    links      int8 NOT NULL CHECK (links >= 0),
    UNIQUE NULLS NOT DISTINCT (domain_id, app_id)
);

CREATE FUNCTION link_apps_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO link_apps (domain_id, app_id, links)
    SELECT domain_id, app_id, count(*) FROM added_links GROUP BY domain_id, app_id
    ON CONFLICT (domain_id, app_id) DO UPDATE SET links = link_apps.links + excluded.links;
    RETURN NULL;
END $$;

CREATE FUNCTION link_apps_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE link_apps la SET links = la.links - r.n
    FROM (SELECT domain_id, app_id, count(*) AS n FROM removed_links GROUP BY domain_id, app_id) r
    WHERE la.domain_id = r.domain_id AND la.app_id IS NOT DISTINCT FROM r.app_id;
    DELETE FROM link_apps WHERE links = 0;
    RETURN NULL;
END $$;

CREATE TRIGGER link_apps_insert AFTER INSERT ON links REFERENCING NEW TABLE AS added_links
    FOR EACH STATEMENT EXECUTE FUNCTION link_apps_added();
CREATE TRIGGER link_apps_delete AFTER DELETE ON links REFERENCING OLD TABLE AS removed_links
    FOR EACH STATEMENT EXECUTE FUNCTION link_apps_removed();
-- An update counts as the old rows removed and the new ones added (two triggers: each function reads one table).
CREATE TRIGGER link_apps_update_removed AFTER UPDATE ON links REFERENCING OLD TABLE AS removed_links
    FOR EACH STATEMENT EXECUTE FUNCTION link_apps_removed();
CREATE TRIGGER link_apps_update_added AFTER UPDATE ON links REFERENCING NEW TABLE AS added_links
    FOR EACH STATEMENT EXECUTE FUNCTION link_apps_added();

INSERT INTO link_apps (domain_id, app_id, links) SELECT domain_id, app_id, count(*) FROM links GROUP BY domain_id, app_id;

-- Taps of links with a click limit, added by each node a batch at a time (what `maxClicks` is held to).
ALTER TABLE links ADD COLUMN clicks int8 NOT NULL DEFAULT 0;
