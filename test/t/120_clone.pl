# A copy made with pg_basebackup keeps the identity settings ALTER SYSTEM wrote: promoted beside
# its origin, it makes ids with the origin's node field, machine hash and process fields, and
# locality_uuid_identity() tells the two apart only by their timeline. With the documented step
# (a node id and machine name of its own, set on the copy before it makes ids) the two make
# distinct ids, at once on the real clock and under one frozen clock (libfaketime, if present).
use strict;
use warnings;

use Digest::MD5 qw(md5_hex);
use JSON::PP;
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $faketime = libfaketime();
my $clock_file = "$PostgreSQL::Test::Utils::tmp_check/120_clone.faketime";
my %clock_env = $faketime ? fake_clock_env($clock_file) : ();
set_fake_clock($clock_file, '+0') if $faketime;

# One backend slot per server: each server's only session holds slot 0, as the first session
# after a start often does, so the process fields of the two servers are equal.
my @conf = (
	'max_connections = 1', 'superuser_reserved_connections = 0',
	'autovacuum = off', 'max_parallel_workers_per_gather = 0', 'fsync = off');

my $origin;
{
	local @ENV{ keys %clock_env } = values %clock_env;
	$origin = extension_node('origin', init => { allows_streaming => 1 }, conf => \@conf);
}
# The documented way to give a server its identity: ALTER SYSTEM (LOAD first on 15 and 16),
# reload; then wait until new sessions have it.
sub set_identity
{
	my ($node, $node_id, $machine_name) = @_;
	$node->safe_psql('postgres', qq{
		LOAD 'locality_uuid';
		ALTER SYSTEM SET locality_uuid.node_id = $node_id;
		ALTER SYSTEM SET locality_uuid.machine_name = '$machine_name';
		SELECT pg_reload_conf();
	});
	$node->poll_query_until('postgres', "SELECT node = $node_id FROM locality_uuid_identity()")
	  or die $node->name . " did not take node_id $node_id";
}

set_identity($origin, 101, 'db-origin');
$origin->backup('copy');

# This server's locality_uuid_identity() as a hash.
sub identity
{
	my ($node) = @_;
	return decode_json($node->safe_psql('postgres',
		'SELECT row_to_json(i) FROM locality_uuid_identity() i'));
}

# Make a server from the base backup, streaming from the origin; run $step on it while it
# is a standby; promote it unless the step did.
sub copy_of_origin
{
	my ($name, $step) = @_;
	my $copy = PostgreSQL::Test::Cluster->new($name);
	$copy->init_from_backup($origin, 'copy', has_streaming => 1);
	{
		local @ENV{ keys %clock_env } = values %clock_env;
		$copy->start;
	}
	$origin->wait_for_catchup($name);
	$step->($copy) if $step;
	$copy->promote if $copy->safe_psql('postgres', 'SELECT pg_is_in_recovery()') eq 't';
	$copy->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die "$name was not promoted";
	return $copy;
}

# The copy used as a server of its own, without the step.
my $clone = copy_of_origin('clone');

# The copy with the documented step, taken while it is a standby: a node id and a machine
# name of its own, with ALTER SYSTEM (which writes the copy's postgresql.auto.conf), then a
# reload; checked with locality_uuid_identity() before it is promoted with pg_promote().
my %standby;
my $fixed = copy_of_origin(
	'fixed',
	sub {
		my ($copy) = @_;
		set_identity($copy, 202, 'db-clone');
		%standby = %{ identity($copy) };
		$copy->safe_psql('postgres', 'SELECT pg_promote()');
	});

my %o = %{ identity($origin) };
my %c = %{ identity($clone) };
my %f = %{ identity($fixed) };

# The machine hash of a name as bytea text: the first 3 bytes of its MD5.
sub hash_of { return '\\x' . substr(md5_hex($_[0]), 0, 6) }

# What the identity shows before the step: the copy has everything of the origin but its
# timeline (and its data directory).
is( join(' ', map { $o{$_} } qw(node node_source machine_name machine_source node_line in_recovery)),
	'101 configuration file db-origin configuration file 3 0',
	'origin: node 101 and machine name db-origin from postgresql.auto.conf line 3');
is($o{node_file}, $origin->data_dir . '/postgresql.auto.conf', 'origin: the file is its own postgresql.auto.conf');
is($o{machine_hash}, hash_of('db-origin'), 'origin: the machine hash is MD5 of db-origin');
is($c{node_file}, $clone->data_dir . '/postgresql.auto.conf', 'copy: the setting comes from the copied postgresql.auto.conf');
foreach my $part (qw(node node_source node_line mac machine_hash machine_name machine_source
	process_field system_identifier in_recovery state))
{
	is($c{$part} // 'NULL', $o{$part} // 'NULL', "copy without the step: $part is the origin's");
}
is("$o{timeline} $c{timeline}", '1 2', 'the timeline tells them apart: 1 on the origin, 2 on the promoted copy');

# The standby after the step, and the promoted copy.
is( join(' ', map { $standby{$_} } qw(node machine_name in_recovery timeline)),
	'202 db-clone 1 1', 'standby after the step: node 202, machine name db-clone, in recovery on timeline 1');
is($standby{node_file}, $fixed->data_dir . '/postgresql.auto.conf', 'standby: ALTER SYSTEM wrote its own postgresql.auto.conf');
is( join(' ', map { $f{$_} } qw(node machine_name in_recovery timeline)),
	'202 db-clone 0 2', 'promoted copy with the step: node 202, machine name db-clone, timeline 2');
is($f{machine_hash}, hash_of('db-clone'), 'the step: the machine hash is MD5 of db-clone');
isnt($f{machine_hash}, $o{machine_hash}, 'the step: the machine hashes differ');
is($f{system_identifier}, $o{system_identifier}, 'the system identifier stays the origin\'s');

# A copy started without standby.signal (recovery from the backup alone) does not even
# start a new timeline: nothing in its identity differs from the origin's.
my $plain = PostgreSQL::Test::Cluster->new('plain');
$plain->init_from_backup($origin, 'copy');
$plain->start;
my %p = %{ identity($plain) };
is( join(' ', map { $p{$_} // 'NULL' } qw(node machine_name system_identifier timeline in_recovery)),
	join(' ', map { $o{$_} // 'NULL' } qw(node machine_name system_identifier timeline in_recovery)),
	'copy started without a signal file: node, machine name, system identifier and timeline are the origin\'s');
$plain->stop;

# Who sees what: the values and their sources for every role, the file and line (as in
# pg_settings) and the MAC only with the privileges of pg_read_all_settings.
$origin->safe_psql('postgres',
	'CREATE ROLE plain LOGIN; CREATE ROLE reader LOGIN IN ROLE pg_read_all_settings');
my $who_sees = q{SELECT node, node_source, machine_name, node_file IS NOT NULL, node_line IS NOT NULL,
	mac IS NOT NULL, mac_interface IS NOT NULL FROM locality_uuid_identity()};
my $mac_shown = defined $o{mac} ? 't' : 'f';
is($origin->safe_psql('postgres', $who_sees, connstr => $origin->connstr('postgres') . ' user=plain'),
	'101|configuration file|db-origin|f|f|f|f', 'an ordinary role sees the values and sources, not the file, line or MAC');
is($origin->safe_psql('postgres', $who_sees, connstr => $origin->connstr('postgres') . ' user=reader'),
	"101|configuration file|db-origin|t|t|$mac_shown|$mac_shown", 'a member of pg_read_all_settings sees the file, the line and the MAC');

# The comparison of docs/guarantees.md, run on the origin against each copy over dblink.
SKIP:
{
	skip 'dblink is not installed', 2
	  unless $origin->safe_psql('postgres', "SELECT count(*) FROM pg_available_extensions WHERE name = 'dblink'");
	$origin->safe_psql('postgres', 'CREATE EXTENSION dblink');
	foreach my $case ([ $clone, 't|t|t|1|2', 'without the step: same node and machine hash' ],
		[ $fixed, 'f|f|t|1|2', 'with the step: node and machine hash differ' ])
	{
		my ($copy, $want, $what) = @$case;
		my $conn = 'host=' . $copy->host . ' port=' . $copy->port . ' dbname=postgres';
		is($origin->safe_psql('postgres', qq{
SELECT here.node = there.node AS same_node,
       here.machine_hash = there.machine_hash AS same_machine_hash,
       here.system_identifier = there.system_identifier AS same_system,
       here.timeline AS timeline_here, there.timeline AS timeline_there
FROM locality_uuid_identity() AS here,
     dblink('$conn',
            'SELECT node, machine_hash, system_identifier, timeline FROM locality_uuid_identity()')
       AS there(node integer, machine_hash bytea, system_identifier bigint, timeline bigint);}),
			$want, "comparison over dblink, $what");
	}
}

# The rows each server makes, one session per server, all at once: locality_uuid(false),
# locality_uuid(true) and hot_uuid(7) in each row. Under the real clock the sessions wait for a
# common start. Returns per server [summary line, [rows]].
my $rows = 16667;    # 3 ids a row, 2 servers: about 100000 ids a run
my $session_setup = '';    # statements each session runs first

sub generate_at_once
{
	my ($wait, @nodes) = @_;
	my $start = sprintf('%.3f', time + 3);
	my $sql = $session_setup . ($wait ? "DO \$\$BEGIN PERFORM pg_sleep_until(to_timestamp($start)); END\$\$;\n" : '') . qq{
		CREATE TEMP TABLE g AS
		SELECT locality_uuid(false) AS v, locality_uuid(true) AS s, hot_uuid(7) AS h
		FROM generate_series(1, $rows);
		SELECT string_agg(DISTINCT locality_uuid_node(v)::text, ',') || ' '
		       || string_agg(DISTINCT locality_uuid_node(s)::text, ',') || ' '
		       || string_agg(DISTINCT encode(hot_uuid_machine(h), 'hex'), ',') || ' '
		       || string_agg(DISTINCT locality_uuid_pid(v)::text || ',' || locality_uuid_pid(s)
		                     || ',' || hot_uuid_process(h), ';')
		FROM g;
		COPY g TO STDOUT;
	};
	my @sessions = map { start_psql($_, 'postgres', $sql) } @nodes;
	my @got;
	foreach my $h (@sessions)
	{
		finish_psql($h) or die "generation failed: $h->{err}";
		my ($summary, @lines) = split /\n/, $h->{out};
		push @got, [ $summary, [ map { [ split /\t/ ] } @lines ] ];
	}
	return @got;
}

# How many ids of column col in b are also in a (b has no repeats of its own: checked).
sub collisions
{
	my ($a, $b, $col) = @_;
	my %seen = map { $_->[$col] => 1 } @$a;
	my %own;
	$own{ $_->[$col] }++ for @$b;
	die 'a server repeated its own ids' if grep { $_ > 1 } values %own;
	return scalar grep { $seen{ $_->[$col] } } @$b;
}

my @kinds = ([ 'locality_uuid(false)', 0 ], [ 'locality_uuid(true)', 1 ], [ 'hot_uuid(7)', 2 ]);

# Without the step, real clock: every id of both servers carries node 101, the machine hash of
# db-origin and process field 0, so only the clock and the counter separate them. How many
# collide depends on timing, so the count is noted, not asserted.
my ($go, $gc) = generate_at_once(1, $origin, $clone);
my $origin_hash = substr(hash_of('db-origin'), 2);
is($go->[0], "101 101 $origin_hash 0,0,0", 'origin: its ids carry node 101, db-origin\'s hash and process field 0');
is($gc->[0], $go->[0], 'copy without the step: its ids carry the same node field, machine hash and process field');
my @real = map { collisions($go->[1], $gc->[1], $_->[1]) } @kinds;
note 'without the step, real clock: ids of the copy also made by the origin, of ' . $rows . ' each: '
  . join(', ', map { "$kinds[$_][0] $real[$_]" } 0 .. 2);

# With the step, real clock: zero collisions across all 100002 ids.
my ($go2, $gf) = generate_at_once(1, $origin, $fixed);
my $fixed_hash = substr(hash_of('db-clone'), 2);
is($gf->[0], "202 202 $fixed_hash 0,0,0", 'copy with the step: its ids carry node 202 and db-clone\'s hash');
is( join(' ', map { collisions($go2->[1], $gf->[1], $_->[1]) } @kinds),
	'0 0 0', "with the step, real clock: no id of the copy was made by the origin (2 x $rows rows, 3 ids each)");

SKIP:
{
	skip 'libfaketime not found (Debian package faketime; or set LIBFAKETIME)', 2 unless $faketime;

	# One frozen clock for both servers: without the step, the copy makes the origin's
	# shard-key ids one for one (the same machine hash, slot and ticks from the frozen one on),
	# and its sequential ids from the same run of counters in a new 10-minute bucket, until
	# each server's own variable ids (random starts) push one of them to the next millisecond;
	# with the step, none of them. The sessions follow the bucket seed rule, whose runs of one
	# bucket start at the same counter on every server: the continued run (the default) starts
	# each server where its own last id left off, so whether it meets the origin's ids here
	# depends on how many ids each made before; uniqueness must not rest on that either.
	$session_setup = "SET locality_uuid.sequential_seed = bucket;\n";
	my $frozen = int(time) + 86400;
	set_fake_clock($clock_file, frozen_clock_spec($frozen));
	my ($fo, $fc) = generate_at_once(0, $origin, $clone);
	my ($seq, $hot) = map { collisions($fo->[1], $fc->[1], $_->[1]) } @kinds[ 1, 2 ];
	is($hot, $rows, "without the step, frozen clock: every one of the copy's $rows shard-key ids was also made by the origin");
	cmp_ok($seq, '>', 0, "without the step, frozen clock: $seq of the copy's $rows sequential ids were also made by the origin");

	set_fake_clock($clock_file, frozen_clock_spec($frozen + 3600));
	my ($fo2, $ff) = generate_at_once(0, $origin, $fixed);
	is( join(' ', map { collisions($fo2->[1], $ff->[1], $_->[1]) } @kinds),
		'0 0 0', 'with the step, frozen clock: no id of the copy was made by the origin');
	set_fake_clock($clock_file, '+0');
}

done_testing();
