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

-- The continued sequential run of locality_uuid(true) -------------------------------------------

-- Every position of the continued run taken in this database is below this sequence's value:
-- after a restart, a crash, a promotion or pg_upgrade, the run goes on at or above it.
CREATE SEQUENCE locality_uuid_b_lease AS bigint MINVALUE 0 START WITH 0 NO CYCLE;
REVOKE ALL ON SEQUENCE locality_uuid_b_lease FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('locality_uuid_b_lease', '');

COMMENT ON SEQUENCE locality_uuid_b_lease IS
'position above every locality_uuid(true) id of the continued run made so far: do not set or reset it';

-- The extension's owner: dump, restore and the documented steps ---------------------------------

-- The sequences belong to the bootstrap superuser, who runs the script of a trusted extension.
-- pg_dump reads them, a restore sets them, the steps of docs/guarantees.md move one on: the
-- extension's owner may, so that a database owner who installed it can back it up and restore
-- it. pg_init_privs records the grant: a dump carries none, and CREATE EXTENSION on restore
-- grants them to its own owner. The owner comes from pg_extension (@extowner@ would name a
-- superuser who runs the update for the owner); the sequences from pg_depend, by exact name.
-- Operators on exact pg_catalog types only: this runs as a superuser for the extension's owner.
DO $$
DECLARE
    seq record;
BEGIN
    FOR seq IN
        SELECT n.nspname, c.relname, e.extowner::regrole::text AS owner
        FROM pg_catalog.pg_depend AS d
        JOIN pg_catalog.pg_extension AS e ON e.oid = d.refobjid
        JOIN pg_catalog.pg_class AS c ON c.oid = d.objid
        JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
        WHERE e.extname = 'locality_uuid'
          AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
          AND d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
          AND d.deptype = 'e'
          AND c.relkind = 'S'
        ORDER BY c.relname
    LOOP
        EXECUTE pg_catalog.format('GRANT SELECT, UPDATE ON SEQUENCE %I.%I TO %s',
                                  seq.nspname, seq.relname, seq.owner);
    END LOOP;
END
$$;

-- ALTER EXTENSION ... DROP FUNCTION needs the function's owner, the bootstrap superuser: the
-- release runs with its rights, for the extension's owner only (EXECUTE granted to it alone,
-- and the session's role checked again, so that a later owner's predecessor cannot use it).
CREATE OR REPLACE FUNCTION locality_uuid_release_core_names()
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext oid;
    owner oid;
    f record;
    released integer := 0;
BEGIN
    SELECT e.oid, e.extowner INTO ext, owner FROM pg_extension AS e WHERE e.extname = 'locality_uuid';
    IF NOT pg_has_role(session_user, owner, 'MEMBER') THEN
        RAISE EXCEPTION 'must be owner of extension locality_uuid'
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = format('The extension belongs to %s; the session''s role %s is not a member of it.',
                                  owner::regrole, session_user),
                  HINT = 'Call it as the extension''s owner or a superuser.';
    END IF;
    FOR f IN
        SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args
        FROM pg_depend AS d
        JOIN pg_proc AS p ON p.oid = d.objid
        WHERE d.classid = 'pg_proc'::regclass
          AND d.refclassid = 'pg_extension'::regclass
          AND d.refobjid = ext
          AND d.deptype = 'e'
          AND p.pronamespace = 'pg_catalog'::regnamespace
        ORDER BY p.oid::regprocedure::text
    LOOP
        EXECUTE format('ALTER EXTENSION locality_uuid DROP FUNCTION pg_catalog.%I(%s)', f.proname, f.args);
        released := released + 1;
    END LOOP;
    RETURN released;
END
$$;

REVOKE ALL ON FUNCTION locality_uuid_release_core_names() FROM PUBLIC;

DO $$
BEGIN
    EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %I.locality_uuid_release_core_names() TO %s',
                              (SELECT n.nspname FROM pg_catalog.pg_extension AS e
                               JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace
                               WHERE e.extname = 'locality_uuid'),
                              (SELECT e.extowner::regrole::text FROM pg_catalog.pg_extension AS e
                               WHERE e.extname = 'locality_uuid'));
END
$$;

COMMENT ON FUNCTION locality_uuid_release_core_names() IS
'run before pg_upgrade from 15, 16 or 17 to 18 or later (as the extension''s owner or a superuser; runs with the rights of the functions'' owner): detaches the extension''s functions in pg_catalog (uuidv7, uuidv4, and below 17 uuid_extract_timestamp and uuid_extract_version) from it, so that pg_upgrade leaves them behind and calls bind to core''s; they keep working until then, and a later CREATE EXTENSION takes them back; returns how many it detached';

-- pg_partman's decoders in C: their SQL-standard bodies named another function of the extension,
-- which a dump restored beside a look-alike with one more defaulted argument (planted in the
-- extension's schema) could not resolve. Same results, same errors.
CREATE OR REPLACE FUNCTION hot_uuid_time_decoder(id text)
RETURNS timestamptz
LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
AS 'MODULE_PATHNAME', 'hot_uuid_time_decoder';

CREATE OR REPLACE FUNCTION uuidv7_time_decoder(id text)
RETURNS timestamptz
LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
AS 'MODULE_PATHNAME', 'uuidv7_time_decoder';
