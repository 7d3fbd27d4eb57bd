# Moving from the portable SQL edition to the C extension: tables whose DEFAULTs call every
# generator of the SQL edition keep their DEFAULTs through
# portable/locality_uuid_portable_to_extension.sql, which then call the extension, in the same
# schema, and produce the same formats; rows made before are read alike by both editions.
# DEFAULTs on core's version 7 names call them unqualified afterwards (the extension's in
# pg_catalog before PostgreSQL 18, core's from 18). Other objects on the SQL functions stop the
# move, which then changes nothing. A function of the owner's own in the schema stays.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = extension_node('portable_migrate', extension => 0);
$node->safe_psql('postgres', q{
CREATE ROLE app_owner LOGIN;
CREATE DATABASE app OWNER app_owner;
});

my ($rc, $out, $err) = psql_as($node, app_owner => app => undef, '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable.sql');
is($rc, 0, 'the database owner installs the SQL edition into ids') or diag($err);

# The edition's functions in ids: 49 of the C extension's names (its helpers are in
# ids_internal), and core's names where the server lacks them (uuidv7, uuidv7(interval),
# uuidv4 before 18; uuid_extract_timestamp, uuid_extract_version before 17);
# from 18 on, a uuidv7() made below stands for the edition's, as a dump from 17 brings it. The
# extension has the version 7 functions from 1.3 on.
my $core_names = $node->pg_version < 18;
my $edition_functions = 49 + ($node->pg_version < 17 ? 5 : $core_names ? 3 : 1);
my $extension_v7 = $node->safe_psql('postgres', q{SELECT string_to_array(default_version, '.')::integer[] >= '{1,3}'
	FROM pg_available_extensions WHERE name = 'locality_uuid'}) eq 't';
my @v7_columns = (
	($extension_v7 ? ([ o => 'ids.uuidv7_ordered()', 'ids.uuidv7_ordered()' ],
		[ a => q{ids.uuidv7_ordered('2022-02-06 00:00:00+00')},
			q{ids.uuidv7_ordered('2022-02-06 00:00:00+00'::timestamp with time zone)} ]) : ()),
	($extension_v7 || !$core_names ? ([ v => 'ids.uuidv7()', 'uuidv7()' ]) : ()),
	($extension_v7 && $core_names ? ([ d => q{ids.uuidv7('-1 day')}, q{uuidv7('-1 days'::interval)} ]) : ()));
if (@v7_columns)
{
	# with the edition's record of it, as the dump brings that too
	psql_as($node, app_owner => app => q{CREATE FUNCTION ids.uuidv7() RETURNS uuid LANGUAGE sql VOLATILE RETURN pg_catalog.uuidv7();
		INSERT INTO ids_internal.locality_uuid_portable_made VALUES ('uuidv7()')})
	  unless $core_names;
	($rc, $out, $err) = psql_as($node, app_owner => app => 'CREATE TABLE t7 (n integer, '
		  . join(', ', map { "$_->[0] uuid DEFAULT $_->[1]" } @v7_columns)
		  . '); INSERT INTO t7 (n) SELECT g FROM generate_series(1, 100) g;');
	is($rc, 0, 'a table with DEFAULTs on version 7 generators: ' . join(', ', map { $_->[1] } @v7_columns))
	  or diag($err);
}

my $fill = q{
INSERT INTO t (n) SELECT g FROM generate_series(1, 200) g;
};
($rc, $out, $err) = psql_as($node, app_owner => app => q{
SET timezone = 'UTC';
CREATE SEQUENCE s;
CREATE TABLE t (
    n integer,
    v uuid DEFAULT ids.locality_uuid(false),
    q uuid DEFAULT ids.locality_uuid(true),
    m uuid DEFAULT ids.locality_uuid(),
    b uuid DEFAULT ids.uuid_sequence_nextval('s', 10, 256),
    tb uuid DEFAULT ids.uuid_time_nextval(),
    ti uuid DEFAULT ids.uuid_time_nextval_interval('250 ms'),
    h uuid DEFAULT ids.hot_uuid(42),
    ha uuid DEFAULT ids.hot_uuid(43, '2022-02-06 00:00:00+00'),
    k uuid DEFAULT ids.hot_uuid_make((44)::bigint, '2022-02-06 00:00:00+00', '\x112233', 1, 2)
);
} . $fill);
is($rc, 0, 'a table with a DEFAULT on every generator') or diag($err);

# What the rows say, read with the functions in ids (first the SQL edition's, then the C ones').
my $read = q{
SET timezone = 'UTC';
SELECT count(*), count(DISTINCT v) + count(DISTINCT q) + count(DISTINCT m) + count(DISTINCT b) + count(DISTINCT tb)
           + count(DISTINCT ti) + count(DISTINCT h) + count(DISTINCT ha),
       bool_and(ids.locality_uuid_version(v) = 'b' AND ids.locality_uuid_version(q) = 'b'
                AND ids.locality_uuid_version(m) = 'b' AND ids.locality_uuid_version(b) = '4'
                AND ids.locality_uuid_version(tb) = '4' AND ids.locality_uuid_version(ti) = '4'),
       bool_and(ids.locality_uuid_timestamp(v) > now() - interval '1 hour'),
       bool_and(ids.locality_uuid_block(b, 256) = (n - 1) / 10 % 256),
       bool_and(ids.hot_uuid_shard_key(h) = 42 AND ids.hot_uuid_shard_key(ha) = 43
                AND ids.hot_uuid_timestamp(ha) = '2022-02-06 00:00:00+00'),
       count(DISTINCT k), min(k::text)
FROM t};
# Per-row fields, to compare the two editions' extractors on the same rows.
my $fields = q{
SET timezone = 'UTC';
SELECT string_agg(concat_ws(',', ids.locality_uuid_counter(v), ids.locality_uuid_counter(q, true),
                            ids.locality_uuid_pid(v), ids.locality_uuid_node(q), ids.locality_uuid_mac(m),
                            ids.locality_uuid_timestamp(v), ids.locality_uuid_block(b, 256),
                            ids.hot_uuid_timestamp(h), ids.hot_uuid_machine(h), ids.hot_uuid_process(h),
                            ids.hot_uuid_counter(ha), ids.hot_uuid_shard_key(k)), ';' ORDER BY n)
FROM t WHERE n <= 200};
my $before = '200|1600|t|t|t|t|1|61ff0f80-2211-0033-0100-00022c000000';
($rc, $out, $err) = psql_as($node, app_owner => app => $read);
is($out, $before, 'the SQL edition fills every column') or diag($err);
my ($r2, $fields_sql) = psql_as($node, app_owner => app => $fields);

# An expression index on an SQL function stops the move, which changes nothing.
psql_as($node, app_owner => app => q{CREATE INDEX t_ts ON t (ids.locality_uuid_timestamp(v))});
($rc, $out, $err) = psql_as($node, app_owner => app => undef, '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable_to_extension.sql');
isnt($rc, 0, 'an index on an SQL function stops the move');
like($err, qr/DETAIL:  Used by: index public\.t_ts\./, 'the error names the index');
($rc, $out, $err) = psql_as($node, app_owner => app => q{SELECT count(*) FROM pg_extension WHERE extname = 'locality_uuid';
	SELECT count(*) FROM pg_proc WHERE pronamespace = 'ids'::regnamespace AND prolang <> 13});
is($out, "0\n$edition_functions", 'after the refusal the SQL edition is still in place');
psql_as($node, app_owner => app => q{DROP INDEX t_ts});

# A function of the owner's own in ids, named like the edition's: the move leaves it.
psql_as($node, app_owner => app => q{CREATE FUNCTION ids.hot_uuidish_report() RETURNS integer LANGUAGE sql RETURN 1});
($rc, $out, $err) = psql_as($node, app_owner => app => undef, '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable_to_extension.sql');
is($rc, 0, 'the move runs') or diag($err);
my $moved = 9 + @v7_columns;
like($out, qr/^$moved$/m, "$moved DEFAULTs moved");
($rc, $out, $err) = psql_as($node, app_owner => app => q{SELECT ids.hot_uuidish_report()});
is($out, '1', 'and leaves the owner\'s own ids.hot_uuidish_report()');
psql_as($node, app_owner => app => q{DROP FUNCTION ids.hot_uuidish_report()});
($rc, $out, $err) = psql_as($node, app_owner => app => q{SELECT to_regclass('ids.locality_uuid_portable_v7_explicit') IS NULL});
is($out, 't', 'the sequence of the version 7 allocation numbers is dropped');
($rc, $out, $err) = psql_as($node, app_owner => app => q{SELECT to_regnamespace('ids_internal') IS NULL});
is($out, 't', 'the schema of the edition\'s helpers is dropped');
($rc, $out, $err) = psql_as($node, app_owner => app => q{
SELECT e.extnamespace::regnamespace, count(*) FILTER (WHERE d.objid IS NOT NULL), count(*)
FROM pg_extension e, pg_proc p
LEFT JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
WHERE e.extname = 'locality_uuid' AND p.pronamespace = 'ids'::regnamespace
GROUP BY 1});
like($out, qr/^ids\|(\d+)\|\1$/, 'the extension is in ids, and every function there is the extension\'s');
($rc, $out, $err) = psql_as($node, app_owner => app => q{SELECT string_agg(pg_get_expr(adbin, adrelid), ' ' ORDER BY adnum) FROM pg_attrdef
	WHERE adrelid = 't'::regclass});
is($out, q{ids.locality_uuid(false) ids.locality_uuid(true) ids.locality_uuid() ids.uuid_sequence_nextval('s'::regclass, 10, 256) ids.uuid_time_nextval() ids.uuid_time_nextval_interval('00:00:00.25'::interval) ids.hot_uuid((42)::bigint) ids.hot_uuid((43)::bigint, '2022-02-06 00:00:00+00'::timestamp with time zone) ids.hot_uuid_make((44)::bigint, '2022-02-06 00:00:00+00'::timestamp with time zone, '\x112233'::bytea, 1, 2)},
	'the DEFAULTs read as before');

if (@v7_columns)
{
	($rc, $out, $err) = psql_as($node, app_owner => app => q{SELECT string_agg(pg_get_expr(adbin, adrelid), ' ' ORDER BY adnum) FROM pg_attrdef
		WHERE adrelid = 't7'::regclass});
	is($out, join(' ', map { $_->[2] } @v7_columns), 'the version 7 DEFAULTs read as before, core\'s names unqualified');
	($rc, $out, $err) = psql_as($node, app_owner => app => 'INSERT INTO t7 (n) SELECT g FROM generate_series(101, 200) g;
		SELECT count(*), ' . join(' + ', map { "count(DISTINCT $_->[0])" } @v7_columns) . ', bool_and('
		  . join(' AND ', map { "substr($_->[0]::text, 15, 1) = '7'" } @v7_columns) . ') FROM t7');
	is($out, '200|' . 200 * @v7_columns . '|t', 'the version 7 DEFAULTs go on') or diag($err);
}

# The C extractors read the old rows as the SQL ones did.
my ($r3, $fields_c) = psql_as($node, app_owner => app => $fields);
is($fields_c, $fields_sql, 'the C extractors read every field of the old rows as the SQL ones');

# The DEFAULTs keep working through the C functions, in the same formats; the sequence goes on.
($rc, $out, $err) = psql_as($node, app_owner => app => q{INSERT INTO t (n) SELECT g FROM generate_series(201, 400) g;} . $read);
is($out, '400|3200|t|t|t|t|1|61ff0f80-2211-0033-0100-00022c000000', 'the DEFAULTs go on in the same formats')
  or diag($err);

$node->stop;
done_testing();
