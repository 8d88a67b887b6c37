-- Each rule's apps, in order, also on the rule row, so the catalog reads rules with their apps in one pass
-- over `rules`: reading `rule_apps` apart and joining it to the rules by id cost ~1.3 s of CPU per million
-- rules, about a quarter of a whole catalog load (bench/serving/README.md). `rule_apps` stays the source of
-- truth (its foreign key keeps an app in use from being deleted, and its index finds the rules of an app);
-- the triggers below keep `app_ids` equal to it after every statement that changes it.
ALTER TABLE rules ADD COLUMN app_ids uuid[] NOT NULL DEFAULT '{}';

UPDATE rules r SET app_ids = a.ids
FROM (SELECT rule_id, array_agg(app_id ORDER BY ordinal) AS ids FROM rule_apps GROUP BY rule_id) a
WHERE a.rule_id = r.id;

-- Rewrites `app_ids` of the rules whose `rule_apps` rows a statement changed (`changed`: its transition table).
CREATE FUNCTION rule_apps_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE rules r
    SET app_ids = coalesce((SELECT array_agg(ra.app_id ORDER BY ra.ordinal) FROM rule_apps ra WHERE ra.rule_id = r.id), '{}')
    WHERE r.id IN (SELECT rule_id FROM changed);
    RETURN NULL;
END
$$;

CREATE TRIGGER rule_apps_inserted AFTER INSERT ON rule_apps
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION rule_apps_sync();
CREATE TRIGGER rule_apps_deleted AFTER DELETE ON rule_apps
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION rule_apps_sync();
-- (An update can move a row from one rule to another: both rules are rewritten.)
CREATE TRIGGER rule_apps_updated_from AFTER UPDATE ON rule_apps
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION rule_apps_sync();
CREATE TRIGGER rule_apps_updated_to AFTER UPDATE ON rule_apps
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION rule_apps_sync();

CREATE FUNCTION rule_apps_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE rules SET app_ids = '{}' WHERE app_ids <> '{}';
    RETURN NULL;
END
$$;
CREATE TRIGGER rule_apps_truncated AFTER TRUNCATE ON rule_apps FOR EACH STATEMENT EXECUTE FUNCTION rule_apps_truncated();
