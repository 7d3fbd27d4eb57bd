# The leases of uuidv7_ordered() and locality_uuid(true) between databases and across restores, on
# every kind of state. A role with CREATEDB who sets her own database's lease sequences to their
# ends moves, exhausts or fails no other database's ids, before or after a restart, nor those of a
# database created later; neither does a 1.4 database beside them. After pg_restore --clean of an
# older dump into the live database, then a clean restart, a crash, or a restart on a clock 30 s
# behind, no new id sorts at or below the ids the database kept. A lease sequence taken out of the
# extension or renamed gives 55000 for both generators. Sessions that hold leases across DROP and
# CREATE EXTENSION, and across ALTER EXTENSION UPDATE from 1.4, go on above their own ids. One dump
# made on a clock an hour ahead, restored into two databases, leaves a third at the right time.
# A session holding a lease sees its sequence taken out of the extension at its next lease step;
# a database given the OID of a dropped one reads nothing of the dropped one's record.
# A standby promoted after such a restore (and the primary's next id) makes ids above the kept ones.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'libfaketime not found (Debian package faketime; or set LIBFAKETIME)'
  unless libfaketime();

my $clock_file = "$PostgreSQL::Test::Utils::tmp_check/118_lease_trust.faketime";
my $ahead_file = "$PostgreSQL::Test::Utils::tmp_check/118_lease_trust_ahead.faketime";
set_fake_clock($clock_file, '+0');
set_fake_clock($ahead_file, '+3600');

my %expr = (ordered => 'uuidv7_ordered()', sequential => 'locality_uuid(true)');


# The count of n new ids of kind at or below the highest id of that kind in table.
sub below_sql
{
	my ($kind, $table, $n) = @_;
	return qq{SELECT count(*) FROM (SELECT $expr{$kind} AS id FROM generate_series(1, $n)) g
		WHERE id <= (SELECT id FROM $table WHERE kind = '$kind' ORDER BY id DESC LIMIT 1)};
}

# The count of n new ordered ids whose time is within a minute of the clock.
sub on_time_sql
{
	my ($n) = @_;
	return qq{SELECT count(*) FROM (SELECT uuidv7_ordered() AS id FROM generate_series(1, $n)) g
		WHERE uuidv7_timestamp(id) BETWEEN now() - interval '1 minute' AND now() + interval '1 minute'};
}

# The source of the dump of item 5: ids made on a clock an hour ahead, dumped by dave.
my $src = extension_node('ahead', extension => 0, clock => $ahead_file);
$src->safe_psql('postgres', 'CREATE ROLE dave LOGIN; CREATE DATABASE app OWNER dave');
is(as($src, dave => 'app', q{CREATE EXTENSION locality_uuid; CREATE TABLE ahead (kind text, id uuid);
	INSERT INTO ahead SELECT 'ordered', uuidv7_ordered() FROM generate_series(1, 100);
	INSERT INTO ahead SELECT 'sequential', locality_uuid(true) FROM generate_series(1, 5000)}),
	'|', 'an hour ahead: dave makes ids');
my $ahead_dump = $src->basedir . '/ahead.dump';
my ($ok, $err) = run_program('pg_dump', '-Fc', '-f', $ahead_dump, '-d', $src->connstr('app') . ' user=dave');
ok($ok && $err eq '', 'pg_dump of the database an hour ahead') or diag $err;
$src->stop;

my $first = 1;
for my $kind (state_kinds())
{
	my $label = $kind->{name};
	my $node = extension_node("trust_$label", extension => 0, preload => $kind->{preload}, clock => $clock_file,
		init => ($first ? { allows_streaming => 1 } : {}));
	$node->safe_psql('postgres', q{CREATE ROLE dave LOGIN; CREATE ROLE carol LOGIN CREATEDB;
		CREATE DATABASE app OWNER dave; CREATE DATABASE old14 OWNER dave});
	is(as($node, dave => 'app', q{CREATE EXTENSION locality_uuid; CREATE TABLE made (kind text, id uuid);
		INSERT INTO made SELECT 'ordered', uuidv7_ordered() FROM generate_series(1, 100);
		INSERT INTO made SELECT 'sequential', locality_uuid(true) FROM generate_series(1, 100)}),
		'|', "$label: dave's database app made ids");

	# 1. carol's own database, and a 1.4 database, at the ends of their leases.
	is(as($node, carol => 'postgres', 'CREATE DATABASE evil'), '|', "$label: carol creates her database");
	is(as($node, carol => 'evil', q{CREATE EXTENSION locality_uuid;
		SELECT setval('locality_uuid_v7_lease', 281474976710650) > 0, setval('locality_uuid_b_lease', (1::bigint << 62) - 300) > 0;
		SELECT uuidv7_ordered() IS NOT NULL, locality_uuid(true) IS NOT NULL}),
		"t|t\nt|t|", "$label: carol sets her leases to their ends and makes ids");
	is(as($node, dave => 'old14', q{CREATE EXTENSION locality_uuid VERSION '1.4';
		SELECT setval('locality_uuid_v7_lease', 250000000000000) > 0; SELECT uuidv7_ordered() IS NOT NULL}),
		"t\nt|", "$label: a 1.4 database far ahead makes ids");
	for my $round (qw(running restarted))
	{
		is(as($node, dave => 'app', on_time_sql(100)), '100|', "$label, $round: 100 of 100 of app's ordered ids on time");
		is(as($node, dave => 'app', 'SELECT count(locality_uuid(true)) FROM generate_series(1, 1000)'), '1000|',
			"$label, $round: app makes 1000 sequential ids");
		is(as($node, dave => 'app', below_sql('ordered', 'made', 100) . '; ' . below_sql('sequential', 'made', 100)),
			"0\n0|", "$label, $round: app's new ids above its own");
		is(as($node, dave => 'app', q{SELECT last_value < 1e15 FROM locality_uuid_v7_lease; SELECT last_value < 1::bigint << 40 FROM locality_uuid_b_lease}),
			"t\nt|", "$label, $round: app's lease sequences where app's ids put them");
		next unless $round eq 'running';
		$node->stop;
		start_on_fake_clock($node, $clock_file);
	}
	$node->safe_psql('postgres', 'CREATE DATABASE later OWNER dave');
	is(as($node, dave => 'later', 'CREATE EXTENSION locality_uuid; ' . on_time_sql(100) . q{;
		SELECT count(locality_uuid(true)) FROM generate_series(1, 1000)}),
		"100\n1000|", "$label: a database created later: ordered ids on time, sequential ids made");

	# 7. The 1.4 database updated while a session of it makes ids: on above its own ids.
	my $old = $node->background_psql('old14', on_error_stop => 0, extra_params => [ '-U', 'dave' ]);
	my ($out, $states) = session_states($old, q{CREATE TABLE made (kind text, id uuid);
		INSERT INTO made SELECT 'ordered', uuidv7_ordered() FROM generate_series(1, 100);
		INSERT INTO made SELECT 'sequential', locality_uuid(true) FROM generate_series(1, 1000); SELECT 1});
	is(as($node, dave => 'old14', q{ALTER EXTENSION locality_uuid UPDATE; SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'}),
		'1.6|', "$label: old14 updated from 1.4 while its session holds leases");
	($out, $states) = session_states($old, below_sql('ordered', 'made', 100) . '; ' . below_sql('sequential', 'made', 1000));
	is("$out|$states", "0\n0|", "$label: old14's session after the update: 0 of its new ids at or below its own");
	$old->quit;

	# 2. pg_restore --clean of an older dump into the live database, then a restart of each kind.
	is(as($node, dave => 'app', q{CREATE TABLE dumped AS SELECT uuidv7_ordered() AS id FROM generate_series(1, 10)}),
		'|', "$label: app has a table to dump");
	my $dump = $node->basedir . '/app.dump';
	($ok, $err) = run_program('pg_dump', '-Fc', '-T', 'made', '-f', $dump, '-d', $node->connstr('app') . ' user=dave');
	ok($ok && $err eq '', "$label: pg_dump of app without its table made") or diag $err;
	for my $stop (qw(fast immediate clock_back))
	{
		is(as($node, dave => 'app', q{INSERT INTO made SELECT 'ordered', uuidv7_ordered() FROM generate_series(1, 1000);
			INSERT INTO made SELECT 'sequential', locality_uuid(true) FROM generate_series(1, 20000)}),
			'|', "$label, $stop: app keeps ids made after the dump");
		($ok, $err) = run_program('pg_restore', '--clean', '--if-exists', '--no-owner', '-d', $node->connstr('app') . ' user=dave', $dump);
		ok($ok && $err !~ /ERROR/, "$label, $stop: pg_restore --clean of the older dump") or diag $err;
		$node->stop($stop eq 'clock_back' ? 'fast' : $stop);
		set_fake_clock($clock_file, '-30') if $stop eq 'clock_back';
		start_on_fake_clock($node, $clock_file);
		for my $k (qw(ordered sequential))
		{
			is(as($node, dave => 'app', below_sql($k, 'made', 1000)), '0|',
				"$label, $stop: 0 of 1000 new $k ids at or below the kept ones");
		}
		set_fake_clock($clock_file, '+0');
	}

	# 3. A lease sequence out of the extension, or renamed: 55000 for both generators, until put back.
	for my $k (qw(ordered sequential))
	{
		my $seq = $k eq 'ordered' ? 'locality_uuid_v7_lease' : 'locality_uuid_b_lease';
		for my $how ([ 'DROP SEQUENCE', "ALTER EXTENSION locality_uuid DROP SEQUENCE $seq", "ALTER EXTENSION locality_uuid ADD SEQUENCE $seq" ],
			[ 'RENAME', "ALTER SEQUENCE $seq RENAME TO lease_elsewhere", "ALTER SEQUENCE lease_elsewhere RENAME TO $seq" ])
		{
			my ($name, $break, $mend) = @$how;
			$node->safe_psql('app', $break);
			is(as($node, dave => 'app', "SELECT $expr{$k}"), '|ERROR:  55000', "$label: $name of $seq: $k ids give 55000");
			$node->safe_psql('app', $mend);
			is(as($node, dave => 'app', below_sql($k, 'made', 10)), '0|', "$label: $seq put back: $k ids above the kept ones");
		}
	}

	# 3b. The same seen by a session that holds a lease: 55000 at its next lease step.
	for my $k (qw(ordered sequential))
	{
		my $seq = $k eq 'ordered' ? 'locality_uuid_v7_lease' : 'locality_uuid_b_lease';
		my $next_step = $k eq 'ordered' ? 'SELECT pg_sleep(1.2); SELECT uuidv7_ordered() IS NOT NULL'
		  : 'SELECT count(locality_uuid(true)) > 0 FROM generate_series(1, 300000)';
		my $s = $node->background_psql('app', on_error_stop => 0, extra_params => [ '-U', 'dave' ]);
		($out, $states) = session_states($s, "SELECT $expr{$k} IS NOT NULL");
		$node->safe_psql('app', "ALTER EXTENSION locality_uuid DROP SEQUENCE $seq");
		($out, $states) = session_states($s, $next_step);
		like($states, qr/^ERROR:  55000$/m, "$label: $seq taken out of the extension: a session holding a lease gets 55000 at its next step");
		$node->safe_psql('app', "ALTER EXTENSION locality_uuid ADD SEQUENCE $seq");
		$s->quit;
	}

	# 3c. A dropped database's record is not read by a later database given its OID.
	my $oid = $node->safe_psql('postgres', q{SELECT max(oid)::integer + 1000 FROM pg_database});
	is(as($node, carol => 'postgres', "CREATE DATABASE trap OID = $oid"), '|', "$label: carol creates a database of OID $oid");
	is(as($node, carol => 'trap', q{CREATE EXTENSION locality_uuid;
		SELECT setval('locality_uuid_v7_lease', 281474976710650) > 0, setval('locality_uuid_b_lease', (1::bigint << 62) - 300) > 0;
		SELECT uuidv7_ordered() IS NOT NULL, locality_uuid(true) IS NOT NULL}),
		"t|t\nt|t|", "$label: carol sets its leases to their ends and makes ids");
	is(as($node, carol => 'postgres', 'DROP DATABASE trap'), '|', "$label: carol drops it");
	$node->safe_psql('postgres', "VACUUM pg_database; CREATE DATABASE heir OID = $oid OWNER dave");
	is(as($node, dave => 'heir', 'CREATE EXTENSION locality_uuid; ' . on_time_sql(100) . q{;
		SELECT count(locality_uuid(true)) FROM generate_series(1, 1000)}),
		"100\n1000|", "$label: a later database of the same OID: ordered ids on time, sequential ids made");

	# 3d. A record of the leases of another size than its own is an error, an empty one none.
	my $record = $node->data_dir . '/locality_uuid/' . $node->safe_psql('postgres', q{SELECT oid FROM pg_database WHERE datname = 'later'});
	ok(-s $record == 24, "$label: later's record of the leases has 24 bytes");
	for my $size (16, 32)
	{
		my $saved = PostgreSQL::Test::Utils::slurp_file($record);
		open my $fh, '>', $record or die "could not write $record: $!";
		binmode $fh;
		print $fh substr($saved . ("\0" x 8), 0, $size);
		close $fh;
		is(as($node, dave => 'later', 'SELECT uuidv7_ordered() IS NOT NULL'), '|ERROR:  XX001',
			"$label: a record of $size bytes: XX001");
		open $fh, '>', $record or die "could not write $record: $!";
		binmode $fh;
		print $fh $saved;
		close $fh;
	}
	is(as($node, dave => 'later', 'SELECT uuidv7_ordered() IS NOT NULL'), 't|', "$label: the record put back: ids made");

	# 4. DROP and CREATE EXTENSION while a session holds leases: it and a new one go on above.
	my $held = $node->background_psql('app', on_error_stop => 0, extra_params => [ '-U', 'dave' ]);
	($out, $states) = session_states($held, q{INSERT INTO made SELECT 'ordered', uuidv7_ordered() FROM generate_series(1, 100);
		INSERT INTO made SELECT 'sequential', locality_uuid(true) FROM generate_series(1, 1000); SELECT 1});
	is(as($node, dave => 'app', 'DROP EXTENSION locality_uuid; CREATE EXTENSION locality_uuid'), '|',
		"$label: DROP and CREATE EXTENSION while a session holds leases");
	($out, $states) = session_states($held, below_sql('ordered', 'made', 1000) . '; ' . below_sql('sequential', 'made', 1000));
	is("$out|$states", "0\n0|", "$label: the session that held leases: 0 of its new ids at or below the kept ones");
	is(as($node, dave => 'app', below_sql('ordered', 'made', 1000) . '; ' . below_sql('sequential', 'made', 1000)),
		"0\n0|", "$label: a new session: 0 of its new ids at or below the kept ones");
	$held->quit;

	# 5. One dump of a clock an hour ahead, restored into two databases: a third stays on time.
	for my $db (qw(r1 r2))
	{
		$node->safe_psql('postgres', "CREATE DATABASE $db OWNER dave");
		($ok, $err) = run_program('pg_restore', '--no-owner', '-d', $node->connstr($db) . ' user=dave', $ahead_dump);
		ok($ok && $err !~ /ERROR/, "$label: the dump an hour ahead restored into $db") or diag $err;
		is(as($node, dave => $db, below_sql('ordered', 'ahead', 100) . '; ' . below_sql('sequential', 'ahead', 1000)),
			"0\n0|", "$label: ${db}'s new ids above the restored ones");
	}
	is(as($node, dave => 'app', on_time_sql(100)), '100|', "$label: app's ordered ids stay on time");

	# 6. A standby promoted after a restore of the older dump and the primary's next ids.
	if ($first)
	{
		$node->backup('base');
		my $standby = PostgreSQL::Test::Cluster->new("standby_$label");
		$standby->init_from_backup($node, 'base', has_streaming => 1);
		start_on_fake_clock($standby, $clock_file);
		is(as($node, dave => 'app', q{INSERT INTO made SELECT 'ordered', uuidv7_ordered() FROM generate_series(1, 1000);
			INSERT INTO made SELECT 'sequential', locality_uuid(true) FROM generate_series(1, 20000)}),
			'|', "$label: the primary keeps ids made after the standby's copy");
		($ok, $err) = run_program('pg_restore', '--clean', '--if-exists', '--no-owner', '-d', $node->connstr('app') . ' user=dave', $dump);
		ok($ok && $err !~ /ERROR/, "$label: pg_restore --clean of the older dump on the primary") or diag $err;
		is(as($node, dave => 'app', 'SELECT count(uuidv7_ordered()) + count(locality_uuid(true)) FROM generate_series(1, 1)'),
			'2|', "$label: the primary makes one id of each kind after the restore");
		$node->wait_for_catchup($standby);
		$node->stop;
		set_fake_clock($clock_file, '-30');
		$standby->promote;
		for my $k (qw(ordered sequential))
		{
			is(as($standby, dave => 'app', below_sql($k, 'made', 1000)), '0|',
				"$label: the promoted standby, its clock 30 s behind: 0 of 1000 new $k ids at or below the kept ones");
		}
		set_fake_clock($clock_file, '+0');
		$standby->stop;
	}
	else
	{
		$node->stop;
	}
	$first = 0;
}

done_testing();
