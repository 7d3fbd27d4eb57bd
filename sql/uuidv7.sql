-- Version 7 and 4: PostgreSQL 18's functions (the extension's below 18), ordered ids, boundaries.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

\i sql/include/try.psql

-- RFC 9562's examples (appendix A.6, version 7; A.1, version 1) decode to their instant.
-- uuid_extract_timestamp is core's on 17, which reads version 1 only; uuidv7_timestamp reads 7 everywhere.
SELECT uuidv7_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS v7_time,
       uuid_extract_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')
         IS NOT DISTINCT FROM CASE WHEN current_setting('server_version_num')::integer / 10000 = 17 THEN NULL
                                   ELSE timestamptz '2022-02-22 19:22:22+00' END AS v7_as_core,
       uuid_extract_version('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS v7_version,
       uuid_extract_timestamp('c232ab00-9414-11ec-b3c8-9f6bdeced846') AS v1_time,
       uuidv7_timestamp('c232ab00-9414-11ec-b3c8-9f6bdeced846') AS v1_by_uuidv7_timestamp,
       uuid_extract_version('c232ab00-9414-11ec-b3c8-9f6bdeced846') AS v1_version;

-- No timestamp outside versions 1 and 7; no version outside RFC 9562's variant.
SELECT uuid_extract_timestamp('6ba7b810-9dad-41d1-80b4-00c04fd430c8') AS v4_time,
       uuidv7_timestamp('017f22e2-79b0-7cc3-58c4-dc0c0c07398f') AS ncs_variant_v7_time,
       uuid_extract_version('6ba7b810-9dad-41d1-80b4-00c04fd430c8') AS v4_version,
       uuid_extract_timestamp('017f22e2-79b0-7cc3-58c4-dc0c0c07398f') AS ncs_variant_time,
       uuid_extract_version('017f22e2-79b0-7cc3-d8c4-dc0c0c07398f') AS microsoft_variant_version,
       uuid_extract_version('00000000-0000-0000-0000-000000000000') AS nil_version,
       uuid_extract_version('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max_version;

-- Boundaries: the smallest and largest version 7 of a millisecond.
SELECT uuidv7_lower('2022-02-22 19:22:22+00') AS lower,
       uuidv7_upper('2022-02-22 19:22:22.0009+00') AS upper,
       uuidv7_lower('1970-01-01 00:00:00+00') AS first,
       uuidv7_upper('10889-08-02 05:31:50.655+00') AS last,
       uuidv7_lower('2022-02-22 19:22:22.000999+00') = uuidv7_lower('2022-02-22 19:22:22+00') AS floor_ms;

-- Every version 7 id of a millisecond lies between its boundaries.
SELECT uuidv7_lower('2022-02-22 19:22:22+00') <= '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'
   AND '017f22e2-79b0-7cc3-98c4-dc0c0c07398f' <= uuidv7_upper('2022-02-22 19:22:22+00') AS between;

-- Bad input: 22008 outside what 48 bits of Unix milliseconds carry.
SELECT stmt, pg_temp.try(stmt) AS result FROM (VALUES
    ('SELECT uuidv7_lower(''1969-12-31 23:59:59.999+00'')'),
    ('SELECT uuidv7_upper(''10889-08-02 05:31:50.656+00'')'),
    ('SELECT uuidv7_lower(''infinity'')'),
    ('SELECT uuidv7_upper(''-infinity'')'),
    ('SELECT uuidv7_ordered(''1969-12-31 23:59:59.999+00'')'),
    ('SELECT uuidv7_ordered(''10889-08-02 05:31:50.656+00'')'),
    ('SELECT uuidv7_ordered(''infinity'')')
) AS t(stmt);

-- uuidv7(interval) outside that range: 22008, as core's (the message of the first is core's too).
SELECT left(pg_temp.try('SELECT uuidv7(''-1000 years'')'), 5) AS before_1970,
       left(pg_temp.try('SELECT uuidv7(''9000 years'')'), 5) AS after_10889,
       left(pg_temp.try('SELECT uuidv7(''300000 years'')'), 5) AS past_timestamptz;

-- uuidv7(): version 7, RFC variant, made between the clock before and after, strictly increasing
-- within the backend.
SELECT clock_timestamp() AS before_ids \gset
SELECT count(*) AS ids,
       count(DISTINCT id) AS distinct_ids,
       bool_and(uuid_extract_version(id) = 7) AS version_7,
       bool_and(get_byte(uuid_send(id), 8) >> 6 = 2) AS rfc_variant,
       bool_and(uuidv7_timestamp(id) BETWEEN date_trunc('milliseconds', :'before_ids'::timestamptz)
                                         AND clock_timestamp()) AS now,
       bool_and(id > prev OR prev IS NULL) AS increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, uuidv7() AS id FROM generate_series(1, 10000) AS n) AS s) AS s;

-- uuidv7(shift): the clock shifted.
SELECT uuidv7_timestamp(uuidv7('-1 day')) BETWEEN now() - interval '1 day 1 minute'
                                                   AND clock_timestamp() - interval '1 day' AS yesterday,
       uuidv7_timestamp(uuidv7('1 year')) > now() + interval '364 days' AS next_year,
       uuid_extract_version(uuidv7('-50 years')) AS version;

-- uuidv4(): version 4, RFC variant, no timestamp.
SELECT count(DISTINCT id) AS distinct_ids,
       bool_and(uuid_extract_version(id) = 4) AS version_4,
       bool_and(uuid_extract_timestamp(id) IS NULL) AS no_time
FROM (SELECT uuidv4() AS id FROM generate_series(1, 10000)) AS s;

-- uuidv7_ordered(): version 7 clock ids (byte 8, bit 5 clear), strictly increasing.
SELECT count(DISTINCT id) AS distinct_ids,
       bool_and(uuid_extract_version(id) = 7) AS version_7,
       bool_and(get_byte(uuid_send(id), 8) & 224 = 128) AS clock_ids,
       bool_and(id > prev OR prev IS NULL) AS increasing,
       bool_and(uuidv7_timestamp(id) <= clock_timestamp() + interval '1 s') AS near_now
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, uuidv7_ordered() AS id FROM generate_series(1, 10000) AS n) AS s) AS s;

-- uuidv7_ordered(at): the millisecond of at, the explicit flag, all distinct.
SELECT count(DISTINCT id) AS distinct_ids,
       bool_and(uuidv7_timestamp(id) = '2020-05-06 07:08:09.123+00') AS at_ms,
       bool_and(get_byte(uuid_send(id), 8) & 224 = 160) AS explicit_ids
FROM (SELECT uuidv7_ordered('2020-05-06 07:08:09.123456+00') AS id FROM generate_series(1, 10000)) AS s;

-- A range of instants selects, with the boundaries, exactly the ids made for it.
CREATE TEMP TABLE events AS
SELECT uuidv7_ordered(t) AS id, t
FROM generate_series(timestamptz '2021-01-01', '2021-01-10 23:00', interval '1 hour') AS t;
SELECT count(*) AS in_range,
       count(*) FILTER (WHERE t >= '2021-01-03' AND t < '2021-01-05') AS expected
FROM events
WHERE id >= uuidv7_lower('2021-01-03') AND id < uuidv7_lower('2021-01-05');

-- A table partitioned on the id: bounds from uuidv7_lower, and a range query prunes to one partition.
CREATE TABLE v7_parted (id uuid PRIMARY KEY DEFAULT uuidv7(), payload text) PARTITION BY RANGE (id);
CREATE TABLE v7_parted_2021_01 PARTITION OF v7_parted
    FOR VALUES FROM (uuidv7_lower('2021-01-01')) TO (uuidv7_lower('2021-02-01'));
CREATE TABLE v7_parted_2021_02 PARTITION OF v7_parted
    FOR VALUES FROM (uuidv7_lower('2021-02-01')) TO (uuidv7_lower('2021-03-01'));
CREATE TABLE v7_parted_later PARTITION OF v7_parted
    FOR VALUES FROM (uuidv7_lower('2021-03-01')) TO (MAXVALUE);
INSERT INTO v7_parted (id, payload)
SELECT uuidv7_ordered(t), 'backfill' FROM generate_series(timestamptz '2021-01-15', '2021-02-15', interval '1 day') AS t;
INSERT INTO v7_parted (payload) VALUES ('now');
SELECT tableoid::regclass AS partition, count(*) FROM v7_parted GROUP BY 1 ORDER BY 1;
ANALYZE v7_parted;
EXPLAIN (COSTS OFF)
SELECT * FROM v7_parted WHERE id >= uuidv7_lower('2021-02-03') AND id < uuidv7_lower('2021-02-10');
DROP TABLE v7_parted;

-- Expression indexes and partition keys take the extractors: they are immutable.
CREATE TEMP TABLE v7_index (id uuid);
CREATE INDEX ON v7_index (uuid_extract_timestamp(id));
CREATE INDEX ON v7_index (uuidv7_timestamp(id));
CREATE TABLE v7_by_time (id uuid) PARTITION BY RANGE (uuidv7_timestamp(id));
DROP TABLE v7_by_time;

-- Where no lease can be taken (a read-only transaction of a new backend): 25006.
\c
\i sql/include/try.psql
BEGIN TRANSACTION READ ONLY;
SELECT left(pg_temp.try('SELECT uuidv7_ordered()'), 5) AS ordered,
       left(pg_temp.try('SELECT uuidv7_ordered(now())'), 5) AS ordered_at,
       uuid_extract_version(uuidv7()) AS uuidv7_still_works;
COMMIT;
