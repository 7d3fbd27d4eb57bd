# Property test of the time range spellings, in both editions (the C extension in database c,
# the portable edition in database p): random tables mixing ids of every kind and random bounds
# (with microseconds, an id's exact millisecond or second and 1 us either side, infinities,
# pre-1970, past each format's end, NULL). For every table and bound pair, the rows of
# uuidv7_made(id, a, b) are those of (uuidv7_timestamp(id) >= a AND uuidv7_timestamp(id) < b)
# IS TRUE, and hot_uuid_made's those of hot_uuid_timestamp's, with the index on id (whose use
# the plan must show) and with a sequential scan, for the call and for NOT the call, and with
# the bounds as constants (keys folded at plan time) and as join parameters (keys computed at
# run time). In the C edition the user's words too: comparisons of uuidv7_timestamp(id) and
# hot_uuid_timestamp(id) (>= and <, > and <=, BETWEEN, one side either way round, =) give the rows
# of the same conditions under IS TRUE, on the table, on a UNION ALL view of it and a copy, and on
# its version 7 ids in a table whose CHECK says so (there the plans have lost the check too), and
# every plan of them has lost the extractor (the planner hook rewrote them). The key functions give the same keys in both editions. LOCALITY_UUID_SEED picks
# another seed (the seed is printed); LOCALITY_UUID_ROUNDS another number of tables.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $seed = $ENV{LOCALITY_UUID_SEED} // 264;
my $rounds = $ENV{LOCALITY_UUID_ROUNDS} // 2;
my $ids_per_table = 600;
my $pairs_per_table = 50;
note "seed $seed, $rounds tables of $ids_per_table ids, $pairs_per_table bound pairs each";
srand($seed);

my $V7_MS_MAX = 2**48 - 1;
my $HOT_S_MAX = 2**32 - 1;
my $US_PER_DAY = 86_400_000_000;

my $node = extension_node('time_ranges_property', extension => 0);
$node->safe_psql('postgres', 'CREATE DATABASE c; CREATE DATABASE p');
$node->safe_psql('c', 'CREATE EXTENSION locality_uuid');
install_portable($node, 'p');

# The comparison, made in each edition's database: for each bound pair, the rows (k) of the
# spelling against those of the plain predicate IS TRUE, as index scans (the plan must show an
# index condition, or a constant false for bounds that select no id) and as a sequential scan,
# the call and NOT the call. Returns one line per mismatch or plan without the index, and the
# counts of queries and of rows compared.
my $CHECK_SQL = <<'SQL';
-- The plan of a query as EXPLAIN (COSTS OFF) prints it, a line each.
CREATE FUNCTION plan_text(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    e record;
    plan text := '';
BEGIN
    FOR e IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || e."QUERY PLAN" || E'\n';
    END LOOP;
    RETURN plan;
END $$;
CREATE FUNCTION made_rows(q text, tab text DEFAULT 'ids') RETURNS integer[] LANGUAGE plpgsql AS $$
DECLARE r integer[];
BEGIN
    EXECUTE format('SELECT coalesce(array_agg(k ORDER BY k), ''{}'') FROM %I WHERE ', tab) || q INTO r;
    RETURN r;
END $$;
CREATE FUNCTION made_check(spelling text, extractor text, OUT problem text, OUT queries bigint,
                           OUT rows_compared bigint, OUT index_plans bigint, OUT false_plans bigint,
                           OUT whole_plans bigint)
RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
    b record;
    whole boolean;
    neg text;
    call text;
    want integer[];
    got integer[];
    plan text;
    nq bigint := 0;
    nr bigint := 0;
    diff bigint;
BEGIN
    index_plans := 0;
    false_plans := 0;
    whole_plans := 0;
    FOR b IN SELECT n, a, z FROM bounds ORDER BY n LOOP
        FOREACH neg IN ARRAY ARRAY['', 'NOT '] LOOP
            call := format('%s%s(id, %L::timestamptz, %L::timestamptz)', neg, spelling, b.a, b.z);
            want := made_rows(format('%s((%s(id) >= %L::timestamptz AND %s(id) < %L::timestamptz) IS TRUE)',
                                     neg, extractor, b.a, extractor, b.z));
            SET LOCAL enable_seqscan = off;
            SET LOCAL enable_indexscan = on;
            SET LOCAL enable_bitmapscan = on;
            IF neg = '' THEN
                -- Keys that bound no id out (the nil and the max uuid) need no index condition.
                EXECUTE format('SELECT %s_since(%L::timestamptz) = ''00000000-0000-0000-0000-000000000000'' '
                               'AND %s_before(%L::timestamptz) = ''ffffffff-ffff-ffff-ffff-ffffffffffff''',
                               spelling, b.a, spelling, b.z) INTO whole;
                plan := plan_text('SELECT k FROM ids WHERE ' || call);
                IF plan ~ 'Index Cond: .*\mid (>=|<=|IS NOT NULL)' THEN
                    index_plans := index_plans + 1;
                ELSIF plan ~ 'One-Time Filter: false' THEN
                    false_plans := false_plans + 1;
                ELSIF whole THEN
                    whole_plans := whole_plans + 1;
                ELSE
                    problem := format('%s does not use the index: %s', call, plan);
                    RETURN NEXT;
                END IF;
            END IF;
            got := made_rows(call);
            nq := nq + 1;
            nr := nr + (SELECT count(*) FROM ids);
            IF got IS DISTINCT FROM want THEN
                problem := format('%s with the index, bounds %s: %s rows, want %s (only got: %s, only want: %s)',
                                  call, b.n, cardinality(got), cardinality(want),
                                  (SELECT array_agg(x) FROM unnest(got) x WHERE x <> ALL (want)),
                                  (SELECT array_agg(x) FROM unnest(want) x WHERE x <> ALL (got)));
                RETURN NEXT;
            END IF;
            SET LOCAL enable_seqscan = on;
            SET LOCAL enable_indexscan = off;
            SET LOCAL enable_bitmapscan = off;
            got := made_rows(call);
            nq := nq + 1;
            nr := nr + (SELECT count(*) FROM ids);
            IF got IS DISTINCT FROM want THEN
                problem := format('%s with a seq scan, bounds %s: %s rows, want %s', call, b.n,
                                  cardinality(got), cardinality(want));
                RETURN NEXT;
            END IF;
        END LOOP;
    END LOOP;
    queries := nq;
    rows_compared := nr;
    -- The bounds as join parameters: keys computed at run time in an inner index scan.
    SET LOCAL enable_seqscan = off;
    SET LOCAL enable_indexscan = on;
    SET LOCAL enable_bitmapscan = on;
    SET LOCAL enable_hashjoin = off;
    SET LOCAL enable_mergejoin = off;
    call := format('SELECT b.n, i.k FROM bounds b JOIN ids i ON %s(i.id, b.a, b.z)', spelling);
    plan := plan_text(call);
    IF plan !~ 'Index Cond: .*\mid (>=|<=|IS NOT NULL)' THEN
        problem := format('%s does not use the index: %s', call, plan);
        RETURN NEXT;
    END IF;
    EXECUTE format('SELECT count(*) FROM ((%s EXCEPT ALL %s) UNION ALL (%s EXCEPT ALL %s)) d', call,
                   format('SELECT b.n, i.k FROM bounds b JOIN ids i ON (%s(i.id) >= b.a AND %s(i.id) < b.z) IS TRUE',
                          extractor, extractor),
                   format('SELECT b.n, i.k FROM bounds b JOIN ids i ON (%s(i.id) >= b.a AND %s(i.id) < b.z) IS TRUE',
                          extractor, extractor), call) INTO diff;
    IF diff > 0 THEN
        problem := format('%s: %s rows differ from the plain predicate''s', call, diff);
        RETURN NEXT;
    END IF;
    problem := NULL;
    queries := queries + 1;
    rows_compared := rows_compared + (SELECT count(*) FROM ids) * (SELECT count(*) FROM bounds);
    RETURN NEXT;
END $$;
-- The user's words: comparisons of the extractor (C edition: rewritten by the planner hook into
-- index conditions on id) against the same conditions under IS TRUE (never rewritten), with the
-- index and with a sequential scan; each rewritten plan must have lost the extractor. Also the
-- bounds as join parameters. And on ids_checked, whose CHECK says every id is of version 7: the
-- same rows, and no check of uuidv7_timestamp's rewrite left in the plan (checked_plans counts them).
CREATE FUNCTION spelled_check(extractor text, OUT problem text, OUT queries bigint, OUT rows_compared bigint,
                              OUT index_plans bigint, OUT rewritten_plans bigint, OUT checked_plans bigint)
RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
    b record;
    cond text;
    want integer[];
    got integer[];
    plan text;
    nq bigint := 0;
    nr bigint := 0;
    diff bigint;
BEGIN
    index_plans := 0;
    rewritten_plans := 0;
    checked_plans := 0;
    FOR b IN SELECT n, a, z FROM bounds ORDER BY n LOOP
        FOREACH cond IN ARRAY ARRAY[
            format('%1$s(id) >= %2$L::timestamptz AND %1$s(id) < %3$L::timestamptz', extractor, b.a, b.z),
            format('%1$s(id) > %2$L::timestamptz AND %1$s(id) <= %3$L::timestamptz', extractor, b.a, b.z),
            format('%1$s(id) BETWEEN %2$L::timestamptz AND %3$L::timestamptz', extractor, b.a, b.z),
            format('%2$L::timestamptz <= %1$s(id)', extractor, b.a),
            format('%1$s(id) < %2$L::timestamptz', extractor, b.z),
            format('%1$s(id) = %2$L::timestamptz', extractor, b.a)] LOOP
            want := made_rows(format('(%s) IS TRUE', cond));
            SET LOCAL enable_seqscan = off;
            SET LOCAL enable_indexscan = on;
            SET LOCAL enable_bitmapscan = on;
            plan := plan_text('SELECT k FROM ids WHERE ' || cond);
            IF plan ~ (extractor || '\(') THEN
                problem := format('%s is not rewritten: %s', cond, plan);
                RETURN NEXT;
            ELSE
                rewritten_plans := rewritten_plans + 1;
            END IF;
            IF plan ~ 'Index Cond: .*\mid (>=|<=)' THEN
                index_plans := index_plans + 1;
            END IF;
            got := made_rows(cond);
            nq := nq + 1;
            nr := nr + (SELECT count(*) FROM ids);
            IF got IS DISTINCT FROM want THEN
                problem := format('%s with the index, bounds %s: %s rows, want %s', cond, b.n, cardinality(got), cardinality(want));
                RETURN NEXT;
            END IF;
            -- A UNION ALL of two tables: each branch takes the rewrite, the rows of both.
            plan := plan_text('SELECT k FROM ids_union WHERE ' || cond);
            IF plan ~ (extractor || '\(') THEN
                problem := format('%s is not rewritten in a UNION ALL: %s', cond, plan);
                RETURN NEXT;
            END IF;
            EXECUTE 'SELECT coalesce(array_agg(k ORDER BY k), ''{}'') FROM ids_union WHERE ' || cond INTO got;
            nq := nq + 1;
            nr := nr + 2 * (SELECT count(*) FROM ids);
            IF got IS DISTINCT FROM (SELECT coalesce(array_agg(k ORDER BY k), '{}') FROM unnest(want || want) k) THEN
                problem := format('%s in a UNION ALL, bounds %s: %s rows, want %s', cond, b.n, cardinality(got), 2 * cardinality(want));
                RETURN NEXT;
            END IF;
            plan := plan_text('SELECT k FROM ids_checked WHERE ' || cond);
            IF extractor = 'uuidv7_timestamp' AND plan !~ (extractor || '\(') THEN
                IF plan ~ 'uuidv7_made_check\(' THEN
                    problem := format('%s keeps the check on a table whose CHECK implies it: %s', cond, plan);
                    RETURN NEXT;
                ELSE
                    checked_plans := checked_plans + 1;
                END IF;
            END IF;
            got := made_rows(cond, 'ids_checked');
            nq := nq + 1;
            nr := nr + (SELECT count(*) FROM ids_checked);
            IF got IS DISTINCT FROM made_rows(format('(%s) IS TRUE', cond), 'ids_checked') THEN
                problem := format('%s on ids_checked, bounds %s: %s rows, want %s', cond, b.n, cardinality(got),
                                  cardinality(made_rows(format('(%s) IS TRUE', cond), 'ids_checked')));
                RETURN NEXT;
            END IF;
            SET LOCAL enable_seqscan = on;
            SET LOCAL enable_indexscan = off;
            SET LOCAL enable_bitmapscan = off;
            got := made_rows(cond);
            nq := nq + 1;
            nr := nr + (SELECT count(*) FROM ids);
            IF got IS DISTINCT FROM want THEN
                problem := format('%s with a seq scan, bounds %s: %s rows, want %s', cond, b.n, cardinality(got), cardinality(want));
                RETURN NEXT;
            END IF;
        END LOOP;
    END LOOP;
    SET LOCAL enable_seqscan = off;
    SET LOCAL enable_indexscan = on;
    SET LOCAL enable_bitmapscan = on;
    SET LOCAL enable_hashjoin = off;
    SET LOCAL enable_mergejoin = off;
    cond := format('SELECT b.n, i.k FROM bounds b JOIN ids i ON %1$s(i.id) >= b.a AND %1$s(i.id) < b.z', extractor);
    plan := plan_text(cond);
    IF plan !~ 'Index Cond: .*\mid (>=|<=)' THEN
        problem := format('%s does not use the index: %s', cond, plan);
        RETURN NEXT;
    END IF;
    EXECUTE format('SELECT count(*) FROM ((%s EXCEPT ALL %s) UNION ALL (%s EXCEPT ALL %s)) d', cond,
                   format('SELECT b.n, i.k FROM bounds b JOIN ids i ON (%1$s(i.id) >= b.a AND %1$s(i.id) < b.z) IS TRUE', extractor),
                   format('SELECT b.n, i.k FROM bounds b JOIN ids i ON (%1$s(i.id) >= b.a AND %1$s(i.id) < b.z) IS TRUE', extractor),
                   cond) INTO diff;
    IF diff > 0 THEN
        problem := format('%s: %s rows differ from the plain predicate''s', cond, diff);
        RETURN NEXT;
    END IF;
    problem := NULL;
    queries := nq + 1;
    rows_compared := nr + (SELECT count(*) FROM ids) * (SELECT count(*) FROM bounds);
    RETURN NEXT;
END $$;
SQL

# Random hexadecimal digits.
sub hex_digits
{
	my ($n) = @_;
	return join '', map { sprintf '%x', int(rand(16)) } 1 .. $n;
}

# A random variant nibble: RFC 9562's (10xx) or, with wrong => 1, any other.
sub variant_nibble
{
	my ($wrong) = @_;
	return sprintf '%x', $wrong ? (0 .. 7, 12 .. 15)[ int(rand(12)) ] : 8 + int(rand(4));
}

# A version 7 uuid of millisecond ms (as text).
sub v7_id
{
	my ($ms, %opts) = @_;
	return sprintf('%012x', $ms) . '7' . hex_digits(3) . variant_nibble($opts{wrong_variant}) . hex_digits(15);
}

# A random value of a time field of max units: anywhere, within edge units of either end, or
# within spread units of one of the centers.
sub random_unit
{
	my ($max, $edge, $spread, $centers) = @_;
	my $r = rand();
	return int(rand($max + 1)) if $r < 0.3;
	return int(rand($edge)) if $r < 0.45;
	return $max - int(rand($edge)) if $r < 0.6;
	my $unit = $centers->[ int(rand(@$centers)) ] + int(rand(2 * $spread)) - $spread;
	return $unit < 0 ? 0 : $unit > $max ? $max : $unit;
}

# A random millisecond of a version 7 id, and a random second of a shard-key id (a day around
# the centers, milliseconds).
sub random_ms { return random_unit($V7_MS_MAX, 5000, 86_400_000, $_[0]); }
sub random_second { return random_unit($HOT_S_MAX, 50, 86400, [ map { int($_ / 1000) } @{ $_[0] } ]); }

# The ids of one table: [text, kind, exact time in microseconds or undef].
sub random_ids
{
	my ($centers) = @_;
	my @ids = ([ '00000000000000000000000000000000', 'nil' ], [ 'ffffffffffffffffffffffffffffffff', 'max' ]);
	while (@ids < $ids_per_table)
	{
		my $r = rand();
		if ($r < 0.4)
		{
			my $ms = random_ms($centers);
			push @ids, [ v7_id($ms), 'v7', $ms * 1000 ];
		}
		elsif ($r < 0.5)
		{
			push @ids, [ v7_id(random_ms($centers), wrong_variant => 1), 'v7 wrong variant' ];
		}
		elsif ($r < 0.75)
		{
			my $s = random_second($centers);
			push @ids, [ sprintf('%08x', $s) . hex_digits(24), 'hot', $s * 1_000_000 ];
		}
		else
		{
			my $version = (1, 4, 6)[ int(rand(3)) ];
			push @ids, [ hex_digits(12) . $version . hex_digits(3) . variant_nibble() . hex_digits(15), "v$version" ];
		}
	}
	return @ids;
}

# A timestamptz expression of Unix microsecond us, exact over the whole range of timestamptz.
sub at_us
{
	my ($us) = @_;
	my $days = int($us / $US_PER_DAY);
	my $rest = $us - $days * $US_PER_DAY;
	return "timestamptz 'epoch' + make_interval(days => $days) + $rest * interval '1 microsecond'";
}

# A random bound: with microseconds anywhere in either format's range or before 1970, an id's
# exact time and 1 us either side, or one of the edges.
sub random_bound
{
	my ($ids) = @_;
	my $r = rand();
	if ($r < 0.35)
	{
		my @timed = grep { defined $_->[2] } @$ids;
		return at_us($timed[ int(rand(@timed)) ][2] + int(rand(3)) - 1);
	}
	if ($r < 0.55)
	{
		my $range = (($V7_MS_MAX + 1) * 1000, ($HOT_S_MAX + 1) * 1_000_000, 10_000_000)[ int(rand(3)) ];
		return at_us(int(rand($range)) - int($range / 20));
	}
	my @edges = (
		q{'-infinity'}, q{'infinity'}, 'NULL', q{'1900-01-01 00:00:00.5+00'}, q{'4713-01-01 00:00:00+00 BC'},
		q{'1970-01-01 00:00:00+00'}, q{'1969-12-31 23:59:59.999999+00'}, q{'1970-01-01 00:00:00.000001+00'},
		q{'294276-12-31 23:59:59.999999+00'}, q{'10889-08-02 05:31:50.655+00'}, q{'10889-08-02 05:31:50.654999+00'},
		q{'10889-08-02 05:31:50.655001+00'}, q{'10889-08-02 05:31:50.656+00'}, q{'2106-02-07 06:28:15+00'},
		q{'2106-02-07 06:28:14.999999+00'}, q{'2106-02-07 06:28:15.000001+00'}, q{'2106-02-07 06:28:16+00'},
		at_us(int((rand(1000) + 11999 * 365.2425 - 1969 * 365.2425) * $US_PER_DAY)));
	my $e = $edges[ int(rand(@edges)) ];
	return $e =~ /^'/ ? "timestamptz $e" : $e;
}

my %total = map { $_ => 0 }
  qw(tables pairs queries rows index_plans false_plans whole_plans keys spelled_queries spelled_rows spelled_index_plans spelled_rewritten
  spelled_checked);
my @problems;
for my $db ('c', 'p')
{
	$node->safe_psql($db, $CHECK_SQL);
}
for my $round (1 .. $rounds)
{
	my @centers = map { int(rand($V7_MS_MAX + 1)) } 1 .. 3;
	push @centers, 1_764_000_000_000 + int(rand(100_000_000_000));    # the 2020s
	my @ids = random_ids(\@centers);
	my @pairs = map { [ random_bound(\@ids), random_bound(\@ids) ] } 1 .. $pairs_per_table;

	# Half of the pairs ordered and close: a short range that holds some ids.
	for my $i (0 .. $#pairs / 2)
	{
		my @timed = grep { defined $_->[2] } @ids;
		my $from = $timed[ int(rand(@timed)) ][2] + int(rand(3)) - 1;
		$pairs[$i] = [ at_us($from), at_us($from + int(rand(3_600_000_000 * 48)) + int(rand(3)) - 1) ];
	}
	my $setup = "SET timezone = 'UTC';\nDROP TABLE IF EXISTS ids, ids_copy, ids_checked, bounds CASCADE;\n"
	  . "CREATE TABLE ids (k integer, id uuid);\nINSERT INTO ids VALUES\n"
	  . join(",\n", map { "($_, '$ids[$_][0]')" } 0 .. $#ids) . ";\n"
	  . "INSERT INTO ids VALUES ($ids_per_table, NULL);\n"
	  . "INSERT INTO ids SELECT $ids_per_table + g, uuid_time_nextval(1, 2147483647) FROM generate_series(1, 20) g;\n"
	  . "CREATE INDEX ON ids (id);\nANALYZE ids;\n"
	  . "CREATE TABLE ids_copy AS SELECT * FROM ids;\nCREATE INDEX ON ids_copy (id);\nANALYZE ids_copy;\n"
	  . "CREATE VIEW ids_union AS SELECT k, id FROM ids UNION ALL SELECT k, id FROM ids_copy;\n"

	  . "CREATE TABLE bounds (n integer, a timestamptz, z timestamptz);\nINSERT INTO bounds VALUES\n"
	  . join(",\n", map { "($_, $pairs[$_][0], $pairs[$_][1])" } 0 .. $#pairs) . ";\n";
	my %keys;
	for my $db ('c', 'p')
	{
		$node->safe_psql($db, $setup);
		# The C edition's ids of version 7 in a table whose CHECK says so.
		$node->safe_psql($db,
			    "CREATE TABLE ids_checked (k integer, id uuid CHECK (uuidv7_made_check(id)));\n"
			  . "INSERT INTO ids_checked SELECT k, id FROM ids WHERE uuidv7_timestamp(id) IS NOT NULL;\n"
			  . "CREATE INDEX ON ids_checked (id);\nANALYZE ids_checked;")
		  if $db eq 'c';
		$keys{$db} = $node->safe_psql($db,
			'SELECT n, ' . join(', ', map { ("$_(a)", "$_(z)") }
				qw(uuidv7_made_since uuidv7_made_before uuidv7_made_after uuidv7_made_through
				  hot_uuid_made_since hot_uuid_made_before hot_uuid_made_after hot_uuid_made_through))
			  . ' FROM bounds ORDER BY n');
		for my $spelling ([ 'uuidv7_made', 'uuidv7_timestamp' ], [ 'hot_uuid_made', 'hot_uuid_timestamp' ])
		{
			my $out = $node->safe_psql($db,
				"SET timezone = 'UTC'; SELECT coalesce(queries, 0), coalesce(rows_compared, 0), coalesce(index_plans, 0), "
				  . "coalesce(false_plans, 0), coalesce(whole_plans, 0), coalesce(replace(problem, E'\\n', ' / '), '') "
				  . "FROM made_check('$spelling->[0]', '$spelling->[1]')");
			for my $line (split /\n/, $out)
			{
				# A problem's row carries the running counts; the last row (no problem) the totals.
				my @fields = split /\|/, $line, 6;
				push @problems, "$db, table $round: $fields[5]" and next if $fields[5] ne '';
				$total{$_} += shift @fields for qw(queries rows index_plans false_plans whole_plans);
			}
		}
	}
	for my $extractor ('uuidv7_timestamp', 'hot_uuid_timestamp')
	{
		my $out = $node->safe_psql('c',
			"SET timezone = 'UTC'; SELECT coalesce(queries, 0), coalesce(rows_compared, 0), coalesce(index_plans, 0), "
			  . "coalesce(rewritten_plans, 0), coalesce(checked_plans, 0), coalesce(replace(problem, E'\\n', ' / '), '') "
			  . "FROM spelled_check('$extractor')");
		for my $line (split /\n/, $out)
		{
			my @fields = split /\|/, $line, 6;
			push @problems, "c, table $round, $extractor: $fields[5]" and next if $fields[5] ne '';
			$total{$_} += shift @fields
			  for qw(spelled_queries spelled_rows spelled_index_plans spelled_rewritten spelled_checked);
		}
	}
	push @problems, "table $round: the editions' keys differ" if $keys{c} ne $keys{p};
	$total{keys} += 16 * @pairs;
	$total{tables}++;
	$total{pairs} += @pairs;
}
note sprintf '%d tables, %d bound pairs, %d queries, %d rows compared; plans: %d on the index, %d constant false, '
  . '%d without a bound (both editions, both spellings); %d keys the same in both editions',
  @total{qw(tables pairs queries rows index_plans false_plans whole_plans keys)};
note sprintf 'the user\'s words (C edition): %d queries, %d rows compared; %d plans rewritten, %d of them with an '
  . 'index condition on id; %d on a CHECK-ed table without the check',
  @total{qw(spelled_queries spelled_rows spelled_rewritten spelled_index_plans spelled_checked)};
cmp_ok($total{spelled_rewritten}, '==', $total{tables} * $pairs_per_table * 6 * 2,
	'every comparison of the user\'s words is rewritten (the extractor gone from the plan)');
cmp_ok($total{spelled_checked}, '==', $total{tables} * $pairs_per_table * 6,
	'on a table whose CHECK says every id is of version 7, no rewrite of uuidv7_timestamp keeps the check');
is(scalar @problems, 0,
	'every spelling (the user\'s words too) gives the rows of its plain predicate, with and without the index, and the same keys in both editions')
  or diag(scalar(@problems) . " problems, the first:\n" . join "\n", @problems[ 0 .. ($#problems < 19 ? $#problems : 19) ]);

done_testing();
