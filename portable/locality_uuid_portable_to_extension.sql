-- locality_uuid: move a database from the portable SQL edition to the C extension, in one
-- transaction, keeping every column DEFAULT that calls the SQL edition:
--
--     psql -v schema=ids -f portable/locality_uuid_portable_to_extension.sql
--
-- Run it as a role that owns the SQL edition's functions and the tables whose DEFAULTs call
-- them, and that may CREATE EXTENSION (the extension is trusted: CREATE on the database is
-- enough), once the extension's files are installed on the server. The DEFAULTs are dropped,
-- the SQL edition's functions are dropped, the extension is created in the same schema and
-- the DEFAULTs are set again from their text, which now names the extension's functions; the
-- schema of the edition's helpers, <schema>_internal, is dropped. Other
-- objects that use the SQL functions (expression indexes, generated columns, CHECK
-- constraints, partition keys, views) stop the move with an error that lists them: see
-- docs/portable.md for moving those. DEFAULTs that call the edition's uuidv7, uuidv4,
-- uuid_extract_timestamp or uuid_extract_version (made where the server lacked them) call them
-- unqualified afterwards: the extension's, in pg_catalog, or core's.

\set ON_ERROR_STOP on
\if :{?schema}
\else
\set schema public
\endif

SELECT :'schema' || '_internal' AS locality_uuid_internal \gset

BEGIN;
-- An empty search_path makes pg_get_expr write every name with its schema.
SELECT pg_catalog.set_config('search_path', '', true) AS locality_uuid_search_path \gset

-- The functions that every install has must all be there; the version 7 functions (core's
-- names only where the server lacked them) and the helpers the functions call are taken if they
-- are, in the install schema or in <schema>_internal, where the edition keeps its helpers. Dropped in the order listed: the version 7 functions first, which may call the others,
-- the helpers last, each before those it calls.
CREATE TEMP TABLE locality_uuid_portable_functions ON COMMIT DROP AS
SELECT f.oid, s.required, s.n
FROM (SELECT signature, true AS required, 100 + n AS n FROM unnest(ARRAY[
    'locality_uuid()', 'locality_uuid(boolean)', 'locality_uuid_use_sequential_ids()',
    'locality_uuid_use_variable_ids()', 'locality_uuid_timestamp(uuid)', 'locality_uuid_pid(uuid)',
    'locality_uuid_mac(uuid)', 'locality_uuid_node(uuid)', 'locality_uuid_counter(uuid, boolean)',
    'locality_uuid_version(uuid)', 'locality_uuid_make(bigint, integer, integer, timestamptz, boolean)',
    'uuid_sequence_nextval(regclass, integer, integer)', 'uuid_time_nextval(integer, integer)',
    'locality_uuid_block_layout(integer, integer)', 'locality_uuid_block(uuid, integer)',
    'hot_uuid(bigint)', 'hot_uuid(bigint, timestamptz)', 'hot_uuid_shard_key(uuid)',
    'hot_uuid_timestamp(uuid)', 'hot_uuid_boundary(timestamptz)', 'hot_uuid_machine(uuid)',
    'hot_uuid_process(uuid)', 'hot_uuid_counter(uuid)',
    'hot_uuid_make(bigint, timestamptz, bytea, integer, integer)',
    'uuid_time_nextval_interval(interval, integer)', 'locality_uuid_block_layout(interval, integer)',
    'uuid_time_block_start(uuid, integer, integer, timestamptz)',
    'uuid_time_block_start(uuid, interval, integer, timestamptz)'
]) WITH ORDINALITY AS l(signature, n)
      UNION ALL
      SELECT signature, false, n FROM unnest(ARRAY[
    'hot_uuid_time_decoder(text)', 'uuidv7_time_decoder(text)',
    'uuidv7_ordered()', 'uuidv7_ordered(timestamptz)', 'uuidv7_lower(timestamptz)',
    'uuidv7_upper(timestamptz)', 'uuidv7_timestamp(uuid)', 'uuidv7()', 'uuidv7(interval)', 'uuidv4()',
    'uuid_extract_timestamp(uuid)', 'uuid_extract_version(uuid)',
    'uuidv7_to_facade(uuid, bytea)', 'uuidv7_from_facade(uuid, bytea)', 'uuidv7_to_facade(uuid)',
    'uuidv7_from_facade(uuid)', 'uuidv7_made(uuid, timestamptz, timestamptz)', 'uuidv7_made_since(timestamptz)',
    'uuidv7_made_before(timestamptz)', 'hot_uuid_made(uuid, timestamptz, timestamptz)',
    'hot_uuid_made_since(timestamptz)', 'hot_uuid_made_before(timestamptz)'
]) WITH ORDINALITY AS l(signature, n)
      UNION ALL
      SELECT signature, false, 200 + n FROM unnest(ARRAY[
    'locality_uuid_portable_next(boolean, bigint, bigint)', 'locality_uuid_portable_mode(boolean, boolean)',
    'locality_uuid_portable_now()',
    'locality_uuid_portable_state()', 'locality_uuid_portable_hot(boolean, timestamptz, bigint, text)',
    'locality_uuid_portable_machine_name()', 'locality_uuid_portable_explicit_next()',
    'locality_uuid_portable_make_b(bigint, integer, integer, timestamptz, boolean)',
    'locality_uuid_portable_check_finite(timestamptz, text)', 'locality_uuid_portable_check_machine(bytea)',
    'locality_uuid_portable_v7_ordered(bigint)', 'locality_uuid_portable_v7_ordered()', 'locality_uuid_portable_v7(boolean, interval, bigint)',
    'locality_uuid_portable_v7_now()', 'locality_uuid_portable_v7_state()',
    'locality_uuid_portable_v7_explicit_next()', 'locality_uuid_portable_v7_explicit(timestamptz)',
    'locality_uuid_portable_block_start(uuid, bigint, integer, timestamptz)',
    'locality_uuid_portable_check_interval(interval, numeric, integer)',
    'locality_uuid_portable_next(boolean, boolean)', 'locality_uuid_portable_node_id()',
    'locality_uuid_portable_parse_node_id()', 'locality_uuid_portable_system_identifier()',
    'locality_uuid_portable_read_system_identifier()', 'locality_uuid_portable_session_clock(bigint, boolean)',
    'locality_uuid_portable_open_session(bigint, boolean)', 'locality_uuid_portable_check_read_write(text)',
    'locality_uuid_portable_check_allocation(text, integer, text, bigint, text)',
    'locality_uuid_portable_clock(bigint)',
    'locality_uuid_portable_check_clock(bigint)', 'locality_uuid_portable_check_range(text, bigint, bigint)',
    'locality_uuid_portable_hot(bigint, boolean, timestamptz)',
    'locality_uuid_portable_hot_encode(bigint, text, text, bigint, bigint)',
    'locality_uuid_portable_check_shard_key(bigint)', 'locality_uuid_portable_check_blocks(integer, integer, text)',
    'locality_uuid_portable_per_block(integer, integer)', 'locality_uuid_portable_block_us(numeric, integer)',
    'locality_uuid_portable_prefix_bits(integer)', 'locality_uuid_portable_block_uuid(bigint, integer)',
    'locality_uuid_portable_check_interval(interval, integer)', 'locality_uuid_portable_interval_us(interval)',
    'locality_uuid_portable_block_start(uuid, boolean, integer, interval, integer, timestamptz)',
    'locality_uuid_portable_v7(boolean, interval)', 'locality_uuid_portable_v7_ms(timestamptz)',
    'locality_uuid_portable_check_v7_ms(timestamptz)', 'locality_uuid_portable_v7_time(uuid)', 'locality_uuid_portable_facade(uuid, bytea, boolean)',
    'locality_uuid_portable_facade_mask(uuid, bytea, boolean)', 'locality_uuid_portable_facade_key()',
    'locality_uuid_portable_v7_made_since(timestamptz)', 'locality_uuid_portable_v7_made_before(timestamptz)',
    'locality_uuid_portable_hot_made_since(timestamptz)', 'locality_uuid_portable_hot_made_before(timestamptz)'
]) WITH ORDINALITY AS l(signature, n)) AS s,
LATERAL (SELECT pg_catalog.to_regprocedure(pg_catalog.format('%I.%s', nsp, s.signature)) AS oid
         FROM pg_catalog.unnest(ARRAY[:'schema', :'locality_uuid_internal']) AS nsp
         WHERE pg_catalog.to_regnamespace(nsp) IS NOT NULL) f
WHERE f.oid IS NOT NULL;

SELECT pg_catalog.count(*) = 28 AS locality_uuid_found FROM locality_uuid_portable_functions
WHERE required \gset
\if :locality_uuid_found
\else
SELECT pg_catalog.set_config('locality_uuid_portable.schema', :'schema', true) AS locality_uuid_schema \gset
DO $$ BEGIN
    RAISE EXCEPTION 'the portable edition of locality_uuid is not installed in schema %',
                    pg_catalog.current_setting('locality_uuid_portable.schema')
        USING ERRCODE = 'undefined_function';
END $$;
\endif

-- Everything that uses the SQL functions, but for column DEFAULTs and the edition's own
-- functions, stops the move (the SQL edition's own sequences are dropped with it).
SELECT pg_catalog.count(*) = 0 AS locality_uuid_only_defaults,
       coalesce(pg_catalog.string_agg(pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid),
                                                 ', '), '') AS locality_uuid_others
FROM pg_catalog.pg_depend d
WHERE d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
  AND d.refobjid IN (SELECT oid FROM locality_uuid_portable_functions)
  AND d.classid <> 'pg_catalog.pg_attrdef'::pg_catalog.regclass
  AND NOT (d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
           AND d.objid IN (SELECT oid FROM locality_uuid_portable_functions)) \gset
\if :locality_uuid_only_defaults
\else
SELECT pg_catalog.set_config('locality_uuid_portable.others', :'locality_uuid_others', true) AS locality_uuid_others \gset
DO $$ BEGIN
    RAISE EXCEPTION 'objects other than column defaults use the portable edition of locality_uuid'
        USING ERRCODE = 'dependent_objects_still_exist',
              DETAIL = 'Used by: ' || pg_catalog.current_setting('locality_uuid_portable.others') || '.',
              HINT = 'Drop them, move, and create them again (see docs/portable.md).';
END $$;
\endif

-- The text of each DEFAULT, core's names unqualified (the schema's name escaped for the pattern).
CREATE TEMP TABLE locality_uuid_portable_defaults ON COMMIT DROP AS
SELECT ad.adrelid::pg_catalog.regclass::pg_catalog.text AS rel, a.attname,
       pg_catalog.regexp_replace(pg_catalog.pg_get_expr(ad.adbin, ad.adrelid),
           '(?<![[:alnum:]_$".])'
           || pg_catalog.regexp_replace(pg_catalog.quote_ident(:'schema'), '([^[:alnum:]_])', '\\\1', 'g')
           || '\.(uuidv7|uuidv4|uuid_extract_timestamp|uuid_extract_version)(?=\()', '\1', 'g') AS expr
FROM pg_catalog.pg_attrdef ad
JOIN pg_catalog.pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
WHERE ad.oid IN (SELECT d.objid FROM pg_catalog.pg_depend d
                 WHERE d.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass
                   AND d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
                   AND d.refobjid IN (SELECT oid FROM locality_uuid_portable_functions));

SELECT pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT', rel, attname)
FROM locality_uuid_portable_defaults \gexec

SELECT pg_catalog.format('DROP FUNCTION %s', oid::pg_catalog.regprocedure)
FROM locality_uuid_portable_functions ORDER BY n \gexec
DROP SEQUENCE :"schema".locality_uuid_portable_explicit;
DROP SEQUENCE IF EXISTS :"schema".locality_uuid_portable_v7_explicit;
-- The helpers' schema, empty now (anything else in it stops the move).
DROP SCHEMA IF EXISTS :"locality_uuid_internal";

CREATE EXTENSION locality_uuid SCHEMA :"schema";

SELECT pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', rel, attname, expr)
FROM locality_uuid_portable_defaults \gexec

SELECT pg_catalog.count(*) AS defaults_moved FROM locality_uuid_portable_defaults;
COMMIT;
