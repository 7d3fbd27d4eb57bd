-- Shard-key uuids (HotGuid layout): the vectors of docs/format.md, section 3, extraction,
-- time wrap, generation, ordering.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

-- The vectors of docs/format.md, section 3, composed from explicit fields (machine digest
-- 11 22 33, process 0x4455).
SELECT hot_uuid_make(208, '2022-02-06 00:00:00+00', '\x112233', 17493, 658188) AS v1,
       hot_uuid_make(0, '2022-02-06 00:00:00+00', '\x112233', 17493, 1) AS v2,
       hot_uuid_make(305419896, '1970-01-01 00:00:00+00', '\x112233', 17493, 42) AS v3;

-- Extraction from the vectors' text: every field back, shard key as HotGuid's ExtractShardKey,
-- time as HotGuid's ExtractUnixTimestamp (unsigned seconds).
SELECT id,
       hot_uuid_shard_key(id) AS shard_key,
       hot_uuid_timestamp(id) AS ts,
       extract(epoch FROM hot_uuid_timestamp(id))::bigint AS unix_seconds,
       hot_uuid_machine(id) AS machine,
       to_hex(hot_uuid_process(id)) AS process,
       to_hex(hot_uuid_counter(id)) AS counter
FROM (VALUES ('61ff0f80-2211-4433-550a-0b0cd0000000'::uuid),
             ('61ff0f80-2211-4433-5500-000100000000'::uuid),
             ('00000000-2211-4433-5500-002a78563412'::uuid)) AS t(id);

-- Shard key edges: 0, 1, 255, 256, 2^31, 2^32 - 1; little-endian in bytes 12..15.
SELECT k, hot_uuid_make(k, '2022-02-06 00:00:00+00') AS id,
       hot_uuid_shard_key(hot_uuid_make(k, '2022-02-06 00:00:00+00')) = k AS extracted
FROM unnest(ARRAY[0, 1, 255, 256, 2147483648, 4294967295]::bigint[]) AS k;

-- The time field: 2038 steps over int32, 2106 wraps to 0, before 1970 wraps too (HotGuid's
-- own tests expect 2106-02-07 06:28:16 to read 0). Fractions of a second are floored.
SELECT ts, left(hot_uuid_make(1, ts)::text, 8) AS time_field,
       extract(epoch FROM hot_uuid_timestamp(hot_uuid_make(1, ts)))::bigint AS unix_seconds
FROM unnest(ARRAY['2038-01-19 03:14:06+00', '2038-01-19 03:14:07+00', '2038-01-19 03:14:08+00',
                  '2038-01-19 03:14:09+00', '2106-02-07 06:28:14+00', '2106-02-07 06:28:15+00',
                  '2106-02-07 06:28:16+00', '2106-02-07 06:28:17+00', '1970-01-01 00:00:00.999999+00',
                  '1969-12-31 23:59:59.999999+00', '1969-12-31 23:59:59+00',
                  '1969-12-31 23:59:58.5+00', '1901-12-13 20:45:52+00']::timestamptz[]) AS ts;

-- Every field at its limits, and each field in its own bytes.
SELECT hot_uuid_make(4294967295, '2106-02-07 06:28:15+00', '\xffffff', 65535, 16777215) AS all_ones,
       hot_uuid_make(0, '1970-01-01+00', '\x000000', 0, 0) AS all_zeros,
       hot_uuid_make(0, '1970-01-01+00', '\x010203') AS machine,
       hot_uuid_make(0, '1970-01-01+00', process => 43981) AS process,
       hot_uuid_make(0, '1970-01-01+00', counter => 16702650) AS counter;

-- Round trip over a grid of fields: extraction returns what was composed.
SELECT count(*) AS ids,
       count(*) FILTER (WHERE hot_uuid_shard_key(u) = k
                          AND hot_uuid_timestamp(u) = ts
                          AND hot_uuid_machine(u) = m
                          AND hot_uuid_process(u) = p
                          AND hot_uuid_counter(u) = c) AS round_trips
FROM (SELECT k, ts, m, p, c, hot_uuid_make(k, ts, m, p, c) AS u
      FROM unnest(ARRAY[0, 1, 208, 65535, 65536, 305419896, 4294967295]::bigint[]) k,
           unnest(ARRAY['1970-01-01+00', '2022-02-06+00', '2038-01-19 03:14:08+00',
                        '2106-02-07 06:28:15+00']::timestamptz[]) ts,
           unnest(ARRAY['\x000000', '\x112233', '\xffffff']::bytea[]) m,
           unnest(ARRAY[0, 255, 256, 17493, 65535]) p,
           unnest(ARRAY[0, 1, 42, 658188, 16777215]) c) s;

-- Any uuid decodes (the layout has no version digit): a v4 id gives its bytes' values.
SELECT hot_uuid_shard_key('00000000-0000-4000-8000-0000d0070000') AS shard_key,
       hot_uuid_timestamp('ffffffff-0000-4000-8000-000000000000') AS ts;

-- Strict: NULL in, NULL out.
SELECT hot_uuid(NULL) IS NULL AS gen, hot_uuid(1, NULL) IS NULL AS gen_at,
       hot_uuid_shard_key(NULL) IS NULL AS shard_key, hot_uuid_timestamp(NULL) IS NULL AS ts,
       hot_uuid_boundary(NULL) IS NULL AS boundary, hot_uuid_make(1, NULL) IS NULL AS made;

-- Boundaries: the smallest id of a second, wrapping as the time field does.
SELECT hot_uuid_boundary('2022-02-06 00:00:00+00') AS b2022,
       hot_uuid_boundary('2022-02-06 00:00:00.999999+00') AS same_second,
       hot_uuid_boundary('2106-02-07 06:28:16+00') AS b2106,
       hot_uuid_boundary('1969-12-31 23:59:59.5+00') AS b1969;

-- The boundary sorts at or below every id of its second and above every id of the second before.
SELECT bool_and(hot_uuid_boundary(ts) <= hot_uuid_make(k, ts, m, p, c)) AS at_or_below,
       bool_and(hot_uuid_boundary(ts + interval '1 second') > hot_uuid_make(k, ts, m, p, c)) AS next_above
FROM unnest(ARRAY['1970-01-01+00', '2022-02-06 00:00:00.5+00', '2038-01-19 03:14:07+00']::timestamptz[]) ts,
     unnest(ARRAY[0, 4294967295]::bigint[]) k,
     unnest(ARRAY['\x000000', '\xffffff']::bytea[]) m,
     unnest(ARRAY[0, 65535]) p,
     unnest(ARRAY[0, 16777215]) c;

-- Generation, in a fresh backend: 10k ids in one statement. All distinct, in generation order
-- (uuid order), one machine and process, and each id's time field and counter together are
-- its own tick of 2^-23 s of the clock, between the clock readings (to the microsecond)
-- taken just before and after it.
\c -
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
\i sql/include/helpers.psql
-- The clock's last tick lives in the calling process and a parallel worker has its own: keep
-- these statements in this backend even when the suite runs under parallel mode.
SET :"parallel_guc" = off;
CREATE TEMP TABLE hot_ids AS
SELECT n, clock_timestamp() AS before, hot_uuid(n % 3 * 2147483647::bigint) AS u, clock_timestamp() AS after
FROM generate_series(1, 10000) AS n;

SELECT count(*) AS ids,
       count(DISTINCT u) AS distinct_ids,
       bool_and(hot_uuid_shard_key(u) = n % 3 * 2147483647::bigint) AS shard_keys,
       bool_and(hot_uuid_timestamp(u) BETWEEN date_trunc('second', before) AND after) AS stamped_now,
       bool_and(extract(epoch FROM hot_uuid_timestamp(u)) + hot_uuid_counter(u) / 8388608.0
                BETWEEN extract(epoch FROM before) - 0.000001
                    AND extract(epoch FROM after) + 0.000001) AS tick_of_clock,
       count(DISTINCT hot_uuid_machine(u)) AS machines,
       count(DISTINCT hot_uuid_process(u)) AS processes
FROM hot_ids;

SELECT count(*) AS pairs,
       count(*) FILTER (WHERE a.u < b.u) AS ascending
FROM hot_ids a JOIN hot_ids b ON b.n = a.n + 1;

-- Sorting the ids gives generation order.
SELECT bool_and(rn = n) AS sorted_is_generation_order
FROM (SELECT n, row_number() OVER (ORDER BY u) AS rn FROM hot_ids) s;

-- Ids at an explicit time carry that second and take their own ticks of the same clock:
-- distinct from each other and from the wall-clock ids made around them.
SELECT a <> b AS distinct_ids, left(a::text, 8) = left(b::text, 8) AS same_second,
       left(b::text, 8) AS time_field,
       (SELECT count(*) FROM hot_ids WHERE u IN (a, b)) AS equal_to_a_clock_id
FROM (SELECT hot_uuid(5, '2038-01-19 03:14:08+00') AS a, hot_uuid(5, '2038-01-19 03:14:08+00') AS b) s;
RESET :"parallel_guc";
SELECT left(u::text, 8) AS time_field, hot_uuid_timestamp(u) AS ts, hot_uuid_shard_key(u) AS shard_key
FROM (VALUES (hot_uuid(4294967295, '2106-02-07 06:28:15.5+00')),
             (hot_uuid(0, '2106-02-07 06:28:16+00')),
             (hot_uuid(1, '1969-12-31 23:59:59+00')),
             (hot_uuid(2, '2022-02-06 00:00:00.999+00'))) AS t(u);

-- Process field: the backend slot by default, as every generator here; pid mod 65536 as
-- HotGuid with locality_uuid.process_field = pid (high byte at 6, low byte at 8).
SELECT hot_uuid_process(hot_uuid(1)) = locality_uuid_pid(locality_uuid()) AS same_as_locality_uuid;
SET locality_uuid.process_field = pid;
SELECT hot_uuid_process(hot_uuid(1)) = pg_backend_pid() % 65536 AS is_pid,
       substr(u::text, 15, 2) || substr(u::text, 20, 2) = lpad(to_hex(pg_backend_pid() % 65536), 4, '0') AS bytes_6_and_8
FROM (VALUES (hot_uuid(1))) AS t(u);
RESET locality_uuid.process_field;

-- Machine hash: MD5 digest bytes 0..2 of locality_uuid.machine_name, at bytes 5, 4, 7.
CREATE TEMP TABLE host_machine AS SELECT hot_uuid_machine(hot_uuid(1)) AS m;
SET locality_uuid.machine_name = 'db-eu-1';
SELECT hot_uuid_machine(u) AS machine,
       substring(decode(md5('db-eu-1'), 'hex') FOR 3) AS md5_prefix,
       substr(u::text, 10, 4) || substr(u::text, 17, 2) AS bytes_4_5_7
FROM (VALUES (hot_uuid(1))) AS t(u);
SET locality_uuid.machine_name = 'other';
SELECT hot_uuid_machine(hot_uuid(1)) = substring(decode(md5('other'), 'hex') FOR 3) AS follows_setting;
-- Empty again: the host name's hash, recomputed after SET, RESET or a rollback.
BEGIN;
SET LOCAL locality_uuid.machine_name = 'in-transaction';
SELECT hot_uuid_machine(hot_uuid(1)) = substring(decode(md5('in-transaction'), 'hex') FOR 3) AS in_transaction;
ROLLBACK;
SELECT hot_uuid_machine(hot_uuid(1)) = substring(decode(md5('other'), 'hex') FOR 3) AS after_rollback;
RESET locality_uuid.machine_name;
SELECT hot_uuid_machine(hot_uuid(1)) = m AS host_again FROM host_machine;
