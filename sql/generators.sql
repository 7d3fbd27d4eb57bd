-- C edition only (the portable suite leaves this file out).
-- What the generators are doing (locality_uuid_generators): its columns, its rows of this
-- database, its thresholds and its privileges. The figures moved: test/t/270_generators.pl.
SET timezone = 'UTC';
\i sql/include/helpers.psql

-- The columns, in the words and units a DBA reads.
SELECT n AS column_name, format_type(t, NULL) AS type
FROM pg_proc p, unnest(p.proargnames, p.proallargtypes::oid[], p.proargmodes::text[]) AS a(n, t, m)
WHERE p.oid = 'locality_uuid_generators(double precision, double precision)'::regprocedure AND m = 'o';

-- This database's rows: one per generator, then the worst share; the allocation numbers of the
-- explicit-time ids (41 and 39 bits) add up; calls are there where the state is shared. The
-- continued run's row has its resource and share only where this database's run is in shared
-- state (17 on, or 15 preloaded, once an earlier file made locality_uuid(true) ids): shown as
-- whether a resource comes with a share.
SELECT generator, CASE WHEN allocation_numbers_limit IS NOT NULL THEN resource END AS allocation_resource,
       resource IS NULL OR share_used IS NOT NULL AS resource_with_share,
       allocation_numbers_limit AS limit_,
       allocation_numbers_used + allocation_numbers_left = allocation_numbers_limit AS adds_up,
       share_used = allocation_numbers_used::float8 / allocation_numbers_limit AS share_is_used_by_limit,
       (calls_since_start IS NOT NULL) = (locality_uuid_state() <> 'backend') AS calls_where_shared,
       status IS NOT NULL = (share_used IS NOT NULL) AS status_with_share
FROM locality_uuid_generators()
WHERE database = current_database() AND generator <> 'worst share';

-- The worst-share row comes last and holds the largest share of the rows before it.
SELECT w.generator, w.share_used = (SELECT max(share_used) FROM locality_uuid_generators() WHERE generator <> 'worst share') AS is_max,
       w.resource IS NOT NULL AS names_its_resource
FROM (SELECT g.*, row_number() OVER () AS n, count(*) OVER () AS rows FROM locality_uuid_generators() g) w
WHERE w.n = w.rows;

-- The status by the thresholds: check_postgres's 0.85 and 0.95 by default; a share at a
-- threshold has its status.
SELECT generator, status FROM locality_uuid_generators(0, 1)
WHERE database = current_database() AND generator LIKE '%at)';
SELECT count(*) FILTER (WHERE status = 'critical') = count(status) AS all_critical
FROM locality_uuid_generators(0, 0);
SELECT count(*) FILTER (WHERE status = 'ok') = count(status) AS all_ok_below_one
FROM locality_uuid_generators(1, 1) WHERE share_used < 1;

-- Bad thresholds: 22004 for NULL, 22023 outside 0 .. 1, for NaN, and for warning above critical.
SELECT pg_temp.try('SELECT count(*) FROM locality_uuid_generators(NULL)');
SELECT pg_temp.try('SELECT count(*) FROM locality_uuid_generators(0.85, NULL)');
SELECT pg_temp.try('SELECT count(*) FROM locality_uuid_generators(-0.1)');
SELECT pg_temp.try('SELECT count(*) FROM locality_uuid_generators(0.85, 1.5)');
SELECT pg_temp.try('SELECT count(*) FROM locality_uuid_generators(''NaN'')');
SELECT pg_temp.try('SELECT count(*) FROM locality_uuid_generators(0.95, 0.85)');

-- A sequence is locked (AccessShareLock) only while it is read: the transaction holds no lock on
-- one after, so ALTER SEQUENCE never waits for a monitoring transaction.
BEGIN;
SELECT count(*) > 0 AS has_rows FROM locality_uuid_generators();
SELECT count(*) AS sequence_locks
FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
WHERE l.pid = pg_backend_pid() AND c.relkind = 'S';
COMMIT;

-- A member sequence missing (renamed here, in this transaction): its row's figures are NULL and
-- it says why, status unknown; so is the worst share, none being critical; never an error.
BEGIN;
ALTER SEQUENCE locality_uuid_hot_allocation RENAME TO hot_allocation_renamed;
SELECT generator, allocation_numbers_used AS used, allocation_numbers_limit AS limit_, share_used, resource, status
FROM locality_uuid_generators()
WHERE generator IN ('hot_uuid(shard_key, at)', 'worst share') AND database = current_database();
ROLLBACK;
SELECT status FROM locality_uuid_generators()
WHERE database = current_database() AND generator = 'hot_uuid(shard_key, at)';

-- The next nextval as the generator takes it (the sequence's increment, bounds, is_called): a
-- negative one, one past the limit by the increment, or none (a bound without CYCLE) fails the
-- calls, and uses every number: share 1, critical. The sequences are set back after each.
SELECT last_value AS hot_last, is_called AS hot_called FROM locality_uuid_hot_allocation \gset
SELECT last_value AS v7_last, is_called AS v7_called FROM locality_uuid_v7_allocation \gset
CREATE TEMP VIEW allocation_row AS
SELECT generator, allocation_numbers_used AS used, allocation_numbers_left AS left_, share_used, resource, status
FROM locality_uuid_generators()
WHERE generator IN ('hot_uuid(shard_key, at)', 'uuidv7_ordered(at)') AND database = current_database();
BEGIN;
ALTER SEQUENCE locality_uuid_hot_allocation MINVALUE -100;
SELECT setval('locality_uuid_hot_allocation', -5, false);
SELECT * FROM allocation_row WHERE generator = 'hot_uuid(shard_key, at)';
SELECT pg_temp.try($$SELECT hot_uuid(1, now() - interval '1 hour')$$);
ROLLBACK;
BEGIN;
ALTER SEQUENCE locality_uuid_hot_allocation INCREMENT 1000000000;
SELECT setval('locality_uuid_hot_allocation', 2000000000, true);
SELECT * FROM allocation_row WHERE generator = 'hot_uuid(shard_key, at)';
SELECT pg_temp.try($$SELECT hot_uuid(1, now() - interval '1 hour')$$);
ROLLBACK;
BEGIN;
ALTER SEQUENCE locality_uuid_v7_allocation INCREMENT 1000000000;
SELECT setval('locality_uuid_v7_allocation', 8000000000, true);
SELECT * FROM allocation_row WHERE generator = 'uuidv7_ordered(at)';
ROLLBACK;
BEGIN;
ALTER SEQUENCE locality_uuid_v7_allocation MAXVALUE 10;
SELECT setval('locality_uuid_v7_allocation', 10, true);
SELECT * FROM allocation_row WHERE generator = 'uuidv7_ordered(at)';
SELECT pg_temp.try($$SELECT uuidv7_ordered(now() - interval '1 hour')$$);
ROLLBACK;
SELECT setval('locality_uuid_hot_allocation', :hot_last, :'hot_called') IS NOT NULL AS hot_set_back,
       setval('locality_uuid_v7_allocation', :v7_last, :'v7_called') IS NOT NULL AS v7_set_back;
SELECT generator, status FROM allocation_row;
DROP VIEW allocation_row;

-- Granted to pg_monitor, not to PUBLIC: it shows every database's calls and runs.
SELECT r AS role, has_function_privilege(r, 'locality_uuid_generators(double precision, double precision)', 'EXECUTE') AS may_execute
FROM unnest(ARRAY['pg_monitor', 'public']) AS r;
SELECT obj_description('locality_uuid_generators(double precision, double precision)'::regprocedure, 'pg_proc') LIKE 'what the generators are doing%' AS commented;
