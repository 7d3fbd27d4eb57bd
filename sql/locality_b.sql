-- Generated ids: properties that hold whatever the random start and the clock are.
SET timezone = 'UTC';

-- Variable mode: 100k ids, all distinct, version b, stamped now, one process and node.
CREATE TEMP TABLE var_ids AS
SELECT n, locality_uuid(false) AS u, clock_timestamp() AS made_at
FROM generate_series(1, 100000) WITH ORDINALITY AS g(x, n);

SELECT count(*) AS ids,
       count(DISTINCT u) AS distinct_ids,
       bool_and(locality_uuid_version(u) = 'b') AS all_version_b,
       bool_and(abs(extract(epoch FROM made_at - locality_uuid_timestamp(u))) < 1) AS within_a_second,
       count(DISTINCT locality_uuid_pid(u)) AS pids,
       count(DISTINCT locality_uuid_node(u)) AS nodes
FROM var_ids;

-- The counter steps by 198491317 (5 mod 16): over 100000 consecutive ids every first hex
-- digit appears exactly 6250 times, and the next counter is the previous plus the step.
SELECT count(*) AS digits, min(c) AS fewest, max(c) AS most
FROM (SELECT left(u::text, 1) AS d, count(*) AS c FROM var_ids GROUP BY 1) s;

SELECT count(*) AS steps,
       count(*) FILTER (WHERE locality_uuid_counter(b.u)
                            = (locality_uuid_counter(a.u) + 198491317) % 4294967296) AS exact_steps
FROM var_ids a JOIN var_ids b ON b.n = a.n + 1;

-- Sequential mode under the bucket rule, in a fresh backend: the first id is seed + 1, where
-- the seed is MD5 of the id's 10-minute UTC bucket (yyyyMMddHHm) read little-endian; then +1 per
-- id, and seed + 1 again whenever an id's bucket differs from the previous one.
\c -
SET timezone = 'UTC';
SET locality_uuid.sequential_seed = bucket;
\i sql/include/helpers.psql
-- The seed vector of docs/format.md, section 1: 2012-10-15 18:58 UTC is in the bucket
-- 20121015185, whose MD5 digest begins 3f 54 b8 01, so the seed is 0x01b8543f.
SELECT left(to_char(ts AT TIME ZONE 'UTC', 'YYYYMMDDHH24MI'), 11) AS bucket,
       left(md5(left(to_char(ts AT TIME ZONE 'UTC', 'YYYYMMDDHH24MI'), 11)), 8) AS digest_start,
       to_hex(pg_temp.seed_of(ts)) AS seed
FROM (VALUES ('2012-10-15 18:58:18.450+00'::timestamptz)) AS t(ts);
CREATE TEMP TABLE seq_ids AS
SELECT n, locality_uuid(true) AS u
FROM generate_series(1, 10000) WITH ORDINALITY AS g(x, n);

SELECT count(*) AS ids,
       count(DISTINCT u) AS distinct_ids,
       count(*) FILTER (WHERE c = CASE WHEN bucket IS NOT DISTINCT FROM prev_bucket
                                       THEN (prev_c + 1) % 4294967296
                                       ELSE (pg_temp.seed_of(ts) + 1) % 4294967296 END) AS follow_rule,
       count(*) FILTER (WHERE n = 1 AND c = (pg_temp.seed_of(ts) + 1) % 4294967296) AS first_is_seed_plus_1
FROM (SELECT n, u, locality_uuid_counter(u, true) AS c, locality_uuid_timestamp(u) AS ts,
             date_bin('10 minutes', locality_uuid_timestamp(u), 'epoch') AS bucket,
             lag(locality_uuid_counter(u, true)) OVER w AS prev_c,
             lag(date_bin('10 minutes', locality_uuid_timestamp(u), 'epoch')) OVER w AS prev_bucket
      FROM seq_ids WINDOW w AS (ORDER BY n)) s;

-- Sequential ids from one backend in one bucket sort in generation order.
SELECT count(*) FILTER (WHERE a.u < b.u) AS ascending, count(*) AS pairs
FROM seq_ids a JOIN seq_ids b ON b.n = a.n + 1
WHERE date_bin('10 minutes', locality_uuid_timestamp(a.u), 'epoch')
    = date_bin('10 minutes', locality_uuid_timestamp(b.u), 'epoch')
  AND locality_uuid_counter(a.u, true) < 4294967295;

-- Mixing modes in one session: each counter goes on by its own rule. Counters live in the
-- process that calls the generator, and a parallel worker starts its own: keep these
-- statements in this backend even when the suite runs under parallel mode.
SET :"parallel_guc" = off;
CREATE TEMP TABLE mixed AS
SELECT n, locality_uuid(n % 2 = 0) AS u
FROM generate_series(1, 2000) WITH ORDINALITY AS g(x, n);

SELECT count(DISTINCT a.u) AS distinct_ids,
       count(*) FILTER (WHERE a.n % 2 = 1 AND locality_uuid_counter(b.u)
                            = (locality_uuid_counter(a.u) + 198491317) % 4294967296) AS variable_steps,
       count(*) FILTER (WHERE a.n % 2 = 0 AND locality_uuid_counter(b.u, true)
                            = (locality_uuid_counter(a.u, true) + 1) % 4294967296) AS sequential_steps
FROM mixed a JOIN mixed b ON b.n = a.n + 2;

-- locality_uuid() follows the session's mode.
SET locality_uuid.counter_mode = sequential;
SELECT locality_uuid_counter(locality_uuid(), true) - locality_uuid_counter(u, true) AS after_last_sequential
FROM mixed ORDER BY n DESC LIMIT 1;
RESET locality_uuid.counter_mode;
RESET :"parallel_guc";
