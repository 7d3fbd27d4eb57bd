-- C edition only (the portable suite leaves this file out).
-- The recipes of docs/partitioning.md: declarative partitions by time for each format that carries
-- its time, where ids are routed (the column DEFAULT, backfills at an explicit time, the bounds
-- themselves), and which time-range queries prune. Plans are printed without costs; scans are held
-- to index scans so that the plans show what pruning did, whatever the statistics.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
SET enable_seqscan = off;
SET enable_bitmapscan = off;
-- Prepared statements get generic plans: their bounds are computed when the executor starts.
SET plan_cache_mode = force_generic_plan;
\i sql/include/helpers.psql

-- 1. Shard-key ids sort by their second first: RANGE partitions on the id, bounded by
-- hot_uuid_boundary. The id stays the primary key.
CREATE TABLE hot_events (
    id   uuid PRIMARY KEY DEFAULT hot_uuid(7),
    kind text NOT NULL
) PARTITION BY RANGE (id);
CALL pg_temp.month_partitions('hot_events', 'hot_uuid_boundary', '2026-01-01 00:00:00+00', 3);
-- The month of the test run, for the DEFAULT (bounds are evaluated once, when the partition is made).
CALL pg_temp.month_partitions('hot_events', 'hot_uuid_boundary', now(), suffix => 'current');
CREATE INDEX hot_events_time ON hot_events (hot_uuid_timestamp(id));
SELECT pg_get_expr(c.relpartbound, c.oid) AS bound
FROM pg_class c WHERE c.relname = 'hot_events_2026_02';

-- Routing: ids made of fixed fields on both sides of a bound, backfills at an explicit time on
-- both sides of a bound (hot_uuid(key, at): its second is that of at), and the DEFAULT.
INSERT INTO hot_events (id, kind) VALUES
    (hot_uuid_make(1, '2026-01-31 23:59:59.999999+00'), 'made, last microsecond of January'),
    (hot_uuid_make(1, '2026-02-01 00:00:00+00'), 'made, first second of February'),
    (hot_uuid_make(1, '2026-03-31 23:59:59+00'), 'made, last second of March'),
    (hot_uuid(7, '2026-01-31 23:59:59.999999+00'), 'backfill, last microsecond of January'),
    (hot_uuid(7, '2026-02-01 00:00:00+00'), 'backfill, first second of February'),
    (hot_uuid(7, '2026-02-28 23:59:59.5+00'), 'backfill, last second of February');
INSERT INTO hot_events (kind) VALUES ('default, now');
SELECT tableoid::regclass AS partition, kind,
       CASE WHEN kind LIKE 'default%' THEN NULL ELSE hot_uuid_timestamp(id) END AS second
FROM hot_events ORDER BY kind;
-- A second outside every partition has nowhere to go (no DEFAULT partition here).
SELECT left(pg_temp.try($$INSERT INTO hot_events VALUES (hot_uuid_make(1, '2025-12-31 23:59:59+00'), 'x')$$), 5) AS sqlstate;

-- A time range written as a range of ids prunes to the months it overlaps.
EXPLAIN (COSTS OFF)
SELECT * FROM hot_events
WHERE id >= hot_uuid_boundary('2026-02-10 00:00:00+00')
  AND id <  hot_uuid_boundary('2026-03-05 00:00:00+00');
-- A lookup by id prunes to one partition.
EXPLAIN (COSTS OFF)
SELECT * FROM hot_events WHERE id = hot_uuid_make(1, '2026-02-14 00:00:00+00');
-- With a parameter (or now()) the bound is computed when the executor starts, and pruning happens then.
PREPARE hot_since(timestamptz) AS SELECT * FROM hot_events WHERE id >= hot_uuid_boundary($1);
EXPLAIN (COSTS OFF) EXECUTE hot_since('2026-03-10 00:00:00+00');
-- Not pruned: a condition on the extracted time, with an index on it (hot_events_time). The
-- extension leaves such a comparison to that index; without one it would rewrite it into a range
-- of the id, the partition key (docs/time-ranges.md). Every partition's index is searched.
EXPLAIN (COSTS OFF)
SELECT * FROM hot_events
WHERE hot_uuid_timestamp(id) >= '2026-02-10 00:00:00+00'
  AND hot_uuid_timestamp(id) <  '2026-03-05 00:00:00+00';

-- 2. Version 7 ids sort by their millisecond first: RANGE partitions on the id, bounded by
-- uuidv7_lower, the smallest version 7 id of a millisecond.
CREATE TABLE v7_events (
    id   uuid PRIMARY KEY DEFAULT uuidv7(),
    kind text NOT NULL
) PARTITION BY RANGE (id);
CALL pg_temp.month_partitions('v7_events', 'uuidv7_lower', '2026-01-01 00:00:00+00', 3);
CALL pg_temp.month_partitions('v7_events', 'uuidv7_lower', now(), suffix => 'current');
CREATE INDEX v7_events_time ON v7_events (uuidv7_timestamp(id));
SELECT pg_get_expr(c.relpartbound, c.oid) AS bound
FROM pg_class c WHERE c.relname = 'v7_events_2026_02';

-- Routing: the first and last ids of the millisecond on each side of a bound, backfills
-- (uuidv7_ordered(at): the millisecond of at) on each side of a bound, and the generators of now.
INSERT INTO v7_events (id, kind) VALUES
    (uuidv7_upper('2026-01-31 23:59:59.999+00'), 'upper, last millisecond of January'),
    (uuidv7_lower('2026-02-01 00:00:00+00'), 'lower, first millisecond of February'),
    (uuidv7_upper('2026-03-31 23:59:59.999+00'), 'upper, last millisecond of March'),
    (uuidv7_ordered('2026-01-31 23:59:59.999999+00'), 'backfill, last microsecond of January'),
    (uuidv7_ordered('2026-02-01 00:00:00+00'), 'backfill, first microsecond of February'),
    (uuidv7_ordered('2026-02-28 23:59:59.9995+00'), 'backfill, last millisecond of February');
INSERT INTO v7_events (kind) VALUES ('default uuidv7(), now');
INSERT INTO v7_events (id, kind) VALUES (uuidv7_ordered(), 'uuidv7_ordered(), now');
SELECT tableoid::regclass AS partition, kind,
       CASE WHEN kind LIKE '%now' THEN NULL ELSE uuidv7_timestamp(id) END AS ms
FROM v7_events ORDER BY kind;
SELECT left(pg_temp.try($$INSERT INTO v7_events VALUES (uuidv7_upper('2025-12-31 23:59:59.999+00'), 'x')$$), 5) AS sqlstate;

EXPLAIN (COSTS OFF)
SELECT * FROM v7_events
WHERE id >= uuidv7_lower('2026-02-10 00:00:00+00')
  AND id <  uuidv7_lower('2026-03-05 00:00:00+00');
PREPARE v7_since(timestamptz) AS SELECT * FROM v7_events WHERE id >= uuidv7_lower($1);
EXPLAIN (COSTS OFF) EXECUTE v7_since('2026-03-10 00:00:00+00');
-- Not pruned: the extracted time, with an index on it, which serves within each partition (the
-- comparison is left to it). uuidv7_timestamp is uuid_extract_timestamp of 18 on every major.
EXPLAIN (COSTS OFF)
SELECT * FROM v7_events
WHERE uuidv7_timestamp(id) >= '2026-02-10 00:00:00+00'
  AND uuidv7_timestamp(id) <  '2026-03-05 00:00:00+00';

-- 3. Locality ids lead with their counter, so ranges of ids are not ranges of time: RANGE
-- partitions on the extracted time. A partitioned table cannot have a unique index when its
-- partition key is an expression.
CREATE TABLE loc_events (
    id   uuid NOT NULL DEFAULT locality_uuid(),
    kind text NOT NULL
) PARTITION BY RANGE (locality_uuid_timestamp(id));
CALL pg_temp.month_partitions('loc_events', '', '2026-01-01 00:00:00+00', 3);
CALL pg_temp.month_partitions('loc_events', '', now(), suffix => 'current');
SELECT left(pg_temp.try('CREATE UNIQUE INDEX ON loc_events (id)'), 5) AS sqlstate;
-- Equal ids have equal times, so they meet in one partition: a unique index on id in each
-- partition makes id unique in the whole table.
CREATE UNIQUE INDEX ON loc_events_2026_01 (id);
CREATE UNIQUE INDEX ON loc_events_2026_02 (id);
CREATE UNIQUE INDEX ON loc_events_2026_03 (id);
CREATE UNIQUE INDEX ON loc_events_current (id);
-- Time ranges within a partition: an index on the time, made on every partition.
CREATE INDEX loc_events_time ON loc_events (locality_uuid_timestamp(id));

INSERT INTO loc_events (id, kind) VALUES
    (locality_uuid_make(1, 2, 3, '2026-01-31 23:59:59.999+00'), 'made, last millisecond of January'),
    (locality_uuid_make(1, 2, 3, '2026-02-01 00:00:00+00'), 'made, first millisecond of February'),
    (locality_uuid_make(2, 2, 3, '2026-02-01 00:00:00+00', true), 'made sequential, first millisecond of February'),
    (locality_uuid_make(1, 2, 3, '2026-03-31 23:59:59.999+00'), 'made, last millisecond of March');
INSERT INTO loc_events (kind) VALUES ('default, now'), ('default, now');
INSERT INTO loc_events (id, kind) VALUES (locality_uuid(true), 'sequential, now');
SELECT tableoid::regclass AS partition, kind,
       CASE WHEN kind LIKE '%now' THEN NULL ELSE locality_uuid_timestamp(id) END AS ts
FROM loc_events ORDER BY kind;
SELECT left(pg_temp.try($$INSERT INTO loc_events VALUES (locality_uuid_make(1, 2, 3, '2026-04-01 00:00:00+00'), 'x')$$), 5) AS sqlstate;
-- The same id twice is refused by its partition's index.
SELECT left(pg_temp.try($$INSERT INTO loc_events VALUES (locality_uuid_make(1, 2, 3, '2026-02-01 00:00:00+00'), 'x')$$), 5) AS sqlstate;

-- A time range on the extracted time prunes to the months it overlaps.
EXPLAIN (COSTS OFF)
SELECT * FROM loc_events
WHERE locality_uuid_timestamp(id) >= '2026-02-10 00:00:00+00'
  AND locality_uuid_timestamp(id) <  '2026-03-05 00:00:00+00';
PREPARE loc_since(timestamptz) AS SELECT * FROM loc_events WHERE locality_uuid_timestamp(id) >= $1;
EXPLAIN (COSTS OFF) EXECUTE loc_since('2026-03-10 00:00:00+00');
-- A lookup by id prunes once it also names the id's time, computed from the same id.
PREPARE loc_by_id(uuid) AS
SELECT * FROM loc_events WHERE id = $1 AND locality_uuid_timestamp(id) = locality_uuid_timestamp($1);
EXPLAIN (COSTS OFF) EXECUTE loc_by_id(locality_uuid_make(1, 2, 3, '2026-02-01 00:00:00+00'));
EXPLAIN (COSTS OFF)
SELECT * FROM loc_events
WHERE id = '10000000-0002-b000-0003-019c167fcc00'
  AND locality_uuid_timestamp(id) = locality_uuid_timestamp('10000000-0002-b000-0003-019c167fcc00');
-- Not pruned: a lookup by id alone. The planner does not derive the partition key from id = ...,
-- so every partition's index is searched.
EXPLAIN (COSTS OFF)
SELECT * FROM loc_events WHERE id = '10000000-0002-b000-0003-019c167fcc00';

-- 4. Time-block ids carry their block number mod 2^B, so their time is known only up to whole
-- wraps. uuid_time_block_start needs as_of for that reason: with a fixed as_of it is immutable,
-- but an id made after as_of reads as one wrap earlier, so it is no partition key for a table
-- that outlives one wrap. Here the same id, read 45 days 12:16 (one wrap of (60, 65536)) apart:
SELECT uuid_time_block_start('f1000000-0000-4000-8000-000000000000', 60, 65536, '2026-02-01 00:00:00+00') AS as_of_feb,
       uuid_time_block_start('f1000000-0000-4000-8000-000000000000', 60, 65536,
                             '2026-02-01 00:00:00+00'::timestamptz + interval '65536 minutes') AS one_wrap_later;

-- 4a. A layout that never wraps in practice: uuid_time_nextval(1, 2147483647) has a 32-bit
-- prefix of whole seconds, which is the time field of a shard-key id (bytes 0..3, Unix seconds
-- mod 2^32). Its ids go into the hot_uuid tables above, bounded by hot_uuid_boundary.
SELECT prefix_bits, effective_block_size, wrap_interval FROM locality_uuid_block_layout(1, 2147483647);
SELECT hot_uuid_timestamp(t.id) BETWEEN date_trunc('second', t.before) AND t.after AS prefix_is_the_second
FROM (SELECT clock_timestamp() AS before, uuid_time_nextval(1, 2147483647) AS id, clock_timestamp() AS after) t;
INSERT INTO hot_events (id, kind) VALUES (uuid_time_nextval(1, 2147483647), 'time block (1, 2147483647), now');
SELECT tableoid::regclass AS partition, locality_uuid_version(id) AS version
FROM hot_events WHERE kind LIKE 'time block%';

-- 4b. Wrapping layouts (the defaults): a ring of partitions on ranges of the prefix. Each holds a
-- quarter of the wrap (16384 blocks of 60 s: 11 days 9:04 with the defaults); the partition the
-- prefix enters next is emptied with TRUNCATE before it does.
CREATE TABLE block_events (
    id   uuid PRIMARY KEY DEFAULT uuid_time_nextval(),
    kind text NOT NULL
) PARTITION BY RANGE (id);
CREATE TABLE block_events_0 PARTITION OF block_events
    FOR VALUES FROM (MINVALUE) TO ('40000000-0000-0000-0000-000000000000');
CREATE TABLE block_events_1 PARTITION OF block_events
    FOR VALUES FROM ('40000000-0000-0000-0000-000000000000') TO ('80000000-0000-0000-0000-000000000000');
CREATE TABLE block_events_2 PARTITION OF block_events
    FOR VALUES FROM ('80000000-0000-0000-0000-000000000000') TO ('c0000000-0000-0000-0000-000000000000');
CREATE TABLE block_events_3 PARTITION OF block_events
    FOR VALUES FROM ('c0000000-0000-0000-0000-000000000000') TO (MAXVALUE);
INSERT INTO block_events (kind) SELECT 'default, now' FROM generate_series(1, 100);
-- The partition of the current block: block number (Unix minutes mod 65536) divided by 16384.
SELECT count(*) AS ids, count(*) FILTER (WHERE tableoid::regclass::text = 'block_events_'
           || (floor(extract(epoch FROM statement_timestamp()) / 60)::bigint % 65536 / 16384)) AS in_current_quarter
FROM block_events;
-- A lookup by id prunes to one partition; a time range does not (the time is not the key).
EXPLAIN (COSTS OFF)
SELECT * FROM block_events WHERE id = 'f1000000-0000-4000-8000-000000000000';
SET enable_seqscan = on;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM block_events
WHERE uuid_time_block_start(id, 60, 65536, now()) >= now() - interval '1 hour';
SET enable_seqscan = off;

-- 5. The pg_partman decoders: the extractors on text, as pg_partman passes it.
SELECT hot_uuid_time_decoder('6b062500-0000-0000-0000-000000000000') AS decoded,
       hot_uuid_time_decoder(hot_uuid_boundary('2026-02-01 00:00:00+00')::text) AS round_trip,
       hot_uuid_time_decoder(NULL) IS NULL AS null_is_null;
SELECT uuidv7_time_decoder('019c167f-cc00-7000-8000-000000000000') AS decoded,
       uuidv7_time_decoder(uuidv7_lower('2026-02-01 00:00:00.001+00')::text) AS round_trip,
       uuidv7_time_decoder(NULL) IS NULL AS null_is_null;
-- Text that is no uuid is refused as the cast refuses it.
SELECT left(pg_temp.try($$SELECT hot_uuid_time_decoder('2026-02-01')$$), 5) AS hot,
       left(pg_temp.try($$SELECT uuidv7_time_decoder('2026-02-01')$$), 5) AS v7;

DROP TABLE hot_events, v7_events, loc_events, block_events;
