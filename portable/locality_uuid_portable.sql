-- locality_uuid, portable SQL edition: the extension's functions in SQL and PL/pgSQL, for
-- servers that do not take C extensions. No C, no superuser; install as an ordinary user:
--
--     psql -v schema=ids -f portable/locality_uuid_portable.sql
--
-- The schema (default public) is created if it does not exist, and so is the schema of the
-- edition's helpers, <schema>_internal: that needs CREATE on the database, unless a DBA made
-- <schema>_internal for the installing role (CREATE SCHEMA ... AUTHORIZATION); then CREATE on
-- the install schema is enough. Same names, argument names, defaults,
-- labels, comments, results and SQLSTATEs as the C extension (test/t/164_portable_catalog.pl
-- compares the two); what cannot match is listed in docs/portable.md. Running it again
-- replaces the functions in place (CREATE OR REPLACE).
--
-- This file is assembled by `make portable` from portable/src/: edit those. Each source is
-- plain SQL that names the install schema @extschema@, as an extension script does, and the
-- helpers' schema @internal@; here each is run with both replaced by the quoted schema names.
--
-- No name is looked up in the caller's search_path: SQL functions have SQL-standard bodies,
-- bound when they are created (with search_path pg_catalog, pg_temp: an object planted in the
-- install schema or elsewhere is never taken for a built-in one), and every PL/pgSQL function
-- runs with search_path pg_catalog, pg_temp (functions and operators are never looked up in
-- pg_temp) and names this file's own helpers with <schema>_internal, where no other role may
-- create, with their exact argument types.
--
-- Session state (counters, the last millisecond and clock tick used) lives in temporary
-- sequences, made in the caller's pg_temp on the first generated id of a session: sequences
-- are not rewound by a rollback. Identity comes from settings: the process field is
-- pg_backend_pid() % 65536; locality_uuid.node_id and locality_uuid.machine_name default to the
-- cluster's system identifier (pg_control_system()).

\set ON_ERROR_STOP on
\if :{?schema}
\else
\set schema public
\endif

BEGIN;
SELECT NOT EXISTS (SELECT FROM pg_namespace WHERE nspname = :'schema') AS locality_uuid_new_schema \gset
\if :locality_uuid_new_schema
CREATE SCHEMA :"schema";
\endif
\unset locality_uuid_new_schema
SET LOCAL search_path = pg_catalog, pg_temp;
SET LOCAL check_function_bodies = on;
SET LOCAL client_min_messages = warning;

-- The edition's helpers (its functions that are not the extension's names) live in the schema
-- <schema>_internal, which only the installing role may create in: the functions of the
-- install schema call them there, so a look-alike planted beside them (by a role with CREATE
-- on the install schema) is never a candidate, at run time or when pg_dump's output or
-- pg_upgrade parses their bodies again. The install makes the schema; an existing one is used
-- only if the installing role owns it and no other role may create in it (42501 otherwise).
SELECT :'schema' || '_internal' AS locality_uuid_internal,
       octet_length(:'schema' || '_internal') < 64 AS locality_uuid_internal_fits,
       NOT EXISTS (SELECT FROM pg_namespace WHERE nspname = :'schema' || '_internal') AS locality_uuid_new_internal \gset
\if :locality_uuid_internal_fits
\else
SELECT format('DO $locality_uuid_refuse$ BEGIN RAISE EXCEPTION %L USING ERRCODE = %L, DETAIL = %L; END $locality_uuid_refuse$',
              'the schema name ' || quote_ident(:'schema') || ' is too long for the portable edition',
              'name_too_long',
              'The edition keeps its helpers in the schema ' || :'schema' || '_internal, whose name must fit in 63 bytes.')
\gexec
\endif
\if :locality_uuid_new_internal
CREATE SCHEMA :"locality_uuid_internal";
\endif
\unset locality_uuid_internal_fits
\unset locality_uuid_new_internal
-- Every object of a schema, of any kind (tables, views, sequences, types, domains, operators,
-- functions, aggregates, ...), depends on it in pg_depend; each that is not the schema owner's,
-- or whose kind has no owner, is another role's: "<object> owned by <role>".
CREATE TEMP VIEW locality_uuid_foreign_objects AS
SELECT d.refobjid AS nsp,
       pg_describe_object(d.classid, d.objid, 0) || ' owned by ' || coalesce(o.owner::regrole::text, 'no role') AS object
FROM pg_depend d
JOIN pg_namespace n ON n.oid = d.refobjid
CROSS JOIN LATERAL (SELECT CASE d.classid
    WHEN 'pg_class'::regclass THEN (SELECT relowner FROM pg_class WHERE oid = d.objid)
    WHEN 'pg_type'::regclass THEN (SELECT typowner FROM pg_type WHERE oid = d.objid)
    WHEN 'pg_proc'::regclass THEN (SELECT proowner FROM pg_proc WHERE oid = d.objid)
    WHEN 'pg_operator'::regclass THEN (SELECT oprowner FROM pg_operator WHERE oid = d.objid)
    WHEN 'pg_opclass'::regclass THEN (SELECT opcowner FROM pg_opclass WHERE oid = d.objid)
    WHEN 'pg_opfamily'::regclass THEN (SELECT opfowner FROM pg_opfamily WHERE oid = d.objid)
    WHEN 'pg_collation'::regclass THEN (SELECT collowner FROM pg_collation WHERE oid = d.objid)
    WHEN 'pg_conversion'::regclass THEN (SELECT conowner FROM pg_conversion WHERE oid = d.objid)
    WHEN 'pg_ts_config'::regclass THEN (SELECT cfgowner FROM pg_ts_config WHERE oid = d.objid)
    WHEN 'pg_ts_dict'::regclass THEN (SELECT dictowner FROM pg_ts_dict WHERE oid = d.objid)
    WHEN 'pg_statistic_ext'::regclass THEN (SELECT stxowner FROM pg_statistic_ext WHERE oid = d.objid)
    WHEN 'pg_extension'::regclass THEN (SELECT extowner FROM pg_extension WHERE oid = d.objid)
    END AS owner) o
WHERE d.refclassid = 'pg_namespace'::regclass
  AND n.nspname = :'locality_uuid_internal'
  AND o.owner IS DISTINCT FROM n.nspowner;
SELECT format('DO $locality_uuid_refuse$ BEGIN RAISE EXCEPTION %L USING ERRCODE = %L, DETAIL = %L, HINT = %L; END $locality_uuid_refuse$',
              'schema ' || quote_ident(:'locality_uuid_internal') || ' is not the portable edition''s own',
              'insufficient_privilege',
              'The edition keeps its helpers in ' || quote_ident(:'locality_uuid_internal')
              || ', which must be owned by the installing role ' || quote_ident(current_user)
              || ' with no other role allowed to create in it; it is owned by ' || n.nspowner::regrole
              || coalesce(', and ' || (SELECT string_agg(CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE a.grantee::regrole::text END, ', ')
                                       FROM aclexplode(n.nspacl) a
                                       WHERE a.privilege_type = 'CREATE' AND a.grantee <> n.nspowner)
                          || ' may create in it', '')
              || coalesce(', and it holds ' || (SELECT string_agg(o.object, ', ' ORDER BY o.object)
                                                FROM locality_uuid_foreign_objects o WHERE o.nsp = n.oid), '')
              || '.',
              'Drop or rename that schema, or have its owner give it to the installing role and revoke CREATE from the others.')
FROM pg_namespace n
WHERE n.nspname = :'locality_uuid_internal'
  AND (n.nspowner <> current_user::regrole
       OR EXISTS (SELECT FROM aclexplode(n.nspacl) a WHERE a.privilege_type = 'CREATE' AND a.grantee <> n.nspowner)
       OR EXISTS (SELECT FROM locality_uuid_foreign_objects o WHERE o.nsp = n.oid))
\gexec
DROP VIEW locality_uuid_foreign_objects;
GRANT USAGE ON SCHEMA :"locality_uuid_internal" TO PUBLIC;
COMMENT ON SCHEMA :"locality_uuid_internal" IS
'helpers of the locality_uuid portable edition installed in the schema without the _internal suffix; no other role may create here';

-- The edition knows exactly which functions of the install schema it made: their signatures are
-- kept in <schema>_internal.locality_uuid_portable_made, which the removal and the move to the
-- C extension read. finish.psql records every function of the install schema that this
-- transaction wrote (created or replaced), and refuses a function of the installing role that
-- existed before, with an argument list the edition would replace, and is not recorded: the
-- edition does not take over what it did not make. An install made before the record existed
-- (its allocation sequence is there, the record is not) has every function it replaces recorded.
CREATE TEMP TABLE locality_uuid_portable_before ON COMMIT DROP AS
SELECT p.oid FROM pg_proc p WHERE p.pronamespace = quote_ident(:'schema')::regnamespace;
SELECT to_regclass(format('%I.locality_uuid_portable_made', :'locality_uuid_internal')) IS NULL
       AND to_regclass(format('%I.locality_uuid_portable_explicit', :'schema')) IS NOT NULL AS locality_uuid_adopt \gset
CREATE TABLE IF NOT EXISTS :"locality_uuid_internal".locality_uuid_portable_made (signature text PRIMARY KEY);
REVOKE ALL ON TABLE :"locality_uuid_internal".locality_uuid_portable_made FROM PUBLIC;
COMMENT ON TABLE :"locality_uuid_internal".locality_uuid_portable_made IS
'the functions of the schema without the _internal suffix that the locality_uuid portable edition made (name and argument types), which its removal and its move to the C extension drop';

-- Allocation numbers of ids at an explicit time (hot_uuid(shard_key, at), uuidv7_ordered(at)):
-- ordinary sequences of the install schema (WAL-logged, so they never go back across restarts,
-- failover, dump and restore), owned by the installer, with no privilege for anyone else;
-- callers take numbers only through locality_uuid_portable_explicit_next() and
-- locality_uuid_portable_v7_explicit_next(), so that no other role can setval them. An
-- existing relation or type of either name is used only if it is a sequence of the installing
-- role; anything else stops the install (42710), naming it, with nothing made.
SELECT format('DO $locality_uuid_refuse$ BEGIN RAISE EXCEPTION %L USING ERRCODE = %L, DETAIL = %L, HINT = %L; END $locality_uuid_refuse$',
              'objects of the names the portable edition would create exist in schema ' || quote_ident(:'schema'),
              'duplicate_object',
              'The edition keeps its allocation numbers in sequences of the installing role ' || quote_ident(current_user)
              || ' named ' || quote_ident(:'schema') || '.locality_uuid_portable_explicit and '
              || quote_ident(:'schema') || '.locality_uuid_portable_v7_explicit; these exist: '
              || string_agg(o.object, ', ' ORDER BY o.object) || '.',
              'Drop or rename them, or install the edition into another schema.')
FROM (SELECT pg_describe_object('pg_class'::regclass, c.oid, 0) || ' owned by ' || c.relowner::regrole AS object
      FROM pg_class c
      WHERE c.relnamespace = quote_ident(:'schema')::regnamespace
        AND c.relname IN ('locality_uuid_portable_explicit', 'locality_uuid_portable_v7_explicit')
        AND (c.relkind <> 'S' OR c.relowner <> current_user::regrole)
      UNION ALL
      SELECT pg_describe_object('pg_type'::regclass, t.oid, 0) || ' owned by ' || t.typowner::regrole
      FROM pg_type t
      WHERE t.typnamespace = quote_ident(:'schema')::regnamespace
        AND t.typname IN ('locality_uuid_portable_explicit', 'locality_uuid_portable_v7_explicit')
        AND t.typrelid = 0) o
HAVING count(*) > 0
\gexec
CREATE SEQUENCE IF NOT EXISTS :"schema".locality_uuid_portable_explicit;
CREATE SEQUENCE IF NOT EXISTS :"schema".locality_uuid_portable_v7_explicit;
REVOKE ALL ON SEQUENCE :"schema".locality_uuid_portable_explicit, :"schema".locality_uuid_portable_v7_explicit
    FROM PUBLIC;
COMMENT ON SEQUENCE :"schema".locality_uuid_portable_explicit IS
'allocation numbers of hot_uuid(shard_key, at) ids: 39 bits in the process field (65535 - n >> 23) and counter (8388608 | n & 8388607), each handed out once (taken through locality_uuid_portable_explicit_next())';
COMMENT ON SEQUENCE :"schema".locality_uuid_portable_v7_explicit IS
'allocation numbers of uuidv7_ordered(at) ids: 41 bits after the millisecond, each handed out once (taken through locality_uuid_portable_v7_explicit_next())';

-- uuid_time_nextval_interval(interval, integer) is named so that every call of sequential_uuids'
-- uuid_time_nextval (untyped literals, NULL, parameters of unknown type) finds the integer form
-- alone. An install that has uuid_time_nextval(interval, integer) gets it renamed, so that
-- column DEFAULTs that call it keep working.
SELECT to_regprocedure(format('%I.uuid_time_nextval(interval, integer)', :'schema')) IS NOT NULL
       AND to_regprocedure(format('%I.uuid_time_nextval_interval(interval, integer)', :'schema')) IS NULL
       AS locality_uuid_rename \gset
\if :locality_uuid_rename
ALTER FUNCTION :"schema".uuid_time_nextval(interval, integer) RENAME TO uuid_time_nextval_interval;
\endif
\unset locality_uuid_rename

-- Core's names where the server lacks them, as the C extension: uuidv7 and uuidv4 before
-- PostgreSQL 18, uuid_extract_timestamp and uuid_extract_version before 17.
SELECT current_setting('server_version_num')::integer < 180000 AS locality_uuid_core_generators,
       current_setting('server_version_num')::integer < 170000 AS locality_uuid_core_extractors \gset
-- Creating them must not change what another role's code calls: a function of one of those
-- names in any other schema (which a search_path may put after or before this one), or in the
-- install schema but owned by another role, stops the install (42723), naming them; the
-- installing role's own other installs of this edition do not.
SELECT format('DO $locality_uuid_refuse$ BEGIN RAISE EXCEPTION %L USING ERRCODE = %L, DETAIL = %L, HINT = %L; END $locality_uuid_refuse$',
              'functions of the names the portable edition would create exist in this database',
              'duplicate_function',
              'Installed into ' || quote_ident(:'schema') || ', the edition would create ' || names
              || '; these exist: ' || string_agg(format('%s owned by %s', p.oid::regprocedure, p.proowner::regrole), ', '
                                                 ORDER BY p.oid::regprocedure::text)
              || '. Calls of them by name could then reach the edition''s instead.',
              'Drop or rename them, or install the edition on PostgreSQL 18, which has these functions in pg_catalog.')
FROM pg_proc p,
     (SELECT array_to_string(ARRAY['uuidv7', 'uuidv4'] || CASE WHEN :'locality_uuid_core_extractors'::boolean
                                                               THEN ARRAY['uuid_extract_timestamp', 'uuid_extract_version']
                                                               ELSE '{}' END, ', ') AS names) n
WHERE :'locality_uuid_core_generators'::boolean
  AND (p.proname IN ('uuidv7', 'uuidv4')
       OR (:'locality_uuid_core_extractors'::boolean AND p.proname IN ('uuid_extract_timestamp', 'uuid_extract_version')))
  AND p.pronamespace <> 'pg_catalog'::regnamespace
  AND p.pronamespace <> coalesce(pg_my_temp_schema(), 0)
  AND (SELECT nspname FROM pg_namespace WHERE oid = p.pronamespace) NOT LIKE 'pg\_temp\_%'
  AND (p.pronamespace <> quote_ident(:'schema')::regnamespace OR p.proowner <> current_user::regrole)
  -- another install of this edition by the same role is its own
  AND NOT (p.proowner = current_user::regrole
           AND EXISTS (SELECT FROM pg_proc q JOIN pg_namespace qn ON qn.oid = q.pronamespace
                       WHERE qn.nspname IN ((SELECT nspname FROM pg_namespace WHERE oid = p.pronamespace),
                                            (SELECT nspname || '_internal' FROM pg_namespace WHERE oid = p.pronamespace))
                         AND q.proname = 'locality_uuid_portable_state'
                         AND q.proowner = current_user::regrole))
GROUP BY n.names
\gexec

-- portable/src/state.sql
SELECT replace(replace($locality_uuid_portable$
-- Session state, allocation numbers and the checks every generator shares.
--
-- Every helper of the edition is in <schema>_internal (@internal@), where only the installing
-- role may create, so no look-alike can stand beside one. PL/pgSQL bodies run with search_path
-- pg_catalog, pg_temp and call the helpers there, schema-qualified and with their exact
-- argument types; the functions of the install schema are SQL-standard bodies (bound to the
-- functions' oids when they are created) that call the helpers only. Each generator is one
-- PL/pgSQL function, inlined SQL around it: a SQL-standard body of several statements, or with
-- a subquery, is planned again for every query that calls it and never inlined.

-- Make this session's state on its first id: five temporary sequences (the variable counter,
-- the sequential counter and its bucket, the last millisecond and the modes used in it, the
-- first counters of each mode in that millisecond, hot_uuid's last clock tick).
-- They belong to the role that installed this file and every role may use them, so SET ROLE
-- within a session keeps one set of counters and a role that made ids can still be dropped. A
-- rollback of the transaction that made them drops them again (the next id makes them anew);
-- their values are never rewound.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_state()
RETURNS void
AS $body$
DECLARE
    us bigint := floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
BEGIN
    IF to_regclass('pg_temp.locality_uuid_portable_arc') IS NOT NULL THEN
        RETURN;
    END IF;
    -- State without the arc (made by an install that kept none): the arc alone is added.
    IF to_regclass('pg_temp.locality_uuid_portable_hot_tick') IS NOT NULL THEN
        CREATE TEMP SEQUENCE locality_uuid_portable_arc MINVALUE -9223372036854775808;
        GRANT ALL ON SEQUENCE locality_uuid_portable_arc TO PUBLIC;
        PERFORM setval('pg_temp.locality_uuid_portable_arc', 0);
        PERFORM setval('pg_temp.locality_uuid_portable_last_ms',
                       pg_sequence_last_value('pg_temp.locality_uuid_portable_last_ms'::regclass) * 4);
        RETURN;
    END IF;
    -- Without IF NOT EXISTS: a relation of that name already in the caller's pg_temp (made by
    -- the caller) is an error, so this function touches only the sequences it made itself.
    CREATE TEMP SEQUENCE locality_uuid_portable_variable MINVALUE -9223372036854775808;
    CREATE TEMP SEQUENCE locality_uuid_portable_sequential MINVALUE -9223372036854775808;
    CREATE TEMP SEQUENCE locality_uuid_portable_last_ms MINVALUE -9223372036854775808;
    CREATE TEMP SEQUENCE locality_uuid_portable_hot_tick MINVALUE -9223372036854775808;
    CREATE TEMP SEQUENCE locality_uuid_portable_arc MINVALUE -9223372036854775808;
    GRANT ALL ON SEQUENCE locality_uuid_portable_variable, locality_uuid_portable_sequential,
        locality_uuid_portable_last_ms, locality_uuid_portable_hot_tick, locality_uuid_portable_arc
        TO PUBLIC;
    -- Variable counter: value v gives counter (v * 198491317) mod 2^32, from a random start.
    PERFORM setval('pg_temp.locality_uuid_portable_variable',
                   ('x' || left(gen_random_uuid()::text, 8))::bit(32)::bigint, false);
    -- Sequential counter: (bucket << 33) + seed + n; a value that no bucket has forces a seed.
    PERFORM setval('pg_temp.locality_uuid_portable_sequential', -1099511627776);
    PERFORM setval('pg_temp.locality_uuid_portable_last_ms', 0);
    PERFORM setval('pg_temp.locality_uuid_portable_arc', 0);
    -- The clock tick of now (2^23 a second, within the clock's range): the first id takes a
    -- later one.
    us := least(greatest(us, 0), 253402300799999999);
    PERFORM setval('pg_temp.locality_uuid_portable_hot_tick',
                   us / 1000000 * 8388608 + us % 1000000 * 8388608 / 1000000);
END
$body$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_state() IS
'make this session''s generator state (temporary sequences) if it has none; called by the generators of the portable edition';

-- Make this session's version 7 state if it has none: three temporary sequences, apart from
-- the other generators' (a session that makes no version 7 id never makes them), owned and
-- granted as theirs are. uuidv7() keeps the last nanosecond it used as a base millisecond and
-- the nanoseconds since it (a bigint of nanoseconds from 1970 ends in 2262); uuidv7_ordered()
-- keeps its last ordering key, millisecond << 15 | fraction << 3 | counter.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_v7_state()
RETURNS void
AS $body$
BEGIN
    IF to_regclass('pg_temp.locality_uuid_portable_v7_ordered') IS NOT NULL THEN
        RETURN;
    END IF;
    CREATE TEMP SEQUENCE locality_uuid_portable_v7_base MINVALUE -9223372036854775808;
    CREATE TEMP SEQUENCE locality_uuid_portable_v7_ns MINVALUE -9223372036854775808;
    CREATE TEMP SEQUENCE locality_uuid_portable_v7_ordered MINVALUE -9223372036854775808;
    GRANT ALL ON SEQUENCE locality_uuid_portable_v7_base, locality_uuid_portable_v7_ns,
        locality_uuid_portable_v7_ordered TO PUBLIC;
    PERFORM setval('pg_temp.locality_uuid_portable_v7_base', 0);
    PERFORM setval('pg_temp.locality_uuid_portable_v7_ns', 0);
    PERFORM setval('pg_temp.locality_uuid_portable_v7_ordered', 0);
END
$body$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_v7_state() IS
'make this session''s version 7 state (temporary sequences) if it has none; called by the version 7 generators of the portable edition';

-- Raise 22003, as the C extension's composers do, unless value (the argument name) is within 0 .. max.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_check_range(name text, value bigint, max bigint)
RETURNS void
AS $body$
BEGIN
    IF value < 0 OR value > max THEN
        RAISE EXCEPTION '% % is out of range', name, value
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = format('The %s must be between 0 and %s.', name, max);
    END IF;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_check_range(text, bigint, bigint) IS
'raise 22003 unless value (the argument called name) is within 0 .. max; called by the portable edition''s composers';

-- Raise 22008, as the C extension does, unless at (the argument called name) is finite.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_check_finite(at timestamptz, name text)
RETURNS void
AS $body$
BEGIN
    IF NOT isfinite(at) THEN
        RAISE EXCEPTION '% must be a finite timestamp', name USING ERRCODE = 'datetime_field_overflow';
    END IF;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_check_finite(timestamptz, text) IS
'raise 22008 unless at (the argument called name) is a finite timestamp; called by the portable edition''s composers and bounds';

-- A clock reading us (Unix microseconds), or 22008 as the C extension raises it outside
-- 1970-01-01 00:00:00 to 9999-12-31 23:59:59.999999 UTC, the range the generators read. The
-- generators read the clock into us and check it through locality_uuid_portable_clock(us) (or
-- locality_uuid_portable_session_clock, which also makes the session's state), before any state
-- changes.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_check_clock(us bigint)
RETURNS bigint
AS $body$
BEGIN
    IF us < 0 OR us > 253402300799999999 THEN
        RAISE EXCEPTION 'system clock is out of the range the generators read'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = format('The system clock reads %s seconds from 1970-01-01 UTC; the generators read it from 0 to 253402300799 (1970-01-01 to 9999-12-31 UTC).',
                                  floor(us / 1000000.0));
    END IF;
    RETURN us;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_check_clock(bigint) IS
'a clock reading (Unix microseconds), or 22008 if it is outside 1970 to 9999, the range the generators read; called through locality_uuid_portable_clock()';

-- The same, inlined into the generators: a reading within the range here, any other through
-- the check, which raises.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_clock(us bigint)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN us BETWEEN 0 AND 253402300799999999 THEN us
            ELSE @internal@.locality_uuid_portable_check_clock(us) END;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_clock(bigint) IS
'a clock reading (Unix microseconds), or 22008 if it is outside 1970 to 9999, the range the generators read; called by the generators of the portable edition';

-- Check a clock reading us and make this session's state if it has none (v7: the version 7
-- state, else the other generators'), the clock first, so that a reading out of range changes
-- no state; returns us. Called through locality_uuid_portable_session_clock.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_open_session(us bigint, v7 boolean)
RETURNS bigint
AS $body$
BEGIN
    us := @internal@.locality_uuid_portable_check_clock(us);
    IF v7 THEN
        PERFORM @internal@.locality_uuid_portable_v7_state();
    ELSE
        PERFORM @internal@.locality_uuid_portable_state();
    END IF;
    RETURN us;
END
$body$
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_open_session(bigint, boolean) IS
'a clock reading (Unix microseconds) checked as locality_uuid_portable_check_clock does, after which this session''s state (the version 7 state if v7) is made if it has none; called through locality_uuid_portable_session_clock()';

-- The same, inlined into the stateful generators: a reading within the range, in a session
-- whose state is made, here; any other through locality_uuid_portable_open_session.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_session_clock(us bigint, v7 boolean)
RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN CASE WHEN us BETWEEN 0 AND 253402300799999999
                 AND to_regclass(CASE WHEN v7 THEN 'pg_temp.locality_uuid_portable_v7_ordered'
                                      ELSE 'pg_temp.locality_uuid_portable_arc' END) IS NOT NULL THEN us
            ELSE @internal@.locality_uuid_portable_open_session(us, v7) END;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_session_clock(bigint, boolean) IS
'a clock reading (Unix microseconds), or 22008 if it is outside 1970 to 9999, in a session whose state (the version 7 state if v7) is made; called by the stateful generators of the portable edition';

-- Raise 25006 in a read-only transaction, which the generator what cannot run in: it advances a
-- sequence.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_check_read_write(what text)
RETURNS void
AS $body$
BEGIN
    IF current_setting('transaction_read_only') = 'on' THEN
        RAISE EXCEPTION '% cannot run in a read-only transaction', what
            USING ERRCODE = 'read_only_sql_transaction',
                  DETAIL = 'It advances a sequence, which a read-only transaction or a standby cannot do.',
                  HINT = 'Call it on the primary, in a read-write transaction.';
    END IF;
END
$body$
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_check_read_write(text) IS
'raise 25006 in a read-only transaction, which the generator what cannot run in (it advances a sequence); called by the portable edition''s generators in a read-only transaction';

-- Raise 54000 once n, an allocation number of ids at explicit times that the generator what
-- took from its sequence seq (in the install schema), passes bits bits; call makes ids of the
-- clock instead.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_check_allocation(what text, bits integer, seq text,
                                                                       n bigint, call text)
RETURNS void
AS $body$
BEGIN
    IF n >= 1::bigint << bits THEN
        RAISE EXCEPTION '% used up all % allocation numbers of ids at explicit times', what, 1::bigint << bits
            USING ERRCODE = 'program_limit_exceeded',
                  DETAIL = format('An id at an explicit time carries a %s-bit allocation number, handed out once; the sequence %s.%s is at %s.',
                                  bits, '@extschema@', seq, n),
                  HINT = format('Make further ids with the current time (%s).', call);
    END IF;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_check_allocation(text, integer, text, bigint, text) IS
'raise 54000 once n, an allocation number of ids at explicit times that the generator what took from its sequence seq, passes bits bits; called by the portable edition''s generators once their numbers run out';

-- The cluster's system identifier, read once per session (a setting caches it).
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_read_system_identifier()
RETURNS text
AS $body$
DECLARE
    system_identifier text := (SELECT c.system_identifier::text FROM pg_control_system() c);
BEGIN
    PERFORM set_config('locality_uuid_portable.system_identifier', system_identifier, false);
    RETURN system_identifier;
END
$body$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_read_system_identifier() IS
'read the cluster''s system identifier (pg_control_system()) and cache it in this session; called through locality_uuid_portable_system_identifier()';

CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_system_identifier()
RETURNS text
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN coalesce(nullif(current_setting('locality_uuid_portable.system_identifier', true), ''),
                @internal@.locality_uuid_portable_read_system_identifier());

COMMENT ON FUNCTION @internal@.locality_uuid_portable_system_identifier() IS
'the cluster''s system identifier, as cached in this session; the default node and machine name of the portable edition';
$locality_uuid_portable$, '@extschema@', quote_ident(:'schema')), '@internal@', quote_ident(:'locality_uuid_internal')) \gexec

-- portable/src/locality_b.sql
SELECT replace(replace($locality_uuid_portable$
-- Locality uuid, version "b": the generators, the mode switches, the extractors and make.

-- Read locality_uuid.node_id (or the default) as PostgreSQL reads an integer setting (parse_int
-- of guc.c, which reads the C extension's node_id): exactly the strings it accepts and refuses.
-- C's strtol with base 0 (0x hex, leading 0 octal), read again with strtod if it stops at '.',
-- 'e' or 'E' or overflows 64 bits, trailing white space, rounded half to even, within int, then
-- -1 .. 268435455. Empty is the default, as unset: it is what RESET leaves, and SQL cannot tell
-- the two apart. The default is -1 (locality_uuid_portable_node_id() reads it as the low 28 bits
-- of the system identifier).
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_parse_node_id()
RETURNS bigint
AS $body$
DECLARE
    node_text text;
    node bigint;
BEGIN
    node_text := current_setting('locality_uuid.node_id', true);
    IF node_text IS NULL OR node_text = '' THEN
        node := -1;
    ELSIF node_text ~ '^(0|[1-9][0-9]{0,8})$' THEN
        node := node_text::bigint;
    ELSE
        DECLARE
            ws text := '[' || chr(32) || chr(9) || chr(10) || chr(11) || chr(12) || chr(13) || ']*';
            part text[];
            digits text;
            v numeric := 0;
            e numeric;
            d float8;
            endpos integer := 0;
        BEGIN
            part := regexp_match(node_text, '^(' || ws || '([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*))');
            IF part IS NOT NULL THEN
                endpos := length(part[1]);
                digits := lower(part[3]);
                IF digits LIKE '0x%' THEN
                    FOR k IN 3 .. length(digits) LOOP
                        v := v * 16 + strpos('0123456789abcdef', substr(digits, k, 1)) - 1;
                    END LOOP;
                ELSIF digits LIKE '0%' THEN
                    FOR k IN 2 .. length(digits) LOOP
                        v := v * 8 + substr(digits, k, 1)::integer;
                    END LOOP;
                ELSE
                    v := digits::numeric;
                END IF;
                IF part[2] = '-' THEN
                    v := -v;
                END IF;
            END IF;
            IF substr(node_text, endpos + 1, 1) IN ('.', 'e', 'E')
               OR v NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN
                -- strtod: a hexadecimal or a decimal float; out of double's range (ERANGE,
                -- subnormal included) it is refused.
                endpos := 0;
                part := regexp_match(node_text, '^(' || ws || '([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)([pP][+-]?[0-9]+)?)');
                IF part IS NOT NULL AND part[3] || part[4] <> '' THEN
                    endpos := length(part[1]);
                    digits := ltrim(lower(part[3] || part[4]), '0');
                    e := coalesce(substr(part[5], 2)::numeric, 0) - 4 * length(part[4]);
                    v := 0;
                    FOR k IN 1 .. length(digits) LOOP
                        v := v * 16 + strpos('0123456789abcdef', substr(digits, k, 1)) - 1;
                    END LOOP;
                    IF v = 0 THEN
                        d := 0;
                    ELSIF abs(e + 4 * length(digits)) < 1100 THEN
                        BEGIN
                            d := CASE WHEN e >= 0 THEN v * 2::numeric ^ e ELSE v / 2::numeric ^ (-e) END;
                        EXCEPTION WHEN numeric_value_out_of_range THEN
                            d := NULL;
                        END;
                    END IF;
                    IF part[2] = '-' THEN
                        d := -d;
                    END IF;
                ELSE
                    part := regexp_match(node_text, '^(' || ws || '([+-]?)([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)');
                    IF part IS NOT NULL THEN
                        endpos := length(part[1]);
                        BEGIN
                            d := (part[2] || part[3] || coalesce(part[4], ''))::float8;
                        EXCEPTION WHEN numeric_value_out_of_range THEN
                            d := NULL;
                        END;
                    END IF;
                END IF;
                IF d IS NULL OR (d <> 0 AND abs(d) < 2.2250738585072014e-308) THEN
                    endpos := 0;
                END IF;
            ELSE
                d := v;
            END IF;
            IF endpos = 0 OR substr(node_text, endpos + 1) !~ ('^' || ws || '$') THEN
                RAISE EXCEPTION 'invalid value for parameter "locality_uuid.node_id": "%"', node_text
                    USING ERRCODE = 'invalid_parameter_value';
            END IF;
            d := round(d);
            IF d NOT BETWEEN -2147483648 AND 2147483647 THEN
                RAISE EXCEPTION 'invalid value for parameter "locality_uuid.node_id": "%"', node_text
                    USING ERRCODE = 'invalid_parameter_value', HINT = 'Value exceeds integer range.';
            END IF;
            node := d;
        END;
    END IF;
    IF node NOT BETWEEN -1 AND 268435455 THEN
        RAISE EXCEPTION '% is outside the valid range for parameter "locality_uuid.node_id" (-1 .. 268435455)', node
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN node;
END
$body$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_parse_node_id() IS
'the node field of this session''s locality uuids: locality_uuid.node_id read as PostgreSQL reads an integer setting, -1 for the default; called through locality_uuid_portable_node_id()';

-- The node field: the default and plain decimals of up to 8 digits (always within 0 ..
-- 268435455) read here, inlined into the generator; every other value by the full parser.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_node_id()
RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN CASE WHEN coalesce(current_setting('locality_uuid.node_id', true), '') = ''
            THEN @internal@.locality_uuid_portable_system_identifier()::numeric % 268435456
            WHEN current_setting('locality_uuid.node_id', true) ~ '^(0|[1-9][0-9]{0,7})$'
            THEN current_setting('locality_uuid.node_id', true)::bigint
            ELSE coalesce(nullif(@internal@.locality_uuid_portable_parse_node_id(), -1),
                          @internal@.locality_uuid_portable_system_identifier()::numeric % 268435456) END;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_node_id() IS
'the node field of this session''s locality uuids (locality_uuid.node_id or its default); called by the locality uuid generator of the portable edition';

-- Whether the next id is sequential: sequential, or with follow_setting the mode of
-- locality_uuid.counter_mode (sequential is then not read).
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_mode(sequential boolean, follow_setting boolean)
RETURNS boolean
AS $body$
BEGIN
    IF follow_setting THEN
        -- As PostgreSQL reads an enum setting: the names in any ASCII case (empty: the default).
        CASE translate(coalesce(current_setting('locality_uuid.counter_mode', true), ''),
                       'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
            WHEN '', 'variable' THEN sequential := false;
            WHEN 'sequential' THEN sequential := true;
            ELSE
                RAISE EXCEPTION 'invalid value for parameter "locality_uuid.counter_mode": "%"',
                                current_setting('locality_uuid.counter_mode')
                    USING ERRCODE = 'invalid_parameter_value',
                          HINT = 'Available values: variable, sequential.';
        END CASE;
    ELSIF sequential IS NULL THEN
        RAISE EXCEPTION 'sequential must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Call locality_uuid() to follow locality_uuid.counter_mode.';
    END IF;
    RETURN sequential;
END
$body$
LANGUAGE plpgsql STABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_mode(boolean, boolean) IS
'whether the next locality uuid is sequential: sequential, or the mode of locality_uuid.counter_mode if follow_setting (22023, 22004); called by locality_uuid of the portable edition';

-- Make one version-b id: sequential if sequential, or with follow_setting in the mode of
-- locality_uuid.counter_mode. The mode is read first, then the clock (22008 outside 1970 to
-- 9999), then this session's state is made if it has none, then the node field: the order of
-- their errors.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_next(sequential boolean, follow_setting boolean)
RETURNS uuid
AS $body$
DECLARE
    us bigint;
    node bigint;
    ms bigint;
    last_ms bigint;
    modes bigint;
    arc bigint;
    r bigint;
    skips integer;
    bucket bigint;
    v bigint;
    h text;
    first text;
BEGIN
    -- The common settings here; any other value, and a NULL sequential, through the full reader.
    IF follow_setting THEN
        sequential := CASE coalesce(current_setting('locality_uuid.counter_mode', true), '')
                          WHEN '' THEN false WHEN 'variable' THEN false WHEN 'sequential' THEN true
                          ELSE @internal@.locality_uuid_portable_mode(NULL::boolean, true) END;
    ELSIF sequential IS NULL THEN
        sequential := @internal@.locality_uuid_portable_mode(NULL::boolean, false);
    END IF;
    us := floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
    us := @internal@.locality_uuid_portable_session_clock(us, false);
    node := @internal@.locality_uuid_portable_node_id();
    -- Time never goes back within a session: a clock that steps back is held at the last
    -- millisecond used. The state holds that millisecond times 4, plus the modes that made ids
    -- in it (1 sequential, 2 variable), and in the arc sequence the first sequential counter
    -- (high 32 bits) and the first variable sequence value (low 32 bits) of that millisecond.
    -- Within one millisecond, as in the C extension, a variable value whose digits fall among
    -- the sequential counters is skipped, and a sequential counter whose digits are a variable
    -- counter of the millisecond moves on to the next millisecond.
    ms := us / 1000;
    last_ms := pg_sequence_last_value('pg_temp.locality_uuid_portable_last_ms'::regclass);
    IF ms > last_ms >> 2 THEN
        modes := 0;
    ELSE
        ms := last_ms >> 2;
        modes := last_ms & 3;
    END IF;
    arc := pg_sequence_last_value('pg_temp.locality_uuid_portable_arc'::regclass);
    IF sequential THEN
        -- Seed from MD5 of the 10-minute UTC bucket (yyyyMMddHHm), read little-endian; + 1 per id.
        bucket := ms / 600000;
        v := nextval('pg_temp.locality_uuid_portable_sequential');
        IF v >> 33 <> bucket THEN
            -- In days and minutes: minutes alone pass 2^31 in year 6053.
            h := md5(left(to_char(timestamp '1970-01-01' + make_interval(days => (bucket / 144)::integer,
                                                                         mins => (bucket % 144 * 10)::integer),
                                  'YYYYMMDDHH24MI'), 11));
            v := (bucket << 33) + ('x' || substr(h, 7, 2) || substr(h, 5, 2) || substr(h, 3, 2)
                                   || substr(h, 1, 2))::bit(32)::bigint + 1;
            PERFORM setval('pg_temp.locality_uuid_portable_sequential', v);
        END IF;
        first := lpad(to_hex(v & 4294967295), 8, '0');
        IF modes & 2 <> 0 THEN
            -- The variable value whose counter has these digits reversed: times the inverse of
            -- the step (3127333277) mod 2^32, in two halves so that nothing overflows.
            r := ('x' || reverse(first))::bit(32)::bigint;
            r := (r * 20893 + (((r * 47719) & 65535) << 16)) & 4294967295;
            IF ((r - arc) & 4294967295)
               <= ((pg_sequence_last_value('pg_temp.locality_uuid_portable_variable'::regclass) - arc) & 4294967295) THEN
                ms := ms + 1;
                modes := 0;
            END IF;
        END IF;
        IF modes & 1 = 0 THEN
            arc := ((v & 4294967295) << 32) | (arc & 4294967295);
        END IF;
        modes := modes | 1;
    ELSE
        skips := 0;
        LOOP
            v := nextval('pg_temp.locality_uuid_portable_variable');
            first := reverse(lpad(to_hex(((v & 4294967295) * 198491317) & 4294967295), 8, '0'));
            EXIT WHEN modes & 1 = 0;
            r := ('x' || first)::bit(32)::bigint;
            EXIT WHEN ((r - (arc >> 32)) & 4294967295)
                      > ((pg_sequence_last_value('pg_temp.locality_uuid_portable_sequential'::regclass) - (arc >> 32)) & 4294967295);
            skips := skips + 1;
            IF skips = 64 THEN
                -- A crowded millisecond: the next one, where no sequential id is yet.
                ms := ms + 1;
                modes := 0;
                EXIT;
            END IF;
        END LOOP;
        IF modes & 2 = 0 THEN
            arc := ((arc >> 32) << 32) | (v & 4294967295);
        END IF;
        modes := modes | 2;
    END IF;
    IF ms * 4 + modes <> last_ms THEN
        PERFORM setval('pg_temp.locality_uuid_portable_last_ms', ms * 4 + modes);
    END IF;
    IF arc <> pg_sequence_last_value('pg_temp.locality_uuid_portable_arc'::regclass) THEN
        PERFORM setval('pg_temp.locality_uuid_portable_arc', arc);
    END IF;
    RETURN (first || lpad(to_hex(pg_backend_pid() & 65535), 4, '0') || 'b' || lpad(to_hex(node), 7, '0')
            || lpad(to_hex(ms & 281474976710655), 12, '0'))::uuid;
END
$body$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_next(boolean, boolean) IS
'new locality uuid (version b), sequential or variable, or in the mode of locality_uuid.counter_mode if follow_setting; called by locality_uuid of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid()
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN @internal@.locality_uuid_portable_next(NULL::boolean, true);

COMMENT ON FUNCTION @extschema@.locality_uuid() IS
'new locality uuid (version b) in the mode set by locality_uuid.counter_mode';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid(sequential boolean)
RETURNS uuid
LANGUAGE sql VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE
RETURN @internal@.locality_uuid_portable_next(sequential, false);

COMMENT ON FUNCTION @extschema@.locality_uuid(boolean) IS
'new locality uuid (version b): sequential (clustered) if true, variable (spread) if false';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_use_sequential_ids()
RETURNS void
LANGUAGE sql VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT set_config('locality_uuid.counter_mode', 'sequential', false);
END;

COMMENT ON FUNCTION @extschema@.locality_uuid_use_sequential_ids() IS
'switch this session''s locality_uuid() to sequential mode (SET locality_uuid.counter_mode = sequential)';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_use_variable_ids()
RETURNS void
LANGUAGE sql VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT set_config('locality_uuid.counter_mode', 'variable', false);
END;

COMMENT ON FUNCTION @extschema@.locality_uuid_use_variable_ids() IS
'switch this session''s locality_uuid() to variable mode (SET locality_uuid.counter_mode = variable)';

-- The extractors are single SQL expressions of strict functions on the text form, so that the
-- planner inlines them (a STRICT SQL function is inlined only if its body is strict: no CASE).
-- The version test is ('{"b": ""}'::jsonb ->> version digit): '' for b, NULL for any other
-- digit, appended to the field's digits. Characters of the text form: bytes 0..3 at 1..8, 4..5
-- at 10..13, 6 at 15..16, 7 at 17..18, 8 at 20..21, 9 at 22..23, 10..15 at 25..36.

-- Milliseconds as 2^24 ms units and the rest: each product is exact in interval arithmetic.
CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_timestamp(id uuid)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timezone(interval '0', timestamp '1970-01-01'
        + ('x' || substr(id::text, 25, 6) || ('{"b": ""}'::jsonb ->> substr(id::text, 15, 1)))::bit(24)::integer * interval '16777.216 seconds'
        + ('x' || substr(id::text, 31, 6))::bit(24)::integer * interval '1 millisecond');

COMMENT ON FUNCTION @extschema@.locality_uuid_timestamp(uuid) IS
'creation time (milliseconds) of a locality uuid; NULL if the version digit is not b';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_pid(id uuid)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || substr(id::text, 10, 4) || ('{"b": ""}'::jsonb ->> substr(id::text, 15, 1)))::bit(16)::integer;

COMMENT ON FUNCTION @extschema@.locality_uuid_pid(uuid) IS
'16-bit process field of a locality uuid (backend slot or pid mod 65536); NULL if the version digit is not b';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_mac(id uuid)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN substr(id::text, 16, 3) || substr(id::text, 20, 4) || ('{"b": ""}'::jsonb ->> substr(id::text, 15, 1));

COMMENT ON FUNCTION @extschema@.locality_uuid_mac(uuid) IS
'28-bit node field of a locality uuid as 7 lowercase hex digits (low 28 bits of the MAC); NULL if the version digit is not b';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_node(id uuid)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || substr(id::text, 16, 3) || substr(id::text, 20, 4) || ('{"b": ""}'::jsonb ->> substr(id::text, 15, 1)))::bit(28)::integer;

COMMENT ON FUNCTION @extschema@.locality_uuid_node(uuid) IS
'28-bit node field of a locality uuid as a number; NULL if the version digit is not b';

-- The variable reading reverses the eight hex digits; sequential picks the plain ones.
CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_counter(id uuid, sequential boolean DEFAULT false)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || substr(reverse(left(id::text, 8)) || left(id::text, 8), 1 + 8 * sequential::integer, 8)
            || ('{"b": ""}'::jsonb ->> substr(id::text, 15, 1)))::bit(32)::bigint;

COMMENT ON FUNCTION @extschema@.locality_uuid_counter(uuid, boolean) IS
'32-bit counter of a locality uuid, read in variable mode (nibbles reversed) unless sequential; NULL if the version digit is not b';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_version(id uuid)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN substr(id::text, 15, 1);

COMMENT ON FUNCTION @extschema@.locality_uuid_version(uuid) IS
'version hex digit of any uuid (b for a locality uuid, 4 for a random one)';

-- Write a locality uuid of checked fields (counter, pid, node in range, ts finite), or 22008 if
-- ts is outside the 48 bits of milliseconds.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_make_b(counter bigint, pid integer, node integer, ts timestamptz,
                                                                  sequential boolean)
RETURNS uuid
AS $body$
DECLARE
    ms bigint;
    first text;
BEGIN
    ms := floor(extract(epoch FROM ts - timestamptz '2000-01-01 00:00:00+00') * 1000)::bigint + 946684800000;
    IF ms < 0 OR ms > 281474976710655 THEN
        RAISE EXCEPTION 'ts is out of range for a locality uuid'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'A locality uuid carries Unix milliseconds from 0 to 281474976710655 (1970-01-01 to 10889-08-02 UTC).';
    END IF;
    first := lpad(to_hex(counter), 8, '0');
    IF NOT sequential THEN
        first := reverse(first);
    END IF;
    RETURN (first || lpad(to_hex(pid), 4, '0') || 'b' || lpad(to_hex(node), 7, '0')
            || lpad(to_hex(ms), 12, '0'))::uuid;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_make_b(bigint, integer, integer, timestamptz, boolean) IS
'locality uuid (version b) of checked fields, 22008 if ts is outside 1970 to 10889; called by locality_uuid_make of the portable edition';

-- The checks in the C extension's order, then the id.
CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_make(counter bigint, pid integer, node integer, ts timestamptz,
                                   sequential boolean DEFAULT false)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT @internal@.locality_uuid_portable_check_finite(ts, 'ts'::text);
    SELECT @internal@.locality_uuid_portable_check_range('counter'::text, counter, 4294967295::bigint);
    SELECT @internal@.locality_uuid_portable_check_range('pid'::text, pid::bigint, 65535::bigint);
    SELECT @internal@.locality_uuid_portable_check_range('node'::text, node::bigint, 268435455::bigint);
    SELECT @internal@.locality_uuid_portable_make_b(counter, pid, node, ts, sequential);
END;

COMMENT ON FUNCTION @extschema@.locality_uuid_make(bigint, integer, integer, timestamptz, boolean) IS
'locality uuid (version b) built from explicit fields: counter 0..4294967295, pid 0..65535, node 0..268435455, ts to the millisecond';
$locality_uuid_portable$, '@extschema@', quote_ident(:'schema')), '@internal@', quote_ident(:'locality_uuid_internal')) \gexec

-- portable/src/blocks.sql
SELECT replace(replace($locality_uuid_portable$
-- Block-wrapped uuids (drop-in for sequential_uuids 1.0.3): the generators, their layouts,
-- time blocks of any length from 1 ms, and the block and block start an id carries.

-- Raise 22023 unless s (the block size, or the length of an interval in seconds) and c (the
-- number of blocks or intervals) are positive; variant ('sequence' or 'time') picks the words.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_check_blocks(s integer, c integer, variant text)
RETURNS void
AS $body$
BEGIN
    IF s < 1 THEN
        IF variant = 'sequence' THEN
            RAISE EXCEPTION 'block size must be a positive integer' USING ERRCODE = 'invalid_parameter_value';
        ELSE
            RAISE EXCEPTION 'length of interval must be a positive integer' USING ERRCODE = 'invalid_parameter_value';
        END IF;
    END IF;
    IF c < 1 THEN
        IF variant = 'sequence' THEN
            RAISE EXCEPTION 'number of blocks must be a positive integer' USING ERRCODE = 'invalid_parameter_value';
        ELSE
            RAISE EXCEPTION 'number of intervals must be a positive integer' USING ERRCODE = 'invalid_parameter_value';
        END IF;
    END IF;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_check_blocks(integer, integer, text) IS
'raise 22023 unless the block size or interval length s and the number of blocks or intervals c are positive; called by the block functions of the portable edition';

-- The width in bits of the prefix for c blocks: 8, 16, 24 or 32. Inlined (so not strict: a
-- strict function with a CASE body is not).
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_prefix_bits(c integer)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN c <= 256 THEN 8 WHEN c <= 65536 THEN 16 WHEN c <= 16777216 THEN 24 ELSE 32 END;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_prefix_bits(integer) IS
'prefix width in bits of a block-wrapped uuid for c blocks; called by the block functions of the portable edition';

-- Values per block of (s, c): s * c / 2^prefix bits, at least 1.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_per_block(s integer, c integer)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN greatest(1, (s::bigint * c) >> @internal@.locality_uuid_portable_prefix_bits(c));

COMMENT ON FUNCTION @internal@.locality_uuid_portable_per_block(integer, integer) IS
'values per block of a block-wrapped uuid for block size s and c blocks; called by the block functions of the portable edition';

-- Write the id of a block: its number mod 2^prefix_bits, then the bytes of a random version 4
-- uuid.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_block_uuid(block bigint, prefix_bits integer)
RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
RETURN (lpad(to_hex(block & ((1::bigint << prefix_bits) - 1)), prefix_bits / 4, '0')
        || substr(replace(gen_random_uuid()::text, '-', ''), prefix_bits / 4 + 1))::uuid;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_block_uuid(bigint, integer) IS
'new version 4 uuid whose first prefix_bits bits are block; called by the block generators of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.uuid_sequence_nextval(seq regclass, block_size integer DEFAULT 65536,
                                                   block_count integer DEFAULT 65536)
RETURNS uuid
AS $body$
DECLARE
    n bigint;
BEGIN
    -- Arguments are checked first, so a bad call uses no sequence value; nextval runs with
    -- the caller's privileges. nextval's minimum minus one wraps to the maximum, as in C.
    IF block_size < 1 OR block_count < 1 THEN
        PERFORM @internal@.locality_uuid_portable_check_blocks(block_size, block_count, 'sequence'::text);
    END IF;
    n := nextval(seq);
    RETURN @internal@.locality_uuid_portable_block_uuid(
        CASE WHEN n = -9223372036854775808 THEN 9223372036854775807 ELSE n - 1 END
            / @internal@.locality_uuid_portable_per_block(block_size, block_count),
        @internal@.locality_uuid_portable_prefix_bits(block_count));
END
$body$
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @extschema@.uuid_sequence_nextval(regclass, integer, integer) IS
'new version 4 uuid whose first bytes are the block of nextval(sequence) - 1; the block advances every block_size values and wraps after block_count blocks (calls nextval, so parallel unsafe)';

CREATE OR REPLACE FUNCTION @extschema@.uuid_time_nextval(interval_length integer DEFAULT 60,
                                               interval_count integer DEFAULT 65536)
RETURNS uuid
AS $body$
DECLARE
    us bigint;
BEGIN
    IF interval_length < 1 OR interval_count < 1 THEN
        PERFORM @internal@.locality_uuid_portable_check_blocks(interval_length, interval_count, 'time'::text);
    END IF;
    us := floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
    us := @internal@.locality_uuid_portable_clock(us);
    RETURN @internal@.locality_uuid_portable_block_uuid(
        us / 1000000 / @internal@.locality_uuid_portable_per_block(interval_length, interval_count),
        @internal@.locality_uuid_portable_prefix_bits(interval_count));
END
$body$
LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @extschema@.uuid_time_nextval(integer, integer) IS
'new version 4 uuid whose first bytes are the block of the current Unix time; the block advances every interval_length seconds and wraps after interval_count blocks';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_block_layout(block_size integer DEFAULT 65536,
                                                        block_count integer DEFAULT 65536,
                                                        OUT prefix_bits integer,
                                                        OUT prefixes bigint,
                                                        OUT effective_block_size bigint,
                                                        OUT wrap_values bigint,
                                                        OUT block_interval interval,
                                                        OUT wrap_interval interval)
RETURNS record
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT @internal@.locality_uuid_portable_check_blocks(block_size, block_count, 'sequence'::text)
    WHERE block_size < 1 OR block_count < 1;
    -- Seconds as days and time; NULL past the interval type's days.
    SELECT l.bits, 1::bigint << l.bits, l.per, (1::bigint << l.bits) * l.per,
           CASE WHEN l.per / 86400 <= 2147483647
                THEN make_interval(days => (l.per / 86400)::integer, secs => l.per % 86400) END,
           CASE WHEN ((1::bigint << l.bits) * l.per) / 86400 <= 2147483647
                THEN make_interval(days => (((1::bigint << l.bits) * l.per) / 86400)::integer,
                                   secs => ((1::bigint << l.bits) * l.per) % 86400) END
    FROM (SELECT @internal@.locality_uuid_portable_prefix_bits(block_count) AS bits,
                 @internal@.locality_uuid_portable_per_block(block_size, block_count) AS per) AS l;
END;

COMMENT ON FUNCTION @extschema@.locality_uuid_block_layout(integer, integer) IS
'what uuid_sequence_nextval and uuid_time_nextval make of (block_size, block_count): prefix width in bits, number of prefixes, values per block, values per wrap, and the same read as seconds';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_block(id uuid, block_count integer DEFAULT 65536)
RETURNS bigint
AS $body$
BEGIN
    IF block_count < 1 THEN
        RAISE EXCEPTION 'number of blocks must be a positive integer' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF substr(id::text, 15, 1) <> '4' THEN
        RETURN NULL;
    END IF;
    RETURN ('x' || lpad(left(id::text, @internal@.locality_uuid_portable_prefix_bits(block_count) / 4), 16, '0'))::bit(64)::bigint;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @extschema@.locality_uuid_block(uuid, integer) IS
'block number (prefix) that a uuid_sequence_nextval or uuid_time_nextval id carries for block_count; NULL if the version digit is not 4';


-- The length of interval_length in microseconds (a day is 86400 s), or NULL if it has months
-- or years (or is infinite): inlined.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_interval_us(interval_length interval)
RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN extract(year FROM interval_length) = 0 AND extract(month FROM interval_length) = 0
            THEN extract(day FROM interval_length)::numeric * 86400000000
                 + extract(hour FROM interval_length)::numeric * 3600000000
                 + extract(minute FROM interval_length)::numeric * 60000000
                 + extract(microseconds FROM interval_length)::numeric END;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_interval_us(interval) IS
'length of an interval in microseconds, NULL if it has months or years; called by the interval block functions of the portable edition';

-- Raise 22023 as the C extension does unless interval_length is a fixed length (a day is
-- 86400 s, no months) from 1 ms to 2147483647 s and interval_count is positive; total is its
-- length in microseconds (locality_uuid_portable_interval_us), NULL for months or years (so
-- not strict).
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_check_interval(interval_length interval,
                                                                         total numeric,
                                                                         interval_count integer)
RETURNS void
AS $body$
DECLARE
    length_hint text := 'Give a fixed length from 1 millisecond to 2147483647 seconds in days, hours, minutes, '
                        'seconds and fractions of a second, such as interval ''250 ms''.';
BEGIN
    IF NOT isfinite(interval_length) THEN
        RAISE EXCEPTION 'interval_length must be finite'
            USING ERRCODE = 'invalid_parameter_value', HINT = length_hint;
    END IF;
    IF total IS NULL THEN
        RAISE EXCEPTION 'interval_length must not contain months or years'
            USING ERRCODE = 'invalid_parameter_value', DETAIL = 'Months and years have no fixed length.',
                  HINT = length_hint;
    END IF;
    IF total < 1000 THEN
        RAISE EXCEPTION 'interval_length must be at least 1 millisecond'
            USING ERRCODE = 'invalid_parameter_value', HINT = length_hint;
    END IF;
    IF total > 2147483647000000 THEN
        RAISE EXCEPTION 'interval_length must be at most 2147483647 seconds'
            USING ERRCODE = 'invalid_parameter_value', HINT = length_hint;
    END IF;
    IF interval_count < 1 THEN
        RAISE EXCEPTION 'number of intervals must be a positive integer' USING ERRCODE = 'invalid_parameter_value';
    END IF;
END
$body$
LANGUAGE plpgsql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_check_interval(interval, numeric, integer) IS
'raise 22023 unless interval_length is a fixed length from 1 ms to 2147483647 s and interval_count is positive; called by the interval block functions of the portable edition';

-- The block length in microseconds of a valid (total, c), total the interval's length in
-- microseconds: in units u of 1 s, 1 ms or 1 us, S' = max(u, 1 ms, floor((L / u) * c / 2^b) * u).
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_block_us(total numeric, c integer)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN greatest(floor(floor(total / CASE WHEN total % 1000000 = 0 THEN 1000000 WHEN total % 1000 = 0 THEN 1000 ELSE 1 END)
                      * c / (2::numeric ^ @internal@.locality_uuid_portable_prefix_bits(c)))
                * CASE WHEN total % 1000000 = 0 THEN 1000000 WHEN total % 1000 = 0 THEN 1000 ELSE 1 END,
                CASE WHEN total % 1000000 = 0 THEN 1000000 WHEN total % 1000 = 0 THEN 1000 ELSE 1 END,
                1000)::bigint;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_block_us(numeric, integer) IS
'block length in microseconds of uuid_time_nextval_interval for an interval of total microseconds and c intervals; called by the interval block functions of the portable edition';

-- The start of the latest block at or before as_of whose prefix id carries, or NULL unless
-- version 4: blocks of block_us microseconds with prefixes of prefix_bits bits (checked by the
-- caller), counted from the Unix epoch.
-- start_us is counted from PostgreSQL's epoch (2000-01-01), whose range it must be in.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_block_start(id uuid, block_us bigint,
                                                                      prefix_bits integer,
                                                                      as_of timestamptz)
RETURNS timestamptz
AS $body$
DECLARE
    as_of_us numeric;
    a numeric;
    start_us numeric;
BEGIN
    IF NOT isfinite(as_of) THEN
        RAISE EXCEPTION 'as_of must be a finite timestamp' USING ERRCODE = 'datetime_field_overflow';
    END IF;
    IF substr(id::text, 15, 1) <> '4' THEN
        RETURN NULL;
    END IF;
    as_of_us := extract(epoch FROM as_of - timestamptz '2000-01-01 00:00:00+00') * 1000000 + 946684800000000;
    -- Unix microseconds of as_of past 2^63 - 1 (the last 30 years of the range): as C, out of range.
    IF as_of_us > 9223372036854775807 THEN
        start_us := as_of_us;
    ELSE
        a := floor(as_of_us / block_us);
        start_us := as_of_us - (as_of_us - a * block_us)
                - mod(mod(a - ('x' || lpad(left(id::text, prefix_bits / 4), 16, '0'))::bit(64)::bigint,
                          2::numeric ^ prefix_bits)
                      + 2::numeric ^ prefix_bits, 2::numeric ^ prefix_bits) * block_us
                - 946684800000000;
    END IF;
    IF start_us < -211813488000000000 OR start_us >= 9223371331200000000 THEN
        RAISE EXCEPTION 'timestamp out of range'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'The block starts outside the range of timestamp with time zone.';
    END IF;
    RETURN timezone(interval '0', timestamp '2000-01-01'
                    + make_interval(days => floor(start_us / 86400000000)::integer)
                    + (start_us - floor(start_us / 86400000000) * 86400000000)::bigint * interval '1 microsecond');
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_block_start(uuid, bigint, integer, timestamptz) IS
'start of the latest time block (block_us microseconds, prefix_bits bits) at or before as_of whose prefix the id carries; called by uuid_time_block_start of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.uuid_time_nextval_interval(interval_length interval,
                                                        interval_count integer DEFAULT 65536)
RETURNS uuid
AS $body$
DECLARE
    total numeric := @internal@.locality_uuid_portable_interval_us(interval_length);
    block_us bigint;
    us bigint;
BEGIN
    IF total IS NULL OR total < 1000 OR total > 2147483647000000 OR interval_count < 1 THEN
        PERFORM @internal@.locality_uuid_portable_check_interval(interval_length, total, interval_count);
    END IF;
    block_us := @internal@.locality_uuid_portable_block_us(total, interval_count);
    us := floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
    us := @internal@.locality_uuid_portable_clock(us);
    RETURN @internal@.locality_uuid_portable_block_uuid((us - ((us % block_us) + block_us) % block_us) / block_us,
                                                         @internal@.locality_uuid_portable_prefix_bits(interval_count));
END
$body$
LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @extschema@.uuid_time_nextval_interval(interval, integer) IS
'new version 4 uuid whose first bytes are the block of the current Unix time in microseconds; the block advances every interval_length (1 ms to 2147483647 s, no months or years) and wraps after interval_count blocks; whole seconds give the prefixes of uuid_time_nextval(integer, integer)';

CREATE OR REPLACE FUNCTION @extschema@.locality_uuid_block_layout(interval_length interval,
                                                        interval_count integer DEFAULT 65536,
                                                        OUT prefix_bits integer,
                                                        OUT prefixes bigint,
                                                        OUT effective_block_size bigint,
                                                        OUT wrap_values bigint,
                                                        OUT block_interval interval,
                                                        OUT wrap_interval interval)
RETURNS record
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT @internal@.locality_uuid_portable_check_interval(interval_length,
        @internal@.locality_uuid_portable_interval_us(interval_length), interval_count);
    -- The wrap is NULL past 2^63 microseconds.
    SELECT l.bits, 1::bigint << l.bits, l.us,
           CASE WHEN l.us <= 9223372036854775807 >> l.bits THEN l.us << l.bits END,
           make_interval(days => (l.us / 86400000000)::integer) + (l.us % 86400000000) * interval '1 microsecond',
           CASE WHEN l.us <= 9223372036854775807 >> l.bits
                THEN make_interval(days => ((l.us << l.bits) / 86400000000)::integer)
                     + ((l.us << l.bits) % 86400000000) * interval '1 microsecond' END
    FROM (SELECT @internal@.locality_uuid_portable_prefix_bits(interval_count) AS bits,
                 @internal@.locality_uuid_portable_block_us(
                     @internal@.locality_uuid_portable_interval_us(interval_length), interval_count) AS us) AS l;
END;

COMMENT ON FUNCTION @extschema@.locality_uuid_block_layout(interval, integer) IS
'what uuid_time_nextval_interval(interval_length, interval_count) makes of its arguments: prefix width in bits, number of prefixes, block length and wrap period in microseconds, and the same as intervals';

CREATE OR REPLACE FUNCTION @extschema@.uuid_time_block_start(id uuid, interval_length integer,
                                                   interval_count integer DEFAULT 65536,
                                                   as_of timestamptz DEFAULT now())
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT @internal@.locality_uuid_portable_check_blocks(interval_length, interval_count, 'time'::text)
    WHERE interval_length < 1 OR interval_count < 1;
    SELECT @internal@.locality_uuid_portable_block_start(id,
        @internal@.locality_uuid_portable_per_block(interval_length, interval_count) * 1000000,
        @internal@.locality_uuid_portable_prefix_bits(interval_count), as_of);
END;

COMMENT ON FUNCTION @extschema@.uuid_time_block_start(uuid, integer, integer, timestamptz) IS
'start of the latest block of uuid_time_nextval(interval_length, interval_count), at or before as_of, whose prefix the id carries; NULL if the version digit is not 4 (pass as_of explicitly in an index)';

CREATE OR REPLACE FUNCTION @extschema@.uuid_time_block_start(id uuid, interval_length interval,
                                                   interval_count integer DEFAULT 65536,
                                                   as_of timestamptz DEFAULT now())
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT @internal@.locality_uuid_portable_check_interval(interval_length, t.total, interval_count)
    FROM (SELECT @internal@.locality_uuid_portable_interval_us(interval_length) AS total) AS t
    WHERE t.total IS NULL OR t.total < 1000 OR t.total > 2147483647000000 OR interval_count < 1;
    SELECT @internal@.locality_uuid_portable_block_start(id,
        @internal@.locality_uuid_portable_block_us(
            @internal@.locality_uuid_portable_interval_us(interval_length), interval_count),
        @internal@.locality_uuid_portable_prefix_bits(interval_count), as_of);
END;

COMMENT ON FUNCTION @extschema@.uuid_time_block_start(uuid, interval, integer, timestamptz) IS
'start of the latest block of uuid_time_nextval_interval(interval_length, interval_count), at or before as_of, whose prefix the id carries; NULL if the version digit is not 4 (pass as_of explicitly in an index)';
$locality_uuid_portable$, '@extschema@', quote_ident(:'schema')), '@internal@', quote_ident(:'locality_uuid_internal')) \gexec

-- portable/src/hot.sql
SELECT replace(replace($locality_uuid_portable$
-- Shard-key uuids, compatible with .NET HotGuid: the generators, the extractors and make.

-- Raise 22003 unless shard_key is an unsigned 32-bit number.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_check_shard_key(shard_key bigint)
RETURNS void
AS $body$
BEGIN
    IF shard_key < 0 OR shard_key > 4294967295 THEN
        RAISE EXCEPTION 'shard_key % is out of range', shard_key
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = 'The shard_key must be between 0 and 4294967295.',
                  HINT = 'A shard key is an unsigned 32-bit number, as HotGuid''s uint; pass a signed 32-bit key k as k::bigint & 4294967295.';
    END IF;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_check_shard_key(bigint) IS
'raise 22003 unless shard_key is within 0 .. 4294967295; called by hot_uuid and hot_uuid_make of the portable edition';

-- Write a shard-key id of seconds (mod 2^32), machine hash m (hex digits of at least 3 bytes),
-- process field p (4 hex digits), counter (0 .. 16777215) and shard_key: inlined.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_hot_encode(seconds bigint, m text, p text,
                                                                     counter bigint, shard_key bigint)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (lpad(to_hex(seconds & 4294967295), 8, '0') || substr(m, 3, 2) || substr(m, 1, 2)
        || left(p, 2) || substr(m, 5, 2) || right(p, 2) || lpad(to_hex(counter), 6, '0')
        || substr(lpad(to_hex(shard_key), 8, '0'), 7, 2) || substr(lpad(to_hex(shard_key), 8, '0'), 5, 2)
        || substr(lpad(to_hex(shard_key), 8, '0'), 3, 2) || substr(lpad(to_hex(shard_key), 8, '0'), 1, 2))::uuid;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_hot_encode(bigint, text, text, bigint, bigint) IS
'shard-key uuid of its fields as hex digits (machine hash m, process p) and numbers; called by hot_uuid and hot_uuid_make of the portable edition';

-- Raise 22023, as the C extension does, unless machine is 3 bytes.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_check_machine(machine bytea)
RETURNS void
AS $body$
BEGIN
    IF length(machine) <> 3 THEN
        RAISE EXCEPTION 'machine must be 3 bytes, not %', length(machine)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Pass the first 3 bytes of the MD5 digest of the machine name, e.g. substring(decode(md5(''host''), ''hex'') for 3).';
    END IF;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_check_machine(bytea) IS
'raise 22023 unless machine is 3 bytes; called by hot_uuid_make of the portable edition';

-- Make one shard-key id carrying shard_key, stamped with the current second, or with the
-- second of at if explicit (at is read only then). The next wall-clock tick (2^-23 s) of this
-- session is the clock's, or the tick after the last one used if the clock has not passed it (a
-- burst, a frozen clock, a clock that stepped back): nothing ever waits. A wall-clock id
-- carries the tick's second and the tick within it as counter (bit 23 zero). SECURITY DEFINER:
-- it takes allocation numbers from the install schema's sequence, which only the installer may
-- use.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_hot(shard_key bigint, explicit boolean, at timestamptz)
RETURNS uuid
AS $body$
DECLARE
    us bigint;
    m text;
    p text;
    tick bigint;
    seconds bigint;
    counter bigint;
    n bigint;
BEGIN
    IF shard_key < 0 OR shard_key > 4294967295 THEN
        PERFORM @internal@.locality_uuid_portable_check_shard_key(shard_key);
    END IF;
    IF explicit AND NOT isfinite(at) THEN
        RAISE EXCEPTION 'at must be a finite timestamp' USING ERRCODE = 'datetime_field_overflow';
    END IF;
    -- On every call, whether it would take an allocation number or not (ENCODING.md).
    IF explicit AND current_setting('transaction_read_only') = 'on' THEN
        PERFORM @internal@.locality_uuid_portable_check_read_write('hot_uuid at an explicit time'::text);
    END IF;
    us := floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
    us := @internal@.locality_uuid_portable_session_clock(us, false);
    m := md5(@internal@.locality_uuid_portable_machine_name());
    p := lpad(to_hex(pg_backend_pid() & 65535), 4, '0');
    -- pg_sequence_last_value, not currval: DISCARD SEQUENCES forgets currval, not the value.
    tick := greatest(us / 1000000 * 8388608 + us % 1000000 * 8388608 / 1000000,
                     pg_sequence_last_value('pg_temp.locality_uuid_portable_hot_tick'::regclass) + 1);
    IF explicit THEN
        seconds := floor(extract(epoch FROM at - timestamptz '2000-01-01 00:00:00+00'))::bigint + 946684800;
    END IF;
    IF NOT explicit OR seconds = tick >> 23 THEN
        PERFORM setval('pg_temp.locality_uuid_portable_hot_tick', tick);
        seconds := tick >> 23;
        counter := tick & 8388607;
    ELSE
        -- Any other second: a 39-bit allocation number n of the install schema's sequence,
        -- handed out once and never reduced: counter 0x800000 | (n & 0x7FFFFF) (bit 23 set, so
        -- never a wall-clock id's), process field 0xFFFF - (n >> 23). No two such ids are
        -- equal; once n passes 39 bits every call fails.
        n := nextval('@extschema@.locality_uuid_portable_explicit'::regclass);
        IF n >= 549755813888 THEN
            PERFORM @internal@.locality_uuid_portable_check_allocation('hot_uuid'::text, 39,
                'locality_uuid_portable_explicit'::text, n, 'hot_uuid(shard_key)'::text);
        END IF;
        counter := 8388608 | (n & 8388607);
        p := lpad(to_hex(65535 - (n >> 23)), 4, '0');
    END IF;
    RETURN @internal@.locality_uuid_portable_hot_encode(seconds, m, p, counter, shard_key);
END
$body$
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_hot(bigint, boolean, timestamptz) IS
'new shard-key uuid carrying shard_key, stamped with the current second, or with the second of at if explicit (an allocation number of locality_uuid_portable_explicit); called by hot_uuid of the portable edition';

-- The machine name of hot_uuid: locality_uuid.machine_name, or the system identifier.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_machine_name()
RETURNS text
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN coalesce(nullif(current_setting('locality_uuid.machine_name', true), ''),
                @internal@.locality_uuid_portable_system_identifier());

COMMENT ON FUNCTION @internal@.locality_uuid_portable_machine_name() IS
'the machine name of this session''s shard-key uuids (locality_uuid.machine_name or the system identifier); called by hot_uuid of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid(shard_key bigint)
RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN @internal@.locality_uuid_portable_hot(shard_key, false, timestamptz '1970-01-01 00:00:00+00');

COMMENT ON FUNCTION @extschema@.hot_uuid(bigint) IS
'new shard-key uuid (HotGuid layout) carrying shard_key 0..4294967295, stamped with the current second';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid(shard_key bigint, at timestamptz)
RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN @internal@.locality_uuid_portable_hot(shard_key, true, at);

COMMENT ON FUNCTION @extschema@.hot_uuid(bigint, timestamptz) IS
'new shard-key uuid (HotGuid layout) carrying shard_key, stamped with the second of at (for backfills; mod 2^32)';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_shard_key(id uuid)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || substr(id::text, 35, 2) || substr(id::text, 33, 2) || substr(id::text, 31, 2)
            || substr(id::text, 29, 2))::bit(32)::bigint;

COMMENT ON FUNCTION @extschema@.hot_uuid_shard_key(uuid) IS
'32-bit shard key of a shard-key uuid (bytes 12..15, little-endian), as HotGuid''s ExtractShardKey';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_timestamp(id uuid)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN to_timestamp(('x' || left(id::text, 8))::bit(32)::bigint);

COMMENT ON FUNCTION @extschema@.hot_uuid_timestamp(uuid) IS
'creation second of a shard-key uuid (bytes 0..3 as unsigned Unix seconds, 1970 to 2106), as HotGuid''s ExtractUnixTimestamp';

-- The keys of hot_uuid_made, as the C extension's: the smallest shard-key uuid of the first
-- second at or after since (the nil uuid at or before 1970), the largest of the last second
-- before before (the max uuid past 2^32 - 1 seconds). Every uuid is a shard-key id, so where no
-- id is in the range (since past the end, before at or before 1970, NULL) the key is NULL.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_hot_made_since(since timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN since <= timestamptz '1970-01-01 00:00:00+00' THEN '00000000-0000-0000-0000-000000000000'::uuid
            WHEN since <= timestamptz '2106-02-07 06:28:15+00'
            THEN (lpad(to_hex(ceil(extract(epoch FROM since - timestamptz '2000-01-01 00:00:00+00'))::bigint
                              + 946684800), 8, '0') || '000000000000000000000000')::uuid END;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_hot_made_since(timestamptz) IS
'smallest key of the shard-key ids made at or after since; called by hot_uuid_made_since and hot_uuid_made of the portable edition';

CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_hot_made_before(before timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN before > timestamptz '2106-02-07 06:28:15+00' THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
            WHEN before > timestamptz '1970-01-01 00:00:00+00'
            THEN (lpad(to_hex(ceil(extract(epoch FROM before - timestamptz '2000-01-01 00:00:00+00'))::bigint
                              + 946684799), 8, '0') || 'ffffffffffffffffffffffff')::uuid END;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_hot_made_before(timestamptz) IS
'largest key of the shard-key ids made before before; called by hot_uuid_made_before and hot_uuid_made of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_made_since(since timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_hot_made_since(since);

COMMENT ON FUNCTION @extschema@.hot_uuid_made_since(timestamptz) IS
'smallest key of the shard-key ids made at or after since (its second rounded up): the nil uuid before 1970, NULL (no id) past 2106-02-07 06:28:15 UTC or for NULL; never an error';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_made_before(before timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_hot_made_before(before);

COMMENT ON FUNCTION @extschema@.hot_uuid_made_before(timestamptz) IS
'largest key of the shard-key ids made before before (its second rounded up): NULL (no id) at 1970 and earlier or for NULL, the max uuid past 2106; never an error';

-- The keys of a comparison that excludes or includes its bound, as the C extension's: the
-- smallest shard-key uuid of the first second after after, the largest of the last second at or
-- before through; NULL where no id is. They never raise.
CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_made_after(after timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN after < timestamptz '1970-01-01 00:00:00+00' THEN '00000000-0000-0000-0000-000000000000'::uuid
            WHEN after < timestamptz '2106-02-07 06:28:15+00'
            THEN (lpad(to_hex(floor(extract(epoch FROM after - timestamptz '2000-01-01 00:00:00+00'))::bigint
                              + 946684801), 8, '0') || '000000000000000000000000')::uuid END;

COMMENT ON FUNCTION @extschema@.hot_uuid_made_after(timestamptz) IS
'smallest key of the shard-key ids made after after (hot_uuid_made_since of the next microsecond): the key of hot_uuid_timestamp(id) > after; NULL where no id is; never an error';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_made_through(through timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN through >= timestamptz '2106-02-07 06:28:15+00' THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
            WHEN through >= timestamptz '1970-01-01 00:00:00+00'
            THEN (lpad(to_hex(floor(extract(epoch FROM through - timestamptz '2000-01-01 00:00:00+00'))::bigint
                              + 946684800), 8, '0') || 'ffffffffffffffffffffffff')::uuid END;

COMMENT ON FUNCTION @extschema@.hot_uuid_made_through(timestamptz) IS
'largest key of the shard-key ids made at or before through (hot_uuid_made_before of the next microsecond): the key of hot_uuid_timestamp(id) <= through; NULL where no id is; never an error';

-- Inlined as uuidv7_made is. The keys are exact and every uuid is a shard-key id, so the check
-- is id IS NOT NULL; a NULL key (no id in the range) makes it false, never NULL: the key's own
-- IS NOT NULL folds away for a constant bound and is a one-time filter for now() or $1.
CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_made(id uuid, since timestamptz DEFAULT '-infinity',
                                                     before timestamptz DEFAULT 'infinity')
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_hot_made_since(since) IS NOT NULL
   AND @internal@.locality_uuid_portable_hot_made_before(before) IS NOT NULL
   AND id >= @internal@.locality_uuid_portable_hot_made_since(since)
   AND id <= @internal@.locality_uuid_portable_hot_made_before(before)
   AND id IS NOT NULL;

COMMENT ON FUNCTION @extschema@.hot_uuid_made(uuid, timestamptz, timestamptz) IS
'(hot_uuid_timestamp(id) >= since AND hot_uuid_timestamp(id) < before) IS TRUE, planned as index conditions on id (its own B-tree, partition pruning); also for uuid_time_nextval(1, 2147483647): false for NULL ids and NULL bounds; never an error';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_boundary(at timestamptz)
RETURNS uuid
AS $body$
BEGIN
    PERFORM @internal@.locality_uuid_portable_check_finite(at, 'at'::text);
    RETURN (lpad(to_hex((floor(extract(epoch FROM at - timestamptz '2000-01-01 00:00:00+00'))::bigint + 946684800)
                        & 4294967295), 8, '0')
            || '000000000000000000000000')::uuid;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @extschema@.hot_uuid_boundary(timestamptz) IS
'smallest shard-key uuid of the second of at (time field, all else zero): a bound for range scans and range partitions';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_machine(id uuid)
RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN decode(substr(id::text, 12, 2) || substr(id::text, 10, 2) || substr(id::text, 17, 2), 'hex');

COMMENT ON FUNCTION @extschema@.hot_uuid_machine(uuid) IS
'machine hash of a shard-key uuid: the first 3 bytes of MD5 of the machine name, in digest order';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_process(id uuid)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || substr(id::text, 15, 2) || substr(id::text, 20, 2))::bit(16)::integer;

COMMENT ON FUNCTION @extschema@.hot_uuid_process(uuid) IS
'16-bit process field of a shard-key uuid (backend slot, or pid mod 65536 as HotGuid)';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_counter(id uuid)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || substr(id::text, 22, 2) || substr(id::text, 25, 4))::bit(24)::integer;

COMMENT ON FUNCTION @extschema@.hot_uuid_counter(uuid) IS
'24-bit counter of a shard-key uuid';

CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_make(shard_key bigint, ts timestamptz,
                              machine bytea DEFAULT E'\\x000000', process integer DEFAULT 0,
                              counter integer DEFAULT 0)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT @internal@.locality_uuid_portable_check_shard_key(shard_key);
    SELECT @internal@.locality_uuid_portable_check_finite(ts, 'ts'::text);
    SELECT @internal@.locality_uuid_portable_check_machine(machine);
    SELECT @internal@.locality_uuid_portable_check_range('process'::text, process::bigint, 65535::bigint);
    SELECT @internal@.locality_uuid_portable_check_range('counter'::text, counter::bigint, 16777215::bigint);
    SELECT @internal@.locality_uuid_portable_hot_encode(
        floor(extract(epoch FROM ts - timestamptz '2000-01-01 00:00:00+00'))::bigint + 946684800,
        encode(machine, 'hex'), lpad(to_hex(process), 4, '0'), counter::bigint, shard_key);
END;

COMMENT ON FUNCTION @extschema@.hot_uuid_make(bigint, timestamptz, bytea, integer, integer) IS
'shard-key uuid built from explicit fields: shard_key 0..4294967295, ts to the second (mod 2^32), machine 3 MD5 bytes, process 0..65535, counter 0..16777215';

-- pg_partman's decoders: it passes the ids and bounds of its children as text.
CREATE OR REPLACE FUNCTION @extschema@.hot_uuid_time_decoder(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN to_timestamp(('x' || left(id::uuid::text, 8))::bit(32)::bigint);

COMMENT ON FUNCTION @extschema@.hot_uuid_time_decoder(text) IS
'hot_uuid_timestamp of a shard-key uuid given as text: the p_time_decoder of pg_partman''s create_parent (its p_time_encoder is hot_uuid_boundary)';
$locality_uuid_portable$, '@extschema@', quote_ident(:'schema')), '@internal@', quote_ident(:'locality_uuid_internal')) \gexec

-- portable/src/v7.sql
SELECT replace(replace($locality_uuid_portable$
-- Version 7 uuids on every major: the ordered generator, boundaries, the time of an id, and
-- pg_partman's decoder. Core's own names below 18 and 17 are in core18.sql and core17.sql.

-- The millisecond of a version 7 uuid of variant 10, else NULL: a single strict expression, so
-- that the planner inlines it.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_v7_time(id uuid)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timezone(interval '0', timestamp '1970-01-01'
        + ('x' || left(id::text, 6) || ('{"78": "", "79": "", "7a": "", "7b": ""}'::jsonb
                                         ->> (substr(id::text, 15, 1) || substr(id::text, 20, 1))))::bit(24)::integer
          * interval '16777.216 seconds'
        + ('x' || substr(id::text, 7, 2) || substr(id::text, 10, 4))::bit(24)::integer * interval '1 millisecond');

COMMENT ON FUNCTION @internal@.locality_uuid_portable_v7_time(uuid) IS
'creation time (the millisecond) of a version 7 uuid of variant 10, else NULL; called by uuidv7_timestamp and uuidv7_time_decoder of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_timestamp(id uuid)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_v7_time(id);

COMMENT ON FUNCTION @extschema@.uuidv7_timestamp(uuid) IS
'creation time (the millisecond) of a version 7 uuid, on every major (17''s uuid_extract_timestamp reads version 1 only); NULL for other versions and variants';

-- The Unix millisecond of at, or 22008 as the C extension raises it.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_check_v7_ms(at timestamptz)
RETURNS bigint
AS $body$
DECLARE
    ms bigint;
BEGIN
    PERFORM @internal@.locality_uuid_portable_check_finite(at, 'at'::text);
    ms := floor(extract(epoch FROM at - timestamptz '2000-01-01 00:00:00+00') * 1000)::bigint + 946684800000;
    IF ms < 0 OR ms > 281474976710655 THEN
        RAISE EXCEPTION 'timestamp out of range for UUID version 7'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'Version 7 carries Unix milliseconds in 48 bits: from 1970-01-01 00:00:00 to 10889-08-02 05:31:50.655 UTC.';
    END IF;
    RETURN ms;
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_check_v7_ms(timestamptz) IS
'Unix millisecond of at, or 22008 if at is not finite or outside version 7''s 48 bits; called through locality_uuid_portable_v7_ms()';

-- The Unix millisecond of at, inlined: within version 7's range (1970-01-01 to 2^48 - 1 ms,
-- 10889-08-02 05:31:50.655 UTC) here, else through the check, which raises.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_v7_ms(at timestamptz)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN at >= timestamptz '1970-01-01 00:00:00+00' AND at < timestamptz '10889-08-02 05:31:50.656+00'
            THEN floor(extract(epoch FROM at - timestamptz '2000-01-01 00:00:00+00') * 1000)::bigint + 946684800000
            ELSE @internal@.locality_uuid_portable_check_v7_ms(at) END;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_v7_ms(timestamptz) IS
'Unix millisecond of at for a version 7 uuid (22008 outside 1970-01-01 to 10889-08-02 05:31:50.655 UTC); called by the version 7 functions of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_time_decoder(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_v7_time(id::uuid);

COMMENT ON FUNCTION @extschema@.uuidv7_time_decoder(text) IS
'uuidv7_timestamp of a version 7 uuid given as text: the p_time_decoder of pg_partman''s create_parent (its p_time_encoder is uuidv7_lower)';
-- Ordered per session: the ordering key (millisecond << 15 | fraction << 3 | counter) is that of
-- the clock (counter 0) or one more than the session's last, whichever is later. Byte 8:
-- variant 10, bit 5 zero (a clock id), the counter in bits 4..2, random bits 1..0; bytes 9..15
-- random.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_v7_ordered()
RETURNS uuid
AS $body$
DECLARE
    us bigint;
    k bigint;
    r text;
BEGIN
    -- On every call, so that the refusal never depends on timing (ENCODING.md).
    IF current_setting('transaction_read_only') = 'on' THEN
        PERFORM @internal@.locality_uuid_portable_check_read_write('uuidv7_ordered'::text);
    END IF;
    us := floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
    us := @internal@.locality_uuid_portable_session_clock(us, true);
    k := greatest(((us / 1000) << 15) | ((us % 1000 * 4096 / 1000) << 3),
                  pg_sequence_last_value('pg_temp.locality_uuid_portable_v7_ordered') + 1);
    PERFORM setval('pg_temp.locality_uuid_portable_v7_ordered', k);
    r := gen_random_uuid()::text;
    RETURN (lpad(to_hex(k >> 15), 12, '0') || '7' || lpad(to_hex((k >> 3) & 4095), 3, '0')
            || to_hex(128 | ((k & 7) << 2) | (('x' || substr(r, 21, 1))::bit(4)::integer & 3))
            || substr(r, 22, 2) || substr(r, 25, 12))::uuid;
END
$body$
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_v7_ordered() IS
'new version 7 uuid of the clock, strictly greater than every uuidv7_ordered() id made before in this session; called by uuidv7_ordered of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_ordered()
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN @internal@.locality_uuid_portable_v7_ordered();

COMMENT ON FUNCTION @extschema@.uuidv7_ordered() IS
'new version 7 uuid, strictly greater than every uuidv7_ordered() id made before in this session (the C extension: in the cluster), also after clock steps back (parallel unsafe: its state is in temporary sequences)';


-- At an explicit time: the millisecond of at, bit 5 of byte 8 set (never a clock id's), and a
-- 41-bit allocation number n of the install schema's sequence in the fraction (bits 40..29),
-- byte 8 (bits 28..24) and bytes 9..11; bytes 12..15 random. Each n is handed out once and
-- never reduced, so no two such ids are equal; once n passes 41 bits every call fails (54000).
-- 25006 on every call in a read-only transaction. SECURITY DEFINER: it takes n from the
-- install schema's sequence, which only the installer may use.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_v7_explicit(at timestamptz)
RETURNS uuid
AS $body$
DECLARE
    ms bigint := @internal@.locality_uuid_portable_v7_ms(at);
    n bigint;
BEGIN
    IF current_setting('transaction_read_only') = 'on' THEN
        PERFORM @internal@.locality_uuid_portable_check_read_write('uuidv7_ordered'::text);
    END IF;
    n := nextval('@extschema@.locality_uuid_portable_v7_explicit'::regclass);
    IF n >= 2199023255552 THEN
        PERFORM @internal@.locality_uuid_portable_check_allocation('uuidv7_ordered'::text, 41,
            'locality_uuid_portable_v7_explicit'::text, n, 'uuidv7_ordered()'::text);
    END IF;
    RETURN (lpad(to_hex(ms), 12, '0') || '7' || lpad(to_hex((n >> 29) & 4095), 3, '0')
            || to_hex(160 | ((n >> 24) & 31)) || lpad(to_hex(n & 16777215), 6, '0')
            || right(gen_random_uuid()::text, 8))::uuid;
END
$body$
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_v7_explicit(timestamptz) IS
'new version 7 uuid of the millisecond of at with the next allocation number of locality_uuid_portable_v7_explicit (25006 when read-only, 54000 past 41 bits); called by uuidv7_ordered(at) of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_ordered(at timestamptz)
RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN @internal@.locality_uuid_portable_v7_explicit(at);

COMMENT ON FUNCTION @extschema@.uuidv7_ordered(timestamptz) IS
'new version 7 uuid stamped with the millisecond of at (for backfills), carrying an allocation number from the sequence locality_uuid_portable_v7_explicit, so it repeats no id made before (parallel unsafe: nextval)';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_lower(at timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (lpad(to_hex(@internal@.locality_uuid_portable_v7_ms(at)), 12, '0') || '70008000000000000000')::uuid;

COMMENT ON FUNCTION @extschema@.uuidv7_lower(timestamptz) IS
'smallest version 7 uuid of the millisecond of at: id >= uuidv7_lower(a) AND id < uuidv7_lower(b) selects the ids of [a, b), and partition bounds take it';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_upper(at timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (lpad(to_hex(@internal@.locality_uuid_portable_v7_ms(at)), 12, '0') || '7fffbfffffffffffffff')::uuid;

COMMENT ON FUNCTION @extschema@.uuidv7_upper(timestamptz) IS
'largest version 7 uuid of the millisecond of at';

-- The keys of uuidv7_made, as the C extension's: the smallest version 7 uuid of the first
-- millisecond at or after since (the nil uuid at or before 1970; the max uuid, no version 7 id,
-- past the format's end or for NULL), the largest of the last millisecond before before (the
-- nil uuid at or before 1970 or for NULL; the max uuid past the end). They never raise.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_v7_made_since(since timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN since IS NULL OR since > timestamptz '10889-08-02 05:31:50.655+00'
            THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
            WHEN since <= timestamptz '1970-01-01 00:00:00+00' THEN '00000000-0000-0000-0000-000000000000'::uuid
            ELSE (lpad(to_hex(ceil(extract(epoch FROM since - timestamptz '2000-01-01 00:00:00+00') * 1000)::bigint
                              + 946684800000), 12, '0') || '70008000000000000000')::uuid END;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_v7_made_since(timestamptz) IS
'smallest key of the version 7 ids made at or after since; called by uuidv7_made_since and uuidv7_made of the portable edition';

CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_v7_made_before(before timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN before IS NULL OR before <= timestamptz '1970-01-01 00:00:00+00'
            THEN '00000000-0000-0000-0000-000000000000'::uuid
            WHEN before > timestamptz '10889-08-02 05:31:50.655+00' THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
            ELSE (lpad(to_hex(ceil(extract(epoch FROM before - timestamptz '2000-01-01 00:00:00+00') * 1000)::bigint
                              + 946684799999), 12, '0') || '7fffbfffffffffffffff')::uuid END;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_v7_made_before(timestamptz) IS
'largest key of the version 7 ids made before before; called by uuidv7_made_before and uuidv7_made of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_made_since(since timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_v7_made_since(since);

COMMENT ON FUNCTION @extschema@.uuidv7_made_since(timestamptz) IS
'smallest key of the version 7 ids made at or after since (its millisecond rounded up): the nil uuid (every id) at 1970 and earlier, the max uuid (no version 7 id) past 10889-08-02 05:31:50.655 UTC or for NULL; never an error';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_made_before(before timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_v7_made_before(before);

COMMENT ON FUNCTION @extschema@.uuidv7_made_before(timestamptz) IS
'largest key of the version 7 ids made before before (its millisecond rounded up): the nil uuid (no version 7 id) at 1970 and earlier or for NULL, the max uuid (every id) past 10889; never an error';

-- The keys of a comparison that excludes or includes its bound, as the C extension's (its
-- planner hook rewrites uuidv7_timestamp(id) > x and <= x with them): the smallest version 7
-- uuid of the first millisecond after after, the largest of the last millisecond at or before
-- through. They never raise.
CREATE OR REPLACE FUNCTION @extschema@.uuidv7_made_after(after timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN after IS NULL OR after >= timestamptz '10889-08-02 05:31:50.655+00'
            THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
            WHEN after < timestamptz '1970-01-01 00:00:00+00' THEN '00000000-0000-0000-0000-000000000000'::uuid
            ELSE (lpad(to_hex(floor(extract(epoch FROM after - timestamptz '2000-01-01 00:00:00+00') * 1000)::bigint
                              + 946684800001), 12, '0') || '70008000000000000000')::uuid END;

COMMENT ON FUNCTION @extschema@.uuidv7_made_after(timestamptz) IS
'smallest key of the version 7 ids made after after (uuidv7_made_since of the next microsecond): the key of uuidv7_timestamp(id) > after; never an error';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_made_through(through timestamptz)
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN through IS NULL OR through < timestamptz '1970-01-01 00:00:00+00'
            THEN '00000000-0000-0000-0000-000000000000'::uuid
            WHEN through >= timestamptz '10889-08-02 05:31:50.655+00' THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
            ELSE (lpad(to_hex(floor(extract(epoch FROM through - timestamptz '2000-01-01 00:00:00+00') * 1000)::bigint
                              + 946684800000), 12, '0') || '7fffbfffffffffffffff')::uuid END;

COMMENT ON FUNCTION @extschema@.uuidv7_made_through(timestamptz) IS
'largest key of the version 7 ids made at or before through (uuidv7_made_before of the next microsecond): the key of uuidv7_timestamp(id) <= through; never an error';

-- Inlined by the planner (the C extension's support function writes the same) into two
-- conditions on id that a B-tree on id serves and a check that the id is a version 7 id: the
-- keys are exact, so no time is read. Never NULL: a NULL bound's key selects no version 7 id.
CREATE OR REPLACE FUNCTION @extschema@.uuidv7_made(id uuid, since timestamptz DEFAULT '-infinity',
                                                   before timestamptz DEFAULT 'infinity')
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id >= @internal@.locality_uuid_portable_v7_made_since(since)
   AND id <= @internal@.locality_uuid_portable_v7_made_before(before)
   AND @internal@.locality_uuid_portable_v7_time(id) IS NOT NULL;

COMMENT ON FUNCTION @extschema@.uuidv7_made(uuid, timestamptz, timestamptz) IS
'(uuidv7_timestamp(id) >= since AND uuidv7_timestamp(id) < before) IS TRUE, planned as index conditions on id (its own B-tree, partition pruning): false for other versions, NULL ids and NULL bounds; never an error';
$locality_uuid_portable$, '@extschema@', quote_ident(:'schema')), '@internal@', quote_ident(:'locality_uuid_internal')) \gexec

-- portable/src/facade.sql
SELECT replace(replace($locality_uuid_portable$
-- The keyed facade of version 7 ids (uuidv47's mapping), exact rather than fast: SipHash-2-4 on
-- 64-bit words kept as two 32-bit halves in bigints, so that no sum or shift leaves bigint's range.

-- The 48-bit mask of a version 7 id or its facade under a 16-byte key: the low 48 bits of
-- SipHash-2-4 (key k0 then k1, each little-endian) of the 10 bytes that hold the uuid's 74 bits
-- after the time, version and variant (byte 6's low nibble, byte 7, byte 8's low six bits, bytes
-- 9..15). Words are (high, low) halves; a SipRound is the loop's body, the message words enter
-- before rounds 1 and 3 and leave after rounds 2 and 4, finalization XORs 255 before round 5.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_facade_mask(u uuid, key bytea, to_facade boolean)
RETURNS bigint
AS $body$
DECLARE
    h text := replace(u::text, '-', '');
    b bytea := uuid_send(u);
    -- The message's first word (bytes 0..7, little-endian): the uuid's bytes 6..13, masked.
    m0h bigint := get_byte(b, 10) | (get_byte(b, 11)::bigint << 8) | (get_byte(b, 12)::bigint << 16) | (get_byte(b, 13)::bigint << 24);
    m0l bigint := (get_byte(b, 6) & 15) | (get_byte(b, 7)::bigint << 8) | ((get_byte(b, 8) & 63)::bigint << 16) | (get_byte(b, 9)::bigint << 24);
    m1h bigint := 167772160;     -- the last word: message bytes 8 and 9, the length 10 in its top byte (10 << 56)
    m1l bigint := get_byte(b, 14) | (get_byte(b, 15)::bigint << 8);
    k0h bigint; k0l bigint; k1h bigint; k1l bigint;     -- the key's words, read once it is checked
    v0h bigint; v0l bigint; v1h bigint; v1l bigint; v2h bigint; v2l bigint; v3h bigint; v3l bigint;
    m bigint := 4294967295;
    t bigint;
BEGIN
    IF octet_length(key) <> 16 THEN
        RAISE EXCEPTION 'facade key must be 16 bytes, not %', octet_length(key)
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'The key is SipHash-2-4''s 128 bits: k0 then k1, each little-endian, as uuidv47 takes them.';
    END IF;
    IF substr(h, 13, 1) <> (CASE WHEN to_facade THEN '7' ELSE '4' END) OR substr(h, 17, 1) NOT IN ('8', '9', 'a', 'b') THEN
        RAISE EXCEPTION '%', CASE WHEN to_facade THEN 'uuid is not version 7' ELSE 'uuid is not a facade' END
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format(CASE WHEN to_facade THEN 'A facade is made of a version 7 uuid of RFC 9562''s variant; '
                                  ELSE 'A facade is a version 4 uuid of RFC 9562''s variant; ' END
                                  || 'this one has version digit %s and variant bits %s.',
                                  ('x' || substr(h, 13, 1))::bit(4)::integer,
                                  substr(('x' || substr(h, 17, 1))::bit(4)::text, 1, 2));
    END IF;
    k0h := get_byte(key, 4) | (get_byte(key, 5)::bigint << 8) | (get_byte(key, 6)::bigint << 16) | (get_byte(key, 7)::bigint << 24);
    k0l := get_byte(key, 0) | (get_byte(key, 1)::bigint << 8) | (get_byte(key, 2)::bigint << 16) | (get_byte(key, 3)::bigint << 24);
    k1h := get_byte(key, 12) | (get_byte(key, 13)::bigint << 8) | (get_byte(key, 14)::bigint << 16) | (get_byte(key, 15)::bigint << 24);
    k1l := get_byte(key, 8) | (get_byte(key, 9)::bigint << 8) | (get_byte(key, 10)::bigint << 16) | (get_byte(key, 11)::bigint << 24);
    v0h := 1936682341 # k0h;     -- 0x736f6d65 70736575: "somepseudorandomlygeneratedbytes"
    v0l := 1886610805 # k0l;
    v1h := 1685025377 # k1h;     -- 0x646f7261 6e646f6d
    v1l := 1852075885 # k1l;
    v2h := 1819895653 # k0h;     -- 0x6c796765 6e657261
    v2l := 1852142177 # k0l;
    v3h := 1952801890 # k1h;     -- 0x74656462 79746573
    v3l := 2037671283 # k1l;
    FOR r IN 1 .. 8 LOOP
        IF r = 1 THEN
            v3h := v3h # m0h; v3l := v3l # m0l;
        ELSIF r = 3 THEN
            v0h := v0h # m0h; v0l := v0l # m0l;
            v3h := v3h # m1h; v3l := v3l # m1l;
        ELSIF r = 5 THEN
            v0h := v0h # m1h; v0l := v0l # m1l;
            v2l := v2l # 255;
        END IF;
        -- v0 += v1; v1 <<<= 13; v1 ^= v0; v0 <<<= 32
        v0l := v0l + v1l; v0h := (v0h + v1h + (v0l >> 32)) & m; v0l := v0l & m;
        t := ((v1h << 13) | (v1l >> 19)) & m; v1l := ((v1l << 13) | (v1h >> 19)) & m; v1h := t;
        v1h := v1h # v0h; v1l := v1l # v0l;
        t := v0h; v0h := v0l; v0l := t;
        -- v2 += v3; v3 <<<= 16; v3 ^= v2
        v2l := v2l + v3l; v2h := (v2h + v3h + (v2l >> 32)) & m; v2l := v2l & m;
        t := ((v3h << 16) | (v3l >> 16)) & m; v3l := ((v3l << 16) | (v3h >> 16)) & m; v3h := t;
        v3h := v3h # v2h; v3l := v3l # v2l;
        -- v0 += v3; v3 <<<= 21; v3 ^= v0
        v0l := v0l + v3l; v0h := (v0h + v3h + (v0l >> 32)) & m; v0l := v0l & m;
        t := ((v3h << 21) | (v3l >> 11)) & m; v3l := ((v3l << 21) | (v3h >> 11)) & m; v3h := t;
        v3h := v3h # v0h; v3l := v3l # v0l;
        -- v2 += v1; v1 <<<= 17; v1 ^= v2; v2 <<<= 32
        v2l := v2l + v1l; v2h := (v2h + v1h + (v2l >> 32)) & m; v2l := v2l & m;
        t := ((v1h << 17) | (v1l >> 15)) & m; v1l := ((v1l << 17) | (v1h >> 15)) & m; v1h := t;
        v1h := v1h # v2h; v1l := v1l # v2l;
        t := v2h; v2h := v2l; v2l := t;
    END LOOP;
    RETURN (((v0h # v1h # v2h # v3h) & 65535) << 32) | (v0l # v1l # v2l # v3l);
END
$body$
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_facade_mask(uuid, bytea, boolean) IS
'low 48 bits of SipHash-2-4 under a 16-byte key of the 74 bits after the time, version and variant of a version 7 id or its facade; called by locality_uuid_portable_facade()';

-- The facade of a version 7 id (to_facade) or the id of a facade (version 4), both of RFC 9562's
-- variant: its time XORed with the mask and the other version digit; 22023 as the C extension.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_facade(u uuid, key bytea, to_facade boolean)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (lpad(to_hex(('x' || left(replace(u::text, '-', ''), 12))::bit(48)::bigint
                    # @internal@.locality_uuid_portable_facade_mask(u, key, to_facade)), 12, '0')
        || CASE WHEN to_facade THEN '4' ELSE '7' END || substr(replace(u::text, '-', ''), 14))::uuid;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_facade(uuid, bytea, boolean) IS
'facade of a version 7 id (to_facade) or id of a facade (not to_facade) under a 16-byte key, or 22023; called by uuidv7_to_facade and uuidv7_from_facade';

-- The key of the setting locality_uuid.facade_key (32 hexadecimal digits), or 55000 as the C
-- extension raises it. The setting is a placeholder here: any role may set and read it.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_facade_key()
RETURNS bytea
AS $body$
DECLARE
    v text := current_setting('locality_uuid.facade_key', true);
BEGIN
    IF v IS NULL OR v = '' OR v !~ '^[0-9A-Fa-f]{32}$' THEN
        RAISE EXCEPTION '%', CASE WHEN v IS NULL OR v = '' THEN 'locality_uuid.facade_key is not set'
                                  ELSE 'locality_uuid.facade_key is not a valid key' END
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'The setting must be 32 hexadecimal digits: the 16 bytes of the key, k0 then k1, each little-endian.',
                  HINT = 'Give the key as an argument, or have a superuser set locality_uuid.facade_key.';
    END IF;
    RETURN decode(v, 'hex');
END
$body$
LANGUAGE plpgsql STABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_facade_key() IS
'key of the setting locality_uuid.facade_key, or 55000 where it is unset or not 32 hexadecimal digits; called by uuidv7_to_facade(uuid) and uuidv7_from_facade(uuid)';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_to_facade(id uuid, key bytea)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_facade(id, key, true);

COMMENT ON FUNCTION @extschema@.uuidv7_to_facade(uuid, bytea) IS
'version-4-looking facade of a version 7 id under a 16-byte key (k0 then k1, each little-endian), as uuidv47 makes it: the time XORed with SipHash-2-4 of the other 74 bits; uuidv7_from_facade inverts it';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_from_facade(facade uuid, key bytea)
RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_facade(facade, key, false);

COMMENT ON FUNCTION @extschema@.uuidv7_from_facade(uuid, bytea) IS
'version 7 id of a facade that uuidv7_to_facade made with the same 16-byte key (as uuidv47 decodes it)';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_to_facade(id uuid)
RETURNS uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_facade(id, @internal@.locality_uuid_portable_facade_key(), true);

COMMENT ON FUNCTION @extschema@.uuidv7_to_facade(uuid) IS
'uuidv7_to_facade(id, key) with the key of the setting locality_uuid.facade_key (32 hex digits; in the portable edition a placeholder that any role may set and read)';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_from_facade(facade uuid)
RETURNS uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN @internal@.locality_uuid_portable_facade(facade, @internal@.locality_uuid_portable_facade_key(), false);

COMMENT ON FUNCTION @extschema@.uuidv7_from_facade(uuid) IS
'uuidv7_from_facade(facade, key) with the key of the setting locality_uuid.facade_key: WHERE id = uuidv7_from_facade($1) finds a row by its facade through the primary key';
$locality_uuid_portable$, '@extschema@', quote_ident(:'schema')), '@internal@', quote_ident(:'locality_uuid_internal')) \gexec

\if :locality_uuid_core_generators

-- portable/src/core18.sql
SELECT replace(replace($locality_uuid_portable$
-- Core's uuidv7 and uuidv4, made where the server lacks them (before PostgreSQL 18), as the C
-- extension makes them. In the install schema, since this edition cannot write pg_catalog.
-- Core 18's signatures, argument names, labels, comments and results, but for PARALLEL UNSAFE
-- on uuidv7 (its state is in temporary sequences) and LEAKPROOF, which only a superuser may set.

-- Make one version 7 id of the clock (read first, then the session's version 7 state made if it
-- has none): as core's uuidv7(), the nanosecond of this id is the clock's, or at
-- least 1000000 / 4096 + 1 ns after the session's last one (a burst, a frozen clock, a clock
-- that stepped back), so that every id of the session has a later 12-bit fraction of its
-- millisecond or a later millisecond. Bytes 0..5 the millisecond, then version 7 and the
-- 12-bit fraction, then bytes 8..15 of a random version 4 uuid (variant 10). If shifted, as
-- core: that nanosecond as a timestamptz (microseconds) plus shift in the session's time zone;
-- the millisecond and fraction of that, with the nanosecond's own nanoseconds. A shift out of
-- range changes no state. One write per id: the base moves only when the nanoseconds since it
-- would pass 2^62.
CREATE OR REPLACE FUNCTION @internal@.locality_uuid_portable_v7(shifted boolean, shift interval)
RETURNS uuid
AS $body$
DECLARE
    us bigint;
    ns numeric;
    at timestamptz;
    shifted_us bigint;
    r text;
BEGIN
    IF NOT isfinite(shift) THEN
        RAISE EXCEPTION 'interval out of range for UUID version 7'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'UUID version 7 does not support infinite intervals.';
    END IF;
    us := floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
    us := @internal@.locality_uuid_portable_session_clock(us, true);
    ns := greatest(us * 1000::numeric,
                   pg_sequence_last_value('pg_temp.locality_uuid_portable_v7_base') * 1000000::numeric
                   + pg_sequence_last_value('pg_temp.locality_uuid_portable_v7_ns') + 245);
    IF shifted THEN
        at := timestamptz '1970-01-01 00:00:00+00' + floor(ns / 1000000000)::bigint * interval '1 second'
              + floor(ns % 1000000000 / 1000)::integer * interval '1 microsecond' + shift;
        -- As core 18.6, to the microsecond: 10889-08-02 05:31:50.655001 is out of range.
        IF at < timestamptz '1970-01-01 00:00:00+00' OR at > timestamptz '10889-08-02 05:31:50.655+00' THEN
            RAISE EXCEPTION 'timestamp out of range for UUID version 7'
                USING ERRCODE = 'datetime_field_overflow',
                      DETAIL = 'UUID version 7 supports timestamps from 1970-01-01 to approximately year 10889.';
        END IF;
        shifted_us := (extract(epoch FROM at - timestamptz '2000-01-01 00:00:00+00') * 1000000)::bigint + 946684800000000;
    ELSE
        shifted_us := floor(ns / 1000)::bigint;
    END IF;
    IF ns - pg_sequence_last_value('pg_temp.locality_uuid_portable_v7_base') * 1000000::numeric
       > 4611686018427387904 THEN
        PERFORM setval('pg_temp.locality_uuid_portable_v7_base', floor(ns / 1000000)::bigint);
    END IF;
    PERFORM setval('pg_temp.locality_uuid_portable_v7_ns',
                   (ns - pg_sequence_last_value('pg_temp.locality_uuid_portable_v7_base') * 1000000::numeric)::bigint);
    r := gen_random_uuid()::text;
    RETURN (lpad(to_hex(shifted_us / 1000), 12, '0') || '7'
            || lpad(to_hex(floor((shifted_us % 1000 * 1000 + ns % 1000) * 4096 / 1000000)::integer), 3, '0')
            || substr(r, 20, 4) || substr(r, 25, 12))::uuid;
END
$body$
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @internal@.locality_uuid_portable_v7(boolean, interval) IS
'new version 7 uuid of the clock, its time shifted by shift if shifted; called by uuidv7 of the portable edition';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7()
RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN @internal@.locality_uuid_portable_v7(false, interval '0');

COMMENT ON FUNCTION @extschema@.uuidv7() IS
'generate UUID version 7';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7(shift interval)
RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN @internal@.locality_uuid_portable_v7(true, shift);

COMMENT ON FUNCTION @extschema@.uuidv7(interval) IS
'generate UUID version 7 with a timestamp shifted by specified interval';

CREATE OR REPLACE FUNCTION @extschema@.uuidv4()
RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
RETURN gen_random_uuid();

COMMENT ON FUNCTION @extschema@.uuidv4() IS
'generate UUID version 4';
$locality_uuid_portable$, '@extschema@', quote_ident(:'schema')), '@internal@', quote_ident(:'locality_uuid_internal')) \gexec
\endif
\if :locality_uuid_core_extractors

-- portable/src/core17.sql
SELECT replace(replace($locality_uuid_portable$
-- Core's uuid_extract_timestamp and uuid_extract_version, made where the server lacks them
-- (before PostgreSQL 17), as the C extension makes them (17 has them, its
-- uuid_extract_timestamp reading version 1 only: uuidv7_timestamp reads version 7 on every
-- major). In the install schema, since this edition cannot write pg_catalog; core's
-- signatures, labels, comments and results, but for LEAKPROOF, which only a superuser may set.

-- The extractors are single strict expressions, so that the planner inlines them. The key of the
-- selectors is the version digit and the variant digit: NULL unless variant 10 and version 1
-- or 7, else 1 in the version's own terms and 0 in the other's. Times count from 1582-10-15:
-- version 1 in 100 ns units (to the microsecond below, as core), version 7 in milliseconds
-- from 1970-01-01 (141427 days later); each in units of 2^24 and the rest, so that every
-- product of an integer and an interval is exact.
CREATE OR REPLACE FUNCTION @extschema@.uuid_extract_timestamp(uuid)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timezone(interval '0', timestamp '1582-10-15 00:00:00'
        + (('x' || lpad(substr($1::text, 16, 3) || substr($1::text, 10, 4) || left($1::text, 8), 16, '0'))::bit(64)::bigint / 10 >> 24)
          * ('{"18": 1, "19": 1, "1a": 1, "1b": 1, "78": 0, "79": 0, "7a": 0, "7b": 0}'::jsonb
             ->> (substr($1::text, 15, 1) || substr($1::text, 20, 1)))::integer * interval '16.777216 seconds'
        + (('x' || lpad(substr($1::text, 16, 3) || substr($1::text, 10, 4) || left($1::text, 8), 16, '0'))::bit(64)::bigint / 10 & 16777215)
          * ('{"18": 1, "19": 1, "1a": 1, "1b": 1, "78": 0, "79": 0, "7a": 0, "7b": 0}'::jsonb
             ->> (substr($1::text, 15, 1) || substr($1::text, 20, 1)))::integer * interval '1 microsecond'
        + ('{"18": 0, "19": 0, "1a": 0, "1b": 0, "78": 1, "79": 1, "7a": 1, "7b": 1}'::jsonb
           ->> (substr($1::text, 15, 1) || substr($1::text, 20, 1)))::integer * interval '141427 days'
        + ('x' || left($1::text, 6))::bit(24)::integer
          * ('{"18": 0, "19": 0, "1a": 0, "1b": 0, "78": 1, "79": 1, "7a": 1, "7b": 1}'::jsonb
             ->> (substr($1::text, 15, 1) || substr($1::text, 20, 1)))::integer * interval '16777.216 seconds'
        + ('x' || substr($1::text, 7, 2) || substr($1::text, 10, 4))::bit(24)::integer
          * ('{"18": 0, "19": 0, "1a": 0, "1b": 0, "78": 1, "79": 1, "7a": 1, "7b": 1}'::jsonb
             ->> (substr($1::text, 15, 1) || substr($1::text, 20, 1)))::integer * interval '1 millisecond');

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(uuid) IS
'extract timestamp from UUID';

CREATE OR REPLACE FUNCTION @extschema@.uuid_extract_version(uuid)
RETURNS smallint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || substr($1::text, 15, 1) || ('{"8": "", "9": "", "a": "", "b": ""}'::jsonb ->> substr($1::text, 20, 1)))::bit(4)::integer::smallint;

COMMENT ON FUNCTION @extschema@.uuid_extract_version(uuid) IS
'extract version from RFC 9562 UUID';

$locality_uuid_portable$, '@extschema@', quote_ident(:'schema')), '@internal@', quote_ident(:'locality_uuid_internal')) \gexec
\endif

-- Helpers that an earlier install left in the install schema: the functions above no longer
-- call them (CREATE OR REPLACE bound them to <schema>_internal's), so they are dropped, all in
-- one statement (they call each other).
SELECT 'DROP FUNCTION ' || string_agg(p.oid::regprocedure::text, ', ')
FROM pg_proc p
WHERE p.pronamespace = quote_ident(:'schema')::regnamespace
  AND p.proname LIKE 'locality\_uuid\_portable\_%'
  AND p.proowner = current_user::regrole
HAVING count(*) > 0
\gexec

-- The functions of the install schema this transaction wrote (the xmin of their pg_proc row),
-- with those that existed before the install.
CREATE TEMP TABLE locality_uuid_portable_written ON COMMIT DROP AS
SELECT p.oid, format('%I(%s)', p.proname, oidvectortypes(p.proargtypes)) AS signature,
       p.oid IN (SELECT oid FROM locality_uuid_portable_before) AS existed
FROM pg_proc p
WHERE p.pronamespace = quote_ident(:'schema')::regnamespace
  AND p.xmin = (pg_current_xact_id()::text::numeric % 4294967296)::text::xid;
SELECT format('DO $locality_uuid_refuse$ BEGIN RAISE EXCEPTION %L USING ERRCODE = %L, DETAIL = %L, HINT = %L; END $locality_uuid_refuse$',
              'functions the portable edition did not make exist in schema ' || quote_ident(:'schema'),
              'duplicate_function',
              'The edition would replace these functions, which it did not make: '
              || string_agg(w.oid::regprocedure::text, ', ' ORDER BY w.oid::regprocedure::text) || '.',
              'Drop or rename them, or install the edition into another schema.')
FROM locality_uuid_portable_written w
WHERE w.existed
  AND NOT :'locality_uuid_adopt'::boolean
  AND w.signature NOT IN (SELECT signature FROM :"locality_uuid_internal".locality_uuid_portable_made)
HAVING count(*) > 0
\gexec
INSERT INTO :"locality_uuid_internal".locality_uuid_portable_made
SELECT signature FROM locality_uuid_portable_written
ON CONFLICT DO NOTHING;
DELETE FROM :"locality_uuid_internal".locality_uuid_portable_made
WHERE to_regprocedure(quote_ident(:'schema') || '.' || signature) IS NULL;

COMMIT;

\unset locality_uuid_core_generators
\unset locality_uuid_core_extractors
\unset locality_uuid_internal
\unset locality_uuid_adopt
