-- C edition only (the portable suite leaves this file out).
-- Generator state: which one is in use; the sequential run and explicit-time counters it keeps.
SET timezone = 'UTC';

-- Shared through the DSM registry on 17 and later; on 15 and 16 shared when preloaded, else per backend.
SELECT locality_uuid_state() = CASE
           WHEN current_setting('server_version_num')::int >= 170000 THEN 'dsm_registry'
           WHEN 'locality_uuid' = ANY (string_to_array(replace(current_setting('shared_preload_libraries'), ' ', ''), ','))
               THEN 'preload'
           ELSE 'backend' END AS expected_state;

-- Sequential mode under the bucket rule: a new backend continues the run of the one before
-- it (shared state), or starts at the bucket's seed + 1 (per-backend state). A bucket change in
-- between re-seeds. (The continued run's restarts: test/t/115_sequential_seed.pl.)
SET locality_uuid.sequential_seed = bucket;
CREATE TABLE state_seq AS SELECT locality_uuid(true) AS u;
\c -
SET timezone = 'UTC';
SET locality_uuid.sequential_seed = bucket;
\i sql/include/helpers.psql
SELECT CASE
           WHEN date_bin('10 minutes', locality_uuid_timestamp(a.u), 'epoch')
                <> date_bin('10 minutes', locality_uuid_timestamp(b.u), 'epoch')
               THEN locality_uuid_counter(b.u, true) = (pg_temp.seed_of(locality_uuid_timestamp(b.u)) + 1) % 4294967296
           WHEN locality_uuid_state() = 'backend'
               THEN locality_uuid_counter(b.u, true) = (pg_temp.seed_of(locality_uuid_timestamp(b.u)) + 1) % 4294967296
           ELSE locality_uuid_counter(b.u, true) = (locality_uuid_counter(a.u, true) + 1) % 4294967296
       END AS follows_state,
       locality_uuid_timestamp(b.u) >= locality_uuid_timestamp(a.u) AS time_not_back
FROM state_seq a, (SELECT locality_uuid(true) AS u) b;
DROP TABLE state_seq;

-- Explicit-time shard-key ids: counters drawn from the extension's sequence. 100000 ids at one
-- second take 100000 distinct counters, all with bit 23 set (a clock id never has it); other
-- seconds do not disturb them.
SET parallel_setup_cost = 1e9;
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       count(DISTINCT hot_uuid_counter(u)) AS distinct_counters,
       count(DISTINCT hot_uuid_timestamp(u)) AS seconds,
       bool_and(hot_uuid_counter(u) >= 8388608) AS explicit_bit
FROM (SELECT hot_uuid(5, '2020-01-01 00:00:00+00') AS u FROM generate_series(1, 100000)) s;
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       count(DISTINCT hot_uuid_timestamp(u)) AS seconds
FROM (SELECT hot_uuid(5, '2020-01-01 00:00:00+00'::timestamptz + (n % 7) * interval '1 second') AS u
      FROM generate_series(1, 70000) n) s;
RESET parallel_setup_cost;

-- Clock ids and ids at now() in one transaction that outlives its second: once the clock has
-- left the second of now(), ids at now() are explicit-time ids (bit 23 set), so they never meet
-- the clock ids of that second (bit 23 clear).
BEGIN;
SET LOCAL parallel_setup_cost = 1e9;
CREATE TEMP TABLE clock_and_now AS
SELECT 'clock' AS kind, hot_uuid(1) AS u FROM generate_series(1, 20000)
UNION ALL SELECT 'at now', hot_uuid(1, now()) FROM generate_series(1, 20000);
SELECT pg_sleep(1.1);
INSERT INTO clock_and_now SELECT 'clock', hot_uuid(1) FROM generate_series(1, 20000);
INSERT INTO clock_and_now SELECT 'at now, a second later', hot_uuid(1, now()) FROM generate_series(1, 20000);
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       count(*) FILTER (WHERE kind = 'clock' AND hot_uuid_counter(u) < 8388608) AS clock_ids_bit_clear,
       count(*) FILTER (WHERE kind = 'at now, a second later' AND hot_uuid_counter(u) >= 8388608)
           AS later_ids_at_now_bit_set
FROM clock_and_now;
COMMIT;

-- The continued run's lease (src/pg/locality_b.cpp): a new backend's window doubles from 256 up
-- to 65536 positions, and past that while its leases last less than a second, so that a busy
-- backend writes the sequence about once a second, not every 65536 positions. Read after each
-- id, the sequence runs more than 65536 positions ahead of the run once 200,000 ids are made
-- (counters are positions mod 2^32), and never more than 2^26 (+ 32 that nextval logs ahead).
-- In the leader: a parallel worker (040_labels.pl forces them) takes positions without the lease.
\c -
CREATE FUNCTION pg_temp.in_leader() RETURNS boolean LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$ BEGIN RETURN true; END $$;
SELECT max(ahead) > 65536 AS lease_past_65536, max(ahead) <= 67108864 + 32 AS lease_within_2_26
FROM (SELECT (((SELECT last_value FROM locality_uuid_b_lease WHERE ids.counter IS NOT NULL) - ids.counter)
              % 4294967296 + 4294967296) % 4294967296 AS ahead
      FROM (SELECT locality_uuid_counter(locality_uuid(true), true) AS counter
            FROM generate_series(1, 200000) WHERE pg_temp.in_leader() OFFSET 0) ids) s;
