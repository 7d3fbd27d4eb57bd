-- C edition only (the portable suite leaves this file out).
-- Version 7 in the C extension only (sql/v7.sql has what every edition shares, and
-- sql/partitioning.sql the bounds in partitions): a lease cannot be taken in a read-only
-- transaction, and core's names serve in expression indexes and partition keys.
\i sql/include/helpers.psql

-- This backend has made no ordered id yet, so it needs a lease, and a read-only transaction
-- cannot extend the sequence that holds it: 25006. uuidv7() needs none.
BEGIN TRANSACTION READ ONLY;
SELECT left(pg_temp.try('SELECT uuidv7_ordered()'), 5) AS ordered,
       left(pg_temp.try('SELECT uuidv7_ordered(now())'), 5) AS ordered_at,
       uuid_extract_version(uuidv7()) AS uuidv7_still_works;
COMMIT;

-- Core's extractors are immutable, on every major.
CREATE TEMP TABLE v7_index (id uuid);
CREATE INDEX ON v7_index (uuid_extract_timestamp(id));
CREATE INDEX ON v7_index (uuid_extract_version(id));
CREATE TABLE v7_by_time (id uuid) PARTITION BY RANGE (uuid_extract_timestamp(id));
DROP TABLE v7_by_time;
