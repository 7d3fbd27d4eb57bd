-- The keyed facade of version 7 ids: uuidv47's own vectors (made by its uuidv47.h, commit
-- 81ba63f) both ways, with the key as an argument and from locality_uuid.facade_key; errors;
-- the round trip of every kind of version 7 id the extension makes. The same file and output
-- for the C extension and the portable edition.
SET timezone = 'UTC';
\i sql/include/helpers.psql

-- Facades that uuidv47_encode_v4facade makes of these ids under these keys (k0 then k1, each
-- little-endian, as uuidv47's extension takes a bytea key).
CREATE TEMP TABLE uuidv47_vectors (n integer, key bytea, id uuid, facade uuid);
INSERT INTO uuidv47_vectors VALUES
    (1, '\x000102030405060708090a0b0c0d0e0f', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'e4b98970-eb53-4cc3-98c4-dc0c0c07398f'),
    (2, '\x000102030405060708090a0b0c0d0e0f', '00000000-0000-7000-8000-000000000000', 'd2d1776f-12b1-4000-8000-000000000000'),
    (3, '\x000102030405060708090a0b0c0d0e0f', 'ffffffff-ffff-7fff-bfff-ffffffffffff', '4b879cd9-4b5a-4fff-bfff-ffffffffffff'),
    (4, '\x000102030405060708090a0b0c0d0e0f', '01890a5d-ac96-774b-bcce-b302099a8057', 'bb555eb6-1d51-474b-bcce-b302099a8057'),
    (5, '\x0123456789abcdeffedcba9876543210', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'e6754e90-faa2-4cc3-98c4-dc0c0c07398f'),
    (6, '\x0123456789abcdeffedcba9876543210', '00000000-0000-7000-8000-000000000000', '873562f1-e286-4000-8000-000000000000'),
    (7, '\x0123456789abcdeffedcba9876543210', 'ffffffff-ffff-7fff-bfff-ffffffffffff', '297161fc-e80a-4fff-bfff-ffffffffffff'),
    (8, '\x00000000000000000000000000000000', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'bc2c7c17-2490-4cc3-98c4-dc0c0c07398f');
SELECT n, uuidv7_to_facade(id, key) AS facade,
       uuidv7_to_facade(id, key) = facade AS as_uuidv47,
       uuidv7_from_facade(facade, key) = id AS back
FROM uuidv47_vectors ORDER BY n;

-- Errors: a key of another length than 16 bytes, an id that is not version 7 of RFC 9562's
-- variant, a facade that is not version 4 of it (22023); NULL gives NULL.
SELECT pg_temp.try(format('SELECT uuidv7_to_facade(%L::uuid, %L::bytea)', id, key)) AS to_facade,
       pg_temp.try(format('SELECT uuidv7_from_facade(%L::uuid, %L::bytea)', id, key)) AS from_facade
FROM (VALUES ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '\x'),
             ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e'),
             ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f10'),
             ('e4b98970-eb53-4cc3-98c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f'),
             ('017f22e2-79b0-7cc3-c8c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f'),
             ('017f22e2-79b0-7cc3-18c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f'),
             ('e4b98970-eb53-4cc3-e8c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f'),
             ('1ec9414c-232a-6b00-b3c8-9f6bdeced846', '\x000102030405060708090a0b0c0d0e0f'),
             ('00000000-0000-0000-0000-000000000000', '\x000102030405060708090a0b0c0d0e0f'),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff', '\x000102030405060708090a0b0c0d0e0f')) AS v(id, key);
SELECT uuidv7_to_facade(NULL, '\x000102030405060708090a0b0c0d0e0f') IS NULL AS null_id,
       uuidv7_to_facade('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', NULL) IS NULL AS null_key,
       uuidv7_from_facade(NULL, '\x000102030405060708090a0b0c0d0e0f') IS NULL AS null_facade,
       uuidv7_from_facade('e4b98970-eb53-4cc3-98c4-dc0c0c07398f', NULL) IS NULL AS null_key_back,
       uuidv7_to_facade(NULL) IS NULL AS null_id_setting, uuidv7_from_facade(NULL) IS NULL AS null_facade_setting;

-- The key from locality_uuid.facade_key: unset, then malformed (55000, the value never shown),
-- then 32 hexadecimal digits (either case) as uuidv47 reads its bytea key.
RESET locality_uuid.facade_key;
SELECT pg_temp.try($$SELECT uuidv7_to_facade('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')$$) AS unset,
       pg_temp.try($$SELECT uuidv7_from_facade('e4b98970-eb53-4cc3-98c4-dc0c0c07398f')$$) AS unset_back;
SET locality_uuid.facade_key = '000102030405060708090a0b0c0d0e0';
SELECT pg_temp.try($$SELECT uuidv7_to_facade('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')$$) AS short;
SET locality_uuid.facade_key = '\x000102030405060708090a0b0c0d0e0f';
SELECT pg_temp.try($$SELECT uuidv7_to_facade('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')$$) AS bytea_text;
SET locality_uuid.facade_key = '000102030405060708090A0B0C0D0E0F';
SELECT n, uuidv7_to_facade(id) = facade AS as_uuidv47, uuidv7_from_facade(facade) = id AS back
FROM uuidv47_vectors WHERE key = '\x000102030405060708090a0b0c0d0e0f' ORDER BY n;
-- A key set in a rolled-back transaction is gone with it; the one before serves again.
BEGIN;
SET LOCAL locality_uuid.facade_key = '0123456789abcdeffedcba9876543210';
SELECT uuidv7_to_facade('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS facade_in_transaction;
ROLLBACK;
SELECT uuidv7_to_facade('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS facade_after;
-- An id is not a facade nor a facade an id here either.
SELECT pg_temp.try($$SELECT uuidv7_to_facade('e4b98970-eb53-4cc3-98c4-dc0c0c07398f')$$) AS facade_as_id,
       pg_temp.try($$SELECT uuidv7_from_facade('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')$$) AS id_as_facade;

-- Every kind of version 7 id the extension makes goes there and back exactly: version 4 and
-- RFC 9562's variant out, every bit after the time the id's (but the version digit), no two
-- facades alike. uuidv7() (and shifted), uuidv7_ordered() and uuidv7_ordered(at).
CREATE TEMP TABLE made (kind text, id uuid);
INSERT INTO made SELECT 'uuidv7', uuidv7() FROM generate_series(1, 1000);
INSERT INTO made SELECT 'uuidv7 shifted', uuidv7(i * interval '-1 day') FROM generate_series(1, 1000) i;
INSERT INTO made SELECT 'uuidv7_ordered', uuidv7_ordered() FROM generate_series(1, 1000);
INSERT INTO made SELECT 'uuidv7_ordered(at)', uuidv7_ordered(timestamptz '2001-02-03 04:05:06.789+00' + i * interval '1 ms')
FROM generate_series(1, 1000) i;
INSERT INTO made SELECT 'uuidv7_ordered(at), one ms', uuidv7_ordered(timestamptz '2001-02-03 04:05:06.789+00')
FROM generate_series(1, 1000) i;
SELECT kind, count(*) AS ids,
       count(*) FILTER (WHERE uuidv7_from_facade(f, k) = id) AS back,
       count(*) FILTER (WHERE uuidv7_from_facade(f) = id AND uuidv7_to_facade(id) = f) AS back_setting,
       count(*) FILTER (WHERE uuid_extract_version(f) = 4) AS version_4,
       count(*) FILTER (WHERE substr(f::text, 16) = substr(id::text, 16)) AS same_bits,
       count(DISTINCT f) AS distinct_facades
FROM (SELECT kind, id, '\x000102030405060708090a0b0c0d0e0f'::bytea AS k,
             uuidv7_to_facade(id, '\x000102030405060708090a0b0c0d0e0f') AS f FROM made) m
GROUP BY kind ORDER BY kind;
RESET locality_uuid.facade_key;
