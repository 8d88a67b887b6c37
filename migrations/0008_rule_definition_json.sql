-- Rule definitions as `json` (the text linkd wrote) instead of `jsonb`. Nothing queries into them but one
-- lookup by destination type (`definition -> 'destination' ->> 'type'`, which `json` has too), and linkd writes
-- the canonical compact text itself (`RuleInput.definition`), so `jsonb`'s parsing and normalising bought
-- nothing; sending a million definitions (`jsonb_out` per value, wider rows in the sort) cost a catalog load
-- ~0.5 s of PostgreSQL's CPU (bench/serving/README.md).
ALTER TABLE rules ALTER COLUMN definition TYPE json USING definition::json;
