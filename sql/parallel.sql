-- C edition only (the portable suite leaves this file out).
-- Labels hold: generators run in parallel workers where labelled safe and keep the leader
-- where labelled unsafe; extractors work in indexes, generated columns, CHECK constraints
-- and partition keys.
SET timezone = 'UTC';
\i sql/include/helpers.psql

-- Generators in a real parallel plan: each worker makes its own distinct ids.
CREATE TABLE par_src AS SELECT g FROM generate_series(1, 20000) g;
ANALYZE par_src;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
CREATE SEQUENCE par_seq;

-- Whether a query computes expr in a parallel-aware node under a Gather (or Gather Merge),
-- read from the JSON plan: the plan's shape above that node differs between majors.
CREATE FUNCTION pg_temp.in_workers(query text, expr text) RETURNS boolean LANGUAGE sql AS $$
    WITH RECURSIVE n(node, under_gather) AS (
        SELECT pg_temp.plan(query, with_output => true), false
        UNION ALL
        SELECT c, n.under_gather OR n.node ->> 'Node Type' IN ('Gather', 'Gather Merge')
        FROM n, jsonb_array_elements(n.node -> 'Plans') c
    )
    SELECT EXISTS (SELECT FROM n WHERE under_gather AND (node ->> 'Parallel Aware')::boolean AND node -> 'Output' ? expr)
$$;
SELECT pg_temp.in_workers('SELECT count(DISTINCT id) FROM (SELECT locality_uuid() AS id FROM par_src) s',
                          'locality_uuid()') AS locality_uuid_in_workers,
       pg_temp.in_workers('SELECT count(DISTINCT id) FROM (SELECT uuid_sequence_nextval(''par_seq'') AS id FROM par_src) s',
                          'uuid_sequence_nextval(''par_seq''::regclass)') AS sequence_variant_in_workers;

-- The leader's process field, read in the leader: a PARALLEL UNSAFE function cannot run in a worker.
CREATE FUNCTION pg_temp.leader_pid() RETURNS int LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$ SELECT locality_uuid_pid(locality_uuid()) $$;

CREATE TEMP TABLE leader AS SELECT pg_temp.leader_pid() AS pid;
CREATE TABLE par_ids AS SELECT g, locality_uuid() AS v, locality_uuid(true) AS s, locality_uuid(false) AS f,
       uuid_time_nextval() AS t, uuid_time_nextval(1, 16) AS t2, hot_uuid(g % 4) AS h
FROM par_src;
SELECT count(*) AS ids,
       count(DISTINCT v) + count(DISTINCT s) + count(DISTINCT f) + count(DISTINCT t) + count(DISTINCT t2)
           + count(DISTINCT h) AS distinct_ids,
       count(DISTINCT hot_uuid_process(h)) = count(DISTINCT locality_uuid_pid(v)) AS same_processes,
       bool_and(locality_uuid_pid(v) <> (SELECT pid FROM leader)) AS none_from_leader
FROM par_ids;
-- nextval is parallel unsafe, so a query calling uuid_sequence_nextval, or hot_uuid at an
-- explicit time (whose counters come from a sequence), stays in the leader.
EXPLAIN (COSTS OFF) SELECT count(uuid_sequence_nextval('par_seq')) FROM par_src;
EXPLAIN (COSTS OFF) SELECT count(hot_uuid(g % 4, now())) FROM par_src;
SELECT count(DISTINCT hot_uuid(g % 4, now())) AS ids FROM par_src;
SELECT count(DISTINCT uuid_sequence_nextval('par_seq')) AS ids FROM par_src;
SELECT last_value FROM par_seq;
RESET parallel_leader_participation;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- Parallel mode (force_parallel_mode; debug_parallel_query from 16): every parallel-safe
-- generator runs in a worker (Single Copy Gather);
-- the session's counter mode reaches the worker.
SET :"parallel_guc" = on;
EXPLAIN (COSTS OFF) SELECT locality_uuid();
EXPLAIN (COSTS OFF) SELECT locality_uuid(true);
EXPLAIN (COSTS OFF) SELECT locality_uuid_timestamp(locality_uuid_make(1, 2, 3, now()));
EXPLAIN (COSTS OFF) SELECT uuid_time_nextval();
EXPLAIN (COSTS OFF) SELECT locality_uuid_block(uuid_time_nextval(1, 16), 16), locality_uuid_block_layout();
EXPLAIN (COSTS OFF) SELECT hot_uuid(1);
EXPLAIN (COSTS OFF) SELECT hot_uuid_shard_key(hot_uuid_make(1, now())), hot_uuid_boundary(now());
-- Unsafe functions keep the plan in the leader.
EXPLAIN (COSTS OFF) SELECT locality_uuid_use_sequential_ids();
EXPLAIN (COSTS OFF) SELECT pg_temp.leader_pid();
EXPLAIN (COSTS OFF) SELECT uuid_sequence_nextval('par_seq');
EXPLAIN (COSTS OFF) SELECT hot_uuid(2, now());

SET :"parallel_guc" = regress;
SET locality_uuid.counter_mode = sequential;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       max(locality_uuid_counter(id, true)) - min(locality_uuid_counter(id, true)) < 2000 AS sequential_run,
       count(DISTINCT locality_uuid_pid(id)) AS processes
FROM (SELECT locality_uuid() AS id FROM generate_series(1, 1000)) s;
RESET locality_uuid.counter_mode;
SELECT count(DISTINCT uuid_time_nextval(1, 16)) AS time_ids, count(DISTINCT uuid_sequence_nextval('par_seq')) AS seq_ids,
       count(DISTINCT hot_uuid(g % 3)) AS hot_ids, count(*) FILTER (WHERE hot_uuid_shard_key(hot_uuid(g)) = g) AS hot_keys_kept
FROM generate_series(1, 1000) g;
SELECT locality_uuid_use_sequential_ids();
SHOW locality_uuid.counter_mode;
SELECT locality_uuid_use_variable_ids();
RESET :"parallel_guc";

-- Extractors in DDL: expression index, generated column, CHECK constraint.
CREATE TABLE ext_t (
    id uuid PRIMARY KEY DEFAULT locality_uuid(),
    created timestamptz GENERATED ALWAYS AS (locality_uuid_timestamp(id)) STORED,
    CONSTRAINT ext_t_is_locality CHECK (locality_uuid_version(id) = 'b')
);
CREATE INDEX ext_t_created ON ext_t (locality_uuid_timestamp(id));
CREATE INDEX ext_t_pid ON ext_t (locality_uuid_pid(id)) WHERE locality_uuid_node(id) > 0;
INSERT INTO ext_t (id) SELECT locality_uuid_make(g, g % 7, 1 + g % 3, '2020-01-01+00'::timestamptz + g * interval '1 second')
FROM generate_series(1, 5000) g;
INSERT INTO ext_t DEFAULT VALUES;
ANALYZE ext_t;
SELECT count(*) AS rows, count(*) FILTER (WHERE created = locality_uuid_timestamp(id)) AS generated_ok
FROM ext_t;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM ext_t WHERE locality_uuid_timestamp(id) BETWEEN '2020-01-01 00:00:01+00' AND '2020-01-01 00:00:10+00';
SELECT count(*) FROM ext_t WHERE locality_uuid_timestamp(id) BETWEEN '2020-01-01 00:00:01+00' AND '2020-01-01 00:00:10+00';
EXPLAIN (COSTS OFF)
SELECT count(*) FROM ext_t WHERE locality_uuid_pid(id) = 3 AND locality_uuid_node(id) > 0;
SELECT count(*) FROM ext_t WHERE locality_uuid_pid(id) = 3 AND locality_uuid_node(id) > 0;
RESET enable_seqscan;
\set VERBOSITY sqlstate
INSERT INTO ext_t (id) VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
INSERT INTO ext_t (id, created) VALUES (locality_uuid(), now());
\set VERBOSITY default

-- Extractor as a partition key: rows land by the time inside the id.
CREATE TABLE ext_p (id uuid NOT NULL) PARTITION BY RANGE (locality_uuid_timestamp(id));
CREATE TABLE ext_p_old PARTITION OF ext_p FOR VALUES FROM (MINVALUE) TO ('2000-01-01+00');
CREATE TABLE ext_p_new PARTITION OF ext_p FOR VALUES FROM ('2000-01-01+00') TO (MAXVALUE);
CREATE UNIQUE INDEX ext_p_old_id ON ext_p_old (id);
CREATE UNIQUE INDEX ext_p_new_id ON ext_p_new (id);
INSERT INTO ext_p SELECT locality_uuid_make(g + 2, 0, 0, '1999-12-31 23:59:59.999+00'::timestamptz + g * interval '1 millisecond')
FROM generate_series(-2, 2) g;
INSERT INTO ext_p SELECT locality_uuid() FROM generate_series(1, 100);
SELECT tableoid::regclass AS partition, count(*) FROM ext_p GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT * FROM ext_p WHERE locality_uuid_timestamp(id) < '1990-01-01+00';
\set VERBOSITY sqlstate
-- Ids of another version have no time: no partition takes NULL.
INSERT INTO ext_p VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
\set VERBOSITY default

-- Block extractor as a partition key, in a generated column, a CHECK and an index; the
-- DEFAULT makes blocks of 10 values (S' = 10 * 256 / 256) from a known sequence start.
SELECT setval('par_seq', 1, false);
CREATE TABLE ext_bp (
    id uuid NOT NULL DEFAULT uuid_sequence_nextval('par_seq', 10, 256),
    blk bigint GENERATED ALWAYS AS (locality_uuid_block(id, 256)) STORED,
    CONSTRAINT ext_bp_is_v4 CHECK (locality_uuid_version(id) = '4')
) PARTITION BY RANGE (locality_uuid_block(id, 256));
CREATE TABLE ext_bp_lo PARTITION OF ext_bp FOR VALUES FROM (0) TO (128);
CREATE TABLE ext_bp_hi PARTITION OF ext_bp FOR VALUES FROM (128) TO (256);
CREATE INDEX ext_bp_blk ON ext_bp (locality_uuid_block(id, 256));
CREATE UNIQUE INDEX ext_bp_lo_id ON ext_bp_lo (id);
CREATE UNIQUE INDEX ext_bp_hi_id ON ext_bp_hi (id);
INSERT INTO ext_bp SELECT FROM generate_series(1, 2000);
SELECT tableoid::regclass AS partition, count(*), min(blk), max(blk),
       count(*) FILTER (WHERE blk = locality_uuid_block(id, 256)) AS generated_ok
FROM ext_bp GROUP BY tableoid ORDER BY 1;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ext_bp WHERE locality_uuid_block(id, 256) = 150;
SELECT count(*) FROM ext_bp WHERE locality_uuid_block(id, 256) = 150;
RESET enable_seqscan;
\set VERBOSITY sqlstate
INSERT INTO ext_bp VALUES (locality_uuid());
\set VERBOSITY default

-- Shard key as a list partition key, time in a generated column and an index, a CHECK on the
-- key; rows from fixed fields land by their key.
CREATE TABLE ext_h (
    id uuid NOT NULL DEFAULT hot_uuid(1),
    created timestamptz GENERATED ALWAYS AS (hot_uuid_timestamp(id)) STORED,
    CONSTRAINT ext_h_key CHECK (hot_uuid_shard_key(id) < 1000)
) PARTITION BY LIST (hot_uuid_shard_key(id));
CREATE TABLE ext_h_1 PARTITION OF ext_h FOR VALUES IN (1);
CREATE TABLE ext_h_2 PARTITION OF ext_h FOR VALUES IN (2);
CREATE TABLE ext_h_other PARTITION OF ext_h DEFAULT;
CREATE INDEX ext_h_created ON ext_h (hot_uuid_timestamp(id));
INSERT INTO ext_h SELECT hot_uuid_make(g % 4, '2022-02-06 00:00:00+00'::timestamptz + g * interval '1 second', '\x112233', 1, g)
FROM generate_series(1, 400) g;
INSERT INTO ext_h DEFAULT VALUES;
SELECT tableoid::regclass AS partition, count(*), count(DISTINCT hot_uuid_shard_key(id)) AS keys,
       count(*) FILTER (WHERE created = hot_uuid_timestamp(id)) AS generated_ok
FROM ext_h GROUP BY tableoid ORDER BY 1;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ext_h
WHERE hot_uuid_shard_key(id) = 2 AND hot_uuid_timestamp(id) < '2022-02-06 00:01:00+00';
SELECT count(*) FROM ext_h
WHERE hot_uuid_shard_key(id) = 2 AND hot_uuid_timestamp(id) < '2022-02-06 00:01:00+00';
RESET enable_seqscan;
\set VERBOSITY sqlstate
INSERT INTO ext_h VALUES (hot_uuid(1000));
\set VERBOSITY default

DROP TABLE par_src, par_ids, ext_t, ext_p, ext_bp, ext_h;
DROP SEQUENCE par_seq;
