# The server's clock driven by libfaketime: in year 10500 for a moment, frozen, stepped back by
# 1 ms, 1 s, 1 h and 1 day (within a backend and between backends of one slot), before 1970,
# in 2300 and in year 11000; no id repeats, the backend stays healthy, and every long call is
# cancellable within a second.
use strict;
use warnings FATAL => 'all';

use LocalityUuid;
use Test::More;
use Time::HiRes qw(time);

plan skip_all => 'libfaketime not found (Debian package faketime; or set LIBFAKETIME)'
  unless libfaketime();

# One clock file for every node: the servers re-read it at most a second after it changes.
my $clock_file = "$PostgreSQL::Test::Utils::tmp_check/110_clock.faketime";
set_fake_clock($clock_file, '+0');

my @nodes;
foreach my $kind (state_kinds())
{
	# Few backend slots, so that new backends take slots that earlier ones held, whichever
	# order the free list hands them out in (the last freed first on 15, the first on 18).
	my $node = extension_node($kind->{name},
		preload => $kind->{preload},
		clock => $clock_file,
		conf => [
			'fsync = off', 'autovacuum = off', 'max_parallel_workers_per_gather = 0', "work_mem = '64MB'",
			'max_connections = 4', 'superuser_reserved_connections = 0', 'max_wal_senders = 0'
		]);
	$node->safe_psql('postgres', 'CREATE TABLE ids (n bigserial PRIMARY KEY, who text, kind text, u uuid)');
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	push @nodes, { name => $kind->{name}, node => $node, shared => $kind->{shared}, bg => $bg };
}

# Make ids in the node's long-lived backend.
sub gen_bg
{
	my ($n, $who, $count) = @_;
	$n->{bg}->query_safe(gen_sql($who, $count));
}

# Make ids in a new backend (a new connection; usually the slot the last new one had).
sub gen_new
{
	my ($n, $who, $count) = @_;
	$n->{node}->safe_psql('postgres', gen_sql($who, $count));
}

# The errors of the four generators by SQLSTATE, each in the long-lived backend and in a new
# one: "ERROR:  22008" or "ok".
sub generator_states
{
	my ($n) = @_;
	return join ',', map {
		(session_states($n->{bg}, "SELECT $_"))[1] || 'ok',
		  (psql_states($n->{node}, 'postgres', "SELECT $_"))[1] || 'ok'
	} ('hot_uuid(0)', 'locality_uuid(true)', 'locality_uuid(false)', 'uuid_time_nextval()');
}

# Make 100 ids of each kind in the long-lived backend and in a new one, tagged who; return how
# many shard-key ids have a time that satisfies hot_time, and locality ids loc_time ("n|n").
sub stamped
{
	my ($n, $who, $hot_time, $loc_time) = @_;
	gen_bg($n, $who, 100);
	gen_new($n, "$who, new backend", 100);
	return $n->{node}->safe_psql('postgres', qq{
		SELECT count(*) FILTER (WHERE kind = 'hot' AND hot_uuid_timestamp(u) $hot_time),
		       count(*) FILTER (WHERE kind <> 'hot' AND locality_uuid_timestamp(u) $loc_time)
		FROM ids WHERE who LIKE '$who%'});
}

# Year 10500 for a moment, past the clock every generator reads (1970 to 9999): refused with
# 22008 while it lasts, in an old and a new backend, and remembered by no slot: once the clock
# is back, every generator makes ids of the present again.
set_fake_clock($clock_file, '+0');
gen_bg($_, 'present', 100) foreach @nodes;
set_fake_clock($clock_file, '+3095000d');
foreach my $n (@nodes)
{
	is(generator_states($n), join(',', ('ERROR:  22008') x 8), "$n->{name}: year 10500: 22008 from every generator");
}
set_fake_clock($clock_file, '+0');
foreach my $n (@nodes)
{
	is(stamped($n, 'back from 10500', q{BETWEEN now() - interval '1 minute' AND now()},
			q{BETWEEN now() - interval '1 minute' AND now()}),
		'200|400', "$n->{name}: clock back from year 10500: old and new backends make ids of the present");
}

# Frozen clock: nothing spins; ids go on from the last tick + 1 and the last millisecond.
my $frozen = 1893456000;    # 2030-01-01 00:00:00 UTC
set_fake_clock($clock_file, frozen_clock_spec($frozen));
foreach my $n (@nodes)
{
	my $t0 = time;
	gen_bg($n, 'bg', 20000);
	my $elapsed = time - $t0;
	cmp_ok($elapsed, '<', 10, "$n->{name}: frozen clock: 60000 ids in one backend in " . sprintf('%.2f s', $elapsed));
	gen_new($n, "new0$_", 5000) for ('a', 'b');
	is($n->{node}->safe_psql('postgres', q{
		SELECT count(*) FILTER (WHERE kind = 'hot' AND hot_uuid_timestamp(u) = '2030-01-01 00:00:00+00'),
		       count(*) FILTER (WHERE kind <> 'hot'
		                          AND date_trunc('second', locality_uuid_timestamp(u)) = '2030-01-01 00:00:00+00')
		FROM ids WHERE who = 'bg'}),
		'20000|40000', "$n->{name}: frozen clock: one backend's ids all in the frozen second");
}

# Steps back of 1 ms, 1 s, 1 h and 1 day: the long-lived backend holds its time, and each
# new backend (one slot, taken in turn) starts after the ids its slot already made.
my $t = $frozen;
my $step_no = 0;
foreach my $step (0.001, 1, 3600, 86400)
{
	$t -= $step;
	$step_no++;
	set_fake_clock($clock_file, frozen_clock_spec($t));
	foreach my $n (@nodes)
	{
		gen_bg($n, 'bg', 3000);
		gen_new($n, "new$step_no", 3000);
	}
}

foreach my $n (@nodes)
{
	my $node = $n->{node};
	my ($rows, $distinct) = split /\|/,
	  $node->safe_psql('postgres', 'SELECT count(*), count(DISTINCT u) FROM ids');
	if ($n->{shared})
	{
		is($distinct, $rows, "$n->{name}: frozen and stepped clocks: $rows ids, no duplicate");
	}
	else
	{
		# Per-backend state: unique within each backend; across backends of a slot by time only.
		is($node->safe_psql('postgres',
			'SELECT count(*) FROM (SELECT who, u FROM ids GROUP BY who, u HAVING count(*) > 1) d'),
			'0', "$n->{name}: frozen and stepped clocks: no duplicate within a backend");
		note "$n->{name}: per-backend state: " . ($rows - $distinct) . " ids repeated across backends of one slot";
	}

	# Within the long-lived backend: time fields never go back; shard-key ids ascend.
	is($node->safe_psql('postgres', q{
		SELECT count(*) FILTER (WHERE kind <> 'hot' AND locality_uuid_timestamp(u) < locality_uuid_timestamp(prev)),
		       count(*) FILTER (WHERE kind = 'hot' AND u <= prev)
		FROM (SELECT kind, u, lag(u) OVER (PARTITION BY kind ORDER BY n) AS prev FROM ids WHERE who = 'bg') s}),
		'0|0', "$n->{name}: steps back within a backend: time held, shard-key ids ascending");

	next unless $n->{shared};
	# Between the new backends, per slot: the same, across every step back.
	my ($backends, $slots) = split /\|/, $node->safe_psql('postgres',
		q{SELECT count(DISTINCT who), count(DISTINCT hot_uuid_process(u)) FROM ids WHERE who <> 'bg' AND kind = 'hot'});
	cmp_ok($slots, '<', $backends, "$n->{name}: $backends new backends took $slots slot(s)");
	is($node->safe_psql('postgres', q{
		SELECT count(*) FILTER (WHERE kind <> 'hot' AND locality_uuid_timestamp(u) < locality_uuid_timestamp(prev)),
		       count(*) FILTER (WHERE kind = 'hot' AND u <= prev)
		FROM (SELECT kind, u, lag(u) OVER (PARTITION BY kind, CASE WHEN kind = 'hot' THEN hot_uuid_process(u)
		                                                          ELSE locality_uuid_pid(u) END ORDER BY n) AS prev
		      FROM ids WHERE who <> 'bg') s}),
		'0|0', "$n->{name}: steps back between backends of one slot: time held, shard-key ids ascending");
}

# Before 1970: a clear 22008 from every generator, in an old and a new backend ...
set_fake_clock($clock_file, '1969-12-31 23:59:59');
foreach my $n (@nodes)
{
	is(generator_states($n), join(',', ('ERROR:  22008') x 8), "$n->{name}: clock before 1970: 22008");
}

# ... and the backends are healthy once the clock is back.
set_fake_clock($clock_file, '+0');
foreach my $n (@nodes)
{
	gen_bg($n, 'after1970', 100);
	gen_new($n, 'after1970new', 100);
	is($n->{node}->safe_psql('postgres', q{SELECT count(*) FROM ids WHERE who LIKE 'after1970%'}),
		'600', "$n->{name}: clock back after 1970: old and new backends generate");
}

# 2300: past int64 nanoseconds (2262); shard-key ids carry the second mod 2^32.
set_fake_clock($clock_file, '2300-01-01 00:00:00');
foreach my $n (@nodes)
{
	is(stamped($n, 'y2300', '= to_timestamp(10413792000 % 4294967296)', q{= '2300-01-01 00:00:00+00'}),
		'200|400', "$n->{name}: 2300: shard-key second mod 2^32, locality time as is");
}

# Year 11000: past the range of every format: 22008.
set_fake_clock($clock_file, '+3298140d');
foreach my $n (@nodes)
{
	is(generator_states($n), join(',', ('ERROR:  22008') x 8), "$n->{name}: year 11000: 22008");
}

# Every long call is cancellable within a second (LocalityUuid::long_call).
set_fake_clock($clock_file, '-1d');
foreach my $n (@nodes)
{
	long_call($n->{node}, $_, 'timeout', "$n->{name}: ")
	  foreach ('hot_uuid(0)', 'locality_uuid(true)', "hot_uuid(1, timestamptz '2020-01-01' + g % 1000 * interval '1 s')");
}
set_fake_clock($clock_file, frozen_clock_spec($frozen + 86400 * 200));
foreach my $n (@nodes)
{
	long_call($n->{node}, $_, 'cancel', "$n->{name}: ")
	  foreach ('hot_uuid(0)', 'locality_uuid(true)', 'locality_uuid(false)',
		"hot_uuid(1, timestamptz '2020-01-01' + g % 1000 * interval '1 s')");
}

foreach my $n (@nodes)
{
	$n->{bg}->quit;
	$n->{node}->stop;
}
done_testing();
