# uuidv7_made and hot_uuid_made, and the user's words (uuidv7_timestamp(id) >= x and the like),
# on tables larger than shared_buffers, with the primary key as
# their only index: "the last hour" through now(), a constant day and a prepared generic plan
# scan the key's index; the planner's row estimates for ranges ending now of 0.01 % to 50 % of a
# table (against the plain predicate's count) are within 2x at the default statistics target, and
# about half the table is read in heap order (a sequential or bitmap scan); on tables partitioned RANGE (id) as
# docs/partitioning.md shows, constant bounds prune at plan time, now() and $1 at executor start.
use strict;
use warnings;

use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP qw(decode_json);

my $node = extension_node('ranges', conf => ['shared_buffers = 16MB', 'fsync = off', 'autovacuum = off']);

# Ten days of ids ending now, 400,000 of each format, and 4,000 version 4 ids among the version 7,
# stored out of id order (as a backfill stores them): in id order, the planner rightly reads half
# the table through the index too.
my $rows = 400000;
my %format = (
	v7 => { made => 'uuidv7_made', id => 'uuidv7_ordered(at)', bound => 'uuidv7_lower', extra => 4000 },
	hot => { made => 'hot_uuid_made', id => 'hot_uuid(7, at)', bound => 'hot_uuid_boundary', extra => 0 },);
for my $f (sort keys %format)
{
	my ($id, $extra) = @{ $format{$f} }{qw(id extra)};
	$node->safe_psql('postgres', qq{
		CREATE TABLE t_$f (id uuid PRIMARY KEY, at timestamptz NOT NULL, pad text NOT NULL);
		INSERT INTO t_$f SELECT $id, at, repeat('x', 100)
		FROM (SELECT now() - interval '10 days' + g * interval '10 days' / $rows AS at
		      FROM generate_series(1, $rows) g) s
		ORDER BY random();
		INSERT INTO t_$f SELECT gen_random_uuid(), now(), repeat('x', 100) FROM generate_series(1, $extra);
		VACUUM ANALYZE t_$f;});
	cmp_ok($node->safe_psql('postgres', "SELECT pg_table_size('t_$f') > 2 * 16 * 1024 * 1024"), 'eq', 't',
		"$f: the table is larger than twice shared_buffers");
	is($node->safe_psql('postgres', "SELECT count(*) FROM pg_index WHERE indrelid = 't_$f'::regclass"),
		'1', "$f: the primary key is the table's only index");
}

# The planner's row estimates for statements, planned in one transaction (one now()).
sub estimate
{
	my (@stmts) = @_;
	my $q = join(', ', map { "pg_temp.rows_of(\$q\$$_\$q\$)" } @stmts);
	return split /\|/, $node->safe_psql('postgres', q{
		CREATE FUNCTION pg_temp.rows_of(stmt text) RETURNS numeric LANGUAGE plpgsql AS $f$
		DECLARE p json;
		BEGIN
			EXECUTE 'EXPLAIN (FORMAT JSON) ' || stmt INTO p;
			RETURN (p -> 0 -> 'Plan' ->> 'Plan Rows')::numeric;
		END $f$;} . "SELECT $q");
}

# The scans of a plan: node type, index and index condition of each.
sub scans
{
	my ($stmt, %opts) = @_;
	return grep { $_->{'Node Type'} =~ /Scan/ } plan_nodes($node, 'postgres', $stmt, %opts);
}

for my $f (sort keys %format)
{
	my $made = $format{$f}{made};

	# 1. Plans: the key's index, its condition on id, for now(), a constant day, a generic plan.
	my ($day_since, $day_before) = split /\|/, $node->safe_psql('postgres',
		"SELECT date_trunc('day', now() - interval '3 days'), date_trunc('day', now() - interval '2 days')");
	my $extractor = $f eq 'v7' ? 'uuidv7_timestamp' : 'hot_uuid_timestamp';
	my @cases = (
		[ 'the last hour via now()', "SELECT * FROM t_$f WHERE $made(id, since => now() - interval '1 hour')" ],
		[ 'the last hour in the user\'s words', "SELECT * FROM t_$f WHERE $extractor(id) >= now() - interval '1 hour'" ],
		[ 'a constant day in the user\'s words', "SELECT * FROM t_$f WHERE $extractor(id) BETWEEN '$day_since' AND '$day_before'" ],
		[
			'a prepared generic plan in the user\'s words', "EXECUTE words_$f(now() - interval '2 days', now() - interval '1 day')",
			setup => "SET plan_cache_mode = force_generic_plan;
				PREPARE words_$f(timestamptz, timestamptz) AS SELECT * FROM t_$f WHERE $extractor(id) >= \$1 AND $extractor(id) < \$2;"
		],
		[ 'a constant day', "SELECT * FROM t_$f WHERE $made(id, '$day_since', '$day_before')" ],
		[
			'a prepared generic plan', "EXECUTE made_$f(now() - interval '2 days', now() - interval '1 day')",
			setup => "SET plan_cache_mode = force_generic_plan;
				PREPARE made_$f(timestamptz, timestamptz) AS SELECT * FROM t_$f WHERE $made(id, \$1, \$2);"
		],);
	for my $case (@cases)
	{
		my ($what, $stmt, %opts) = @$case;
		my @scan = scans($stmt, %opts);
		my @index = grep { ($_->{'Index Name'} // '') eq "t_${f}_pkey" } @scan;
		ok(@index == 1 && ($index[0]{'Index Cond'} // '') =~ /\(id >= / && !grep({ $_->{'Node Type'} eq 'Seq Scan' } @scan),
			"$f, $what: a scan of the primary key's index on id")
		  or diag explain \@scan;
	}

	# 2. Row estimates against the plain predicate's count, for ranges ending now of 0.01 % to 50 %
	# of the ten days, within 2x at the default statistics target (1 % of the rows a histogram
	# bucket) and at 10000. The planner cannot place a uuid within a bucket (convert_to_scalar has
	# no uuid case) and estimates a range narrower than a few buckets at half a bucket, one inside
	# a bucket at 1 row; the expansion's check, estimated first, gives each comparison its share
	# of the histogram interpolated inside the bucket, and the planner pairs them (made.cpp).
	for my $target (100, 10000)
	{
		$node->safe_psql('postgres', "ALTER TABLE t_$f ALTER COLUMN id SET STATISTICS $target; ANALYZE t_$f");
		for my $share (0.0001, 0.001, 0.01, 0.1, 0.5)
		{
			my $range = "now() - interval '10 days' * $share, now() - interval '1 second'";
			my $actual = $node->safe_psql('postgres', "SELECT count(*) FROM t_$f
				WHERE $extractor(id) >= now() - interval '10 days' * $share
				  AND $extractor(id) < now() - interval '1 second'");
			my ($estimate, $words) = estimate("SELECT * FROM t_$f WHERE $made(id, $range)",
				"SELECT * FROM t_$f WHERE $extractor(id) >= now() - interval '10 days' * $share
				AND $extractor(id) < now() - interval '1 second'");
			my $ratio = $estimate / ($actual || 1);
			diag sprintf('%s, statistics %d, %.2f %% of the table: estimate %d rows (the user\'s words %d), actual %d (%.2fx)',
				$f, $target, $share * 100, $estimate, $words, $actual, $ratio);
			is($words, $estimate, "$f, statistics $target, $share of the rows: the user's words estimated as $made");
			ok($ratio >= 0.5 && $ratio <= 2, "$f, statistics $target, $share of the rows: estimate within 2x");
			my @scan = scans("SELECT * FROM t_$f WHERE $made(id, $range)");
			if ($share >= 0.5)
			{
				# A sequential scan, or a bitmap scan that reads the heap in its order (the check of
				# the id, a function call on each row of a sequential scan, can tip the balance).
				ok(!grep({ $_->{'Node Type'} =~ /^Index (Only )?Scan$/ } @scan),
					"$f, statistics $target, half the table: a seq scan or bitmap scan, no index scan")
				  or diag explain \@scan;
			}
			elsif ($share <= 0.001)
			{
				ok((grep { $_->{'Node Type'} =~ /Index/ } @scan), "$f, statistics $target, $share of the rows: an index scan");
			}
		}
	}
}

# 3. Partitions RANGE (id), one a day, as docs/partitioning.md makes them: a constant day prunes
# at plan time (one partition scanned), now() and a generic plan's $1 at executor start (the days
# before the hour's start).
for my $f (sort keys %format)
{
	my ($made, $bound) = @{ $format{$f} }{qw(made bound)};
	$node->safe_psql('postgres', qq{
		CREATE TABLE p_$f (id uuid PRIMARY KEY, at timestamptz NOT NULL) PARTITION BY RANGE (id);
		DO \$\$
		DECLARE d timestamptz;
		BEGIN
			FOR i IN 0 .. 11 LOOP
				d := date_trunc('day', now() - interval '10 days') + i * interval '1 day';
				EXECUTE format('CREATE TABLE %I PARTITION OF p_$f FOR VALUES FROM (%L) TO (%L)',
				               'p_${f}_' || i, $bound(d), $bound(d + interval '1 day'));
			END LOOP;
		END
		\$\$;
		INSERT INTO p_$f (id, at) SELECT id, at FROM t_$f WHERE $made(id, date_trunc('day', now() - interval '10 days'));
		ANALYZE p_$f;});
	my ($day_since, $day_before) = split /\|/, $node->safe_psql('postgres',
		"SELECT date_trunc('day', now() - interval '3 days'), date_trunc('day', now() - interval '2 days')");

	my $extractor = $f eq 'v7' ? 'uuidv7_timestamp' : 'hot_uuid_timestamp';
	my @scan = scans("SELECT * FROM p_$f WHERE $made(id, '$day_since', '$day_before')");
	is(scalar(@scan), 1, "$f partitions, a constant day: one partition scanned (pruned at plan time)")
	  or diag explain \@scan;
	@scan = scans("SELECT * FROM p_$f WHERE $extractor(id) >= '$day_since' AND $extractor(id) < '$day_before'");
	is(scalar(@scan), 1, "$f partitions, a constant day in the user's words: one partition scanned (pruned at plan time)")
	  or diag explain \@scan;

	for my $case (
		[ 'now()', "SELECT * FROM p_$f WHERE $made(id, since => now() - interval '1 hour')" ],
		[
			'a generic plan', "EXECUTE pmade_$f(now() - interval '1 hour')",
			setup => "SET plan_cache_mode = force_generic_plan;
				PREPARE pmade_$f(timestamptz) AS SELECT * FROM p_$f WHERE $made(id, \$1);"
		],
		[ 'now() in the user\'s words', "SELECT * FROM p_$f WHERE $extractor(id) >= now() - interval '1 hour'" ],
		[
			'a generic plan in the user\'s words', "EXECUTE pwords_$f(now() - interval '1 hour')",
			setup => "SET plan_cache_mode = force_generic_plan;
				PREPARE pwords_$f(timestamptz) AS SELECT * FROM p_$f WHERE $extractor(id) >= \$1;"
		])
	{
		my ($what, $stmt, %opts) = @$case;
		# The days that end before the hour began: 10 of the 12, 9 in the day's first hour.
		my $before = $node->safe_psql('postgres', "SELECT count(*) FROM generate_series(1, 12) i
			WHERE date_trunc('day', now() - interval '10 days') + i * interval '1 day' <= now() - interval '1 hour'");
		my ($append) = grep { $_->{'Node Type'} eq 'Append' }
		  plan_nodes($node, 'postgres', $stmt, %opts, explain => 'ANALYZE, TIMING OFF, SUMMARY OFF, ');
		is($append && $append->{'Subplans Removed'}, $before,
			"$f partitions, $what: the $before partitions before the hour removed at executor start")
		  or diag explain $append;
	}
}

$node->stop;
done_testing();
