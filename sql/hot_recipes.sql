-- The shard-key recipes of docs/sharding.md: partitioning by shard key and by time, indexes, generated
-- columns, reading the shard key back. Plans are printed without costs, on fixed ids; scans are
-- held to index or sequential scans so that the plans show what pruning did, whatever the stats.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
SET enable_seqscan = off;
SET enable_bitmapscan = off;
\i sql/include/helpers.psql

-- Recipe 1: LIST partitions on the shard key carried by the id. The application picks the shard
-- key (a region, a tenant) and every id made for it lands in that shard's partition.
CREATE TABLE orders (
    id       uuid NOT NULL,
    customer text NOT NULL,
    total    numeric NOT NULL
) PARTITION BY LIST (hot_uuid_shard_key(id));
CREATE TABLE orders_eu    PARTITION OF orders FOR VALUES IN (208, 276);
CREATE TABLE orders_us    PARTITION OF orders FOR VALUES IN (840);
CREATE TABLE orders_other PARTITION OF orders DEFAULT;
-- Equal ids have equal shard keys, so they meet in one partition: a unique index on id in each
-- partition makes id unique in the whole table (a partitioned table cannot have a primary key
-- on id when its partition key is an expression).
CREATE UNIQUE INDEX ON orders_eu (id);
CREATE UNIQUE INDEX ON orders_us (id);
CREATE UNIQUE INDEX ON orders_other (id);

INSERT INTO orders (id, customer, total)
VALUES (hot_uuid(208), 'Aarhus', 10), (hot_uuid(276), 'Berlin', 20),
       (hot_uuid(840), 'Chicago', 30), (hot_uuid(392), 'Osaka', 40);
SELECT tableoid::regclass AS partition, customer, hot_uuid_shard_key(id) AS shard_key
FROM orders ORDER BY customer;

-- Lookup by id: add the shard key of the same id, and the planner prunes to one partition.
EXPLAIN (COSTS OFF)
SELECT * FROM orders
WHERE id = '61ff0f80-2211-4433-5500-000148030000'
  AND hot_uuid_shard_key(id) = hot_uuid_shard_key('61ff0f80-2211-4433-5500-000148030000');

-- The same lookup as a prepared statement: a generic plan prunes at executor start.
SET plan_cache_mode = force_generic_plan;
PREPARE order_by_id(uuid) AS
SELECT * FROM orders WHERE id = $1 AND hot_uuid_shard_key(id) = hot_uuid_shard_key($1);
EXPLAIN (COSTS OFF) EXECUTE order_by_id('61ff0f80-2211-4433-5500-000148030000');
-- Without the shard-key predicate every partition is searched.
EXPLAIN (COSTS OFF)
SELECT * FROM orders WHERE id = '61ff0f80-2211-4433-5500-000148030000';
RESET plan_cache_mode;

-- Recipe 2: HASH partitions on the shard key, for many shard keys and a fixed partition count.
CREATE TABLE sessions (
    id      uuid NOT NULL,
    payload text
) PARTITION BY HASH (hot_uuid_shard_key(id));
CREATE TABLE sessions_0 PARTITION OF sessions FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE sessions_1 PARTITION OF sessions FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE sessions_2 PARTITION OF sessions FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE sessions_3 PARTITION OF sessions FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO sessions SELECT hot_uuid(k), 'tenant ' || k FROM generate_series(1, 1000) k;
-- These partitions have no index: a plain sequential scan (18 would flag a disabled one).
SET enable_seqscan = on;
-- Each tenant's sessions live in one partition; together they cover all four.
SELECT count(DISTINCT tableoid) AS partitions_used,
       bool_and(parts = 1) AS one_partition_per_tenant
FROM (SELECT hot_uuid_shard_key(id) AS k, count(DISTINCT tableoid) AS parts, min(tableoid) AS tableoid
      FROM sessions GROUP BY 1) s;
EXPLAIN (COSTS OFF)
SELECT * FROM sessions
WHERE id = '61ff0f80-2211-4433-5500-00012a000000'
  AND hot_uuid_shard_key(id) = hot_uuid_shard_key('61ff0f80-2211-4433-5500-00012a000000');
-- All of one tenant's rows, by shard key alone.
EXPLAIN (COSTS OFF)
SELECT count(*) FROM sessions WHERE hot_uuid_shard_key(id) = 42;
SET enable_seqscan = off;

-- Recipe 3: time. Ids sort by second, so the primary key index answers time ranges directly
-- with hot_uuid_boundary; an expression index on hot_uuid_timestamp serves other plans.
CREATE TABLE events (
    id   uuid PRIMARY KEY,
    kind text NOT NULL
);
INSERT INTO events
SELECT hot_uuid(7, timestamptz '2024-01-01 00:00:00+00' + i * interval '1 hour'), 'tick'
FROM generate_series(0, 24 * 60 - 1) i;
CREATE INDEX events_created ON events (hot_uuid_timestamp(id));
ANALYZE events;
-- One day of events through the primary key: [boundary of the day, boundary of the next day).
-- Each range is a view, counted and then explained (a view's plan is that of its query).
CREATE TEMP VIEW jan_2 AS SELECT * FROM events
WHERE id >= hot_uuid_boundary('2024-01-02 00:00:00+00')
  AND id <  hot_uuid_boundary('2024-01-03 00:00:00+00');
SELECT count(*) AS jan_2 FROM jan_2;
EXPLAIN (COSTS OFF) SELECT * FROM jan_2;
-- The same day through the expression index.
CREATE TEMP VIEW jan_2_by_time AS SELECT * FROM events
WHERE hot_uuid_timestamp(id) >= '2024-01-02 00:00:00+00'
  AND hot_uuid_timestamp(id) <  '2024-01-03 00:00:00+00';
SELECT count(*) AS jan_2 FROM jan_2_by_time;
EXPLAIN (COSTS OFF) SELECT * FROM jan_2_by_time;

-- Recipe 4: generated columns make the shard key and creation time plain columns (for
-- foreign keys, reporting tools, and indexes that read them).
CREATE TABLE payments (
    id         uuid PRIMARY KEY,
    amount     numeric NOT NULL,
    shard_key  bigint GENERATED ALWAYS AS (hot_uuid_shard_key(id)) STORED,
    created_at timestamptz GENERATED ALWAYS AS (hot_uuid_timestamp(id)) STORED
);
INSERT INTO payments (id, amount)
VALUES (hot_uuid_make(208, '2022-02-06 00:00:00+00', '\x112233', 17493, 658188), 9.99),
       (hot_uuid_make(305419896, '1970-01-01 00:00:00+00', '\x112233', 17493, 42), 1.00);
SELECT id, shard_key, created_at FROM payments ORDER BY id;
-- A CHECK constraint keeps a table to the shard keys it is meant for.
ALTER TABLE payments ADD CONSTRAINT payments_eu CHECK (hot_uuid_shard_key(id) IN (208, 305419896));
INSERT INTO payments (id, amount) VALUES (hot_uuid_make(840, '2022-02-06 00:00:00+00'), 5);

-- A column default can take the shard key from the session (set by the application per tenant).
CREATE TABLE tickets (
    id    uuid PRIMARY KEY DEFAULT hot_uuid(current_setting('app.shard_key')::bigint),
    title text NOT NULL
);
SET app.shard_key = 208;
INSERT INTO tickets (title) VALUES ('printer on fire');
SET app.shard_key = 840;
INSERT INTO tickets (title) VALUES ('coffee machine empty');
SELECT title, hot_uuid_shard_key(id) AS shard_key FROM tickets ORDER BY id;
RESET app.shard_key;

-- Recipe 5: RANGE partitions by time on the id itself, bounded by hot_uuid_boundary. The id
-- stays the primary key, and lookups by id or by time prune.
CREATE TABLE audit (
    id     uuid PRIMARY KEY,
    action text NOT NULL
) PARTITION BY RANGE (id);
CALL pg_temp.month_partitions('audit', 'hot_uuid_boundary', '2024-01-01 00:00:00+00', 3);
INSERT INTO audit
SELECT hot_uuid(k, timestamptz '2024-01-01 00:00:00+00' + d * interval '1 day'), 'login'
FROM generate_series(0, 90) d, generate_series(1, 3) k;
SELECT tableoid::regclass AS partition, count(*) AS rows,
       min(hot_uuid_timestamp(id)) AS first, max(hot_uuid_timestamp(id)) AS last
FROM audit GROUP BY 1 ORDER BY 1;
-- The bounds as stored: the first id of each month.
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound
FROM pg_class c WHERE c.relname LIKE 'audit_2024_%' AND c.relkind = 'r' ORDER BY 1;
-- By id: one partition.
EXPLAIN (COSTS OFF)
SELECT * FROM audit WHERE id = hot_uuid_make(2, '2024-02-14 00:00:00+00');
-- By time: the partitions that can hold that range.
CREATE TEMP VIEW feb_10_to_mar_4 AS SELECT * FROM audit
WHERE id >= hot_uuid_boundary('2024-02-10 00:00:00+00')
  AND id <  hot_uuid_boundary('2024-03-05 00:00:00+00');
SELECT count(*) AS feb_10_to_mar_4 FROM feb_10_to_mar_4;
EXPLAIN (COSTS OFF) SELECT * FROM feb_10_to_mar_4;
-- A range relative to a parameter prunes at executor start.
SET plan_cache_mode = force_generic_plan;
PREPARE audit_since(timestamptz) AS
SELECT * FROM audit WHERE id >= hot_uuid_boundary($1);
EXPLAIN (COSTS OFF) EXECUTE audit_since('2024-03-10 00:00:00+00');
SELECT count(*) AS since_mar_10 FROM audit WHERE id >= hot_uuid_boundary('2024-03-10 00:00:00+00');
RESET plan_cache_mode;

-- Recipe 6: a service reads the shard key and the second from an id it received. In SQL, with
-- the extension or with plain built-ins (bytes 12..15 little-endian, bytes 0..3 big-endian).
SELECT id,
       hot_uuid_shard_key(id) AS shard_key,
       (get_byte(b, 15)::bigint << 24) | (get_byte(b, 14) << 16) | (get_byte(b, 13) << 8)
           | get_byte(b, 12) AS shard_key_builtin,
       hot_uuid_timestamp(id) AS ts,
       to_timestamp(('x' || left(id::text, 8))::bit(32)::bigint) AS ts_builtin
FROM (SELECT id, uuid_send(id) AS b
      FROM (VALUES ('61ff0f80-2211-4433-550a-0b0cd0000000'::uuid),
                   ('00000000-2211-4433-5500-002a78563412'::uuid),
                   ('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)) AS t(id)) s;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE hot_uuid_shard_key(id) = ((get_byte(b, 15)::bigint << 24)
                            | (get_byte(b, 14) << 16) | (get_byte(b, 13) << 8) | get_byte(b, 12))
                          AND hot_uuid_timestamp(id) = to_timestamp(('x' || left(id::text, 8))::bit(32)::bigint))
           AS builtins_agree
FROM (SELECT id, uuid_send(id) AS b FROM sessions UNION ALL SELECT id, uuid_send(id) FROM audit) s;
