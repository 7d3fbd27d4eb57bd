# uuidv7_ordered(): on a frozen clock, ids strictly increasing across interleaved backends (where
# uuidv7() is ordered per backend only), distinct under concurrent backends, and still greater
# than every id made before after a clean restart, a crash, pg_upgrade and a standby's promotion,
# each with the clock stepped back; explicit-time ids repeat no allocation number across them.
# On every kind of state: a database's ordered ids stay above its earlier ones after a restart
# on a clock stepped back even when another database makes the first id, and a clock that ran a
# year ahead keeps them a year ahead across a crash restart until it catches up.
use strict;
use warnings;

use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'libfaketime not found (Debian package faketime; or set LIBFAKETIME)'
  unless libfaketime();

my $clock_file = "$PostgreSQL::Test::Utils::tmp_check/220_uuidv7_ordered.faketime";
my $t0 = int(time()) + 0.25;
set_fake_clock($clock_file, frozen_clock_spec($t0));

# Shared state: the DSM registry from 17, shared_preload_libraries before.
my ($shared) = grep { $_->{shared} } state_kinds();
my @conf = ('fsync = off', 'autovacuum = off',
	$shared->{preload} ? q{shared_preload_libraries = 'locality_uuid'} : ());

my $primary = extension_node('primary', init => { allows_streaming => 1 }, conf => \@conf, clock => $clock_file);
$primary->safe_psql('postgres', 'CREATE TABLE ids (n bigserial PRIMARY KEY, who text, u uuid)');

# Rows of ids (in the order made) whose id is not greater than the one made before.
sub not_increasing
{
	my ($node, $where) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT count(*) FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM ids WHERE $where) s
		WHERE u <= prev});
}

# 1. Three backends take turns on a frozen clock: one increasing run across all of them.
my @bg = map { $primary->background_psql('postgres') } 1 .. 3;
for my $round (1 .. 100)
{
	for my $i (0 .. 2)
	{
		$bg[$i]->query_safe(qq{INSERT INTO ids (who, u) VALUES ('turns', uuidv7_ordered());
			INSERT INTO ids (who, u) VALUES ('core_turns', uuidv7());});
	}
}
$_->quit for @bg;
is(not_increasing($primary, q{who = 'turns'}), '0',
	'interleaved backends on a frozen clock: 300 ordered ids strictly increasing');

# A new session goes on from the shared word, not from its lease (which is up to 1 s ahead).
is($primary->safe_psql('postgres', q{
	SELECT uuidv7_timestamp(uuidv7_ordered()) - (SELECT max(uuidv7_timestamp(u)) FROM ids WHERE who = 'turns')}),
	'00:00:00', "a new session's first id is in the millisecond of the ids before it");
cmp_ok(not_increasing($primary, q{who = 'core_turns'}), '>', 0,
	'uuidv7() of the same backends is ordered per backend only (the test can tell)');

# 2. Four backends at once: all distinct, each one increasing.
my @runs = map {
	start_psql($primary, 'postgres',
		qq{INSERT INTO ids (who, u) SELECT 'conc$_', uuidv7_ordered() FROM generate_series(1, 20000);})
} 1 .. 4;
ok(finish_psql($_), 'concurrent backend finished') for @runs;
is($primary->safe_psql('postgres',
	q{SELECT count(*) || ' ' || count(DISTINCT u) FROM ids WHERE who LIKE 'conc%'}),
	'80000 80000', 'four concurrent backends: 80000 distinct ids');
is(not_increasing($primary, "who = 'conc$_'"), '0', "backend conc$_ increasing") for 1 .. 4;

# Explicit-time ids: allocation numbers (rand_a, byte 8's low bits, bytes 9..11) of one millisecond.
my $at = '2020-01-01 00:00:00+00';
sub backfill
{
	my ($node, $who) = @_;
	$node->safe_psql('postgres',
		qq{INSERT INTO ids (who, u) SELECT 'at_$who', uuidv7_ordered('$at') FROM generate_series(1, 1000)});
}

sub allocations_distinct
{
	my ($node) = @_;
	return $node->safe_psql('postgres', q{
		SELECT count(*) = count(DISTINCT substr(u::text, 16, 3) || substr(u::text, 20, 4) || substr(u::text, 25, 4))
		FROM ids WHERE who LIKE 'at\_%'});
}

# After each event, on a clock stepped back another hour: every new id above every id before.
my $back = 0;
sub after_event
{
	my ($node, $event) = @_;
	my $max = $node->safe_psql('postgres', q{SELECT u FROM ids WHERE who NOT LIKE 'at\_%' ORDER BY u DESC LIMIT 1});
	$node->safe_psql('postgres',
		qq{INSERT INTO ids (who, u) SELECT 'after', uuidv7_ordered() FROM generate_series(1, 1000)});
	is($node->safe_psql('postgres', qq{SELECT count(*) FROM ids WHERE who = 'after' AND u <= '$max'}),
		'0', "$event, clock stepped back: new ids above every id before");
	is($node->safe_psql('postgres', q{SELECT count(*) FROM ids WHERE who = 'after'}), '1000',
		"$event: ids made");
	$node->safe_psql('postgres', q{UPDATE ids SET who = 'before' WHERE who = 'after'});
	backfill($node, $event);
	is(allocations_distinct($node), 't', "$event: no explicit-time allocation number repeats");
}

sub step_back
{
	$back += 3600;
	set_fake_clock($clock_file, frozen_clock_spec($t0 - $back));
}

backfill($primary, 'first');

# 3. Clean restart, then crash restart.
$primary->stop;
step_back();
start_on_fake_clock($primary, $clock_file);
after_event($primary, 'clean restart');

$primary->stop('immediate');
step_back();
start_on_fake_clock($primary, $clock_file);
after_event($primary, 'crash restart');

# 4. A standby replays the leases; it cannot extend one; promoted, it goes on above the primary.
$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
start_on_fake_clock($standby, $clock_file);
$primary->safe_psql('postgres',
	q{INSERT INTO ids (who, u) SELECT 'primary', uuidv7_ordered() FROM generate_series(1, 1000)});
backfill($primary, 'primary');
$primary->wait_for_catchup($standby);
is((psql_states($standby, 'postgres', 'SELECT uuidv7_ordered()'))[1], 'ERROR:  25006',
	'on a standby: 25006 (no lease can be extended)');
$primary->stop('immediate');
step_back();
$standby->promote;
after_event($standby, 'promotion');
$standby->stop;

# 5. pg_upgrade into a new cluster of the same binaries.
my $new = PostgreSQL::Test::Cluster->new('new');
$new->init;
$new->append_conf('postgresql.conf', join("\n", @conf));
my ($ok, $output) = pg_upgrade_into($standby, $new);
ok($ok, 'pg_upgrade') or diag $output;
step_back();
start_on_fake_clock($new, $clock_file);
after_event($new, 'pg_upgrade');

# 6. A clock outside 1970 .. 9999: 22008, nothing taken; the clock back, ids go on above.
my @generators = ('uuidv7_ordered()');
push @generators, 'uuidv7()', q{uuidv7('1 day')} if int($new->pg_version->major) < 18;
my $last = $new->safe_psql('postgres', q{SELECT u FROM ids ORDER BY u DESC LIMIT 1});
for my $t ([ 'before 1970', '-21000d' ], [ 'year 10500', '+3095000d' ])
{
	set_fake_clock($clock_file, $t->[1]);
	for my $g (@generators)
	{
		is((psql_states($new, 'postgres', "SELECT $g"))[1], 'ERROR:  22008', "clock $t->[0]: $g raises 22008");
	}
}
set_fake_clock($clock_file, frozen_clock_spec($t0 - $back));
is($new->safe_psql('postgres', qq{SELECT uuidv7_ordered() > '$last'}), 't',
	'the clock back in range: the next id is above every id before');
$new->stop;

# 7. Several databases, on every kind of state. db1 (postgres) makes ids, the server stops, the
# clock goes back an hour, db2 makes the first id after the start, then db1 again: above every
# id db1 made before (each database's first id after a start starts at its own lease). Then the
# clock a year ahead, ids, a crash restart on the right clock: the ids stay a year ahead (the
# lease holds them there until the clock catches up), above every one before.
my $db_clock = "$PostgreSQL::Test::Utils::tmp_check/220_databases.faketime";
for my $kind (state_kinds())
{
	my $tag = $kind->{name};
	my $t1 = int(time()) + 0.25;
	set_fake_clock($db_clock, frozen_clock_spec($t1));
	my $node = extension_node("databases_$tag", preload => $kind->{preload},
		conf => [ 'fsync = off', 'autovacuum = off' ], clock => $db_clock);
	$node->safe_psql('postgres', 'CREATE DATABASE db2');
	$node->safe_psql('db2', 'CREATE EXTENSION locality_uuid');
	$node->safe_psql('postgres', 'CREATE TABLE t (n bigserial, phase text, u uuid DEFAULT uuidv7_ordered())');
	my $insert = sub {
		my ($phase) = @_;
		$node->safe_psql('postgres', qq{INSERT INTO t (phase) SELECT '$phase' FROM generate_series(1, 1000)});
	};
	my $below = sub {
		my ($phase, $before) = @_;
		return $node->safe_psql('postgres', qq{
			SELECT count(*) FROM t WHERE phase = '$phase' AND u <= (SELECT u FROM t WHERE phase IN ($before) ORDER BY u DESC LIMIT 1)});
	};
	$insert->('first');
	$node->stop;
	set_fake_clock($db_clock, frozen_clock_spec($t1 - 3600));
	start_on_fake_clock($node, $db_clock);
	$node->safe_psql('db2', 'SELECT uuidv7_ordered()');
	$insert->('after restart');
	is($below->('after restart', q{'first'}), '0',
		"$tag: clock an hour back across a restart, db2 first: 0 of 1000 new ids of db1 below its old ones");

	set_fake_clock($db_clock, frozen_clock_spec($t1 + 365 * 86400));
	$insert->('year ahead');
	$node->stop('immediate');
	set_fake_clock($db_clock, frozen_clock_spec($t1));
	start_on_fake_clock($node, $db_clock);
	$node->safe_psql('db2', 'SELECT uuidv7_ordered()');
	$insert->('after crash');
	is($below->('after crash', q{'first', 'after restart', 'year ahead'}), '0',
		"$tag: a year ahead, then a crash restart on the right clock: 0 of 1000 below");
	is($node->safe_psql('postgres', qq{
		SELECT min(uuidv7_timestamp(u)) >= to_timestamp($t1) + interval '365 days' FROM t WHERE phase = 'after crash'}),
		't', "$tag: after the crash restart the ids are still a year ahead (until the clock catches up)");
	$node->stop;
}

done_testing();
