-- Block-wrapped sequential uuids: the vectors of docs/format.md, section 2, through setval,
-- every prefix width, negative and extreme sequence values, the layout function, the block
-- extractor, parallel use.

-- docs/format.md, section 2, restated in SQL: prefix width, S', and the prefix of value v as
-- hex digits.
CREATE FUNCTION pg_temp.spec_bits(c integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN c <= 256 THEN 8 WHEN c <= 65536 THEN 16 WHEN c <= 16777216 THEN 24 ELSE 32 END
$$;
CREATE FUNCTION pg_temp.spec_block(s integer, c integer) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
    SELECT greatest(1, (s::bigint * c) >> pg_temp.spec_bits(c))
$$;
CREATE FUNCTION pg_temp.spec_prefix(v bigint, s integer, c integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT lpad(to_hex(((v / pg_temp.spec_block(s, c)) % p + p) % p), pg_temp.spec_bits(c) / 4, '0')
    FROM (SELECT (2::numeric ^ pg_temp.spec_bits(c))::bigint AS p) t
$$;

-- The first hex digits of an id: as many as block count c gives prefix bits.
CREATE FUNCTION pg_temp.prefix(u uuid, c integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT left(replace(u::text, '-', ''), pg_temp.spec_bits(c) / 4)
$$;

-- The id made when nextval returns n.
CREATE SEQUENCE vec MINVALUE -9223372036854775808;
CREATE FUNCTION pg_temp.id_at(n bigint, s integer, c integer) RETURNS uuid LANGUAGE plpgsql AS $$
BEGIN
    PERFORM setval('vec', n, false);
    RETURN uuid_sequence_nextval('vec', s, c);
END
$$;

-- The vectors of docs/format.md, section 2 (sequence variant; n = what nextval returned).
SELECT n, s, c, pg_temp.prefix(pg_temp.id_at(n, s, c), c) AS prefix
FROM (VALUES (1::bigint, 65536, 65536),
             (65537, 65536, 65536),
             (4294967297, 65536, 65536),
             (40, 100, 100),
             (2, 1, 16777216)) AS v(n, s, c);

-- Defaults are (65536, 65536), and the named arguments are those of sequential_uuids:
-- nextval gives 65537, 65538, 65539, so v = 65536 (block 1), 65537 (block 1 of 65536 values),
-- 65538 (block 65538 of 1 value, mod 256 = 2).
SELECT setval('vec', 65537, false);
SELECT pg_temp.prefix(uuid_sequence_nextval('vec'), 65536) AS defaults,
       pg_temp.prefix(uuid_sequence_nextval('vec', block_count => 256), 256) AS c_256,
       pg_temp.prefix(uuid_sequence_nextval('vec', block_size => 1, block_count => 256), 256) AS s_1_c_256;

-- Every prefix width, at S = 65536: its layout, then the prefix where block 0 ends (n = S'),
-- where block 1 starts (n = S' + 1), where the wrap ends (n = 2^B * S') and starts over
-- (n = 2^B * S' + 1), at n = 0 (v = -1, truncated toward zero into block 0) and at n = -S'
-- (v = -S' - 1, block -1, all ones).
SELECT c, l.prefix_bits AS bits, l.effective_block_size AS s_eff, l.wrap_values AS wrap,
       pg_temp.prefix(pg_temp.id_at(l.effective_block_size, 65536, c), c) AS block_0_end,
       pg_temp.prefix(pg_temp.id_at(l.effective_block_size + 1, 65536, c), c) AS block_1,
       pg_temp.prefix(pg_temp.id_at(l.wrap_values, 65536, c), c) AS wrap_end,
       pg_temp.prefix(pg_temp.id_at(l.wrap_values + 1, 65536, c), c) AS wrapped,
       pg_temp.prefix(pg_temp.id_at(0, 65536, c), c) AS n_0,
       pg_temp.prefix(pg_temp.id_at(-l.effective_block_size, 65536, c), c) AS n_minus_s
FROM unnest(ARRAY[1, 2, 256, 257, 65536, 65537, 16777216, 16777217, 1073741825, 2147483647]) AS c,
     LATERAL locality_uuid_block_layout(65536, c) AS l
ORDER BY c;

-- The extremes of nextval: INT64_MIN - 1 wraps to INT64_MAX (as in the reference, built with -fwrapv).
SELECT n, pg_temp.prefix(pg_temp.id_at(n, 65536, 65536), 65536) AS prefix
FROM (VALUES (-9223372036854775808), (-9223372036854775807), (-65536), (-65535),
             (9223372036854775807)) AS v(n);

-- Generator, layout and the formula of docs/format.md, section 2 agree on a grid of sizes,
-- counts and sequence values.
SELECT count(*) AS cases,
       count(*) FILTER (WHERE pg_temp.prefix(pg_temp.id_at(n, s, c), c) = pg_temp.spec_prefix(n - 1, s, c))
           AS generator_matches_spec,
       count(*) FILTER (WHERE l.prefix_bits = pg_temp.spec_bits(c)
                          AND l.effective_block_size = pg_temp.spec_block(s, c)
                          AND l.prefixes = 2::numeric ^ l.prefix_bits
                          AND l.wrap_values = l.prefixes * l.effective_block_size) AS layout_matches_spec,
       count(*) FILTER (WHERE locality_uuid_block(pg_temp.id_at(n, s, c), c)
                            = ((n - 1) / l.effective_block_size % l.prefixes + l.prefixes) % l.prefixes)
           AS block_matches_layout
FROM unnest(ARRAY[1, 39, 100, 256, 60, 65536, 1000000, 2147483647]) AS s,
     unnest(ARRAY[1, 2, 100, 255, 256, 257, 65535, 65536, 65537, 16777215, 16777216, 16777217,
                  1073741823, 1073741824, 1073741825, 2147483647]) AS c,
     unnest(ARRAY[-9223372036854775807, -4294967297, -65537, -1000, -1, 0, 1, 2, 40, 256, 257,
                  65536, 65537, 16777217, 4294967296, 4294967297, 1099511627777,
                  9223372036854775807]) AS n,
     LATERAL locality_uuid_block_layout(s, c) AS l;

-- The layouts a DBA would look at: defaults, the reference's test pairs, extremes.
SELECT s, c, l.*
FROM (VALUES (65536, 65536), (60, 65536), (256, 65536), (65536, 256), (100, 100), (256, 256),
             (1, 1), (2147483647, 1), (1, 2147483647), (2147483647, 2147483647)) AS v(s, c),
     LATERAL locality_uuid_block_layout(s, c) AS l;
SELECT * FROM locality_uuid_block_layout();
-- docs/format.md, section 2: a count that needs 24 bits shrinks S' below the size asked for
-- (10 values in 2^20 blocks: floor(10 * 2^20 / 2^24) = 0, raised to 1).
SELECT * FROM locality_uuid_block_layout(10, 1048576);

-- Ids are version 4 with the RFC 4122 variant, and distinct.
SELECT setval('vec', 1, false);
CREATE TEMP TABLE ids AS
SELECT uuid_sequence_nextval('vec', 256, 256) AS seq, uuid_time_nextval() AS tim
FROM generate_series(1, 10000);
SELECT count(DISTINCT seq) AS distinct_seq, count(DISTINCT tim) AS distinct_time,
       bool_and(substr(seq::text, 15, 1) = '4' AND substr(seq::text, 20, 1) IN ('8', '9', 'a', 'b'))
           AS seq_v4,
       bool_and(substr(tim::text, 15, 1) = '4' AND substr(tim::text, 20, 1) IN ('8', '9', 'a', 'b'))
           AS time_v4
FROM ids;

-- The block extractor reads the prefix for the given count; other versions give NULL.
SELECT locality_uuid_block('0001ffff-ffff-4fff-bfff-ffffffffffff') AS default_count,
       locality_uuid_block('0001ffff-ffff-4fff-bfff-ffffffffffff', 256) AS c_256,
       locality_uuid_block('fffffe00-0000-4000-8000-000000000000', 16777216) AS c_2_24,
       locality_uuid_block('12345678-0000-4000-8000-000000000000', block_count => 2147483647) AS c_max,
       locality_uuid_block('20be0ffc-314a-bd53-7a50-013a65ca76d2') IS NULL AS version_b_null,
       locality_uuid_block(NULL) IS NULL AS null_null;

-- Time variant: the prefix is floor(epoch / S') mod 2^B at the moment of the call.
CREATE FUNCTION pg_temp.time_prefix_ok(len integer, cnt integer) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    t0 bigint;
    t1 bigint;
    u uuid;
    l record;
BEGIN
    t0 := floor(extract(epoch FROM clock_timestamp()));
    u := uuid_time_nextval(len, cnt);
    t1 := floor(extract(epoch FROM clock_timestamp()));
    SELECT * INTO l FROM locality_uuid_block_layout(len, cnt);
    RETURN locality_uuid_block(u, cnt) IN ((t0 / l.effective_block_size) % l.prefixes,
                                           (t1 / l.effective_block_size) % l.prefixes);
END
$$;
SELECT len, cnt, pg_temp.time_prefix_ok(len, cnt) AS prefix_ok
FROM (VALUES (60, 65536), (1, 256), (1, 1), (1, 65536), (1, 2147483647), (3600, 24),
             (86400, 16777217), (2147483647, 2147483647)) AS v(len, cnt);
SELECT locality_uuid_block(uuid_time_nextval(interval_length => 60), 65536)
       IN ((floor(extract(epoch FROM clock_timestamp())) / 60)::bigint % 65536,
           ((floor(extract(epoch FROM clock_timestamp())) / 60)::bigint + 65535) % 65536) AS named_ok;

-- The time variant is parallel safe: under parallel mode it runs in a worker.
CREATE TABLE par_rows AS SELECT g FROM generate_series(1, 10000) g;
ANALYZE par_rows;
\i sql/include/helpers.psql
SET :"parallel_guc" = on;
EXPLAIN (COSTS OFF) SELECT count(DISTINCT uuid_time_nextval(1, 256)) FROM par_rows;
SELECT count(DISTINCT u) AS ids,
       count(DISTINCT locality_uuid_block(u, 256)) <= 2 AS one_or_two_blocks
FROM (SELECT uuid_time_nextval(1, 256) AS u FROM par_rows) s;
-- Several workers at once: each fills its own random pool.
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT uuid_time_nextval() FROM par_rows;
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids
FROM (SELECT uuid_time_nextval() AS u FROM par_rows) s;
-- The sequence variant calls nextval, so it is parallel unsafe and stays in the leader.
EXPLAIN (COSTS OFF) SELECT uuid_sequence_nextval('vec') FROM par_rows;
SELECT count(DISTINCT uuid_sequence_nextval('vec')) AS ids FROM par_rows;
RESET ALL;
DROP TABLE par_rows;
