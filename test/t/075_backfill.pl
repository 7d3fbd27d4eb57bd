# Backfills never repeat: ids made by hot_uuid(k, at) at one explicit second before and after
# each event that ends a server's memory (a clean restart, a crash restart, a standby's
# promotion, pg_upgrade) and, inside one backend, after the second has been pushed out of the
# backend's table by other seconds: no id repeats. Both editions: the C extension (100,000 ids
# each side, 390 ranges of 256) and the portable SQL edition in schema p (20,000 ids each side, 78
# ranges: it runs in PL/pgSQL); a sequence WAL-logs 32 values ahead, so each side crosses several.
# On 15 and 16 with and without the library preloaded; 17 and later have one kind of state.
# The servers run on a clock held still (libfaketime), where there is one.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

my $at = '2024-03-01 12:00:00+00';

# With libfaketime, every server of this test runs on a clock held at one instant, so that
# nothing but the extension's own state keeps the ids of two runs apart: a generator that
# started its explicit-time counters from the clock would repeat every one. Without it, the
# real clock, on which such a generator repeats only sometimes.
if (my $lib = libfaketime())
{
	$ENV{LD_PRELOAD} = $lib;
	$ENV{FAKETIME} = '2030-01-01 00:00:00';
	$ENV{FAKETIME_DONT_FAKE_MONOTONIC} = '1';
	$ENV{TZ} = 'UTC';
	note 'clock held at 2030-01-01 00:00:00 UTC (libfaketime)';
}
else
{
	note 'libfaketime not found: the real clock';
}
my @editions = (
	[ 'C extension' => 'hot_uuid', $ENV{LOCALITY_UUID_BACKFILL_IDS} // 100_000 ],
	[ 'portable edition' => 'p.hot_uuid', $ENV{LOCALITY_UUID_BACKFILL_IDS_PORTABLE} // 20_000 ],
);

# A node with both editions and the table the ids go to.
sub backfill_node
{
	my ($name, $preload, %opts) = @_;
	my $node = extension_node($name, preload => $preload, %opts);
	install_portable($node, 'postgres', schema => 'p');
	$node->safe_psql('postgres', 'CREATE TABLE ids (edition text, phase text, id uuid)');
	return $node;
}

# Make each edition's ids at $at in one statement (one backend), tagged with the phase.
sub backfill
{
	my ($node, $phase) = @_;
	for my $e (@editions)
	{
		my ($edition, $fn, $n) = @$e;
		my ($rc, $out, $err) = $node->psql('postgres',
			"INSERT INTO ids SELECT '$edition', '$phase', $fn(7, '$at') FROM generate_series(1, $n)");
		is($rc, 0, "$phase: $edition made $n ids at $at") or diag $err;
	}
}

# No id repeats, per edition, across every phase so far.
sub no_repeats
{
	my ($node, $what) = @_;
	for my $e (@editions)
	{
		my ($edition, undef, $n) = @$e;
		is( $node->safe_psql('postgres',
				"SELECT count(*) || ' ids, ' || (count(*) - count(DISTINCT id)) || ' repeats'
				 FROM ids WHERE edition = '$edition'"),
			2 * $n . ' ids, 0 repeats',
			"$what: $edition, $n ids before and $n after, none repeats");
	}
}

for my $kind (state_kinds())
{
	my ($tag, $preload) = @$kind{qw(name preload)};
	note "state: " . ($preload ? 'library preloaded' : 'not preloaded');

	# A clean restart, then a crash restart, of one node.
	my $node = backfill_node("restart_$tag", $preload);
	backfill($node, 'before restart');
	$node->restart;
	backfill($node, 'after restart');
	no_repeats($node, "clean restart ($tag)");
	$node->safe_psql('postgres', 'TRUNCATE ids');
	backfill($node, 'before crash');
	$node->stop('immediate');
	$node->start;
	backfill($node, 'after crash');
	no_repeats($node, "crash restart ($tag)");

	# A second pushed out of the backend's table: the same second, then 300 others, then the
	# same second again, all in one backend.
	$node->safe_psql('postgres', 'TRUNCATE ids');
	for my $e (@editions)
	{
		my ($edition, $fn, $n) = @$e;
		$node->safe_psql('postgres', qq{
			INSERT INTO ids SELECT '$edition', 'first', $fn(7, '$at') FROM generate_series(1, $n);
			CREATE TEMP TABLE other_seconds AS
			  SELECT $fn(7, timestamptz '$at' + s * interval '1 second') FROM generate_series(1, 300) s;
			INSERT INTO ids SELECT '$edition', 'again', $fn(7, '$at') FROM generate_series(1, $n);});
	}
	no_repeats($node, "a second forgotten by its backend ($tag)");
	$node->stop;

	# A standby's promotion: the primary backfills, the standby replays, the primary goes away,
	# the promoted standby backfills the same second.
	my $primary = backfill_node("primary_$tag", $preload, init => { allows_streaming => 1 });
	$primary->backup('base');
	my $standby = PostgreSQL::Test::Cluster->new("standby_$tag");
	$standby->init_from_backup($primary, 'base', has_streaming => 1);
	$standby->start;
	backfill($primary, 'on the primary');
	$primary->wait_for_catchup($standby);
	$primary->stop('immediate');
	$standby->promote;
	backfill($standby, 'on the promoted standby');
	no_repeats($standby, "promotion of a standby ($tag)");
	$standby->stop;

	# pg_upgrade into a new cluster of the same binaries.
	my $old = backfill_node("old_$tag", $preload);
	backfill($old, 'before pg_upgrade');
	$old->stop;
	my $new = PostgreSQL::Test::Cluster->new("new_$tag");
	$new->init;
	$new->append_conf('postgresql.conf', q{shared_preload_libraries = 'locality_uuid'}) if $preload;
	my ($ok, $output) = pg_upgrade_into($old, $new);
	ok($ok, "pg_upgrade ($tag)") or diag $output;
	$new->start;
	backfill($new, 'after pg_upgrade');
	no_repeats($new, "pg_upgrade ($tag)");
	$new->stop;
}

done_testing();
