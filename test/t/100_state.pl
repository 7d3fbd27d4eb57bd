# Generator state shared by the backends of a cluster: which state is in use, one sequential
# run per cluster across short sessions and concurrent clients, and explicit-time backfills.
use strict;
use warnings FATAL => 'all';

use LocalityUuid;
use Test::More;
use Time::HiRes qw(time);

foreach my $kind (state_kinds())
{
	my ($name, $want_state, $shared) = @$kind{qw(name state shared)};
	# Seven backend slots: fewer than the 8 backfill sessions below, so that new backends take
	# slots that earlier ones held; three more than pgbench's 4 clients, for the backends of -C
	# connections that are still exiting.
	my $node = extension_node($name,
		preload => $kind->{preload},
		conf => [
			'fsync = off', "work_mem = '256MB'", 'max_parallel_workers_per_gather = 0', 'autovacuum = off',
			'max_connections = 7', 'superuser_reserved_connections = 0', 'max_wal_senders = 0'
		]);

	is($node->safe_psql('postgres', 'SELECT locality_uuid_state()'),
		$want_state, "$name: state in use is $want_state");

	# Short sessions: a new connection per batch, sequential mode. With shared state the ids
	# of all batches continue one run: strictly increasing in insertion order within a bucket.
	$node->safe_psql('postgres',
		'CREATE TABLE short (n bigserial PRIMARY KEY, id uuid UNIQUE, batch int)');
	my $batches = 30;
	my $t0 = time;
	for my $b (1 .. $batches)
	{
		$node->safe_psql('postgres',
			"INSERT INTO short (id, batch) SELECT locality_uuid(true), $b FROM generate_series(1, 2000)");
	}
	my $load_s = time - $t0;
	my ($rows, $distinct, $backwards, $first_seed) = split /\|/, $node->safe_psql(
		'postgres', q{
		SELECT count(*), count(DISTINCT id),
		       count(*) FILTER (WHERE id <= prev AND bucket = prev_bucket),
		       count(*) FILTER (WHERE batch > 1 AND batch <> prev_batch AND bucket = prev_bucket
		                          AND locality_uuid_counter(id, true) <> (locality_uuid_counter(prev, true) + 1) % 4294967296)
		FROM (SELECT id, batch, lag(id) OVER w AS prev, lag(batch) OVER w AS prev_batch,
		             date_bin('10 minutes', locality_uuid_timestamp(id), 'epoch') AS bucket,
		             lag(date_bin('10 minutes', locality_uuid_timestamp(id), 'epoch')) OVER w AS prev_bucket
		      FROM short WINDOW w AS (ORDER BY n)) s});
	note sprintf("%s: %d rows in %d sessions loaded in %.1f s", $name, $rows, $batches, $load_s);
	is($rows, $batches * 2000, "$name: short sessions: all rows in");
	is($distinct, $rows, "$name: short sessions: no duplicate");
	if ($shared)
	{
		is($backwards, 0, "$name: short sessions: ids strictly increasing in insertion order");
		is($first_seed, 0, "$name: short sessions: each session continues the run (+1)");
	}
	else
	{
		# The continued run without shared state: each session starts at the database's lease,
		# above every id of the sessions before it (under the bucket rule each would start
		# again at the bucket's seed: sql/state.sql).
		is($backwards, 0, "$name: per-backend state: each session starts above the ones before it");
	}

	# Concurrent clients in both modes, a new connection per transaction: no duplicate (a
	# unique violation fails the run). Explicit-time ids of successive backends of one slot
	# are distinct by construction only in shared state (per backend: by the time between them).
	$node->safe_psql('postgres',
		'CREATE TABLE conc (id uuid PRIMARY KEY); CREATE TABLE conc_hot (id uuid PRIMARY KEY)');
	my $script = q{
		INSERT INTO conc SELECT locality_uuid(g % 2 = 0) FROM generate_series(1, 500) g;
		INSERT INTO conc_hot SELECT hot_uuid(g % 3) FROM generate_series(1, 500) g;
	};
	$script .= q{
		INSERT INTO conc_hot SELECT hot_uuid(7, '2020-01-01 00:00:00+00') FROM generate_series(1, 200) g;
	} if $shared;
	$node->pgbench(
		'-n -c 4 -j 2 -t 40 -C',
		0,
		[qr{processed: 160/160}],
		[qr{^$}],
		"$name: concurrent clients, new connection per transaction",
		{ '100_state_conc' => $script },
		'postgres');
	is($node->safe_psql('postgres', 'SELECT count(*) FROM conc'), 80000, "$name: concurrent: 80000 locality ids");
	is($node->safe_psql('postgres', 'SELECT count(*) FROM conc_hot'),
		$shared ? 112000 : 80000, "$name: concurrent: all hot ids");

	# A backfill at one explicit second: a real per-second counter, no repeat (5 M ids where the
	# state is shared; 1 M on the per-backend node, to save time).
	# Then the next backends of the slot at the same second: they continue after it.
	my $backfill = $shared ? 5000000 : 1000000;
	$t0 = time;
	my ($ids, $distinct_ids) = split /\|/, $node->safe_psql('postgres',
		qq{SELECT count(*), count(DISTINCT u)
		  FROM (SELECT hot_uuid(5, '2020-01-01 00:00:00+00') AS u FROM generate_series(1, $backfill)) s});
	note sprintf("%s: %d ids at one explicit second in %.1f s", $name, $backfill, time - $t0);
	is($ids, $backfill, "$name: backfill: $backfill ids");
	is($distinct_ids, $backfill, "$name: backfill: $backfill distinct ids at one second");

	$node->safe_psql('postgres', 'CREATE TABLE backfill (id uuid, s int)');
	for my $s (1 .. 8)
	{
		$node->safe_psql('postgres',
			"INSERT INTO backfill SELECT hot_uuid(5, '2020-01-02 00:00:00+00'), $s FROM generate_series(1, 40000)");
	}
	my ($slots, $bf_rows, $bf_distinct) = split /\|/, $node->safe_psql('postgres',
		'SELECT count(DISTINCT hot_uuid_process(id)), count(*), count(DISTINCT id) FROM backfill');
	is($bf_rows, 320000, "$name: backfill in 8 sessions: 320000 ids");
	cmp_ok($slots, '<', 8, "$name: backfill: 8 sessions took $slots slot(s)");
	if ($shared)
	{
		is($bf_distinct, 320000, "$name: backfill in 8 sessions on $slots slot(s): no duplicate");
	}
	else
	{
		note "$name: per-backend state: backfill in 8 sessions on $slots slot(s), $bf_distinct distinct";
	}

	$node->stop;
}

done_testing();
