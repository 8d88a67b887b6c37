-- The association health checks (docs/HEALTH.md, "Checks"): the last result of each check of each domain
-- (`origin`, `apple_cdn`, and `google` once per Android app: its id is the subject), its state, since when it has
-- been in that state, when it last ran and what it saw (`detail`, as `json`: text from remote servers is kept
-- as written, and `json` takes any escape `jsonb` would refuse).
CREATE TABLE association_checks (
    domain_id   uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    check_name  text NOT NULL CHECK (check_name IN ('origin', 'apple_cdn', 'google')),
    subject     text NOT NULL DEFAULT '' CHECK (length(subject) <= 64),
    state       text NOT NULL CHECK (length(state) <= 32),
    since       timestamptz NOT NULL,
    checked_at  timestamptz NOT NULL,
    detail      json NOT NULL,
    PRIMARY KEY (domain_id, check_name, subject)
);

-- When each domain's next background check is due. Each domain keeps a stable slot in the interval (its first
-- `due_at` is placed by a hash of its id), so domains are spread evenly; a node claims due rows with
-- `FOR UPDATE SKIP LOCKED` and moves them one interval on in the same statement, so each domain is checked once
-- per interval whatever the number of nodes.
CREATE TABLE association_check_schedule (
    domain_id  uuid PRIMARY KEY REFERENCES domains (id) ON DELETE CASCADE,
    due_at     timestamptz NOT NULL
);
CREATE INDEX association_check_schedule_due ON association_check_schedule (due_at);
