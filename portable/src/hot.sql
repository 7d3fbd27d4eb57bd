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
