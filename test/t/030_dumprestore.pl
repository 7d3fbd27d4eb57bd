# Dump and restore: tables whose DEFAULTs call every generator, expression indexes, a
# generated column, a CHECK and partitions on extractors survive pg_dump / pg_restore into a
# fresh cluster, with the extension in its own schema; the copy keeps generating without
# duplicates and the shared sequence goes on where it was.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

my $rows = 2000;
# search_path for every session, pg_restore's included: the extension lives in schema ext,
# off the default path. The framework passes %ENV on to every program it runs.
$ENV{PGOPTIONS} = '-c search_path=public,ext';

# Objects on extractors; a new format adds lines here.
my @extractor_ddl = (
	q{CREATE TABLE dr_ext (id uuid PRIMARY KEY DEFAULT locality_uuid(true),
		created timestamptz GENERATED ALWAYS AS (locality_uuid_timestamp(id)) STORED,
		CONSTRAINT dr_ext_is_locality CHECK (locality_uuid_version(id) = 'b'))},
	q{CREATE INDEX dr_ext_created ON dr_ext (locality_uuid_timestamp(id))},
	q{CREATE INDEX dr_ext_pid ON dr_ext (locality_uuid_pid(id)) WHERE locality_uuid_node(id) >= 0},
	q{CREATE TABLE dr_part (id uuid NOT NULL DEFAULT locality_uuid()) PARTITION BY RANGE (locality_uuid_timestamp(id))},
	q{CREATE TABLE dr_part_old PARTITION OF dr_part FOR VALUES FROM (MINVALUE) TO ('2000-01-01+00')},
	q{CREATE TABLE dr_part_new PARTITION OF dr_part FOR VALUES FROM ('2000-01-01+00') TO (MAXVALUE)},
	q{CREATE UNIQUE INDEX dr_part_old_id ON dr_part_old (id)},
	q{CREATE UNIQUE INDEX dr_part_new_id ON dr_part_new (id)},
	q{CREATE SEQUENCE dr_blk_seq},
	q{CREATE TABLE dr_blk (id uuid NOT NULL DEFAULT uuid_sequence_nextval('dr_blk_seq', 10, 256),
		CONSTRAINT dr_blk_is_v4 CHECK (locality_uuid_version(id) = '4')) PARTITION BY RANGE (locality_uuid_block(id, 256))},
	q{CREATE TABLE dr_blk_lo PARTITION OF dr_blk FOR VALUES FROM (0) TO (128)},
	q{CREATE TABLE dr_blk_hi PARTITION OF dr_blk FOR VALUES FROM (128) TO (256)},
	q{CREATE UNIQUE INDEX dr_blk_lo_id ON dr_blk_lo (id)},
	q{CREATE UNIQUE INDEX dr_blk_hi_id ON dr_blk_hi (id)},
	q{CREATE INDEX dr_blk_block ON dr_blk (locality_uuid_block(id, 256))},
	q{CREATE TABLE dr_hot (id uuid NOT NULL DEFAULT hot_uuid(floor(random() * 3)::bigint),
		created timestamptz GENERATED ALWAYS AS (hot_uuid_timestamp(id)) STORED) PARTITION BY LIST (hot_uuid_shard_key(id))},
	q{CREATE TABLE dr_hot_0 PARTITION OF dr_hot FOR VALUES IN (0)},
	q{CREATE TABLE dr_hot_rest PARTITION OF dr_hot DEFAULT},
	q{CREATE UNIQUE INDEX dr_hot_0_id ON dr_hot_0 (id)},
	q{CREATE UNIQUE INDEX dr_hot_rest_id ON dr_hot_rest (id)},
	q{CREATE INDEX dr_hot_created ON dr_hot (hot_uuid_timestamp(id))},
);
# Tables filled with DEFAULT VALUES besides the one per generator.
my @extra_tables = qw(dr_ext dr_part dr_blk dr_hot);
# Queries whose answers must be the same before and after restore (planner and routing).
my @same_queries = (
	q{SELECT tableoid::regclass || ' ' || count(*) FROM dr_part GROUP BY tableoid ORDER BY 1},
	q{SELECT tableoid::regclass || ' ' || count(*) || ' ' || min(locality_uuid_block(id, 256)) || '..' || max(locality_uuid_block(id, 256)) FROM dr_blk GROUP BY tableoid ORDER BY 1},
	q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM dr_blk WHERE locality_uuid_block(id, 256) = 150},
	q{SELECT tableoid::regclass || ' ' || count(DISTINCT hot_uuid_shard_key(id)) || ' keys' FROM dr_hot GROUP BY tableoid ORDER BY 1},
	q{SELECT count(*) FROM dr_hot WHERE created = hot_uuid_timestamp(id)},
	q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM dr_hot WHERE hot_uuid_shard_key(id) = 0 AND hot_uuid_timestamp(id) > now() - interval '1 day'},
	q{SELECT count(*) FROM dr_ext WHERE created = locality_uuid_timestamp(id)},
	q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM dr_ext WHERE locality_uuid_timestamp(id) > '2000-01-01+00'},
	q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM dr_ext WHERE locality_uuid_pid(id) = 1 AND locality_uuid_node(id) >= 0},
	q{SELECT indexrelid::regclass || ' ' || indisvalid FROM pg_index WHERE indrelid::regclass::text LIKE 'dr%' ORDER BY 1},
);

my $src = extension_node('dump', extension => 0);
my $dst = extension_node('restore', extension => 0);

my @tables = ((map { "dr_$_->[0]" } @GENERATORS), @extra_tables);

# Insert $rows rows into every table through its DEFAULT.
sub fill
{
	my ($node) = @_;
	$node->safe_psql('rel', join("\n", map { "INSERT INTO $_ SELECT FROM generate_series(1, $rows);" } @tables));
}

# Row count and digest of the ids of every table, and the state of every sequence.
sub snapshot
{
	my ($node) = @_;
	my @lines = map {
		$node->safe_psql('rel',
			"SELECT '$_ ' || count(*) || ' ' || count(DISTINCT id) || ' ' || md5(string_agg(id::text, ',' ORDER BY id)) FROM $_"
		  )
	} @tables;
	push @lines, $node->safe_psql('rel', q{SELECT sequencename || ' ' || last_value FROM pg_sequences ORDER BY 1});
	return join("\n", @lines);
}

# The answers to @same_queries; a query that fails answers QUERY FAILED.
sub answers
{
	my ($node) = @_;
	return join(
		"\n",
		map {
			my ($rc, $out, $err) = $node->psql('rel', $_);
			$rc == 0 ? $out : "QUERY FAILED: $_\n$err"
		} @same_queries);
}

my $setup = join("\n",
	'CREATE SCHEMA ext;',
	'CREATE EXTENSION locality_uuid SCHEMA ext;',
	$GENERATOR_SETUP,
	(map { "CREATE TABLE dr_$_->[0] (id uuid PRIMARY KEY DEFAULT $_->[1]);" } @GENERATORS),
	(map { "$_;" } @extractor_ddl));
$src->safe_psql('postgres', 'CREATE DATABASE rel');
my ($rc, $out, $err) = $src->psql('rel', $setup);
is($rc, 0, 'source: extension in schema ext, DEFAULTs on ' . scalar(@GENERATORS) . ' generators, objects on extractors')
  or diag $err;
# The partitions get ids from both sides of their bound.
$src->safe_psql('rel', q{INSERT INTO dr_part SELECT locality_uuid_make(g, 1, 2, '1999-12-31 23:59:59+00'::timestamptz + g * interval '1 ms')
	FROM generate_series(1, 1999) g});
fill($src);
my $before = snapshot($src);
my $answers_a = answers($src);

# Dump (custom format), restore into a fresh cluster, compare.
my $dump = $src->basedir . '/rel.dump';
my ($dump_out, $dump_err);
my $ok = IPC::Run::run([ 'pg_dump', '-Fc', '-f', $dump, '-d', $src->connstr('rel') ],
	'>', \$dump_out, '2>', \$dump_err);
ok($ok && $dump_err eq '', 'pg_dump -Fc: no error, no warning') or diag $dump_err;
$dst->safe_psql('postgres', 'CREATE DATABASE rel');
my ($restore_out, $restore_err);
$ok = IPC::Run::run([ 'pg_restore', '--exit-on-error', '-d', $dst->connstr('rel'), $dump ],
	'>', \$restore_out, '2>', \$restore_err);
ok($ok && $restore_err eq '', 'pg_restore into a fresh cluster: no error, no warning') or diag $restore_err;

my $after = snapshot($dst);
is($after, $before, 'every table: same rows, same ids (digest), sequence state');
my $answers_b = answers($dst);
unlike($answers_a . $answers_b, qr/QUERY FAILED/, 'planner and routing queries run on both clusters');
is($answers_b, $answers_a, 'partition routing, generated column, expression indexes used and valid');
note "after restore: $_" for grep { /dr_part_|Index/ } split /\n/, $answers_b;
note "before: $_" for split /\n/, $before;

# The copy keeps generating through the restored DEFAULTs: no duplicate, sequence goes on.
my $seq_before = $dst->safe_psql('rel', 'SELECT last_value FROM rel_shared_seq');
($rc, $out, $err) = $dst->psql('rel', join("\n", map { "INSERT INTO $_ SELECT FROM generate_series(1, $rows);" } @tables));
is($rc, 0, "restored DEFAULTs generate: $rows more rows per table") or diag $err;
for my $t (@tables)
{
	my $want = 2 * $rows + ($t eq 'dr_part' ? 1999 : 0);
	is($dst->safe_psql('rel', "SELECT count(*) || ' ' || count(DISTINCT id) FROM $t"),
		"$want $want", "$t after restore: rows exact, no id twice");
}
my $seq_users = grep { $_->[1] =~ /rel_shared_seq/ } @GENERATORS;
is($dst->safe_psql('rel', "SELECT last_value - $seq_before FROM rel_shared_seq"),
	$seq_users * $rows, 'shared sequence continues from its dumped value');
is( $dst->safe_psql('rel',
		q{SELECT last_value || ' ' || count(DISTINCT locality_uuid_block(id, 256)) FROM dr_blk_seq, dr_blk GROUP BY last_value}
	),
	(2 * $rows) . ' 256',
	'block table: the restored sequence carries on into the next blocks');
# And the source, too, goes on without colliding with what it had.
fill($src);
my $first = "dr_$GENERATORS[0][0]";
is($src->safe_psql('rel', "SELECT count(*) || ' ' || count(DISTINCT id) FROM $first"),
	2 * $rows . ' ' . 2 * $rows, 'source after the dump: rows exact, no id twice');

done_testing();
