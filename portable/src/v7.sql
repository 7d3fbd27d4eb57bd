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
