-- C edition only (the portable suite leaves this file out).
-- locality_uuid_column_report(): tables filled by every generator, by gen_random_uuid(), and
-- one that switched from version 4 to uuidv7_ordered() half way. Values that depend on random
-- bits are shown as classes: a correlation of 1, under 0.5 (|r| < 0.5: random keys give |r| about
-- 1/sqrt(rows), 0.07 for the newest 200) or between.
SET TimeZone = 'UTC';
\i sql/include/helpers.psql
SET client_min_messages = warning;

CREATE SEQUENCE report_seq;
CREATE TABLE g_locality_seq (id uuid PRIMARY KEY DEFAULT locality_uuid(true), n int);
CREATE TABLE g_locality_var (id uuid PRIMARY KEY DEFAULT locality_uuid(false), n int);
CREATE TABLE g_block_seq (id uuid PRIMARY KEY DEFAULT uuid_sequence_nextval('report_seq', 100, 65536), n int);
CREATE TABLE g_block_time (id uuid PRIMARY KEY DEFAULT uuid_time_nextval(3600), n int);  -- one block: 2000 ids in an hour
CREATE TABLE g_hot (id uuid PRIMARY KEY DEFAULT hot_uuid(7), n int);
CREATE TABLE g_v7 (id uuid PRIMARY KEY DEFAULT uuidv7(), n int);
CREATE TABLE g_v7_ordered (id uuid PRIMARY KEY DEFAULT uuidv7_ordered(), n int);
CREATE TABLE g_random (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
CREATE TABLE g_switch (id uuid PRIMARY KEY, n int);
INSERT INTO g_locality_seq (n) SELECT generate_series(1, 2000);
INSERT INTO g_locality_var (n) SELECT generate_series(1, 2000);
INSERT INTO g_block_seq (n) SELECT generate_series(1, 2000);
INSERT INTO g_block_time (n) SELECT generate_series(1, 2000);
INSERT INTO g_hot (n) SELECT generate_series(1, 2000);
INSERT INTO g_v7 (n) SELECT generate_series(1, 2000);
INSERT INTO g_v7_ordered (n) SELECT generate_series(1, 2000);
INSERT INTO g_random (n) SELECT generate_series(1, 2000);
INSERT INTO g_switch SELECT gen_random_uuid(), n FROM generate_series(1, 1000) n;
INSERT INTO g_switch SELECT uuidv7_ordered(), n FROM generate_series(1001, 2000) n;

-- The report with its random figures as classes.
CREATE FUNCTION pg_temp.report(tab regclass, sample_rows integer DEFAULT 10000)
RETURNS TABLE (item text, value text) LANGUAGE sql AS $$
    SELECT r.item,
           CASE
               WHEN r.item LIKE '%order follows insert order' THEN
                   CASE WHEN r.value::float8 = 1 THEN '1.000' WHEN abs(r.value::float8) < 0.5 THEN 'under 0.5' ELSE 'between' END
               WHEN r.item = 'version 4 neighbours in one block' THEN
                   CASE WHEN split_part(r.value, ' ', 1)::float8 > 90 THEN 'over 90 %' WHEN split_part(r.value, ' ', 1)::float8 < 1 THEN 'under 1 %' ELSE 'between' END
               WHEN r.item = 'time span' THEN (r.value IS NOT NULL)::text || ', ' || r.detail
               WHEN r.item = 'leaf density' THEN coalesce((r.value IS NOT NULL)::text, r.detail)
               WHEN r.item = 'leaves the newest keys touch' THEN
                   CASE WHEN split_part(r.value, ' ', 1)::int <= 3 THEN 'at most 3' ELSE 'more than 3' END
               ELSE coalesce(r.value, 'NULL')
           END
    FROM locality_uuid_column_report(tab, 'id', sample_rows) WITH ORDINALITY r
    ORDER BY r.ordinality
$$;

SELECT 'g_locality_seq' AS tab, * FROM pg_temp.report('g_locality_seq');
SELECT 'g_locality_var' AS tab, * FROM pg_temp.report('g_locality_var');
SELECT 'g_block_seq' AS tab, * FROM pg_temp.report('g_block_seq');
SELECT 'g_block_time' AS tab, * FROM pg_temp.report('g_block_time');
SELECT 'g_hot' AS tab, * FROM pg_temp.report('g_hot');
SELECT 'g_v7' AS tab, * FROM pg_temp.report('g_v7');
SELECT 'g_v7_ordered' AS tab, * FROM pg_temp.report('g_v7_ordered');
SELECT 'g_random' AS tab, * FROM pg_temp.report('g_random');
SELECT 'g_switch' AS tab, * FROM pg_temp.report('g_switch');

-- What each row says to do, for random keys, block ids and a switch of generator.
SELECT 'g_random' AS tab, item, detail FROM locality_uuid_column_report('g_random', 'id') WHERE item <> 'sampled rows';
SELECT 'g_block_seq' AS tab, item, detail FROM locality_uuid_column_report('g_block_seq', 'id') WHERE item <> 'sampled rows';
SELECT 'g_switch' AS tab, item, detail FROM locality_uuid_column_report('g_switch', 'id') WHERE item <> 'sampled rows';

-- With pgstattuple: the leaf density of the index.
CREATE EXTENSION pgstattuple;
SELECT item, value IS NOT NULL AS has_value, detail FROM locality_uuid_column_report('g_v7_ordered', 'id')
WHERE item = 'leaf density';
-- A role that may read the table but not run pgstatindex (granted to pg_stat_scan_tables): said.
CREATE ROLE report_reader;
GRANT SELECT ON g_v7_ordered TO report_reader;
SET ROLE report_reader;
SELECT item, value, detail FROM locality_uuid_column_report('g_v7_ordered', 'id') WHERE item = 'leaf density';
RESET ROLE;
REVOKE SELECT ON g_v7_ordered FROM report_reader;
DROP ROLE report_reader;
DROP EXTENSION pgstattuple;

-- A sample smaller than the table: about sample_rows rows, in heap order.
ANALYZE g_random;
SELECT item, value::int BETWEEN 100 AND 300 AS about_sample, detail FROM locality_uuid_column_report('g_random', 'id', 200)
WHERE item = 'sampled rows';

-- A larger sample reads whole pages: 20 % of 100,000 rows is 128 pages or so.
CREATE TABLE g_large (id uuid DEFAULT gen_random_uuid(), n int);
INSERT INTO g_large (n) SELECT generate_series(1, 100000);
ANALYZE g_large;
SELECT item, value::int BETWEEN 10000 AND 30000 AS about_sample, detail LIKE 'TABLESAMPLE SYSTEM (%' AS by_pages
FROM locality_uuid_column_report('g_large', 'id', 20000) WHERE item = 'sampled rows';

-- No index, an empty table, bad arguments; a role without SELECT on the table: 42501.
CREATE TABLE g_empty (id uuid, t text);
SELECT * FROM locality_uuid_column_report('g_empty', 'id');
SELECT pg_temp.try($$SELECT * FROM locality_uuid_column_report('g_empty', 't')$$);
SELECT pg_temp.try($$SELECT * FROM locality_uuid_column_report('g_empty', 'nope')$$);
SELECT pg_temp.try($$SELECT * FROM locality_uuid_column_report('g_empty', 'id', 1)$$);
CREATE INDEX g_empty_id_idx ON g_empty (id);
SELECT pg_temp.try($$SELECT * FROM locality_uuid_column_report('g_empty_id_idx', 'id')$$);
CREATE ROLE report_stranger;
SET ROLE report_stranger;
SELECT pg_temp.try($$SELECT * FROM locality_uuid_column_report('g_random', 'id')$$);
RESET ROLE;
DROP ROLE report_stranger;
