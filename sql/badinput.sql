-- Bad input matrix: every function against NULL, zero, negative, just-out-of-range and
-- extreme values. Each call gives a correct value or an error with its SQLSTATE.
SET timezone = 'UTC';
-- A hang shows up as a 57014 diff instead of a stuck test run.
SET statement_timeout = '20s';

\i sql/include/helpers.psql

-- Set locality_uuid.node_id for this transaction, then return the node of a new id.
CREATE FUNCTION pg_temp.node_of_new_id(node int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('locality_uuid.node_id', node::text, true);
    IF current_setting('locality_uuid.node_id') = '-1' THEN
        RETURN 'from the MAC';
    END IF;
    RETURN locality_uuid_node(locality_uuid())::text;
END
$$;

-- Set locality_uuid.machine_name for this transaction, then check the machine hash of a new
-- hot_uuid against MD5 of the name.
CREATE FUNCTION pg_temp.machine_of_new_id(name text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('locality_uuid.machine_name', name, true);
    IF current_setting('locality_uuid.machine_name') = '' THEN
        RETURN 'from the host name';
    END IF;
    RETURN (hot_uuid_machine(hot_uuid(1)) = substr(decode(md5(name), 'hex'), 1, 3))::text;
END
$$;

-- Values per argument type, in the order they are shown. NULL is the SQL null.
CREATE TEMP TABLE val (type text, n int, v text);
INSERT INTO val VALUES
    ('bigint', 1, NULL), ('bigint', 2, '0'), ('bigint', 3, '-1'), ('bigint', 4, '4294967295'),
    ('bigint', 5, '4294967296'), ('bigint', 6, '2147483647'), ('bigint', 7, '-2147483648'),
    ('bigint', 8, '9223372036854775807'), ('bigint', 9, '-9223372036854775808'),
    ('integer', 1, NULL), ('integer', 2, '0'), ('integer', 3, '-1'), ('integer', 4, '1'),
    ('integer', 5, '65535'), ('integer', 6, '65536'), ('integer', 7, '268435455'),
    ('integer', 8, '268435456'), ('integer', 9, '2147483647'), ('integer', 10, '-2147483648'),
    ('boolean', 1, NULL), ('boolean', 2, 'true'), ('boolean', 3, 'false'),
    ('timestamptz', 1, NULL), ('timestamptz', 2, 'infinity'), ('timestamptz', 3, '-infinity'),
    ('timestamptz', 4, '4714-11-24 00:00:00+00 BC'), ('timestamptz', 5, '1969-12-31 23:59:59.999+00'),
    ('timestamptz', 6, '1969-12-31 23:59:59.9995+00'), ('timestamptz', 7, '1970-01-01 00:00:00+00'),
    ('timestamptz', 8, '1970-01-01 00:00:00.0009+00'), ('timestamptz', 9, '2038-01-19 03:14:08+00'),
    ('timestamptz', 10, '10889-08-02 05:31:50.655999+00'), ('timestamptz', 11, '10889-08-02 05:31:50.656+00'),
    ('timestamptz', 12, '294276-12-31 23:59:59.999999+00'),
    ('uuid', 1, NULL), ('uuid', 2, '00000000-0000-0000-0000-000000000000'),
    ('uuid', 3, 'ffffffff-ffff-ffff-ffff-ffffffffffff'), ('uuid', 4, 'ffffffff-ffff-bfff-ffff-ffffffffffff'),
    ('uuid', 5, '00000000-0000-b000-0000-000000000000'), ('uuid', 6, '20be0ffc-314a-bd53-7a50-013a65ca76d2'),
    ('uuid', 7, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), ('uuid', 8, '01890a5d-ac96-774b-bcce-b302099a8057'),
    ('text', 1, NULL), ('text', 2, ''), ('text', 3, 'sequential'), ('text', 4, 'SEQUENTIAL'),
    ('text', 5, 'sequential '), ('text', 6, '-1'), ('text', 7, '268435455'), ('text', 8, '268435456'),
    ('text', 9, '2147483648'), ('text', 10, '1e3'), ('text', 11, 'pid'),
    ('regclass', 1, NULL), ('regclass', 2, 'bad_seq'), ('regclass', 3, 'no_such_seq'),
    ('regclass', 4, 'bad_tab'), ('regclass', 5, 'bad_seq_full'),
    ('bytea', 1, NULL), ('bytea', 2, '\x'), ('bytea', 3, '\x11'), ('bytea', 4, '\x112233'),
    ('bytea', 5, '\x11223344');

-- Objects for the block generators: a sequence to set anywhere in bigint, a table, and a
-- sequence at its end.
CREATE SEQUENCE bad_seq MINVALUE -9223372036854775808;
CREATE TABLE bad_tab (x int);
CREATE SEQUENCE bad_seq_full MINVALUE 0 MAXVALUE 1 START 1;
SELECT nextval('bad_seq_full');

-- Set bad_seq so that nextval returns v + 1 (the id is made from v), then return the block of
-- uuid_sequence_nextval(bad_seq, s, c).
CREATE FUNCTION pg_temp.seq_block(v bigint, s int, c int) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    PERFORM setval('bad_seq', v);
    RETURN locality_uuid_block(uuid_sequence_nextval('bad_seq', s, c), c);
END
$$;

-- Calls: %s is replaced by each value of the type, cast to it. Generators are shown through
-- an extractor, since their ids are random; the sequence variant from a known sequence value.
CREATE TEMP TABLE call (n int, type text, template text);
INSERT INTO call VALUES
    (1, 'boolean', 'SELECT locality_uuid_version(locality_uuid(%s))'),
    (2, 'bigint', 'SELECT locality_uuid_make(%s, 1, 2, ''2020-01-01+00'')'),
    (3, 'integer', 'SELECT locality_uuid_make(1, %s, 2, ''2020-01-01+00'')'),
    (4, 'integer', 'SELECT locality_uuid_make(1, 2, %s, ''2020-01-01+00'')'),
    (5, 'timestamptz', 'SELECT locality_uuid_make(1, 2, 3, %s)'),
    (6, 'boolean', 'SELECT locality_uuid_make(305419896, 2, 3, ''2020-01-01+00'', %s)'),
    (7, 'timestamptz', 'SELECT locality_uuid_timestamp(locality_uuid_make(1, 2, 3, %s))'),
    (8, 'uuid', 'SELECT locality_uuid_timestamp(%s)'),
    (9, 'uuid', 'SELECT locality_uuid_pid(%s)'),
    (10, 'uuid', 'SELECT locality_uuid_mac(%s)'),
    (11, 'uuid', 'SELECT locality_uuid_node(%s)'),
    (12, 'uuid', 'SELECT locality_uuid_counter(%s)'),
    (13, 'uuid', 'SELECT locality_uuid_counter(%s, true)'),
    (14, 'boolean', 'SELECT locality_uuid_counter(''20be0ffc-314a-bd53-7a50-013a65ca76d2'', %s)'),
    (15, 'uuid', 'SELECT locality_uuid_version(%s)'),
    (16, 'integer', 'SELECT set_config(''locality_uuid.node_id'', %s::text, true)'),
    (17, 'text', 'SELECT set_config(''locality_uuid.node_id'', %s, true)'),
    (18, 'text', 'SELECT set_config(''locality_uuid.counter_mode'', %s, true)'),
    (19, 'text', 'SELECT set_config(''locality_uuid.process_field'', %s, true)'),
    (20, 'integer', 'SELECT pg_temp.node_of_new_id(%s)'),
    (30, 'integer', 'SELECT pg_temp.seq_block(1000000, %s, 65536)'),
    (31, 'integer', 'SELECT pg_temp.seq_block(1000000, 100, %s)'),
    (32, 'bigint', 'SELECT pg_temp.seq_block(%s, 100, 65536)'),
    (33, 'regclass', 'SELECT locality_uuid_version(uuid_sequence_nextval(%s))'),
    (34, 'integer', 'SELECT locality_uuid_version(uuid_time_nextval(%s, 65536))'),
    (35, 'integer', 'SELECT locality_uuid_version(uuid_time_nextval(60, %s))'),
    (36, 'integer', 'SELECT locality_uuid_block_layout(%s, 65536)'),
    (37, 'integer', 'SELECT locality_uuid_block_layout(65536, %s)'),
    (38, 'integer', 'SELECT locality_uuid_block(''fedcba98-7654-4321-8fed-cba987654321'', %s)'),
    (39, 'uuid', 'SELECT locality_uuid_block(%s)'),
    (40, 'bigint', 'SELECT hot_uuid_shard_key(hot_uuid(%s))'),
    (41, 'bigint', 'SELECT right(hot_uuid(%s, ''2022-02-06+00'')::text, 8)'),
    (42, 'timestamptz', 'SELECT hot_uuid_timestamp(hot_uuid(7, %s))'),
    (43, 'timestamptz', 'SELECT hot_uuid_boundary(%s)'),
    (44, 'bigint', 'SELECT hot_uuid_make(%s, ''2022-02-06+00'', ''\x112233'', 17493, 658188)'),
    (45, 'timestamptz', 'SELECT hot_uuid_make(208, %s, ''\x112233'', 17493, 658188)'),
    (46, 'bytea', 'SELECT hot_uuid_make(208, ''2022-02-06+00'', %s, 17493, 658188)'),
    (47, 'integer', 'SELECT hot_uuid_make(208, ''2022-02-06+00'', ''\x112233'', %s, 658188)'),
    (48, 'integer', 'SELECT hot_uuid_make(208, ''2022-02-06+00'', ''\x112233'', 17493, %s)'),
    (49, 'uuid', 'SELECT hot_uuid_shard_key(%s)'),
    (50, 'uuid', 'SELECT hot_uuid_timestamp(%s)'),
    (51, 'uuid', 'SELECT hot_uuid_machine(%s)'),
    (52, 'uuid', 'SELECT hot_uuid_process(%s)'),
    (53, 'uuid', 'SELECT hot_uuid_counter(%s)'),
    (54, 'text', 'SELECT pg_temp.machine_of_new_id(%s)');

-- Calls run in this order; a setting made by set_config(..., true) lasts until the end of
-- this statement's transaction.
SELECT template AS call, value, pg_temp.try(stmt, true) AS result
FROM (SELECT replace(c.template, '%s', '?') AS template, coalesce(v.v, 'NULL') AS value,
             format(c.template, CASE WHEN v.v IS NULL THEN 'NULL::' || v.type
                                     ELSE format('%L::%s', v.v, v.type) END) AS stmt
      FROM call c JOIN val v USING (type)
      ORDER BY c.n, v.n OFFSET 0) s;

-- The settings are as they were.
SELECT name, setting FROM pg_settings WHERE name LIKE 'locality_uuid.%' ORDER BY name;

-- Long statements stop: statement_timeout cancels a long generate with 57014.
\set VERBOSITY sqlstate
SET statement_timeout = '200ms';
SELECT count(locality_uuid()) FROM generate_series(1, 100000) a, generate_series(1, 100000) b;
SELECT count(locality_uuid(true)) FROM generate_series(1, 100000) a, generate_series(1, 100000) b;
SELECT count(locality_uuid_timestamp(locality_uuid_make(a, 0, 0, now())))
FROM generate_series(1, 100000) a, generate_series(1, 100000) b;
SELECT count(uuid_time_nextval(1, 2147483647)) FROM generate_series(1, 100000) a, generate_series(1, 100000) b;
SELECT count(uuid_sequence_nextval('bad_seq', 2147483647, 2147483647))
FROM generate_series(1, 100000) a, generate_series(1, 100000) b;
SELECT count(hot_uuid(4294967295)) FROM generate_series(1, 100000) a, generate_series(1, 100000) b;
SELECT count(hot_uuid(0, '2022-02-06+00')) FROM generate_series(1, 100000) a, generate_series(1, 100000) b;
RESET statement_timeout;
\set VERBOSITY default
SELECT locality_uuid_version(locality_uuid()) AS still_works;
