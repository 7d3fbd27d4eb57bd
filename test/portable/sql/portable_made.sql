-- uuidv7_made and hot_uuid_made of the portable edition: exact rows on fixed ids of every kind
-- (NULL, infinite, pre-1970, past-the-end and microsecond bounds), the keys, and plans that
-- carry the keys as index conditions on id.
\i sql/include/helpers.psql
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

-- v7: millisecond 1700000000123 (0x018bcfe5687b) = 2023-11-14 22:13:20.123 UTC; v7_0 and
-- v7_end the format's first and last millisecond; v7_c the bytes of v7 with variant 110; hot
-- the second 1700000000 (0x6553f100) = 2023-11-14 22:13:20 UTC, read by hot_uuid_made as
-- every other id is: its bytes 0..3 as seconds.
CREATE TABLE made (label text, id uuid);
INSERT INTO made VALUES
    ('v7', '018bcfe5-687b-7abc-8def-0123456789ab'),
    ('v7_0', '00000000-0000-7000-8000-000000000000'),
    ('v7_end', 'ffffffff-ffff-7fff-bfff-ffffffffffff'),
    ('v7_c', '018bcfe5-687b-7abc-cdef-0123456789ab'),
    ('v4', '018bcfe5-687b-4abc-8def-0123456789ab'),
    ('v1', 'c232ab00-9414-11ec-b3c8-9e6bdeced846'),
    ('v6', '1ec9414c-232a-6b00-b3c8-9e6bdeced846'),
    ('hot', '6553f100-0102-0304-0506-0708090a0b0c'),
    ('nil', '00000000-0000-0000-0000-000000000000'),
    ('max', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
    ('null', NULL);
CREATE INDEX ON made (id);

-- The rows of each spelling for each pair of bounds, and of NOT the spelling.
SELECT b.since, b.before,
       (SELECT string_agg(label, ' ' ORDER BY label) FROM made WHERE uuidv7_made(id, b.since, b.before)) AS v7_rows,
       (SELECT string_agg(label, ' ' ORDER BY label) FROM made WHERE NOT uuidv7_made(id, b.since, b.before)) AS v7_not,
       (SELECT string_agg(label, ' ' ORDER BY label) FROM made WHERE hot_uuid_made(id, b.since, b.before)) AS hot_rows
FROM (VALUES ('-infinity'::timestamptz, 'infinity'::timestamptz),
             ('2023-11-14 22:13:20.123', '2023-11-14 22:13:20.124'),
             ('2023-11-14 22:13:20.122001', '2023-11-14 22:13:20.123001'),
             ('2023-11-14 22:13:20.123001', 'infinity'),
             ('-infinity', '2023-11-14 22:13:20.123'),
             ('2023-11-14 22:13:20', '2023-11-14 22:13:20.000001'),
             ('2023-11-14 22:13:19.999999', '2023-11-14 22:13:20'),
             ('2023-11-14 22:13:20.000001', '2023-11-14 22:13:21.000001'),
             ('1900-01-01', '1970-01-01'),
             ('1900-01-01', '1970-01-01 00:00:00.000001'),
             ('10889-08-02 05:31:50.655', '294276-12-31 23:59:59.999999'),
             ('10889-08-02 05:31:50.655001', 'infinity'),
             ('2106-02-07 06:28:15', 'infinity'),
             ('2106-02-07 06:28:15.000001', 'infinity'),
             ('12000-01-01', '4713-01-01 00:00:00 BC'),
             (NULL, 'infinity'),
             ('-infinity', NULL)) AS b(since, before);

-- The defaults: every version 7 id; every id but NULL.
SELECT string_agg(label, ' ' ORDER BY label) FILTER (WHERE uuidv7_made(id)) AS v7_rows,
       string_agg(label, ' ' ORDER BY label) FILTER (WHERE hot_uuid_made(id)) AS hot_rows
FROM made;

-- Never NULL, for NULL ids and bounds too.
SELECT count(*) FILTER (WHERE uuidv7_made(id, s, b) IS NULL OR hot_uuid_made(id, s, b) IS NULL) AS nulls
FROM made, (VALUES (NULL::timestamptz, NULL::timestamptz), (NULL, 'infinity'), ('-infinity', NULL)) AS v(s, b);

-- The keys: the first millisecond (second) at or after since, the last before before; clamped.
SELECT at, uuidv7_made_since(at), uuidv7_made_before(at), hot_uuid_made_since(at), hot_uuid_made_before(at)
FROM (VALUES ('-infinity'::timestamptz), ('1969-12-31 23:59:59.999999'), ('1970-01-01'),
             ('1970-01-01 00:00:00.000001'), ('2023-11-14 22:13:20.123'), ('2023-11-14 22:13:20.123001'),
             ('2106-02-07 06:28:15'), ('2106-02-07 06:28:15.000001'), ('10889-08-02 05:31:50.655'),
             ('10889-08-02 05:31:50.655001'), ('infinity'), (NULL)) AS v(at);

-- Plans: the keys of constant bounds are constants of index conditions on id; now()'s are
-- computed when the scan starts; NULL bounds of hot_uuid_made fold to false.
SET enable_seqscan = off;
SELECT pg_temp.plan($$SELECT label FROM made WHERE uuidv7_made(id, '2023-11-14 22:13:20.123001', '2023-11-15')$$)
       #>> '{Index Cond}' AS v7_index_cond;
SELECT pg_temp.plan($$SELECT label FROM made WHERE hot_uuid_made(id, '2023-11-14 22:13:20.000001', '2023-11-15')$$)
       #>> '{Index Cond}' AS hot_index_cond;
SELECT p ->> 'Node Type' AS node, p #>> '{Index Cond}' ~ '^\(\(id >= CASE .*now\(\).* AND \(id <= ''ffffffff-ffff-ffff-ffff-ffffffffffff''::uuid\)\)$' AS keys_of_now
FROM pg_temp.plan($$SELECT label FROM made WHERE uuidv7_made(id, now() - interval '1 hour')$$) AS p;
SELECT pg_temp.plan($$SELECT label FROM made WHERE hot_uuid_made(id, NULL)$$) ->> 'One-Time Filter' AS hot_null;
RESET enable_seqscan;
