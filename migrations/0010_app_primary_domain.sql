-- The domain whose rules an app's custom-scheme links follow (docs/LINKS.md). NULL: the oldest domain whose rules
-- name the app. Deleting the domain clears the choice.
ALTER TABLE apps ADD COLUMN primary_domain_id uuid REFERENCES domains (id) ON DELETE SET NULL;
