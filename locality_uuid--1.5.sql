/* locality_uuid--1.5.sql: built by make from src/pg/install_script.sh; edit its sources */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION locality_uuid" to load this file. \quit

-- Before the objects: PostgreSQL 18's names, which the extension adds to pg_catalog below 18 ---

-- pg_catalog is searched before every other schema, so a uuidv7() of the extension there would
-- take over the calls that other roles' functions make of their own uuidv7() (PL/pgSQL,
-- string bodies, search_path = public), or make them ambiguous. CREATE EXTENSION refuses
-- while a schema other than pg_catalog has a function of one of the names it would add;
-- ALTER EXTENSION UPDATE runs the update scripts and checks nothing. The extension's own
-- functions left in pg_catalog by locality_uuid_release_core_names() are taken back. It runs as a
-- superuser for the role that creates the extension: every operator has exact pg_catalog types
-- (found there first), every function is qualified.
DO $$
DECLARE
    v integer := pg_catalog.current_setting('server_version_num')::integer;
    names text[];
    conflicts text[] := ARRAY[]::text[];
    adopt text[] := ARRAY[]::text[];
    f record;
    fn text;
BEGIN
    names := CASE
        WHEN v < 170000 THEN ARRAY['uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version']
        WHEN v < 180000 THEN ARRAY['uuidv7', 'uuidv4']
        ELSE ARRAY[]::text[]
    END;
    FOR f IN
        SELECT n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid) AS args,
               n.nspname = 'pg_catalog'
               AND p.prolang = (SELECT l.oid FROM pg_catalog.pg_language AS l WHERE l.lanname = 'c')
               AND p.probin = 'MODULE_PATHNAME'
               AND (p.proname, pg_catalog.oidvectortypes(p.proargtypes)) IN
                   (('uuidv7', ''), ('uuidv7', 'interval'), ('uuidv4', ''),
                    ('uuid_extract_timestamp', 'uuid'), ('uuid_extract_version', 'uuid'))
               AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend AS d
                               WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
                                 AND d.objid = p.oid AND d.deptype = 'e') AS released
        FROM pg_catalog.pg_proc AS p
        JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
        WHERE p.proname = ANY (names)
        ORDER BY n.nspname, p.proname, 3
    LOOP
        IF f.released THEN
            adopt := pg_catalog.array_append(adopt, pg_catalog.format('pg_catalog.%I(%s)', f.proname, f.args));
        ELSE
            conflicts := pg_catalog.array_append(conflicts, pg_catalog.format('%I.%I(%s)', f.nspname, f.proname, f.args));
        END IF;
    END LOOP;

    IF pg_catalog.cardinality(conflicts) > 0 THEN
        RAISE EXCEPTION 'cannot create extension locality_uuid beside functions named as those it adds to pg_catalog'
            USING ERRCODE = 'duplicate_function',
                  DETAIL = pg_catalog.format('Below PostgreSQL 18 the extension creates %s in pg_catalog, which is '
                      'searched before every other schema, so code that calls these existing functions by name '
                      'would call the extension''s instead, or fail as ambiguous: %s.',
                      pg_catalog.array_to_string(names, ', '), pg_catalog.array_to_string(conflicts, ', ')),
                  HINT = 'Drop or rename these functions and change the code that calls them, then create the '
                      'extension again: README.md, "PostgreSQL 18''s names", says how.';
    END IF;

    FOREACH fn IN ARRAY adopt
    LOOP
        EXECUTE pg_catalog.format('ALTER EXTENSION locality_uuid ADD FUNCTION %s', fn);
    END LOOP;
END
$$;

-- locality_uuid--1.0.sql ---------------------------------------------------------------

/* locality_uuid--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION

-- Locality UUID, version "b" ------------------------------------------------

CREATE FUNCTION locality_uuid()
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_generate'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid() IS
'new locality uuid (version b) in the mode set by locality_uuid.counter_mode';

CREATE FUNCTION locality_uuid(sequential boolean)
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_generate_mode'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid(boolean) IS
'new locality uuid (version b): sequential (clustered) if true, variable (spread) if false';

CREATE FUNCTION locality_uuid_use_sequential_ids()
RETURNS void
AS 'MODULE_PATHNAME', 'locality_uuid_use_sequential_ids'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION locality_uuid_use_sequential_ids() IS
'switch this session''s locality_uuid() to sequential mode (SET locality_uuid.counter_mode = sequential)';

CREATE FUNCTION locality_uuid_use_variable_ids()
RETURNS void
AS 'MODULE_PATHNAME', 'locality_uuid_use_variable_ids'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION locality_uuid_use_variable_ids() IS
'switch this session''s locality_uuid() to variable mode (SET locality_uuid.counter_mode = variable)';

CREATE FUNCTION locality_uuid_timestamp(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'locality_uuid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_timestamp(uuid) IS
'creation time (milliseconds) of a locality uuid; NULL if the version digit is not b';

CREATE FUNCTION locality_uuid_pid(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'locality_uuid_pid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_pid(uuid) IS
'16-bit process field of a locality uuid (backend slot or pid mod 65536); NULL if the version digit is not b';

CREATE FUNCTION locality_uuid_mac(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'locality_uuid_mac'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_mac(uuid) IS
'28-bit node field of a locality uuid as 7 lowercase hex digits (low 28 bits of the MAC); NULL if the version digit is not b';

CREATE FUNCTION locality_uuid_node(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'locality_uuid_node'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_node(uuid) IS
'28-bit node field of a locality uuid as a number; NULL if the version digit is not b';

CREATE FUNCTION locality_uuid_counter(id uuid, sequential boolean DEFAULT false)
RETURNS bigint
AS 'MODULE_PATHNAME', 'locality_uuid_counter'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_counter(uuid, boolean) IS
'32-bit counter of a locality uuid, read in variable mode (nibbles reversed) unless sequential; NULL if the version digit is not b';

CREATE FUNCTION locality_uuid_version(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'locality_uuid_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_version(uuid) IS
'version hex digit of any uuid (b for a locality uuid, 4 for a random one)';

CREATE FUNCTION locality_uuid_make(counter bigint, pid integer, node integer, ts timestamptz,
                                   sequential boolean DEFAULT false)
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_make'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_make(bigint, integer, integer, timestamptz, boolean) IS
'locality uuid (version b) built from explicit fields: counter 0..4294967295, pid 0..65535, node 0..268435455, ts to the millisecond';

-- Block-wrapped sequential UUIDs (drop-in for sequential_uuids 1.0.3) ------

CREATE FUNCTION uuid_sequence_nextval(regclass, block_size integer DEFAULT 65536,
                                      block_count integer DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_sequence_nextval'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uuid_sequence_nextval(regclass, integer, integer) IS
'new version 4 uuid whose first bytes are the block of nextval(sequence) - 1; the block advances every block_size values and wraps after block_count blocks (calls nextval, so parallel unsafe)';

CREATE FUNCTION uuid_time_nextval(interval_length integer DEFAULT 60,
                                  interval_count integer DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_time_nextval'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_nextval(integer, integer) IS
'new version 4 uuid whose first bytes are the block of the current Unix time; the block advances every interval_length seconds and wraps after interval_count blocks';

CREATE FUNCTION locality_uuid_block_layout(block_size integer DEFAULT 65536,
                                           block_count integer DEFAULT 65536,
                                           OUT prefix_bits integer,
                                           OUT prefixes bigint,
                                           OUT effective_block_size bigint,
                                           OUT wrap_values bigint,
                                           OUT block_interval interval,
                                           OUT wrap_interval interval)
RETURNS record
AS 'MODULE_PATHNAME', 'locality_uuid_block_layout'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_block_layout(integer, integer) IS
'what uuid_sequence_nextval and uuid_time_nextval make of (block_size, block_count): prefix width in bits, number of prefixes, values per block, values per wrap, and the same read as seconds';

CREATE FUNCTION locality_uuid_block(id uuid, block_count integer DEFAULT 65536)
RETURNS bigint
AS 'MODULE_PATHNAME', 'locality_uuid_block'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_block(uuid, integer) IS
'block number (prefix) that a uuid_sequence_nextval or uuid_time_nextval id carries for block_count; NULL if the version digit is not 4';
-- Shard-key UUID, compatible with .NET HotGuid ---------------------------------

CREATE FUNCTION hot_uuid(shard_key bigint)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_generate'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid(bigint) IS
'new shard-key uuid (HotGuid layout) carrying shard_key 0..4294967295, stamped with the current second';

CREATE FUNCTION hot_uuid(shard_key bigint, at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_generate_at'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid(bigint, timestamptz) IS
'new shard-key uuid (HotGuid layout) carrying shard_key, stamped with the second of at (for backfills; mod 2^32)';

CREATE FUNCTION hot_uuid_shard_key(id uuid)
RETURNS bigint
AS 'MODULE_PATHNAME', 'hot_uuid_shard_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_shard_key(uuid) IS
'32-bit shard key of a shard-key uuid (bytes 12..15, little-endian), as HotGuid''s ExtractShardKey';

CREATE FUNCTION hot_uuid_timestamp(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'hot_uuid_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_timestamp(uuid) IS
'creation second of a shard-key uuid (bytes 0..3 as unsigned Unix seconds, 1970 to 2106), as HotGuid''s ExtractUnixTimestamp';

CREATE FUNCTION hot_uuid_boundary(at timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_boundary'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_boundary(timestamptz) IS
'smallest shard-key uuid of the second of at (time field, all else zero): a bound for range scans and range partitions';

CREATE FUNCTION hot_uuid_machine(id uuid)
RETURNS bytea
AS 'MODULE_PATHNAME', 'hot_uuid_machine'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_machine(uuid) IS
'machine hash of a shard-key uuid: the first 3 bytes of MD5 of the machine name, in digest order';

CREATE FUNCTION hot_uuid_process(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'hot_uuid_process'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_process(uuid) IS
'16-bit process field of a shard-key uuid (backend slot, or pid mod 65536 as HotGuid)';

CREATE FUNCTION hot_uuid_counter(id uuid)
RETURNS integer
AS 'MODULE_PATHNAME', 'hot_uuid_counter'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_counter(uuid) IS
'24-bit counter of a shard-key uuid';

CREATE FUNCTION hot_uuid_make(shard_key bigint, ts timestamptz,
                              machine bytea DEFAULT E'\\x000000', process integer DEFAULT 0,
                              counter integer DEFAULT 0)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_make'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_make(bigint, timestamptz, bytea, integer, integer) IS
'shard-key uuid built from explicit fields: shard_key 0..4294967295, ts to the second (mod 2^32), machine 3 MD5 bytes, process 0..65535, counter 0..16777215';

-- locality_uuid--1.0--1.1.sql ---------------------------------------------------------------

/* locality_uuid--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION

-- Block generators: sub-second time blocks, time from time-block ids, tuning advice --------

CREATE FUNCTION uuid_time_nextval(interval_length interval,
                                  interval_count integer DEFAULT 65536)
RETURNS uuid
AS 'MODULE_PATHNAME', 'locality_uuid_time_nextval_interval'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_nextval(interval, integer) IS
'new version 4 uuid whose first bytes are the block of the current Unix time in microseconds; the block advances every interval_length (1 ms to 2147483647 s, no months or years) and wraps after interval_count blocks; whole seconds give the integer form''s prefixes';

CREATE FUNCTION locality_uuid_block_layout(interval_length interval,
                                           interval_count integer DEFAULT 65536,
                                           OUT prefix_bits integer,
                                           OUT prefixes bigint,
                                           OUT effective_block_size bigint,
                                           OUT wrap_values bigint,
                                           OUT block_interval interval,
                                           OUT wrap_interval interval)
RETURNS record
AS 'MODULE_PATHNAME', 'locality_uuid_block_layout_interval'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_block_layout(interval, integer) IS
'what uuid_time_nextval(interval, integer) makes of (interval_length, interval_count): prefix width in bits, number of prefixes, block length and wrap period in microseconds, and the same as intervals';

CREATE FUNCTION uuid_time_block_start(id uuid, interval_length integer,
                                      interval_count integer DEFAULT 65536,
                                      as_of timestamptz DEFAULT now())
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'locality_uuid_time_block_start'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_block_start(uuid, integer, integer, timestamptz) IS
'start of the latest block of uuid_time_nextval(interval_length, interval_count), at or before as_of, whose prefix the id carries; NULL if the version digit is not 4 (pass as_of explicitly in an index)';

CREATE FUNCTION uuid_time_block_start(id uuid, interval_length interval,
                                      interval_count integer DEFAULT 65536,
                                      as_of timestamptz DEFAULT now())
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'locality_uuid_time_block_start_interval'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_time_block_start(uuid, interval, integer, timestamptz) IS
'start of the latest block of uuid_time_nextval(interval_length, interval_count), at or before as_of, whose prefix the id carries; NULL if the version digit is not 4 (pass as_of explicitly in an index)';

CREATE FUNCTION locality_uuid_block_advice(insert_rate double precision,
                                           retention interval,
                                           index_memory bigint DEFAULT NULL,
                                           OUT generator text,
                                           OUT call text,
                                           OUT block_size integer,
                                           OUT block_count integer,
                                           OUT interval_length interval,
                                           OUT interval_count integer,
                                           OUT rows_per_block double precision,
                                           OUT hot_set_bytes bigint,
                                           OUT wrap_period interval,
                                           OUT retention interval,
                                           OUT prefix_bytes integer,
                                           OUT effective_block_size bigint,
                                           OUT block_interval interval,
                                           OUT hot_set_pages bigint,
                                           OUT index_memory bigint,
                                           OUT hot_set_fits boolean,
                                           OUT wrap_covers_retention boolean)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'locality_uuid_block_advice'
LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE
ROWS 2;

COMMENT ON FUNCTION locality_uuid_block_advice(double precision, interval, bigint) IS
'recommended uuid_sequence_nextval and uuid_time_nextval parameters for an insert rate (rows per second), a retention and the memory the index may hold (bytes; NULL = shared_buffers): a block''s index leaves within 1/8 of that memory, a wrap period of at least twice the retention';

-- Generator state shared by the cluster's backends.
CREATE FUNCTION locality_uuid_state()
RETURNS text
AS 'MODULE_PATHNAME', 'locality_uuid_state'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_state() IS
'Which generator state this backend uses: dsm_registry (shared, PostgreSQL 17 and later), preload (shared, 15 and 16 with locality_uuid in shared_preload_libraries) or backend (per backend: 15 and 16 without preload)';

-- locality_uuid--1.1--1.2.sql ---------------------------------------------------------------

/* locality_uuid--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION

-- Shard-key uuids at an explicit time ----------------------------------------------------------

-- Counters of ids at an explicit time are allocation numbers drawn from this sequence, so
-- they never repeat across restarts, crashes, promotions, pg_upgrade or dump and restore.
CREATE SEQUENCE locality_uuid_hot_allocation AS bigint MINVALUE 0 START WITH 0 NO CYCLE;
REVOKE ALL ON SEQUENCE locality_uuid_hot_allocation FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('locality_uuid_hot_allocation', '');

COMMENT ON SEQUENCE locality_uuid_hot_allocation IS
'ranges of 256 counter values for hot_uuid(shard_key, at): do not set or reset it';

ALTER FUNCTION hot_uuid(bigint, timestamptz) PARALLEL UNSAFE;

COMMENT ON FUNCTION hot_uuid(bigint, timestamptz) IS
'new shard-key uuid (HotGuid layout) carrying shard_key, stamped with the second of at (for backfills; mod 2^32); its counter comes from the sequence locality_uuid_hot_allocation, so it is unique across restarts (parallel unsafe: nextval)';

-- Block generators: the interval form under a name of its own -----------------------------------

-- uuid_time_nextval keeps only the (integer, integer) form of sequential_uuids 1.0.3, so that
-- untyped literals, NULL and parameters of unknown type resolve to it as they do there. A rename
-- keeps the function's OID: column defaults and views that call the interval form keep working.
ALTER FUNCTION uuid_time_nextval(interval, integer) RENAME TO uuid_time_nextval_interval;

COMMENT ON FUNCTION uuid_time_nextval_interval(interval, integer) IS
'new version 4 uuid whose first bytes are the block of the current Unix time in microseconds; the block advances every interval_length (1 ms to 2147483647 s, no months or years) and wraps after interval_count blocks; whole seconds give the prefixes of uuid_time_nextval(integer, integer)';

-- The comments that named the interval form name it anew.
COMMENT ON FUNCTION locality_uuid_block_layout(interval, integer) IS
'what uuid_time_nextval_interval(interval_length, interval_count) makes of its arguments: prefix width in bits, number of prefixes, block length and wrap period in microseconds, and the same as intervals';

COMMENT ON FUNCTION uuid_time_block_start(uuid, interval, integer, timestamptz) IS
'start of the latest block of uuid_time_nextval_interval(interval_length, interval_count), at or before as_of, whose prefix the id carries; NULL if the version digit is not 4 (pass as_of explicitly in an index)';

COMMENT ON FUNCTION locality_uuid_block_advice(double precision, interval, bigint) IS
'recommended uuid_sequence_nextval and uuid_time_nextval_interval parameters for an insert rate (rows per second), a retention and the memory the index may hold (bytes; NULL = shared_buffers): a block''s index leaves within 1/8 of that memory, a wrap period of at least twice the retention';

-- Identity of this server -----------------------------------------------------------------------

CREATE FUNCTION locality_uuid_identity(
    OUT node integer,
    OUT node_source text,
    OUT node_file text,
    OUT node_line integer,
    OUT mac text,
    OUT mac_interface text,
    OUT machine_hash bytea,
    OUT machine_name text,
    OUT machine_source text,
    OUT machine_file text,
    OUT machine_line integer,
    OUT process_field text,
    OUT system_identifier bigint,
    OUT timeline bigint,
    OUT in_recovery boolean,
    OUT state text)
RETURNS record
AS 'MODULE_PATHNAME', 'locality_uuid_identity'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION locality_uuid_identity() IS
'This server''s identity as the generators see it, and where each part came from: the node field of locality uuids (setting or MAC), the machine hash of hot_uuid (setting or host name), the process field, the system identifier, the timeline and the state; files, lines, MAC and host name only for roles with the privileges of pg_read_all_settings';

-- locality_uuid--1.2--1.3.sql ---------------------------------------------------------------

/* locality_uuid--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION

-- PostgreSQL 18's version 7 and 4 functions, on 15 to 17 ----------------------------------------

-- Below 18 the extension gives core's version 7 and 4 functions that the server lacks, with core
-- 18's signatures, labels and comments, in pg_catalog where core has them: so calls, defaults and
-- indexes read the same on every major, and pg_dump prints them unqualified, so that a dump
-- restores on 18 onto core's. 17 has uuid_extract_timestamp (reading version 1 only) and
-- uuid_extract_version; from 18 on, core has all five and the extension creates none.
DO $$
BEGIN
    IF pg_catalog.current_setting('server_version_num')::integer < 180000 THEN
        CREATE OR REPLACE FUNCTION pg_catalog.uuidv7()
        RETURNS uuid
        AS 'MODULE_PATHNAME', 'locality_uuid_uuidv7'
        LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

        COMMENT ON FUNCTION pg_catalog.uuidv7() IS 'generate UUID version 7';

        CREATE OR REPLACE FUNCTION pg_catalog.uuidv7(shift interval)
        RETURNS uuid
        AS 'MODULE_PATHNAME', 'locality_uuid_uuidv7_shift'
        LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

        COMMENT ON FUNCTION pg_catalog.uuidv7(interval) IS
        'generate UUID version 7 with a timestamp shifted by specified interval';

        CREATE OR REPLACE FUNCTION pg_catalog.uuidv4()
        RETURNS uuid
        AS 'MODULE_PATHNAME', 'locality_uuid_uuidv4'
        LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

        COMMENT ON FUNCTION pg_catalog.uuidv4() IS 'generate UUID version 4';
    END IF;
    IF pg_catalog.current_setting('server_version_num')::integer < 170000 THEN

        CREATE OR REPLACE FUNCTION pg_catalog.uuid_extract_timestamp(uuid)
        RETURNS timestamptz
        AS 'MODULE_PATHNAME', 'locality_uuid_extract_timestamp'
        LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

        COMMENT ON FUNCTION pg_catalog.uuid_extract_timestamp(uuid) IS 'extract timestamp from UUID';

        CREATE OR REPLACE FUNCTION pg_catalog.uuid_extract_version(uuid)
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

-- locality_uuid--1.3--1.4.sql ---------------------------------------------------------------

/* locality_uuid--1.3--1.4.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION

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

-- locality_uuid--1.4--1.5.sql ---------------------------------------------------------------

/* locality_uuid--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION

-- Time questions answered by the key: "made since a, before b" as index conditions on the id.

-- "Made at or after since, before before" on the ids' own B-tree. Each spelling is a C function
-- with a planner support function (SupportRequestSimplify) that rewrites it into
-- id >= key(since) AND id <= key(before) AND a check of the id: btree clauses on the id, so
-- index scans, partition pruning and Citus take them, with no preload. True where the id was
-- made in the range, false elsewhere (never NULL). Not strict: the rewrite sees every call.

CREATE FUNCTION uuidv7_made_since(since timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_made_since'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_made_since(timestamptz) IS
'smallest key of the version 7 ids made at or after since (its millisecond rounded up): the nil uuid (every id) at 1970 and earlier, the max uuid (no version 7 id) past 10889-08-02 05:31:50.655 UTC or for NULL; never an error';

CREATE FUNCTION uuidv7_made_before(before timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuidv7_made_before'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_made_before(timestamptz) IS
'largest key of the version 7 ids made before before (its millisecond rounded up): the nil uuid (no version 7 id) at 1970 and earlier or for NULL, the max uuid (every id) past 10889; never an error';

CREATE FUNCTION uuidv7_made_check_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'uuidv7_made_check_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_made_check_support(internal) IS
'planner support of uuidv7_made_check: its selectivity, so that the estimate of uuidv7_made''s expansion is the share of the id''s histogram in the key range';

CREATE FUNCTION uuidv7_made_check(id uuid, since timestamptz, before timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uuidv7_made_check'
LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1
SUPPORT uuidv7_made_check_support;

COMMENT ON FUNCTION uuidv7_made_check(uuid, timestamptz, timestamptz) IS
'the check of the id in uuidv7_made''s expansion: uuidv7_timestamp(id) IS NOT NULL: the id is version 7 of RFC 9562''s variant (false for NULL); since and before only serve the row estimate';

CREATE FUNCTION uuidv7_made_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'uuidv7_made_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_made_support(internal) IS
'planner support of uuidv7_made: rewrites it into btree conditions on the id';

CREATE FUNCTION uuidv7_made(id uuid, since timestamptz DEFAULT '-infinity', before timestamptz DEFAULT 'infinity')
RETURNS boolean
AS 'MODULE_PATHNAME', 'uuidv7_made'
LANGUAGE C IMMUTABLE PARALLEL SAFE
SUPPORT uuidv7_made_support;

COMMENT ON FUNCTION uuidv7_made(uuid, timestamptz, timestamptz) IS
'(uuidv7_timestamp(id) >= since AND uuidv7_timestamp(id) < before) IS TRUE, planned as index conditions on id (its own B-tree, partition pruning): false for other versions, NULL ids and NULL bounds; never an error';

CREATE FUNCTION hot_uuid_made_since(since timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_made_since'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_made_since(timestamptz) IS
'smallest key of the shard-key ids made at or after since (its second rounded up): the nil uuid before 1970, NULL (no id) past 2106-02-07 06:28:15 UTC or for NULL; never an error';

CREATE FUNCTION hot_uuid_made_before(before timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'hot_uuid_made_before'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_made_before(timestamptz) IS
'largest key of the shard-key ids made before before (its second rounded up): NULL (no id) at 1970 and earlier or for NULL, the max uuid past 2106; never an error';

CREATE FUNCTION hot_uuid_made_check_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'hot_uuid_made_check_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_made_check_support(internal) IS
'planner support of hot_uuid_made_check: its selectivity, so that the estimate of hot_uuid_made''s expansion is the share of the id''s histogram in the key range';

CREATE FUNCTION hot_uuid_made_check(id uuid, since timestamptz, before timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'hot_uuid_made_check'
LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1
SUPPORT hot_uuid_made_check_support;

COMMENT ON FUNCTION hot_uuid_made_check(uuid, timestamptz, timestamptz) IS
'the check of the id in hot_uuid_made''s expansion: id IS NOT NULL: every uuid is a shard-key id (false for NULL); since and before only serve the row estimate';

CREATE FUNCTION hot_uuid_made_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'hot_uuid_made_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hot_uuid_made_support(internal) IS
'planner support of hot_uuid_made: rewrites it into btree conditions on the id';

CREATE FUNCTION hot_uuid_made(id uuid, since timestamptz DEFAULT '-infinity', before timestamptz DEFAULT 'infinity')
RETURNS boolean
AS 'MODULE_PATHNAME', 'hot_uuid_made'
LANGUAGE C IMMUTABLE PARALLEL SAFE
SUPPORT hot_uuid_made_support;

COMMENT ON FUNCTION hot_uuid_made(uuid, timestamptz, timestamptz) IS
'(hot_uuid_timestamp(id) >= since AND hot_uuid_timestamp(id) < before) IS TRUE, planned as index conditions on id (its own B-tree, partition pruning); also for uuid_time_nextval(1, 2147483647): false for NULL ids and NULL bounds; never an error';

-- (end of time questions)


-- Leases and trust: a running server learns of a restored lease; the extension's own relations only.

-- (end of leases and trust)


-- Formats: which format could have made an id, and a column's report.

-- (end of formats)
