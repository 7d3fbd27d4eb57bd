/* locality_uuid--1.3--1.4.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.4'" to load this file. \quit

-- Explicit-time ids carry their allocation numbers whole (39 and 41 bits) and fail with 54000
-- once a database's numbers are used up; the ordered and explicit-time functions refuse every
-- call in a read-only transaction; uuidv7_ordered() is ordered in the database across restarts.
COMMENT ON FUNCTION hot_uuid(bigint, timestamptz) IS
'new shard-key uuid (HotGuid layout) carrying shard_key, stamped with the second of at (for backfills; mod 2^32); its counter and process field carry a 39-bit allocation number from the sequence locality_uuid_hot_allocation, whole, so it repeats no id made before in the database, and it fails with 54000 once the 2^39 numbers are used up (parallel unsafe: nextval; refused in read-only transactions)';

COMMENT ON FUNCTION uuidv7_ordered() IS
'new version 7 uuid, strictly greater than every uuidv7_ordered() id made before in the database (while the server runs, in the cluster; in this backend only on 15 and 16 without shared_preload_libraries), also after restarts, clock steps back and promotion (parallel unsafe: extends a lease in a sequence; refused in read-only transactions)';

COMMENT ON FUNCTION uuidv7_ordered(timestamptz) IS
'new version 7 uuid stamped with the millisecond of at (for backfills), carrying a 41-bit allocation number from the sequence locality_uuid_v7_allocation, whole, so it repeats no id made before in the database, and it fails with 54000 once the 2^41 numbers are used up (parallel unsafe: nextval; refused in read-only transactions)';
