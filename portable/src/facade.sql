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
