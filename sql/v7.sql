-- Version 7 uuids: core's names (uuidv7 and uuidv4 the extension's before PostgreSQL 18,
-- uuid_extract_timestamp and uuid_extract_version before 17, core's after) and the extension's
-- uuidv7_ordered, uuidv7_timestamp, uuidv7_lower and uuidv7_upper. Exact vectors, orderings and
-- SQLSTATEs; the same file and output for the C extension, the portable edition and core.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
\i sql/include/helpers.psql

-- uuid_extract_timestamp reads versions 1 and 7, but 17's own (which the extension leaves in
-- place) reads version 1 only (checked below): there this file reads version 7 with
-- uuidv7_timestamp, which reads it on every major.
CREATE FUNCTION pg_temp.extract_timestamp(u uuid) RETURNS timestamptz LANGUAGE sql STABLE
RETURN CASE WHEN current_setting('server_version_num')::integer / 10000 = 17 AND uuid_extract_version(u) = 7
            THEN uuidv7_timestamp(u) ELSE uuid_extract_timestamp(u) END;

-- RFC 9562, appendix A: versions 1 (A.1) and 7 (A.6) are both 2022-02-22 19:22:22 UTC; versions
-- 3, 4, 5 (A.2 to A.4) and 6 (A.5) carry no time core reads. Nil, max and variants other than
-- 10 have no version either.
SELECT u, uuid_extract_version(u) AS version, pg_temp.extract_timestamp(u) AS ts, uuidv7_timestamp(u) AS v7_ts
FROM (VALUES ('C232AB00-9414-11EC-B3C8-9F6BDECED846'::uuid),
             ('5df41881-3aed-3515-88a7-2f4a814cf09e'),
             ('919108f7-52d1-4320-9bac-f847db4148a8'),
             ('2ed6657d-e927-568b-95e1-2665a8aea6a2'),
             ('1EC9414C-232A-6B00-B3C8-9F6BDECED846'),
             ('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'),
             ('017f22e2-79b0-7cc3-b8c4-dc0c0c07398f'),
             ('017f22e2-79b0-7cc3-c8c4-dc0c0c07398f'),
             ('017f22e2-79b0-7cc3-78c4-dc0c0c07398f'),
             ('c232ab00-9414-11ec-e3c8-9f6bdeced846'),
             ('00000000-0000-0000-0000-000000000000'),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff')) AS v(u);

-- The ends of both time fields: version 1 counts 100 ns from 1582-10-15 (read to the
-- microsecond, rounded down), version 7 milliseconds from 1970-01-01.
SELECT u, pg_temp.extract_timestamp(u) AS ts, uuidv7_timestamp(u) AS v7_ts
FROM (VALUES ('00000000-0000-1000-8000-000000000000'::uuid),
             ('00000009-0000-1000-8000-000000000000'),
             ('0000000a-0000-1000-8000-000000000000'),
             ('ffffffff-ffff-1fff-bfff-ffffffffffff'),
             ('00000000-0000-7000-8000-000000000000'),
             ('00000000-0001-7fff-bfff-ffffffffffff'),
             ('ffffffff-ffff-7fff-bfff-ffffffffffff')) AS v(u);

-- 20000 uuids, MD5 of the row number with version digits 1, 7, 4, 6, 8, 0 and variant digits
-- 8, 9, a, b, c, 7, 0, f cycled: how many have a version and a time, and a digest of what is
-- read.
SELECT count(*) AS ids, count(uuid_extract_version(u)) AS with_version,
       count(pg_temp.extract_timestamp(u)) AS with_time, count(uuidv7_timestamp(u)) AS with_v7_time,
       md5(string_agg(concat_ws(',', uuid_extract_version(u), pg_temp.extract_timestamp(u), uuidv7_timestamp(u)),
                      ';' ORDER BY g)) AS digest
FROM (SELECT g, overlay(overlay(md5(g::text) PLACING (ARRAY['1', '7', '1', '7', '4', '6', '8', '0'])[g % 8 + 1] FROM 13)
                        PLACING (ARRAY['8', '9', 'a', 'b', 'c', '7', '0', 'f'])[g / 8 % 8 + 1] FROM 17)::uuid AS u
      FROM generate_series(1, 20000) AS g) AS s;

-- 17's uuid_extract_timestamp reads no version 7 uuid; the others do.
SELECT uuid_extract_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') IS NULL
       = (current_setting('server_version_num')::integer / 10000 = 17) AS as_the_major;

-- The smallest and largest version 7 uuid of a millisecond: fractions of it are dropped, the
-- time zone of the input does not matter, the ends of the range are the ends of the field.
SELECT at, uuidv7_lower(at) AS lower, uuidv7_upper(at) AS upper
FROM (VALUES ('2022-02-22 19:22:22+00'::timestamptz),
             ('2022-02-22 19:22:22.000999+00'),
             ('2022-02-22 20:22:22.000500+01'),
             ('2022-02-22 19:22:22.001+00'),
             ('1970-01-01 00:00:00+00'),
             ('1970-01-01 00:00:00.999999+00'),
             ('10889-08-02 05:31:50.655+00'),
             ('10889-08-02 05:31:50.655999+00')) AS v(at);

-- The RFC's version 7 example lies within its millisecond's bounds, and each bound reads back
-- as its millisecond; consecutive milliseconds meet without a gap.
SELECT uuidv7_lower('2022-02-22 19:22:22+00') <= '017F22E2-79B0-7CC3-98C4-DC0C0C07398F'
           AND '017F22E2-79B0-7CC3-98C4-DC0C0C07398F' <= uuidv7_upper('2022-02-22 19:22:22+00') AS within,
       bool_and(uuidv7_timestamp(uuidv7_lower(t)) = date_trunc('milliseconds', t)
                AND uuidv7_timestamp(uuidv7_upper(t)) = date_trunc('milliseconds', t)) AS read_back,
       bool_and(uuidv7_upper(t) < uuidv7_lower(t + interval '1 ms')) AS ascending,
       uuidv7_lower(NULL) IS NULL AND uuidv7_upper(NULL) IS NULL AS null_is_null
FROM (SELECT timestamptz '2022-02-22 19:22:22.0005+00' + g * interval '7777.777777 seconds' AS t
      FROM generate_series(-1000, 1000) AS g) AS s;

-- Outside 1970-01-01 .. 2^48 - 1 ms: 22008 from the bounds and from the explicit-time generator
-- (an infinite time is told apart by its message, as elsewhere in the extension).
SELECT t, pg_temp.try(format('SELECT uuidv7_lower(%L)', t)) AS lower,
       pg_temp.try(format('SELECT uuidv7_upper(%L)', t)) AS upper,
       pg_temp.try(format('SELECT uuidv7_ordered(%L)', t)) AS ordered
FROM unnest(ARRAY['1969-12-31 23:59:59.999999+00', '10889-08-02 05:31:50.656+00', '4713-01-01 00:00:00+00 BC',
                  'infinity', '-infinity']) AS t;

-- uuidv7(shift) out of range: before 1970 or past 2^48 - 1 ms (22008, core's message from
-- PostgreSQL 18.6), past timestamptz itself (22008, the timestamp's own error); an infinite
-- shift, from 17 on (earlier majors have no infinite interval).
SELECT pg_temp.try('SELECT uuidv7(interval ''-100 years'')') AS before_1970,
       pg_temp.try('SELECT uuidv7(interval ''9000 years'')') AS past_10889,
       pg_temp.try('SELECT uuidv7(interval ''1000000 years'')') AS past_timestamptz,
       CASE WHEN current_setting('server_version_num')::integer >= 170000
            THEN pg_temp.try('SELECT uuidv7(''infinity''::interval)')
            ELSE '22008: interval out of range for UUID version 7' END AS infinite;

-- uuidv7() and uuidv7_ordered(): version 7, variant 10 (for uuidv7_ordered() with bit 5 of
-- byte 8 clear: a clock id), the millisecond of the clock when made (up to 1 ms past the
-- highest reading so far, and 245 ns more for each id made before it, as each id steps at least
-- 245 ns past the last, which calls faster than that carry ahead of the clock; it holds its time
-- when the clock steps back; read on every tenth id; uuidv7_ordered() within the
-- bounds of those milliseconds), 100000 of each in one session strictly ascending.
CREATE TEMP TABLE clock_ids AS
SELECT 'uuidv7()' AS call, g, clock_timestamp() AS t0, uuidv7() AS u, clock_timestamp() AS t1
FROM generate_series(1, 100000) AS g;
INSERT INTO clock_ids
SELECT 'uuidv7_ordered()', g, clock_timestamp(), uuidv7_ordered(), clock_timestamp()
FROM generate_series(1, 100000) AS g;
SELECT call, count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       bool_and(substr(u::text, 15, 1) = '7') AS version_7,
       bool_and(substr(u::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant_10,
       bool_and(substr(u::text, 20, 1) IN ('8', '9')) FILTER (WHERE call = 'uuidv7_ordered()') AS clock_id,
       bool_and(uuidv7_timestamp(u) BETWEEN date_trunc('milliseconds', t0)
                                          AND t1_max + interval '1 ms' + make_interval(secs => g * 245e-9))
           FILTER (WHERE g % 10 = 0) AS at_the_clock,
       bool_and(u BETWEEN uuidv7_lower(t0) AND uuidv7_upper(t1_max + interval '1 ms'))
           FILTER (WHERE g % 10 = 0 AND call = 'uuidv7_ordered()') AS within_bounds,
       count(*) FILTER (WHERE u <= prev) AS not_ascending
FROM (SELECT *, lag(u) OVER (PARTITION BY call ORDER BY g) AS prev,
             max(t1) OVER (PARTITION BY call ORDER BY g) AS t1_max FROM clock_ids) AS s
GROUP BY call ORDER BY call;
DROP TABLE clock_ids;

-- uuidv7(shift): the same, shifted by the interval, ascending with uuidv7() ids in between.
CREATE TEMP TABLE shifted_ids AS
SELECT g, clock_timestamp() AS t0, uuidv7(interval '-1 day') AS d, uuidv7() AS u, clock_timestamp() AS t1
FROM generate_series(1, 5000) AS g;
SELECT count(*) AS ids, count(DISTINCT d) AS distinct_ids,
       bool_and(uuid_extract_version(d) = 7 AND substr(d::text, 20, 1) IN ('8', '9', 'a', 'b')) AS version_7,
       bool_and(uuidv7_timestamp(d) BETWEEN date_trunc('milliseconds', t0 - interval '1 day')
                                                AND t1_max - interval '1 day' + interval '1 ms'
                                                    + make_interval(secs => 2 * g * 245e-9)) AS shifted,
       count(*) FILTER (WHERE d <= lag_d OR u <= lag_u) AS not_ascending
FROM (SELECT *, lag(d) OVER (ORDER BY g) AS lag_d, lag(u) OVER (ORDER BY g) AS lag_u,
             max(t1) OVER (ORDER BY g) AS t1_max FROM shifted_ids) AS s;
DROP TABLE shifted_ids;

-- uuidv4(): version 4, variant 10.
SELECT count(DISTINCT u) AS distinct_ids, bool_and(uuid_extract_version(u) = 4) AS version_4,
       bool_and(substr(u::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant_10
FROM (SELECT uuidv4() AS u FROM generate_series(1, 1000)) AS s;

-- uuidv7_ordered(at): the millisecond of at, bit 5 of byte 8 set (never a clock id), distinct
-- and ascending within a millisecond in one session; within the millisecond's bounds; a
-- half-open range of bounds selects the ids of its milliseconds.
CREATE TEMP TABLE at_ids AS
SELECT g, timestamptz '2022-02-22 19:22:22.0004+00' + g % 5 * interval '1 ms' AS at,
       uuidv7_ordered(timestamptz '2022-02-22 19:22:22.0004+00' + g % 5 * interval '1 ms') AS u
FROM generate_series(1, 10000) AS g;
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       bool_and(uuid_extract_version(u) = 7) AS version_7,
       bool_and(substr(u::text, 20, 1) IN ('a', 'b')) AS explicit_id,
       bool_and(uuidv7_timestamp(u) = date_trunc('milliseconds', at)) AS at_the_millisecond,
       bool_and(u BETWEEN uuidv7_lower(at) AND uuidv7_upper(at)) AS within_bounds,
       count(*) FILTER (WHERE u >= uuidv7_lower('2022-02-22 19:22:22.001+00')
                          AND u < uuidv7_lower('2022-02-22 19:22:22.003+00')) AS in_two_milliseconds,
       uuidv7_ordered(NULL) IS NULL AS null_is_null
FROM at_ids;
SELECT count(*) FILTER (WHERE u <= prev) AS not_ascending
FROM (SELECT u, lag(u) OVER (PARTITION BY at ORDER BY g) AS prev FROM at_ids) AS s;
DROP TABLE at_ids;
