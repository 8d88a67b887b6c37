-- The hit writer sends its ids with each batch (binary COPY, so the server evaluates no sequence default per
-- row): every nextval('hits_id_seq') now reserves a block of 1,024 ids, [value, value + 1024), which the
-- writer hands out in order (HitCopyData.idBlockSize). Ids still follow the order hits are written in and
-- stay unique across nodes; a row inserted with the column default simply takes the first id of a block.
ALTER SEQUENCE hits_id_seq INCREMENT BY 1024;
