# Sharding over postgres_fdw: a coordinator and three shard servers, range and shard-key layouts.
#
#   coord   partitioned tables whose partitions are postgres_fdw foreign tables
#   shard1  range r0: first byte 00..3f   shard key 1
#   shard2  range r1: first byte 40..7f   shard key 2
#   shard3  ranges r2: 80..bf and r3: c0..ff   shard key 3
# The four ranges of the first id byte are four partitions; one server owns two of them, as a
# range-sharded system owns several ranges per server, so moving a range moves one table.
# Every rule is tested per range; per-server counts follow (shard3 expects half the rows).
# Plans are judged by their properties in EXPLAIN (FORMAT JSON).
use strict;
use warnings FATAL => 'all';
use List::Util qw(sum);
use LocalityUuid;
use Test::More;

my $n = 3000;             # ids per range-sharding scenario
my $chi2_crit = 16.266;   # chi-square, 3 degrees of freedom, 0.1 % upper tail

# Each server gets its own node id (locality uuids) and machine name (hot_uuid): all four
# share this host's MAC and host name, which would otherwise give them equal ids.
my @nodes;
for my $i (0 .. 3)
{
	my $name = $i == 0 ? 'coord' : "shard$i";
	push @nodes,
	  extension_node(
		$name,
		extension => 0,
		conf => [
			'locality_uuid.node_id = ' . (100 + $i),
			"locality_uuid.machine_name = '$name'",
			'max_connections = 20',
			'shared_buffers = 16MB'
		]);
}
my ($coord, @shards) = @nodes;
pass('start coordinator and three shard servers');

# Run SQL unaligned, columns separated by a space, on the coordinator / on shard I (1..3).
sub on_coord { return $coord->safe_psql('postgres', shift, extra_params => [ '-F', ' ' ]) }
sub on_shard { my ($i, $sql) = @_; return $shards[ $i - 1 ]->safe_psql('postgres', $sql, extra_params => [ '-F', ' ' ]) }

# Shard servers: the extension, and plain tables that hold their ranges and shard key.
my $setup_ok = 1;
for my $i (1 .. 3)
{
	my $r = $i - 1;
	my ($rc, $out, $err) = $shards[ $i - 1 ]->psql(
		'postgres', qq{
		CREATE EXTENSION locality_uuid;
		CREATE TABLE ids_r$r (id uuid PRIMARY KEY, scenario text NOT NULL);
		@{[ $i == 3 ? 'CREATE TABLE ids_r3 (id uuid PRIMARY KEY, scenario text NOT NULL);' : '' ]}
		CREATE TABLE events (id uuid PRIMARY KEY, payload int NOT NULL, made_on text NOT NULL);
		CREATE TABLE made_here (server text NOT NULL, hot uuid, loc uuid NOT NULL);});
	$setup_ok &&= $rc == 0;
	diag $err if $rc;
}

# Coordinator: one postgres_fdw server per shard (unix socket, a mapping for the superuser,
# the extension named so its extractors may be shipped), and the range-partitioned table.
my $coord_sql = "CREATE EXTENSION locality_uuid;\nCREATE EXTENSION postgres_fdw;\n";
for my $i (1 .. 3)
{
	my $s = $shards[ $i - 1 ];
	$coord_sql .= "CREATE SERVER shard$i FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '"
	  . $s->host . "', port '" . $s->port . "', dbname 'postgres', extensions 'locality_uuid', batch_size '500');\n"
	  . "CREATE USER MAPPING FOR CURRENT_USER SERVER shard$i;\n";
}
$coord_sql .= q{
CREATE TABLE ids (id uuid NOT NULL, scenario text NOT NULL) PARTITION BY RANGE (id);
CREATE FOREIGN TABLE ids_r0 PARTITION OF ids
  FOR VALUES FROM ('00000000-0000-0000-0000-000000000000') TO ('40000000-0000-0000-0000-000000000000')
  SERVER shard1 OPTIONS (table_name 'ids_r0');
CREATE FOREIGN TABLE ids_r1 PARTITION OF ids
  FOR VALUES FROM ('40000000-0000-0000-0000-000000000000') TO ('80000000-0000-0000-0000-000000000000')
  SERVER shard2 OPTIONS (table_name 'ids_r1');
CREATE FOREIGN TABLE ids_r2 PARTITION OF ids
  FOR VALUES FROM ('80000000-0000-0000-0000-000000000000') TO ('c0000000-0000-0000-0000-000000000000')
  SERVER shard3 OPTIONS (table_name 'ids_r2');
CREATE FOREIGN TABLE ids_r3 PARTITION OF ids
  FOR VALUES FROM ('c0000000-0000-0000-0000-000000000000') TO (MAXVALUE)
  SERVER shard3 OPTIONS (table_name 'ids_r3');
CREATE SEQUENCE block_seq;
};
my ($rc, $out, $err) = $coord->psql('postgres', $coord_sql);
$setup_ok &&= $rc == 0;
diag $err if $rc;
ok($setup_ok, 'install the extension on all four servers, postgres_fdw on the coordinator')
  or BAIL_OUT('no cluster to test');

# ------------------------------------------------------------------------------------------
# Range sharding on the id: where do $n ids of each kind land?

# The row counts of the four range partitions, in order.
sub range_counts
{
	my ($scenario) = @_;
	return split ' ', on_coord(qq{
		SELECT string_agg(coalesce(n, 0)::text, ' ' ORDER BY i)
		FROM unnest(ARRAY['ids_r0', 'ids_r1', 'ids_r2', 'ids_r3']) WITH ORDINALITY AS p(part, i)
		LEFT JOIN (SELECT tableoid::regclass::text AS part, count(*) AS n
		           FROM ids WHERE scenario = '$scenario' GROUP BY 1) AS c USING (part)});
}

# Chi-square of four counts against an even spread.
sub chi2
{
	my $e = sum(@_) / 4;
	return sum(map { ($_ - $e)**2 / $e } @_);
}

# Note per-range and per-server counts and chi-square; return (counts, chi2, ranges used).
sub report
{
	my ($scenario) = @_;
	my @c = range_counts($scenario);
	my $x = chi2(@c);
	my $used = grep { $_ != 0 } @c;
	note sprintf('%-16s ranges r0..r3: %5d %5d %5d %5d | servers: %5d %5d %5d | chi2 %9.3f | ranges used %d',
		$scenario, @c, $c[0], $c[1], $c[2] + $c[3], $x, $used);
	return (\@c, $x, $used);
}

# Insert $n ids made by EXPR on the coordinator, routed by range; true when all arrived.
sub insert_ids
{
	my ($scenario, $expr) = @_;
	my ($rc) = $coord->psql('postgres', "INSERT INTO ids SELECT $expr, '$scenario' FROM generate_series(1, $n) AS g");
	return $rc == 0 && on_coord("SELECT count(*) FROM ids WHERE scenario = '$scenario'") == $n;
}

note "$n ids per scenario, inserted through the coordinator; chi-square 0.1% critical value (3 df) $chi2_crit";

# Baseline: random v4 ids (figures only; a random spread exceeds any fixed bound sometimes).
ok(insert_ids('v4', 'gen_random_uuid()'), "insert $n random v4 ids through the coordinator");
report('v4');

# Variable mode: the first hex digit is the counter's low nibble, and the stride 198491317
# is odd, so any 16 consecutive ids of one backend cover all 16 first digits: an even spread.
ok(insert_ids('variable', 'locality_uuid(false)'), "insert $n variable-mode locality uuids");
my ($counts, $x, $used) = report('variable');
ok($x < $chi2_crit && $used == 4,
	sprintf('variable mode spreads evenly (chi2 %.3f < %s, every range non-empty)', $x, $chi2_crit));

# Sequential mode: every backend counts up from the seed of the 10-minute UTC bucket, so the
# ids of one bucket are one run of counter values: one range, or two when the run crosses a
# range border (or wraps from ffffffff to 00000000). A bucket change mid-run re-seeds
# anywhere, so the guarantee is at most two ranges per bucket.
ok(insert_ids('sequential', 'locality_uuid(true)'), "insert $n sequential-mode locality uuids");
($counts, $x, $used) = report('sequential');
my $per_bucket = on_coord(q{
	SELECT max(n) FROM (
	  SELECT count(DISTINCT tableoid) AS n FROM ids WHERE scenario = 'sequential'
	  GROUP BY floor(extract(epoch FROM locality_uuid_timestamp(id)) / 600)) AS b});
cmp_ok($per_bucket, '<=', 2,
	"sequential mode concentrates: $used range(s) used, at most 2 per 10-minute seed bucket");

# Block-wrapped: a fresh sequence gives values 0 .. n-1, all in block 0 of 65536 values, so
# the two-byte prefix is 0000 for every id: exactly one range, r0. The time variant's prefix
# is the minute number mod 65536; a range spans 16384 minutes, so a short run uses one range,
# two if it crosses a border.
ok(insert_ids('blocks_sequence', q{uuid_sequence_nextval('block_seq')}), "insert $n uuid_sequence_nextval ids");
($counts) = report('blocks_sequence');
is("@$counts", "$n 0 0 0", "block-wrapped (sequence) concentrates: all $n ids in r0");
ok(insert_ids('blocks_time', 'uuid_time_nextval()'), "insert $n uuid_time_nextval ids");
($counts, $x, $used) = report('blocks_time');
cmp_ok($used, '<=', 2, "block-wrapped (time) concentrates: $used range(s) used");

# Shard-key ids start with the time in seconds: whatever their shard key, all ids made in
# one stretch of 2^24 s (194 days) share the first byte: one range, two across a border.
# A range-sharded cluster sends them all to one server; route by the shard key instead.
ok(insert_ids('hot', 'hot_uuid(g % 3 + 1)'), "insert $n hot_uuid ids");
($counts, $x, $used) = report('hot');
cmp_ok($used, '<=', 2, "shard-key ids concentrate on the id range: $used range(s) used");

# ------------------------------------------------------------------------------------------
# Shard-key routing: LIST partitions on hot_uuid_shard_key(id); key k lives on shard k.

on_coord(q{
	CREATE TABLE events (id uuid NOT NULL, payload int NOT NULL, made_on text NOT NULL)
	  PARTITION BY LIST (hot_uuid_shard_key(id));
	CREATE FOREIGN TABLE events_s1 PARTITION OF events FOR VALUES IN (1)
	  SERVER shard1 OPTIONS (table_name 'events');
	CREATE FOREIGN TABLE events_s2 PARTITION OF events FOR VALUES IN (2)
	  SERVER shard2 OPTIONS (table_name 'events');
	CREATE FOREIGN TABLE events_s3 PARTITION OF events FOR VALUES IN (3)
	  SERVER shard3 OPTIONS (table_name 'events');
});

# Through the coordinator: 1200, 700 and 300 rows for keys 1, 2, 3 (ids made there) ...
($rc, $out, $err) = $coord->psql(
	'postgres', q{
	INSERT INTO events SELECT hot_uuid(1), g, 'coord' FROM generate_series(1, 1200) AS g;
	INSERT INTO events SELECT hot_uuid(2), g, 'coord' FROM generate_series(1, 700) AS g;
	INSERT INTO events SELECT hot_uuid(3), g, 'coord' FROM generate_series(1, 300) AS g;});
is($rc, 0, 'insert through the coordinator, routed by shard key') or diag $err;
# ... and 100 * k rows written on shard k itself, ids made there.
for my $i (1 .. 3)
{
	($rc, $out, $err) = $shards[ $i - 1 ]->psql('postgres',
		"INSERT INTO events SELECT hot_uuid($i), g, 'shard$i' FROM generate_series(1, " . 100 * $i . ') AS g');
	is($rc, 0, "insert on shard $i directly") or diag $err;
}

# Count on each shard server itself: how many rows, and how many carry another key.
my @expect = (undef, 1300, 900, 600);
for my $i (1 .. 3)
{
	is(on_shard($i, "SELECT count(*), count(*) FILTER (WHERE hot_uuid_shard_key(id) IS DISTINCT FROM $i) FROM events"),
		"$expect[$i] 0", "shard$i holds exactly the $expect[$i] rows of shard key $i, none of another key");
}

# Lookups by id: name an id stored on shard 2.
my $id = on_shard(2, q{SELECT id FROM events WHERE made_on = 'coord' ORDER BY payload LIMIT 1});
my $lookup = "SELECT * FROM events WHERE id = '$id' AND hot_uuid_shard_key(id) = hot_uuid_shard_key('$id')";
note "lookup of $id (shard key " . on_coord("SELECT hot_uuid_shard_key('$id')") . ')';

my @plan = plan_nodes($coord, 'postgres', "SELECT * FROM events WHERE id = '$id'");
is(count_nodes(\@plan, 'Foreign Scan'), 3, 'a lookup by id alone scans all three shards');

@plan = plan_nodes($coord, 'postgres', $lookup, explain => 'VERBOSE, ');
note 'planning-time pruning, foreign scans on: ' . join(' ', map { $_->{'Relation Name'} // '?' } grep { $_->{'Node Type'} eq 'Foreign Scan' } @plan);
is(count_nodes(\@plan, 'Foreign Scan') . ' ' . count_nodes(\@plan, 'Foreign Scan', 'events_s2'),
	'1 1', 'planning-time pruning: one foreign scan, on events_s2');

my $prepare = q{SET plan_cache_mode = force_generic_plan;
PREPARE lookup(uuid) AS
  SELECT * FROM events WHERE id = $1 AND hot_uuid_shard_key(id) = hot_uuid_shard_key($1);};
@plan = plan_nodes($coord, 'postgres', "EXECUTE lookup('$id')", setup => $prepare);
my ($removed) = map { $_->{'Subplans Removed'} } grep { exists $_->{'Subplans Removed'} } @plan;
note 'run-time pruning, generic plan of PREPARE lookup(uuid): subplans removed '
  . ($removed // 'none') . ', foreign scans on: '
  . join(' ', map { $_->{'Relation Name'} // '?' } grep { $_->{'Node Type'} eq 'Foreign Scan' } @plan);
is(count_nodes(\@plan, 'Foreign Scan') . ' ' . count_nodes(\@plan, 'Foreign Scan', 'events_s2') . ' ' . ($removed // 'none'),
	'1 1 2', 'run-time pruning: Subplans Removed: 2, one foreign scan, on events_s2');

is(on_coord(q{SET plan_cache_mode = force_generic_plan;
PREPARE lookup(uuid) AS
  SELECT made_on FROM events WHERE id = $1 AND hot_uuid_shard_key(id) = hot_uuid_shard_key($1);
EXECUTE lookup('} . $id . q{');}), 'coord', 'the pruned lookup finds the row');

# ------------------------------------------------------------------------------------------
# Ids made on different servers at the same time never collide: 1000 sequential-mode
# locality uuids (and shard-key ids for one key) made on each shard at once, collected on
# the coordinator. Sequential counters start from the same seed everywhere and the backend
# slots match too, so only the configured node id (machine name) keeps them apart.

my @made = map {
	start_psql($shards[ $_ - 1 ], 'postgres',
		"INSERT INTO made_here SELECT 'shard$_', hot_uuid(42), locality_uuid(true) FROM generate_series(1, 1000);")
} 1 .. 3;
my $made_failed = grep { !finish_psql($_) } @made;
is($made_failed, 0, 'each shard server makes 1000 ids at the same time');

on_coord(q{
	CREATE FOREIGN TABLE made_s1 (server text, hot uuid, loc uuid) SERVER shard1 OPTIONS (table_name 'made_here');
	CREATE FOREIGN TABLE made_s2 (server text, hot uuid, loc uuid) SERVER shard2 OPTIONS (table_name 'made_here');
	CREATE FOREIGN TABLE made_s3 (server text, hot uuid, loc uuid) SERVER shard3 OPTIONS (table_name 'made_here');
	CREATE VIEW made AS
	  SELECT * FROM made_s1 UNION ALL SELECT * FROM made_s2 UNION ALL SELECT * FROM made_s3;
});

my $got = on_coord('SELECT count(*), count(DISTINCT loc), count(DISTINCT locality_uuid_node(loc)) FROM made');
my $shared = on_coord(q{
	SELECT coalesce(sum(n), 0) FROM (
	  SELECT count(*) AS n FROM made GROUP BY locality_uuid_counter(loc, true), locality_uuid_pid(loc)
	  HAVING count(DISTINCT server) > 1) AS s});
note 'locality uuids (sequential) made on the shards: (rows, distinct, distinct node ids) = '
  . $got . '; nodes ' . on_coord(q{SELECT string_agg(DISTINCT server || '=' || locality_uuid_node(loc), ' ') FROM made});
note "$shared of them share counter and process field with an id made on another server";
is($got, '3000 3000 3', 'sequential locality uuids from three servers: all distinct, one node id per server');

$got = on_coord(q{
	SELECT count(*), count(DISTINCT hot), count(DISTINCT hot_uuid_machine(hot)),
	       count(DISTINCT (server, hot_uuid_machine(hot)))
	FROM made});
note 'hot_uuid(42) made on the shards: (rows, distinct, machine hashes, server-hash pairs) = ' . $got . '; '
  . on_coord(q{SELECT string_agg(DISTINCT server || '=' || encode(hot_uuid_machine(hot), 'hex'), ' ') FROM made});
is($got, '3000 3000 3 3', 'shard-key ids from three servers: all distinct, one machine hash per server');
my $total = sum(@expect[ 1 .. 3 ]);
is(on_coord('SELECT count(*), count(DISTINCT id) FROM events'), "$total $total",
	'no id of the shard-key table collides across servers');

# Every cluster stops cleanly and none is left running.
for my $node (@nodes)
{
	ok($node->stop('fast', fail_ok => 1) && !-f $node->data_dir . '/postmaster.pid',
		'stopped, no cluster left running: ' . $node->name);
}

done_testing();
