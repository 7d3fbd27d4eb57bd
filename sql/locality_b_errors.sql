-- Bad input: each gives a clear error with its SQLSTATE.
SET timezone = 'UTC';

\i sql/include/helpers.psql

SELECT stmt, pg_temp.try(stmt) AS result FROM (VALUES
    ('SELECT locality_uuid_make(-1, 0, 0, now())'),
    ('SELECT locality_uuid_make(4294967296, 0, 0, now())'),
    ('SELECT locality_uuid_make(-9223372036854775808, 0, 0, now())'),
    ('SELECT locality_uuid_make(0, -1, 0, now())'),
    ('SELECT locality_uuid_make(0, 65536, 0, now())'),
    ('SELECT locality_uuid_make(0, 2147483647, 0, now())'),
    ('SELECT locality_uuid_make(0, 0, -1, now())'),
    ('SELECT locality_uuid_make(0, 0, 268435456, now())'),
    ('SELECT locality_uuid_make(0, 0, 0, ''1969-12-31 23:59:59.999+00'')'),
    ('SELECT locality_uuid_make(0, 0, 0, ''10889-08-02 05:31:50.656+00'')'),
    ('SELECT locality_uuid_make(0, 0, 0, ''infinity'')'),
    ('SELECT locality_uuid_make(0, 0, 0, ''-infinity'')'),
    ('SELECT locality_uuid(NULL)'),
    ('SET locality_uuid.counter_mode = ''spread'''),
    ('SET locality_uuid.node_id = -2'),
    ('SET locality_uuid.node_id = 268435456'),
    ('SET locality_uuid.process_field = ''tid''')
) AS t(stmt);

-- Details and hints.
\set VERBOSITY default
SELECT locality_uuid_make(0, 65536, 0, now());
SELECT locality_uuid_make(0, 0, 0, '1969-12-31 23:59:59.999+00');
SELECT locality_uuid(NULL);

-- Strict functions give NULL for NULL fields instead of an error.
SELECT locality_uuid_make(NULL, 0, 0, now()) IS NULL AS made_null;

-- Ordinary users cannot change the node id or the process field.
CREATE ROLE regress_locality_uuid_user;
SET ROLE regress_locality_uuid_user;
SELECT pg_temp.try('SET locality_uuid.node_id = 7') AS node_id,
       pg_temp.try('SET locality_uuid.process_field = pid') AS process_field,
       pg_temp.try('SET locality_uuid.counter_mode = sequential') AS counter_mode;
SELECT locality_uuid_version(locality_uuid()) AS can_generate;
RESET ROLE;
DROP ROLE regress_locality_uuid_user;
