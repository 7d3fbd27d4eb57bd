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
