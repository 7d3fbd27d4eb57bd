-- Drop-in for sequential_uuids 1.0.3: its regression scenarios, restated, give its counts.

-- Each scenario (block size, block count) draws n values from a new sequence; a block is the
-- prefix of the id's text (4 hex digits for a count of 65536, else 2). Every scenario has as
-- many distinct ids as values, and its blocks hold these counts:
--   (256, 65536): blocks of 256 values, 2-byte prefix. 10000 values fill 39 blocks and 16 of a 40th.
--   (65536, 256): blocks of 65536 values, 1-byte prefix. 200000 values: 3 full blocks and 3392.
--   (100, 100): 1-byte prefix, S' = floor(100 * 100 / 256) = 39. 10000 values are blocks 0 .. 256;
--     block 256 wraps onto prefix 00, which so holds 39 + 16 values; the other 255 hold 39 each.
--   (256, 256): wraps every 65536 values. 67000 values: prefixes 00 .. 04 twice full, 05 with
--     256 + 184, all others once.
CREATE FUNCTION pg_temp.compat_ids(block_size integer, block_count integer, n integer) RETURNS SETOF text
LANGUAGE plpgsql AS $$
BEGIN
    CREATE SEQUENCE compat;
    RETURN QUERY EXECUTE 'SELECT uuid_sequence_nextval(''compat''::regclass, $1, $2)::text FROM generate_series(1, $3)'
        USING block_size, block_count, n;
    DROP SEQUENCE compat;
END
$$;
CREATE TEMP TABLE ids AS
SELECT block_size, block_count, u, left(u, prefix_digits) AS block
FROM (VALUES (256, 65536, 10000, 4), (65536, 256, 200000, 2), (100, 100, 10000, 2), (256, 256, 67000, 2))
         AS s(block_size, block_count, n, prefix_digits),
     LATERAL pg_temp.compat_ids(block_size, block_count, n) AS u;
SELECT block_size, block_count, count(DISTINCT u) AS ids, count(DISTINCT block) AS blocks
FROM ids GROUP BY 1, 2 ORDER BY 1, 2;
-- Values per block: how many blocks hold each count, and the first and last of them.
SELECT block_size, block_count, cnt, count(*) AS blocks, min(block), max(block)
FROM (SELECT block_size, block_count, block, count(*) AS cnt FROM ids GROUP BY 1, 2, 3) s
GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
DROP TABLE ids;

-- Time variant (1, 256): ids made more than a second apart carry different prefixes.
CREATE TEMP TABLE ids (u text);
INSERT INTO ids SELECT uuid_time_nextval(1, 256);
SELECT pg_sleep(1.1);
INSERT INTO ids SELECT uuid_time_nextval(1, 256);
SELECT count(DISTINCT left(u, 2)) AS blocks FROM ids;
DROP TABLE ids;
