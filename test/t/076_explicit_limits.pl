# Explicit-time ids carry their allocation number whole: hot_uuid(key, at) ids of one second do
# not repeat after 2^23 numbers went to other seconds (256 at S, 8,388,352 at 1000 other
# seconds, 256 at S again, in one statement and one backend), and when a sequence reaches the
# end of the numbers (2^39 for hot_uuid, 2^41 for uuidv7_ordered(at)) the ids before it are made
# and the next one fails with 54000. In a read-only transaction all three functions that
# advance a sequence refuse with 25006 on every call, also the first after a read-write one.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = extension_node('limits', conf => [ 'fsync = off', 'autovacuum = off' ]);
my $at = '2024-03-01 12:00:00+00';

# 1. The repetition after 2^23 numbers. The OFFSET 0 keeps the filter from reaching into the
# subquery, so every row's id is made, in the order of g.
my $t0 = time();
is( $node->safe_psql('postgres', qq{
		SELECT count(*) || ' ids at S, ' || count(DISTINCT u) || ' distinct'
		FROM (SELECT g, hot_uuid(7, CASE WHEN g <= 256 OR g > 8388608 THEN timestamptz '$at'
		                                 ELSE timestamptz '$at' + (1 + g % 1000) * interval '1 second' END) AS u
		      FROM generate_series(1, 8388864) g OFFSET 0) s
		WHERE g <= 256 OR g > 8388608}),
	'512 ids at S, 512 distinct',
	'256 ids at S, 8,388,352 at other seconds, 256 at S again: none repeats');
note sprintf('8,388,864 explicit-time ids in %.0f s', time() - $t0);

# Allocation number of a hot_uuid explicit id: 65535 minus the process field, then the counter's low 23 bits.
my $hot_n = q{(((65535 - hot_uuid_process(u))::bigint << 23) | (hot_uuid_counter(u) & 8388607))};

# Allocation number of a uuidv7_ordered(at) id: rand_a, byte 8's low 5 bits, bytes 9..11.
my $v7_n = q{((('x' || substr(replace(u::text, '-', ''), 14, 3))::bit(12)::bigint << 29)
	| ((('x' || substr(replace(u::text, '-', ''), 17, 2))::bit(8)::bigint & 31) << 24)
	| ('x' || substr(replace(u::text, '-', ''), 19, 6))::bit(24)::bigint)};

# 2. The end of the numbers: the sequence moved to its last range (as a superuser may), 256 ids
# of it made, the next one refused, and refused again in a new session.
for my $case (
	[ 'hot_uuid(key, at)', 'locality_uuid_hot_allocation', 2**31, "hot_uuid(7, '$at')", $hot_n,
		'549755813888' ],
	[ 'uuidv7_ordered(at)', 'locality_uuid_v7_allocation', 2**33, "uuidv7_ordered('$at')", $v7_n,
		'2199023255552' ])
{
	my ($name, $seq, $ranges, $call, $number, $total) = @$case;
	$node->safe_psql('postgres', "SELECT setval('$seq', $ranges - 2)");
	my ($out, $err) = psql_states($node, 'postgres', qq{
		CREATE TEMP TABLE last_range AS SELECT $call AS u FROM generate_series(1, 256);
		SELECT count(*) || ' ' || count(DISTINCT $number) || ' ' || min($number) || ' ' || max($number) FROM last_range;
		SELECT $call;
		SELECT $call;});
	is($out, '256 256 ' . ($total - 256) . ' ' . ($total - 1),
		"$name: the last range's 256 ids made, numbers " . ($total - 256) . ' .. ' . ($total - 1));
	is($err, "ERROR:  54000\nERROR:  54000", "$name: the next id fails with 54000, and the one after");
	my (undef, undef, $message) = $node->psql('postgres', "SELECT $call");
	like($message, qr/used up all $total allocation numbers/, "$name: the message names the $total numbers");
	# The sequence stays where it is: the numbers handed out before are never handed out again.
	is($node->safe_psql('postgres', "SELECT last_value >= $ranges FROM $seq"), 't',
		"$name: the sequence stays past the end");
}

# 3. Read-only: refused on every call, also right after a read-write call of the same backend
# (which left a range of numbers, and a lease, that would still serve).
for my $call ("hot_uuid(7, '$at')", 'hot_uuid(7, now())', 'uuidv7_ordered()', "uuidv7_ordered('$at')")
{
	my $fresh = $call =~ /hot_uuid/ ? 'locality_uuid_hot_allocation' : 'locality_uuid_v7_allocation';
	$node->safe_psql('postgres', "SELECT setval('$fresh', 1000)");
	my ($out, $err) = psql_states($node, 'postgres', qq{
		SELECT $call IS NOT NULL AS made;
		BEGIN READ ONLY;
		SELECT $call;
		ROLLBACK;
		SET default_transaction_read_only = on;
		SELECT $call;});
	is("$out|$err", "t|ERROR:  25006\nERROR:  25006",
		"$call: made read-write, then 25006 on the first read-only call and on the next");
}

$node->stop;
done_testing();
