-- Explicit-time ids of the portable edition by the rule of 1.4 (docs/format.md): allocation
-- numbers handed out once and never reduced, 25006 on every call in a read-only transaction;
-- every generator after DISCARD SEQUENCES, DISCARD TEMP and DISCARD ALL.
\i sql/include/helpers.psql
SET timezone = 'UTC';
SET locality_uuid.machine_name = 'regress-host';

-- hot_uuid(key, at) with the 39-bit number n = 0x123456789A: process field 0xFFFF - (n >> 23)
-- = 0xFFFF - 0x2468 = 56215, counter 0x800000 | (n & 0x7FFFFF) = 0x800000 | 0x56789A = 14055578.
SELECT setval('locality_uuid_portable_explicit', 78187493530, false) IS NOT NULL AS positioned;
SELECT u = hot_uuid_make(4000000000, '2020-01-01 00:00:07+00', substring(decode(md5('regress-host'), 'hex') FOR 3),
                         56215, 14055578) AS exact_bits,
       hot_uuid_process(u) AS process, hot_uuid_counter(u) AS counter,
       hot_uuid_timestamp(u) AS second, hot_uuid_shard_key(u) AS shard_key
FROM (SELECT hot_uuid(4000000000, '2020-01-01 00:00:07.5+00') AS u) AS s;
-- The next number, n + 1, in the next id.
SELECT hot_uuid_process(u) AS process, hot_uuid_counter(u) AS counter
FROM (SELECT hot_uuid(1, '2020-01-01 00:00:07+00') AS u) AS s;
-- A counter that passes 23 bits moves the process field down: n = 2^23 - 1, then 2^23.
SELECT setval('locality_uuid_portable_explicit', 8388607, false) IS NOT NULL AS positioned;
SELECT hot_uuid_process(u) AS process, hot_uuid_counter(u) AS counter
FROM (SELECT hot_uuid(1, '2020-01-01 00:00:07+00') AS u FROM generate_series(1, 2)) AS s;

-- The last number of 39 bits (2^39 - 1) makes an id (process 0, counter 0xFFFFFF); every later
-- call refuses (54000), at any second, and never wraps; wall-clock ids go on.
SELECT setval('locality_uuid_portable_explicit', 549755813887, false) IS NOT NULL AS positioned;
SELECT hot_uuid_process(u) AS process, hot_uuid_counter(u) AS counter
FROM (SELECT hot_uuid(1, '2020-01-01 00:00:07+00') AS u) AS s;
SELECT pg_temp.try('SELECT hot_uuid(1, ''2020-01-01 00:00:07+00'')') AS refused,
       pg_temp.try('SELECT hot_uuid(1, ''2021-06-01 00:00:00+00'')') AS any_second,
       pg_temp.try('SELECT hot_uuid(1)') AS wall_clock_goes_on;
SELECT last_value > 549755813888 AS never_wraps FROM locality_uuid_portable_explicit;

-- uuidv7_ordered(at) the same at 2^41: the last number makes an id, then 54000.
SELECT setval('locality_uuid_portable_v7_explicit', 2199023255551, false) IS NOT NULL AS positioned;
SELECT substr(u::text, 15, 4) || substr(u::text, 20, 9) AS number_digits
FROM (SELECT uuidv7_ordered('2022-02-22 19:22:22+00') AS u) AS s;
SELECT pg_temp.try('SELECT uuidv7_ordered(''2022-02-22 19:22:22+00'')') AS refused;
SELECT setval('locality_uuid_portable_explicit', 1000, false) IS NOT NULL AS back_for_the_rest,
       setval('locality_uuid_portable_v7_explicit', 1000, false) IS NOT NULL AS v7_too;

-- Read-only: uuidv7_ordered(), uuidv7_ordered(at) and hot_uuid(key, at) refuse on every
-- call, also with the session's state made and when at is the current second (which makes a
-- wall-clock id); the other generators work once the state is made.
SELECT hot_uuid_shard_key(hot_uuid(1)) AS state_made, uuid_extract_version(uuidv7_ordered()) AS v7_state_made;
BEGIN READ ONLY;
SELECT pg_temp.try('SELECT uuidv7_ordered()') AS ordered,
       pg_temp.try('SELECT uuidv7_ordered(''2022-02-22 19:22:22+00'')') AS ordered_at,
       pg_temp.try('SELECT hot_uuid(1, ''2020-01-01 00:00:07+00'')') AS hot_at,
       pg_temp.try('SELECT hot_uuid(1, clock_timestamp())') AS hot_at_now,
       pg_temp.try('SELECT hot_uuid(1)') AS hot,
       pg_temp.try('SELECT locality_uuid()') AS locality;
ROLLBACK;

-- DISCARD SEQUENCES forgets currval, not the sequences: every generator goes on, in order
-- where it keeps an order.
CREATE TEMP TABLE before_discard AS
SELECT locality_uuid(true) AS seq, locality_uuid(false) AS var, hot_uuid(7) AS hot, uuidv7_ordered() AS ordered,
       uuid_time_nextval() AS time_block;
DISCARD SEQUENCES;
SELECT pg_temp.try('SELECT locality_uuid()') AS locality,
       pg_temp.try('SELECT locality_uuid(true)') AS sequential,
       pg_temp.try('SELECT hot_uuid(7)') AS hot,
       pg_temp.try('SELECT hot_uuid(7, ''2020-01-01 00:00:07+00'')') AS hot_at,
       pg_temp.try('SELECT uuidv7_ordered()') AS ordered,
       pg_temp.try('SELECT uuidv7_ordered(''2022-02-22 19:22:22+00'')') AS ordered_at;
SELECT locality_uuid_timestamp(locality_uuid(true)) >= locality_uuid_timestamp(seq) AS sequential_time_kept,
       hot_uuid_counter(hot_uuid(7)) <> hot_uuid_counter(hot) OR hot_uuid_timestamp(hot_uuid(7)) > hot_uuid_timestamp(hot)
           AS hot_next_tick,
       uuidv7_ordered() > ordered AS ordered_after
FROM before_discard;

-- DISCARD TEMP and DISCARD ALL drop the state (and before_discard): the next call makes it anew.
DISCARD TEMP;
\i sql/include/helpers.psql
SELECT count(*) AS state_sequences FROM pg_class
WHERE relnamespace = pg_my_temp_schema() AND relname LIKE 'locality_uuid_portable_%';
SELECT pg_temp.try('SELECT locality_uuid()') AS locality,
       pg_temp.try('SELECT hot_uuid(7)') AS hot,
       pg_temp.try('SELECT uuidv7_ordered()') AS ordered;
DISCARD ALL;
\i sql/include/helpers.psql
SELECT pg_temp.try('SELECT locality_uuid()') AS locality,
       pg_temp.try('SELECT locality_uuid(true)') AS sequential,
       pg_temp.try('SELECT hot_uuid(7)') AS hot,
       pg_temp.try('SELECT uuidv7_ordered()') AS ordered,
       pg_temp.try('SELECT hot_uuid(7, ''2020-01-01 00:00:07+00'')') AS hot_at;
SELECT count(*) AS state_sequences FROM pg_class
WHERE relnamespace = pg_my_temp_schema() AND relname LIKE 'locality_uuid_portable_%';
