# pg_partman (5.2 and later) keeps time partitions on the id column itself, with the extension's
# encoder and decoder: create_parent on the id, run_maintenance() making children ahead and
# dropping old ones, the column DEFAULT and backfills routed to the child of their day, nothing
# left in the default partition. Skips where pg_partman is missing or older than 5.2.
use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LocalityUuid;

my $node = extension_node('partman', conf => ["timezone = 'UTC'"]);
my $version = $node->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'pg_partman'});
plan skip_all => 'pg_partman is not installed for PostgreSQL ' . $node->pg_version
  if $version eq '';
my ($major, $minor) = split /\./, $version;
plan skip_all => "pg_partman $version has no time encoder and decoder (5.2 and later)"
  if $major < 5 || ($major == 5 && $minor < 2);
note "pg_partman $version";
# Moving rows of a uuid-controlled set out of the default came in 5.3.
my $moves_uuid = $major > 5 || $minor >= 3;

$node->safe_psql('postgres', 'CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman');

# Each format whose ids sort by time: the table, its DEFAULT, a backfill at %s (or undef), and
# the encoder and decoder, schema-qualified (pg_partman's functions run with their own search_path).
my @FORMATS = (
	[ 'hot_events', 'hot_uuid(7)', 'hot_uuid(7, %s)', 'public.hot_uuid_boundary', 'public.hot_uuid_time_decoder' ],
	[ 'v7_events', 'uuidv7()', 'uuidv7_ordered(%s)', 'public.uuidv7_lower', 'public.uuidv7_time_decoder' ],
	[ 'v7_ordered_events', 'uuidv7_ordered()', 'uuidv7_ordered(%s)', 'public.uuidv7_lower', 'public.uuidv7_time_decoder' ],
	# Time-block ids of this layout carry the second in bytes 0..3, as shard-key ids do.
	[ 'block_events', 'uuid_time_nextval(1, 2147483647)', undef, 'public.hot_uuid_boundary', 'public.hot_uuid_time_decoder' ],
);

# The children a set should have: TABLE_pYYYYMMDD for the days FROM..TO after today (UTC).
sub children
{
	my ($table, $from, $to) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg('${table}_p' || to_char(d, 'YYYYMMDD'), ' ' ORDER BY d)
		FROM generate_series(date_trunc('day', now()) + interval '$from days',
		                     date_trunc('day', now()) + interval '$to days', interval '1 day') d});
}

# The children a set has, and the default's rows.
sub state_of
{
	my ($table) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(partition_tablename, ' ' ORDER BY partition_tablename)
		FROM partman.show_partitions('public.$table')})
	  . ' | default rows: '
	  . $node->safe_psql('postgres', "SELECT count(*) FROM ONLY public.${table}_default");
}

# Rows not in the child of the day their id decodes to, and all rows.
sub misplaced
{
	my ($table, $decoder) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT count(*) FILTER (WHERE tableoid::regclass::text
		                        <> '${table}_p' || to_char($decoder(id::text), 'YYYYMMDD')) || ' of ' || count(*)
		FROM public.$table});
}

foreach my $f (@FORMATS)
{
	my ($table, $default, $backfill, $encoder, $decoder) = @$f;
	$node->safe_psql('postgres', qq{
		CREATE TABLE public.$table (
			id   uuid PRIMARY KEY DEFAULT $default,
			note text NOT NULL
		) PARTITION BY RANGE (id);
		SELECT partman.create_parent(
			p_parent_table => 'public.$table', p_control => 'id', p_interval => '1 day',
			p_premake => 3, p_start_partition => (date_trunc('day', now()) - interval '6 days')::text,
			p_time_encoder => '$encoder', p_time_decoder => '$decoder');});
	is(state_of($table), children($table, -6, 3) . ' | default rows: 0',
		"$table: create_parent made a child a day from 6 days back to 3 ahead, and a default");

	# Every child's bounds are the encoder's values of its day, and decode to it.
	is( $node->safe_psql('postgres', qq{
			SELECT count(*) FILTER (WHERE i.child_start_time = to_timestamp(right(p.partition_tablename, 8), 'YYYYMMDD')
			                          AND i.child_end_time = i.child_start_time + interval '1 day'
			                          AND pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES FROM (%L) TO (%L)',
			                                  $encoder(i.child_start_time), $encoder(i.child_end_time)))
			       || ' of ' || count(*)
			FROM partman.show_partitions('public.$table') p
			CROSS JOIN LATERAL partman.show_partition_info(p.partition_schemaname || '.' || p.partition_tablename,
			                                               p_parent_table => 'public.$table') i
			JOIN pg_class c ON c.relname = p.partition_tablename}),
		'10 of 10', "$table: each child's bounds are $encoder of its day's start and end");

	# The DEFAULT, and backfills at noon of each day and on both sides of today's midnight.
	$node->safe_psql('postgres', "INSERT INTO public.$table (note) SELECT 'now' FROM generate_series(1, 100)");
	if (defined $backfill)
	{
		my $at_noon = sprintf $backfill, q{date_trunc('day', now()) - d * interval '1 day' + interval '12 hours'};
		my $before = sprintf $backfill, q{date_trunc('day', now()) - interval '1 microsecond'};
		my $after = sprintf $backfill, q{date_trunc('day', now())};
		$node->safe_psql('postgres', qq{
			INSERT INTO public.$table (id, note) SELECT $at_noon, 'noon, ' || d || ' days ago' FROM generate_series(0, 6) d;
			INSERT INTO public.$table (id, note) VALUES ($before, 'last microsecond of yesterday');
			INSERT INTO public.$table (id, note) VALUES ($after, 'first microsecond of today');});
		is( $node->safe_psql('postgres', qq{
				SELECT string_agg(note || ': ' || (tableoid::regclass::text = '${table}_p'
				           || to_char(now() - interval '1 day', 'YYYYMMDD')), ', ' ORDER BY note)
				FROM public.$table WHERE note LIKE '%microsecond%'}),
			'first microsecond of today: false, last microsecond of yesterday: true',
			"$table: backfills on either side of midnight land in yesterday's and today's children");
	}
	my $rows = defined $backfill ? 109 : 100;
	is(misplaced($table, $decoder), "0 of $rows", "$table: every row is in the child of its day");
	is( $node->safe_psql('postgres', qq{
			SELECT count(*) FROM public.$table
			WHERE note = 'now' AND tableoid::regclass::text = '${table}_p' || to_char(now(), 'YYYYMMDD')}),
		'100', "$table: the DEFAULT $default lands in today's child");
	is($node->safe_psql('postgres', "SELECT count(*) FROM partman.check_default(false)"),
		'0', "$table: check_default finds no row in a default partition");

	# Three days kept, five made ahead.
	$node->safe_psql('postgres', qq{
		UPDATE partman.part_config SET premake = 5, retention = '3 days', retention_keep_table = false
		WHERE parent_table = 'public.$table'});
}

$node->safe_psql('postgres', 'SELECT partman.run_maintenance()');

foreach my $f (@FORMATS)
{
	my ($table, $default, $backfill, $encoder, $decoder) = @$f;
	# A child whose end is more than 3 days ago goes: today - 4 and older.
	is(state_of($table), children($table, -3, 5) . ' | default rows: 0',
		"$table: run_maintenance() dropped the children older than 3 days and made 5 ahead");
	my $rows = defined $backfill ? 106 : 100;
	is(misplaced($table, $decoder), "0 of $rows", "$table: the rows of the dropped children went with them");

	# A row past the last child goes to the default; partition_data_time makes its child and moves it.
	next unless defined $backfill;
	if (!$moves_uuid)
	{
		note "$table: pg_partman $version: partition_data_time takes no uuid control (5.3 and later)";
		next;
	}
	my $later = sprintf $backfill, q{date_trunc('day', now()) + interval '20 days 6 hours'};
	$node->safe_psql('postgres', "INSERT INTO public.$table (id, note) VALUES ($later, 'in 20 days')");
	is($node->safe_psql('postgres', "SELECT count(*) FROM ONLY public.${table}_default"),
		'1', "$table: a backfill 20 days ahead has no child and goes to the default");
	is($node->safe_psql('postgres', "SELECT partman.partition_data_time('public.$table', p_batch_count => 5)"),
		'1', "$table: partition_data_time moves it out of the default");
	is( $node->safe_psql('postgres', qq{
			SELECT tableoid::regclass::text = '${table}_p' || to_char(now() + interval '20 days', 'YYYYMMDD')
			FROM public.$table WHERE note = 'in 20 days'})
		  . ' ' . misplaced($table, $decoder)
		  . ' ' . $node->safe_psql('postgres', "SELECT count(*) FROM partman.check_default(false)"),
		"t 0 of 107 0", "$table: into a child of its day made for it; the default is empty");
}

done_testing();
