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

-- The keyed facade of version 7 ids (uuidv47's mapping) -----------------------------------------

-- Version 7 ids stored, version-4-looking facades shown: the 48-bit time XORed with SipHash-2-4
-- of the id's other 74 bits under a 128-bit key, the version digit 4. Exact both ways and equal
-- to uuidv47's (its C header and its PostgreSQL extension) for every version 7 id.
CREATE FUNCTION uuidv7_to_facade(id uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_to_facade_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_to_facade(uuid, bytea) IS
'version-4-looking facade of a version 7 id under a 16-byte key (k0 then k1, each little-endian), as uuidv47 makes it: the time XORed with SipHash-2-4 of the other 74 bits; uuidv7_from_facade inverts it';

CREATE FUNCTION uuidv7_from_facade(facade uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_from_facade_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_from_facade(uuid, bytea) IS
'version 7 id of a facade that uuidv7_to_facade made with the same 16-byte key (as uuidv47 decodes it)';

CREATE FUNCTION uuidv7_to_facade(id uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_to_facade_setting'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_to_facade(uuid) IS
'uuidv7_to_facade(id, key) with the key of the setting locality_uuid.facade_key (32 hex digits, superuser only): any role makes facades without reading the key';

CREATE FUNCTION uuidv7_from_facade(facade uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_from_facade_setting'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_from_facade(uuid) IS
'uuidv7_from_facade(facade, key) with the key of the setting locality_uuid.facade_key: WHERE id = uuidv7_from_facade($1) finds a row by its facade through the primary key';
