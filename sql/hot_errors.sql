-- Bad input to the shard-key functions: each gives a clear error with its SQLSTATE.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

\i sql/include/helpers.psql

SELECT stmt, pg_temp.try(stmt) AS result FROM (VALUES
    ('SELECT hot_uuid(-1)'),
    ('SELECT hot_uuid(4294967296)'),
    ('SELECT hot_uuid(-9223372036854775808)'),
    ('SELECT hot_uuid(9223372036854775807)'),
    ('SELECT hot_uuid(4294967295)'),
    ('SELECT hot_uuid(0)'),
    ('SELECT hot_uuid(-1, now())'),
    ('SELECT hot_uuid(4294967296, now())'),
    ('SELECT hot_uuid(1, ''infinity'')'),
    ('SELECT hot_uuid(1, ''-infinity'')'),
    ('SELECT hot_uuid(1, ''4713-11-24 00:00:00+00 BC'')'),
    ('SELECT hot_uuid(1, ''294276-12-31 23:59:59+00'')'),
    ('SELECT hot_uuid_boundary(''infinity'')'),
    ('SELECT hot_uuid_boundary(''-infinity'')'),
    ('SELECT hot_uuid_make(-1, now())'),
    ('SELECT hot_uuid_make(4294967296, now())'),
    ('SELECT hot_uuid_make(0, ''infinity'')'),
    ('SELECT hot_uuid_make(0, now(), ''\x1122'')'),
    ('SELECT hot_uuid_make(0, now(), ''\x11223344'')'),
    ('SELECT hot_uuid_make(0, now(), ''\x'')'),
    ('SELECT hot_uuid_make(0, now(), process => -1)'),
    ('SELECT hot_uuid_make(0, now(), process => 65536)'),
    ('SELECT hot_uuid_make(0, now(), counter => -1)'),
    ('SELECT hot_uuid_make(0, now(), counter => 16777216)'),
    ('SELECT hot_uuid_make(0, now(), counter => 2147483647)'),
    ('SELECT hot_uuid(''208'')'),
    ('SELECT hot_uuid(1.5)'),
    ('SELECT hot_uuid(''1e10''::numeric)')
) AS t(stmt);

-- Details and hints.
\set VERBOSITY default
SELECT hot_uuid(-1);
SELECT hot_uuid(4294967296, '2022-02-06 00:00:00+00');
SELECT hot_uuid(1, 'infinity');
SELECT hot_uuid_make(0, '2022-02-06 00:00:00+00', '\x1122');
SELECT hot_uuid_make(0, '2022-02-06 00:00:00+00', counter => 16777216);
\set VERBOSITY terse

-- A signed 32-bit shard key maps as the hint says, the same number as C#'s (uint) cast.
SELECT k, k::bigint & 4294967295 AS shard_key,
       hot_uuid_shard_key(hot_uuid_make(k::bigint & 4294967295, '2022-02-06 00:00:00+00')) AS extracted
FROM unnest(ARRAY[-1, -2147483648, 2147483647, 0]) AS k;

-- Ordinary users can generate and extract, but cannot change the machine name.
CREATE ROLE regress_hot_uuid_user;
SET ROLE regress_hot_uuid_user;
SELECT pg_temp.try('SET locality_uuid.machine_name = ''spoof''') AS machine_name;
SELECT hot_uuid_shard_key(hot_uuid(208)) AS can_generate;
RESET ROLE;
DROP ROLE regress_hot_uuid_user;

-- An id at an explicit time draws its counter from a sequence (a range of them in the C
-- extension): a new backend is refused in a read-only transaction (and so on a standby),
-- while a clock id is made there.
\c -
\i sql/include/helpers.psql
BEGIN TRANSACTION READ ONLY;
SELECT left(pg_temp.try('SELECT hot_uuid(1, ''2020-01-01 00:00:00+00'')'), 5) AS explicit_time,
       pg_temp.try('SELECT hot_uuid(1)') AS clock;
ROLLBACK;
