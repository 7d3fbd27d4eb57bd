# Citus: every generator in distributed and reference tables on a coordinator and two workers.
#
# Needs Citus installed for this PostgreSQL (test/citus.sh builds and installs it); skips otherwise.
use strict;
use warnings FATAL => 'all';
use JSON::PP;
use LocalityUuid;
use Test::More;

my $probe = PostgreSQL::Test::Cluster->new('probe');
my $pkglibdir = $probe->config_data('--pkglibdir');
plan skip_all =>
  "Citus is not installed for this PostgreSQL (no $pkglibdir/citus.so; test/citus.sh installs it)"
  unless -f "$pkglibdir/citus.so";

my %node_id = (coord => 200, worker1 => 201, worker2 => 202);
my $shards = 4;

# Every node listens where the framework puts them all (a socket directory, or 127.0.0.1 with
# TCP) and Citus connects to that host string, also back to itself (citus.local_hostname).
# wal_level logical: shard moves copy by logical replication.
my ($coord, @workers) = map {
	my $node = extension_node(
		$_,
		extension => 0,
		conf => [
			q{shared_preload_libraries = 'citus'}, 'shared_buffers = 16MB', 'max_connections = 60',
			'max_worker_processes = 16', 'wal_level = logical', 'max_wal_senders = 10',
			'max_replication_slots = 10', "citus.local_hostname = '" . $probe->host . "'",
			'citus.enable_statistics_collection = off', "locality_uuid.node_id = $node_id{$_}",
			"locality_uuid.machine_name = '$_'"
		]);
	$node->safe_psql('postgres', 'CREATE EXTENSION citus');
	$node;
} qw(coord worker1 worker2);
my ($w1, $w2) = @workers;

# Run SQL on the coordinator.
sub q_coord
{
	return $coord->safe_psql('postgres', $_[0]);
}

# The Citus job of a query's plan, from EXPLAIN (FORMAT JSON): (task count, node of the first task).
sub citus_job
{
	my ($node, $sql) = @_;
	my @todo = (decode_json($node->safe_psql('postgres', "EXPLAIN (FORMAT JSON) $sql")));
	while (defined(my $x = shift @todo))
	{
		if (ref $x eq 'HASH')
		{
			return ($x->{'Task Count'}, $x->{Tasks}[0]{Node} // '') if exists $x->{'Task Count'};
			push @todo, values %$x;
		}
		push @todo, @$x if ref $x eq 'ARRAY';
	}
	return (undef, '');
}

# Rows per worker port of a distributed table, counted on the placements themselves.
sub rows_per_port
{
	my ($table) = @_;
	return q_coord(
		"SELECT nodeport, sum(result::bigint) FROM run_command_on_placements('$table', 'SELECT count(*) FROM %s')
		 GROUP BY 1 ORDER BY 1");
}

q_coord("SELECT citus_set_coordinator_host('" . $coord->host . "', " . $coord->port . ")");
q_coord("SELECT citus_add_node('" . $_->host . "', " . $_->port . ")") for @workers;
is(q_coord('SELECT count(*) FROM pg_dist_node WHERE isactive AND hasmetadata'),
	'3', 'coordinator and two workers registered, with metadata');

# --- the extension reaches the workers
q_coord('CREATE EXTENSION locality_uuid');
my $version = q_coord("SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'");
for my $w (@workers)
{
	is( $w->safe_psql('postgres',
			"SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'"),
		$version,
		"CREATE EXTENSION on the coordinator made locality_uuid $version on " . $w->name);
}

# --- every generator in the DEFAULTs of a distributed table, ids made on every node
q_coord(
	qq{
CREATE TABLE gen (
	k  bigint NOT NULL,
	v  uuid NOT NULL DEFAULT locality_uuid(false),
	s  uuid NOT NULL DEFAULT locality_uuid(true),
	m  uuid NOT NULL DEFAULT locality_uuid(),
	t  uuid NOT NULL DEFAULT uuid_time_nextval(),
	h  uuid NOT NULL DEFAULT hot_uuid(7),
	ha uuid NOT NULL DEFAULT hot_uuid(7, '2024-01-01 00:00:00+00'),
	copy boolean NOT NULL DEFAULT false,
	PRIMARY KEY (k, v)
);
SELECT create_distributed_table('gen', 'k', shard_count => $shards);
});
# A plain INSERT evaluates the DEFAULTs on the node it runs on: coordinator or worker.
q_coord('INSERT INTO gen (k) SELECT g FROM generate_series(1, 300) AS g');
$w1->safe_psql('postgres', 'INSERT INTO gen (k) SELECT g FROM generate_series(301, 600) AS g');
$w2->safe_psql('postgres', 'INSERT INTO gen (k) SELECT g FROM generate_series(601, 900) AS g');
is( q_coord(
		q{SELECT locality_uuid_node(v), min(k), max(k), count(*) FROM gen
		  WHERE NOT copy AND locality_uuid_node(s) = locality_uuid_node(v) AND locality_uuid_node(m) = locality_uuid_node(v)
		  GROUP BY 1 ORDER BY 1}),
	"200|1|300|300\n201|301|600|300\n202|601|900|300",
	'INSERT on each node: the DEFAULTs run there, the ids carry its node_id (300 rows each)');
is( q_coord(
		q{SELECT count(*) FROM gen
		  WHERE hot_uuid_machine(h) <> decode(substr(md5(CASE locality_uuid_node(v)
		      WHEN 200 THEN 'coord' WHEN 201 THEN 'worker1' ELSE 'worker2' END), 1, 6), 'hex')
		     OR hot_uuid_machine(ha) <> hot_uuid_machine(h)}),
	'0', 'shard-key ids carry the machine hash of the node that made them');

# An INSERT ... SELECT that keeps the distribution column runs on the shards: each worker makes
# the ids of the rows it stores. (One that changes it, k + 1000, makes them where the source row
# is and then moves them.)
q_coord('INSERT INTO gen (k, copy) SELECT k, true FROM gen WHERE k <= 300');
is( q_coord(
		q{SELECT sum(result::bigint) FROM run_command_on_placements('gen',
		    $$SELECT count(*) FROM %s WHERE copy
		      AND locality_uuid_node(v) = current_setting('locality_uuid.node_id')::int
		      AND hot_uuid_machine(h) = decode(substr(md5(current_setting('locality_uuid.machine_name')), 1, 6), 'hex')$$)}
	),
	'300',
	'INSERT ... SELECT pushed down: each of the 300 rows made on the worker that stores it');

is( q_coord(
		q{SELECT count(*), count(DISTINCT v), count(DISTINCT s), count(DISTINCT m), count(DISTINCT t),
		         count(DISTINCT h), count(DISTINCT ha) FROM gen}),
	'1200|1200|1200|1200|1200|1200|1200',
	'every generator: 1200 distinct ids across coordinator and workers');
is( q_coord(
		q{SELECT count(DISTINCT x) FROM gen, LATERAL (VALUES (v), (s), (m), (t), (h), (ha)) AS u(x)}),
	'7200', 'no id repeats across generators either');
is( q_coord(
		q{SELECT count(*) FROM gen
		  WHERE locality_uuid_version(v) = 'b' AND locality_uuid_version(t) = '4'
		    AND hot_uuid_shard_key(h) = 7 AND hot_uuid_shard_key(ha) = 7
		    AND hot_uuid_timestamp(ha) = '2024-01-01 00:00:00+00'}),
	'1200', 'ids have their format: version b, version 4, shard key 7, the given second');

# Distributed on the id itself: the DEFAULT runs before Citus routes the row, and the hash of
# the id spreads even sequential-mode ids over every shard.
q_coord(
	qq{
CREATE TABLE items (id uuid PRIMARY KEY DEFAULT locality_uuid(true), n int);
SELECT create_distributed_table('items', 'id', shard_count => $shards);
INSERT INTO items (n) SELECT g FROM generate_series(1, 200) AS g;
});
$w1->safe_psql('postgres', 'INSERT INTO items (n) SELECT g FROM generate_series(201, 400) AS g');
my $per_shard = q_coord(
	q{SELECT count(*), min(result::int), sum(result::int) FROM run_command_on_placements('items', 'SELECT count(*) FROM %s')});
like($per_shard, qr/^4\|([5-9]\d|\d{3})\|400$/,
	"distributed on a locality_uuid(true) id: 400 rows over all 4 shards, at least 50 each ($per_shard)");
my $item = q_coord('SELECT id FROM items WHERE n = 1');
is((citus_job($coord, "SELECT * FROM items WHERE id = '$item'"))[0], 1, '... and a lookup by id: Task Count 1');
note 'rows per shard, distributed on the id: ' . join(', ', split /\n/, q_coord(
	q{SELECT result FROM run_command_on_placements('items', 'SELECT count(*) FROM %s') ORDER BY shardid}));

# --- uuid_sequence_nextval: the sequence is the coordinator's; Citus gives each worker's copy
# of a bigint sequence its own range, starting at (group id << 48) + 1.
q_coord(
	qq{
CREATE SEQUENCE ord_seq;
CREATE TABLE orders (
	k  bigint NOT NULL,
	id uuid NOT NULL DEFAULT uuid_sequence_nextval('ord_seq', 16, 65536),
	PRIMARY KEY (k, id)
);
SELECT create_distributed_table('orders', 'k', shard_count => $shards);
INSERT INTO orders (k) SELECT g FROM generate_series(1, 100) AS g;
});
is(q_coord('SELECT last_value FROM ord_seq'), '100', 'uuid_sequence_nextval through the coordinator: its sequence gave 1..100');
is( q_coord(
		q{SELECT string_agg(b || ':' || n, ' ' ORDER BY b) FROM
		  (SELECT locality_uuid_block(id, 65536) AS b, count(*) AS n FROM orders GROUP BY 1) AS x}),
	'0:16 1:16 2:16 3:16 4:16 5:16 6:4',
	'100 ids in blocks of 16, from block 0');
is((psql_states($w1, 'postgres', 'INSERT INTO orders (k) SELECT g FROM generate_series(101, 110) AS g'))[1],
	'', 'uuid_sequence_nextval in an INSERT on a worker works');
is( $w1->safe_psql('postgres',
		'SELECT last_value - ((SELECT groupid FROM pg_dist_local_group)::bigint << 48) FROM ord_seq'),
	'10',
	'the worker drew 10 values from its own range of the sequence');
is( q_coord(
		q{SELECT count(*) FROM orders WHERE k BETWEEN 101 AND 110 AND locality_uuid_block(id, 65536) = 0}),
	'10', 'its ids start in block 0 again (the range start is a multiple of 16 x 65536)');
q_coord('INSERT INTO orders (k) SELECT k FROM orders WHERE k <= 100');
is(q_coord('SELECT last_value FROM ord_seq'),
	'100', 'pushed-down INSERT ... SELECT leaves the coordinator\'s sequence alone');
my $drawn = 0;
for my $w (@workers)
{
	$drawn += $w->safe_psql('postgres',
		q{SELECT CASE WHEN is_called
		  THEN last_value - ((SELECT groupid FROM pg_dist_local_group)::bigint << 48) ELSE 0 END
		  FROM ord_seq});
}
is($drawn, 110, 'the workers drew the other 100 values from their own ranges');
is(q_coord('SELECT count(*), count(DISTINCT id) FROM orders'), '210|210', '210 distinct ids');

# An integer sequence has no room for ranges: on the workers Citus replaces a DEFAULT that uses
# one by worker_nextval(sequence), an integer, which a uuid column refuses.
q_coord(
	q{
CREATE SEQUENCE small_seq AS integer;
CREATE TABLE orders_small (k bigint NOT NULL, id uuid NOT NULL DEFAULT uuid_sequence_nextval('small_seq'));
});
is( (psql_states($coord, 'postgres',
		"SELECT create_distributed_table('orders_small', 'k', colocate_with => 'none', shard_count => $shards)"))[1],
	'ERROR:  42804',
	'an integer sequence: create_distributed_table fails with 42804 (default of type integer)');

# --- hot_uuid(tenant): the id carries the distribution column
q_coord(
	qq{
CREATE TABLE events (
	tenant  bigint NOT NULL DEFAULT current_setting('app.tenant')::bigint,
	id      uuid NOT NULL DEFAULT hot_uuid(current_setting('app.tenant')::bigint),
	payload text,
	PRIMARY KEY (tenant, id),
	CHECK (tenant = hot_uuid_shard_key(id))
);
SELECT create_distributed_table('events', 'tenant', shard_count => $shards);
});
# Tenant t gets 10 t rows: 1..6 from the session's tenant (both DEFAULTs), 7..12 written out.
q_coord(join('',
		map { "SET app.tenant = $_; INSERT INTO events (payload) SELECT 'e' || g FROM generate_series(1, 10 * $_) AS g;" } 1 .. 6));
q_coord(join('',
		map { "INSERT INTO events (tenant, id, payload) SELECT $_, hot_uuid($_), 'e' || g FROM generate_series(1, 10 * $_) AS g;" } 7 .. 12));
is( q_coord(
		q{SELECT count(*), count(DISTINCT id), sum((hot_uuid_shard_key(id) = tenant)::int) FROM events}),
	'780|780|780', '780 events, distinct ids, each carrying its tenant');
my $expected_rows = q_coord(
	q{SELECT s.nodeport, sum(10 * t) FROM generate_series(1, 12) AS t
	  JOIN pg_dist_shard_placement s ON s.shardid = get_shard_id_for_distribution_column('events', t)
	  GROUP BY 1 ORDER BY 1});
my $rows = rows_per_port('events');
is($rows, $expected_rows, 'each worker stores the rows of the tenants its shards hold');
my %rows_at = map { split /\|/ } split /\n/, $rows;
note 'rows per worker: ' . join(', ', map { $_->name . ' ' . ($rows_at{ $_->port } // 0) } @workers);

my $tenant5_port = q_coord(
	"SELECT nodeport FROM pg_dist_shard_placement WHERE shardid = get_shard_id_for_distribution_column('events', 5)");
my $id = q_coord('SELECT id FROM events WHERE tenant = 5 ORDER BY id LIMIT 1');
my $idiom = "SELECT * FROM events WHERE id = '$id' AND tenant = hot_uuid_shard_key('$id')";
for my $node ($coord, $w1)
{
	my ($tasks, $where) = citus_job($node, $idiom);
	is($tasks, 1, 'lookup by id and hot_uuid_shard_key(id), on ' . $node->name . ': Task Count 1');
	like($where, qr/port=$tenant5_port\b/, '... on the worker that holds tenant 5');
	($tasks) = citus_job($node, "SELECT * FROM events WHERE id = '$id'");
	is($tasks, $shards, 'lookup by id alone, on ' . $node->name . ": Task Count $shards (every shard)");
}
is(q_coord("SELECT tenant FROM events WHERE id = '$id' AND tenant = hot_uuid_shard_key('$id')"),
	'5', 'the idiom finds the row');

# Prepared: with plan_cache_mode auto Citus plans each execution for its values; a generic plan
# cannot route on hot_uuid_shard_key($1), a shard key passed as a value of its own can.
my $prepared = 'PREPARE lookup(uuid) AS SELECT count(*) FROM events WHERE id = $1 AND tenant = hot_uuid_shard_key($1);'
  . join('', map { "EXECUTE lookup('$id');" } 1 .. 7);
my $out = q_coord($prepared . "EXPLAIN (FORMAT JSON) EXECUTE lookup('$id')");
is(scalar(() = $out =~ /^1$/mg), 7, 'prepared idiom: each of 7 executions finds the row');
is(($out =~ /"Task Count": (\d+)/)[0], 1, 'prepared idiom, 8th execution: Task Count 1');
is((psql_states($coord, 'postgres', "SET plan_cache_mode = force_generic_plan; $prepared"))[1],
	join("\n", ('ERROR:  0A000') x 7), 'prepared idiom under force_generic_plan: 0A000 from each of 7 executions (no distributed plan)');
is( ( q_coord(
			'SET plan_cache_mode = force_generic_plan;
			 PREPARE lookup2(uuid, bigint) AS SELECT count(*) FROM events WHERE id = $1 AND tenant = $2;'
			  . "EXECUTE lookup2('$id', 5); EXPLAIN (FORMAT JSON) EXECUTE lookup2('$id', 5)") =~
		  /"Task Count": (\d+)/)[0],
	1,
	'generic plan with the shard key as its own parameter: Task Count 1');

# The key cannot be a generated column instead of the CHECK.
q_coord(
	q{CREATE TABLE events_gen (id uuid NOT NULL, tenant bigint GENERATED ALWAYS AS (hot_uuid_shard_key(id)) STORED)}
);
is((psql_states($coord, 'postgres', "SELECT create_distributed_table('events_gen', 'tenant')"))[1],
	'ERROR:  0A000', 'a generated column as distribution column: 0A000');

# --- a reference table: the coordinator or worker that runs the INSERT makes the ids once,
# and every placement stores the same ones
q_coord(
	q{
CREATE TABLE plans (
	code int PRIMARY KEY,
	id   uuid NOT NULL DEFAULT locality_uuid(true),
	hid  uuid NOT NULL DEFAULT hot_uuid(0),
	tid  uuid NOT NULL DEFAULT uuid_time_nextval(),
	sid  uuid NOT NULL DEFAULT uuid_sequence_nextval('ord_seq')
);
SELECT create_reference_table('plans');
INSERT INTO plans (code) SELECT g FROM generate_series(1, 50) AS g;
});
$w2->safe_psql('postgres', 'INSERT INTO plans (code) SELECT g FROM generate_series(51, 60) AS g');
my $digest = q_coord(
	q{SELECT string_agg(DISTINCT result, ' '), count(*) FROM run_command_on_placements('plans',
	    $$SELECT count(*) || ':' || md5(string_agg(concat_ws(',', code, id, hid, tid, sid), ';' ORDER BY code)) FROM %s$$)});
like($digest, qr/^60:[0-9a-f]{32}\|3$/, 'reference table: 3 placements, all with the same 60 rows and ids');
is( q_coord(
		q{SELECT locality_uuid_node(id), count(*), count(DISTINCT sid) FROM plans GROUP BY 1 ORDER BY 1}),
	"200|50|50\n202|10|10",
	'its ids were made by the node that ran the INSERT');

# --- move the shard of tenant 5 to the other worker
my ($other) = grep { $_->port != $tenant5_port } @workers;
my $shard = q_coord("SELECT get_shard_id_for_distribution_column('events', 5)");
my $before = q_coord(
	q{SELECT tenant, count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM events GROUP BY 1 ORDER BY 1});
my $gen_before = q_coord(q{SELECT md5(string_agg(concat_ws(',', k, v, s, m, t, h, ha), ';' ORDER BY k, v)) FROM gen});
q_coord("SELECT citus_move_shard_placement($shard, '" . $coord->host . "', $tenant5_port, '"
	  . $other->host . "', " . $other->port . ")");
is(q_coord("SELECT nodeport FROM pg_dist_shard_placement WHERE shardid = $shard"),
	$other->port, 'citus_move_shard_placement moved the shard of tenant 5 to the other worker');
is( q_coord(
		q{SELECT tenant, count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM events GROUP BY 1 ORDER BY 1}),
	$before, 'every tenant keeps exactly its ids');
is(q_coord(q{SELECT md5(string_agg(concat_ws(',', k, v, s, m, t, h, ha), ';' ORDER BY k, v)) FROM gen}),
	$gen_before, 'the co-located shard of gen moved with it, ids unchanged');
my $rows_moved = rows_per_port('events');
isnt($rows_moved, $rows, 'rows per worker changed');
%rows_at = map { split /\|/ } split /\n/, $rows_moved;
note 'rows per worker after the move: ' . join(', ', map { $_->name . ' ' . ($rows_at{ $_->port } // 0) } @workers);

q_coord('SET app.tenant = 5; INSERT INTO events (payload) SELECT \'after\' || g FROM generate_series(1, 10) AS g');
$w1->safe_psql('postgres', 'INSERT INTO gen (k) SELECT g FROM generate_series(2001, 2100) AS g');
is( q_coord(
		q{SELECT count(*), count(DISTINCT id), sum((hot_uuid_shard_key(id) = 5)::int) FROM events WHERE tenant = 5}),
	'60|60|60', 'DEFAULTs after the move: tenant 5 has 60 distinct ids');
is( $other->safe_psql('postgres',
		"SELECT count(*) FROM events_$shard WHERE payload LIKE 'after%'"),
	'10', 'the new rows are on the worker the shard moved to');
is(q_coord('SELECT count(*), count(DISTINCT v), count(DISTINCT h) FROM gen'), '1300|1300|1300',
	'gen: 1300 distinct ids after the move');
my $new_id = q_coord(q{SELECT id FROM events WHERE payload = 'after1'});
my ($tasks, $where) = citus_job($coord,
	"SELECT * FROM events WHERE id = '$new_id' AND tenant = hot_uuid_shard_key('$new_id')");
is($tasks, 1, 'after the move the idiom still has Task Count 1');
my $other_port = $other->port;
like($where, qr/port=$other_port\b/, '... on the worker the shard moved to');

# --- "made between a and b" on a table distributed by its version 7 id: uuidv7_made goes to
# every shard with the query (a hash of the id cannot prune a range) and each shard answers it
# from its own primary key, with the rows of the plain predicate; hot_uuid_made the same.
q_coord(qq{
CREATE TABLE readings (id uuid PRIMARY KEY, hot uuid NOT NULL, v int NOT NULL);
SELECT create_distributed_table('readings', 'id', shard_count => $shards);
INSERT INTO readings
SELECT uuidv7_ordered(at), hot_uuid(7, at), g
FROM (SELECT timestamptz '2026-03-01+00' + g * interval '15 seconds' AS at, g FROM generate_series(1, 40000) g) s;
CREATE INDEX ON readings (hot);
ANALYZE readings;});
for my $case ([ 'uuidv7_made', 'id', 'uuidv7_timestamp' ], [ 'hot_uuid_made', 'hot', 'hot_uuid_timestamp' ])
{
	my ($made, $column, $extractor) = @$case;
	my $where = "$made($column, '2026-03-03 10:00+00', '2026-03-03 11:00+00')";
	my $plan = q_coord("SET citus.explain_all_tasks = on; EXPLAIN (COSTS OFF) SELECT * FROM readings WHERE $where");
	my $index = $column eq 'id' ? 'readings_pkey' : 'readings_hot_idx';
	my @scans = $plan =~ /Index (?:Only )?Scan using ${index}_\d+ on readings_\d+/g;
	my @conds = $plan =~ /Index Cond: \(\($column >= '[0-9a-f-]+'::uuid\) AND \($column <= '[0-9a-f-]+'::uuid\)/g;
	is(scalar(@scans) . '|' . scalar(@conds), "$shards|$shards",
		"$made on a distributed table: each of the $shards shards scans its own index on $column with the key range")
	  or diag $plan;
	is( q_coord("SELECT count(*) FROM readings WHERE $where"),
		q_coord("SELECT count(*) FROM readings WHERE $extractor($column) >= '2026-03-03 10:00+00'
		         AND $extractor($column) < '2026-03-03 11:00+00'"),
		"$made on a distributed table: the rows of the plain predicate");
}

done_testing();
