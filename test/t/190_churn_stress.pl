# Stress, not in the default run (LOCALITY_UUID_STRESS=1 runs it): shard-key ids under
# connection churn. pgbench -C opens a new connection for every transaction, each making
# hot_uuid(k, now()) and hot_uuid(k) ids, with few backend slots so that new backends take the
# slots of earlier ones, while the clock steps back by a second now and then (libfaketime).
# An id at an explicit time that the clock has left carries bit 23 of the counter and a clock
# id never does, so none of them may repeat. On 15 and 16 with and without preload; the clock
# steps back only where the generator state is shared (preloaded, or 17 and later): without it
# a new backend does not know the ticks of its slot's earlier backends (docs/guarantees.md).
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'a stress test: set LOCALITY_UUID_STRESS=1 to run it' unless $ENV{LOCALITY_UUID_STRESS};
plan skip_all => 'libfaketime not found (Debian package faketime)' unless libfaketime();

my $runs = $ENV{LOCALITY_UUID_STRESS_RUNS} // 10;    # pgbench runs per node
my $seconds = $ENV{LOCALITY_UUID_STRESS_SECONDS} // 6;    # length of each run
my $clock_file = "$PostgreSQL::Test::Utils::tmp_check/190_churn.faketime";
set_fake_clock($clock_file, '+0');

foreach my $kind (state_kinds())
{
	my ($name, $shared) = @$kind{qw(name shared)};
	my $node = extension_node($name,
		preload => $kind->{preload},
		clock => $clock_file,
		conf => [
			'max_connections = 12', 'superuser_reserved_connections = 0', 'max_wal_senders = 0',
			'fsync = off', 'autovacuum = off'
		]);
	$node->safe_psql('postgres', 'CREATE TABLE ids (kind text, id uuid)');

	my $script = "$PostgreSQL::Test::Utils::tmp_check/190_churn.sql";
	PostgreSQL::Test::Utils::append_to_file($script, q{
\set k random(0, 3)
BEGIN;
INSERT INTO ids SELECT 'at now', hot_uuid(:k, now()) FROM generate_series(1, 20);
INSERT INTO ids SELECT 'clock', hot_uuid(:k) FROM generate_series(1, 20);
SELECT pg_sleep(random() * 0.01);
INSERT INTO ids SELECT 'at now', hot_uuid(:k, now()) FROM generate_series(1, 20);
COMMIT;
}) unless -f $script;

	my $failed = 0;
	for my $run (1 .. $runs)
	{
		# Every third run starts a second behind the last; the others on the real clock.
		set_fake_clock($clock_file, $run % 3 == 0 && $shared ? '-1' : '+0');
		my ($out, $err);
		my $ok = IPC::Run::run(
			[
				'pgbench', '-n', '-C', '-c', '8', '-j', '2', '-T', $seconds,
				'-f', $script, $node->connstr('postgres')
			],
			'>', \$out, '2>', \$err);
		$failed++ unless $ok;
		diag "run $run: $err" unless $ok;
	}
	is($failed, 0, "$name: $runs pgbench -C runs of $seconds s finished");
	my ($ids, $repeats, $explicit, $slots) = split /\|/, $node->safe_psql('postgres', q{
		SELECT count(*), count(*) - count(DISTINCT id),
		       count(*) FILTER (WHERE kind = 'at now' AND hot_uuid_counter(id) >= 8388608),
		       count(DISTINCT hot_uuid_process(id))
		FROM ids});
	note "$name: $ids ids, $explicit made at now() after the clock had left its second, $slots slots";
	cmp_ok($ids, '>', 0, "$name: ids were made");
	is($repeats, 0, "$name: $ids ids under connection churn and steps back, none repeats");
	is($node->safe_psql('postgres',
		q{SELECT count(*) FROM ids WHERE kind = 'clock' AND hot_uuid_counter(id) >= 8388608}),
		0, "$name: no clock id carries bit 23");
	$node->stop;
}

done_testing();
