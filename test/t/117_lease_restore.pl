# The leases of locality_uuid(true) and uuidv7_ordered() while the server runs, on every kind of
# state: a pg_restore --clean by the database owner (not a superuser) into a live database that
# made ids, from a source an hour ahead, puts the next ids of a session that made ids before and
# of a new one above every restored id; a restore by the owner into a database where a superuser
# created the extension sets the sequences; a parallel CREATE TABLE AS after a clean restart and
# the first id of a read-only transaction or a parallel worker after a crash start above the
# lease; a 1.3 database under this library never uses a relation another role named as the lease;
# ids made during a restore (between its CREATE EXTENSION and its setval, after the data) leave
# no later session below the restored ids, nor with shared state the session that made them.
use strict;
use warnings FATAL => 'all';
use Time::HiRes qw(usleep);
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'libfaketime not found (Debian package faketime; or set LIBFAKETIME)'
  unless libfaketime();

# The source's clock runs an hour ahead while it makes ordered ids; then, for its sequential ids
# and the destinations, 5 s into a 10-minute bucket: the continued runs of both start at that
# bucket's seed, so the restored run lies above the live database's by the 100,000 ids made.
my $clock_file = "$PostgreSQL::Test::Utils::tmp_check/117_lease_restore.faketime";
set_fake_clock($clock_file, '+3600');


# The source, an hour ahead: dave's database with 1000 ordered ids and 100,000 sequential ones
# (its lease far above the live database's), dumped by dave.
my $src = extension_node('src', extension => 0, clock => $clock_file);
$src->safe_psql('postgres', 'CREATE ROLE dave LOGIN; CREATE DATABASE app OWNER dave');
is( as($src, dave => 'app', q{CREATE EXTENSION locality_uuid; CREATE TABLE made (kind text, id uuid);
		INSERT INTO made SELECT 'ordered', uuidv7_ordered() FROM generate_series(1, 1000)}),
	'|', 'source (an hour ahead): dave makes 1000 ordered ids');
my $now = int(time());
set_fake_clock($clock_file, sprintf('%+d', int($now / 600) * 600 + 605 - $now));
is(as($src, dave => 'app', q{INSERT INTO made SELECT 'sequential', locality_uuid(true) FROM generate_series(1, 100000);
		INSERT INTO made SELECT 'hot', hot_uuid(7, timestamptz '2024-01-01 00:00:00+00') FROM generate_series(1, 1000);
		INSERT INTO made SELECT 'v7at', uuidv7_ordered(timestamptz '2024-01-01 00:00:00+00') FROM generate_series(1, 1000)}),
	'|', 'source: dave makes 100,000 sequential ids, 1000 backfills of one second of each kind');
my $dump = $src->basedir . '/app.dump';
my ($ok, $err) = run_program('pg_dump', '-Fc', '-f', $dump, '-d', $src->connstr('app') . ' user=dave');
ok($ok && $err eq '', 'pg_dump -Fc as dave') or diag $err;
$src->stop;

# Ids of kind made by expr in a session (or a new psql) at or below the restored maximum.
my %expr = (ordered => 'uuidv7_ordered()', sequential => 'locality_uuid(true)');

sub below_sql
{
	my ($kind) = @_;
	return qq{SELECT count(*) FROM (SELECT $expr{$kind} AS id FROM generate_series(1, 1000)) n
		WHERE id <= (SELECT id FROM made WHERE kind = '$kind' ORDER BY id DESC LIMIT 1)};
}

for my $kind (state_kinds())
{
	my $label = $kind->{name};
	my $node = extension_node("dst_$label", extension => 0, preload => $kind->{preload}, clock => $clock_file,
		conf => [ 'max_worker_processes = 8', 'max_parallel_workers = 4' ]);
	$node->safe_psql('postgres', q{CREATE ROLE dave LOGIN; CREATE ROLE mallory LOGIN;
		CREATE DATABASE app OWNER dave; CREATE DATABASE sapp OWNER dave});
	my $conn = $node->connstr('app') . ' user=dave';

	# 1. The live database made ids, in a session that stays, and in another database too.
	is(as($node, dave => 'app', 'CREATE EXTENSION locality_uuid'), '|', "$label: dave creates the extension in app");
	$node->safe_psql('postgres', 'CREATE EXTENSION locality_uuid; SELECT uuidv7_ordered(), locality_uuid(true)');
	my $session = $node->background_psql('app', on_error_stop => 0, extra_params => [ '-U', 'dave' ]);
	$session->query_safe(q{SELECT uuidv7_ordered(), locality_uuid(true), hot_uuid(7, timestamptz '2024-01-01 00:00:00+00'),
		uuidv7_ordered(timestamptz '2024-01-01 00:00:00+00') FROM generate_series(1, 10)});

	($ok, $err) = run_program('pg_restore', '--clean', '--if-exists', '--no-owner', '-d', $conn, $dump);
	ok($ok && $err !~ /ERROR/, "$label: dave's pg_restore --clean into the live database: no error") or diag $err;

	# Another database's call first: it must not make app's state look current.
	$node->safe_psql('postgres', 'SELECT uuidv7_ordered(), locality_uuid(true) FROM generate_series(1, 10)');
	for my $k (qw(ordered sequential))
	{
		my ($out, $states) = session_states($session, below_sql($k));
		is("$out|$states", '0|', "$label: the session that made ids before: 0 of 1000 $k ids at or below the restored ones");
		is(as($node, dave => 'app', below_sql($k)), '0|', "$label: a new session: 0 of 1000 $k ids at or below the restored ones");
	}
	# Its allocation ranges came from the dropped sequences: the restored ones handed them out too.
	# The allocation key: the whole id for hot_uuid, the millisecond and allocation number for
	# uuidv7_ordered(at) (its last 4 bytes are random).
	my $key = q{CASE kind WHEN 'hot' THEN id::text ELSE left(id::text, 18) || substr(id::text, 20, 4) || substr(id::text, 25, 4) END};
	my ($out, $states) = session_states($session, qq{SELECT count(*) FROM (
		SELECT 'hot' AS kind, hot_uuid(7, timestamptz '2024-01-01 00:00:00+00') AS id FROM generate_series(1, 1000)
		UNION ALL SELECT 'v7at', uuidv7_ordered(timestamptz '2024-01-01 00:00:00+00') FROM generate_series(1, 1000)) n
		WHERE $key IN (SELECT $key FROM made WHERE kind IN ('hot', 'v7at'))});
	is("$out|$states", '0|', "$label: the session's next 1000 backfills of each kind repeat 0 restored ids");
	$session->quit;

	# 1b. Ids made during a restore, between its CREATE EXTENSION and its SEQUENCE SET (after the
	# data): pg_restore --clean by sections, one call of each generator in between. Each round
	# starts from a restart on the fake clock (a round's restored ids lift the database's words):
	# in the first a new session makes ids first, in the second the session that made ids during
	# the restore. Shared state: a lease step that finds the sequence set from outside takes it
	# as every backend's floor, the session's after its lease runs out (256 positions, 1 s).
	# Per-backend state: every new session starts at the restored lease; the session that made
	# ids during the restore keeps its own run below until it ends (docs/guarantees.md).
	for my $round (qw(new_first session_first))
	{
		my $db = "r_$round";
		$node->stop;
		start_on_fake_clock($node, $clock_file);
		$node->safe_psql('postgres', "CREATE DATABASE $db OWNER dave");
		is(as($node, dave => $db, 'CREATE EXTENSION locality_uuid; SELECT count(uuidv7_ordered()) + count(locality_uuid(true))
			FROM generate_series(1, 10)'), '20|', "$label, $round: dave's live database made ids");
		my $rconn = $node->connstr($db) . ' user=dave';
		($ok, $err) = run_program('pg_restore', '--clean', '--if-exists', '--no-owner', '--section=pre-data', '-d', $rconn, $dump);
		ok($ok && $err !~ /ERROR/, "$label, $round: pg_restore --clean --section=pre-data") or diag $err;
		my $during = $node->background_psql($db, on_error_stop => 0, extra_params => [ '-U', 'dave' ]);
		$during->query_safe('SELECT uuidv7_ordered(), locality_uuid(true)');
		($ok, $err) = run_program('pg_restore', '--no-owner', '--section=data', '-d', $rconn, $dump);
		ok($ok && $err !~ /ERROR/, "$label, $round: pg_restore --section=data") or diag $err;
		my @checks = (
			[ new => sub { as($node, dave => $db, below_sql($_[0])) } ],
			[ during => sub { my ($o, $s) = session_states($during, below_sql($_[0])); "$o|$s" } ]);
		@checks = reverse @checks if $round eq 'session_first';
		for my $check (@checks)
		{
			my ($who, $below) = @$check;
			if ($who eq 'new')
			{
				is($below->($_), '0|', "$label, $round: a new session: 0 of 1000 $_ ids at or below the restored ones")
				  for qw(ordered sequential);
				next;
			}
			my $want = $kind->{shared} ? 0 : 1000;
			if ($round eq 'session_first' && $kind->{shared})
			{
				# Its lease from the fresh sequence: at most 256 positions, then 1000 above.
				my ($n) = split /\|/, $below->('sequential');
				ok($n <= 256, "$label, $round: the session that made ids during the restore: $n (<= 256) of 1000 sequential ids below");
				usleep(1_100_000);
			}
			is($below->($_), "$want|",
				"$label, $round: the session that made ids during the restore: $want of 1000 $_ ids at or below the restored ones")
			  for qw(ordered sequential);
		}
		$during->quit;
	}

	# 2. A superuser created the extension and made ids, dave restores his dump: the sequences
	# are set (the extension's comment is the superuser's: --no-comments, as for any extension),
	# without --clean, so the extension stays; the next lease step sees the setval all the same.
	$node->stop;
	start_on_fake_clock($node, $clock_file);
	$node->safe_psql('sapp', 'CREATE EXTENSION locality_uuid; SELECT uuidv7_ordered(), locality_uuid(true) FROM generate_series(1, 10)');
	($ok, $err) = run_program('pg_restore', '--no-owner', '--no-comments', '-d', $node->connstr('sapp') . ' user=dave', $dump);
	ok($ok && $err !~ /ERROR/, "$label: dave's pg_restore into a database where a superuser created the extension: no error")
	  or diag $err;
	is(as($node, dave => 'sapp', below_sql($_)), '0|', "$label: superuser's install, a new session without a restart: 0 of 1000 $_ ids at or below the restored ones")
	  for qw(ordered sequential);
	# With --clean: the DROP EXTENSION fails (not the owner), the restore goes on and sets them
	# (from a restart: sapp's restored ids lifted the database's words).
	$node->stop;
	start_on_fake_clock($node, $clock_file);
	$node->safe_psql('postgres', 'CREATE DATABASE sapp2 OWNER dave');
	$node->safe_psql('sapp2', 'CREATE EXTENSION locality_uuid; SELECT uuidv7_ordered(), locality_uuid(true) FROM generate_series(1, 10)');
	($ok, $err) = run_program('pg_restore', '--clean', '--if-exists', '--no-owner', '--no-comments', '-d', $node->connstr('sapp2') . ' user=dave', $dump);
	ok(!$ok && $err =~ /must be owner of extension locality_uuid/, "$label: dave's pg_restore --clean over a superuser's extension: must be owner, exit 1")
	  or diag $err;
	is(as($node, dave => 'sapp2', below_sql($_)), '0|', "$label: --clean over a superuser's extension, a new session without a restart: 0 of 1000 $_ ids at or below the restored ones")
	  for qw(ordered sequential);
	$node->restart;
	is(as($node, dave => 'sapp', below_sql($_)), '0|', "$label: superuser's install, after a restart: 0 of 1000 $_ ids at or below the restored ones")
	  for qw(ordered sequential);

	# 3. A parallel CREATE TABLE AS after a clean restart; read-only and parallel after a crash.
	$node->safe_psql('app', q{CREATE TABLE rows200k AS SELECT g FROM generate_series(1, 200000) g;
		INSERT INTO made SELECT 'sequential', locality_uuid(true) FROM generate_series(1, 20000)});
	my $parallel = q{SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
		SET max_parallel_workers_per_gather = 2;};
	$node->restart;
	my $ctas = q{CREATE TABLE par AS SELECT locality_uuid(true) AS id FROM rows200k};
	like($node->safe_psql('app', "$parallel EXPLAIN (COSTS OFF) $ctas"), qr/Gather/, "$label: the CREATE TABLE AS is parallel");
	is( $node->safe_psql('app', qq{$parallel $ctas;
			SELECT count(*) FROM par WHERE id <= (SELECT id FROM made WHERE kind = 'sequential' ORDER BY id DESC LIMIT 1)}),
		'0', "$label: after a clean restart, 0 of 200,000 ids of a parallel CREATE TABLE AS at or below the ids before");
	# The ids of the parallel operation may run past the lease (docs/guarantees.md): the next
	# ones compare with ids made where the lease moves.
	$node->safe_psql('app', q{INSERT INTO made SELECT 'sequential', locality_uuid(true) FROM generate_series(1, 1000)});
	my $first_below = q{SELECT count(*) FROM (SELECT locality_uuid(true) AS id) n
		WHERE id <= (SELECT id FROM made WHERE kind = 'sequential' ORDER BY id DESC LIMIT 1)};
	$node->stop('immediate');
	$node->start;
	is($node->safe_psql('app', "SET default_transaction_read_only = on; $first_below"), '0',
		"$label: after a crash, the first id of a read-only transaction above the ids before");
	$node->stop('immediate');
	$node->start;
	my $guc = parallel_guc($node);
	is($node->safe_psql('app', "SET $guc = on; $first_below"), '0',
		"$label: after a crash, the first id of a parallel worker ($guc) above the ids before");

	# 4. A 1.3 database: mallory's relation named as the lease is never used.
	$node->safe_psql('postgres', 'CREATE DATABASE old');
	$node->safe_psql('old', q{CREATE EXTENSION locality_uuid VERSION '1.3'; GRANT CREATE ON SCHEMA public TO mallory});
	is(as($node, mallory => 'old', 'CREATE SEQUENCE locality_uuid_b_lease'), '|', "$label: 1.3: mallory makes her own locality_uuid_b_lease");
	$node->safe_psql('old', 'SELECT locality_uuid(true) FROM generate_series(1, 1000)');
	is(as($node, mallory => 'old', 'SELECT last_value, is_called FROM locality_uuid_b_lease'), '1|f|',
		"$label: 1000 ids of the superuser leave mallory's sequence alone");
	is(as($node, mallory => 'old', 'ALTER SEQUENCE locality_uuid_b_lease MINVALUE 0 MAXVALUE 1 RESTART WITH 1'), '|',
		"$label: mallory sets MAXVALUE 1 on her sequence");
	is(as($node, undef, 'old', 'SELECT count(*) FROM (SELECT locality_uuid(true) FROM generate_series(1, 1000)) n'),
		'1000|', "$label: with MAXVALUE 1 on mallory's sequence, ids are made");
	as($node, mallory => 'old', 'DROP SEQUENCE locality_uuid_b_lease; CREATE VIEW locality_uuid_b_lease AS SELECT 1 AS v');
	is(as($node, undef, 'old', 'SELECT count(*) FROM (SELECT locality_uuid(true) FROM generate_series(1, 1000)) n'),
		'1000|', "$label: with mallory's view of that name, ids are made");
	my $lock = $node->background_psql('old', on_error_stop => 0, extra_params => [ '-U', 'mallory' ]);
	$lock->query_safe('BEGIN; LOCK TABLE locality_uuid_b_lease IN ACCESS EXCLUSIVE MODE');
	is(as($node, undef, 'old', q{SET statement_timeout = '5s'; SELECT count(*) FROM (SELECT locality_uuid(true) FROM generate_series(1, 10)) n}),
		'10|', "$label: mallory's lock on her view blocks nobody's ids");
	$lock->quit;
	is(as($node, undef, 'old', 'ALTER EXTENSION locality_uuid UPDATE'), '|ERROR:  42P07',
		"$label: the update fails with 42P07 while mallory's relation holds the name");
	as($node, mallory => 'old', 'DROP VIEW locality_uuid_b_lease');
	is( as($node, undef, 'old', q{ALTER EXTENSION locality_uuid UPDATE;
			SELECT count(*) FROM (SELECT locality_uuid(true) FROM generate_series(1, 1000)) n;
			SELECT last_value > 0 FROM locality_uuid_b_lease}),
		"1000\nt|", "$label: once she drops it the update works, and ids lease the extension's sequence");
	$node->stop;
}

done_testing();
