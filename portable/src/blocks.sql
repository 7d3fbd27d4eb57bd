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
