-- C edition only (the portable suite leaves this file out).
-- locality_uuid_describe(): the core's format rule (docs/format.md, section 6) on one id of each
-- format, as of 2024-06-01 12:00:00.123456 UTC: the formats that fit, each reading's time, and
-- which row gives the id's time.
SET TimeZone = 'UTC';
SET datestyle = 'ISO, YMD';
\i sql/include/helpers.psql
CREATE TEMP TABLE ids (label text, id uuid);
INSERT INTO ids VALUES
    ('nil', '00000000-0000-0000-0000-000000000000'),
    ('max', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
    ('locality variable', locality_uuid_make(3488672514, 12618, x'0d537a50'::int, '2012-10-15 18:58:18.450+00')),
    ('locality sequential', locality_uuid_make(x'01b85440'::int, 12618, x'0d537a50'::int, '2012-10-15 18:58:18.450+00', true)),
    ('block (version 4)', '919108f7-52d1-4320-9bac-f847db4148a8'),
    ('v7', uuidv7_lower('2022-02-22 19:22:22+00')),
    ('v7 9999', uuidv7_upper('9999-12-31 23:59:59.999+00')),
    ('v1 (RFC 9562 A.1)', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'),
    ('v6 (RFC 9562 B.1)', '1ec9414c-232a-6b00-b3c8-9f6bdeced846'),
    ('v3 (RFC 9562 A.2)', '5df41881-3aed-3515-88a7-2f4a814cf09e'),
    ('v5', '2ed6657d-e927-568b-95e1-2665a8aea6a2'),
    ('v8', '2489e9ad-2ee2-8e00-8ec9-32d5f69181c0'),
    ('hot slot 5', hot_uuid_make(42, '2024-05-31 12:00:00+00', '\xe76501', 5, 5)),
    ('hot pid 28800', hot_uuid_make(42, '2024-05-31 12:00:00+00', '\xe76501', 28800, 5)),
    ('hot 2010', hot_uuid_make(42, '2010-01-01 00:00:00+00', '\xe76501', 5, 5));

SELECT i.label, i.id, d.*
FROM ids i, locality_uuid_describe(i.id, '2024-06-01 12:00:00.123456+00') d
ORDER BY i.label, d.format;

-- The time of an id of any format: the row that gives it (none for a guess or no time).
SELECT i.label,
       (SELECT made_at FROM locality_uuid_describe(i.id, '2024-06-01 12:00:00.123456+00') WHERE id_time) AS id_time
FROM ids i ORDER BY i.label;

-- as_of moves the shard-key window: the hot id of 2010 is plausible from a day before it to ten years
-- of 365.25 days after it (its second + 315576000 s: 2020-01-01 12:00:00), not beyond.
SELECT d.as_of, array_agg(x.format ORDER BY x.format) AS formats
FROM (VALUES (timestamptz '2010-01-01 00:00:00+00' + interval '315576000 s'),
             (timestamptz '2010-01-01 00:00:01+00' + interval '315576000 s'),
             (timestamptz '2009-12-31 00:00:00+00'),
             (timestamptz '2009-12-30 23:59:59.999999+00')) AS d(as_of),
     locality_uuid_describe(hot_uuid_make(42, '2010-01-01 00:00:00+00', '\xe76501', 28800, 5), d.as_of) x
GROUP BY d.as_of ORDER BY d.as_of;

-- The default as_of is now(): an id of now reads as its format.
SELECT format, id_time FROM locality_uuid_describe(uuidv7_lower(now()));
SELECT format, made_at = date_trunc('second', now()) AS this_second, time_exact
FROM locality_uuid_describe(hot_uuid_make(7, now()));

-- NULL id: no row (STRICT); an infinite as_of: 22008.
SELECT count(*) FROM locality_uuid_describe(NULL);
SELECT pg_temp.try($$SELECT * FROM locality_uuid_describe('00000000-0000-0000-0000-000000000000', 'infinity')$$);
