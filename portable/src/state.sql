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
