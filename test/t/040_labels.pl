# Labels really hold: the whole pg_regress suite again with the parallel-mode setting at
# regress (force_parallel_mode before PostgreSQL 16, debug_parallel_query since), so every
# parallel-safe call, generators included, runs in a parallel worker. A function labelled
# PARALLEL SAFE that is not (nextval, set_config, per-backend state) fails here.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = extension_node('labels', extension => 0,
	conf => [ 'max_worker_processes = 16', 'max_parallel_workers = 8' ]);
my $guc = parallel_guc($node);
my $options = "-c $guc=regress";

# The regression tests as the Makefile's REGRESS takes them, every file of sql/ in name order,
# the locality version b files first (the tests run from the top of the source tree, where sql/
# and expected/ are).
my @files = sort map { m{^sql/(.*)\.sql$} } glob 'sql/*.sql';
my @tests = ((grep { /^locality_b/ } @files), (grep { !/^locality_b/ } @files));
cmp_ok(scalar @tests, '>', 0, 'the regression tests of sql/: ' . scalar(@tests));

# pg_regress judged by its exit status, as `make installcheck` judges it.
my $outdir = $node->basedir . '/regress';
mkdir $outdir;
my $bindir = $node->config_data('--bindir');
my ($out, $err);
my $passed = do
{
	local $ENV{PGOPTIONS} = $options;
	IPC::Run::run(
		[
			$ENV{PG_REGRESS}, '--inputdir=.', "--outputdir=$outdir",
			"--bindir=$bindir", '--host=' . $node->host,
			'--port=' . $node->port, '--load-extension=locality_uuid',
			'--dbname=contrib_regression', @tests
		],
		'>', \$out, '2>', \$err);
};
ok($passed, "the whole regression suite passes under $guc = regress");
if (!$passed)
{
	diag $out, $err;
	diag slurp_file("$outdir/regression.diffs") if -f "$outdir/regression.diffs";
}

# The setting reaches the generators: under it an id comes from a worker's process slot.
my ($got, $states) = psql_states($node, 'contrib_regression', <<'SQL', options => $options);
CREATE FUNCTION pg_temp.leader_pid() RETURNS int LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$ SELECT locality_uuid_pid(locality_uuid()) $$;
SELECT pg_temp.leader_pid() AS leader \gset
SELECT count(*) FILTER (WHERE locality_uuid_pid(locality_uuid()) <> :leader) FROM generate_series(1, 10);
SQL
is("$got|$states", '10|', "$guc = regress runs generators in a worker");

# The interval form, renamed in 1.2, keeps its labels (volatile, parallel safe, strict) beside
# the integer form, and its untyped call runs under a Gather in parallel mode.
is( $node->safe_psql(
		'contrib_regression', q{SELECT string_agg(p.oid::regprocedure || ' ' || p.provolatile::text
		  || p.proparallel::text || ' ' || p.proisstrict, ', ' ORDER BY p.proname)
		FROM pg_proc p WHERE p.proname IN ('uuid_time_nextval', 'uuid_time_nextval_interval')}),
	'uuid_time_nextval(integer,integer) vs true, uuid_time_nextval_interval(interval,integer) vs true',
	'uuid_time_nextval and uuid_time_nextval_interval: volatile, parallel safe, strict');
my @plan = plan_nodes($node, 'contrib_regression', q{SELECT uuid_time_nextval_interval('10 ms')},
	setup => "SET $guc = on;");
is($plan[0]{'Node Type'}, 'Gather', "$guc = on: uuid_time_nextval_interval runs under a Gather");

done_testing();
