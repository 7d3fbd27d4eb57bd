# Update 1.1 -> 1.2 renames uuid_time_nextval(interval, integer) to uuid_time_nextval_interval.
# What was built on the old name keeps working: a column DEFAULT and a view that call it refer to
# the function by OID, so after ALTER EXTENSION UPDATE they go on making ids, and show the new
# name (\d, pg_get_expr, pg_get_viewdef); pg_dump of the table restores into a fresh
# database of the default version (a fresh CREATE EXTENSION runs 1.0, then every update
# script).
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = extension_node('update_1_2', extension => 0);
my $q = sub { $node->safe_psql('upd', @_) };
$node->safe_psql('postgres', 'CREATE DATABASE upd');
$q->(q{CREATE EXTENSION locality_uuid VERSION '1.1'});

# 1.1: a table whose default is the interval form, a view calling it, a row made before.
$q->(<<'SQL');
SET TimeZone = 'UTC';
CREATE TABLE ticks (id uuid PRIMARY KEY DEFAULT uuid_time_nextval('10 ms'::interval),
                    n integer NOT NULL, made timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE VIEW next_tick AS SELECT uuid_time_nextval('10 ms'::interval, 256) AS id;
INSERT INTO ticks (n) VALUES (0);
SQL
my $oid = $q->(q{SELECT 'uuid_time_nextval(interval,integer)'::regprocedure::oid});
is($q->(q{SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'ticks'::regclass AND adnum = 1}),
	q{uuid_time_nextval('00:00:00.01'::interval)}, '1.1: the default calls uuid_time_nextval(interval)');

$q->(q{ALTER EXTENSION locality_uuid UPDATE TO '1.2'});
is($q->(q{SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'}), '1.2', 'updated to 1.2');

# The same function under its new name: OID, labels, argument names, a comment of its own.
is( $q->(
		q{SELECT p.oid || ' ' || p.oid::regprocedure || ' ' || p.provolatile::text || p.proparallel::text || p.proisstrict::text
		    || ' ' || p.proargnames::text || ' ' || (obj_description(p.oid, 'pg_proc') LIKE 'new version 4 uuid%')
		  FROM pg_proc p WHERE p.proname = 'uuid_time_nextval_interval'}),
	"$oid uuid_time_nextval_interval(interval,integer) vstrue {interval_length,interval_count} true",
	'the interval form is uuid_time_nextval_interval: same OID, labels and argument names, commented');
is( $q->(q{SELECT string_agg(oid::regprocedure::text, ', ') FROM pg_proc WHERE proname = 'uuid_time_nextval'}),
	'uuid_time_nextval(integer,integer)', 'uuid_time_nextval keeps only the integer form');

# The default and the view go on: rows inserted after the update get ids of 10 ms blocks of
# the clock read beside them (this block, or the next one if the clock moved in between).
$q->('INSERT INTO ticks (n) SELECT g FROM generate_series(1, 1000) g');
is( $q->(
		q{SELECT count(*) || ' rows, ' || count(DISTINCT id) || ' ids, '
		    || count(*) FILTER (WHERE locality_uuid_version(id) = '4'
		        AND (locality_uuid_block(id) - floor(extract(epoch FROM made) * 100)::bigint % 65536 + 65536) % 65536
		            IN (0, 65535)) || ' of the clock'
		  FROM ticks WHERE n > 0}),
	'1000 rows, 1000 ids, 1000 of the clock',
	'after the update the column default makes ids of 10 ms blocks');
is($q->(q{SELECT locality_uuid_version(id) FROM next_tick}), '4', 'after the update the view makes ids');
is($q->(q{SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'ticks'::regclass AND adnum = 1}),
	q{uuid_time_nextval_interval('00:00:00.01'::interval)}, 'pg_get_expr shows the default under the new name');
like($q->(q{SELECT pg_get_viewdef('next_tick')}), qr/uuid_time_nextval_interval\('00:00:00\.01'::interval, 256\)/,
	'pg_get_viewdef shows the view under the new name');
my $describe;
$node->psql('upd', '\d ticks', stdout => \$describe);
like($describe, qr/^id\|uuid\|\|not null\|uuid_time_nextval_interval\('00:00:00\.01'::interval\)$/m,
	'\d shows the default under the new name');

# The call forms of sequential_uuids 1.0.3 that 1.1 found ambiguous (42725) work after the update;
# the old name with an interval is gone (42883), the new one takes untyped literals.
my ($got, $states) = psql_states($node, 'upd', <<'SQL');
SELECT locality_uuid_version(uuid_time_nextval('60'));
SELECT uuid_time_nextval(NULL) IS NULL;
SELECT locality_uuid_version(uuid_time_nextval('1', '256'));
SELECT uuid_time_nextval('10 ms'::interval);
SELECT locality_uuid_version(uuid_time_nextval_interval('10 ms'));
SQL
is("$got|$states", "4\nt\n4\n4|ERROR:  42883", 'untyped calls resolve to uuid_time_nextval; the interval goes to the new name');

# pg_dump of the table restores into a fresh database, and its default works there.
my $dump = $node->basedir . '/ticks.sql';
my ($dout, $derr);
IPC::Run::run([ 'pg_dump', '-t', 'ticks', '-f', $dump, '-d', $node->connstr('upd') ], '>', \$dout, '2>', \$derr)
  or die "pg_dump failed: $derr";
like(slurp_file($dump), qr/DEFAULT public\.uuid_time_nextval_interval\('00:00:00\.01'::interval\)/,
	'the dump calls the default by its new name');
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('fresh', 'CREATE EXTENSION locality_uuid');
is($node->safe_psql('fresh', q{SELECT extversion = default_version FROM pg_extension JOIN pg_available_extensions ON name = extname WHERE extname = 'locality_uuid'}), 't',
	'a fresh CREATE EXTENSION installs the default version (1.0 and the update scripts)');
my ($rc, $rout, $rerr) = (0, '', '');
$rc = $node->psql('fresh', undef, extra_params => [ '-v', 'ON_ERROR_STOP=1', '-f', $dump ],
	stdout => \$rout, stderr => \$rerr);
is($rc, 0, 'the dump restores into the fresh database') or diag $rerr;
$node->safe_psql('fresh', 'INSERT INTO ticks (n) VALUES (1001)');
is( $node->safe_psql(
		'fresh',
		q{SELECT count(*) || ' rows, ' || count(DISTINCT id) || ' ids, '
		    || count(*) FILTER (WHERE locality_uuid_version(id) = '4') || ' version 4' FROM ticks}),
	'1002 rows, 1002 ids, 1002 version 4', 'the restored table has its rows and its default makes ids');

done_testing();
