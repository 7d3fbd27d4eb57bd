-- Drop-in for sequential_uuids 1.0.3: its regression scenarios, restated, give its counts.

-- (256, 65536): blocks of 256 values, 2-byte prefix. 10000 values fill 39 blocks and 16 of a 40th.
CREATE SEQUENCE compat;
CREATE TEMP TABLE ids AS
SELECT uuid_sequence_nextval('compat'::regclass, 256, 65536)::text AS u FROM generate_series(1, 10000);
SELECT count(DISTINCT u) AS ids, count(DISTINCT left(u, 4)) AS blocks FROM ids;
SELECT left(u, 4) AS block, count(*) FROM ids GROUP BY 1 HAVING count(*) <> 256 ORDER BY 1;
DROP TABLE ids;
DROP SEQUENCE compat;

-- (65536, 256): blocks of 65536 values, 1-byte prefix. 200000 values: 3 full blocks and 3392.
CREATE SEQUENCE compat;
CREATE TEMP TABLE ids AS
SELECT uuid_sequence_nextval('compat'::regclass, 65536, 256)::text AS u FROM generate_series(1, 200000);
SELECT count(DISTINCT u) AS ids, count(DISTINCT left(u, 2)) AS blocks FROM ids;
SELECT left(u, 2) AS block, count(*) FROM ids GROUP BY 1 ORDER BY 1;
DROP TABLE ids;
DROP SEQUENCE compat;

-- (100, 100): 1-byte prefix, S' = floor(100 * 100 / 256) = 39. 10000 values are blocks 0 .. 256;
-- block 256 wraps onto prefix 00, which so holds 39 + 16 values; the other 255 hold 39 each.
CREATE SEQUENCE compat;
CREATE TEMP TABLE ids AS
SELECT uuid_sequence_nextval('compat'::regclass, 100, 100)::text AS u FROM generate_series(1, 10000);
SELECT count(DISTINCT u) AS ids, count(DISTINCT left(u, 2)) AS blocks FROM ids;
SELECT cnt, count(*) AS blocks, min(block), max(block)
FROM (SELECT left(u, 2) AS block, count(*) AS cnt FROM ids GROUP BY 1) s
GROUP BY cnt ORDER BY cnt;
DROP TABLE ids;
DROP SEQUENCE compat;

-- (256, 256): wraps every 65536 values. 67000 values: prefixes 00 .. 04 twice full, 05 with
-- 256 + 184, all others once.
CREATE SEQUENCE compat;
CREATE TEMP TABLE ids AS
SELECT uuid_sequence_nextval('compat'::regclass, 256, 256)::text AS u FROM generate_series(1, 67000);
SELECT count(DISTINCT u) AS ids, count(DISTINCT left(u, 2)) AS blocks FROM ids;
SELECT left(u, 2) AS block, count(*) FROM ids GROUP BY 1 HAVING count(*) <> 256 ORDER BY 1;
DROP TABLE ids;
DROP SEQUENCE compat;

-- Time variant (1, 256): ids made more than a second apart carry different prefixes.
CREATE TEMP TABLE ids (u text);
INSERT INTO ids SELECT uuid_time_nextval(1, 256);
SELECT pg_sleep(1.1);
INSERT INTO ids SELECT uuid_time_nextval(1, 256);
SELECT count(DISTINCT left(u, 2)) AS blocks FROM ids;
DROP TABLE ids;
