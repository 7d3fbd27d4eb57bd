# hot_uuid across backends: host-name machine hash, concurrent backends never collide and each
# keeps its order; machine_name from the configuration file; process_field = pid.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use Sys::Hostname;
use Test::More;

my $backends = 4;
my $per_backend = 50000;

my $node = extension_node('hot_backends');
my $q = sub { $node->safe_psql('postgres', shift) };
$q->('CREATE UNLOGGED TABLE ids (backend int, n int, u uuid)');

# Default machine hash: MD5 of the host name up to its first dot, digest bytes 0..2.
my $short = (split /\./, hostname())[0];
is($q->("SELECT hot_uuid_machine(hot_uuid(1)) = substring(decode(md5('$short'), 'hex') FOR 3)"),
	't', 'machine hash is MD5 of the short host name');

# Four backends at once, interleaved with one another: each registers, waits until all are
# live, generates, and stays until all are done, so their process fields belong to
# simultaneously live backends.
$q->('CREATE TABLE live (backend int); CREATE TABLE done (backend int)');
my @h = map {
	start_psql($node, 'postgres', <<SQL)
INSERT INTO live VALUES ($_);
DO \$\$ BEGIN
	WHILE (SELECT count(*) FROM live) < $backends LOOP PERFORM pg_sleep(0.01); END LOOP;
END \$\$;
INSERT INTO ids SELECT $_, n, hot_uuid(n % 7) FROM generate_series(1, $per_backend) n;
INSERT INTO done VALUES ($_);
DO \$\$ BEGIN
	WHILE (SELECT count(*) FROM done) < $backends LOOP PERFORM pg_sleep(0.01); END LOOP;
END \$\$;
SQL
} 1 .. $backends;
my $failed = grep { !finish_psql($_) } @h;
is($failed, 0, "$backends backends inserted without error");

my $total = $backends * $per_backend;
is($q->('SELECT count(*) FROM ids'), $total, "$total ids from $backends concurrent backends");
is($q->('SELECT count(DISTINCT u) FROM ids'), $total, 'no two ids are equal');
is($q->('SELECT count(DISTINCT hot_uuid_process(u)) FROM ids'), $backends,
	q{each live backend has its own process field});
is( $q->(
		'SELECT count(*) FROM (SELECT backend, n, row_number() OVER (PARTITION BY backend ORDER BY u) AS r FROM ids) s WHERE r <> n'
	),
	0,
	q{each backend's ids sort in generation order});
is($q->('SELECT count(DISTINCT hot_uuid_machine(u)) FROM ids'), 1, 'one machine hash for all backends');

# locality_uuid.machine_name in postgresql.conf: every new backend takes it.
$q->(q{LOAD 'locality_uuid'; ALTER SYSTEM SET locality_uuid.machine_name = 'cluster-b.example'});
$node->reload;
ok( $node->poll_query_until(
		'postgres',
		q{SELECT current_setting('locality_uuid.machine_name', true)},
		'cluster-b.example'),
	'a new backend sees machine_name after reload');
is( $q->(
		q{SELECT hot_uuid_machine(hot_uuid(1)) = substring(decode(md5('cluster-b.example'), 'hex') FOR 3)}
	),
	't',
	'machine_name from the configuration file, hashed as given');

# process_field = pid gives HotGuid's field: the OS pid mod 65536.
is($q->('SET locality_uuid.process_field = pid; SELECT hot_uuid_process(hot_uuid(1)) = pg_backend_pid() % 65536'),
	't', 'process_field = pid');

done_testing();
