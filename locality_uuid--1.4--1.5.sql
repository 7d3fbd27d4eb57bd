/* locality_uuid--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION locality_uuid UPDATE TO '1.5'" to load this file. \quit

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

-- The database's owner may set the extension's sequences as the extension's owner may (1.4): a
-- restore by the database owner into a database where a superuser created the extension sets
-- them (pg_dump writes setval for each), so that ids made after it sort above the restored ones.
-- pg_database_owner is whoever owns the database at the time; pg_init_privs records the grant,
-- so a dump carries none. The sequences are the extension's members (pg_depend), never looked
-- up by name; operators on exact pg_catalog types only, as this runs as a superuser.
DO $$
DECLARE
    seq pg_catalog.regclass;
BEGIN
    FOR seq IN
        SELECT d.objid::pg_catalog.regclass
        FROM pg_catalog.pg_depend AS d
        WHERE d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
          AND d.refobjid = (SELECT e.oid FROM pg_catalog.pg_extension AS e WHERE e.extname = 'locality_uuid')
          AND d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
          AND d.deptype = 'e'
          AND (SELECT c.relkind FROM pg_catalog.pg_class AS c WHERE c.oid = d.objid) = 'S'
        ORDER BY 1
    LOOP
        EXECUTE pg_catalog.format('GRANT SELECT, UPDATE ON SEQUENCE %s TO pg_database_owner', seq);
    END LOOP;
END
$$;

-- (end of leases and trust)


-- Formats: which format could have made an id, and a column's report.

CREATE FUNCTION locality_uuid_describe(
    id uuid,
    as_of timestamptz DEFAULT now(),
    OUT format text,
    OUT version integer,
    OUT variant text,
    OUT kind text,
    OUT made_at timestamptz,
    OUT time_exact boolean,
    OUT orders_by_time boolean,
    OUT id_time boolean)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'locality_uuid_describe'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 2;

COMMENT ON FUNCTION locality_uuid_describe(uuid, timestamptz) IS
'Which of this extension''s formats could have made an id (locality, block, v7, v1, v6, hot), one row each (one row with a NULL format when none could), with RFC 9562''s version, variant and kind, the time each reading gives, whether the bits fix it or it is a guess, whether the format''s ids sort by it, and which row gives the id''s time; shard-key readings are plausible when their second lies in the ten years before as_of to a day after';

CREATE FUNCTION locality_uuid_column_report(
    tab regclass,
    col name,
    sample_rows integer DEFAULT 10000,
    OUT item text,
    OUT value text,
    OUT detail text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'locality_uuid_column_report'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 20;

COMMENT ON FUNCTION locality_uuid_column_report(regclass, name, integer) IS
'A report on a uuid column from a sample of about sample_rows rows (TABLESAMPLE, in heap order; the caller needs SELECT on the column and ctid, or on the table): the share of each format and version, the time span, how well key order follows insert order, for its B-tree index the leaf density (pgstattuple''s pgstatindex, where installed and granted) and the leaves the newest keys touch, and the generator docs/choosing.md picks';

-- (end of formats)
