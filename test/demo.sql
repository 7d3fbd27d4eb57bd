-- What test/demo.sh shows: each kind of id, where it lands, what it carries, a time range on the
-- key, and a table moving from random keys to ordered ones.
SET timezone = 'UTC';
CREATE EXTENSION locality_uuid;

-- Variable mode (default): the first hex digits change on every id, spreading writes.
SELECT locality_uuid() AS spread FROM generate_series(1, 5);

-- Sequential mode: ids made together sort together (B-tree friendly).
SELECT locality_uuid(sequential => true) AS clustered FROM generate_series(1, 5);

-- What an id carries.
SELECT id,
       locality_uuid_timestamp(id) AS created,
       locality_uuid_pid(id) AS process,
       locality_uuid_mac(id) AS node
FROM (SELECT locality_uuid() AS id) s;

-- A table whose key clusters at the right edge of its index.
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT locality_uuid(true), item text);
INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, 100000) g;
SELECT count(*) AS rows,
       pg_size_pretty(pg_relation_size('orders_pkey')) AS index_size,
       min(locality_uuid_timestamp(id)) <= max(locality_uuid_timestamp(id)) AS ordered_in_time
FROM orders;

-- The first vector of docs/format.md, section 1, decoded.
SELECT locality_uuid_version(u) AS version, locality_uuid_pid(u) AS pid, locality_uuid_mac(u) AS mac,
       locality_uuid_counter(u) AS counter, locality_uuid_timestamp(u) AS ts
FROM (VALUES ('20be0ffc-314a-bd53-7a50-013a65ca76d2'::uuid)) v(u);

-- Block-wrapped ids (drop-in for sequential_uuids): the first bytes are the block number.
CREATE SEQUENCE demo_seq;
SELECT uuid_sequence_nextval('demo_seq', block_size => 3, block_count => 256) AS blocks_of_3
FROM generate_series(1, 7);
SELECT * FROM locality_uuid_block_layout(block_size => 60, block_count => 65536);

-- Shard-key ids (compatible with .NET HotGuid): any service reads the key back from the id.
SELECT id, hot_uuid_shard_key(id) AS shard_key, hot_uuid_timestamp(id) AS created
FROM (SELECT hot_uuid(shard_key => 42) AS id UNION ALL SELECT hot_uuid(7)) s;

-- Version 7 (RFC 9562): uuidv7() as PostgreSQL 18 has it (this extension's below 18), and
-- uuidv7_ordered(), one order for every backend of the cluster; the smallest id of a day
-- bounds a range scan or a partition.
SELECT id, uuid_extract_version(id) AS version, uuidv7_timestamp(id) AS created
FROM (SELECT uuidv7() AS id UNION ALL SELECT uuidv7_ordered() UNION ALL SELECT uuidv7_ordered()) s;
SELECT uuidv7_lower('2026-01-01 00:00:00+00') AS first_id_of_2026;

-- A time range on the key: uuidv7_made() is answered by the primary key's own index (the plan
-- shows an index scan between two bounds), with no timestamp column and no second index.
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuidv7_ordered(), what text);
INSERT INTO events (id, what)
SELECT uuidv7_ordered(now() - make_interval(mins => g)), 'event ' || g FROM generate_series(1, 100000) g;
ANALYZE events;
SELECT count(*) AS made_in_the_last_hour FROM events WHERE uuidv7_made(id, now() - interval '1 hour');
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE uuidv7_made(id, now() - interval '1 hour');

-- Which format could have made an id, and the time it carries.
SELECT format, kind, made_at, time_exact, id_time
FROM locality_uuid_describe('018bcfe5-687b-7abc-8def-0123456789ab');

-- A table keyed by gen_random_uuid(): the survey of every uuid key (catalogs only) says what a
-- switch to ordered keys saves; then the switch, and the survey and the column report after it.
CREATE TABLE accounts (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text);
INSERT INTO accounts (name) SELECT 'account ' || g FROM generate_series(1, 50000) g;
ANALYZE accounts;
SELECT tab, col, generator, inserts, pick, pg_size_pretty(hot_set_bytes_saved) AS saves
FROM locality_uuid_survey();
SET lock_timeout = '200ms';
ALTER TABLE accounts ALTER COLUMN id SET DEFAULT uuidv7_ordered();
RESET lock_timeout;
INSERT INTO accounts (name) SELECT 'account ' || g FROM generate_series(50001, 60000) g;
ANALYZE accounts;
SELECT tab, generator, round(correlation::numeric, 2) AS correlation, advice
FROM locality_uuid_survey() WHERE tab = 'accounts'::regclass;
SELECT item, value, detail FROM locality_uuid_column_report('accounts', 'id');
