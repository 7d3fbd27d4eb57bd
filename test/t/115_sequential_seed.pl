# locality_uuid(true) over six 10-minute buckets on a fake clock, with a clean and a crash restart
# between them: under the default locality_uuid.sequential_seed = continue the primary key's leaf
# density stays at or above 85 % and no id made after a restart sorts below one made before;
# under bucket (each bucket's run starts at a hash of its time) the density falls below 85 %.
use strict;
use warnings FATAL => 'all';

use LocalityUuid;
use Test::More;

plan skip_all => 'libfaketime not found (Debian package faketime; or set LIBFAKETIME)'
  unless libfaketime();

my $clock_file = "$PostgreSQL::Test::Utils::tmp_check/115_sequential_seed.faketime";
my $rows = 50000;				# per bucket, in 5 sessions of 10000
my $t0 = 1714521630;			# 2024-05-01 00:00:30 UTC, 30 s into a bucket

# Start the node again on the fake clock after a clean or an immediate (crash) stop.
sub restart
{
	my ($node, $mode) = @_;
	$node->stop($mode);
	start_on_fake_clock($node, $clock_file);
	return;
}

# The primary key's average leaf density in per cent, to a tenth.
sub density
{
	my ($node) = @_;
	return $node->safe_psql('postgres', q{SELECT round(avg_leaf_density::numeric, 1) FROM pgstatindex('ids_pkey')});
}

# Ids of bucket > k below the largest id of buckets <= k.
sub below_earlier
{
	my ($node, $k) = @_;
	return $node->safe_psql('postgres',
		qq{SELECT count(*) FROM ids WHERE b > $k AND id < (SELECT id FROM ids WHERE b <= $k ORDER BY id DESC LIMIT 1)});
}

foreach my $kind (state_kinds())
{
	foreach my $rule (qw(continue bucket))
	{
		my $label = "$kind->{name}, $rule";
		set_fake_clock($clock_file, frozen_clock_spec($t0));
		my $node = extension_node("$kind->{name}_$rule",
			preload => $kind->{preload},
			clock => $clock_file,
			conf => [
				'fsync = off', 'autovacuum = off', 'max_parallel_workers_per_gather = 0',
				# continue is the default: the continue nodes leave the setting alone.
				($rule eq 'bucket' ? ('locality_uuid.sequential_seed = bucket') : ())
			]);
		$node->safe_psql('postgres', 'CREATE EXTENSION pgstattuple');
		$node->safe_psql('postgres', 'CREATE TABLE ids (id uuid PRIMARY KEY, b int NOT NULL)');
		# The library loads with the extension's first call; then its setting is known.
		is($node->safe_psql('postgres', 'SELECT locality_uuid_state() IS NOT NULL; SHOW locality_uuid.sequential_seed'),
			"t\n$rule", "$label: the setting");

		my @density;
		for my $b (1 .. 6)
		{
			set_fake_clock($clock_file, frozen_clock_spec($t0 + ($b - 1) * 600));
			# Under continue each batch in a new session: with shared state they share the run,
			# without it each session starts at the database's lease. Under bucket one session
			# a bucket: without shared state, sessions that hold a slot in turn are told apart by
			# the clock only (docs/guarantees.md), and this clock is frozen.
			my $batch = "INSERT INTO ids SELECT locality_uuid(true), $b FROM generate_series(1, $rows / 5);";
			if ($rule eq 'continue')
			{
				$node->safe_psql('postgres', $batch) for 1 .. 5;
			}
			else
			{
				$node->safe_psql('postgres', $batch x 5);
			}
			push @density, density($node);
			if ($b == 2 || $b == 4)
			{
				# A clean restart after bucket 2, a crash after bucket 4: the state in memory is lost.
				restart($node, $b == 2 ? 'fast' : 'immediate');
			}
		}
		note("$label: leaf density after buckets 1 to 6: @density %");
		is($node->safe_psql('postgres', 'SELECT count(*) || \' \' || count(DISTINCT date_bin(\'10 min\', locality_uuid_timestamp(id), \'epoch\')) FROM ids'),
			6 * $rows . ' 6', "$label: " . 6 * $rows . ' ids over six buckets');
		if ($rule eq 'continue')
		{
			is(scalar(grep { $_ < 85 } @density), 0, "$label: leaf density at least 85 % after every bucket (@density)");
			is(below_earlier($node, 2) . ' ' . below_earlier($node, 4), '0 0',
				"$label: no id after the clean restart or the crash below one made before it");
		}
		else
		{
			cmp_ok($density[-1], '<', 85, "$label: leaf density below 85 % after six buckets ($density[-1])");
		}
		$node->stop;
	}
}

done_testing();
