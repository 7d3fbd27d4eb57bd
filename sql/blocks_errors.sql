-- Block generators: bad arguments (checked before nextval, SQLSTATE 22023 as sequential_uuids),
-- nextval's own errors, and its permission checks.

\i sql/include/helpers.psql

CREATE SEQUENCE errs;
CREATE TABLE not_a_sequence (x integer);
CREATE SEQUENCE short_seq MINVALUE 0 MAXVALUE 1 START 1;
SELECT uuid_sequence_nextval('short_seq') IS NOT NULL AS first_ok;

SELECT stmt, pg_temp.try(stmt) AS result FROM (VALUES
    ('SELECT uuid_sequence_nextval(''errs'', 0, 1)'),
    ('SELECT uuid_sequence_nextval(''errs'', -1, 1)'),
    ('SELECT uuid_sequence_nextval(''errs'', -2147483648, 0)'),
    ('SELECT uuid_sequence_nextval(''errs'', 1, 0)'),
    ('SELECT uuid_sequence_nextval(''errs'', 1, -1)'),
    ('SELECT uuid_sequence_nextval(''errs'', block_count => -2147483648)'),
    ('SELECT uuid_time_nextval(0)'),
    ('SELECT uuid_time_nextval(-1, 1)'),
    ('SELECT uuid_time_nextval(0, 0)'),
    ('SELECT uuid_time_nextval(60, 0)'),
    ('SELECT uuid_time_nextval(interval_count => -1)'),
    ('SELECT locality_uuid_block_layout(0, 1)'),
    ('SELECT locality_uuid_block_layout(1, 0)'),
    ('SELECT locality_uuid_block(gen_random_uuid(), 0)'),
    ('SELECT uuid_sequence_nextval(''no_such_sequence'')'),
    ('SELECT uuid_sequence_nextval(''not_a_sequence'')'),
    ('SELECT uuid_sequence_nextval(''short_seq'')')
) AS t(stmt);

-- None of the bad calls used a sequence value; NULL arguments give NULL without one either.
SELECT uuid_sequence_nextval('errs', NULL) IS NULL AS null_size,
       uuid_sequence_nextval('errs', 1, NULL) IS NULL AS null_count,
       uuid_sequence_nextval(NULL) IS NULL AS null_sequence,
       uuid_time_nextval(NULL::integer) IS NULL AS null_length;
SELECT last_value, is_called FROM errs;

-- A read-only transaction cannot advance a sequence, through us either.
BEGIN READ ONLY;
SELECT pg_temp.try('SELECT uuid_sequence_nextval(''errs'')') AS read_only;
ROLLBACK;

-- Permissions are nextval's: USAGE or UPDATE lets a role through, SELECT alone does not.
CREATE ROLE regress_blocks_user;
CREATE SEQUENCE priv_seq;
GRANT SELECT ON SEQUENCE priv_seq TO regress_blocks_user;
SET ROLE regress_blocks_user;
SELECT pg_temp.try('SELECT uuid_sequence_nextval(''priv_seq'')') AS select_only,
       pg_temp.try('SELECT uuid_sequence_nextval(''priv_seq'', 0, 1)') AS bad_args_first,
       pg_temp.try('SELECT uuid_time_nextval()') AS time_variant;
RESET ROLE;
GRANT USAGE ON SEQUENCE priv_seq TO regress_blocks_user;
SET ROLE regress_blocks_user;
SELECT pg_temp.try('SELECT uuid_sequence_nextval(''priv_seq'')') AS with_usage;
RESET ROLE;
REVOKE USAGE ON SEQUENCE priv_seq FROM regress_blocks_user;
GRANT UPDATE ON SEQUENCE priv_seq TO regress_blocks_user;
SET ROLE regress_blocks_user;
SELECT pg_temp.try('SELECT uuid_sequence_nextval(''priv_seq'')') AS with_update;
RESET ROLE;
SELECT last_value FROM priv_seq;

-- The error as psql shows it.
\set VERBOSITY default
SELECT uuid_sequence_nextval('errs', 0, 1);
SELECT uuid_time_nextval(60, 0);
REVOKE UPDATE ON SEQUENCE priv_seq FROM regress_blocks_user;
SET ROLE regress_blocks_user;
SELECT uuid_sequence_nextval('priv_seq');
RESET ROLE;

DROP SEQUENCE priv_seq;
DROP ROLE regress_blocks_user;
DROP TABLE not_a_sequence;
DROP SEQUENCE errs, short_seq;
