-- C edition only (the portable suite leaves this file out).
-- locality_uuid_survey(): every uuid column that leads a B-tree index, from the catalogs and
-- pg_stats, on a schema with every generator, keys the application writes, a table that
-- switched generator, a never-analyzed table, partitions, a view, and a column the caller cannot
-- read. Rows keyed by ordered generators get uuidv7() values: the survey reads the DEFAULT, and
-- uuidv7_ordered() would lease time ahead of the clock, where v7's first ids would start without
-- shared state. Figures that depend on random bits are shown as classes: correlation over 0.9, under 0.5
-- in absolute value, or negative past -0.5 (random keys that an ordered generator then followed).
\i sql/include/helpers.psql
SET client_min_messages = warning;

CREATE SCHEMA survey;
SET search_path = survey, public;
CREATE SEQUENCE survey_seq;
CREATE TABLE s_locality_seq (id uuid PRIMARY KEY DEFAULT locality_uuid(sequential => true), n int);
CREATE TABLE s_locality_var (id uuid PRIMARY KEY DEFAULT locality_uuid(false), n int);
CREATE TABLE s_block_seq (id uuid PRIMARY KEY DEFAULT uuid_sequence_nextval('survey_seq', 100, 65536), n int);
CREATE TABLE s_block_time (id uuid PRIMARY KEY DEFAULT uuid_time_nextval(3600), n int);
CREATE TABLE s_hot (id uuid PRIMARY KEY DEFAULT hot_uuid(7), n int);
CREATE TABLE s_v7 (id uuid PRIMARY KEY DEFAULT uuidv7(), n int);
CREATE TABLE s_v7_ordered (id uuid PRIMARY KEY DEFAULT uuidv7_ordered(), n int);
CREATE TABLE s_uuidv4 (id uuid PRIMARY KEY DEFAULT uuidv4(), n int);
-- Random keys, in tables of several sizes.
CREATE TABLE s_random_large (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
CREATE TABLE s_random (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
CREATE TABLE s_random_small (id uuid DEFAULT gen_random_uuid(), n int);
CREATE UNIQUE INDEX s_random_small_id ON s_random_small (id);
-- No DEFAULT: the application writes the keys, ordered in one table and random in the other.
CREATE TABLE s_app_ordered (id uuid PRIMARY KEY, n int);
CREATE TABLE s_app_random (id uuid, n int);
CREATE INDEX s_app_random_id ON s_app_random (id);
-- A foreign key that leads an index: its keys are those of the rows it refers to.
CREATE TABLE s_refs (id uuid PRIMARY KEY DEFAULT uuidv7_ordered(), random_ref uuid REFERENCES s_random);
CREATE INDEX s_refs_random_ref ON s_refs (random_ref);
-- Random keys, then the DEFAULT switched to uuidv7_ordered().
CREATE TABLE s_switched (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
-- Ordered keys backfilled newest first: not in heap order, but none above what the DEFAULT makes.
CREATE TABLE s_backfill (id uuid PRIMARY KEY DEFAULT uuidv7_ordered(), n int);
-- Never analyzed (autovacuum off): one with a generator, one without.
CREATE TABLE s_fresh (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int) WITH (autovacuum_enabled = off);
CREATE TABLE s_fresh_app (id uuid PRIMARY KEY, n int) WITH (autovacuum_enabled = off);
-- Analyzed, but no key in it yet: no correlation.
CREATE TABLE s_no_keys (id uuid UNIQUE, n int);
-- Partitions: each is a table of its own, with the parent's DEFAULT; the parent is not listed.
CREATE TABLE s_parted (id uuid DEFAULT uuidv7_ordered(), n int, PRIMARY KEY (id, n)) PARTITION BY RANGE (n);
CREATE TABLE s_parted_1 PARTITION OF s_parted FOR VALUES FROM (1) TO (1001);
CREATE TABLE s_parted_2 PARTITION OF s_parted FOR VALUES FROM (1001) TO (2001);
-- Not listed: a view, a uuid column second in its index, a hash index, a partial index's
-- invalid twin, a key that is not a uuid.
CREATE VIEW s_view AS SELECT id, n FROM s_random;
CREATE TABLE s_not_keys (a int PRIMARY KEY, u uuid, h uuid);
CREATE INDEX s_not_keys_au ON s_not_keys (a, u);
CREATE INDEX s_not_keys_h ON s_not_keys USING hash (h);
-- A column the caller may not read: SELECT on n only.
CREATE TABLE s_secret (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);

INSERT INTO s_locality_seq (n) SELECT generate_series(1, 2000);
INSERT INTO s_locality_var (n) SELECT generate_series(1, 5000);
INSERT INTO s_block_seq (n) SELECT generate_series(1, 2000);
INSERT INTO s_block_time (n) SELECT generate_series(1, 2000);
INSERT INTO s_hot (n) SELECT generate_series(1, 2000);
INSERT INTO s_v7 (n) SELECT generate_series(1, 2000);
INSERT INTO s_v7_ordered SELECT uuidv7(), n FROM generate_series(1, 2000) n;
INSERT INTO s_uuidv4 (n) SELECT generate_series(1, 2000);
INSERT INTO s_random_large (n) SELECT generate_series(1, 7000);
INSERT INTO s_random (n) SELECT generate_series(1, 4000);
INSERT INTO s_random_small (n) SELECT generate_series(1, 1000);
INSERT INTO s_app_ordered SELECT uuidv7(), n FROM generate_series(1, 2000) n;
INSERT INTO s_app_random SELECT gen_random_uuid(), n FROM generate_series(1, 6000) n;
INSERT INTO s_refs SELECT uuidv7(), id FROM s_random;
INSERT INTO s_switched (n) SELECT generate_series(1, 1000);
ALTER TABLE s_switched ALTER COLUMN id SET DEFAULT uuidv7_ordered();
INSERT INTO s_switched SELECT uuidv7(), n FROM generate_series(1001, 2000) n;
INSERT INTO s_backfill SELECT uuidv7_lower(now() - make_interval(mins => n)), n FROM generate_series(1, 2000) n;
INSERT INTO s_fresh (n) SELECT generate_series(1, 2000);
INSERT INTO s_fresh_app SELECT uuidv7(), n FROM generate_series(1, 2000) n;
INSERT INTO s_no_keys (n) SELECT generate_series(1, 100);
INSERT INTO s_parted SELECT uuidv7(), n FROM generate_series(1, 2000) n;
INSERT INTO s_secret (n) SELECT generate_series(1, 3000);
ANALYZE s_locality_seq, s_locality_var, s_block_seq, s_block_time, s_hot, s_v7, s_v7_ordered, s_uuidv4,
        s_random_large, s_random, s_random_small, s_app_ordered, s_app_random, s_refs, s_switched, s_backfill, s_no_keys, s_parted,
        s_secret;

-- The survey with its random figures as classes, and its rows in the order of what switching
-- saves as a class (some, none, unknown), then by name: the sizes of indexes of random keys vary
-- from run to run. uuidv4() and uuidv7() are core's from 18, the extension's below.
CREATE FUNCTION pg_temp.survey()
RETURNS TABLE (tab regclass, col name, partition_of regclass, key_index regclass, table_rows bigint, has_size boolean,
               generator text, generator_from text, correlation text, inserts text, pick text, saves boolean)
LANGUAGE sql AS $$
    SELECT s.tab, s.col, s.partition_of, s.key_index, s.table_rows, s.index_bytes > 0,
           s.generator,
           CASE WHEN s.generator IN ('uuidv4()', 'uuidv7()')
                     AND s.generator_from = CASE WHEN current_setting('server_version_num')::int >= 180000
                                                 THEN 'core' ELSE 'locality_uuid' END
                THEN 'core from 18' ELSE s.generator_from END,
           CASE WHEN s.correlation IS NULL THEN 'NULL'
                WHEN s.correlation > 0.9 THEN 'over 0.9'
                WHEN abs(s.correlation) < 0.5 THEN 'under 0.5'
                WHEN s.correlation < -0.5 THEN 'under -0.5'
                ELSE 'between' END,
           regexp_replace(s.inserts, 'of about [0-9]+', 'of about N'), s.pick, s.hot_set_bytes_saved > 0
    FROM locality_uuid_survey('survey') AS s
    ORDER BY s.hot_set_bytes_saved > 0 DESC NULLS LAST, s.tab::text, s.col
$$;
\pset null 'NULL'
SELECT * FROM pg_temp.survey();

-- Each row's advice and its link to the deep look: random keys from a DEFAULT and from the
-- application, a switched table, a block generator, never analyzed, no keys yet.
SELECT tab, col, advice, report FROM locality_uuid_survey('survey')
WHERE tab IN ('s_random'::regclass, 's_switched'::regclass, 's_block_seq'::regclass, 's_fresh_app'::regclass,
              's_app_random'::regclass, 's_no_keys'::regclass, 's_fresh'::regclass, 's_refs'::regclass,
              's_backfill'::regclass)
ORDER BY tab::text, col;
-- The link runs.
SELECT count(*) > 5 AS report_runs FROM locality_uuid_column_report('s_switched', 'id');

-- The survey's own order: what switching saves, most first, unknown last, then by name.
SELECT bool_and(ok) AS in_order FROM (
    SELECT coalesce(s.hot_set_bytes_saved, -1) > coalesce(lead(s.hot_set_bytes_saved, 1, -1::bigint) OVER w, -1)
           OR (coalesce(s.hot_set_bytes_saved, -1) = coalesce(lead(s.hot_set_bytes_saved, 1, -1::bigint) OVER w, -1)
               AND (s.tab::text, s.col) < (lead(s.tab::text, 1, '~') OVER w, lead(s.col, 1, '~') OVER w)) AS ok
    FROM locality_uuid_survey('survey') WITH ORDINALITY AS s
    WINDOW w AS (ORDER BY s.ordinality)) AS o;

-- What switching saves: the index's size less one page, for random keys; none for ordered ones.
SELECT tab, hot_set_bytes_saved = index_bytes - current_setting('block_size')::bigint AS index_less_a_page,
       index_bytes = pg_relation_size(key_index) AS size_as_analyzed
FROM locality_uuid_survey('survey') WHERE tab IN ('s_random'::regclass, 's_random_large'::regclass) ORDER BY tab::text;

-- Every schema by default (the other tests' tables too); a schema that does not exist: 3F000; a
-- schema named in capitals is found by its name as it is.
SELECT count(*) FILTER (WHERE c.relnamespace = 'survey'::regnamespace) AS in_schema_survey
FROM locality_uuid_survey() AS s JOIN pg_class AS c ON c.oid = s.tab;
SELECT pg_temp.try($$SELECT count(*) FROM locality_uuid_survey(schema_name => 'no_such_schema')$$);
CREATE SCHEMA "Survey Two";
CREATE TABLE "Survey Two".t (id uuid PRIMARY KEY DEFAULT uuidv7_ordered());
SELECT tab, generator FROM locality_uuid_survey(schema_name => 'Survey Two');
DROP SCHEMA "Survey Two" CASCADE;

-- A role that may read some tables: it sees those, and neither the column it may not read nor
-- the tables it may not read, without an error.
CREATE ROLE survey_reader;
GRANT USAGE ON SCHEMA survey TO survey_reader;
GRANT SELECT ON s_random, s_v7_ordered TO survey_reader;
GRANT SELECT (n) ON s_secret TO survey_reader;
SET ROLE survey_reader;
SELECT tab, generator FROM locality_uuid_survey('survey') ORDER BY tab::text;
RESET ROLE;
-- The owner sees the secret column.
SELECT tab, generator FROM locality_uuid_survey('survey') WHERE tab = 's_secret'::regclass;
REVOKE ALL ON s_random, s_v7_ordered, s_secret FROM survey_reader;
REVOKE USAGE ON SCHEMA survey FROM survey_reader;
DROP ROLE survey_reader;

-- The call's search_path does not change what the survey reads: a planted look-alike of
-- pg_stats in a schema searched first is not read.
CREATE TABLE survey.pg_stats (schemaname name, tablename name, attname name, inherited boolean, correlation real);
SET search_path = survey, pg_catalog, public;
SELECT count(*) AS rows_with_correlation FROM locality_uuid_survey('survey') WHERE correlation IS NOT NULL;
RESET search_path;

-- A generator is ours or core's by where it lives, not by its name: another schema's
-- uuidv7_ordered() is judged by the order of its keys. locality_uuid's argument as an expression;
-- a key of a domain over uuid, and of a domain over that one; a generated column (no DEFAULT to switch), random and ordered.
CREATE SCHEMA survey_other;
CREATE FUNCTION survey_other.uuidv7_ordered() RETURNS uuid LANGUAGE sql VOLATILE RETURN gen_random_uuid();
CREATE TABLE survey.s_lookalike (id uuid PRIMARY KEY DEFAULT survey_other.uuidv7_ordered(), n int);
CREATE TABLE survey.s_not_false (id uuid PRIMARY KEY DEFAULT locality_uuid(NOT false), n int);
CREATE DOMAIN survey.survey_id AS uuid;
CREATE TABLE survey.s_domain (id survey.survey_id PRIMARY KEY DEFAULT gen_random_uuid(), n int);
CREATE DOMAIN survey.survey_id_over AS survey.survey_id;
CREATE TABLE survey.s_domain_over (id survey.survey_id_over PRIMARY KEY DEFAULT gen_random_uuid(), n int);
CREATE TABLE survey.s_generated (n int PRIMARY KEY, id uuid GENERATED ALWAYS AS (md5(n::text)::uuid) STORED UNIQUE);
CREATE TABLE survey.s_generated_ordered (n int PRIMARY KEY, id uuid GENERATED ALWAYS AS (uuidv7_lower(to_timestamp(1767225600 + n))) STORED UNIQUE);
INSERT INTO survey.s_generated SELECT g FROM generate_series(1, 2000) g;
INSERT INTO survey.s_generated_ordered SELECT g FROM generate_series(1, 2000) g;
INSERT INTO survey.s_lookalike (n) SELECT g FROM generate_series(1, 2000) g;
INSERT INTO survey.s_not_false (n) SELECT g FROM generate_series(1, 2000) g;
INSERT INTO survey.s_domain (n) SELECT g FROM generate_series(1, 2000) g;
INSERT INTO survey.s_domain_over (n) SELECT g FROM generate_series(1, 2000) g;
ANALYZE survey.s_domain_over;
ANALYZE survey.s_lookalike, survey.s_not_false, survey.s_domain, survey.s_generated, survey.s_generated_ordered;
SELECT tab, generator, generator_from, correlation > 0.9 AS ordered, pick FROM locality_uuid_survey('survey')
WHERE tab IN ('survey.s_lookalike'::regclass, 'survey.s_not_false'::regclass, 'survey.s_domain'::regclass,
              'survey.s_domain_over'::regclass,
              'survey.s_generated'::regclass, 'survey.s_generated_ordered'::regclass)
ORDER BY tab::text;
SELECT tab, advice FROM locality_uuid_survey('survey')
WHERE tab IN ('survey.s_generated'::regclass, 'survey.s_generated_ordered'::regclass) ORDER BY tab::text;

-- The generators by name: every function of the extension that makes new keys (volatile, returning
-- uuid; core's from 18 aside) is here, and a new one shows in this list: the survey must know it.
SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS generator
FROM pg_proc AS p JOIN pg_depend AS d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension AS x ON x.oid = d.refobjid AND x.extname = 'locality_uuid'
WHERE p.prorettype = 'uuid'::regtype AND p.provolatile = 'v' AND p.pronamespace <> 'pg_catalog'::regnamespace
ORDER BY 1;
-- Each, as a DEFAULT (the block calls as locality_uuid_block_advice() writes them): what the name
-- says about inserts. locality_uuid() follows locality_uuid.counter_mode, which a role or
-- database may set: it is judged by its keys, as locality_uuid(expression) is.
CREATE SCHEMA survey_b;
SET search_path = survey_b, public;
CREATE SEQUENCE id_seq;
CREATE TABLE b_ordered (id uuid PRIMARY KEY DEFAULT uuidv7_ordered());
CREATE TABLE b_ordered_at (id uuid PRIMARY KEY DEFAULT uuidv7_ordered(now()));
CREATE TABLE b_locality_true (id uuid PRIMARY KEY DEFAULT locality_uuid(true));
CREATE TABLE b_locality_false (id uuid PRIMARY KEY DEFAULT locality_uuid(false));
CREATE TABLE b_hot (id uuid PRIMARY KEY DEFAULT hot_uuid(7));
CREATE TABLE b_hot_at (id uuid PRIMARY KEY DEFAULT hot_uuid(7, now()));
CREATE TABLE b_time (id uuid PRIMARY KEY DEFAULT uuid_time_nextval(60, 65536));
DO $$
DECLARE
    a record;
BEGIN
    FOR a IN SELECT generator, call FROM locality_uuid_block_advice(1000, '30 days', 100000000) LOOP
        EXECUTE format('CREATE TABLE %I (id uuid PRIMARY KEY DEFAULT %s)', 'b_advice_' || a.generator, a.call);
    END LOOP;
END
$$;
CREATE TABLE b_interval (id uuid PRIMARY KEY DEFAULT uuid_time_nextval_interval('100 ms', 16777216), n int);
CREATE TABLE b_locality_guc (id uuid PRIMARY KEY DEFAULT locality_uuid(), n int);
SET locality_uuid.counter_mode = sequential;
INSERT INTO b_locality_guc (n) SELECT generate_series(1, 2000);
RESET locality_uuid.counter_mode;
INSERT INTO b_interval (n) SELECT generate_series(1, 2000);
ANALYZE b_interval, b_locality_guc;
SELECT tab, generator, generator_from, inserts, pick FROM locality_uuid_survey('survey_b') ORDER BY tab::text;
SELECT tab, correlation > 0.9 AS ordered, advice FROM locality_uuid_survey('survey_b')
WHERE tab IN ('b_interval'::regclass, 'b_locality_guc'::regclass) ORDER BY tab::text;
DROP SCHEMA survey_b CASCADE;

-- Partitions: inserts through the partitioned table take its DEFAULT, not the partition's. A:
-- random keys by the parent's DEFAULT, each partition's own switched (which changes nothing
-- through the parent): the generator is the parent's, the ALTER names it, and the detail says the
-- partition's own differs. B: the parent's DEFAULT ordered, a partition attached with a random
-- DEFAULT of its own and its columns in another order: ordered.
CREATE SCHEMA survey_p;
SET search_path = survey_p, public;
CREATE TABLE parted (id uuid DEFAULT gen_random_uuid(), n int, PRIMARY KEY (id)) PARTITION BY HASH (id);
CREATE TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 1);
ALTER TABLE parted_0 ALTER COLUMN id SET DEFAULT uuidv7_ordered();
ALTER TABLE parted_1 ALTER COLUMN id SET DEFAULT uuidv7_ordered();
INSERT INTO parted (n) SELECT generate_series(1, 2000);
SELECT count(*) FILTER (WHERE uuid_extract_version(id) = 4) AS version_4 FROM parted;
CREATE TABLE attached (n int, id uuid DEFAULT uuidv7_ordered(), PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE attached_1 (id uuid NOT NULL DEFAULT gen_random_uuid(), n int);
ALTER TABLE attached ATTACH PARTITION attached_1 FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
INSERT INTO attached SELECT n, uuidv7() FROM generate_series(1, 2000) n;
ANALYZE parted, attached;
SELECT tab, partition_of, generator, CASE WHEN correlation > 0.9 THEN 'over 0.9' WHEN abs(correlation) < 0.5 THEN 'under 0.5' END AS correlation,
       pick, advice
FROM locality_uuid_survey('survey_p') ORDER BY tab::text;
-- The advice's ALTER on the partitioned table reaches its partitions: then nothing differs.
ALTER TABLE parted ALTER COLUMN id SET DEFAULT uuidv7_ordered();
SELECT adrelid::regclass, pg_get_expr(adbin, adrelid) FROM pg_attrdef
WHERE adrelid IN ('parted'::regclass, 'parted_0'::regclass, 'parted_1'::regclass) ORDER BY 1::text;
SELECT tab, generator, advice FROM locality_uuid_survey('survey_p') WHERE partition_of = 'parted'::regclass ORDER BY tab::text;
DROP SCHEMA survey_p CASCADE;

-- After the recipe's CLUSTER: random keys, the DEFAULT switched to uuidv7_ordered(), new keys,
-- CLUSTER. The heap follows key order (correlation 1), but the largest key is random: new keys
-- land inside the index. The same sort of random keys the application writes: random keys in key
-- order, not ordered ones. A domain over uuid with the DEFAULT: the domain's. A table analyzed
-- empty: no keys yet, not "ANALYZE" again.
CREATE SCHEMA survey_c;
SET search_path = survey_c, public;
CREATE TABLE acc (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int);
INSERT INTO acc (n) SELECT generate_series(1, 2000);
ALTER TABLE acc ALTER COLUMN id SET DEFAULT uuidv7_ordered();
INSERT INTO acc SELECT uuidv7(), n FROM generate_series(2001, 4000) n;
CLUSTER acc USING acc_pkey;
CREATE TABLE app_sorted (id uuid PRIMARY KEY, n int);
INSERT INTO app_sorted SELECT gen_random_uuid(), n FROM generate_series(1, 2000) n;
CLUSTER app_sorted USING app_sorted_pkey;
CREATE DOMAIN did2 AS uuid DEFAULT gen_random_uuid();
CREATE TABLE dom2 (id did2 PRIMARY KEY, n int);
INSERT INTO dom2 (n) SELECT generate_series(1, 2000);
CREATE TABLE empty (id uuid PRIMARY KEY);
ANALYZE acc, app_sorted, dom2, empty;
SELECT tab, generator, generator_from, correlation > 0.9 AS ordered, regexp_replace(inserts, 'of about [0-9]+', 'of about N') AS inserts,
       pick, advice
FROM locality_uuid_survey('survey_c') ORDER BY tab::text;
-- The report string names the extension's schema and types every argument: look-alikes of
-- (text, text) and of (regclass, name) earlier in the path are not what it calls; it runs on the
-- domain.
CREATE FUNCTION survey_c.locality_uuid_column_report(text, text) RETURNS TABLE (item text, value text, detail text)
LANGUAGE sql RETURN ('planted'::text, NULL::text, NULL::text);
CREATE FUNCTION survey_c.locality_uuid_column_report(regclass, name) RETURNS TABLE (item text, value text, detail text)
LANGUAGE sql RETURN ('planted'::text, NULL::text, NULL::text);
CREATE FUNCTION pg_temp.run_report(report text) RETURNS TABLE (planted bigint, reported bigint) LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE 'SELECT count(*) FILTER (WHERE r.item = ''planted''), count(*) FILTER (WHERE r.item = ''generator to pick'') FROM ('
                         || report || ') AS r';
END
$$;
SELECT s.report, r.* FROM locality_uuid_survey('survey_c') AS s, pg_temp.run_report(s.report) AS r
WHERE s.tab = 'dom2'::regclass;
-- A table in a schema the caller has no USAGE on is not listed (its report would fail 42501).
CREATE ROLE survey_no_usage;
GRANT SELECT ON acc TO survey_no_usage;
SET ROLE survey_no_usage;
SELECT count(*) AS listed FROM locality_uuid_survey() WHERE tab::text LIKE '%acc';
RESET ROLE;
REVOKE ALL ON acc FROM survey_no_usage;
DROP ROLE survey_no_usage;
SET search_path = survey, public;
DROP SCHEMA survey_c CASCADE;

DROP SCHEMA survey_other CASCADE;
DROP SCHEMA survey CASCADE;
