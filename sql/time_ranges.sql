-- C edition only (the portable suite leaves this file out).
-- "Made at or after since, before before" on the id's own B-tree: uuidv7_made and hot_uuid_made
-- answer (plain extractor predicate) IS TRUE for every id and bound, planned as index conditions
-- on the id. Fixed ids of every kind in one column; plans printed without costs, sequential and
-- bitmap scans off so that these small tables show their index plans.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
\i sql/include/helpers.psql

-- 1. Mixed versions in one column: version 7 (of 2026-03-01 12:00:00.000, .001 and .999, of
-- 1970's first and 10889's last millisecond), version 4 (one inside 2026-03-01 12:00's version 7
-- key range), 1 and 6 (RFC 9562's vectors), a version 7 digit with another variant, nil, max.
CREATE TABLE mixed (id uuid PRIMARY KEY, label text NOT NULL);
INSERT INTO mixed VALUES
    ('019ca945-0a00-7000-8000-000000000001', 'v7 12:00:00.000'),
    ('019ca945-0a01-7abc-9000-000000000002', 'v7 12:00:00.001'),
    ('019ca945-0de7-7fff-bfff-ffffffffffff', 'v7 12:00:00.999'),
    ('00000000-0000-7000-8000-000000000000', 'v7 1970'),
    ('ffffffff-ffff-7fff-bfff-ffffffffffff', 'v7 10889'),
    ('019ca945-0a00-4000-8000-000000000003', 'v4 in range'),
    ('f47ac10b-58cc-4372-a567-0e02b2c3d479', 'v4'),
    ('c232ab00-9414-11ec-b3c8-9f6bdeced846', 'v1'),
    ('1ec9414c-232a-6b00-b3c8-9f6bdeced846', 'v6'),
    ('019ca945-0a00-7000-c000-000000000004', 'v7 digit, other variant'),
    ('00000000-0000-0000-0000-000000000000', 'nil'),
    ('ffffffff-ffff-ffff-ffff-ffffffffffff', 'max');
-- The fixtures' times, read by the extractor.
SELECT label, uuidv7_timestamp(id) FROM mixed ORDER BY id;

-- 2. Bounds of every kind: microseconds (rounded up to the id's millisecond), infinities, NULL,
-- before 1970, after 10889. For each: the ids the spelling selects in WHERE (planned: the
-- rewritten clauses), whether that is the plain predicate's set, and whether the function
-- itself (a volatile bound keeps it from being rewritten) gives (plain predicate) IS TRUE for
-- every id, a NULL id included.
CREATE TABLE bounds (n integer PRIMARY KEY, since timestamptz, before timestamptz);
INSERT INTO bounds VALUES
    (1, '2026-03-01 12:00:00+00', '2026-03-01 12:00:00.001+00'),
    (2, '2026-03-01 12:00:00.000001+00', '2026-03-01 12:00:00.999+00'),
    (3, '2026-03-01 12:00:00.000001+00', '2026-03-01 12:00:00.999001+00'),
    (4, '-infinity', 'infinity'),
    (5, NULL, 'infinity'),
    (6, '-infinity', NULL),
    (7, '1900-01-01+00', '1970-01-01 00:00:00.001+00'),
    (8, '1900-01-01+00', '1970-01-01+00'),
    (9, '10889-08-02 05:31:50.655+00', 'infinity'),
    (10, '10889-08-02 05:31:50.655001+00', 'infinity'),
    (11, '2026-03-01 12:00:00.001+00', '2026-03-01 12:00:00.001+00'),
    (12, 'infinity', '-infinity');
-- made_vs_plain(table, spelling, extractor, since, before): the labels of the rows the spelling
-- selects, whether they are the plain predicate's, and whether the function itself (a volatile
-- bound keeps it from being rewritten) is (plain predicate) IS TRUE for every id and a NULL id.
CREATE FUNCTION pg_temp.made_vs_plain(tbl regclass, made text, extractor text, since timestamptz, before timestamptz,
                                      OUT made_labels text, OUT same_rows boolean, OUT function_is_true_of_plain boolean)
LANGUAGE plpgsql AS $f$
BEGIN
    EXECUTE format($q$
        SELECT (SELECT string_agg(label, ', ' ORDER BY id) FROM %1$s WHERE %2$I(id, $1, $2)),
               (SELECT array_agg(id ORDER BY id) FROM %1$s WHERE %2$I(id, $1, $2)) IS NOT DISTINCT FROM
               (SELECT array_agg(id ORDER BY id) FROM %1$s WHERE %3$I(id) >= $1 AND %3$I(id) < $2),
               (SELECT bool_and(%2$I(m.id, $1 + random() * interval '0', $2) IS NOT DISTINCT FROM
                                coalesce(%3$I(m.id) >= $1 AND %3$I(m.id) < $2, false))
                FROM (SELECT id FROM %1$s UNION ALL SELECT NULL) m)$q$, tbl, made, extractor)
    INTO made_labels, same_rows, function_is_true_of_plain USING since, before;
END
$f$;
SELECT n, since, before, r.*
FROM bounds b, pg_temp.made_vs_plain('mixed', 'uuidv7_made', 'uuidv7_timestamp', b.since, b.before) r ORDER BY n;

-- The same with constant bounds, rewritten at plan time into constant keys.
SELECT string_agg(label, ', ' ORDER BY id) FROM mixed
WHERE uuidv7_made(id, '2026-03-01 12:00:00.000001+00', '2026-03-01 12:00:00.999001+00');
SELECT string_agg(label, ', ' ORDER BY id) FROM mixed WHERE uuidv7_made(id, since => '2026-03-01 12:00:00.001+00');
SELECT string_agg(label, ', ' ORDER BY id) FROM mixed WHERE uuidv7_made(id, before => '2026-03-01 12:00:00.001+00');
SELECT string_agg(label, ', ' ORDER BY id) FROM mixed WHERE uuidv7_made(id);
SELECT count(*) FROM mixed WHERE uuidv7_made(id, NULL);
-- In a select list, never NULL: false for the ids the plain predicate leaves NULL.
SELECT label, uuidv7_made(id, '2026-03-01+00') AS made,
       uuidv7_timestamp(id) >= '2026-03-01+00' AS plain
FROM mixed ORDER BY id;
SELECT uuidv7_made(NULL), uuidv7_made(NULL, NULL, NULL), uuidv7_made('019ca945-0a00-7000-8000-000000000001', NULL);

-- The keys clamp where uuidv7_lower raises 22008.
SELECT uuidv7_made_since('-infinity'), uuidv7_made_since('1969-12-31 23:59:59.9999+00'),
       uuidv7_made_since('2026-03-01 12:00:00.000001+00'), uuidv7_made_since('infinity'), uuidv7_made_since(NULL);
SELECT uuidv7_made_before('-infinity'), uuidv7_made_before('1970-01-01 00:00:00.000001+00'),
       uuidv7_made_before('2026-03-01 12:00:00.000001+00'), uuidv7_made_before('infinity'), uuidv7_made_before(NULL);
SELECT pg_temp.try($$SELECT uuidv7_lower('-infinity')$$), pg_temp.try($$SELECT uuidv7_made(uuidv7(), '-infinity', '294276-12-31+00')$$);

-- 3. Plans: index conditions on the primary key, with constants, now(), named arguments and
-- defaults, a join's bounds, a prepared generic plan; a volatile bound is left to the function.
-- The check reads the id alone (its estimate finds the range in the comparisons beside it, and
-- gives them their selectivities: made.cpp). explain_now shows now() - 1 hour as NOW - 1 HOUR.
CREATE FUNCTION pg_temp.explain_now(stmt text) RETURNS SETOF text LANGUAGE plpgsql AS $f$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || stmt LOOP
        RETURN NEXT replace(line, quote_literal(now() - interval '1 hour'), 'NOW - 1 HOUR');
    END LOOP;
END
$f$;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT label FROM mixed WHERE uuidv7_made(id, '2026-03-01 12:00+00', '2026-03-01 13:00+00');
SELECT pg_temp.explain_now($$SELECT label FROM mixed WHERE uuidv7_made(id, since => now() - interval '1 hour')$$);
EXPLAIN (COSTS OFF) SELECT label FROM mixed WHERE uuidv7_made(before => '2026-03-02+00', id => id);
EXPLAIN (COSTS OFF) SELECT id FROM mixed WHERE uuidv7_made(id, '-infinity', 'infinity');
EXPLAIN (COSTS OFF) SELECT id FROM mixed WHERE uuidv7_made(id, NULL);
EXPLAIN (COSTS OFF) SELECT id FROM mixed WHERE uuidv7_made(id, clock_timestamp() - interval '1 hour');
SET plan_cache_mode = force_generic_plan;
PREPARE since_v7(timestamptz, timestamptz) AS SELECT label FROM mixed WHERE uuidv7_made(id, $1, $2);
EXPLAIN (COSTS OFF) EXECUTE since_v7('2026-03-01 12:00+00', '2026-03-01 13:00+00');
EXECUTE since_v7('2026-03-01 12:00:00.000001+00', NULL);
EXECUTE since_v7('2026-03-01 12:00:00.000001+00', '2026-03-02+00');
RESET plan_cache_mode;

-- A look-alike of a key function with one more defaulted argument, planted in the extension's
-- schema, is never taken: the rewrite looks its keys up by their exact signature.
CREATE FUNCTION uuidv7_made_since(since timestamptz, other integer DEFAULT 0) RETURNS uuid
LANGUAGE sql IMMUTABLE RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid;
SELECT pg_temp.explain_now($$SELECT label FROM mixed WHERE uuidv7_made(id, since => now() - interval '1 hour')$$);
SELECT string_agg(label, ', ' ORDER BY id) FROM mixed WHERE uuidv7_made(id, '2026-03-01 12:00:00.001+00');
SELECT string_agg(label, ', ' ORDER BY id) FROM mixed WHERE uuidv7_made(id, since => now() - interval '100 years');
DROP FUNCTION uuidv7_made_since(timestamptz, integer);

-- The spelling moved on its own to another schema, where functions of its helpers' names and
-- signatures that raise when called stand: not members of the extension, so they are never
-- taken; the call is left alone and filters each row, with the plain predicate's rows.
CREATE SCHEMA moved;
ALTER FUNCTION uuidv7_made(uuid, timestamptz, timestamptz) SET SCHEMA moved;
CREATE FUNCTION moved.uuidv7_made_since(since timestamptz) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE AS $f$BEGIN RAISE EXCEPTION 'planted function called'; END$f$;
CREATE FUNCTION moved.uuidv7_made_before(before timestamptz) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE AS $f$BEGIN RAISE EXCEPTION 'planted function called'; END$f$;
CREATE FUNCTION moved.uuidv7_made_check(id uuid, since timestamptz, before timestamptz) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $f$BEGIN RAISE EXCEPTION 'planted function called'; END$f$;
SELECT string_agg(label, ', ' ORDER BY id) FROM mixed WHERE moved.uuidv7_made(id, '2026-03-01 12:00:00.001+00');
SELECT string_agg(label, ', ' ORDER BY id) FROM mixed WHERE moved.uuidv7_made(id, since => now() - interval '100 years');
SELECT string_agg(label, ', ' ORDER BY id) FROM mixed WHERE uuidv7_timestamp(id) >= '2026-03-01 12:00:00.001+00';
ALTER FUNCTION moved.uuidv7_made(uuid, timestamptz, timestamptz) SET SCHEMA public;
DROP SCHEMA moved CASCADE;

-- 4. hot_uuid_made: every uuid is a shard-key id (bytes 0..3, Unix seconds), the nil uuid of
-- 1970's first second and the max uuid of 2106-02-07 06:28:15 included. A nullable column, so
-- that every major keeps the id IS NOT NULL of the rewrite (17 drops it on a NOT NULL column).
CREATE TABLE hot_mixed (id uuid UNIQUE, label text NOT NULL);
INSERT INTO hot_mixed VALUES
    ('69a42a40-0000-0000-0000-000000000000', '2026-03-01 12:00:00'),
    ('69a42a40-ffff-ffff-ffff-ffffffffffff', '2026-03-01 12:00:00 last'),
    ('69a42a41-1234-5678-9abc-def012345678', '2026-03-01 12:00:01'),
    ('00000000-0000-0000-0000-000000000000', 'nil'),
    ('ffffffff-ffff-ffff-ffff-ffffffffffff', 'max'),
    ('019ca945-0a00-7000-8000-000000000001', 'v7 (1970-11)');
SELECT label, hot_uuid_timestamp(id) FROM hot_mixed ORDER BY id;
SELECT n, since, before, r.*
FROM (VALUES (1, '2026-03-01 12:00:00+00'::timestamptz, '2026-03-01 12:00:01+00'::timestamptz),
             (2, '2026-03-01 12:00:00.000001+00', '2026-03-01 12:00:01.000001+00'),
             (3, '-infinity', 'infinity'),
             (4, NULL, 'infinity'),
             (5, '-infinity', NULL),
             (6, '1900-01-01+00', '1970-01-01+00'),
             (7, '1900-01-01+00', '1970-01-01 00:00:00.000001+00'),
             (8, '2106-02-07 06:28:15+00', 'infinity'),
             (9, '2106-02-07 06:28:15.000001+00', 'infinity'),
             (10, '2106-02-07 06:28:15.000001+00', '2200-01-01+00')) AS b(n, since, before),
     pg_temp.made_vs_plain('hot_mixed', 'hot_uuid_made', 'hot_uuid_timestamp', b.since, b.before) r
ORDER BY n;
SELECT hot_uuid_made_since('-infinity'), hot_uuid_made_since('2026-03-01 12:00:00.5+00'),
       hot_uuid_made_since('2106-02-07 06:28:15.000001+00'), hot_uuid_made_before('1970-01-01+00'),
       hot_uuid_made_before('2026-03-01 12:00:00.5+00'), hot_uuid_made_before('infinity');
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT label FROM hot_mixed WHERE hot_uuid_made(id, '2026-03-01 12:00+00', '2026-03-01 13:00+00');
SELECT pg_temp.explain_now($$SELECT label FROM hot_mixed WHERE hot_uuid_made(id, since => now() - interval '1 hour')$$);
-- A key past the format's end: the rewrite is constant false, no scan (read from the plan's
-- JSON: from 19 on, EXPLAIN's text names the scan the Result replaces).
CREATE FUNCTION pg_temp.plan_of(query text) RETURNS jsonb LANGUAGE plpgsql AS $f$
DECLARE
    p jsonb;
BEGIN
    EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO p;
    RETURN p -> 0 -> 'Plan';
END
$f$;
SELECT p ->> 'Node Type' AS node, p ->> 'One-Time Filter' AS one_time_filter, p -> 'Plans' IS NULL AS no_scan
FROM pg_temp.plan_of($$SELECT label FROM hot_mixed WHERE hot_uuid_made(id, '2106-02-07 06:28:16+00')$$) AS p;

-- uuid_time_nextval(1, 2147483647) leads with the Unix second, as hot_uuid does.
SELECT hot_uuid_made(uuid_time_nextval(1, 2147483647), since => now() - interval '1 minute',
                     before => now() + interval '1 minute') AS time_block_id,
       hot_uuid_made(uuid_time_nextval(1, 2147483647), since => now() + interval '1 minute') AS not_later;

-- 5. Ids that do not carry a version 7 time (locality_uuid(), wrapping blocks) are never made
-- in a range by uuidv7_made: it answers false, as the extractor answers NULL.
SELECT uuidv7_made(locality_uuid_make(1, 2, 3, '2026-02-01+00'), '2026-01-01+00', '2026-03-01+00') AS locality_id;

-- The rewrite's checks of the id: version 7 of RFC 9562's variant (uuidv7_timestamp's ids), any
-- shard-key id (every uuid); false for NULL; 1.5's checks with bounds (for the estimate) answer the same.
SELECT label, uuidv7_made_check(id) AS v7_check, hot_uuid_made_check(id) AS hot_check,
       uuidv7_made_check(id, NULL, NULL) = uuidv7_made_check(id) AND hot_uuid_made_check(id, NULL, NULL) = hot_uuid_made_check(id)
       AND uuidv7_made_check(id, 'infinity', '-infinity') = uuidv7_made_check(id) AS checks_of_1_5_agree,
       uuidv7_timestamp(id) IS NOT NULL AS has_v7_time
FROM (SELECT id, label FROM mixed UNION ALL SELECT NULL, 'NULL') m ORDER BY id;

-- 6. Row estimates: 10,000 ids a minute apart (ANALYZE reads them all, so the histogram is
-- fixed: 100 buckets of 100 ids). The planner cannot place a uuid inside a bucket and puts a key
-- at its middle, so the hand-written range of the 30 minutes from 01:30 (across the first bucket
-- boundary) is estimated at a whole bucket; the spellings' check corrects the estimate to the
-- share of the histogram between their keys. Also a range inside one bucket (02:10 to 02:40),
-- where the planner's estimate of the paired range clauses is at its floor (1 row): the
-- spellings' check, estimated before their comparisons, gives each comparison its share by the
-- interpolated histogram, and the planner's pair of them is the range's share.
CREATE TABLE est_v7 (id uuid PRIMARY KEY);
INSERT INTO est_v7 SELECT uuidv7_lower('2026-03-01+00'::timestamptz + g * interval '1 minute') FROM generate_series(0, 9999) g;
CREATE TABLE est_hot (id uuid PRIMARY KEY);
INSERT INTO est_hot SELECT hot_uuid_boundary('2026-03-01+00'::timestamptz + g * interval '1 minute') FROM generate_series(0, 9999) g;
ANALYZE est_v7, est_hot;
SELECT f, since, before,
       pg_temp.rows_of(format('SELECT * FROM %I WHERE id >= %s(%L) AND id < %s(%L)', tbl, bound, since, bound, before)) AS range_estimate,
       pg_temp.rows_of(format('SELECT * FROM %I WHERE %I(id, %L, %L)', tbl, made, since, before)) AS made_estimate,
       count_rows
FROM (VALUES ('v7', 'est_v7', 'uuidv7_lower', 'uuidv7_made'), ('hot', 'est_hot', 'hot_uuid_boundary', 'hot_uuid_made')) AS s(f, tbl, bound, made),
     (VALUES ('2026-03-01 01:30+00'::timestamptz, '2026-03-01 02:00+00'::timestamptz),
             ('2026-03-01 02:10+00', '2026-03-01 02:40+00'),
             ('2026-03-01 10:00+00', '2026-03-02 10:00+00')) AS b(since, before),
     LATERAL (SELECT count(*) AS count_rows FROM est_v7
              WHERE id >= uuidv7_lower(since) AND id < uuidv7_lower(before)) c
ORDER BY f DESC, since;
DROP TABLE est_v7, est_hot;
