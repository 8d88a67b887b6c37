-- The slugs of targeted links (targets or variants), which a generated router lists per domain so that it hands
-- them to resolve rather than route them offline (docs/CODEGEN.md, "Targeted links"): read by domain without
-- scanning the domain's other links.
CREATE INDEX links_targeted ON links (domain_id, slug) WHERE targets IS NOT NULL OR variants IS NOT NULL;
