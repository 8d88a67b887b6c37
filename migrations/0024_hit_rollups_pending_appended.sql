-- The hit writer appends each batch's rollups to `hit_rollups_pending` instead of upserting them (issue 32: ingest
-- with links and campaigns). The unique key over its 21 dimension columns cost each batch's upsert more than the
-- batch's COPY, and nothing needs it: `HitCubeFold` groups the pending rows into the cubes and reads sum them, so
-- the rows one key gets from several batches count as one. Reads look the rows up by workspace and hour.
ALTER TABLE hit_rollups_pending DROP CONSTRAINT hit_rollups_pending_key;
CREATE INDEX hit_rollups_pending_hour ON hit_rollups_pending (workspace_id, hour);
