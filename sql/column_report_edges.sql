-- C edition only (the portable suite leaves this file out).
-- locality_uuid_column_report() where a hostile user looks: a table never analyzed or grown
-- since (the sample must still reach the newest rows), a relation id that names nothing, the
-- hint for what is not a table, and an index that is invalid (a failed CREATE INDEX
-- CONCURRENTLY) or partial.
SET TimeZone = 'UTC';
\i sql/include/helpers.psql
SET client_min_messages = warning;

-- Never analyzed: 4000 random keys, then 4000 of uuidv7_ordered(). A sample of 2000 spreads
-- over the whole heap: about half version 7, the newest keys ordered.
CREATE TABLE e_fresh (id uuid PRIMARY KEY, n int) WITH (autovacuum_enabled = off);
INSERT INTO e_fresh SELECT gen_random_uuid(), n FROM generate_series(1, 4000) n;
INSERT INTO e_fresh SELECT uuidv7_ordered(), n FROM generate_series(4001, 8000) n;
SELECT item, CASE WHEN item = 'format v7' THEN split_part(value, ' ', 1)::float8 BETWEEN 35 AND 65 END AS about_half,
       CASE WHEN item LIKE '%order%' THEN value END AS correlation
FROM locality_uuid_column_report('e_fresh', 'id', 2000)
WHERE item IN ('format v7', 'the newest keys'' order follows insert order');

-- Analyzed at 2000 rows of uuidv7_ordered(), then 6000 random keys: about three quarters of
-- the sample version 4, the newest keys random.
CREATE TABLE e_grown (id uuid PRIMARY KEY, n int) WITH (autovacuum_enabled = off);
INSERT INTO e_grown SELECT uuidv7_ordered(), n FROM generate_series(1, 2000) n;
ANALYZE e_grown;
INSERT INTO e_grown SELECT gen_random_uuid(), n FROM generate_series(2001, 8000) n;
SELECT item, CASE WHEN item = 'format random (version 4)' THEN split_part(value, ' ', 1)::float8 BETWEEN 60 AND 90 END AS about_three_quarters,
       CASE WHEN item LIKE '%order%' THEN abs(value::float8) < 0.5 END AS random_order
FROM locality_uuid_column_report('e_grown', 'id', 2000)
WHERE item IN ('format random (version 4)', 'the newest keys'' order follows insert order');

-- A sample by pages that gives more rows than asked keeps rows spread over all it read, not the
-- first (a LIMIT dropped the newest pages): 97,000 random keys then 3,000 of uuidv7_ordered(),
-- 36 % of the pages (37,837 rows for 36,000 asked): about 3 % version 7, as the table.
CREATE TABLE e_late (id uuid, n int) WITH (autovacuum_enabled = off);
INSERT INTO e_late SELECT gen_random_uuid(), n FROM generate_series(1, 97000) n;
INSERT INTO e_late SELECT uuidv7_ordered(), n FROM generate_series(97001, 100000) n;
ANALYZE e_late;
SELECT item, CASE WHEN item = 'sampled rows' THEN value ELSE (split_part(value, ' ', 1)::float8 BETWEEN 1.5 AND 4.5)::text END AS value,
       CASE WHEN item = 'sampled rows' THEN detail LIKE 'TABLESAMPLE SYSTEM (%' END AS by_pages
FROM locality_uuid_column_report('e_late', 'id', 36000) WHERE item IN ('sampled rows', 'format v7');

-- Ids made from integers (version 0, NCS variant) fit only the shard-key layout, which fits any
-- id, with a second of 1970: the rule says hot, but they are not shard-key ids to keep.
CREATE TABLE e_int (id uuid PRIMARY KEY);
INSERT INTO e_int SELECT ('00000000-0000-0000-0000-' || lpad(to_hex(n), 12, '0'))::uuid FROM generate_series(1, 2000) n;
SELECT item, value, detail FROM locality_uuid_column_report('e_int', 'id') WHERE item IN ('format hot', 'generator to pick');

-- A relation id that names nothing: 42P01, not an internal error.
SELECT pg_temp.try($$SELECT * FROM locality_uuid_column_report(0, 'id')$$);
CREATE TABLE e_gone (id uuid);
SELECT 'e_gone'::regclass::oid AS gone_oid \gset
DROP TABLE e_gone;
SELECT replace(pg_temp.try(format('SELECT * FROM locality_uuid_column_report(%s, %L)', :gone_oid, 'id')), :'gone_oid', 'N');

-- What is not a table: 42809; the hint to report on each partition for a partitioned table only.
CREATE FUNCTION pg_temp.hint_of(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    hint text;
BEGIN
    EXECUTE stmt;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, hint = PG_EXCEPTION_HINT;
    RETURN state || ', hint: ' || coalesce(nullif(hint, ''), 'none');
END
$$;
CREATE TABLE e_parted (id uuid) PARTITION BY HASH (id);
CREATE VIEW e_view AS SELECT id FROM e_fresh;
CREATE SEQUENCE e_seq;
SELECT pg_temp.hint_of($$SELECT * FROM locality_uuid_column_report('e_parted', 'id')$$);
SELECT pg_temp.hint_of($$SELECT * FROM locality_uuid_column_report('e_view', 'id')$$);
SELECT pg_temp.hint_of($$SELECT * FROM locality_uuid_column_report('e_seq', 'last_value')$$);

-- An invalid index left by a failed CREATE INDEX CONCURRENTLY is not the column's index (and
-- pgstatindex refuses it); a partial index neither, though unique: the full one is.
CREATE EXTENSION pgstattuple;
CREATE TABLE e_idx (id uuid, a int);
INSERT INTO e_idx SELECT uuidv7_ordered(), 1 FROM generate_series(1, 3000);
INSERT INTO e_idx SELECT id, 1 FROM e_idx LIMIT 1;
\set VERBOSITY terse
CREATE UNIQUE INDEX CONCURRENTLY e_idx_invalid ON e_idx (id);
\set VERBOSITY default
SELECT indisvalid FROM pg_index WHERE indexrelid = 'e_idx_invalid'::regclass;
SELECT item, value, detail FROM locality_uuid_column_report('e_idx', 'id') WHERE item IN ('index', 'leaf density');
CREATE UNIQUE INDEX e_idx_partial ON e_idx (id) WHERE a = 2;
CREATE INDEX e_idx_full ON e_idx (id, a);
SELECT item, CASE WHEN item = 'index' THEN value END AS index, value IS NOT NULL AS has_value
FROM locality_uuid_column_report('e_idx', 'id') WHERE item IN ('index', 'leaf density');
DROP EXTENSION pgstattuple;

-- The time span of the keys: the first and the last time, each printed as it is.
CREATE TABLE e_span (id uuid PRIMARY KEY);
INSERT INTO e_span VALUES (uuidv7_lower('2004-11-03 19:53:47.776+00')), (uuidv7_lower('2026-03-01 12:00:00+00'));
SELECT value FROM locality_uuid_column_report('e_span', 'id') WHERE item = 'time span';

-- Random keys sorted by CLUSTER follow heap order, yet new random keys land anywhere: the pick is
-- uuidv7_ordered(), as the format row says, not the block generator.
CREATE TABLE e_sorted (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
INSERT INTO e_sorted (n) SELECT g FROM generate_series(1, 3000) g;
CLUSTER e_sorted USING e_sorted_pkey;
SELECT item, value, detail FROM locality_uuid_column_report('e_sorted', 'id')
WHERE item IN ('format random (version 4)', 'generator to pick');

-- Block ids of a DEFAULT's block generator, in blocks of 16 ids, sampled about every 100 rows:
-- neighbours in the sample lie in other blocks, so the sample alone reads as random keys; the
-- DEFAULT says they are blocks, and the pick keeps it.
CREATE SEQUENCE e_small_blocks_seq;
CREATE TABLE e_small_blocks (id uuid PRIMARY KEY DEFAULT uuid_sequence_nextval('e_small_blocks_seq', 16, 65536));
INSERT INTO e_small_blocks SELECT FROM generate_series(1, 20000);
SELECT item, value, detail FROM locality_uuid_column_report('e_small_blocks', 'id', 200)
WHERE item = 'generator to pick';

-- Random keys sorted by CLUSTER in a dense sample: 150,000 rows, all sampled, share their first
-- 16 bits with a neighbour 61 % of the time (1 - 65536 (1 - e^(-150000/65536)) / 149999); block
-- ids share them near always. Still random keys, not blocks.
CREATE TABLE e_sorted_dense (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
INSERT INTO e_sorted_dense SELECT FROM generate_series(1, 150000);
CLUSTER e_sorted_dense USING e_sorted_dense_pkey;
SELECT item, CASE WHEN item = 'version 4 neighbours in one block' THEN (split_part(value, ' ', 1)::float8 BETWEEN 55 AND 67)::text ELSE value END AS value,
       detail
FROM locality_uuid_column_report('e_sorted_dense', 'id', 1000000)
WHERE item IN ('sampled rows', 'format random (version 4)', 'format block', 'version 4 neighbours in one block', 'generator to pick');

-- After the recipe's CLUSTER: random keys, the DEFAULT switched to uuidv7_ordered(), new keys,
-- CLUSTER: the new keys sort below the old random ones. The DEFAULT already is the ordered
-- generator: keep it, and say why inserts land inside the index. So for a partition whose own
-- DEFAULT is random (attached so, its columns in another order) under a partitioned table whose
-- DEFAULT is ordered: inserts through the parent take the parent's.
CREATE TABLE e_acc (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
INSERT INTO e_acc (n) SELECT generate_series(1, 2000);
ALTER TABLE e_acc ALTER COLUMN id SET DEFAULT uuidv7_ordered();
INSERT INTO e_acc SELECT uuidv7(), n FROM generate_series(2001, 4000) n;
CLUSTER e_acc USING e_acc_pkey;
SELECT item, value, detail
FROM locality_uuid_column_report('e_acc', 'id')
WHERE item IN ('format random (version 4)', 'format v7', 'generator to pick') ORDER BY item;
CREATE TABLE e_pacc (n int, id uuid DEFAULT uuidv7_ordered(), PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE e_pacc_1 (id uuid NOT NULL DEFAULT gen_random_uuid(), n int);
ALTER TABLE e_pacc ATTACH PARTITION e_pacc_1 FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
INSERT INTO e_pacc_1 (n) SELECT generate_series(1, 2000);
INSERT INTO e_pacc SELECT n, uuidv7() FROM generate_series(2001, 4000) n;
CLUSTER e_pacc_1 USING e_pacc_1_pkey;
SELECT item, value, detail FROM locality_uuid_column_report('e_pacc_1', 'id') WHERE item = 'generator to pick';

-- A domain over uuid is a uuid column: reported on, as the survey lists it.
CREATE DOMAIN e_did AS uuid DEFAULT gen_random_uuid();
CREATE TABLE e_dom (id e_did PRIMARY KEY, n int);
INSERT INTO e_dom (n) SELECT generate_series(1, 2000);
SELECT item, value FROM locality_uuid_column_report('e_dom', 'id') WHERE item IN ('sampled rows', 'format random (version 4)', 'generator to pick');
CREATE DOMAIN e_dint AS int;
CREATE TABLE e_dom_int (id e_dint PRIMARY KEY);
SELECT pg_temp.try($$SELECT * FROM locality_uuid_column_report('e_dom_int', 'id')$$);
