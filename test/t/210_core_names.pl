# Core's uuid names on 17 and the move to 18: the extension's uuidv7 and uuidv4 on 17 (and
# uuid_extract_*, which core has from 17 on, on 15 and 16) carry core 18's labels; SQL written
# for 18 runs on 17; a dump from 17
# restores on 18 and pg_upgrade moves 17 to 18 (after locality_uuid_release_core_names()), with
# every default, index, check, view and SQL function body on core's functions; ids made on
# either major read the same on the other. Needs 17 (LOCALITY_UUID_OLD_INSTALL) beside 18 or
# later on PATH, both with the extension (test/core_upgrade.sh); skips otherwise.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my ($old_path, $why_not) = old_install();
plan skip_all => $why_not unless $old_path;

my $ids_per_function = 1000;
my $core_names = q{p.proname IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version')};
my $rfc_v7 = '017f22e2-79b0-7cc3-98c4-dc0c0c07398f';    # RFC 9562, appendix A.6

# Who defines a function: the extension it belongs to, core (an oid below
# FirstNormalObjectId), or "loose" (a user's object, as the five are on 17 once released).
my $owner = q{coalesce((SELECT e.extname FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
	WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'),
	CASE WHEN p.oid < 16384 THEN 'core' ELSE 'loose' END)};

# The five names: schema, signature and who defines them.
my $names_sql = qq{SELECT line FROM (SELECT p.pronamespace::regnamespace || '.' || p.proname || '('
	|| pg_get_function_identity_arguments(p.oid) || ') ' || $owner AS line
	FROM pg_proc p WHERE $core_names) s ORDER BY line COLLATE "C"};

# Everything a caller sees of the five that where selects: labels, result, arguments, cost and
# comment.
sub labels_sql
{
	my ($where) = @_;
	return qq{SELECT line FROM (SELECT format('%s.%s(%s) volatile=%s parallel=%s strict=%s leakproof=%s set=%s'
		' returns %s names=%s types=%s defaults=%s cost=%s rows=%s -- %s',
		p.pronamespace::regnamespace, p.proname, pg_get_function_arguments(p.oid), p.provolatile, p.proparallel,
		p.proisstrict, p.proleakproof, p.proretset, p.prorettype::regtype, p.proargnames,
		p.proargtypes::oid[]::regtype[], p.pronargdefaults, p.procost, p.prorows, obj_description(p.oid, 'pg_proc')) AS line
	FROM pg_proc p WHERE $core_names AND $where) s ORDER BY line COLLATE "C"};
}

# The major from which core has each of the five.
my %core_since = (
	'uuid_extract_timestamp(uuid)' => 17,
	'uuid_extract_version(uuid)' => 17,
	'uuidv4()' => 18,
	'uuidv7()' => 18,
	'uuidv7(shift interval)' => 18);

# The schema moved: defaults on both generators, the interval form and the qualified name, an
# expression index, a partial index, a CHECK, a view and a SQL-standard function body (bound at
# creation, as a default is).
my $schema = q{
CREATE EXTENSION locality_uuid;
CREATE TABLE ev (
	id uuid PRIMARY KEY DEFAULT uuidv7(),
	q uuid NOT NULL DEFAULT pg_catalog.uuidv7(),
	shifted uuid NOT NULL DEFAULT uuidv7('-1 hour'::interval),
	r uuid NOT NULL DEFAULT uuidv4() CHECK (uuid_extract_version(r) = 4),
	o uuid NOT NULL DEFAULT uuidv7_ordered(),
	n int);
CREATE INDEX ev_created ON ev (uuid_extract_timestamp(id));
CREATE INDEX ev_v7 ON ev (q) WHERE uuid_extract_version(q) = 7;
CREATE VIEW ev_times AS SELECT id, uuid_extract_timestamp(id) AS created FROM ev;
CREATE FUNCTION ev_new_id() RETURNS uuid LANGUAGE sql BEGIN ATOMIC SELECT uuidv7(); END;
INSERT INTO ev (n) SELECT g FROM generate_series(1, 1000) g;
};

# The functions each object of $schema calls, read from its stored expression tree, with who
# defines them: "OWNER" stands for the five's owner in the expected list.
my $bindings_sql = qq{SELECT line FROM (SELECT DISTINCT o.what || ' ' || p.proname || '('
	|| pg_get_function_identity_arguments(p.oid) || ') ' || $owner AS line
	FROM (SELECT 'default ' || a.attname, ad.adbin::text FROM pg_attrdef ad
		JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum WHERE ad.adrelid = 'ev'::regclass
	UNION ALL SELECT 'index ' || indexrelid::regclass, coalesce(indexprs::text, '') || coalesce(indpred::text, '')
		FROM pg_index WHERE indrelid = 'ev'::regclass
	UNION ALL SELECT 'check ' || conname, conbin::text FROM pg_constraint WHERE conrelid = 'ev'::regclass AND contype = 'c'
	UNION ALL SELECT 'view ev_times', ev_action::text FROM pg_rewrite WHERE ev_class = 'ev_times'::regclass
	UNION ALL SELECT 'function ev_new_id', prosqlbody::text FROM pg_proc WHERE proname = 'ev_new_id') o(what, tree),
	regexp_matches(o.tree, ':funcid (\\d+)', 'g') m JOIN pg_proc p ON p.oid = m[1]::oid) b
	ORDER BY line COLLATE "C"};
my @bindings = (
	'check ev_r_check uuid_extract_version(uuid) OWNER',
	'default id uuidv7() OWNER',
	'default o uuidv7_ordered() locality_uuid',
	'default q uuidv7() OWNER',
	'default r uuidv4() OWNER',
	'default shifted uuidv7(shift interval) OWNER',
	'function ev_new_id uuidv7() OWNER',
	'index ev_created uuid_extract_timestamp(uuid) OWNER',
	'index ev_v7 uuid_extract_version(uuid) OWNER',
	'view ev_times uuid_extract_timestamp(uuid) OWNER');

# SQL written for 18, with its answer: named and qualified calls, RFC 9562's examples of
# versions 7 and 1 (appendix A), a uuid of another variant and one of no version.
my $sql18 = qq{SET timezone = 'UTC';
SELECT uuid_extract_version(uuidv7()), uuid_extract_version(pg_catalog.uuidv7()),
	uuid_extract_version(uuidv7(shift => '-1 day')), uuid_extract_version(pg_catalog.uuidv7('1 day'::interval)),
	uuid_extract_version(uuidv4()), uuid_extract_version(pg_catalog.uuidv4()),
	pg_catalog.uuid_extract_timestamp(uuidv7('-1 day')) BETWEEN now() - interval '1 day 1 minute' AND now() - interval '23 hours 59 minutes',
	uuid_extract_timestamp(uuidv7()) BETWEEN now() - interval '1 minute' AND clock_timestamp(),
	uuid_extract_timestamp('$rfc_v7'), pg_catalog.uuid_extract_version('$rfc_v7'),
	uuid_extract_timestamp('c232ab00-9414-11ec-b3c8-9f6bdeced846'), uuid_extract_version('c232ab00-9414-11ec-b3c8-9f6bdeced846'),
	uuid_extract_timestamp(uuidv4()) IS NULL, uuid_extract_version('017f22e2-79b0-7cc3-18c4-dc0c0c07398f') IS NULL,
	uuid_extract_timestamp('017f22e2-79b0-7cc3-18c4-dc0c0c07398f') IS NULL, uuid_extract_version(ev_new_id());};
my $sql18_answer = '7|7|7|7|4|4|t|t|2022-02-22 19:22:22+00|7|2022-02-22 19:22:22+00|1|t|t|t|7';

# The time of a version 7 id, read from its first 48 bits without any extractor (those are
# tested on their own below: core 17's reads version 1 only).
sub v7_time
{
	my ($col) = @_;
	return qq{to_timestamp(('x' || lpad(substr(replace(${col}::text, '-', ''), 1, 12), 16, '0'))::bit(64)::bigint / 1000.0)};
}

# Insert 100 rows through the defaults: all 100 must have ids of the right versions and times
# (uuidv7_ordered() may run up to 1 s ahead of the clock: its lease) and, with
# after => {id => .., o => ..}, above those ids. Returns the count that did.
sub default_rows
{
	my ($node, %after) = @_;
	my $above = join '', map { " AND $_ > '$after{$_}'" } sort keys %after;
	my ($id, $shifted, $o) = map { v7_time($_) } qw(id shifted o);
	return $node->safe_psql('app', qq{WITH ins AS (INSERT INTO ev (n) SELECT g FROM generate_series(1, 100) g RETURNING *)
		SELECT count(*) FILTER (WHERE uuid_extract_version(id) = 7 AND uuid_extract_version(q) = 7
			AND uuid_extract_version(shifted) = 7 AND uuid_extract_version(r) = 4 AND uuid_extract_version(o) = 7
			AND $id BETWEEN now() - interval '1 minute' AND clock_timestamp()
			AND $shifted BETWEEN now() - interval '61 minutes' AND now() - interval '59 minutes'
			AND $o BETWEEN now() - interval '1 minute' AND clock_timestamp() + interval '1 s'$above)
		FROM ins});
}

# The defaults that call a uuidv7 or uuidv4 other than core's (docs/uuidv7-move.md): core's
# are pinned, and a call of one records no dependency.
my $not_core_defaults_sql = q{SELECT ad.adrelid::regclass || '.' || a.attname || ' ' || d.refobjid::regprocedure
	FROM pg_attrdef ad
	JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
	JOIN pg_depend d ON d.classid = 'pg_attrdef'::regclass AND d.objid = ad.oid AND d.refclassid = 'pg_proc'::regclass
	JOIN pg_proc p ON p.oid = d.refobjid
	WHERE p.proname IN ('uuidv7', 'uuidv4') ORDER BY 1};
my $not_core_defaults = join "\n", 'ev.id uuidv7()', 'ev.q uuidv7()', 'ev.r uuidv4()', 'ev.shifted uuidv7(interval)';

# The five the extension still owns in this database (docs/uuidv7-move.md: none before pg_upgrade).
my $owned_sql = q{SELECT p.oid::regprocedure
	FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
	WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'locality_uuid')
	  AND p.pronamespace = 'pg_catalog'::regnamespace ORDER BY 1};

# Who defines a function of the five on a major: core from the major it came in, else who.
sub owner_on
{
	my ($signature, $major, $who) = @_;
	return $major >= $core_since{$signature} ? 'core' : $who;
}

# The bindings on major, with OWNER replaced by who defines the five there.
sub bindings_of
{
	my ($major, $who) = @_;
	return join "\n", map { /^(.* (\S+\(.*\))) OWNER$/ ? "$1 " . owner_on($2, $major, $who) : $_ } @bindings;
}

# The five names on major with who defines them.
sub names_of
{
	my ($major, $who) = @_;
	return join "\n", map { "pg_catalog.$_ " . owner_on($_, $major, $who) } sort keys %core_since;
}

# For each uuid of ids: "id version timestamp" as read by this node (UTC, "-" for NULL).
sub readings
{
	my ($node, $ids) = @_;
	my $array = '{' . join(',', @$ids) . '}';
	return $node->safe_psql('postgres', qq{SET timezone = 'UTC';
		SELECT u || ' ' || coalesce(uuid_extract_version(u)::text, '-') || ' ' || coalesce(} . v7_time_sql($node, 'u') . qq{::text, '-')
		FROM unnest('$array'::uuid[]) WITH ORDINALITY AS x(u, i) ORDER BY i});
}

# Make count ids with expr (over g = 1..count) on node; returns them.
sub make_ids
{
	my ($node, $expr, $count) = @_;
	return [ split /\n/, $node->safe_psql('postgres', "SELECT $expr FROM generate_series(1, $count) g") ];
}

# A stopped cluster of the new major for pg_upgrade_into.
sub upgrade_target
{
	my ($name) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(no_data_checksums => 1);
	return $node;
}

# Version skew of the distributions' minor releases: 17.12 keeps an attribute option
# pg_attver on every column and its pg_dump leaves it out, but 18.6 knows no such option and its
# pg_dump prints it, so a dump or pg_upgrade from 17.12 to 18.6 fails on any table, with or
# without this extension. Where the new server refuses the option, take it off the old
# cluster's user columns (a catalog edit only this throw-away cluster sees); returns how many.
sub strip_unknown_attver
{
	my ($old, $new, $db) = @_;
	my (undef, $err) = psql_states($new, 'postgres',
		'CREATE TEMP TABLE attver_probe (a int); ALTER TABLE attver_probe ALTER COLUMN a SET (pg_attver = 1)');
	return 0 if $err eq '';
	return $old->safe_psql($db, q{SET allow_system_table_mods = on;
		WITH s AS (UPDATE pg_attribute SET attoptions = (SELECT array_agg(o) FROM unnest(attoptions) o WHERE o NOT LIKE 'pg_attver=%')
			WHERE attrelid >= 16384 AND attoptions::text LIKE '%pg_attver=%' RETURNING 1)
		SELECT count(*) FROM s});
}

my $old = PostgreSQL::Test::Cluster->new('old', install_path => $old_path);
$old->init;
$old->start;
my $new = extension_node('new');
note 'old: PostgreSQL ' . $old->pg_version . " from $old_path; new: PostgreSQL " . $new->pg_version;

# --- a. On the old major: core's names, labels, SQL written for 18 ---

$old->safe_psql('postgres', 'CREATE DATABASE app');
$old->safe_psql('app', $schema);
my $stripped = strip_unknown_attver($old, $new, 'app');
note "pg_attver taken off $stripped columns of the old cluster: PostgreSQL " . $new->pg_version . ' refuses it' if $stripped;
$old->safe_psql('postgres', 'CREATE EXTENSION locality_uuid');
my $om = $old->pg_version->major;
my $old_reads_v7 = $old->safe_psql('app', "SELECT uuid_extract_timestamp('$rfc_v7') IS NOT NULL") eq 't';
note "$om: uuid_extract_timestamp reads version 7: " . ($old_reads_v7 ? 'yes' : 'no');
my $members = grep { $core_since{$_} > $om } keys %core_since;
is($old->safe_psql('app', $names_sql), names_of($om, 'locality_uuid'),
	"$om: the five names are in pg_catalog, $members of them members of the extension, the rest core's");
is($new->safe_psql('postgres', $names_sql), names_of(18, 'core'), '18: the five names are core\'s');
my $member_list = $old->safe_psql('app', qq{SELECT string_agg(quote_literal(p.oid::regprocedure::text), ', ')
	FROM pg_proc p WHERE $core_names AND $owner = 'locality_uuid'});
my $labels18 = $new->safe_psql('postgres', labels_sql("p.oid::regprocedure::text IN ($member_list)"));
is($old->safe_psql('app', labels_sql("$owner = 'locality_uuid'")), $labels18,
	"$om: labels, arguments and comments of the extension's equal to core 18's");
is(scalar(() = $labels18 =~ /^pg_catalog\./mg), $members, "18: $members functions compared");
is($old->safe_psql('app', $bindings_sql), bindings_of($om, 'locality_uuid'), "$om: the objects call the extension's functions where core has none");
is($old->safe_psql('app', $not_core_defaults_sql), $not_core_defaults, "$om: the defaults on generators call the extension's");
# On 17, core's uuid_extract_timestamp gives NULL for the three version 7 ids of that SQL.
(my $sql18_answer_17 = $sql18_answer) =~ s/^((?:[^|]*\|){6})t\|t\|2022-02-22 19:22:22\+00\|/$1|||/;
my $old_answer = $old_reads_v7 ? $sql18_answer : $sql18_answer_17;
is($old->safe_psql('app', $sql18), $old_answer,
	"$om: SQL written for 18 runs" . ($old_reads_v7 ? ', same answer' : ', NULL for version 7 times (core 17\'s reader)'));
$new->safe_psql('postgres', 'CREATE FUNCTION ev_new_id() RETURNS uuid LANGUAGE sql BEGIN ATOMIC SELECT uuidv7(); END');
is($new->safe_psql('postgres', $sql18), $sql18_answer, '18: the same SQL, the same answer');
is(default_rows($old), 100, "$om: the defaults make ids of the right versions");
is($old->safe_psql('app', q{SET enable_seqscan = off; SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) > now() - interval '1 hour'}),
	$old_reads_v7 ? 1100 : 0, "$om: the expression index finds " . ($old_reads_v7 ? 'every row' : 'no row (core 17 reads no version 7)'));

# --- d. Ids read across the two majors ---

# Ids of no particular version or variant, the same on both: md5 digests, nil, max, the RFC's examples.
my @any_ids = (
	@{ make_ids($new, 'md5(g::text)::uuid', $ids_per_function) },
	'00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
	$rfc_v7, 'c232ab00-9414-11ec-b3c8-9f6bdeced846', '1ec9414c-232a-6b00-b3c8-9f6bdeced846');
my %made_on = (
	old => [
		[ 'uuidv7()' => 'uuidv7()' ],
		[ 'uuidv7(interval)' => q{uuidv7(make_interval(days => g * 7 - 3500, secs => g * 0.001))} ],
		[ 'uuidv7_ordered()' => 'uuidv7_ordered()' ],
		[ 'uuidv7_ordered(at)' => q{uuidv7_ordered(timestamptz '2020-01-01 00:00:00+00' + g * interval '1 hour 0.0137 s')} ],
		[ 'uuidv7_lower(at)' => q{uuidv7_lower(timestamptz '1971-01-01 00:00:00+00' + g * interval '97 days 0.001 s')} ],
		[ 'uuidv7_upper(at)' => q{uuidv7_upper(timestamptz '1971-01-01 00:00:00+00' + g * interval '97 days 0.001 s')} ],
		[ 'uuidv4()' => 'uuidv4()' ],
	],
	new => [
		[ 'uuidv7()' => 'uuidv7()' ],
		[ 'uuidv7(interval)' => q{uuidv7(make_interval(days => g * 7 - 3500, secs => g * 0.001))} ],
		[ 'uuidv4()' => 'uuidv4()' ],
	]);
for my $side ('old', 'new')
{
	my ($maker, $reader) = $side eq 'old' ? ($old, $new) : ($new, $old);
	my ($made, $read) = map { $_->pg_version->major } ($maker, $reader);
	for my $f (@{ $made_on{$side} })
	{
		my ($name, $expr) = @$f;
		my $ids = make_ids($maker, $expr, $ids_per_function);
		my $here = readings($maker, $ids);
		my ($want, $pattern) = $name =~ /v4/ ? ('version 4, no timestamp', qr/ 4 -$/m) : ('version 7 with a timestamp', qr/ 7 \d/);
		is(scalar(() = $here =~ /$pattern/g), $ids_per_function, "$made: $ids_per_function ids of $name read as $want");
		same_lines(readings($reader, $ids), $here, "$name made on $made, read on $read");
	}
}
same_lines(readings($old, \@any_ids), readings($new, \@any_ids), "md5 digests, nil, max and RFC examples read the same on $om and 18");
for my $node ($old, $new)
{
	is(readings($node, [$rfc_v7]), "$rfc_v7 7 2022-02-22 19:22:22+00",
		$node->pg_version->major . ': RFC 9562 A.6 decodes to version 7 at 2022-02-22 19:22:22 UTC');
}

# --- b. Dump with 18's pg_dump from 17, restore on 18 ---

my $dump = $new->basedir . '/app.sql';
command_ok([ $new->installed_command('pg_dump'), '-d', $old->connstr('app'), '-f', $dump ], "18's pg_dump of the $om database");
my $dump_text = slurp_file($dump);
like($dump_text, qr/DEFAULT uuidv7\(\)/, 'the dump calls uuidv7() unqualified');
unlike($dump_text, qr/\bpublic\.(uuidv7|uuidv4|uuid_extract_timestamp|uuid_extract_version)\(/, 'the dump calls none of the five in schema public');
$new->safe_psql('postgres', 'CREATE DATABASE app');
my ($restore_out, $restore_err) = ('', '');
my $rc = $new->psql('app', undef, extra_params => [ '-f', $dump ], on_error_stop => 1,
	stdout => \$restore_out, stderr => \$restore_err);
is($rc, 0, 'restore on 18: psql exits 0');
is($restore_err, '', 'restore on 18: no error, no warning');
is($new->safe_psql('app', $names_sql), names_of(18, 'core'), 'restored on 18: the extension defines none of the five');
is($new->safe_psql('app', $bindings_sql), bindings_of(18, 'core'), 'restored on 18: every object calls core\'s functions');
is($new->safe_psql('app', $not_core_defaults_sql), '', 'restored on 18: no default calls a uuidv7 or uuidv4 but core\'s');
is($new->safe_psql('app', 'SELECT count(*) FROM ev'), 1100, 'restored on 18: every row');
is(default_rows($new), 100, 'restored on 18: the defaults make ids of the right versions');
is($new->safe_psql('app', q{SET enable_seqscan = off; SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) > now() - interval '1 hour'}),
	1200, 'restored on 18: the expression index finds every row');

# --- c. pg_upgrade from 17 to 18 ---

my %before = map { $_ => $old->safe_psql('app', "SELECT $_ FROM ev ORDER BY $_ DESC LIMIT 1") } qw(id o);
$old->stop;
my $failed = upgrade_target('failed18');
my ($ok, $output, $logs) = pg_upgrade_into($old, $failed, '--check');
ok($ok, 'pg_upgrade --check without the release: passes (it does not restore the schema)') or diag $output;
($ok, $output, $logs) = pg_upgrade_into($old, $failed);
ok(!$ok, 'pg_upgrade without locality_uuid_release_core_names(): fails') or diag $output;
like($logs, qr/ERROR:\s+function "?(uuidv7|uuidv4|uuid_extract_timestamp|uuid_extract_version)"? already exists/,
	'pg_upgrade without the release: its log names a function of core\'s that already exists')
  or diag $output;

$old->start;
# In every database with the extension: pg_upgrade restores each.
for my $db ('app', 'postgres')
{
	is(scalar(split /\n/, $old->safe_psql($db, $owned_sql)), $members, "$om: database $db: the extension owns $members of the five");
	is($old->safe_psql($db, 'SELECT locality_uuid_release_core_names()'), $members,
		"$om: locality_uuid_release_core_names() in database $db detaches $members functions");
	is($old->safe_psql($db, $owned_sql), '', "$om: database $db: the extension owns none of the five");
	is($old->safe_psql($db, 'SELECT locality_uuid_release_core_names()'), 0, "$om: database $db: a second release detaches none");
}
is($old->safe_psql('app', $not_core_defaults_sql), $not_core_defaults, "$om released: the defaults call the released functions");
is($old->safe_psql('app', $names_sql), names_of($om, 'loose'), "$om released: the five stay in pg_catalog, no member of the extension");
is($old->safe_psql('app', $bindings_sql), bindings_of($om, 'loose'), "$om released: the objects still call them");
is(default_rows($old, %before), 100, "$om released: the defaults still work");
is($old->safe_psql('app', $sql18), $old_answer, "$om released: SQL written for 18 still runs");
%before = map { $_ => $old->safe_psql('app', "SELECT $_ FROM ev ORDER BY $_ DESC LIMIT 1") } qw(id o);
$old->stop;

my $upgraded = upgrade_target('upgraded18');
($ok, $output) = pg_upgrade_into($old, $upgraded);
ok($ok, 'pg_upgrade after the release: succeeds') or diag $output;
$upgraded->start;
is($upgraded->safe_psql('app', $names_sql), names_of(18, 'core'), 'upgraded: the five are core\'s, the extension defines none');
is($upgraded->safe_psql('app', $bindings_sql), bindings_of(18, 'core'), 'upgraded: every object calls core\'s functions');
is($upgraded->safe_psql('app', $not_core_defaults_sql), '', 'upgraded: no default calls a uuidv7 or uuidv4 but core\'s');
is($upgraded->safe_psql('app', 'SELECT count(*) FROM ev'), 1200, 'upgraded: every row');
is(default_rows($upgraded, %before), 100, 'upgraded: the defaults work; their ids sort after every id made before');
is($upgraded->safe_psql('app', $sql18), $sql18_answer, 'upgraded: SQL written for 18 runs');
# What the old major stored of uuid_extract_timestamp(id) stays in the index: core 17's reads
# version 1 only (NULL for version 7), so there the index misses the rows made before the
# upgrade until REINDEX (docs/uuidv7-move.md).
my $index_count = q{SET enable_seqscan = off; SELECT count(*) FROM ev WHERE uuid_extract_timestamp(id) > now() - interval '1 hour'};
if ($old_reads_v7)
{
	is($upgraded->safe_psql('app', $index_count), 1300, 'upgraded: the expression index finds every row');
}
else
{
	is($upgraded->safe_psql('app', $index_count), 100,
		"upgraded from $om, whose uuid_extract_timestamp reads no version 7: the index finds only the rows made after");
	$upgraded->safe_psql('app', 'REINDEX INDEX CONCURRENTLY ev_created');
	is($upgraded->safe_psql('app', $index_count), 1300, 'upgraded, after REINDEX: the expression index finds every row');
}
$upgraded->stop;
$new->stop;

done_testing();
