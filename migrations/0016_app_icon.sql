-- An app's icon (docs/LANDING.md): the landing page shows it beside the app's name.
ALTER TABLE apps ADD COLUMN icon_url text CHECK (length(icon_url) <= 2048 AND lower(icon_url) LIKE 'https://%');
