# The extension's own names beside other roles' functions: nobody owns schema vict with
# vict.hot_uuid(numeric) and calls hot_uuid(5) and hot_uuid(5::bigint) with search_path
# vict, public; owner, the database's owner and no superuser, runs CREATE EXTENSION (trusted).
# It is refused (42723), naming nobody's function, and creates nothing; nobody's calls still
# reach his function; once he renames it, owner creates the extension (another session's
# temporary function of one of the names stops nothing), and a dump with a function
# of that name made after the extension restores. ALTER EXTENSION UPDATE
# from 1.5 is refused likewise beside a function named as one 1.6 adds (locality_uuid_survey),
# not beside the overloads it adds to its own functions. The names the install script checks
# are the names of the functions it creates, and those the update script checks the names it
# adds. ALTER EXTENSION SET SCHEMA: refused for owner (42501), and below 18 for a superuser
# (0A000, members in pg_catalog); from 18 a superuser moves it and its functions still work.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = extension_node('name_conflicts', extension => 0);
my $major = int($node->pg_version->major);
my $q = sub { $node->safe_psql(@_) };
my $sharedir = $node->config_data('--sharedir');

$q->('postgres', q{CREATE ROLE owner LOGIN; CREATE ROLE nobody LOGIN;
	CREATE DATABASE fresh OWNER owner; CREATE DATABASE upd OWNER owner;
	ALTER ROLE nobody SET search_path = vict, public;});
for my $db (qw(fresh upd))
{
	$q->($db, 'CREATE SCHEMA vict AUTHORIZATION nobody');
}

# The error of running sql as role on db, in full: (stderr, stdout).
sub verbose
{
	my ($role, $db, $sql) = @_;
	my ($out, $err) = ('', '');
	$node->psql($db, $sql, connstr => $node->connstr($db) . " user=$role", stdout => \$out, stderr => \$err,
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return ($err, $out);
}

# The reviewer's case.
is( as($node, nobody => 'fresh', q{
	CREATE FUNCTION vict.hot_uuid(numeric) RETURNS text LANGUAGE sql AS $$ SELECT 'victim' $$;
	SELECT hot_uuid(5), hot_uuid(5::bigint)}),
	'victim|victim|', 'nobody: vict.hot_uuid(numeric) takes hot_uuid(5) and hot_uuid(5::bigint)');

my ($err) = verbose(owner => 'fresh', 'CREATE EXTENSION locality_uuid');
like($err, qr/ERROR:  42723: cannot create extension locality_uuid beside functions named as those it creates\n/,
	q{owner's CREATE EXTENSION is refused with 42723});
like($err, qr/DETAIL:  The extension would create functions of these names in schema public, so code that calls these existing functions by name could call the extension's instead, or fail as ambiguous: vict\.hot_uuid\(numeric\)\.\n/,
	'the detail says why and names the function, schema-qualified, with its arguments');
like($err, qr/HINT:  Drop or rename these functions and change the code that calls them, then create the extension again/,
	'the hint says what to do');
is( $q->('fresh', q{SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'locality_uuid') || ' '
	|| (SELECT count(*) FROM pg_proc WHERE pronamespace IN ('public'::regnamespace, 'pg_catalog'::regnamespace) AND oid >= 16384)
	|| ' ' || (SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace)}),
	'0 0 0', 'nothing was created: no extension, no function, no sequence');
is(as($node, nobody => 'fresh', 'SELECT hot_uuid(5), hot_uuid(5::bigint)'), 'victim|victim|',
	q{nobody's calls still reach his function});

# Every conflict is listed, in any schema (pg_catalog and the install schema too), whatever
# its kind, and a superuser is refused as well.
$q->('postgres', 'CREATE DATABASE other');
$q->('other', q{CREATE SCHEMA tools;
	CREATE FUNCTION tools.locality_uuid(n integer) RETURNS uuid LANGUAGE sql AS $$ SELECT gen_random_uuid() $$;
	CREATE PROCEDURE tools.uuidv7_ordered() LANGUAGE sql AS $$ SELECT 1 $$;
	CREATE FUNCTION public.uuid_time_nextval_interval(text) RETURNS uuid LANGUAGE sql AS $$ SELECT NULL::uuid $$;
	CREATE FUNCTION pg_catalog.hot_uuid_made(text) RETURNS boolean LANGUAGE sql AS $$ SELECT true $$;});
($err) = verbose($node->safe_psql('postgres', 'SELECT current_user'), 'other', 'CREATE EXTENSION locality_uuid');
like($err, qr/ERROR:  42723: .*\nDETAIL:  .*: pg_catalog\.hot_uuid_made\(text\), public\.uuid_time_nextval_interval\(text\), tools\.locality_uuid\(n integer\), tools\.uuidv7_ordered\(\)\.\n/,
	'a superuser is refused too; the detail lists every conflict, in pg_catalog, public and another schema, a procedure too');

# Renamed, nobody's function and his calls of it are his; owner creates the extension.
is(as($node, nobody => 'fresh', 'ALTER FUNCTION vict.hot_uuid(numeric) RENAME TO my_hot_uuid; SELECT my_hot_uuid(5)'),
	'victim|', 'nobody renames his function');
# Another session's temporary function of one of the names, held open, stops nothing: pg_temp is
# not searched for functions, so no unqualified call reaches it.
my ($tin, $tout) = ("CREATE FUNCTION pg_temp.uuidv7_ordered() RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';\nSELECT 'made';\n", '');
my $temp = IPC::Run::start([ 'psql', '-XAtq', '-d', $node->connstr('fresh') . ' user=nobody' ],
	'<', \$tin, '>', \$tout, IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
$temp->pump until $tout =~ /made/;
is( $q->('fresh', q{SELECT count(*) FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
	WHERE p.proname = 'uuidv7_ordered' AND n.nspname LIKE 'pg\_temp\_%'}),
	'1', q{nobody's session holds pg_temp.uuidv7_ordered()});
is(as($node, owner => 'fresh', 'CREATE EXTENSION locality_uuid'), '|', 'owner creates the extension');
$tin .= "\\q\n";
$temp->finish;
is(as($node, nobody => 'fresh', 'SELECT my_hot_uuid(5), hot_uuid_shard_key(hot_uuid(5))'), 'victim|5|',
	q{nobody's renamed function is his; hot_uuid(5) is the extension's});

# A function of one of its names made after the extension is its maker's choice; a dump of the
# database restores into a new one: pg_dump creates extensions before functions.
is(as($node, nobody => 'fresh', q{CREATE FUNCTION vict.hot_uuid(numeric) RETURNS text LANGUAGE sql AS $$ SELECT 'later' $$;
	SELECT hot_uuid(5.5)}), 'later|', 'nobody makes vict.hot_uuid(numeric) again, after the extension');
my $dump = $node->basedir . '/fresh.sql';
my ($out, $derr) = ('', '');
IPC::Run::run([ 'pg_dump', '-f', $dump, '-d', $node->connstr('fresh') ], '>', \$out, '2>', \$derr)
  or die "pg_dump failed: $derr";
$q->('postgres', 'CREATE DATABASE restored OWNER owner');
my $rc = $node->psql('restored', undef, extra_params => [ '-v', 'ON_ERROR_STOP=1', '-f', $dump ], stdout => \$out, stderr => \$derr);
is($rc, 0, 'the dump restores: CREATE EXTENSION runs before vict.hot_uuid(numeric) is made') or diag $derr;
is(as($node, nobody => 'restored', 'SELECT hot_uuid(5.5), hot_uuid_shard_key(hot_uuid(5::bigint))'), 'later|5|',
	'both functions are there');
is(as($node, nobody => 'fresh', 'DROP FUNCTION vict.hot_uuid(numeric)'), '|', 'nobody drops it again');

# The install script checks the names of exactly the functions the extension has outside
# pg_catalog (built from the scripts: src/pg/name_check.sh).
my $script = slurp_file("$sharedir/extension/locality_uuid--1.6.sql");
my ($listed) = $script =~ /^    names name\[\] := '\{([a-z0-9_,]+)\}';$/m;
my $members = q{SELECT string_agg(n, ',' ORDER BY n) FROM (SELECT DISTINCT p.proname::text COLLATE "C" AS n
	FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
	WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'locality_uuid')
	  AND p.pronamespace <> 'pg_catalog'::regnamespace) s};
is($listed, $q->('fresh', $members), 'the install script checks the name of every function it creates, and no other');

# ALTER EXTENSION UPDATE from 1.5: refused beside a function named as one 1.6 adds.
is(as($node, owner => 'upd', q{CREATE EXTENSION locality_uuid VERSION '1.5'}), '|', 'owner creates 1.5 in upd');
my $before = $q->('upd', $members);
is( as($node, nobody => 'upd', q{
	CREATE FUNCTION vict.locality_uuid_survey(numeric) RETURNS text LANGUAGE sql AS $$ SELECT 'victim' $$;
	SELECT locality_uuid_survey(5)}),
	'victim|', 'nobody: vict.locality_uuid_survey(numeric)');
($err) = verbose(owner => 'upd', 'ALTER EXTENSION locality_uuid UPDATE');
like($err, qr/ERROR:  42723: cannot update extension locality_uuid beside functions named as those it creates\n/,
	q{owner's ALTER EXTENSION UPDATE from 1.5 is refused with 42723});
like($err, qr/DETAIL:  .*: vict\.locality_uuid_survey\(numeric\)\.\n/, 'the detail names the function');
like($err, qr/HINT:  Drop or rename these functions and change the code that calls them, then update the extension again/,
	'the hint says what to do');
is( $q->('upd', q{SELECT extversion || ' ' || (SELECT count(*) FROM pg_proc WHERE proname = 'locality_uuid_survey')
	FROM pg_extension WHERE extname = 'locality_uuid'}),
	'1.5 1', 'still 1.5, and nothing of 1.6 was created');
is(as($node, nobody => 'upd', 'SELECT locality_uuid_survey(5)'), 'victim|', q{nobody's call still reaches his function});

# The update script checks the names of exactly the functions it adds; the overloads it adds to
# 1.5's functions (uuidv7_made_check, hot_uuid_made_check) do not stop it.
is(as($node, nobody => 'upd', 'DROP FUNCTION vict.locality_uuid_survey(numeric)'), '|', 'nobody drops his function');
is(as($node, owner => 'upd', 'ALTER EXTENSION locality_uuid UPDATE'), '|', 'owner updates to 1.6');
my $update = slurp_file("$sharedir/extension/locality_uuid--1.5--1.6.sql");
($listed) = $update =~ /^    names name\[\] := '\{([a-z0-9_,]+)\}';$/m;
my %had = map { $_ => 1 } split /,/, $before;
my @new_names = grep { !$had{$_} } split /,/, $q->('upd', $members);
my @overloads = grep { $had{$_} } split /,/, $listed;
is( join(',', sort(@new_names, @overloads)), $listed,
	'the update script checks the names of the functions it adds: ' . scalar(@new_names) . ' new, '
	  . scalar(@overloads) . ' overloads (' . join(', ', @overloads) . ')');
cmp_ok(scalar(@overloads), '>', 0, 'the update adds overloads of functions 1.5 has, and is not refused by them');

# ALTER EXTENSION SET SCHEMA: owner (not a superuser) does not own the members (42501); below
# 18 a superuser is refused (0A000: five members live in pg_catalog); nothing moves.
is(as($node, owner => 'fresh', 'CREATE SCHEMA moved'), '|', 'owner makes schema moved');
($err) = verbose(owner => 'fresh', 'ALTER EXTENSION locality_uuid SET SCHEMA moved');
like($err, qr/ERROR:  42501: must be owner of function /, 'owner cannot move the extension (42501)');
($err) = verbose($node->safe_psql('postgres', 'SELECT current_user'), 'fresh', 'ALTER EXTENSION locality_uuid SET SCHEMA moved');
if ($major < 18)
{
	like($err,
		qr/ERROR:  0A000: extension "locality_uuid" does not support SET SCHEMA\nDETAIL:  function uuidv7\(\) is not in the extension's schema "public"\n/,
		'below 18 a superuser cannot move it either (0A000, uuidv7() in pg_catalog)');
	is($q->('fresh', q{SELECT count(*) FROM pg_proc WHERE pronamespace = 'moved'::regnamespace}), '0', 'nothing moved');
}
else
{
	is($err, '', 'from 18 on a superuser moves the extension');
	# The SQL-standard bodies bind by OID: they work in the new schema, with it off the path.
	$q->('fresh', 'GRANT USAGE ON SCHEMA moved TO nobody;
		CREATE TABLE public.keyed (id uuid PRIMARY KEY DEFAULT moved.hot_uuid(5::bigint)); GRANT SELECT ON public.keyed TO nobody');
	is( as($node, nobody => 'fresh', q{SELECT moved.hot_uuid_shard_key(moved.hot_uuid(5::bigint)),
		(SELECT count(*) FROM moved.locality_uuid_survey('public'))}),
		'5|1|', 'its functions work from the new schema, the SQL-standard body of the survey included');
}

done_testing();
