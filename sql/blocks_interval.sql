-- C edition only (the portable suite leaves this file out).
-- Time blocks of any length from 1 ms (uuid_time_nextval_interval): layouts, agreement with
-- uuid_time_nextval for whole seconds, the prefix rule against the clock, uuid_time_block_start
-- and its use in an expression index, and every argument error with its SQLSTATE.

\i sql/include/helpers.psql
SET TimeZone = 'UTC';

-- The rule, restated: u is the coarsest of 1 s, 1 ms and 1 us that divides the length L,
-- B the prefix bits of the count C, S' = max(u, 1 ms, floor((L / u) * C / 2^B) * u) in us.
CREATE FUNCTION pg_temp.bits(c integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN c <= 256 THEN 8 WHEN c <= 65536 THEN 16 WHEN c <= 16777216 THEN 24 ELSE 32 END
$$;
CREATE FUNCTION pg_temp.block_us(len interval, c integer) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
    SELECT greatest(u, 1000, floor((l / u)::numeric * c / 2 ^ pg_temp.bits(c)::numeric)::bigint * u)
    FROM (SELECT l, CASE WHEN l % 1000000 = 0 THEN 1000000 WHEN l % 1000 = 0 THEN 1000 ELSE 1 END AS u
          FROM (SELECT (extract(epoch FROM len) * 1000000)::bigint AS l) a) b
$$;
-- Unix microseconds of a timestamptz.
CREATE FUNCTION pg_temp.unix_us(t timestamptz) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
    SELECT (extract(epoch FROM t) * 1000000)::bigint
$$;
-- A fixed version 4 id for each g, its first bytes spread by md5.
CREATE FUNCTION pg_temp.v4(g integer) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
    SELECT (substr(h, 1, 12) || '4' || substr(h, 14, 3) || '8' || substr(h, 18, 15))::uuid
    FROM (SELECT md5(g::text) AS h) m
$$;

-- Layouts: the length is kept as asked when the count is a power of 256; otherwise S' is
-- rounded down in the unit the length is written in (4096 blocks need 16 bits: 15 ms), and
-- never below 1 ms (1.5 ms in 100 blocks would be 585 us).
SELECT len, cnt, l.*
FROM (VALUES ('1 ms'::interval, 65536), ('1.001 ms', 65536), ('1.5 ms', 100), ('100 ms', 16777216),
             ('250 ms', 4096), ('250 ms', 65536), ('400 ms', 1073741824), ('2 s', 100),
             ('2 s', 1073741824), ('2.001 s', 1073741824), ('1 min', 65536), ('1 day', 256),
             ('1 day -23:59:59.999', 1), ('24855 days 03:14:07', 2147483647),
             ('24855 days 03:14:06.999999', 2147483647)) AS v(len, cnt),
     LATERAL locality_uuid_block_layout(len, cnt) AS l;
SELECT * FROM locality_uuid_block_layout('1 s'::interval);
SELECT * FROM locality_uuid_block_layout(interval_length => '10 ms', interval_count => 256);

-- The layout function, the SQL restatement and the wrap agree on a grid of lengths and counts.
SELECT count(*) AS cases,
       count(*) FILTER (WHERE l.prefix_bits = pg_temp.bits(c)
                          AND l.effective_block_size = pg_temp.block_us(len, c)
                          AND l.prefixes = 2::numeric ^ l.prefix_bits
                          AND l.block_interval = l.effective_block_size * interval '1 microsecond'
                          AND (l.wrap_values = l.prefixes::numeric * l.effective_block_size
                               OR (l.wrap_values IS NULL AND l.prefixes * l.effective_block_size::numeric >= 2::numeric ^ 63)))
           AS layout_matches_rule
FROM unnest(ARRAY['1 ms', '1.001 ms', '1.5 ms', '2.047 ms', '7 ms', '15.625 ms', '100 ms', '250 ms', '999.999 ms',
                  '1 s', '1.5 s', '59 s', '1 min', '1 hour', '1 day', '24855 days 03:14:07']::interval[]) AS len,
     unnest(ARRAY[1, 2, 100, 255, 256, 257, 4096, 65535, 65536, 65537, 16777215, 16777216,
                  16777217, 1073741824, 2147483647]) AS c,
     LATERAL locality_uuid_block_layout(len, c) AS l;

-- Whole seconds: the interval form has the integer form's layout for every (length, count) of
-- a grid (so the same prefix at every clock: floor(t / S') mod 2^B with the same S' and B) ...
SELECT count(*) AS cases,
       count(*) FILTER (WHERE (i.prefix_bits, i.prefixes, i.effective_block_size, i.block_interval)
                            = (s.prefix_bits, s.prefixes, s.effective_block_size * 1000000, s.block_interval)
                          AND (i.wrap_interval = s.wrap_interval
                               OR (i.wrap_interval IS NULL AND s.wrap_values::numeric * 1000000 >= 2::numeric ^ 63)))
           AS same_layout
FROM unnest(ARRAY[1, 2, 3, 7, 39, 59, 60, 61, 100, 255, 256, 257, 1000, 3600, 65535, 65536, 86400,
                  1000000, 16777216, 1073741824, 2147483647]) AS secs,
     unnest(ARRAY[1, 2, 3, 100, 255, 256, 257, 4096, 65535, 65536, 65537, 16777215, 16777216,
                  16777217, 1073741823, 1073741824, 1073741825, 2147483647]) AS c,
     LATERAL locality_uuid_block_layout(make_interval(secs => secs), c) AS i,
     LATERAL locality_uuid_block_layout(secs, c) AS s;

-- ... and uuid_time_block_start reads the same block start from both forms, for 40 ids, 21
-- lengths, 18 counts and 5 clocks (1970, 2001, now-ish, the edges of the integer form's
-- blocks), wherever a wrap back stays within timestamptz's range (wraps under 6000 years).
SELECT count(*) AS cases,
       count(*) FILTER (WHERE uuid_time_block_start(pg_temp.v4(g), secs, c, as_of)
                            = uuid_time_block_start(pg_temp.v4(g), make_interval(secs => secs), c, as_of))
           AS same_start,
       count(*) FILTER (WHERE uuid_time_block_start(pg_temp.v4(g), secs, c, as_of) <= as_of) AS not_after_as_of
FROM generate_series(1, 40) AS g,
     unnest(ARRAY[1, 2, 3, 7, 39, 59, 60, 61, 100, 255, 256, 257, 1000, 3600, 65535, 65536, 86400,
                  1000000, 16777216, 1073741824, 2147483647]) AS secs,
     unnest(ARRAY[1, 2, 3, 100, 255, 256, 257, 4096, 65535, 65536, 65537, 16777215, 16777216,
                  16777217, 1073741823, 1073741824, 1073741825, 2147483647]) AS c,
     unnest(ARRAY['1970-01-01 00:00:00+00', '2001-09-09 01:46:40.5+00', '2023-11-14 22:13:20.123456+00',
                  '2023-11-14 22:13:19.999999+00', '2038-01-19 03:14:08+00']::timestamptz[]) AS as_of,
     LATERAL locality_uuid_block_layout(secs, c) AS l
WHERE l.wrap_values < 6000 * 31557600::bigint;

-- At the clock: an id made between clock reads t0 and t1 carries floor(t / S') mod 2^B for a
-- block t / S' from t0's to t1's (one or two of them unless the backend was held up between).
CREATE FUNCTION pg_temp.clock_prefix_ok(len interval, cnt integer) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    b0 bigint;
    b1 bigint;
    u uuid;
    l record;
BEGIN
    SELECT * INTO l FROM locality_uuid_block_layout(len, cnt);
    b0 := pg_temp.unix_us(clock_timestamp()) / l.effective_block_size;
    u := uuid_time_nextval_interval(len, cnt);
    b1 := pg_temp.unix_us(clock_timestamp()) / l.effective_block_size;
    RETURN ((locality_uuid_block(u, cnt) - b0) % l.prefixes + l.prefixes) % l.prefixes <= b1 - b0;
END
$$;
SELECT len, cnt, pg_temp.clock_prefix_ok(len, cnt) AS prefix_ok
FROM (VALUES ('1 ms'::interval, 65536), ('1 ms', 256), ('1.5 ms', 100), ('100 ms', 16777216),
             ('250 ms', 4096), ('400 ms', 1073741824), ('1 s', 256), ('1 min', 65536),
             ('1 day', 16777217), ('24855 days 03:14:07', 2147483647)) AS v(len, cnt);

-- At the clock, both forms: an id of each, made in the same block, has the same prefix.
CREATE FUNCTION pg_temp.both_forms_agree(secs integer, cnt integer) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    l record;
    t0 bigint;
    t1 bigint;
    a uuid;
    b uuid;
BEGIN
    SELECT * INTO l FROM locality_uuid_block_layout(secs, cnt);
    FOR attempt IN 1..5 LOOP
        t0 := pg_temp.unix_us(clock_timestamp()) / 1000000 / l.effective_block_size;
        a := uuid_time_nextval(secs, cnt);
        b := uuid_time_nextval_interval(make_interval(secs => secs), cnt);
        t1 := pg_temp.unix_us(clock_timestamp()) / 1000000 / l.effective_block_size;
        IF t0 = t1 THEN
            RETURN locality_uuid_block(a, cnt) = locality_uuid_block(b, cnt)
               AND locality_uuid_block(a, cnt) = t0 % l.prefixes;
        END IF;
    END LOOP;
    RETURN NULL;    -- a block boundary fell inside every attempt
END
$$;
SELECT count(*) AS cases, count(*) FILTER (WHERE pg_temp.both_forms_agree(secs, c)) AS agree
FROM unnest(ARRAY[1, 2, 3, 60, 100, 3600]) AS secs,
     unnest(ARRAY[1, 100, 256, 4096, 65536, 65537, 16777216, 2147483647]) AS c;

-- A bulk of ids made in 1 ms blocks: version 4, distinct, and their prefixes never go back
-- (the statement takes far less than the 65.5 s wrap).
CREATE TEMP TABLE ms_ids AS
SELECT g, uuid_time_nextval_interval('1 ms'::interval) AS u FROM generate_series(1, 20000) g;
SELECT count(DISTINCT u) AS ids,
       bool_and(substr(u::text, 15, 1) = '4' AND substr(u::text, 20, 1) IN ('8', '9', 'a', 'b')) AS v4,
       bool_and(d >= 0 OR d < -32768) AS prefixes_advance
FROM (SELECT u, locality_uuid_block(u) - lag(locality_uuid_block(u)) OVER (ORDER BY g) AS d FROM ms_ids) s;
DROP TABLE ms_ids;

-- uuid_time_block_start, exact vectors: the block of as_of itself, the next prefix (one wrap
-- back), another prefix, at and just before a block start, before 1970, the count's width.
SELECT uuid_time_block_start('f100ffff-ffff-4fff-bfff-ffffffffffff', 1, 65536, '2023-11-14 22:13:20.123456+00') AS own_block,
       uuid_time_block_start('f101ffff-ffff-4fff-bfff-ffffffffffff', 1, 65536, '2023-11-14 22:13:20.123456+00') AS wrap_back,
       uuid_time_block_start('1234ffff-ffff-4fff-bfff-ffffffffffff', 1, 65536, '2023-11-14 22:13:20.123456+00') AS other;
SELECT uuid_time_block_start('f100ffff-ffff-4fff-bfff-ffffffffffff', '1 s'::interval, 65536, '2023-11-14 22:13:20+00') AS at_start,
       uuid_time_block_start('f100ffff-ffff-4fff-bfff-ffffffffffff', '1 s'::interval, 65536, '2023-11-14 22:13:19.999999+00') AS just_before,
       uuid_time_block_start('6d5dffff-ffff-4fff-bfff-ffffffffffff', '250 ms'::interval, 4096, '2023-11-14 22:13:20.123456+00') AS ms_15,
       uuid_time_block_start('abffffff-ffff-4fff-bfff-ffffffffffff', '250 ms'::interval, 256, '2023-11-14 22:13:20.123456+00') AS ms_250;
SELECT uuid_time_block_start('00000000-0000-4000-8000-000000000000', 1, 256, '1969-12-31 23:59:59.999999+00') AS before_1970,
       uuid_time_block_start('05000000-0000-4000-8000-000000000000', '1 ms'::interval, 256, '1969-12-31 23:59:59.999999+00') AS ms_before_1970,
       uuid_time_block_start('476a01ff-ffff-4fff-bfff-ffffffffffff', '100 ms'::interval, 16777216, '2023-11-14 22:13:20.123456+00') AS three_bytes,
       uuid_time_block_start('476a01ff-ffff-4fff-bfff-ffffffffffff', 60, 1, '2023-11-14 22:13:20.123456+00') AS one_byte,
       uuid_time_block_start(interval_length => 60, id => '476a01ff-ffff-4fff-bfff-ffffffffffff',
                             as_of => '2023-11-14 22:13:20.123456+00') AS named;
-- NULL for an id of another version, NULL for NULL; as_of defaults to now().
SELECT uuid_time_block_start('20be0ffc-314a-bd53-7a50-013a65ca76d2', 60) IS NULL AS version_b_null,
       uuid_time_block_start('20be0ffc-314a-bd53-7a50-013a65ca76d2', '1 s'::interval) IS NULL AS version_b_null_interval,
       uuid_time_block_start(NULL, 60) IS NULL AS null_id,
       uuid_time_block_start(uuid_time_nextval_interval('1 s'::interval), 1, 65536, NULL) IS NULL AS null_as_of;
-- (60 s blocks start on the minute; an id made in the minute after now() wraps back 65536 minutes.)
SELECT uuid_time_block_start(uuid_time_nextval(60), 60)
       IN (date_trunc('minute', now()), date_trunc('minute', now()) + interval '1 min' - interval '65536 min')
       AS defaults_to_now;

-- Round trip at the clock: the block of an id made between t0 and t1 starts in (t0 - S', t1].
CREATE FUNCTION pg_temp.round_trip_ok(len interval, cnt integer) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    t0 timestamptz;
    t1 timestamptz;
    u uuid;
    s timestamptz;
BEGIN
    t0 := clock_timestamp();
    u := uuid_time_nextval_interval(len, cnt);
    t1 := clock_timestamp();
    s := uuid_time_block_start(u, len, cnt, t1);
    RETURN s <= t1 AND s > t0 - (SELECT block_interval FROM locality_uuid_block_layout(len, cnt));
END
$$;
SELECT len, cnt, pg_temp.round_trip_ok(len, cnt) AS start_within_block
FROM (VALUES ('1 ms'::interval, 65536), ('10 ms', 256), ('1.5 ms', 65536), ('1 s', 16777216),
             ('1 hour', 1)) AS v(len, cnt);

-- IMMUTABLE given its arguments: it backs an expression index when as_of is a constant ...
CREATE TABLE events (id uuid PRIMARY KEY, note text);
INSERT INTO events
SELECT pg_temp.v4(g), 'event ' || g FROM generate_series(1, 2000) g;
CREATE INDEX events_block_start ON events
    (uuid_time_block_start(id, '1 s'::interval, 65536, '2030-01-01 00:00:00+00'));
ANALYZE events;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT (p ->> 'Node Type') || ' on ' || (p ->> 'Index Name') AS plan
FROM pg_temp.plan($q$SELECT id FROM events
    WHERE uuid_time_block_start(id, '1 s'::interval, 65536, '2030-01-01 00:00:00+00') >= '2029-12-31 23:00:00+00'$q$) AS p;
SELECT count(*) AS in_last_hour,
       min(uuid_time_block_start(id, '1 s'::interval, 65536, '2030-01-01 00:00:00+00')) AS first_start
FROM events
WHERE uuid_time_block_start(id, '1 s'::interval, 65536, '2030-01-01 00:00:00+00') >= '2029-12-31 23:00:00+00';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) AS in_last_hour_seqscan FROM events
WHERE uuid_time_block_start(id, '1 s'::interval, 65536, '2030-01-01 00:00:00+00') >= '2029-12-31 23:00:00+00';
-- ... and not with the now() default, which is not immutable (42P17).
SELECT pg_temp.try('CREATE INDEX ON events (uuid_time_block_start(id, 1))') AS with_now_default;
DROP TABLE events;

-- Parallel safe: in parallel mode (force_parallel_mode; debug_parallel_query from 16) the new
-- functions run in a worker under a Gather.
SET :"parallel_guc" = on;
SELECT pg_temp.plan($q$SELECT uuid_time_nextval_interval('1 ms'::interval),
    uuid_time_block_start(gen_random_uuid(), '1 s'::interval, 256, '2030-01-01+00'),
    uuid_time_block_start(gen_random_uuid(), 1, 256, '2030-01-01+00'),
    locality_uuid_block_layout('1 s'::interval)$q$) ->> 'Node Type' AS plan,
       pg_temp.plan($q$SELECT * FROM locality_uuid_block_advice(1000, '1 day', 16777216)$q$) ->> 'Node Type' AS advice_plan;
SET :"parallel_guc" = regress;
SELECT count(DISTINCT u) AS ids_in_worker,
       bool_and(locality_uuid_version(u) = '4') AS version_4
FROM (SELECT uuid_time_nextval_interval('10 ms'::interval, 256) AS u FROM generate_series(1, 1000)) s;
SELECT count(*) AS advice_rows_in_worker FROM locality_uuid_block_advice(1000, '1 day', 16777216);
RESET :"parallel_guc";

-- Labels as declared.
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proparallel AS parallel,
       p.proisstrict AS strict
FROM pg_proc p
WHERE p.proname IN ('uuid_time_nextval', 'uuid_time_nextval_interval', 'uuid_time_block_start', 'locality_uuid_block_layout')
ORDER BY p.oid::regprocedure::text;

-- Errors: every bad argument with its SQLSTATE. Lengths below 1 ms, months and years, and
-- lengths above 2147483647 s are refused (22023), as are counts below 1; infinite as_of and
-- block starts outside timestamptz's range are 22008. An untyped literal is an integer to
-- uuid_time_nextval, as to sequential_uuids 1.0.3 (22P02 for '1 s'), and still matches both
-- forms of locality_uuid_block_layout and uuid_time_block_start (42725).
SELECT stmt, pg_temp.try(stmt) AS result FROM (VALUES
    ('SELECT uuid_time_nextval_interval(''0''::interval)'),
    ('SELECT uuid_time_nextval_interval(''-1 s''::interval)'),
    ('SELECT uuid_time_nextval_interval(''999 microseconds''::interval)'),
    ('SELECT uuid_time_nextval_interval(''0.999 ms''::interval, 256)'),
    ('SELECT uuid_time_nextval_interval(''1 day -24:00:00''::interval)'),
    ('SELECT uuid_time_nextval_interval(''1 mon''::interval)'),
    ('SELECT uuid_time_nextval_interval(''1 year''::interval)'),
    ('SELECT uuid_time_nextval_interval(''1 mon -30 days''::interval)'),
    ('SELECT uuid_time_nextval_interval(''24855 days 03:14:07.000001''::interval)'),
    ('SELECT uuid_time_nextval_interval(''100000 days''::interval)'),
    ('SELECT uuid_time_nextval_interval(''1 s''::interval, 0)'),
    ('SELECT uuid_time_nextval_interval(''1 s''::interval, -2147483648)'),
    ('SELECT uuid_time_nextval_interval(''0''::interval, 0)'),
    ('SELECT locality_uuid_block_layout(''0.5 ms''::interval)'),
    ('SELECT locality_uuid_block_layout(''2 mons''::interval)'),
    ('SELECT locality_uuid_block_layout(''1 ms''::interval, 0)'),
    ('SELECT uuid_time_block_start(gen_random_uuid(), 0)'),
    ('SELECT uuid_time_block_start(gen_random_uuid(), 1, 0)'),
    ('SELECT uuid_time_block_start(gen_random_uuid(), ''0''::interval)'),
    ('SELECT uuid_time_block_start(gen_random_uuid(), ''1 year''::interval)'),
    ('SELECT uuid_time_block_start(gen_random_uuid(), ''1 s''::interval, 0)'),
    ('SELECT uuid_time_block_start(gen_random_uuid(), 1, 256, ''infinity'')'),
    ('SELECT uuid_time_block_start(gen_random_uuid(), ''1 s''::interval, 256, ''-infinity'')'),
    ('SELECT uuid_time_block_start(''01000000-0000-4000-8000-000000000000'', 1, 256, ''4714-11-24 00:00:00+00 BC'')'),
    ('SELECT uuid_time_block_start(''00000000-0000-4000-8000-000000000000'', ''1 s''::interval, 256, ''294276-12-31 23:59:59+00'')'),
    ('SELECT uuid_time_nextval(''1 s'')'),
    ('SELECT locality_uuid_block_layout(''1 s'', 256)'),
    ('SELECT uuid_time_block_start(gen_random_uuid(), ''1 s'')')
) AS t(stmt);
-- Bad arguments are refused even for an id of another version; NULL arguments give NULL.
SELECT pg_temp.try('SELECT uuid_time_block_start(''20be0ffc-314a-bd53-7a50-013a65ca76d2'', ''1 mon''::interval)') AS other_version,
       uuid_time_nextval_interval(NULL::interval) IS NULL AS null_length,
       uuid_time_nextval_interval('1 s'::interval, NULL) IS NULL AS null_count,
       locality_uuid_block_layout(NULL::interval) IS NULL AS null_layout;
-- Untyped arguments: NULL and a literal each resolve to one function.
SELECT uuid_time_nextval(NULL) IS NULL AS untyped_null,
       uuid_time_nextval_interval(NULL) IS NULL AS untyped_null_interval,
       locality_uuid_version(uuid_time_nextval_interval('1 s', '256')) = '4' AS untyped_literals;
-- Infinite intervals exist from PostgreSQL 17 on; they are refused like any other length.
SELECT current_setting('server_version_num')::integer < 170000
       OR pg_temp.try('SELECT uuid_time_nextval_interval(''infinity''::interval)') LIKE '22023: interval_length must be finite'
       AS infinite_refused;
-- The errors as psql shows them.
\set VERBOSITY default
SELECT uuid_time_nextval_interval('1 mon'::interval);
SELECT uuid_time_nextval_interval('0.5 ms'::interval);
SELECT uuid_time_nextval_interval('100000 days'::interval);
SELECT uuid_time_block_start('01000000-0000-4000-8000-000000000000', 1, 256, '4714-11-24 00:00:00+00 BC');

-- A bulk load with a new session per batch: 5 sessions insert 20,000 rows each through the
-- column default; the prefixes follow the clock across sessions (never back, within the
-- 6554 s wrap) and each id carries the block of the clock read beside it (within one block).
\c -
SET TimeZone = 'UTC';
CREATE TABLE bulk (
    n bigserial,
    id uuid PRIMARY KEY DEFAULT uuid_time_nextval_interval('100 ms'::interval),
    made timestamptz DEFAULT clock_timestamp(),
    pid integer DEFAULT pg_backend_pid()
);
INSERT INTO bulk (n) SELECT nextval('bulk_n_seq') FROM generate_series(1, 20000);
\c -
INSERT INTO bulk (n) SELECT nextval('bulk_n_seq') FROM generate_series(1, 20000);
\c -
INSERT INTO bulk (n) SELECT nextval('bulk_n_seq') FROM generate_series(1, 20000);
\c -
INSERT INTO bulk (n) SELECT nextval('bulk_n_seq') FROM generate_series(1, 20000);
\c -
INSERT INTO bulk (n) SELECT nextval('bulk_n_seq') FROM generate_series(1, 20000);
SELECT count(*) AS rows, count(DISTINCT id) AS ids, count(DISTINCT pid) AS sessions,
       bool_and(d >= 0 OR d < -32768) AS prefixes_never_go_back,
       bool_and(locality_uuid_block(id) IN ((m + 65535) % 65536, m, (m + 1) % 65536)) AS prefix_of_the_clock
FROM (SELECT id, pid,
             locality_uuid_block(id) - lag(locality_uuid_block(id)) OVER (ORDER BY n) AS d,
             (floor(extract(epoch FROM made) * 10))::bigint % 65536 AS m
      FROM bulk) s;
DROP TABLE bulk;
