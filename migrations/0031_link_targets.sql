-- Targeting and experiments (issue 51): a link's ordered targets and its own variants, as the API writes them
-- (docs/LINKS.md, "Targeting and experiments"); NULL when it has none. A hit records the target and the variant
-- that decided it (NULL: the link's own destination, or no experiment).
ALTER TABLE links ADD COLUMN targets json, ADD COLUMN variants json;
ALTER TABLE hits ADD COLUMN target text, ADD COLUMN variant text;
