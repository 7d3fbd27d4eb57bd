# Row estimates of every time spelling beside a created_at column's, on a deterministic table:
# 30,000 rows a minute apart (ANALYZE reads every row, so the histogram is the same on every
# run), each with a version 7 id, a shard-key id and created_at of the same minute. For ranges of
# 0.01 % to 90 % of the table, placed at its start, inside it (off the histogram's boundaries)
# and at its end, the estimate of each spelling (the user's words with >= and <, BETWEEN,
# uuidv7_made, hot_uuid_made) is within 2x of the count and of created_at's estimate; so is the
# last hour of a table a third of whose ids are dated after now, and 0.01 % at the start and the
# end of a table ten times ANALYZE's sample after each of 20 ANALYZEs. The first statement of a
# fresh session is planned on the id's index without shared_preload_libraries (so is an ON
# CONFLICT clause's inference in the other spelling), and preloaded beside pg_stat_statements the
# hooks chain.
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

# A fresh session's first statement: ON CONFLICT in the user's words infers a partial unique index
# whose predicate is uuidv7_made's, and the other way round (the library loads while the clause
# is simplified, and its hook gives the clause both spellings in the same planning).
$node->safe_psql('postgres', q{
	CREATE TABLE arbiter_made (id uuid NOT NULL);
	CREATE UNIQUE INDEX ON arbiter_made (id) WHERE uuidv7_made(id, '2026-03-05+00');
	CREATE TABLE arbiter_words (id uuid NOT NULL);
	CREATE UNIQUE INDEX ON arbiter_words (id) WHERE uuidv7_timestamp(id) >= '2026-03-05+00';});
for my $case ([ 'arbiter_made', q{uuidv7_timestamp(id) >= '2026-03-06+00'} ], [ 'arbiter_words', q{uuidv7_made(id, '2026-03-06+00')} ])
{
	my ($tbl, $where) = @$case;
	is($node->safe_psql('postgres', "INSERT INTO $tbl VALUES (uuidv7_lower('2026-03-07+00')) ON CONFLICT (id) WHERE $where DO NOTHING RETURNING 'inserted'"),
		'inserted', "a fresh session's first INSERT ... ON CONFLICT (id) WHERE $where infers ${tbl}'s index");
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

# True if an estimate is within 2x of a count.
sub within_2x { my ($e, $n) = @_; return $e <= 2 * $n && $e >= $n / 2; }

# The estimate of each spelling (table and WHERE clause) beside created_at's and the count: the
# ones outside 2x of either, described; each estimate within 2x of the count, created_at's too,
# counted in %$tally.
sub outside_2x
{
	my ($what, $tally, $created_where, %where) = @_;
	my ($tbl, $cond) = @$created_where;
	my $actual = $node->safe_psql('postgres', "SELECT count(*) FROM $tbl WHERE $cond");
	my $created = estimate("SELECT * FROM $tbl WHERE $cond");
	my @outside;
	$tally->{created_at}++ if within_2x($created, $actual);
	for my $spelling (sort keys %where)
	{
		my $e = estimate("SELECT * FROM $where{$spelling}");
		$tally->{$spelling}++ if within_2x($e, $actual);
		push @outside, "$what, $spelling: estimate $e, actual $actual, created_at's $created"
		  if !within_2x($e, $actual) || !within_2x($e, $created);
	}
	return @outside;
}

# 3. Ids dated after now: a third of a table of 30,000 rows a minute apart. A range open above is
# the histogram's end, as created_at's is, not now: the last hour, 10,060 rows.
$node->safe_psql('postgres', qq{
	CREATE TABLE future_v7 (id uuid PRIMARY KEY, created_at timestamptz NOT NULL);
	CREATE TABLE future_hot (id uuid PRIMARY KEY, created_at timestamptz NOT NULL);
	INSERT INTO future_v7 SELECT uuidv7_lower(at), at
	FROM (SELECT date_trunc('minute', now()) - interval '20000 minutes' + g * interval '1 minute' AS at
	      FROM generate_series(0, $rows - 1) g) s;
	INSERT INTO future_hot SELECT hot_uuid_boundary(created_at), created_at FROM future_v7;
	CREATE INDEX ON future_v7 (created_at);
	ANALYZE future_v7, future_hot;});
my $hour = "now() - interval '1 hour'";
is(join("\n", outside_2x('the last hour of a table a third in the future', {},
	[ 'future_v7', "created_at >= $hour" ],
	'uuidv7_timestamp >=' => "future_v7 WHERE uuidv7_timestamp(id) >= $hour",
	'uuidv7_timestamp >' => "future_v7 WHERE uuidv7_timestamp(id) > $hour",
	'uuidv7_made' => "future_v7 WHERE uuidv7_made(id, $hour)",
	'hot_uuid_timestamp >=' => "future_hot WHERE hot_uuid_timestamp(id) >= $hour",
	'hot_uuid_made' => "future_hot WHERE hot_uuid_made(id, $hour)")), '',
	'ids dated after now: each spelling\'s estimate of the last hour within 2x of the count and of created_at\'s');

# 4. A table of ten times ANALYZE's sample: the histogram's first and last bounds are the least and
# greatest sampled ids, some ten rows inside the table's ends. Ranges of 0.01 % (30 rows) at the
# start and the end, after each of 20 ANALYZEs: every spelling within 2x of the count and of
# created_at's estimate each time (the column's ends are read from the id's index, as PostgreSQL
# reads created_at's).
my $large = 10 * $rows;
$node->safe_psql('postgres', qq{
	CREATE TABLE large_v7 (id uuid PRIMARY KEY, created_at timestamptz NOT NULL);
	CREATE TABLE large_hot (id uuid PRIMARY KEY, created_at timestamptz NOT NULL);
	INSERT INTO large_v7 SELECT uuidv7_lower(at), at
	FROM (SELECT timestamptz '2026-03-01 00:00+00' + g * interval '1 minute' AS at FROM generate_series(0, $large - 1) g) s;
	INSERT INTO large_hot SELECT hot_uuid_boundary(created_at), created_at FROM large_v7;
	CREATE INDEX ON large_v7 (created_at);});
my (@ends, %hits);
for my $run (1 .. 20)
{
	$node->safe_psql('postgres', 'ANALYZE large_v7, large_hot');
	for my $start (0, $large - 30)
	{
		my ($since, $till) = map { "timestamptz '2026-03-01 00:00+00' + interval '1 minute' * $_" } ($start, $start + 30);
		my $where = $start ? 'end' : 'start';
		my @out = outside_2x("ANALYZE $run, 30 rows at the $where", $hits{$where} //= {}, [ 'large_v7', "created_at >= $since AND created_at < $till" ],
			'uuidv7_timestamp' => "large_v7 WHERE uuidv7_timestamp(id) >= $since AND uuidv7_timestamp(id) < $till",
			'uuidv7_made' => "large_v7 WHERE uuidv7_made(id, $since, $till)",
			'hot_uuid_timestamp' => "large_hot WHERE hot_uuid_timestamp(id) >= $since AND hot_uuid_timestamp(id) < $till",
			'hot_uuid_made' => "large_hot WHERE hot_uuid_made(id, $since, $till)");
		push @ends, @out;
	}
}
for my $where (sort keys %hits)
{
	diag "0.01 % at the $where, estimates within 2x of the count in 20 ANALYZEs: "
	  . join(', ', map { "$_ " . ($hits{$where}{$_} // 0) } qw(created_at uuidv7_timestamp uuidv7_made hot_uuid_timestamp hot_uuid_made));
}
is(join("\n", @ends), '', '0.01 % at the table\'s start and end: every spelling within 2x after each of 20 ANALYZEs');

$node->stop;

# 5. Preloaded beside pg_stat_statements (its planner and executor hooks around ours): the same
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
