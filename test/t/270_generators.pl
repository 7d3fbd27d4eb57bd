# What the generators are doing (locality_uuid_generators), each figure moved and read back by a
# pg_monitor member who is no superuser and owns nothing, in two databases of one cluster with
# shared state: calls counted at a lease step, every 65536 calls and at backend exit (a reader
# leaves no state of its own database behind); the clock lead of
# uuidv7_ordered() and of the clock ids, on a clock that ran an hour ahead and came back (the ids
# held ahead), and its lease end; the allocation numbers set toward their limits (status at the
# 0.85 and 0.95 boundaries exactly, 54000 at the end); the continued run's position, counter and
# lease after its lease sequence is set; the bucket rule's run. The owner of the databases, no
# superuser, creates, updates from 1.5, dumps, restores and drops the extension.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();

plan skip_all => 'libfaketime not found (Debian package faketime; or set LIBFAKETIME)'
  unless libfaketime();

my $clock_file = "$PostgreSQL::Test::Utils::tmp_check/270_generators.faketime";
set_fake_clock($clock_file, '+0');

# Shared state: the DSM registry from 17, shared_preload_libraries before.
my ($kind) = grep { $_->{shared} } state_kinds();
my $node = extension_node('generators', extension => 0, preload => $kind->{preload}, clock => $clock_file);
$node->safe_psql('postgres', q{
	CREATE ROLE owner_a LOGIN;
	CREATE ROLE mon LOGIN IN ROLE pg_monitor;
	CREATE ROLE nobody LOGIN;
	CREATE DATABASE a OWNER owner_a;
	CREATE DATABASE b OWNER owner_a;
	CREATE DATABASE c OWNER owner_a;
	CREATE DATABASE d OWNER owner_a});
is(as($node, owner_a => $_, 'CREATE EXTENSION locality_uuid'), '|', "owner_a creates the extension in $_")
  for qw(a b);
is(as($node, mon => 'a', q{SELECT rolsuper, (SELECT count(*) FROM pg_class WHERE relowner = 'mon'::regrole)
	FROM pg_roles WHERE rolname = current_user}), 'f|0|', 'mon is no superuser and owns nothing');

my $sig = 'locality_uuid_generators(double precision, double precision)';
my $ok_rows = as($node, mon => 'a', 'SELECT count(*) > 0 FROM locality_uuid_generators()');
is($ok_rows, 't|', 'mon, a pg_monitor member, reads the figures');
is(as($node, nobody => 'a', 'SELECT count(*) FROM locality_uuid_generators()'), '|ERROR:  42501',
	'a role outside pg_monitor may not');

# The columns cols of the row of generator in database db (undef: the cluster's rows), read by
# mon in database from (default db, or a); thresholds: the function's arguments.
sub fig
{
	my ($db, $generator, $cols, %o) = @_;
	my $from = $o{from} // $db // 'a';
	my $args = $o{args} // '';
	my $where = defined $db ? "database = '$db'" : 'database IS NULL';
	my ($out, $err) = psql_states($node, $from,
		"SELECT $cols FROM locality_uuid_generators($args) WHERE $where AND generator = '$generator'", user => 'mon');
	die "fig: $err" if $err ne '';
	return $out;
}

# 1. Calls: a session's calls reach its database's count when it exits; another database's stay.
$node->safe_psql('a', q{SELECT count(uuidv7_ordered()) FROM generate_series(1, 1000);
	SELECT count(hot_uuid(1)) FROM generate_series(1, 300)});
$node->safe_psql('b', q{SELECT count(locality_uuid(false)) FROM generate_series(1, 500)});
ok($node->poll_query_until('a', q{SELECT string_agg(calls_since_start::text, ',' ORDER BY generator, database)
	FROM locality_uuid_generators() WHERE generator IN ('uuidv7_ordered()', 'hot_uuid(shard_key)', 'locality_uuid(false)')
	AND database IN ('a', 'b')}, '300,0,0,500,1000,0'), 'calls counted at backend exit: a 1000 and 300, b 500');

# At a lease step: a live session's calls reach the count at its next lease renewal (a second on),
# never on the way of an id; the calls since its last step come at its exit.
my $live = $node->background_psql('a', on_error_stop => 0);
$live->query_safe('SELECT count(uuidv7_ordered()) FROM generate_series(1, 10)');
is(fig('a', 'uuidv7_ordered()', 'calls_since_start'), '1000', 'a live session\'s 10 calls are not counted yet');
Time::HiRes::sleep(1.2);
$live->query_safe('SELECT uuidv7_ordered()');
is(fig('a', 'uuidv7_ordered()', 'calls_since_start'), '1010', 'its lease step added its 10 calls, not the 11th');
$live->quit;
ok($node->poll_query_until('a', q{SELECT calls_since_start FROM locality_uuid_generators()
	WHERE database = 'a' AND generator = 'uuidv7_ordered()'}, '1011'), 'the 11th came at its exit');

# Every 65536 calls of one generator: a backend's first call is added at once, the next 65536
# when the last of them is counted.
$live = $node->background_psql('b', on_error_stop => 0);
$live->query_safe('SELECT count(hot_uuid(1)) FROM generate_series(1, 65536)');
is(fig('b', 'hot_uuid(shard_key)', 'calls_since_start'), '1', 'a live session\'s first call of 65536');
$live->query_safe('SELECT hot_uuid(1)');
is(fig('b', 'hot_uuid(shard_key)', 'calls_since_start'), '65537', 'and the next 65536 at the 65537th');
$live->quit;

# Each database's rows for every reader: b's own allocation numbers only from b.
is(fig('b', 'locality_uuid(false)', 'calls_since_start, allocation_numbers_limit', from => 'a'), '500|',
	'read from a: b\'s calls, not its sequences');
is(fig('b', 'hot_uuid(shard_key, at)', 'allocation_numbers_used, allocation_numbers_limit', from => 'b'), '0|549755813888',
	'read from b: its allocation numbers');

# 2. The clock lead, on a clock frozen at whole seconds: ids made an hour ahead, then the clock
# back an hour: the lead is an hour, and the ids made then are held there.
my $t0 = int(time()) + 10;
set_fake_clock($clock_file, frozen_clock_spec($t0 + 3600));
$node->safe_psql('a', q{SELECT uuidv7_ordered(), locality_uuid(true), hot_uuid(1)});
is(fig('a', 'uuidv7_ordered()', "newest_id_time = to_timestamp($t0 + 3600), newest_id_lead, lease_end_time - newest_id_time"),
	't|00:00:00|00:00:01', 'ahead: the newest id at the clock, its lease a second past it');
set_fake_clock($clock_file, frozen_clock_spec($t0));
is(fig('a', 'uuidv7_ordered()', 'newest_id_lead'), '01:00:00', 'the clock back an hour: uuidv7_ordered() leads by an hour');
is(fig(undef, 'locality_uuid()', 'newest_id_lead', from => 'a'), '01:00:00', 'so do the locality ids');
is(fig(undef, 'hot_uuid(shard_key)', 'newest_id_lead', from => 'a'), '01:00:00', 'and the shard-key clock ids');
is($node->safe_psql('a', "SELECT uuidv7_timestamp(uuidv7_ordered()) = to_timestamp($t0 + 3600) FROM generate_series(1, 5)"),
	join("\n", ('t') x 5), 'ids made now are held an hour ahead');
is(fig('a', 'uuidv7_ordered()', 'newest_id_lead'), '01:00:00', 'the lead stays while the ids are held');
is(fig('b', 'uuidv7_ordered()', 'newest_id_lead IS NULL', from => 'a'), 't', 'b made no ordered id: no lead');
set_fake_clock($clock_file, frozen_clock_spec($t0 + 7200));
$node->safe_psql('a', q{SELECT uuidv7_ordered()});
is(fig('a', 'uuidv7_ordered()', 'newest_id_lead'), '00:00:00', 'the clock past the held ids: no lead');

# 3. Allocation numbers toward their limits: the sequence's next range times 256 are used.
# 0.85 * 2^33 ranges of uuidv7_ordered(at) is 7301444403.2, 0.95 * 2^33 is 8160437862.4; for
# hot_uuid(at) 0.85 * 2^31 is 1825361100.8.
for my $step (
	[ 'v7', 'uuidv7_ordered(at)', 7301444402, 'ok' ],
	[ 'v7', 'uuidv7_ordered(at)', 7301444403, 'warning' ],
	[ 'v7', 'uuidv7_ordered(at)', 8160437861, 'warning' ],
	[ 'v7', 'uuidv7_ordered(at)', 8160437862, 'critical' ],
	[ 'hot', 'hot_uuid(shard_key, at)', 1825361099, 'ok' ],
	[ 'hot', 'hot_uuid(shard_key, at)', 1825361100, 'warning' ])
{
	my ($seq, $generator, $last, $status) = @$step;
	my $next = $last + 1;
	my $limit = $seq eq 'v7' ? 2**41 : 2**39;
	# The same next nextval either way: is_called, or not called at that value (setval(..., false)).
	for my $set ("$last", "$next, false")
	{
		$node->safe_psql('a', "SELECT setval('locality_uuid_${seq}_allocation', $set)");
		is(fig('a', $generator, 'allocation_numbers_used, allocation_numbers_left, share_used = ' . ($next * 256) . "::float8 / $limit, status"),
			join('|', $next * 256, $limit - $next * 256, 't', $status), "$generator, setval($set): $status");
	}
}
is(fig('a', 'worst share', 'resource, status'), 'uuidv7_ordered(at) allocation numbers|critical',
	'the worst share is uuidv7_ordered(at)\'s');
is(fig('a', 'uuidv7_ordered(at)', 'status', args => '0.9, 0.99'), 'warning', 'thresholds of the caller\'s');
$node->safe_psql('a', q{SELECT setval('locality_uuid_v7_allocation', 8589934591)});
is(fig('a', 'uuidv7_ordered(at)', 'allocation_numbers_left, share_used, status'), '0|1|critical', 'used up');
is(as($node, undef, 'a', 'SELECT uuidv7_ordered(now())'), '|ERROR:  54000', 'and uuidv7_ordered(at) says 54000');
is(fig('a', 'worst share', 'resource', from => 'b'), 'locality_uuid(true) continued run positions',
	'read from b, the worst share is among the rows b sees: not a\'s allocation numbers');

# A member sequence missing (renamed): its row's figures NULL, status unknown and why; the other
# rows stay, and the worst share is unknown unless one is critical (Nagios's order).
$node->safe_psql($_, 'ALTER SEQUENCE locality_uuid_hot_allocation RENAME TO hot_allocation_renamed') for qw(a b);
is(fig('b', 'hot_uuid(shard_key, at)', 'allocation_numbers_used, allocation_numbers_left, allocation_numbers_limit, share_used, resource, status'),
	'||549755813888||allocation numbers: sequence locality_uuid_hot_allocation missing|unknown',
	'renamed hot_allocation: NULL figures, status unknown and why');
is(fig('b', 'uuidv7_ordered(at)', 'allocation_numbers_used, status'), '0|ok', 'the other sequence is read');
is(fig('b', 'worst share', 'database, resource, share_used, status'),
	'b|hot_uuid(shard_key, at) allocation numbers: sequence locality_uuid_hot_allocation missing||unknown',
	'the worst share is unknown, naming the row');
is(fig('a', 'worst share', 'resource, status'), 'uuidv7_ordered(at) allocation numbers|critical',
	'unless a share is critical');
$node->safe_psql($_, 'ALTER SEQUENCE hot_allocation_renamed RENAME TO locality_uuid_hot_allocation') for qw(a b);
is(fig('b', 'hot_uuid(shard_key, at)', 'status'), 'ok', 'renamed back: read again');

# 4. The continued run: its lease sequence set to 3 * 2^32 + 5, the next position is above it:
# position 3 * 2^32 + 6 of the run, counter 6, and a backend's first lease 256 past it.
my $pos = 3 * 2**32 + 6;
$node->safe_psql('a', q{SELECT setval('locality_uuid_b_lease', 3 * 4294967296 + 5)});
$node->safe_psql('a', q{SELECT locality_uuid(true)});
is(fig('a', 'locality_uuid(true)', "run_position, run_counter, lease_end_position, run_position_limit, share_used = ($pos + 1)::float8 / 2^62, status"),
	join('|', $pos, 6, $pos + 256, '4611686018427387904', 't', 'ok'), 'the continued run at its position, counter and lease');
$node->safe_psql('a', q{SELECT setval('locality_uuid_b_lease', (0.96 * 2^62)::bigint)});
$node->safe_psql('a', q{SELECT locality_uuid(true)});
is(fig('a', 'locality_uuid(true)', 'share_used >= 0.96, status'), 't|critical', 'past 0.95 of its positions: critical');

# 5. The bucket rule's run, the cluster's: the index of its last id in a bucket no run took yet.
$node->safe_psql('b', q{SET locality_uuid.sequential_seed = bucket; SELECT count(locality_uuid(true)) FROM generate_series(1, 5)});
is(fig(undef, 'locality_uuid(true), bucket rule', 'run_position, run_position_limit, share_used = 5 / 2^32, status', from => 'b'),
	'4|4294967296|t|ok', 'the bucket rule\'s run: index 4 of 2^32');
set_fake_clock($clock_file, '+7300');

# 5b. Locks: the reader takes AccessShareLock on the extension's sequences only while it reads
# each, and holds none after, so DDL on them (ALTER SEQUENCE: ShareRowExclusiveLock) goes on
# while its transaction is open.
my $reader = $node->background_psql('a', on_error_stop => 0, extra_params => [ '-U', 'mon' ]);
$reader->query_safe('BEGIN; SELECT count(*) FROM locality_uuid_generators()');
is($reader->query_safe(q{SELECT coalesce(string_agg(c.relname || ' ' || l.mode, ',' ORDER BY c.relname, l.mode), 'none')
	FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE l.pid = pg_backend_pid() AND c.relkind = 'S'}),
	'none', 'the reader\'s transaction holds no lock on a sequence');
# ALTER SEQUENCE in another session, watched for a lock wait (lock_timeout reads the fake clock).
my $alter = start_psql($node, 'a', q{ALTER SEQUENCE locality_uuid_hot_allocation CACHE 1;
	ALTER SEQUENCE locality_uuid_v7_allocation CACHE 1; SELECT 'altered'});
my $blocked = '0';
for (1 .. 300)
{
	last if -s $alter->{outfile};
	$blocked = $node->safe_psql('postgres', 'SELECT count(*) FROM pg_locks WHERE NOT granted');
	last if $blocked ne '0';
	Time::HiRes::sleep(0.1);
}
is($blocked, '0', 'ALTER SEQUENCE waits for no lock while the reader\'s transaction is open');
$reader->query_safe('COMMIT');
ok(finish_psql($alter) && $alter->{out} eq 'altered', 'and is done') or diag $alter->{err};
$reader->quit;

# 5c. A restart: ids made two hours ahead, the clock set back. The shared state starts empty, yet
# the lease sequence and the server's record hold the lease's end, which the next id starts at
# or above: the row shows it, calls 0 (shared state, nothing ran), and the alert's lead is there.
my $t1 = int(time()) + 7400;
set_fake_clock($clock_file, frozen_clock_spec($t1 + 7200));
$node->safe_psql('a', q{SELECT uuidv7_ordered(), locality_uuid(true)});
set_fake_clock($clock_file, frozen_clock_spec($t1));
$node->stop;
start_on_fake_clock($node, $clock_file);
my $b_lease = $node->safe_psql('a', 'SELECT last_value FROM locality_uuid_b_lease');
is(fig('a', 'uuidv7_ordered()', "calls_since_start, newest_id_lead IS NULL, lease_end_time = to_timestamp($t1 + 7201),
	greatest(newest_id_lead, lease_end_time - now())"), '0|t|t|02:00:01',
	'restarted: no newest id, the lease end two hours ahead, calls 0');
is(fig('a', 'locality_uuid(true)', 'calls_since_start, lease_end_position'), "0|$b_lease",
	'the continued run\'s lease end from its sequence');
is($node->safe_psql('a', "SELECT uuidv7_timestamp(uuidv7_ordered()) >= to_timestamp($t1 + 7200)"), 't',
	'and the next id is two hours ahead');

# hot_uuid(shard_key, at) at the clock's own second (now() on this frozen clock) makes a clock id
# and takes no allocation numbers; at another second it takes a range. Both count as its calls.
my $hot_next = q{SELECT last_value + is_called::int FROM locality_uuid_hot_allocation};
my $hot_before = $node->safe_psql('a', $hot_next);
$node->safe_psql('a', 'SELECT hot_uuid(1, now())');
is($node->safe_psql('a', $hot_next), $hot_before, 'hot_uuid(1, now()) takes no allocation numbers');
$node->safe_psql('a', q{SELECT hot_uuid(1, now() - interval '1 hour')});
is($node->safe_psql('a', $hot_next), $hot_before + 1, 'an hour before, it takes a range');
ok($node->poll_query_until('a', q{SELECT calls_since_start FROM locality_uuid_generators()
	WHERE database = 'a' AND generator = 'hot_uuid(shard_key, at)'}, '2'), 'both count as its calls');
set_fake_clock($clock_file, '+14700');

# 5d. A dropped database's figures are not a later one's of its OID (CREATE DATABASE ... OID).
$node->safe_psql('postgres', 'CREATE DATABASE scratch');
$node->safe_psql('scratch', 'CREATE EXTENSION locality_uuid; SELECT count(hot_uuid(1)) FROM generate_series(1, 7)');
ok($node->poll_query_until('a', q{SELECT calls_since_start FROM locality_uuid_generators()
	WHERE database = 'scratch' AND generator = 'hot_uuid(shard_key)'}, '7'), 'scratch\'s 7 calls');
my $scratch = $node->safe_psql('postgres', q{SELECT oid FROM pg_database WHERE datname = 'scratch'});
$node->safe_psql('postgres', 'DROP DATABASE scratch');
$node->safe_psql('postgres', "CREATE DATABASE reborn OID $scratch");
is(fig('reborn', 'hot_uuid(shard_key)', 'count(*)', from => 'a'), '0', 'reborn, of scratch\'s OID, has no rows read from a');
$node->safe_psql('reborn', 'CREATE EXTENSION locality_uuid');
is(fig('reborn', 'hot_uuid(shard_key)', 'calls_since_start', from => 'reborn'), '0', 'read from itself: no call of its own');

# 5e. DROP EXTENSION committed while the reader waits for a sequence's lock: the sequences it
# cannot open give unknown rows, never an error.
$node->safe_psql('postgres', 'CREATE DATABASE e');
$node->safe_psql('e', 'CREATE EXTENSION locality_uuid');
my $dropper = $node->background_psql('e', on_error_stop => 0);
$dropper->query_safe('BEGIN; DROP EXTENSION locality_uuid');
my $waiting = start_psql($node, 'e', q{SELECT count(*), string_agg(status, ',') FROM locality_uuid_generators() WHERE database = 'e'},
	conn => 'user=mon');
ok($node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_locks WHERE NOT granted AND relation IS NOT NULL}),
	'the reader waits for a sequence of the extension being dropped');
$dropper->query_safe('COMMIT');
$dropper->quit;
ok(finish_psql($waiting), 'the reader ends without an error') or diag $waiting->{err};
is($waiting->{out}, '7|unknown,unknown,unknown', 'its allocation rows and the worst share are unknown');

# 5f. ALTER SEQUENCE ... RENAME committed while the reader waits for that sequence's lock: the
# sequence read is no longer the member of that name, so its row is unknown, not ok.
my $renamer = $node->background_psql('b', on_error_stop => 0);
$renamer->query_safe('BEGIN; ALTER SEQUENCE locality_uuid_hot_allocation RENAME TO hot_renamed_meanwhile');
$waiting = start_psql($node, 'b', q{SELECT resource, status FROM locality_uuid_generators()
	WHERE database = 'b' AND generator = 'hot_uuid(shard_key, at)'}, conn => 'user=mon');
ok($node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_locks WHERE NOT granted AND relation IS NOT NULL}),
	'the reader waits for the sequence being renamed');
$renamer->query_safe('COMMIT');
$renamer->quit;
ok(finish_psql($waiting), 'the reader ends without an error') or diag $waiting->{err};
is($waiting->{out}, 'allocation numbers: sequence locality_uuid_hot_allocation missing|unknown',
	'renamed while it waited: unknown, not the renamed sequence\'s share');
$node->safe_psql('b', 'ALTER SEQUENCE hot_renamed_meanwhile RENAME TO locality_uuid_hot_allocation');

# 6. The owner of the databases, no superuser: an update from 1.5 grants it to pg_monitor; a dump
# and its restore keep that; the extension drops.
is(as($node, owner_a => 'c', q{CREATE EXTENSION locality_uuid VERSION '1.5'; ALTER EXTENSION locality_uuid UPDATE}), '|',
	'owner_a updates 1.5 to 1.6');
my $grants = "SELECT has_function_privilege('pg_monitor', '$sig', 'EXECUTE'), has_function_privilege('public', '$sig', 'EXECUTE')";
is($node->safe_psql('c', $grants), 't|f', 'updated: granted to pg_monitor, not to PUBLIC');
is(as($node, mon => 'c', q{SELECT count(*) > 0 FROM locality_uuid_generators()}), 't|', 'mon reads it there');
is(fig('c', 'uuidv7_ordered()', 'count(*)', from => 'a'), '0', 'reading leaves no state of its database behind');
my $dump = $node->basedir . '/a.sql';
my ($ok, $err) = run_program('pg_dump', '-f', $dump, '-d', $node->connstr('a') . ' user=owner_a');
ok($ok && $err eq '', 'owner_a dumps a') or diag $err;
my ($rc, $out, $stderr) = psql_as($node, 'owner_a', 'd', undef, '-v', 'ON_ERROR_STOP=1', '-f', $dump);
is($rc, 0, 'owner_a restores it into d') or diag $stderr;
is($node->safe_psql('d', $grants), 't|f', 'restored: granted to pg_monitor, not to PUBLIC');
is(fig('d', 'uuidv7_ordered(at)', 'allocation_numbers_left'), '0', 'the restored sequence is read');
is(as($node, owner_a => 'd', 'DROP EXTENSION locality_uuid'), '|', 'owner_a drops the extension');

# 7. The shell alert, as docs/monitoring.md shows it, run by mon on a node of its own: a database
# whose name has a space, one named like a connection string, one at 1.5 (no function there).
my ($alert_script) = PostgreSQL::Test::Utils::slurp_file('docs/monitoring.md') =~
  /```bash\n(#!\/usr\/bin\/env bash\n# locality_uuid alert.*?)```/s
  or die 'docs/monitoring.md: no alert script';
my $alert_node = extension_node('alert', extension => 0);
my $alert_file = $alert_node->basedir . '/alert.sh';
PostgreSQL::Test::Utils::append_to_file($alert_file, $alert_script);
$alert_node->safe_psql('postgres', q{CREATE ROLE mon LOGIN IN ROLE pg_monitor;
	CREATE DATABASE "crit db"; CREATE DATABASE "host=/nonexistent"; CREATE DATABASE old});
$alert_node->safe_psql($_, 'CREATE EXTENSION locality_uuid') for ('crit db', 'host=/nonexistent');
$alert_node->safe_psql('old', q{CREATE EXTENSION locality_uuid VERSION '1.5'});

# Run the alert as the docs say: (exit code, stderr). nodb => 1: PGDATABASE not set.
sub alert
{
	my (%o) = @_;
	local $ENV{PGHOST} = $alert_node->host;
	local $ENV{PGPORT} = $alert_node->port;
	local $ENV{PGUSER} = 'mon';
	local $ENV{PGDATABASE} = 'postgres';
	delete $ENV{PGDATABASE} if $o{nodb};
	delete local $ENV{PGOPTIONS};
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'bash', $alert_file ], '<', \undef, '>', \$out, '2>', \$err);
	return ($? >> 8, $err);
}

$alert_node->safe_psql('crit db', q{SELECT setval('locality_uuid_v7_allocation', 8589934591)});
my ($code, $alert_err) = alert();
is($code, 2, 'alert: "crit db" is critical: 2, before old\'s unknown');
like($alert_err, qr/could not check database old$/m, 'and it names old, which it could not check');
$alert_node->safe_psql('crit db', q{SELECT setval('locality_uuid_v7_allocation', 0)});
($code, $alert_err) = alert();
is($code, 3, 'alert: old at 1.5 has no function: 3 (unknown)');
$alert_node->safe_psql('old', 'ALTER EXTENSION locality_uuid UPDATE');
($code, $alert_err) = alert();
is("$code|$alert_err", '0|', 'alert: every database ok: 0');
($code, $alert_err) = alert(nodb => 1);
is("$code|$alert_err", '0|', 'alert: PGDATABASE not set: the list read from postgres, not from a database named mon');
$alert_node->safe_psql('host=/nonexistent', q{SELECT setval('locality_uuid_v7_allocation', 7730941133)});
($code, $alert_err) = alert();
is("$code|$alert_err", '1|', 'alert: the database named host=/nonexistent warns: read there, not taken as a host');

# The owner of a database, no superuser, plants functions and an operator that record who called
# them in a schema first on the database's search_path: neither the alert, the one-database alert
# nor the postgres_exporter query (with the connection option the docs give it) calls them.
$alert_node->safe_psql('postgres', q{CREATE ROLE alice LOGIN; CREATE DATABASE evil OWNER alice});
is(as($alert_node, alice => 'evil', q{CREATE EXTENSION locality_uuid;
	CREATE SCHEMA ev; GRANT USAGE ON SCHEMA ev TO PUBLIC;
	CREATE TABLE ev.called (who name, what text); GRANT INSERT ON ev.called TO PUBLIC;
	CREATE FUNCTION ev.spy(what text) RETURNS void LANGUAGE sql
		AS $$ INSERT INTO ev.called SELECT current_user, what $$;
	CREATE FUNCTION ev.quote_ident(name) RETURNS text LANGUAGE sql
		AS $$ SELECT ev.spy('quote_ident(name)'); SELECT pg_catalog.quote_ident($1::text) $$;
	CREATE FUNCTION ev.quote_ident(text) RETURNS text LANGUAGE sql
		AS $$ SELECT ev.spy('quote_ident(text)'); SELECT pg_catalog.quote_ident($1) $$;
	CREATE FUNCTION ev.now() RETURNS timestamptz LANGUAGE sql
		AS $$ SELECT ev.spy('now()'); SELECT pg_catalog.now() $$;
	CREATE FUNCTION ev.text_eq(text, text) RETURNS boolean LANGUAGE sql
		AS $$ SELECT ev.spy('='); SELECT pg_catalog.texteq($1, $2) $$;
	CREATE OPERATOR ev.= (LEFTARG = text, RIGHTARG = text, FUNCTION = ev.text_eq);
	CREATE FUNCTION ev.name_eq(name, name) RETURNS boolean LANGUAGE sql
		AS $$ SELECT ev.spy('='); SELECT pg_catalog.nameeq($1, $2) $$;
	CREATE OPERATOR ev.= (LEFTARG = name, RIGHTARG = name, FUNCTION = ev.name_eq);
	ALTER DATABASE evil SET search_path = ev, pg_catalog, public}), '|', 'alice plants her functions in evil');
is(as($alert_node, mon => 'evil', q{SELECT quote_ident('x')}), 'x|', 'mon calls quote_ident, left to the path');
is($alert_node->safe_psql('evil', 'SELECT who, what FROM ev.called'), 'mon|quote_ident(text)',
	'planted: that called hers, as mon');
$alert_node->safe_psql('evil', 'TRUNCATE ev.called');
# A role's setting in the database comes before the database's; the client's option before both.
$alert_node->safe_psql('postgres', 'ALTER ROLE mon IN DATABASE evil SET search_path = ev, pg_catalog');
($code, $alert_err) = alert();
is("$code|$alert_err", '1|', 'alert: evil read, ok: the warning stays');
my $called = q{SELECT count(*) FROM ev.called};
is($alert_node->safe_psql('evil', $called), '0', 'and no planted function or operator was called');

my $docs = PostgreSQL::Test::Utils::slurp_file('docs/monitoring.md');
my ($one_db) = $docs =~ /```sh\n(test "\$\(PGOPTIONS=.*?)```/s or die 'docs/monitoring.md: no one-database alert';
my ($exporter) = $docs =~ /locality_uuid_generators:\n  query: \|\n(.*?)\n  metrics:/s
  or die 'docs/monitoring.md: no postgres_exporter query';
my ($dsn_options) = $docs =~ /given `options=(-c search_path=pg_catalog)`/ or die 'docs/monitoring.md: no exporter options';
{
	local $ENV{PGHOST} = $alert_node->host;
	local $ENV{PGPORT} = $alert_node->port;
	local $ENV{PGUSER} = 'mon';
	local $ENV{PGDATABASE} = 'evil';
	delete local $ENV{PGOPTIONS};
	IPC::Run::run([ 'bash', '-c', $one_db ], '<', \undef, '>', \my $one_out, '2>', \my $one_err);
	is(($? >> 8) . "|$one_err", '0|', 'the one-database alert: no id a minute ahead in evil');
}
my ($exported, $exporter_err) = psql_states($alert_node, 'evil', "SELECT count(*) > 0 FROM ($exporter) q",
	user => 'mon', options => $dsn_options);
is("$exported|$exporter_err", 't|', 'the postgres_exporter query reads evil\'s rows');
is($alert_node->safe_psql('evil', $called), '0', 'neither called a planted function or operator');

# In a database at 1.5 (no locality_uuid_generators there), alice's function of that name, which
# says ok, is never called: the database could not be checked.
$alert_node->safe_psql('postgres', q{CREATE DATABASE old15 OWNER alice});
is(as($alert_node, alice => 'old15', q{CREATE EXTENSION locality_uuid VERSION '1.5';
	CREATE TABLE public.called (who name); GRANT INSERT ON public.called TO PUBLIC;
	CREATE FUNCTION public.locality_uuid_generators(float8 DEFAULT 0.85, float8 DEFAULT 0.95)
		RETURNS TABLE (generator text, status text) LANGUAGE sql
		AS $$ INSERT INTO public.called SELECT current_user; SELECT 'worst share', 'ok' $$}), '|',
	'alice plants locality_uuid_generators in old15, at 1.5');
($code, $alert_err) = alert();
is("$code|$alert_err", "3|locality_uuid: could not check database old15\n", 'alert: old15 could not be checked: 3');
is($alert_node->safe_psql('old15', 'SELECT count(*) FROM public.called'), '0', 'and her function was not called');
$alert_node->stop;

done_testing();
