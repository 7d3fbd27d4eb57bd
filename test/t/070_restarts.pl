# Restarts and preload: with the library in shared_preload_libraries, every generator keeps
# making distinct ids, backends never share seeds, and committed ids and sequence state
# survive a clean restart, a crash restart (pg_ctl stop -m immediate) and a backend killed
# with SIGKILL (the postmaster ends every backend, reinitialises and forks everything again).
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $ids = 2000;        # ids per generator per phase
my $sessions = 20;     # fresh sessions per phase whose first ids are compared

my $node = extension_node('restarts', extension => 0,
	conf => [ q{shared_preload_libraries = 'locality_uuid'}, 'restart_after_crash = on' ]);
my $q = sub { $node->safe_psql('postgres', shift) };

is($q->('SHOW locality_uuid.node_id'), '-1', 'preloaded: settings exist before CREATE EXTENSION');
$q->(qq{CREATE EXTENSION locality_uuid; $GENERATOR_SETUP
	CREATE TABLE ids (id uuid PRIMARY KEY, gen text NOT NULL, phase text NOT NULL);
	CREATE TABLE firsts (phase text, session int, gen text, id uuid, counter bigint);});

# Insert $ids ids of every generator, then take the first ids of $sessions fresh sessions;
# check uniqueness so far and that no two sessions started from the same seed.
sub phase
{
	my ($name) = @_;
	my ($rc, $out, $err) = $node->psql('postgres',
		join("\n", map { "INSERT INTO ids SELECT $_->[1], '$_->[0]', '$name' FROM generate_series(1, $ids);" } @GENERATORS));
	is($rc, 0, "$name: " . scalar(@GENERATORS) . " generators x $ids ids inserted under a unique key") or diag $err;
	my $sql = join("\n",
		map { "INSERT INTO firsts SELECT '$name', :s, '$_->[0]', u, locality_uuid_counter(u) FROM (SELECT $_->[1] AS u) x;" }
		  @GENERATORS);
	my $failed = 0;
	for my $s (1 .. $sessions)
	{
		($rc, $out, $err) = $node->psql('postgres', $sql, extra_params => [ '-v', "s=$s" ]);
		next if $rc == 0;
		$failed++;
		diag "$name: session $s: $err";
	}
	is($failed, 0, "$name: $sessions fresh sessions made their first ids");
	is( $q->(
			"SELECT count(*) FILTER (WHERE d <> $sessions) FROM
			(SELECT gen, count(DISTINCT id) AS d FROM firsts WHERE phase = '$name' GROUP BY gen) s"),
		0,
		"$name: first ids of $sessions fresh sessions all distinct, per generator");
	# Variable mode: the first counter is the session's random seed plus one step.
	is( $q->(
			"SELECT count(DISTINCT counter) || ' ' || count(*) FILTER (WHERE counter IN
			(SELECT counter FROM firsts WHERE gen = 'locality_variable' AND phase <> '$name'))
			FROM firsts WHERE gen = 'locality_variable' AND phase = '$name'"),
		"$sessions 0",
		"$name: variable-mode seeds of $sessions sessions all distinct, none seen in an earlier phase");
	# Shard-key ids: the first counter of each session is the clock tick it was made at.
	is( $q->(
			"SELECT count(DISTINCT hot_uuid_counter(id)) >= $sessions - 1 FROM firsts WHERE gen = 'hot_keys' AND phase = '$name'"
		),
		't',
		"$name: shard-key counter starts of $sessions sessions distinct (one repeat tolerated, p ~ 4e-4)");
	is($q->('SELECT count(*) - count(DISTINCT id) FROM (SELECT id FROM ids UNION ALL SELECT id FROM firsts) s'),
		0, "$name: all ids so far distinct, firsts included");
}

phase('start');
my $rows = $q->('SELECT count(*) FROM ids');
my $seq = $q->('SELECT last_value FROM rel_shared_seq');

ok($node->restart(fail_ok => 1) // 1, 'clean restart (pg_ctl restart, fast mode)');
is($q->('SELECT count(*) FROM ids'), $rows, 'clean restart: every committed id survived');
is($q->('SELECT last_value FROM rel_shared_seq'), $seq, 'clean restart: sequence state exact');
phase('restart');
$rows = $q->('SELECT count(*) FROM ids');
$seq = $q->('SELECT last_value FROM rel_shared_seq');

ok($node->stop('immediate', fail_ok => 1) && $node->start(fail_ok => 1),
	'crash restart (pg_ctl stop -m immediate, start)');
is($q->('SELECT count(*) FROM ids'), $rows, 'crash restart: every committed id survived');
cmp_ok($q->('SELECT last_value FROM rel_shared_seq'), '>=', $seq, 'crash restart: sequence does not go back');
phase('crash');
$rows = $q->('SELECT count(*) FROM ids');

# A backend killed with SIGKILL: the postmaster ends every backend and reinitialises.
my $log_start = -s $node->logfile;
my $bg = start_psql($node, 'postgres', 'SELECT pg_sleep(60);', conn => 'application_name=rel_victim');
my $victim = '';
for (1 .. 50)
{
	$victim = $q->(q{SELECT pid FROM pg_stat_activity WHERE application_name = 'rel_victim'});
	last if $victim ne '';
	usleep(100_000);
}
if (isnt($victim, '', 'find the backend to kill'))
{
	ok(kill('KILL', $victim), "backend $victim killed with SIGKILL");
	finish_psql($bg);
	ok($node->poll_query_until('postgres', 'SELECT 1', '1'), 'the cluster reinitialises and answers');
	like(slurp_file($node->logfile, $log_start), qr/all server processes terminated; reinitializing/,
		'server log shows the crash cycle');
	is($q->('SELECT count(*) FROM ids'), $rows, 'backend kill: every committed id survived');
	phase('backend_kill');
}
else
{
	$bg->{run}->kill_kill;
}

note 'ids kept across phases: ' . $q->('SELECT count(*) FROM ids') . ' in ids, '
  . $q->('SELECT count(*) FROM firsts') . ' first ids of fresh sessions';

done_testing();
