-- Generators of the portable edition: identity from settings, session state in temporary
-- sequences that a rollback does not rewind, SET ROLE, read-only transactions.
SET timezone = 'UTC';
\set VERBOSITY sqlstate

-- A fresh session: the first id makes the state; in a read-only transaction it cannot.
\c -
BEGIN READ ONLY;
SELECT locality_uuid();
ROLLBACK;
SELECT count(*) AS state_sequences FROM pg_class
WHERE relnamespace = pg_my_temp_schema() AND relname LIKE 'locality_uuid_portable_%';

-- A rolled-back first id takes its state with it; the next id makes it anew.
BEGIN;
SELECT locality_uuid_version(locality_uuid()) AS version;
ROLLBACK;
SELECT count(*) AS state_sequences FROM pg_class
WHERE relnamespace = pg_my_temp_schema() AND relname LIKE 'locality_uuid_portable_%';
SELECT locality_uuid_version(locality_uuid()) AS version;
SELECT count(*) AS state_sequences FROM pg_class
WHERE relnamespace = pg_my_temp_schema() AND relname LIKE 'locality_uuid_portable_%';
-- Once made, the state serves read-only transactions too.
BEGIN READ ONLY;
SELECT locality_uuid_version(locality_uuid()) AS read_only, hot_uuid_shard_key(hot_uuid(1)) AS hot;
ROLLBACK;

-- Identity: the process field is the pid mod 65536; node and machine hash default to the
-- cluster's system identifier, and follow locality_uuid.node_id and locality_uuid.machine_name.
SELECT locality_uuid_pid(locality_uuid()) = pg_backend_pid() % 65536 AS locality_pid,
       hot_uuid_process(hot_uuid(1)) = pg_backend_pid() % 65536 AS hot_pid,
       locality_uuid_node(locality_uuid(true)) = (SELECT system_identifier % 268435456 FROM pg_control_system())
           AS default_node,
       hot_uuid_machine(hot_uuid(1)) = (SELECT substring(decode(md5(system_identifier::text), 'hex') FOR 3)
                                        FROM pg_control_system()) AS default_machine;
SET locality_uuid.node_id = 123456789;
SET locality_uuid.machine_name = 'db-eu-1';
SELECT locality_uuid_node(locality_uuid()) AS node, locality_uuid_mac(locality_uuid(true)) AS mac,
       hot_uuid_machine(hot_uuid(1)) = substring(decode(md5('db-eu-1'), 'hex') FOR 3) AS machine;
SET locality_uuid.node_id = -1;
SELECT locality_uuid_node(locality_uuid()) = (SELECT system_identifier % 268435456 FROM pg_control_system())
    AS minus_one_is_default;
-- Bad settings are errors at the next id (SET cannot check them without the C module).
SET locality_uuid.node_id = 268435456;
SELECT locality_uuid();
SET locality_uuid.node_id = 'x';
SELECT locality_uuid();
RESET locality_uuid.node_id;
SET locality_uuid.counter_mode = 'spread';
SELECT locality_uuid();
SELECT locality_uuid_version(locality_uuid(false)) AS explicit_mode_still_works;
SET locality_uuid.counter_mode = 'SEQUENTIAL';
SELECT locality_uuid_counter(locality_uuid(), true) - locality_uuid_counter(locality_uuid(true), true) AS sequential_step;
RESET locality_uuid.counter_mode;
RESET locality_uuid.machine_name;

-- A rollback does not rewind the counters: ids made in a rolled-back transaction are never made again.
CREATE TEMP TABLE last_ids (k text, u uuid);
INSERT INTO last_ids VALUES ('v', locality_uuid(false)), ('s', locality_uuid(true));
BEGIN;
SELECT count(locality_uuid(false)) + count(locality_uuid(true)) AS rolled_back FROM generate_series(1, 10);
ROLLBACK;
SELECT (locality_uuid_counter(locality_uuid(false)) - (SELECT locality_uuid_counter(u) FROM last_ids WHERE k = 'v')
        + 4294967296) % 4294967296 = 11 * 198491317::bigint % 4294967296 AS variable_went_on,
       locality_uuid_counter(locality_uuid(true), true) - (SELECT locality_uuid_counter(u, true) FROM last_ids WHERE k = 's')
           AS sequential_went_on;

-- One session, several roles: SET ROLE goes on with the same counters, and the role can be dropped.
CREATE ROLE regress_portable_user;
DELETE FROM last_ids;
INSERT INTO last_ids VALUES ('v', locality_uuid(false)), ('s', locality_uuid(true));
GRANT SELECT ON last_ids TO regress_portable_user;
SET ROLE regress_portable_user;
SELECT (locality_uuid_counter(locality_uuid(false)) - (SELECT locality_uuid_counter(u) FROM last_ids WHERE k = 'v')
        + 4294967296) % 4294967296 = 198491317 AS variable_next,
       locality_uuid_counter(locality_uuid(true), true) - (SELECT locality_uuid_counter(u, true) FROM last_ids WHERE k = 's')
           AS sequential_next,
       hot_uuid_shard_key(hot_uuid(7)) AS hot;
-- Ordinary users may set these settings here (the C module makes them superuser-only).
SET locality_uuid.node_id = 7;
SELECT locality_uuid_node(locality_uuid()) AS node_set_by_user;
RESET locality_uuid.node_id;
RESET ROLE;
REVOKE SELECT ON last_ids FROM regress_portable_user;
DROP ROLE regress_portable_user;

-- Sequential mode follows the seed rule across many ids in one bucket, and ids are distinct
-- across both modes and hot_uuid in one session.
SELECT count(*) AS ids, count(DISTINCT v) + count(DISTINCT s) + count(DISTINCT h) AS distinct_ids,
       bool_and(locality_uuid_version(v) = 'b' AND locality_uuid_version(s) = 'b') AS version_b
FROM (SELECT locality_uuid(false) AS v, locality_uuid(true) AS s, hot_uuid(g) AS h
      FROM generate_series(1, 20000) g) t;

-- The clock: a session's hot_uuid ticks and locality_uuid milliseconds never go back.
CREATE TEMP TABLE clock_ids AS
SELECT n, hot_uuid(1) AS h, locality_uuid(true) AS s FROM generate_series(1, 5000) n;
SELECT count(*) AS pairs, count(*) FILTER (WHERE a.h < b.h) AS hot_ascending,
       count(*) FILTER (WHERE locality_uuid_timestamp(a.s) <= locality_uuid_timestamp(b.s)) AS ms_not_back
FROM clock_ids a JOIN clock_ids b ON b.n = a.n + 1;

-- Extractors in DDL, as parallel.sql does for the extension (not run here: it runs generators
-- in parallel workers): generated column, CHECK, expression index, partition key.
CREATE TABLE ddl_t (
    id uuid NOT NULL DEFAULT locality_uuid(),
    created timestamptz GENERATED ALWAYS AS (locality_uuid_timestamp(id)) STORED,
    CONSTRAINT ddl_t_is_locality CHECK (locality_uuid_version(id) = 'b')
) PARTITION BY RANGE (locality_uuid_timestamp(id));
CREATE TABLE ddl_t_old PARTITION OF ddl_t FOR VALUES FROM (MINVALUE) TO ('2000-01-01+00');
CREATE TABLE ddl_t_new PARTITION OF ddl_t FOR VALUES FROM ('2000-01-01+00') TO (MAXVALUE);
CREATE UNIQUE INDEX ddl_t_old_id ON ddl_t_old (id);
CREATE UNIQUE INDEX ddl_t_new_id ON ddl_t_new (id);
CREATE INDEX ddl_t_pid ON ddl_t (locality_uuid_pid(id)) WHERE locality_uuid_node(id) > 0;
INSERT INTO ddl_t (id)
SELECT locality_uuid_make(g, g % 7, 1 + g % 3, '1999-12-31 23:59:59.990+00'::timestamptz + g * interval '1 millisecond')
FROM generate_series(1, 20) g;
INSERT INTO ddl_t SELECT FROM generate_series(1, 100);
SELECT tableoid::regclass AS partition, count(*),
       count(*) FILTER (WHERE created = locality_uuid_timestamp(id)) AS generated_ok
FROM ddl_t GROUP BY 1 ORDER BY 1;
SET enable_seqscan = off;
SELECT count(*) AS by_index FROM ddl_t
WHERE locality_uuid_pid(id) = 3 AND locality_uuid_node(id) > 0 AND created < '2000-01-01 00:00:01+00';
RESET enable_seqscan;
INSERT INTO ddl_t (id) VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
DROP TABLE ddl_t;

-- uuid_time_nextval_interval: each id carries the block of a clock reading taken
-- between the readings before and after it (blocks of 250 ms, 24-bit prefixes; blocks_interval
-- is not run here: its advice queries print the session's temporary schema).
CREATE TEMP TABLE time_ids AS
SELECT n, clock_timestamp() AS t0, uuid_time_nextval_interval('250 ms', 16777216) AS u, clock_timestamp() AS t1
FROM generate_series(1, 2000) n;
SELECT count(*) AS ids, count(DISTINCT u) AS distinct_ids,
       count(*) FILTER (WHERE (locality_uuid_block(u, 16777216) - b0 + 16777216) % 16777216
                              <= (b1 - b0 + 16777216) % 16777216) AS block_of_the_clock,
       count(*) FILTER (WHERE uuid_time_block_start(u, '250 ms'::interval, 16777216, t1)
                              BETWEEN date_trunc('second', t0) - interval '1 s' AND t1) AS block_start_at_the_clock
FROM (SELECT u, t1, t0, floor(extract(epoch FROM t0) * 4)::bigint % 16777216 AS b0,
             floor(extract(epoch FROM t1) * 4)::bigint % 16777216 AS b1
      FROM time_ids) s;

-- sequential_uuids' call forms of uuid_time_nextval find the integer form alone: untyped
-- literals, NULL, named arguments and a prepared statement's parameters of unknown type.
SELECT locality_uuid_version(uuid_time_nextval('60')) AS untyped,
       uuid_time_nextval(NULL) IS NULL AS null_is_null,
       locality_uuid_version(uuid_time_nextval('60', '65536')) AS two_untyped,
       locality_uuid_version(uuid_time_nextval(interval_length => '60', interval_count => '256')) AS named;
PREPARE time_unknown AS SELECT locality_uuid_version(uuid_time_nextval($1, $2)) AS prepared;
EXECUTE time_unknown('60', '65536');
DEALLOCATE time_unknown;
