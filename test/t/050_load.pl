# Uniqueness under load: pgbench with 8 clients inserts ids from every generator into unique
# keys, on kept and on per-transaction connections; zero errors, exact counts. Notes ids per
# second per generator (figures, not a pass condition). Then: a long statement stops on
# cancel and on statement_timeout, and the server goes on.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $clients = 8;
my ($gen_tx, $gen_ids) = (5, 2000);    # generate only: 8 x 5 x 2000 = 80000 ids per generator
my ($ins_tx, $ins_ids) = (50, 100);    # insert: 8 x 50 x 100 = 40000 rows per generator
my ($mix_tx, $mix_c_tx, $mix_ids) = (60, 40, 10);    # per generator: 8 x (60 + 40) x 10 = 8000 rows

my $node = extension_node('load', conf => [ 'max_connections = 50', 'log_statement = none' ]);
my $q = sub { $node->safe_psql('postgres', shift) };
$q->(join "\n", $GENERATOR_SETUP,
	map { "CREATE TABLE load_$_->[0] (id uuid PRIMARY KEY); CREATE TABLE mix_$_->[0] (id uuid PRIMARY KEY);" }
	  @GENERATORS);
my $log_start = -s $node->logfile;
my $work = $node->basedir;

# Run pgbench; pass when it exits 0, every transaction commits and none fails.
# Returns tps (without connection time where pgbench reports it), 0 on failure.
sub bench
{
	my ($name, $want, $script, @args) = @_;
	my ($out, $err);
	my $rc = IPC::Run::run(
		[
			'pgbench', '-h', $node->host, '-p', $node->port, '-n', '-c', $clients, '-j', 2,
			'-f', $script, @args, 'postgres'
		],
		'>', \$out, '2>', \$err);
	my ($done) = $out =~ /^number of transactions actually processed: (\d+)/m;
	my ($failed) = $out =~ /^number of failed transactions: (\d+)/m;
	my @tps = $out =~ /^tps = ([0-9.]+) /mg;
	my $good = $rc && defined $done && $done == $want && ($failed // 0) == 0 && @tps;
	ok($good, "$name: " . ($done // '?') . "/$want transactions, " . ($failed // '?') . ' failed')
	  or diag join("\n", grep { /error|abort|fail/i } split /\n/, "$out\n$err");
	return $good ? $tps[-1] : 0;
}

# Write a pgbench script.
sub script
{
	my ($name, $sql) = @_;
	my $file = "$work/$name.sql";
	unlink $file;
	append_to_file($file, $sql);
	return $file;
}

# 1. Each generator alone: generation rate, then inserts into a unique key. Inserts skip a
# duplicate (ON CONFLICT DO NOTHING) so that the run goes on and the count shows how many.
my %seq_calls;
note "ids per second, $clients clients: generate only | insert into a primary key";
for my $g (@GENERATORS)
{
	my ($n, $e) = @$g;
	my $tps = bench("generate $n", $clients * $gen_tx,
		script("gen_$n", "SELECT count($e) FROM generate_series(1, $gen_ids);"), '-t', $gen_tx);
	my $gen_rate = int($tps * $gen_ids);
	$tps = bench("insert $n", $clients * $ins_tx,
		script("ins_$n", "INSERT INTO load_$n SELECT $e FROM generate_series(1, $ins_ids) ON CONFLICT DO NOTHING;"),
		'-t', $ins_tx);
	note "rate $n: $gen_rate ids/s generated, " . int($tps * $ins_ids) . ' ids/s inserted';
	my $want = $clients * $ins_tx * $ins_ids;
	is($q->("SELECT count(*) || ' rows, ' || $want - count(*) || ' duplicates' FROM load_$n"),
		"$want rows, 0 duplicates", "insert $n: $want rows, 0 duplicates");
	$seq_calls{$n} = $clients * $gen_tx * $gen_ids + $want if $e =~ /rel_shared_seq/;
}

# 2. Every generator in one transaction, first on kept connections, then with a new
# connection per transaction (-C) so that backend slots and pids are reused.
my $mix = script('mix',
	join("\n", 'BEGIN;',
		(map { "INSERT INTO mix_$_->[0] SELECT $_->[1] FROM generate_series(1, $mix_ids) ON CONFLICT DO NOTHING;" }
		  @GENERATORS),
		'COMMIT;'));
bench('all generators per transaction', $clients * $mix_tx, $mix, '-t', $mix_tx);
my $tps = bench('all generators per transaction, new connection each (-C)', $clients * $mix_c_tx, $mix, '-t', $mix_c_tx, '-C');
note 'rate all generators, -C: ' . int($tps * $mix_ids * @GENERATORS) . ' ids/s';
my $mix_rows = $clients * ($mix_tx + $mix_c_tx) * $mix_ids;
my @union;
for my $g (@GENERATORS)
{
	my ($n, $e) = @$g;
	is($q->("SELECT count(*) || ' rows, ' || $mix_rows - count(*) || ' duplicates' FROM mix_$n"),
		"$mix_rows rows, 0 duplicates", "mix $n: $mix_rows rows, 0 duplicates");
	push @union, "SELECT id, 'load_$n' AS t FROM load_$n UNION ALL SELECT id, 'mix_$n' FROM mix_$n";
	$seq_calls{$n} += $mix_rows if $e =~ /rel_shared_seq/;
}
my $union = join(' UNION ALL ', @union);
my $total = ($clients * $ins_tx * $ins_ids + $mix_rows) * @GENERATORS;
is($q->("SELECT count(*) || ' ' || count(DISTINCT id) FROM ($union) s"),
	"$total $total", "all generators together: $total ids, no id twice")
  # Where ids repeat across tables, say which.
  or diag $q->("SELECT 'id in ' || tables || ': ' || count(*) FROM (SELECT string_agg(t, ' and ' ORDER BY t) AS tables
	FROM ($union) s GROUP BY id HAVING count(*) > 1) d GROUP BY tables ORDER BY 1");

# Slots are reused, process fields stay few: the 16-bit field is the backend slot.
note '-C run: ' . ($clients * $mix_c_tx) . ' connections; distinct process fields in locality ids: '
  . $q->('SELECT count(DISTINCT locality_uuid_pid(id)) FROM mix_locality_variable');

# The shared sequence was called exactly once per id of the generators that use it.
if (%seq_calls)
{
	my $want = 0;
	$want += $_ for values %seq_calls;
	is($q->('SELECT last_value FROM rel_shared_seq'), $want, 'shared sequence: one nextval per id');
}

my @errors = grep { /\b(ERROR|FATAL|PANIC):/ } split /\n/, slurp_file($node->logfile, $log_start);
is(scalar @errors, 0, 'server log: no errors during the load') or diag join("\n", @errors[ 0 .. 4 ]);

# 3. A long statement stops on cancel and on statement_timeout, and the backend goes on.
my $start = time;
my $bg = start_psql($node, 'postgres',
	'SELECT count(locality_uuid()) FROM generate_series(1, 100000) a, generate_series(1, 100000) b;',
	conn => 'application_name=rel_cancel',
	options => '-c statement_timeout=120s');    # ends it should the cancel not come
my $cancelled = 'f';
for (1 .. 100)
{
	usleep(100_000);
	$cancelled = $q->(q{SELECT coalesce(bool_or(pg_cancel_backend(pid)), false) FROM pg_stat_activity
		WHERE application_name = 'rel_cancel' AND state = 'active'});
	last if $cancelled eq 't';
}
finish_psql($bg);
my $ms = int((time - $start) * 1000);
is("$cancelled $bg->{err}", 't ERROR:  57014', "pg_cancel_backend stops a long generate with 57014 ($ms ms)");
my ($out, $states) = psql_states($node, 'postgres',
	q{SET statement_timeout = '300ms';
	SELECT count(locality_uuid(true)) FROM generate_series(1, 100000) a, generate_series(1, 100000) b;});
is($states, 'ERROR:  57014', 'statement_timeout stops a long generate with 57014');
is($q->('SELECT locality_uuid_version(locality_uuid())'), 'b', 'server still answers');

done_testing();
