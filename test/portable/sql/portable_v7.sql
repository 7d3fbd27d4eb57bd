-- The version 7 functions of the portable edition (v7 runs what both editions share): which it
-- defines on each major and their labels, its session state (temporary sequences that a
-- rollback does not rewind, kept through SET ROLE), the allocation numbers of
-- uuidv7_ordered(at) and when it refuses.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

-- Core's names the edition makes where the server lacks them: uuidv7 and uuidv4 before
-- PostgreSQL 18, uuid_extract_timestamp and uuid_extract_version before 17.
SELECT string_agg(proname, ', ' ORDER BY proname)
       IS NOT DISTINCT FROM CASE current_setting('server_version_num')::integer / 10000
                                WHEN 15 THEN 'uuid_extract_timestamp, uuid_extract_version, uuidv4, uuidv7, uuidv7'
                                WHEN 16 THEN 'uuid_extract_timestamp, uuid_extract_version, uuidv4, uuidv7, uuidv7'
                                WHEN 17 THEN 'uuidv4, uuidv7, uuidv7' END AS core_names_as_documented
FROM pg_proc
WHERE pronamespace = 'public'::regnamespace
  AND proname IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version');

-- Those it makes have core 18's argument names, result, volatility, strictness, parallel safety
-- but for uuidv7 (unsafe: its state is in temporary sequences) and comment.
SELECT c.signature,
       p.oid IS NULL OR (pg_get_function_arguments(p.oid), p.prorettype::regtype::text, p.provolatile::text,
                         p.proisstrict, p.proparallel::text, obj_description(p.oid, 'pg_proc'))
                        = (c.arguments, c.result, c.volatility, true, c.parallel, c.comment) AS as_core_18
FROM (VALUES ('uuidv7()', '', 'uuid', 'v', 'u', 'generate UUID version 7'),
             ('uuidv7(interval)', 'shift interval', 'uuid', 'v', 'u',
              'generate UUID version 7 with a timestamp shifted by specified interval'),
             ('uuidv4()', '', 'uuid', 'v', 's', 'generate UUID version 4'),
             ('uuid_extract_timestamp(uuid)', 'uuid', 'timestamp with time zone', 'i', 's', 'extract timestamp from UUID'),
             ('uuid_extract_version(uuid)', 'uuid', 'smallint', 'i', 's', 'extract version from RFC 9562 UUID'))
         AS c(signature, arguments, result, volatility, parallel, comment)
LEFT JOIN pg_proc p ON p.oid = to_regprocedure('public.' || c.signature)
ORDER BY 1;

\c -
SET timezone = 'UTC';
\i sql/include/helpers.psql
-- The ordering key of a uuidv7_ordered() id (millisecond, fraction, counter) and the allocation
-- number of a uuidv7_ordered(at) id, read from their fields.
CREATE FUNCTION pg_temp.v7_key(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE
RETURN (('x' || left(u::text, 8) || substr(u::text, 10, 4))::bit(48)::bigint << 15)
       | (('x' || substr(u::text, 16, 3))::bit(12)::bigint << 3)
       | ((('x' || substr(u::text, 20, 2))::bit(8)::bigint >> 2) & 7);
CREATE FUNCTION pg_temp.v7_allocation(u uuid) RETURNS bigint LANGUAGE sql IMMUTABLE
RETURN (('x' || substr(u::text, 16, 3))::bit(12)::bigint << 29)
       | ((('x' || substr(u::text, 20, 2))::bit(8)::bigint & 31) << 24)
       | ('x' || substr(u::text, 22, 2) || substr(u::text, 25, 4))::bit(24)::bigint;

-- A fresh session: its first clock id makes three temporary sequences, which a read-only
-- transaction cannot; an id at an explicit time takes a number of an ordinary sequence, which
-- a read-only transaction cannot either.
\set VERBOSITY sqlstate
BEGIN READ ONLY;
SELECT uuidv7_ordered();
ROLLBACK;
BEGIN READ ONLY;
SELECT uuidv7_ordered('2022-02-22 19:22:22+00');
ROLLBACK;
\set VERBOSITY default
CREATE TEMP TABLE first_ids AS
SELECT uuidv7_ordered() AS clock_id, uuidv7_ordered('2022-02-22 19:22:22+00') AS explicit_id;
SELECT uuid_extract_version(clock_id) AS clock_version, uuid_extract_version(explicit_id) AS explicit_version
FROM first_ids;
SELECT string_agg(relname, ', ' ORDER BY relname) AS state_sequences FROM pg_class
WHERE relnamespace = pg_my_temp_schema() AND relname LIKE 'locality_uuid_portable_%';
-- Once made, the state does not make uuidv7_ordered() work in a read-only transaction: it
-- refuses on every call (25006), as the C extension, whatever the timing.
BEGIN READ ONLY;
SELECT pg_temp.try('SELECT uuidv7_ordered()') AS read_only_once_made;
ROLLBACK;

-- A rollback does not rewind the state: ids made in a rolled-back transaction are not made
-- again (each uuidv7_ordered() id takes at least the next key; each uuidv7() id at least
-- 245 ns more, 1000 of them at least 1000 fractions of 1/4096 ms).
CREATE TEMP TABLE last_ids (k text, u uuid);
INSERT INTO last_ids VALUES ('ordered', uuidv7_ordered()), ('v7', uuidv7());
BEGIN;
SELECT count(uuidv7_ordered()) + count(uuidv7()) AS rolled_back FROM generate_series(1, 1000);
ROLLBACK;
SELECT pg_temp.v7_key(uuidv7_ordered()) - (SELECT pg_temp.v7_key(u) FROM last_ids WHERE k = 'ordered') > 1000
           AS ordered_went_on,
       (pg_temp.v7_key(uuidv7()) >> 3) - (SELECT pg_temp.v7_key(u) >> 3 FROM last_ids WHERE k = 'v7') >= 1000
           AS v7_went_on;

-- One session, several roles: SET ROLE goes on with the same state (no new sequences), and the
-- role can be dropped.
CREATE ROLE regress_portable_v7;
DELETE FROM last_ids;
INSERT INTO last_ids VALUES ('ordered', uuidv7_ordered());
GRANT SELECT ON last_ids TO regress_portable_v7;
SET ROLE regress_portable_v7;
SELECT uuidv7_ordered() > (SELECT u FROM last_ids WHERE k = 'ordered') AS ordered_next,
       (SELECT count(*) FROM pg_class WHERE relnamespace = pg_my_temp_schema()
                                        AND relname LIKE 'locality_uuid_portable_v7_%') AS state_sequences;
RESET ROLE;
REVOKE SELECT ON last_ids FROM regress_portable_v7;
DROP ROLE regress_portable_v7;

-- uuidv7_ordered(at) takes one number of the install schema's sequence per id, and ids of any
-- millisecond take them from the same sequence.
SELECT count(*) AS ids,
       count(*) FILTER (WHERE pg_temp.v7_allocation(u) - pg_temp.v7_allocation(prev) = 1) AS next_number
FROM (SELECT u, lag(u) OVER (ORDER BY g) AS prev
      FROM (SELECT g, uuidv7_ordered(timestamptz '2022-02-22 19:22:22+00' + g % 3 * interval '1 s') AS u
            FROM generate_series(1, 1000) AS g) AS s) AS t;
SELECT pg_temp.v7_allocation(uuidv7_ordered('2022-02-22 19:22:22+00'))
       = (SELECT last_value FROM locality_uuid_portable_v7_explicit) AS the_sequence_number;

-- Each allocation number is handed out once and never reduced: the last one of 41 bits
-- (2^41 - 1) still makes an id, which carries it; every later call refuses (54000), at any
-- millisecond and in any session, while clock ids go on.
SELECT setval('locality_uuid_portable_v7_explicit', 2199023255551, false) IS NOT NULL AS moved;
SELECT pg_temp.v7_allocation(u) = 2199023255551 AS last_number
FROM (SELECT uuidv7_ordered('2022-02-22 19:22:22+00') AS u) AS s;
SELECT pg_temp.try('SELECT uuidv7_ordered(''2022-02-22 19:22:22+00'')') AS refused,
       pg_temp.try('SELECT uuidv7_ordered(''2030-01-01 00:00:00+00'')') AS any_millisecond,
       pg_temp.try('SELECT uuidv7_ordered()') AS clock_ids_go_on;

-- DISCARD TEMP drops the state; the next id makes it anew.
DISCARD TEMP;
SELECT count(*) AS state_sequences FROM pg_class
WHERE relnamespace = pg_my_temp_schema() AND relname LIKE 'locality_uuid_portable_v7_%';
SELECT uuid_extract_version(uuidv7_ordered()) AS version;
SELECT count(*) AS state_sequences FROM pg_class
WHERE relnamespace = pg_my_temp_schema() AND relname LIKE 'locality_uuid_portable_v7_%';

\c -
\i sql/include/helpers.psql
SELECT pg_temp.try('SELECT uuidv7_ordered(''2022-02-22 19:22:22+00'')') AS new_session_refused_too;
SELECT setval('locality_uuid_portable_v7_explicit', 1000, false) IS NOT NULL AS back_for_the_rest;
