/* locality_uuid--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.3'" to load this file. \quit

-- PostgreSQL 18's version 7 and 4 functions, on 15 to 17 ----------------------------------------

-- Below 18 the extension gives core's version 7 and 4 functions that the server lacks, with core
-- 18's signatures, labels and comments, in pg_catalog where core has them: so calls, defaults and
-- indexes read the same on every major, and pg_dump prints them unqualified, so that a dump
-- restores on 18 onto core's. 17 has uuid_extract_timestamp (reading version 1 only) and
-- uuid_extract_version; from 18 on, core has all five and the extension creates none.
DO $$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::integer < 180000 THEN
        CREATE FUNCTION pg_catalog.uuidv7()
        RETURNS uuid
        AS 'MODULE_PATHNAME', 'locality_uuid_uuidv7'
        LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

        COMMENT ON FUNCTION pg_catalog.uuidv7() IS 'generate UUID version 7';

        CREATE FUNCTION pg_catalog.uuidv7(shift interval)
        RETURNS uuid
        AS 'MODULE_PATHNAME', 'locality_uuid_uuidv7_shift'
        LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

        COMMENT ON FUNCTION pg_catalog.uuidv7(interval) IS
        'generate UUID version 7 with a timestamp shifted by specified interval';

        CREATE FUNCTION pg_catalog.uuidv4()
        RETURNS uuid
        AS 'MODULE_PATHNAME', 'locality_uuid_uuidv4'
        LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

        COMMENT ON FUNCTION pg_catalog.uuidv4() IS 'generate UUID version 4';
    END IF;
    IF pg_catalog.current_setting('server_version_num')::integer < 170000 THEN

        CREATE FUNCTION pg_catalog.uuid_extract_timestamp(uuid)
        RETURNS timestamptz
        AS 'MODULE_PATHNAME', 'locality_uuid_extract_timestamp'
        LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

        COMMENT ON FUNCTION pg_catalog.uuid_extract_timestamp(uuid) IS 'extract timestamp from UUID';

        CREATE FUNCTION pg_catalog.uuid_extract_version(uuid)
        RETURNS smallint
        AS 'MODULE_PATHNAME', 'locality_uuid_extract_version'
        LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

        COMMENT ON FUNCTION pg_catalog.uuid_extract_version(uuid) IS 'extract version from RFC 9562 UUID';
    END IF;
END
$$;

-- pg_upgrade to 18 would create them again, next to core's, and fail: this lets them go first.
CREATE FUNCTION locality_uuid_release_core_names()
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    f regprocedure;
    released integer := 0;
BEGIN
    FOR f IN
        SELECT d.objid::regprocedure
        FROM pg_depend AS d
        JOIN pg_proc AS p ON p.oid = d.objid
        WHERE d.classid = 'pg_proc'::regclass
          AND d.refclassid = 'pg_extension'::regclass
          AND d.refobjid = (SELECT e.oid FROM pg_extension AS e WHERE e.extname = 'locality_uuid')
          AND d.deptype = 'e'
          AND p.pronamespace = 'pg_catalog'::regnamespace
        ORDER BY 1
    LOOP
        EXECUTE format('ALTER EXTENSION locality_uuid DROP FUNCTION %s', f);
        released := released + 1;
    END LOOP;
    RETURN released;
END
$$;

COMMENT ON FUNCTION locality_uuid_release_core_names() IS
'run before pg_upgrade from 15, 16 or 17 to 18 or later (as the extension''s owner): detaches the extension''s functions in pg_catalog (uuidv7, uuidv4, and below 17 uuid_extract_timestamp and uuid_extract_version) from it, so that pg_upgrade leaves them behind and calls bind to core''s; they keep working until then; returns how many it detached';

-- Version 7 ordered across the cluster -----------------------------------------------------------

-- Every ordered id is below this sequence's value, in Unix milliseconds: after a restart, a crash,
-- a promotion or pg_upgrade, ordered ids start at or above it, after every id made before.
CREATE SEQUENCE locality_uuid_v7_lease AS bigint MINVALUE 0 START WITH 0 NO CYCLE;
REVOKE ALL ON SEQUENCE locality_uuid_v7_lease FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('locality_uuid_v7_lease', '');

COMMENT ON SEQUENCE locality_uuid_v7_lease IS
'Unix millisecond above every uuidv7_ordered() id made so far: do not set or reset it';

-- Allocation numbers of ordered ids at an explicit time, in ranges of 256.
CREATE SEQUENCE locality_uuid_v7_allocation AS bigint MINVALUE 0 START WITH 0 NO CYCLE;
REVOKE ALL ON SEQUENCE locality_uuid_v7_allocation FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('locality_uuid_v7_allocation', '');

COMMENT ON SEQUENCE locality_uuid_v7_allocation IS
'ranges of 256 allocation numbers for uuidv7_ordered(at): do not set or reset it';

CREATE FUNCTION uuidv7_ordered()
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_ordered_generate'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uuidv7_ordered() IS
'new version 7 uuid, strictly greater than every uuidv7_ordered() id made before in the cluster (in this backend only on 15 and 16 without shared_preload_libraries), also after restarts, clock steps back and promotion (parallel unsafe: extends a lease in a sequence)';

CREATE FUNCTION uuidv7_ordered(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_ordered_generate_at'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uuidv7_ordered(timestamptz) IS
'new version 7 uuid stamped with the millisecond of at (for backfills), carrying an allocation number from the sequence locality_uuid_v7_allocation, so it repeats no id made before (parallel unsafe: nextval)';

-- Boundaries and the time of an id ------------------------------------------------------------

-- 17's uuid_extract_timestamp reads version 1 only: this reads version 7 on every major.
CREATE FUNCTION uuidv7_timestamp(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uuidv7_timestamp'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_timestamp(uuid) IS
'creation time (the millisecond) of a version 7 uuid, on every major (17''s uuid_extract_timestamp reads version 1 only); NULL for other versions and variants';

CREATE FUNCTION uuidv7_lower(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_lower_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_lower(timestamptz) IS
'smallest version 7 uuid of the millisecond of at: id >= uuidv7_lower(a) AND id < uuidv7_lower(b) selects the ids of [a, b), and partition bounds take it';

CREATE FUNCTION uuidv7_upper(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_upper_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_upper(timestamptz) IS
'largest version 7 uuid of the millisecond of at';

-- pg_partman's decoders ---------------------------------------------------------------------------

-- pg_partman (5.2 and later) passes the ids and the bounds of its children to p_time_decoder as
-- text; its p_time_encoder takes the extension's boundaries (hot_uuid_boundary, uuidv7_lower) as
-- they are. SQL-standard bodies bind the extractor at creation.
CREATE FUNCTION hot_uuid_time_decoder(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN hot_uuid_timestamp(id::uuid);

COMMENT ON FUNCTION hot_uuid_time_decoder(text) IS
'hot_uuid_timestamp of a shard-key uuid given as text: the p_time_decoder of pg_partman''s create_parent (its p_time_encoder is hot_uuid_boundary)';

CREATE FUNCTION uuidv7_time_decoder(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uuidv7_timestamp(id::uuid);

COMMENT ON FUNCTION uuidv7_time_decoder(text) IS
'uuidv7_timestamp of a version 7 uuid given as text: the p_time_decoder of pg_partman''s create_parent (its p_time_encoder is uuidv7_lower)';
