-- C edition only (the portable suite leaves this file out).
-- locality_uuid_block_advice: exact recommendations, the rule checked over a grid (a block's
-- leaves within 1/8 of the index memory, a wrap of at least twice the retention, the prefix
-- width from the count, the advised call making blocks of the advised length), and every
-- argument error with its SQLSTATE.

\i sql/include/helpers.psql

-- This machine's bulk load (about 390,000 rows a second, 16 MB of shared_buffers), one day kept:
-- 52428 rows fit in 2 MB; blocks of 32768 values, or of 100 ms (39,000 rows), 3 prefix bytes.
\x on
SELECT * FROM locality_uuid_block_advice(390000, '1 day', 16777216);
-- Kept 30 days: 4 prefix bytes, written as count 2^30 with 4 times the size (the same S').
SELECT * FROM locality_uuid_block_advice(390000, '30 days', index_memory => 16777216);
\x off

-- Other workloads: the rows that fit set the block, the retention the prefix width.
SELECT rate, kept, memory, a.generator, a.call, a.rows_per_block, a.hot_set_bytes, a.hot_set_pages,
       a.wrap_period, a.prefix_bytes, a.hot_set_fits, a.wrap_covers_retention
FROM (VALUES (5000::float8, '30 days'::interval, 2147483648::bigint),
             (100000, '30 days', 2147483648),
             (10, '7 days', 2147483648),
             (1500, '1 day', 320000),
             (1500, '100 days', 320000),   -- 500 ms would be written '2 s' (whole seconds): 200 ms
             (1000, '1 day', 100),         -- not one row fits: the smallest blocks, flagged
             (1e12, '10 years', 16777216), -- no wrap is long enough: flagged
             (1, '1 year', 9223372036854775807),
             (390000, '1 year 2 mons', 16777216)) AS v(rate, kept, memory),
     LATERAL locality_uuid_block_advice(rate, kept, memory) AS a
ORDER BY rate, kept, a.generator;

-- The rule, checked over a grid of rates, retentions and memories: the hot set within 1/8 of
-- the memory (when a row fits at all), the wrap at least twice the retention (when 4 bytes
-- can), the largest block that fits (the next power of two, or 1-2-5 step, would not), the
-- prefix the smallest that covers, and the advised arguments giving exactly the advised block.
CREATE TEMP TABLE grid AS
SELECT rate, memory, a.*
FROM unnest(ARRAY[0.001, 1, 10, 333, 5000, 77777, 390000, 1e6, 1e8]::float8[]) AS rate,
     unnest(ARRAY['1 minute', '1 hour', '1 day', '30 days', '1 year', '10 years']::interval[]) AS kept,
     unnest(ARRAY[1000, 16777216, 134217728, 2147483648, 68719476736]::bigint[]) AS memory,
     LATERAL locality_uuid_block_advice(rate, kept, memory) AS a;
CREATE FUNCTION pg_temp.secs(i interval) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
    SELECT extract(epoch FROM i)
$$;
CREATE FUNCTION pg_temp.next_step(us bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN left(us::text, 1) = '2' THEN us / 2 * 5 ELSE us * 2 END
$$;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE hot_set_fits = (hot_set_bytes <= memory / 8)) AS fits_flag_right,
       count(*) FILTER (WHERE hot_set_fits OR memory / 8 / 40 < 1
                           OR (generator = 'uuid_time_nextval_interval' AND block_interval = '1 ms')) AS fits_or_smallest,
       count(*) FILTER (WHERE hot_set_bytes = ceil(rows_per_block * 40)) AS hot_set_is_40_bytes_a_row,
       count(*) FILTER (WHERE hot_set_pages = ceil(hot_set_bytes / 8192.0)) AS pages_right,
       count(*) FILTER (WHERE wrap_covers_retention = (pg_temp.secs(wrap_period) >= 2 * pg_temp.secs(retention))
                           OR wrap_period IS NULL) AS covers_flag_right,
       count(*) FILTER (WHERE wrap_covers_retention OR prefix_bytes = 4) AS covers_or_widest,
       count(*) FILTER (WHERE prefix_bytes = 1
                           OR pg_temp.secs(wrap_period) / 2 ^ (8 * prefix_bytes - 8) < 2 * pg_temp.secs(retention))
           AS prefix_smallest,
       count(*) FILTER (WHERE (generator = 'uuid_sequence_nextval' AND effective_block_size * 2 > memory / 8 / 40)
                           OR (generator = 'uuid_sequence_nextval' AND effective_block_size = 268435456)
                           OR (generator = 'uuid_time_nextval_interval'
                               AND rate * pg_temp.next_step((pg_temp.secs(block_interval) * 1000000)::bigint) / 1e6
                                   > memory / 8 / 40)
                           OR (generator = 'uuid_time_nextval_interval' AND block_interval = '500000000 s')
                           OR (generator = 'uuid_time_nextval_interval' AND prefix_bytes = 4
                               AND pg_temp.secs(block_interval) = 0.5 * 2 / 5))
           AS largest_that_fits,
       count(*) FILTER (WHERE (generator = 'uuid_sequence_nextval'
                               AND (SELECT (l.effective_block_size, l.prefix_bits)
                                    FROM locality_uuid_block_layout(block_size, block_count) l)
                                   = (effective_block_size, 8 * prefix_bytes)
                               AND rows_per_block = effective_block_size
                               AND call = format('uuid_sequence_nextval(''id_seq'', %s, %s)', block_size, block_count))
                           OR (generator = 'uuid_time_nextval_interval'
                               AND (SELECT (l.block_interval, l.prefix_bits)
                                    FROM locality_uuid_block_layout(interval_length, interval_count) l)
                                   = (block_interval, 8 * prefix_bytes)
                               AND abs(rows_per_block - rate * pg_temp.secs(block_interval)) <= 1e-9 * rows_per_block
                               AND call ~ ('^uuid_time_nextval_interval\(''[0-9]+ m?s''::interval, ' || interval_count || '\)$')))
           AS arguments_give_the_block,
       count(*) FILTER (WHERE (generator = 'uuid_sequence_nextval') = (block_size IS NOT NULL)
                          AND (block_size IS NULL) = (block_count IS NULL)
                          AND (interval_length IS NULL) = (block_size IS NOT NULL)
                          AND (interval_count IS NULL) = (block_size IS NOT NULL)
                          AND (effective_block_size IS NULL) = (block_size IS NULL)
                          AND (block_interval IS NULL) = (block_size IS NOT NULL)) AS nulls_right,
       count(*) FILTER (WHERE prefix_bytes < 4 AND (block_count = 256 ^ prefix_bytes OR interval_count = 256 ^ prefix_bytes)
                           OR prefix_bytes = 4 AND (block_count = 1073741824 OR interval_count = 1073741824))
           AS count_from_prefix
FROM grid;
-- The advised calls run: each makes an id, with the advised prefix width.
CREATE SEQUENCE id_seq;
SELECT count(*) AS calls,
       count(*) FILTER (WHERE locality_uuid_version(pg_temp.try('SELECT ' || call, true)::uuid) = '4') AS made_ids
FROM grid WHERE memory = 16777216;
DROP SEQUENCE id_seq;
DROP TABLE grid;

-- Months in a retention count 365.25 / 12 days, as extract(epoch FROM interval) does: 2^16
-- one-row blocks at 0.0125 rows/s wrap in 60.68 days, twice 30 days but not twice 1 month.
SELECT r.retention, a.generator, a.block_count, a.wrap_period, a.prefix_bytes
FROM unnest(ARRAY['30 days', '1 mon']::interval[]) AS r(retention),
     LATERAL locality_uuid_block_advice(0.0125, r.retention, 320) a
WHERE a.generator = 'uuid_sequence_nextval';

-- index_memory defaults to shared_buffers (NULL means the same).
SELECT count(*) AS rows,
       bool_and(index_memory = pg_size_bytes(current_setting('shared_buffers'))) AS is_shared_buffers
FROM locality_uuid_block_advice(390000, '1 day');
SELECT count(*) AS rows,
       bool_and(index_memory = pg_size_bytes(current_setting('shared_buffers'))) AS null_is_shared_buffers
FROM locality_uuid_block_advice(insert_rate => 390000, retention => '1 day', index_memory => NULL);

-- Labels as declared.
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proparallel AS parallel,
       p.proisstrict AS strict, p.proretset AS set, p.prorows AS rows
FROM pg_proc p WHERE p.proname = 'locality_uuid_block_advice';

-- Errors: every bad argument with its SQLSTATE (22023; NULL rate or retention 22004).
SELECT stmt, pg_temp.try(stmt) AS result FROM (VALUES
    ('SELECT locality_uuid_block_advice(0, ''1 day'')'),
    ('SELECT locality_uuid_block_advice(-1, ''1 day'')'),
    ('SELECT locality_uuid_block_advice(''NaN'', ''1 day'')'),
    ('SELECT locality_uuid_block_advice(''Infinity'', ''1 day'')'),
    ('SELECT locality_uuid_block_advice(''-Infinity'', ''1 day'')'),
    ('SELECT locality_uuid_block_advice(1000, ''0'')'),
    ('SELECT locality_uuid_block_advice(1000, ''-1 day'')'),
    ('SELECT locality_uuid_block_advice(1000, ''1 mon -31 days'')'),
    ('SELECT locality_uuid_block_advice(1000, ''1 day'', 0)'),
    ('SELECT locality_uuid_block_advice(1000, ''1 day'', -1)'),
    ('SELECT locality_uuid_block_advice(NULL, ''1 day'')'),
    ('SELECT locality_uuid_block_advice(1000, NULL)'),
    ('SELECT locality_uuid_block_advice(NULL, NULL, NULL)')
) AS t(stmt);
SELECT current_setting('server_version_num')::integer < 170000
       OR pg_temp.try('SELECT locality_uuid_block_advice(1000, ''infinity''::interval)') LIKE '22023: retention must be finite'
       AS infinite_refused;
\set VERBOSITY default
SELECT locality_uuid_block_advice(0, '1 day');
SELECT locality_uuid_block_advice(1000, '1 day', 0);
