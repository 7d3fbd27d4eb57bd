-- C edition only (the portable suite leaves this file out).
-- Time questions in the user's own words: uuidv7_timestamp(id) OP x and hot_uuid_timestamp(id)
-- OP x among a query's AND-ed conditions are planned as index conditions on the id (made.cpp's
-- planner hook), with the plain predicate's rows and the histogram's estimates. And the review
-- of 1.5's spellings: no error from a bound the query does not evaluate, an id that is not a
-- column left to the function, partial indexes and ON CONFLICT proved by narrower and equal-key
-- ranges.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
\i sql/include/helpers.psql

-- Two days of version 7 ids a minute apart, the same of shard-key ids, a version 4 id whose
-- bytes fall among the version 7 ids of 2026-03-02 06:00, and a NULL.
CREATE TABLE words (id uuid, k integer NOT NULL);
INSERT INTO words SELECT uuidv7_lower('2026-03-01+00'::timestamptz + g * interval '1 minute'), g FROM generate_series(0, 2879) g;
INSERT INTO words SELECT hot_uuid_boundary('2026-03-01+00'::timestamptz + g * interval '1 minute'), 10000 + g FROM generate_series(0, 2879) g;
INSERT INTO words VALUES ('019cad21-cf00-4000-8000-000000000003', -1), (NULL, -2);
CREATE INDEX words_id ON words (id);
ANALYZE words;
SET enable_seqscan = off;
SET enable_bitmapscan = off;

-- 1. Each comparison, either way round, BETWEEN and pairs: index conditions on the id, the check
-- as the filter. > and <= take the keys of the next microsecond (uuidv7_made_after, _through).
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id) >= '2026-03-02 06:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id) > '2026-03-02 06:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id) < '2026-03-01 01:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE '2026-03-01 01:00+00' >= uuidv7_timestamp(id);
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id) = '2026-03-02 06:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id) BETWEEN '2026-03-02 06:00+00' AND '2026-03-02 07:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id) >= now() - interval '1 hour' AND k > 0;
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE hot_uuid_timestamp(id) >= '2026-03-02 06:00+00' AND hot_uuid_timestamp(id) < '2026-03-02 07:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE hot_uuid_timestamp(id) > now() - interval '1 hour';
-- A join's bounds: keys computed in the inner index scan, for each outer row (sequential scans
-- allowed, for spans: 18 marks those enable_seqscan turned off).
CREATE TABLE spans (since timestamptz, till timestamptz);
INSERT INTO spans VALUES ('2026-03-02 06:00+00', '2026-03-02 06:10+00');
ANALYZE spans;
RESET enable_seqscan;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM spans s JOIN words w ON uuidv7_timestamp(w.id) >= s.since AND uuidv7_timestamp(w.id) < s.till;
SELECT count(*) FROM spans s JOIN words w ON uuidv7_timestamp(w.id) >= s.since AND uuidv7_timestamp(w.id) < s.till;
RESET enable_hashjoin;
RESET enable_mergejoin;
SET enable_seqscan = off;
-- A prepared statement's parameter, in a generic plan.
PREPARE since_words(timestamptz) AS SELECT count(*) FROM words WHERE uuidv7_timestamp(id) >= $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE since_words('2026-03-02 23:00+00');
EXECUTE since_words('2026-03-02 23:00+00');
RESET plan_cache_mode;
-- A view's column and an inlined SQL function reach the same conditions.
CREATE VIEW words_made AS SELECT k, uuidv7_timestamp(id) AS made_at FROM words;
CREATE FUNCTION made_since(id uuid, since timestamptz) RETURNS boolean LANGUAGE sql IMMUTABLE
RETURN uuidv7_timestamp(id) >= since;
EXPLAIN (COSTS OFF) SELECT k FROM words_made WHERE made_at >= '2026-03-02 23:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE made_since(id, '2026-03-02 23:00+00');
-- Left alone: inside OR, a volatile bound, a bound of another type, an expression of the id
-- (sequential scans allowed: 18 marks those enable_seqscan turned off).
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id) >= '2026-03-02 06:00+00' OR k = 1;
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id) >= clock_timestamp() - interval '1 hour';
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id) >= date '2026-03-02';
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id::text::uuid) >= '2026-03-02 06:00+00';
SET enable_seqscan = off;

-- 2. The rows: each comparison and its plain predicate (IS TRUE, which the hook leaves alone),
-- at a millisecond, a microsecond either side of it, the ends and NULL; every count equal.
CREATE FUNCTION pg_temp.count_of(q text) RETURNS bigint LANGUAGE sql AS $f$
SELECT pg_temp.rows_counted('SELECT * FROM words WHERE ' || q)
$f$;
SELECT f, op, count(*) AS cases, count(*) FILTER (WHERE spelled = plain) AS same_rows, sum(spelled) AS rows
FROM (VALUES ('uuidv7_timestamp'), ('hot_uuid_timestamp')) AS e(f),
     (VALUES ('>='), ('>'), ('<'), ('<='), ('=')) AS o(op),
     (VALUES (timestamptz '2026-03-02 06:00+00'), ('2026-03-02 05:59:59.999999+00'), ('2026-03-02 06:00:00.000001+00'),
             ('-infinity'), ('infinity'), ('1970-01-01+00'), ('2106-02-07 06:28:15+00'), (NULL)) AS b(x),
     LATERAL (SELECT pg_temp.count_of(format('%s(id) %s %L::timestamptz', f, op, x)) AS spelled,
                     pg_temp.count_of(format('(%s(id) %s %L::timestamptz) IS TRUE', f, op, x)) AS plain) c
GROUP BY f, op ORDER BY f DESC, op;

-- 3. Estimates of the user's words, beside the count: a range inside one histogram bucket, across
-- one boundary, and the last day (ANALYZE read every row: the histogram is fixed).
SELECT f, since, till, pg_temp.rows_of(format('SELECT * FROM words WHERE %s(id) >= %L AND %s(id) < %L', f, since, f, till)) AS estimate,
       pg_temp.count_of(format('%s(id) >= %L AND %s(id) < %L', f, since, f, till)) AS count_rows
FROM (VALUES ('uuidv7_timestamp'), ('hot_uuid_timestamp')) AS e(f),
     (VALUES ('2026-03-01 02:10+00'::timestamptz, '2026-03-01 02:20+00'::timestamptz),
             ('2026-03-01 10:00+00', '2026-03-01 11:00+00'),
             ('2026-03-02+00', '2026-03-03+00')) AS b(since, till)
ORDER BY f DESC, since;

-- An equality with a value not known when planning (a generic plan's parameter, a subquery's
-- value, a joined row's column): one unit's rows (here 1), as created_at = x, not a range's
-- default (0.5 % of the rows; a join's pair a ninth of the product).
PREPARE words_at(timestamptz) AS SELECT * FROM words WHERE uuidv7_timestamp(id) = $1;
PREPARE hot_words_at(timestamptz) AS SELECT * FROM words WHERE hot_uuid_timestamp(id) = $1;
SET plan_cache_mode = force_generic_plan;
SELECT pg_temp.rows_of($$EXECUTE words_at('2026-03-02 06:00+00')$$) AS parameter,
       pg_temp.rows_of($$EXECUTE hot_words_at('2026-03-02 06:00+00')$$) AS hot_parameter,
       pg_temp.rows_of($$SELECT * FROM words WHERE uuidv7_timestamp(id) = (SELECT max(since) FROM spans)$$) AS subquery,
       pg_temp.rows_of($$SELECT * FROM spans s JOIN words w ON uuidv7_timestamp(w.id) = s.since$$) AS join_rows;
RESET plan_cache_mode;
DEALLOCATE words_at;
DEALLOCATE hot_words_at;
-- Joins on the equality, 96 times of the table's ids: every join's estimate near its rows (the
-- join's pair at PostgreSQL's defaults would be 96 x 5,762 / 9); the inner index scan's rows per
-- loop too; a NULL time matches nothing. A FULL JOIN, which takes only conditions it can hash or
-- merge, is left as written.
CREATE TABLE at_times AS SELECT uuidv7_timestamp(id) AS at FROM words WHERE k % 30 = 0 AND k < 10000;
CREATE TABLE at_nulls AS SELECT at FROM at_times UNION ALL SELECT NULL FROM at_times;
ANALYZE at_times, at_nulls;
SELECT j, pg_temp.rows_of(q) AS estimate, pg_temp.rows_counted(q) AS actual
FROM (VALUES ('inner', 'SELECT * FROM at_times a JOIN words w ON uuidv7_timestamp(w.id) = a.at'),
             ('left', 'SELECT * FROM at_times a LEFT JOIN words w ON uuidv7_timestamp(w.id) = a.at'),
             ('exists', 'SELECT * FROM at_times a WHERE EXISTS (SELECT FROM words w WHERE uuidv7_timestamp(w.id) = a.at)'),
             ('not exists', 'SELECT * FROM at_times a WHERE NOT EXISTS (SELECT FROM words w WHERE uuidv7_timestamp(w.id) = a.at)'),
             ('full', 'SELECT * FROM at_times a FULL JOIN words w ON uuidv7_timestamp(w.id) = a.at'),
             ('inner, half the times NULL', 'SELECT * FROM at_nulls a JOIN words w ON uuidv7_timestamp(w.id) = a.at'),
             ('exists, half NULL', 'SELECT * FROM at_nulls a WHERE EXISTS (SELECT FROM words w WHERE uuidv7_timestamp(w.id) = a.at)'),
             ('not exists, half NULL', 'SELECT * FROM at_nulls a WHERE NOT EXISTS (SELECT FROM words w WHERE uuidv7_timestamp(w.id) = a.at)')) AS c(j, q);
SET enable_hashjoin = off;
SET enable_mergejoin = off;
CREATE FUNCTION pg_temp.inner_side(q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
    p jsonb;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO p;
    -- Its cost: of one row a loop (2.91 on 15), not of a third of the rows for each key (18.87).
    RETURN format('%s: %s rows, %s loops, costed as %s', p #>> '{0,Plan,Plans,1,Node Type}',
                  p #>> '{0,Plan,Plans,1,Plan Rows}', p #>> '{0,Plan,Plans,0,Plan Rows}',
                  CASE WHEN (p #>> '{0,Plan,Plans,1,Total Cost}')::numeric < 8 THEN 'a row' ELSE 'more rows' END);
END
$f$;
SELECT pg_temp.inner_side('SELECT * FROM at_times a JOIN words w ON uuidv7_timestamp(w.id) = a.at') AS nested_loop_inner;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- 4. No error from a bound that the query does not evaluate (1.5 evaluated stable bounds while
-- planning): a CASE branch no row takes, a select list over no rows.
SELECT pg_temp.try($$SELECT count(*) FROM words WHERE CASE WHEN coalesce(current_setting('app.since', true), '') = ''
    THEN true ELSE uuidv7_made(id, current_setting('app.since')::timestamptz) END$$, true);
SELECT pg_temp.try($$SELECT uuidv7_made(id, current_setting('app.since')::timestamptz) FROM words WHERE k < -10$$);
SELECT pg_temp.try($$SELECT hot_uuid_made(id, '-infinity', current_setting('app.since')::timestamptz) FROM words WHERE k < -10$$);
-- Where the query does evaluate it, the error is the plain predicate's.
SELECT pg_temp.try($$SELECT count(*) FROM words WHERE uuidv7_made(id, current_setting('app.since')::timestamptz)$$);
SELECT pg_temp.try($$SELECT count(*) FROM words WHERE uuidv7_timestamp(id) >= current_setting('app.since')::timestamptz$$);

-- 5. The id once per row: an id that is not a column is left to the function, which reads it once.
RESET enable_seqscan;
-- (The plan's properties: 19 names a subplan otherwise than 15 to 18.)
SELECT p ->> 'Node Type' AS node,
       (p ->> 'Filter') ~ '^uuidv7_made\(\(SubPlan [a-z_]*1\), ''2026-03-02 00:00:00\+00''::timestamp with time zone, ''infinity''::timestamp with time zone\)$' AS one_call_of_the_subplan,
       jsonb_array_length(p -> 'Plans') AS subplans,
       p -> 'Plans' -> 0 ->> 'Node Type' AS subplan_node
FROM pg_temp.plan($$SELECT k FROM words w WHERE uuidv7_made((SELECT v.id FROM words v WHERE v.k = w.k + 1), '2026-03-02+00')$$) AS p;
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_made(id::text::uuid, '2026-03-02+00');
SET enable_seqscan = off;

-- 6. Partial indexes and ON CONFLICT: a narrower range, a bound of the same key (its millisecond
-- rounded up), a range with an end proves the predicate of uuidv7_made's range; a wider one does not.
CREATE TABLE recent (id uuid NOT NULL, k integer NOT NULL);
CREATE UNIQUE INDEX recent_k ON recent (k) WHERE uuidv7_made(id, '2026-03-05 00:00:00.0001+00');
INSERT INTO recent VALUES (uuidv7_lower('2026-03-07+00'), 1);
SELECT pg_temp.try(format($$INSERT INTO recent VALUES (uuidv7_lower('2026-03-07+00'), 1) ON CONFLICT (k) WHERE %s DO NOTHING$$, w)) AS inferred, w
FROM (VALUES ($$uuidv7_made(id, '2026-03-06+00')$$), ($$uuidv7_made(id, '2026-03-05 00:00:00.0009+00')$$),
             ($$uuidv7_made(id, '2026-03-05 00:00:00.0001+00', '2026-03-09+00')$$), ($$uuidv7_made(id, '2026-03-04+00')$$)) AS c(w);
SELECT count(*) FROM recent;
EXPLAIN (COSTS OFF) SELECT * FROM recent WHERE k = 1 AND uuidv7_made(id, '2026-03-06+00');
EXPLAIN (COSTS OFF) SELECT * FROM recent WHERE k = 1 AND uuidv7_made(id, '2026-03-05 00:00:00.0009+00');
-- The user's words, in the index's predicate and the query's, are rewritten alike.
CREATE INDEX recent_words ON recent (k) WHERE uuidv7_timestamp(id) >= '2026-03-05+00';
DROP INDEX recent_k;
EXPLAIN (COSTS OFF) SELECT * FROM recent WHERE k = 1 AND uuidv7_timestamp(id) > '2026-03-06+00';

-- ON CONFLICT in either spelling, against a unique index of the id whose predicate is in either:
-- the same range and a narrower one infer it, a wider one does not (the clause is given both
-- spellings before inference: made.cpp's made_upper_hook).
CREATE TABLE conflicts (id uuid NOT NULL, k integer NOT NULL);
CREATE FUNCTION pg_temp.conflict(index_where text, conflict_where text, id uuid) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
    r text;
BEGIN
    EXECUTE 'CREATE UNIQUE INDEX conflicts_id ON conflicts (id) WHERE ' || index_where;
    r := pg_temp.try(format($$INSERT INTO conflicts VALUES (%L, 1) ON CONFLICT (id) WHERE %s DO NOTHING$$, id, conflict_where));
    DROP INDEX conflicts_id;
    RETURN r;
END
$f$;
SELECT f, i AS index_spelling, c AS conflict_spelling, range,
       pg_temp.conflict(format(iw, f), format(cw, f), CASE f WHEN 'uuidv7' THEN uuidv7_lower('2026-03-07+00') ELSE hot_uuid_boundary('2026-03-07+00') END) AS inferred
FROM (VALUES ('uuidv7'), ('hot_uuid')) AS e(f),
     (VALUES ('words', $$%s_timestamp(id) >= '2026-03-05+00'$$), ('made', $$%s_made(id, '2026-03-05+00')$$)) AS x(i, iw),
     (VALUES ('words', 'equal', $$%s_timestamp(id) >= '2026-03-05+00'$$),
             ('words', 'narrower', $$%1$s_timestamp(id) >= '2026-03-06+00' AND %1$s_timestamp(id) < '2026-03-09+00'$$),
             ('words', 'wider', $$%s_timestamp(id) >= '2026-03-04+00'$$),
             ('made', 'equal', $$%s_made(id, '2026-03-05+00')$$),
             ('made', 'narrower', $$%s_made(id, '2026-03-06+00', '2026-03-09+00')$$),
             ('made', 'wider', $$%s_made(id, '2026-03-04+00')$$)) AS y(c, range, cw)
ORDER BY f DESC, i DESC, c DESC, range;
SELECT count(*) FROM conflicts;
-- A bound of now() (or of a parameter) is not a key of the clause's words: a cached plan infers
-- its arbiter once, and now() moves on; PostgreSQL infers no index from it (42P10), either spelling.
SELECT pg_temp.conflict($$uuidv7_timestamp(id) < '3000-01-01+00'$$, w, uuidv7_lower('2026-03-07+00')) AS inferred, w
FROM (VALUES ('uuidv7_timestamp(id) <= now()'), ($$uuidv7_made(id, '-infinity', now())$$)) AS c(w);
-- A bound inside the millisecond (hot_uuid: second) before the index's bound selects the index's
-- rows, as ids hold milliseconds (seconds): each operator infers the index (the words of the keys
-- of the rewrite of the clause's own words imply the index's words).
SELECT f, index_where, conflict_where,
       pg_temp.conflict(format('%s_timestamp(id) ' || index_where, f), format('%s_timestamp(id) ' || conflict_where, f),
                        CASE f WHEN 'uuidv7' THEN uuidv7_lower(at) ELSE hot_uuid_boundary(at) END) AS inferred
FROM (VALUES ('uuidv7', '23:59:59.9995', '23:59:59.999'), ('hot_uuid', '23:59:59.5', '23:59:59')) AS e(f, inside, below),
     LATERAL (VALUES ($$>= '2026-03-05+00'$$, format($$>= '2026-03-04 %s+00'$$, inside), timestamptz '2026-03-07+00'),
                     ($$>= '2026-03-05+00'$$, format($$> '2026-03-04 %s+00'$$, inside), '2026-03-07+00'),
                     ($$>= '2026-03-05+00'$$, format($$> '2026-03-04 %s+00'$$, below), '2026-03-07+00'),
                     ($$< '2026-03-05+00'$$, format($$< '2026-03-04 %s+00'$$, inside), '2026-03-01+00'),
                     ($$< '2026-03-05+00'$$, format($$<= '2026-03-04 %s+00'$$, inside), '2026-03-01+00')) AS c(index_where, conflict_where, at)
ORDER BY f DESC, index_where, conflict_where;

-- 7. A table with an index on the extractor's call keeps that extractor's comparisons for it
-- (the other extractor's are rewritten still).
CREATE INDEX words_made_at ON words (uuidv7_timestamp(id));
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE uuidv7_timestamp(id) >= '2026-03-02 06:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE hot_uuid_timestamp(id) >= '2026-03-02 06:00+00';

-- 8. A column of a domain over uuid: the same conditions on the id (relabelled to uuid) and rows.
CREATE DOMAIN order_id AS uuid;
CREATE TABLE order_rows (id order_id PRIMARY KEY, k integer NOT NULL);
INSERT INTO order_rows SELECT id, k FROM words WHERE id IS NOT NULL;
ANALYZE order_rows;
EXPLAIN (COSTS OFF) SELECT k FROM order_rows WHERE uuidv7_timestamp(id) >= '2026-03-02 23:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM order_rows WHERE hot_uuid_timestamp(id) BETWEEN '2026-03-02 06:00+00' AND '2026-03-02 07:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM order_rows WHERE uuidv7_made(id, '2026-03-02 23:00+00');
SELECT (SELECT count(*) FROM order_rows WHERE uuidv7_timestamp(id) >= '2026-03-02 23:00+00') AS words,
       (SELECT count(*) FROM order_rows WHERE (uuidv7_timestamp(id) >= '2026-03-02 23:00+00') IS TRUE) AS plain,
       (SELECT count(*) FROM order_rows WHERE hot_uuid_timestamp(id) BETWEEN '2026-03-02 06:00+00' AND '2026-03-02 07:00+00') AS hot_words,
       (SELECT count(*) FROM order_rows WHERE (hot_uuid_timestamp(id) BETWEEN '2026-03-02 06:00+00' AND '2026-03-02 07:00+00') IS TRUE) AS hot_plain,
       (SELECT count(*) FROM order_rows WHERE uuidv7_made(id, '2026-03-02 23:00+00')) AS made;

-- 9. A UNION ALL (a view of a table and its archive, a subquery over a partitioned table): each
-- branch takes the rewritten conditions, an index scan of its own id, its partitions pruned; the
-- rows are the plain predicate's.
CREATE TABLE live (id uuid PRIMARY KEY, v integer NOT NULL);
CREATE TABLE archive (id uuid PRIMARY KEY, v integer NOT NULL);
CREATE TABLE parted (id uuid NOT NULL, v integer NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE parted_old PARTITION OF parted FOR VALUES FROM (MINVALUE) TO ('019cabd8-3800-0000-0000-000000000000');
CREATE TABLE parted_new PARTITION OF parted FOR VALUES FROM ('019cabd8-3800-0000-0000-000000000000') TO (MAXVALUE);
CREATE INDEX parted_id ON parted (id);
INSERT INTO live SELECT id, k FROM words WHERE id IS NOT NULL AND k % 2 = 0;
INSERT INTO archive SELECT id, k FROM words WHERE id IS NOT NULL AND k % 2 <> 0;
INSERT INTO parted SELECT id, k FROM words WHERE id IS NOT NULL;
ANALYZE live, archive, parted;
CREATE VIEW everything AS SELECT id, v FROM live UNION ALL SELECT id, v FROM archive;
SELECT ('x' || '019cabd83800')::bit(48)::bigint = extract(epoch FROM timestamptz '2026-03-02+00') * 1000 AS parted_new_from_2026_03_02;
EXPLAIN (COSTS OFF) SELECT * FROM everything WHERE uuidv7_timestamp(id) >= '2026-03-02 06:00+00' AND uuidv7_timestamp(id) < '2026-03-02 07:00+00';
EXPLAIN (COSTS OFF) SELECT * FROM everything WHERE hot_uuid_timestamp(id) = '2026-03-02 06:00+00';
EXPLAIN (COSTS OFF) SELECT * FROM (SELECT id FROM live UNION ALL SELECT id FROM parted) u WHERE uuidv7_timestamp(id) >= '2026-03-02 06:00+00';
SELECT q, pg_temp.try(format('SELECT count(*) FROM everything WHERE %s', w), true) AS words,
       pg_temp.try(format('SELECT count(*) FROM everything WHERE (%s) IS TRUE', w), true) AS plain,
       pg_temp.try(format('SELECT count(*) FROM (SELECT id, v FROM live UNION ALL SELECT id, v FROM parted) u WHERE %s', w), true) AS with_parted,
       pg_temp.try(format('SELECT count(*) FROM (SELECT id, v FROM live UNION ALL SELECT id, v FROM parted) u WHERE (%s) IS TRUE', w), true) AS with_parted_plain
FROM (VALUES ('v7 range', $$uuidv7_timestamp(id) >= '2026-03-02 06:00+00' AND uuidv7_timestamp(id) < '2026-03-02 07:00+00'$$),
             ('v7 since', $$uuidv7_timestamp(id) > '2026-03-02 06:00+00'$$),
             ('hot equal', $$hot_uuid_timestamp(id) = '2026-03-02 06:00+00'$$),
             ('hot through', $$hot_uuid_timestamp(id) <= '2026-03-01 06:00+00'$$)) AS c(q, w);
-- 10. The check left out of the plan where it keeps no row out that the rest would select: a
-- shard-key id's check (it keeps NULL out) beside a comparison of the id (section 1 shows it
-- gone; here it stays where it is alone), and a version 7 id's where a validated, enforced
-- CHECK of the table implies it. The estimate is the same with and without it; a cached plan is
-- planned again when the constraint goes, and an id of another version inserted then is not
-- counted. (Sequential scans allowed where every row is read: 18 marks those enable_seqscan turned off.)
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT k FROM words WHERE hot_uuid_timestamp(id) >= '-infinity';
SET enable_seqscan = off;
CREATE TABLE checked (id uuid PRIMARY KEY, k integer NOT NULL, CONSTRAINT checked_k CHECK (k >= 0));
INSERT INTO checked SELECT id, k FROM words WHERE uuidv7_timestamp(id) IS NOT NULL;
ANALYZE checked;
-- Kept: a CHECK of another column; a NOT VALID one (on 18 also NOT ENFORCED, which is NOT VALID).
EXPLAIN (COSTS OFF) SELECT k FROM checked WHERE uuidv7_timestamp(id) >= '2026-03-02 23:00+00';
DO $$BEGIN
  EXECUTE format('ALTER TABLE checked ADD CONSTRAINT checked_v7 CHECK (uuidv7_made_check(id)) %s',
                 CASE WHEN current_setting('server_version_num')::int >= 180000 THEN 'NOT ENFORCED' ELSE 'NOT VALID' END);
END$$;
EXPLAIN (COSTS OFF) SELECT k FROM checked WHERE uuidv7_timestamp(id) >= '2026-03-02 23:00+00';
SELECT pg_temp.rows_of($$SELECT k FROM checked WHERE uuidv7_timestamp(id) >= '2026-03-02 23:00+00'$$) AS estimate_kept;
ALTER TABLE checked DROP CONSTRAINT checked_v7;
-- Left out: CHECK (uuidv7_made_check(id)), alone or AND-ed with another condition; each spelling.
ALTER TABLE checked ADD CONSTRAINT checked_v7 CHECK (k >= 0 AND uuidv7_made_check(id));
EXPLAIN (COSTS OFF) SELECT k FROM checked WHERE uuidv7_timestamp(id) >= '2026-03-02 23:00+00';
EXPLAIN (COSTS OFF) SELECT k FROM checked WHERE uuidv7_made(id, '2026-03-02 06:00+00', '2026-03-02 07:00+00');
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT k FROM checked WHERE uuidv7_timestamp(id) >= '-infinity';
SET enable_seqscan = off;
SELECT pg_temp.rows_of($$SELECT k FROM checked WHERE uuidv7_timestamp(id) >= '2026-03-02 23:00+00'$$) AS estimate_left_out;
PREPARE checked_since(timestamptz) AS SELECT count(*) FROM checked WHERE uuidv7_timestamp(id) >= $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE checked_since('2026-03-02 06:00+00');
EXECUTE checked_since('2026-03-02 06:00+00');
ALTER TABLE checked DROP CONSTRAINT checked_v7;
INSERT INTO checked VALUES ('019cad21-cf00-4000-8000-000000000003', 0);
EXPLAIN (COSTS OFF) EXECUTE checked_since('2026-03-02 06:00+00');
EXECUTE checked_since('2026-03-02 06:00+00');
RESET plan_cache_mode;
DELETE FROM checked WHERE k = 0;
-- A partitioned table's CHECK holds on each partition; a domain's column, relabelled, alike.
CREATE TABLE checked_parted (id order_id NOT NULL CHECK (uuidv7_made_check(id)), k integer NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE checked_old PARTITION OF checked_parted FOR VALUES FROM (MINVALUE) TO ('019cabd8-3800-0000-0000-000000000000');
CREATE TABLE checked_new PARTITION OF checked_parted FOR VALUES FROM ('019cabd8-3800-0000-0000-000000000000') TO (MAXVALUE);
CREATE INDEX checked_parted_id ON checked_parted (id);
INSERT INTO checked_parted SELECT id, k FROM checked;
ANALYZE checked_parted;
EXPLAIN (COSTS OFF) SELECT k FROM checked_parted WHERE uuidv7_timestamp(id) >= '2026-03-01 23:00+00';
SELECT (SELECT count(*) FROM checked_parted WHERE uuidv7_timestamp(id) >= '2026-03-01 23:00+00') AS words,
       (SELECT count(*) FROM checked_parted WHERE (uuidv7_timestamp(id) >= '2026-03-01 23:00+00') IS TRUE) AS plain;
SELECT pg_temp.try($$INSERT INTO checked_parted VALUES ('019cad21-cf00-4000-8000-000000000003', 0)$$);

DROP TABLE recent, spans, words, conflicts, order_rows, live, archive, parted, checked, checked_parted, at_times, at_nulls CASCADE;
DROP DOMAIN order_id;
DROP FUNCTION made_since(uuid, timestamptz);
