# Installation of the portable SQL edition by an ordinary role: not a superuser, not the
# database's owner, with nothing but USAGE and CREATE on one schema. It installs with psql -f,
# every function works for it and for other roles, and nextval keeps the caller's privileges.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = extension_node('portable_install', extension => 0);
$node->safe_psql('postgres', q{
CREATE ROLE app_owner;
CREATE ROLE installer LOGIN;
CREATE ROLE reader LOGIN;
CREATE DATABASE app OWNER app_owner;
});
$node->safe_psql('app', q{
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
CREATE SCHEMA ids;
GRANT USAGE, CREATE ON SCHEMA ids TO installer;
GRANT USAGE ON SCHEMA ids TO reader;
});

my ($rc, $out, $err) = psql_as($node, installer => app =>
	q{SELECT rolsuper, (SELECT datdba = r.oid FROM pg_database WHERE datname = current_database())
	  FROM pg_roles r WHERE rolname = current_user});
is($out, 'f|f', 'installer is neither superuser nor database owner');
($rc, $out, $err) = psql_as($node, installer => app =>
	q{SELECT has_database_privilege('app', 'CREATE'), has_schema_privilege('public', 'CREATE')});
is($out, 'f|f', 'installer may not create schemas, nor objects in public');

# A schema it may not create is refused with the server's error.
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=other', '-f', 'portable/locality_uuid_portable.sql');
isnt($rc, 0, 'installing into a new schema needs CREATE on the database');
like($err, qr/permission denied for database app/, 'the refusal says why');

# The helpers' schema ids_internal: the installer may not create it, and one that is not the
# installer's alone is refused (42501) before anything is made.
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable.sql');
isnt($rc, 0, 'without CREATE on the database, the helpers\' schema cannot be made');
like($err, qr/permission denied for database app/, 'that refusal says why');
$node->safe_psql('app', 'CREATE SCHEMA ids_internal');
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable.sql');
like($err, qr/ERROR:  schema ids_internal is not the portable edition's own\nDETAIL:  .*it is owned by (?!installer)\w+\./,
	'an ids_internal of another owner is refused');
$node->safe_psql('app', 'ALTER SCHEMA ids_internal OWNER TO installer; GRANT CREATE ON SCHEMA ids_internal TO reader');
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'VERBOSITY=verbose', '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable.sql');
like($err, qr/ERROR:  42501: schema ids_internal is not the portable edition's own\nDETAIL:  .*owned by installer, and reader may create in it\./,
	'an ids_internal where another role may create is refused, 42501, naming the role');
is($node->safe_psql('app', q{SELECT count(*) FROM pg_proc WHERE pronamespace IN ('ids'::regnamespace, 'ids_internal'::regnamespace)}),
	'0', 'a refused install makes no function');
$node->safe_psql('app', 'REVOKE CREATE ON SCHEMA ids_internal FROM reader');

($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable.sql');
is($rc, 0, 'installs with psql -v schema=ids -f, ids_internal given to the installer by a DBA') or diag($err);
is($err, '', 'installs without warnings');
($rc, $out, $err) = psql_as($node, installer => app =>
	q{SELECT count(*), count(*) FILTER (WHERE p.proowner = 'installer'::regrole) FROM pg_proc p
	  WHERE pronamespace = 'ids'::regnamespace});
# 49 of the C extension's names, and core's names where the server lacks them: uuidv7,
# uuidv7(interval), uuidv4 before PostgreSQL 18, uuid_extract_timestamp and
# uuid_extract_version before 17.
my $functions = 49 + ($node->pg_version < 17 ? 5 : $node->pg_version < 18 ? 3 : 0);
is($out, "$functions|$functions", 'the functions are in ids, owned by the installer');
# 42 helpers locality_uuid_portable_*, and the helper of uuidv7 before 18, in ids_internal.
($rc, $out, $err) = psql_as($node, installer => app =>
	q{SELECT count(*), count(*) FILTER (WHERE p.proowner = 'installer'::regrole AND p.proname LIKE 'locality\_uuid\_portable\_%')
	  FROM pg_proc p WHERE pronamespace = 'ids_internal'::regnamespace});
my $helpers = 42 + ($node->pg_version < 18 ? 1 : 0);
is($out, "$helpers|$helpers", 'the helpers are in ids_internal, owned by the installer');

# Every function, called by the installer and by another role, schema-qualified and off the
# search_path: the generators' state is made in each session by the installer's function.
my $use = q{
SET timezone = 'UTC';
SELECT ids.locality_uuid_version(ids.locality_uuid()), ids.locality_uuid_version(ids.locality_uuid(true)),
       ids.hot_uuid_shard_key(ids.hot_uuid(7)), ids.hot_uuid_shard_key(ids.hot_uuid(8, now())),
       ids.hot_uuid_counter(ids.hot_uuid(9, '2020-01-01 00:00:00+00')) >= 8388608,
       ids.locality_uuid_version(ids.uuid_time_nextval()),
       ids.locality_uuid_make(3488672514, 12618, 223574608, '2012-10-15 18:58:18.450+00'),
       ids.hot_uuid_make(208, '2022-02-06 00:00:00+00', '\x112233', 17493, 658188),
       (ids.locality_uuid_block_layout()).prefix_bits,
       ids.locality_uuid_counter('20be0ffc-314a-bd53-7a50-013a65ca76d2'),
       substr(ids.uuidv7_ordered()::text, 15, 1), substr(ids.uuidv7_ordered(now())::text, 20, 1) IN ('a', 'b'),
       ids.uuidv7_lower('2022-02-22 19:22:22+00'), ids.uuidv7_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'),
       ids.uuidv7_time_decoder('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'),
       ids.hot_uuid_time_decoder('61ff0f80-2211-4433-550a-0b0cd0000000')}
  . ($node->pg_version < 18 ? q{,
       substr(ids.uuidv7()::text, 15, 1), substr(ids.uuidv7('-1 day')::text, 15, 1), substr(ids.uuidv4()::text, 15, 1)} : '')
  . ($node->pg_version < 17 ? q{,
       ids.uuid_extract_version(ids.uuidv7()), ids.uuid_extract_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F')} : '')
  . ';';
my $expect = 'b|b|7|8|t|4|20be0ffc-314a-bd53-7a50-013a65ca76d2|61ff0f80-2211-4433-550a-0b0cd0000000|16|3488672514'
  . '|7|t|017f22e2-79b0-7000-8000-000000000000|2022-02-22 19:22:22+00|2022-02-22 19:22:22+00|2022-02-06 00:00:00+00'
  . ($node->pg_version < 18 ? '|7|7|4' : '') . ($node->pg_version < 17 ? '|7|2022-02-22 19:22:22+00' : '');
for my $role (qw(installer reader))
{
	($rc, $out, $err) = psql_as($node, $role => app => $use);
	is($out, $expect, "$role generates, composes and extracts") or diag($err);
}

# The explicit-time allocations come from the installer's sequence, which only the installer
# may change: another role takes numbers through the generator and nothing else.
($rc, $out, $err) = psql_as($node, installer => app =>
	q{SELECT relowner = 'installer'::regrole, has_sequence_privilege('reader', oid, 'SELECT, USAGE, UPDATE')
	  FROM pg_class WHERE oid = 'ids.locality_uuid_portable_explicit'::regclass});
is($out, 't|f', 'the allocation sequence is the installer\'s, with no privilege for others');
($rc, $out, $err) = psql_as($node, reader => app => q{SELECT setval('ids.locality_uuid_portable_explicit', 1)});
like($err, qr/permission denied for sequence locality_uuid_portable_explicit/, 'another role cannot setval it');
($rc, $out, $err) = psql_as($node, installer => app =>
	q{SELECT relowner = 'installer'::regrole, has_sequence_privilege('reader', oid, 'SELECT, USAGE, UPDATE')
	  FROM pg_class WHERE oid = 'ids.locality_uuid_portable_v7_explicit'::regclass});
is($out, 't|f', 'so is the version 7 allocation sequence');
($rc, $out, $err) = psql_as($node, reader => app => q{SELECT setval('ids.locality_uuid_portable_v7_explicit', 1)});
like($err, qr/permission denied for sequence locality_uuid_portable_v7_explicit/, 'another role cannot setval it either');

# The block generator's nextval runs with the caller's privileges.
psql_as($node, installer => app => q{CREATE SEQUENCE ids.seq; CREATE TABLE ids.t (id uuid DEFAULT ids.uuid_sequence_nextval('ids.seq'))});
($rc, $out, $err) = psql_as($node, reader => app => q{SELECT ids.uuid_sequence_nextval('ids.seq')});
like($err, qr/permission denied for sequence seq/, 'nextval checks the caller, not the installer');
psql_as($node, installer => app => q{GRANT USAGE ON SEQUENCE ids.seq TO reader});
($rc, $out, $err) = psql_as($node, reader => app => q{SELECT ids.locality_uuid_block(ids.uuid_sequence_nextval('ids.seq'))});
is($out, '0', 'with USAGE granted the caller gets its id');
($rc, $out, $err) = psql_as($node, installer => app =>
	q{INSERT INTO ids.t SELECT FROM generate_series(1, 100); SELECT count(DISTINCT id), max(ids.locality_uuid_block(id)) FROM ids.t});
is($out, '100|0', 'a column DEFAULT calls the generator');

# Two sessions of one role: distinct process fields (pid mod 65536), distinct ids.
($rc, $out, $err) = psql_as($node, reader => app => q{CREATE TEMP TABLE x AS SELECT ids.locality_uuid(true) AS u FROM generate_series(1, 1000);
	SELECT count(DISTINCT u), bool_and(ids.locality_uuid_pid(u) = pg_backend_pid() % 65536) FROM x});
is($out, '1000|t', 'a session makes distinct ids carrying its pid');

# Below 18 the install makes core's names (uuidv7, uuidv4; below 17 uuid_extract_*). A function
# of such a name in another schema, which other roles' code may call by name, stops the install
# (42723) with nothing changed, naming it; from 18 on the edition makes none, and installs.
$node->safe_psql('app', q{CREATE SCHEMA polyfill;
CREATE FUNCTION polyfill.uuidv7(at timestamptz DEFAULT clock_timestamp()) RETURNS uuid
LANGUAGE sql RETURN gen_random_uuid();
CREATE FUNCTION polyfill.uuid_extract_version(uuid) RETURNS smallint LANGUAGE sql RETURN 4;});
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable.sql');
if ($node->pg_version < 18)
{
	isnt($rc, 0, 'a uuidv7 of another schema stops the install');
	like($err, qr/ERROR:  functions of the names the portable edition would create exist in this database/,
		'the refusal says why');
	my $named = $node->pg_version < 17
	  ? qr/these exist: polyfill\.uuid_extract_version\(uuid\) owned by \S+, polyfill\.uuidv7\(timestamp with time zone\) owned by/
	  : qr/these exist: polyfill\.uuidv7\(timestamp with time zone\) owned by/;
	like($err, $named, 'and names the functions (uuid_extract_version only below 17)');
}
else
{
	is($rc, 0, 'from 18 on, the edition makes no core name and installs') or diag($err);
	pass('nothing refused');
	pass('nothing to name');
}
($rc, $out, $err) = psql_as($node, installer => app => q{SELECT ids.hot_uuid_shard_key(ids.hot_uuid(5))});
is($out, '5', 'the edition works as before');
$node->safe_psql('app', 'DROP SCHEMA polyfill CASCADE');
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable.sql');
is($rc, 0, 'without them it installs again') or diag($err);

# A schema name that needs quoting: the install finds its own schema by that exact name, in one
# transaction (a failed install leaves no schema behind).
$node->safe_psql('postgres', 'GRANT CREATE ON DATABASE app TO installer');
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=My Ids', '-f', 'portable/locality_uuid_portable.sql');
is($rc, 0, 'installs into "My Ids"') or diag($err);
($rc, $out, $err) = psql_as($node, installer => app => q{SELECT "My Ids".hot_uuid_shard_key("My Ids".hot_uuid(6)),
	(SELECT count(*) FROM pg_proc WHERE pronamespace = '"My Ids_internal"'::regnamespace) > 0});
is($out, '6|t', 'the edition in "My Ids" works, its helpers in "My Ids_internal"');
$node->safe_psql('app', 'CREATE SCHEMA "Taken_internal"');
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=Taken', '-f', 'portable/locality_uuid_portable.sql');
isnt($rc, 0, 'an install stopped by a helpers\' schema of another owner fails');
is($node->safe_psql('app', q{SELECT count(*) FROM pg_namespace WHERE nspname = 'Taken'}), '0',
	'and leaves no install schema behind');

# Objects of another role named as the edition's in the install schema (its allocation
# sequences) stop the install with an error, so psql -f exits non-zero, naming them, with
# nothing installed (before, a warning and exit code 0): a table, a view, another role's
# sequence, a type.
$node->safe_psql('app', 'CREATE SCHEMA clash; GRANT USAGE, CREATE ON SCHEMA clash TO installer, reader');
for my $case (
	[ 'a table', 'CREATE TABLE clash.locality_uuid_portable_explicit (x integer)', 'table clash.locality_uuid_portable_explicit' ],
	[ 'a view', 'CREATE VIEW clash.locality_uuid_portable_v7_explicit AS SELECT 1 AS x', 'view clash.locality_uuid_portable_v7_explicit' ],
	[ 'another role\'s sequence', 'CREATE SEQUENCE clash.locality_uuid_portable_explicit', 'sequence clash.locality_uuid_portable_explicit' ],
	[ 'a type', q{CREATE TYPE clash.locality_uuid_portable_v7_explicit AS ENUM ('a')}, 'type clash.locality_uuid_portable_v7_explicit' ])
{
	my ($what, $make, $named) = @$case;
	psql_as($node, reader => app => $make);
	($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'VERBOSITY=verbose', '-v', 'schema=clash',
		'-f', 'portable/locality_uuid_portable.sql');
	is($rc, 3, "$what named as an allocation sequence: the install fails (psql's ON_ERROR_STOP exit code)");
	like($err, qr/ERROR:  42710: objects of the names the portable edition would create exist in schema clash\nDETAIL:  .*these exist: \Q$named\E owned by reader\./,
		"$what: the error names it and its owner");
	is($node->safe_psql('app', q{SELECT count(*) FROM pg_proc WHERE pronamespace = 'clash'::regnamespace},
		) . $node->safe_psql('app', q{SELECT count(*) FROM pg_namespace WHERE nspname = 'clash_internal'}),
		'00', "$what: nothing installed");
	$node->safe_psql('app', 'DROP SCHEMA clash CASCADE; CREATE SCHEMA clash; GRANT USAGE, CREATE ON SCHEMA clash TO installer, reader');
}

# A function of the installing role's own in the install schema with an argument list the
# edition would make (a locality_uuid() of its own; below 18 also a uuidv7() polyfill, as the
# README suggests) stops the install (42723, naming them, psql's exit code 3) and is left as it
# was; from 18 on the edition makes no uuidv7 and leaves that one alone.
$node->safe_psql('app', 'CREATE SCHEMA own AUTHORIZATION installer');
my $own_defs = q{SELECT string_agg(oid::regprocedure || ' ' || md5(pg_get_functiondef(oid)), ', ' ORDER BY oid::regprocedure::text)
	FROM pg_proc WHERE pronamespace = 'own'::regnamespace};
($rc, $out, $err) = psql_as($node, installer => app => q{
CREATE FUNCTION own.uuidv7() RETURNS uuid LANGUAGE sql VOLATILE RETURN gen_random_uuid();
CREATE FUNCTION own.locality_uuid() RETURNS uuid LANGUAGE sql VOLATILE RETURN '00000000-0000-0000-0000-000000000001'::uuid;
CREATE FUNCTION own.my_report() RETURNS integer LANGUAGE sql RETURN 1;});
is($err, '', 'the installer makes uuidv7(), locality_uuid() and my_report() of its own in schema own');
my $own_before = $node->safe_psql('app', $own_defs);
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'VERBOSITY=verbose', '-v', 'schema=own', '-f', 'portable/locality_uuid_portable.sql');
is($rc, 3, 'a function of its own the edition would replace stops the install');
like($err, qr/ERROR:  42723: functions the portable edition did not make exist in schema own\nDETAIL:  The edition would replace these functions, which it did not make: \Q@{[$node->pg_version < 18 ? 'own.locality_uuid(), own.uuidv7()' : 'own.locality_uuid()']}\E\./,
	'with 42723, naming each (uuidv7() below 18 only)');
is($node->safe_psql('app', $own_defs), $own_before, 'and leaves them as they were');
$node->safe_psql('app', 'DROP FUNCTION own.locality_uuid()' . ($node->pg_version < 18 ? ', own.uuidv7()' : ''));
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=own', '-f', 'portable/locality_uuid_portable.sql');
is($rc, 0, 'without them it installs') or diag($err);
# The functions of own that are the installer's own: my_report(), and from 18 uuidv7().
my $theirs = "'my_report()'" . ($node->pg_version >= 18 ? ", 'uuidv7()'" : '');
my $own_record = qq{SELECT (SELECT count(*) FROM own_internal.locality_uuid_portable_made),
	(SELECT count(*) FROM pg_proc WHERE pronamespace = 'own'::regnamespace AND format('%I(%s)', proname, oidvectortypes(proargtypes)) NOT IN ($theirs)),
	(SELECT count(*) FROM own_internal.locality_uuid_portable_made WHERE signature IN ($theirs))};
# 49 functions, and core's names where the server lacks them: uuidv7(), uuidv7(interval),
# uuidv4() below 18, uuid_extract_timestamp(uuid), uuid_extract_version(uuid) below 17.
my $made = 49 + ($node->pg_version < 18 ? 3 : 0) + ($node->pg_version < 17 ? 2 : 0);
my $made_here = "$made|$made|0";
($rc, $out, $err) = psql_as($node, installer => app => $own_record);
is($out, $made_here, "it records the $made functions it made, every function of own but the installer's own (my_report(); from 18 uuidv7())");
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=own', '-f', 'portable/locality_uuid_portable.sql');
is($rc, 0, 'installing again replaces its own functions') or diag($err);
# An install from before the record: installing adopts the functions it replaces.
$node->safe_psql('app', 'DROP TABLE own_internal.locality_uuid_portable_made');
($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'schema=own', '-f', 'portable/locality_uuid_portable.sql');
is($rc, 0, 'an install without the record is installed over') or diag($err);
($rc, $out, $err) = psql_as($node, installer => app => $own_record);
is($out, $made_here, 'and its functions recorded again, my_report() not');

# Objects of every kind that another role left in a <schema>_internal a DBA gave to the
# installer stop the install (42501), naming them: not only functions.
my $i = 0;
for my $case (
	[ 'a table', 'CREATE TABLE %s.t (x integer)', 'table %s.t' ],
	[ 'a view', 'CREATE VIEW %s.v AS SELECT 1 AS x', 'view %s.v' ],
	[ 'a sequence', 'CREATE SEQUENCE %s.s', 'sequence %s.s' ],
	[ 'an enum type', q{CREATE TYPE %s.e AS ENUM ('a')}, 'type %s.e' ],
	[ 'a composite type', 'CREATE TYPE %s.c AS (a integer)', 'type %s.c' ],
	[ 'a domain', 'CREATE DOMAIN %s.d AS integer', 'type %s.d' ],
	[ 'an operator', 'CREATE OPERATOR %s.=== (LEFTARG = integer, RIGHTARG = integer, FUNCTION = int4eq)', 'operator %s.===(integer,integer)' ],
	[ 'an aggregate', 'CREATE AGGREGATE %s.agg(integer) (SFUNC = int4pl, STYPE = integer)', 'function %s.agg(integer)' ],
	[ 'a function', 'CREATE FUNCTION %s.f() RETURNS integer LANGUAGE sql RETURN 1', 'function %s.f()' ],
	[ 'a collation', 'CREATE COLLATION %s.co FROM "C"', 'collation %s.co' ])
{
	my ($what, $make, $named) = @$case;
	my $schema = 'left' . ++$i;
	$node->safe_psql('app', "CREATE SCHEMA ${schema}_internal; GRANT USAGE, CREATE ON SCHEMA ${schema}_internal TO reader");
	($rc, $out, $err) = psql_as($node, reader => app => sprintf($make, "${schema}_internal"));
	is($err, '', "another role makes $what in ${schema}_internal");
	$node->safe_psql('app', "REVOKE CREATE ON SCHEMA ${schema}_internal FROM reader; ALTER SCHEMA ${schema}_internal OWNER TO installer");
	($rc, $out, $err) = psql_as($node, installer => app => undef, '-v', 'VERBOSITY=verbose', '-v', "schema=$schema",
		'-f', 'portable/locality_uuid_portable.sql');
	is($rc, 3, "$what of another role in ${schema}_internal: the install fails");
	like($err, qr/ERROR:  42501: schema ${schema}_internal is not the portable edition's own\nDETAIL:  .*owned by installer, and it holds \Q@{[sprintf($named, "${schema}_internal")]}\E owned by reader\./,
		"$what: the error names it and its owner");
	is($node->safe_psql('app', "SELECT count(*) FROM pg_namespace WHERE nspname = '$schema'"), '0', "$what: nothing installed");
}

$node->stop;
done_testing();
