# The portable SQL edition on a server whose clock libfaketime drives: frozen, stepped back,
# before 1970, at the last microsecond of 9999 and in years 10000 and 11000. Every generator
# reads the clock from 1970 to 9999-12-31 23:59:59.999999 UTC and raises 22008 outside it
# without touching the session's state; uuid_sequence_nextval and uuidv7_ordered(at) do not
# read it; nothing spins, and every long call stops within a second of statement_timeout or a
# cancel. On a frozen clock uuidv7() and uuidv7_ordered() make exactly the ids of their rules
# (uuidv7(): core's, on every major: the edition's before 18, core's from 18).
use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);
use LocalityUuid;

plan skip_all => 'libfaketime not found (Debian package faketime; or set LIBFAKETIME)'
  unless libfaketime();

my $clock = "$PostgreSQL::Test::Utils::tmp_check/163_portable_clock.faketime";
set_fake_clock($clock, '+0');

my $node = PostgreSQL::Test::Cluster->new('portable_clock');
$node->init;
$node->append_conf('postgresql.conf', "fsync = off\nautovacuum = off");
start_on_fake_clock($node, $clock);
install_portable($node, 'postgres');
$node->safe_psql('postgres', q{
CREATE SEQUENCE s;
-- The SQLSTATE of a statement, or ok.
CREATE FUNCTION state_of(stmt text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE stmt;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;
-- What a session keeps: its temporary sequences, the explicit-time allocation count and the
-- remembered seconds.
CREATE FUNCTION session_state() RETURNS text LANGUAGE sql AS $$
SELECT concat_ws(' ',
    (SELECT string_agg(c.relname || '=' || coalesce(pg_sequence_last_value(c.oid)::text, '-'), ' ' ORDER BY c.relname)
     FROM pg_class c WHERE c.relnamespace = pg_my_temp_schema() AND c.relkind = 'S'),
    'explicit=' || pg_sequence_last_value(to_regclass('locality_uuid_portable_explicit')),
    current_setting('locality_uuid_portable.explicit_seconds', true))
$$;
CREATE TABLE ids (n bigserial PRIMARY KEY, who text, kind text, u uuid);
});
my $bg = $node->background_psql('postgres', on_error_stop => 0);

# Every generator, and the two that read no clock (uuid_sequence_nextval, uuidv7_ordered(at));
# core's uuidv7 from 18 on reads the clock its own way.
my $edition_v7 = $node->pg_version < 18;
my @calls = (
	'locality_uuid()', 'locality_uuid(true)', 'locality_uuid(false)', 'hot_uuid(0)',
	q{hot_uuid(0, '2020-01-01 00:00:00+00')}, 'uuid_time_nextval()', 'uuid_time_nextval(1, 16)',
	q{uuid_time_nextval_interval('100 ms', 16777216)}, 'uuidv7_ordered()',
	($edition_v7 ? ('uuidv7()', q{uuidv7('1 day')}) : ()),
	q{uuid_sequence_nextval('s')}, q{uuidv7_ordered('2020-01-01 00:00:00+00')});
my $states_sql = 'SELECT string_agg(state_of(format($$SELECT %s$$, c)), $$,$$ ORDER BY n) FROM unnest(ARRAY['
  . join(', ', map { "\$\$$_\$\$" } @calls) . ']) WITH ORDINALITY AS c(c, n)';
my $all_clock = join(',', ('22008') x (@calls - 2), 'ok', 'ok');

# The outcome of every call in the long-lived session and in a new one, and whether the
# long-lived session's state stayed as it was.
sub states
{
	my ($what, $expected) = @_;
	my $before = $bg->query_safe('SELECT session_state()');
	is($bg->query_safe($states_sql), $expected, "$what: long-lived session");
	is($bg->query_safe('SELECT session_state()'), $before, "$what: its state unchanged");
	is($node->safe_psql('postgres', $states_sql), $expected, "$what: new session");
}

# Frozen clock: nothing waits; shard-key ids take the tick after the last one; locality ids
# hold the millisecond (a sequential counter whose digits are a variable counter of it moves on
# to the next one, as in the C extension).
my $frozen = 1893456000;    # 2030-01-01 00:00:00 UTC
set_fake_clock($clock, frozen_clock_spec($frozen));
my $t0 = time;
$bg->query_safe(gen_sql('bg', 20000, qw(hot seq var at)));
my $elapsed = time - $t0;
cmp_ok($elapsed, '<', 30, sprintf('frozen clock: 80000 ids in one session in %.2f s', $elapsed));
is($node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE kind = 'hot' AND hot_uuid_timestamp(u) = '2030-01-01 00:00:00+00'
	                          AND hot_uuid_counter(u) < 8388608),
	       count(*) FILTER (WHERE kind IN ('seq', 'var')
	                          AND date_trunc('second', locality_uuid_timestamp(u)) = '2030-01-01 00:00:00+00'),
	       count(*) FILTER (WHERE kind = 'at' AND hot_uuid_timestamp(u) = '2020-01-01 00:00:00+00'
	                          AND hot_uuid_counter(u) >= 8388608),
	       count(DISTINCT u)
	FROM ids WHERE who = 'bg'}),
	'20000|40000|20000|80000', 'frozen clock: every id in its second, wall and explicit counters apart, none repeated');
# Both modes in the frozen millisecond of a new session: 100000 of each, alternating. Without
# the rules that keep them apart, about two pairs would meet (10^10 pairs, 2^-32 each); with
# them, as many sequential ids move on to the next millisecond instead.
is($node->safe_psql('postgres', q{
	SELECT count(*), count(DISTINCT u),
	       count(*) FILTER (WHERE date_trunc('second', locality_uuid_timestamp(u)) = '2030-01-01 00:00:00+00')
	FROM (SELECT locality_uuid(g % 2 = 0) AS u FROM generate_series(1, 200000) g) s}),
	'200000|200000|200000', 'frozen clock: 100000 ids of each mode in one session, none repeated');
is($bg->query_safe(q{SELECT hot_uuid_counter(hot_uuid(1, '2030-01-01 00:00:00.9+00')) < 8388608}), 't',
	'frozen clock: an explicit time in the second of the next tick makes a wall-clock id');

# Version 7 on the frozen clock, in new sessions: the k-th uuidv7() id is at the clock's
# nanosecond plus 245 k (millisecond and 12-bit fraction of it), the k-th uuidv7_ordered() id
# at the clock's key plus k (millisecond << 15 | fraction << 3 | counter); every id differs.
is($node->safe_psql('postgres', q{
	SELECT count(*), count(DISTINCT u),
	       count(*) FILTER (WHERE replace(left(u::text, 18), '-', '')
	                              = lpad(to_hex(1893456000000 + k * 245 / 1000000), 12, '0') || '7'
	                                || lpad(to_hex(k * 245 % 1000000 * 4096 / 1000000), 3, '0'))
	FROM (SELECT g - 1::bigint AS k, uuidv7() AS u FROM generate_series(1, 20000) AS g) AS s}),
	'20000|20000|20000', 'frozen clock: 20000 uuidv7() ids, each 245 ns after the one before');
is($node->safe_psql('postgres', q{
	SELECT count(*), count(DISTINCT u),
	       count(*) FILTER (WHERE replace(left(u::text, 18), '-', '')
	                              = lpad(to_hex(1893456000000 + (k >> 15)), 12, '0') || '7'
	                                || lpad(to_hex((k >> 3) & 4095), 3, '0')
	                          AND (('x' || substr(u::text, 20, 2))::bit(8)::integer >> 2) & 15 = k & 7)
	FROM (SELECT g - 1::bigint AS k, uuidv7_ordered() AS u FROM generate_series(1, 20000) AS g) AS s}),
	'20000|20000|20000', 'frozen clock: 20000 uuidv7_ordered() ids, each the next key, bit 5 clear');
$bg->query_safe(gen_sql('bg', 5000, qw(v7 ord)));

# Steps back of 1 s and 1 day: the session's time is held, shard-key ids ascend.
foreach my $t ($frozen - 1, $frozen - 86401)
{
	set_fake_clock($clock, frozen_clock_spec($t));
	$bg->query_safe(gen_sql('bg', 2000, qw(hot seq var at)));
	$bg->query_safe(gen_sql('bg', 2000, qw(v7 ord)));
}
is($node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE kind IN ('seq', 'var') AND locality_uuid_timestamp(u) < locality_uuid_timestamp(prev)),
	       count(*) FILTER (WHERE kind IN ('hot', 'v7', 'ord') AND u <= prev), count(*) - count(DISTINCT u)
	FROM (SELECT kind, u, lag(u) OVER (PARTITION BY kind ORDER BY n) AS prev FROM ids WHERE who = 'bg') s}),
	'0|0|0', 'steps back: time held, shard-key and version 7 ids ascending, none repeated');

set_fake_clock($clock, '1969-12-31 23:59:59');
states('clock before 1970', $all_clock);

set_fake_clock($clock, '+0');
$bg->query_safe(gen_sql('after1970', 100, qw(hot seq var at)));
$node->safe_psql('postgres', gen_sql('after1970new', 100, qw(hot seq var at)));
# (the long-lived session holds the time it reached on the frozen clock in 2030)
is($node->safe_psql('postgres', q{
	SELECT count(*),
	       count(*) FILTER (WHERE who = 'after1970' AND kind IN ('seq', 'var')
	                          AND date_trunc('second', locality_uuid_timestamp(u)) = '2030-01-01 00:00:00+00'),
	       count(*) FILTER (WHERE who = 'after1970new' AND kind IN ('seq', 'var')
	                          AND abs(extract(epoch FROM locality_uuid_timestamp(u) - now())) < 60)
	FROM ids WHERE who LIKE 'after1970%'}), '800|200|200', 'clock back after 1970: both sessions generate, at the right time');

# The last half second of the range: every time field is right.
set_fake_clock($clock, '9999-12-31 23:59:59.500');
is($bg->query_safe(q{
	SELECT locality_uuid_timestamp(locality_uuid(true)), locality_uuid_timestamp(locality_uuid(false)),
	       hot_uuid_timestamp(hot_uuid(1)) = to_timestamp(253402300799 % 4294967296),
	       hot_uuid_counter(hot_uuid(1)) BETWEEN 4194304 AND 4194310,
	       locality_uuid_block(uuid_time_nextval()) = 253402300799 / 60 % 65536,
	       locality_uuid_block(uuid_time_nextval_interval('1 ms', 16777216), 16777216) = 253402300799500 % 16777216}),
	'9999-12-31 23:59:59.5+00|9999-12-31 23:59:59.5+00|t|t|t|t', '9999-12-31 23:59:59.5: every time field right');
# (core's uuidv7 from 18 on counts nanoseconds in 64 bits, which end in 2262)
is($bg->query_safe(q{
	SELECT left(uuidv7_ordered()::text, 13) = left(uuidv7_lower('9999-12-31 23:59:59.5+00')::text, 13)}
	  . ($edition_v7 ? q{, left(uuidv7()::text, 13) = left(uuidv7_lower('9999-12-31 23:59:59.5+00')::text, 13),
	       left(uuidv7('-1 day')::text, 13) = left(uuidv7_lower('9999-12-30 23:59:59.5+00')::text, 13)} : '')),
	$edition_v7 ? 't|t|t' : 't', '9999-12-31 23:59:59.5: version 7 milliseconds right');

# Years 10000 and 11000, and then before 1970 again with state made in 9999.
my $now = time;
foreach my $year ([ 10000, 253402300800 ], [ 11000, 284958835200 ])
{
	my ($y, $start) = @$year;
	set_fake_clock($clock, '+' . (int(($start - $now) / 86400) + 2) . 'd');
	states("year $y", $all_clock);
}
set_fake_clock($clock, '1969-06-01 00:00:00');
states('1969 after 9999', $all_clock);

set_fake_clock($clock, '+0');
is($bg->query_safe(q{SELECT count(DISTINCT u) FROM (SELECT hot_uuid(1) u UNION ALL SELECT locality_uuid() UNION ALL
	SELECT hot_uuid(1, '2020-01-01 00:00:00+00')) s}), '3', 'clock back: the session generates');

# Every long call stops within a second of statement_timeout (running clock, stepped back a
# day) or of a cancel (frozen clock).
my @long = ('hot_uuid(0)', 'locality_uuid(true)', q{hot_uuid(1, '2020-01-02 00:00:00+00')}, 'uuidv7_ordered()');
set_fake_clock($clock, '-1d');
long_call($node, $_, 'timeout', '') foreach @long;
set_fake_clock($clock, frozen_clock_spec($frozen + 86400 * 200));
long_call($node, $_, 'cancel', '') foreach @long;

$bg->quit;
$node->stop;
done_testing();
