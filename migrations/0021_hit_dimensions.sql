-- Who tapped, in a marketer's terms (issue 32): the visitor's country, operating system, browser and device
-- class on every hit. `country` is ISO 3166-1 alpha-2 from the client address and the operator's MaxMind DB file
-- (`--geoip-db`; NULL when unknown or without one: the address itself is never stored); `os` and `browser` are
-- uap-core's family names ("iOS", "Android", "Mobile Safari", "Chrome Mobile"; NULL when it knows neither);
-- `device` is `mobile`, `tablet`, `desktop`, `bot` or `other` (docs/HITS.md, "Dimensions"). Raw hits only: the
-- rollups are not changed here. Not CHECKed (COPY speed, one writer that writes only these values).
ALTER TABLE hits
    ADD COLUMN country text,
    ADD COLUMN os      text,
    ADD COLUMN browser text,
    ADD COLUMN device  text;
