-- The links of an app, by destination type: deleting an app (its foreign key) or a destination type asks whether
-- links still lead there, which without this index reads every link of every workspace.
CREATE INDEX links_destination ON links (app_id, (destination ->> 'type')) WHERE app_id IS NOT NULL;
