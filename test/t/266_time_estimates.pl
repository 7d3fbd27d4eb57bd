# Row estimates of every time spelling beside a created_at column's, on a deterministic table:
# 30,000 rows a minute apart (ANALYZE reads every row, so the histogram is the same on every
# run), each with a version 7 id, a shard-key id and created_at of the same minute. For ranges of
# 0.01 % to 90 % of the table, placed at its start, inside it (off the histogram's boundaries)
# and at its end, the estimate of each spelling (the user's words with >= and <, BETWEEN,
# uuidv7_made, hot_uuid_made) is within 2x of the count and of created_at's estimate. The first
# statement of a fresh session is planned on the id's index without shared_preload_libraries, and
# preloaded beside pg_stat_statements the hooks chain.
use strict;
use warnings;

use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP qw(decode_json);

my $node = extension_node('estimates', conf => ['autovacuum = off']);
my $rows = 30000;
$node->safe_psql('postgres', qq{
	CREATE TABLE v7 (id uuid PRIMARY KEY, created_at timestamptz NOT NULL);
	CREATE TABLE hot (id uuid PRIMARY KEY, created_at timestamptz NOT NULL);
	INSERT INTO v7 SELECT uuidv7_lower(at), at
	FROM (SELECT timestamptz '2026-03-01 00:00+00' + g * interval '1 minute' AS at FROM generate_series(0, $rows - 1) g) s;
	INSERT INTO hot SELECT hot_uuid_boundary(created_at), created_at FROM v7;
	CREATE INDEX ON v7 (created_at);
	CREATE INDEX ON hot (created_at);
	ANALYZE v7, hot;});

# 1. A fresh session's first statement, without preload: the user's words on the primary key.
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), '', 'the library is not preloaded');
for my $case ([ 'v7', 'uuidv7_timestamp' ], [ 'hot', 'hot_uuid_timestamp' ])
{
	my ($tbl, $f) = @$case;
	my $plan = $node->safe_psql('postgres',
		"EXPLAIN (COSTS OFF) SELECT count(*) FROM $tbl WHERE $f(id) >= now() - interval '1 hour'");
	like($plan, qr/Index Cond: \(id >= /, "$f: a fresh session's first statement has an index condition on id")
	  or diag $plan;
}

# The planner's row estimate for a statement.
sub estimate
{
	my ($stmt) = @_;
	return decode_json($node->safe_psql('postgres', "EXPLAIN (FORMAT JSON) $stmt"))->[0]{Plan}{'Plan Rows'};
}

# 2. Estimates: each width at the table's start, a third in, the middle and the end, 17 minutes
# off a boundary of the histogram (a bucket holds 300 rows).
my (@lines, @outside);
for my $width (0.0001, 0.001, 0.01, 0.1, 0.5, 0.9)
{
	my $span = int($rows * $width);
	for my $start (0, int(($rows - $span) / 3) + 17, int(($rows - $span) / 2) + 17, $rows - $span)
	{
		my ($since, $till) = map { "timestamptz '2026-03-01 00:00+00' + interval '1 minute' * $_" } ($start, $start + $span);
		my %where = (
			'created_at' => [ 'v7', "created_at >= $since AND created_at < $till" ],
			'uuidv7_timestamp' => [ 'v7', "uuidv7_timestamp(id) >= $since AND uuidv7_timestamp(id) < $till" ],
			'uuidv7_timestamp BETWEEN' => [ 'v7', "uuidv7_timestamp(id) BETWEEN $since AND $till - interval '1 ms'" ],
			'uuidv7_made' => [ 'v7', "uuidv7_made(id, $since, $till)" ],
			'hot_uuid_timestamp' => [ 'hot', "hot_uuid_timestamp(id) >= $since AND hot_uuid_timestamp(id) < $till" ],
			'hot_uuid_made' => [ 'hot', "hot_uuid_made(id, $since, $till)" ],);
		my $actual = $node->safe_psql('postgres', "SELECT count(*) FROM v7 WHERE $where{created_at}[1]");
		is($actual, $span, "$width of the table from row $start: $span rows");
		my $created = estimate("SELECT * FROM v7 WHERE $where{created_at}[1]");
		my @cells = (sprintf('%.2f %%', $width * 100), $start, $actual, $created);
		for my $spelling (sort grep { $_ ne 'created_at' } keys %where)
		{
			my ($tbl, $cond) = @{ $where{$spelling} };
			my $e = estimate("SELECT * FROM $tbl WHERE $cond");
			push @cells, "$spelling $e";
			push @outside, "$spelling, $width from row $start: estimate $e, actual $actual, created_at's $created"
			  if $e > 2 * $actual || $e < $actual / 2 || $e > 2 * $created || $e < $created / 2;
		}
		push @lines, join(' | ', @cells);
	}
}
diag "width | start row | actual | created_at's estimate | each spelling's estimate";
diag $_ for @lines;
is(join("\n", @outside), '', 'every spelling\'s estimate within 2x of the count and of created_at\'s estimate');

$node->stop;

# 3. Preloaded beside pg_stat_statements (its planner and executor hooks around ours): the same
# plan, and pg_stat_statements still counts the statement.
my $both = extension_node('estimates_preloaded',
	conf => [q{shared_preload_libraries = 'pg_stat_statements, locality_uuid'}]);
$both->safe_psql('postgres', qq{
	CREATE EXTENSION pg_stat_statements;
	CREATE TABLE v7 (id uuid PRIMARY KEY, created_at timestamptz NOT NULL);
	INSERT INTO v7 SELECT uuidv7_lower(at), at
	FROM (SELECT timestamptz '2026-03-01 00:00+00' + g * interval '1 minute' AS at FROM generate_series(0, $rows - 1) g) s;
	ANALYZE v7;});
like($both->safe_psql('postgres', q{EXPLAIN (COSTS OFF) SELECT count(*) FROM v7 WHERE uuidv7_timestamp(id) >= '2026-03-20+00'}),
	qr/Index Cond: \(id >= /, 'preloaded beside pg_stat_statements: the user\'s words on the index');
is($both->safe_psql('postgres', q{SELECT count(*) FROM v7 WHERE uuidv7_timestamp(id) >= '2026-03-20+00'}),
	$both->safe_psql('postgres', q{SELECT count(*) FROM v7 WHERE created_at >= '2026-03-20+00'}), 'the same count as created_at\'s');
is($both->safe_psql('postgres', q{SELECT sum(calls) FROM pg_stat_statements WHERE query LIKE '%uuidv7_timestamp(id) >= $1%' AND query NOT LIKE 'EXPLAIN%'}),
	'1', 'pg_stat_statements counted the statement');
$both->stop;
done_testing();
