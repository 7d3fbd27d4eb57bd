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
