# PostgreSQL 18's names beside other roles' functions: alice has her own public.uuidv7() (a
# polyfill) and code that calls it; bob, with CREATE on the database only, runs CREATE EXTENSION.
# Below 18 it is refused (42723), naming her function, and every call site of hers still calls
# hers; once her function is gone bob creates it. ALTER EXTENSION UPDATE from 1.3 checks none of
# these names (067_name_conflicts.pl: the names an update adds to the extension's schema).
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use Test::More;

my $node = extension_node('core_name_conflicts', extension => 0);
my $major = int($node->pg_version->major);
my $q = sub { $node->safe_psql(@_) };
my $mark = 'aaaaaaaa-aaaa-7aaa-aaaa-aaaaaaaaaaaa';

$q->('postgres', q{CREATE ROLE alice LOGIN; CREATE ROLE bob LOGIN;
	CREATE DATABASE app; GRANT CREATE ON DATABASE app TO bob;});
$q->('app', 'GRANT CREATE ON SCHEMA public TO alice');

# alice's polyfill and one caller of each kind: PL/pgSQL, a string-body SQL function, a trigger,
# a SECURITY DEFINER function with SET search_path = public, a column default.
is( as($node, alice => 'app', qq{
	CREATE FUNCTION public.uuidv7(at timestamptz DEFAULT clock_timestamp()) RETURNS uuid
		LANGUAGE sql AS \$\$ SELECT '$mark'::uuid \$\$;
	CREATE FUNCTION a_plpgsql() RETURNS uuid LANGUAGE plpgsql AS \$\$ BEGIN RETURN uuidv7(); END \$\$;
	CREATE FUNCTION a_sql() RETURNS uuid LANGUAGE sql AS \$\$ SELECT uuidv7() \$\$;
	CREATE FUNCTION a_definer() RETURNS uuid LANGUAGE plpgsql SECURITY DEFINER SET search_path = public
		AS \$\$ BEGIN RETURN uuidv7(); END \$\$;
	CREATE TABLE a_trig (id uuid, n int);
	CREATE FUNCTION a_trig_id() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN NEW.id := uuidv7(); RETURN NEW; END \$\$;
	CREATE TRIGGER a_trig_id BEFORE INSERT ON a_trig FOR EACH ROW EXECUTE FUNCTION a_trig_id();
	CREATE TABLE a_default (id uuid DEFAULT uuidv7(), n int);}),
	'|', q{alice: her uuidv7(at timestamptz DEFAULT clock_timestamp()) and its callers});

# Each call site of alice's, in a new session: 't' when it called her function.
my @sites = (
	[ 'PL/pgSQL function' => 'SELECT a_plpgsql()' ],
	[ 'string-body SQL function' => 'SELECT a_sql()' ],
	[ 'SECURITY DEFINER function with SET search_path = public' => 'SELECT a_definer()' ],
	[ 'trigger function' => 'INSERT INTO a_trig (n) VALUES (1) RETURNING id' ],
	[ 'column default' => 'INSERT INTO a_default (n) VALUES (1) RETURNING id' ],
	[ q{uuidv7('2024-01-01') (her timestamptz argument)} => q{SELECT uuidv7('2024-01-01')} ],
	[ 'uuidv7() by name' => 'SELECT uuidv7()' ]);

# Check that every call site calls alice's function; names start with label.
sub sites_call_hers
{
	my ($label) = @_;
	for my $site (@sites)
	{
		is(as($node, alice => 'app', $site->[1]), "$mark|", "$label: $site->[0] calls alice's uuidv7");
	}
	return;
}

# From 18 core's uuidv7() in pg_catalog is found first anyway; the extension adds nothing there.
my $refused = $major < 18;
sites_call_hers('before') if $refused;
my ($out, $err) = ('', '');
$node->psql('app', 'CREATE EXTENSION locality_uuid', connstr => $node->connstr('app') . ' user=bob',
	stdout => \$out, stderr => \$err, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
if ($refused)
{
	like($err, qr/ERROR:  42723: cannot create extension locality_uuid beside functions named as those it adds to pg_catalog/,
		q{bob's CREATE EXTENSION is refused with 42723});
	like($err, qr/DETAIL:  .*: public\.uuidv7\(at timestamp with time zone\)\./,
		'the detail names her function, schema-qualified, with its arguments');
	like($err, qr/HINT:  Drop or rename these functions and change the code that calls them/, 'the hint says what to do');
	is($q->('app', q{SELECT count(*) FROM pg_extension WHERE extname = 'locality_uuid'}), '0', 'no extension');
	is($q->('app', q{SELECT count(*) FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace AND oid >= 16384}),
		'0', 'nothing left in pg_catalog');
	sites_call_hers(q{after bob's refused CREATE EXTENSION});
}
else
{
	is($err, '', "on $major the extension adds nothing to pg_catalog: created beside her function");
	$q->('app', 'DROP EXTENSION locality_uuid');
}

# Every name the extension would add on this major, in any schema, with any arguments; a
# superuser is refused too. The detail lists every conflict.
my @names = $major < 17 ? qw(uuidv7 uuidv4 uuid_extract_timestamp uuid_extract_version) : $major < 18 ? qw(uuidv7 uuidv4) : ();
$q->('postgres', 'CREATE DATABASE other');
$q->('other', q{CREATE SCHEMA tools;
	CREATE FUNCTION tools.uuidv4(n integer) RETURNS uuid LANGUAGE sql AS $$ SELECT gen_random_uuid() $$;
	CREATE FUNCTION tools.uuid_extract_version(t text) RETURNS smallint LANGUAGE sql AS $$ SELECT 4::smallint $$;
	CREATE FUNCTION tools.uuid_extract_timestamp(t text) RETURNS timestamptz LANGUAGE sql AS $$ SELECT now() $$;});
($out, $err) = ('', '');
$node->psql('other', 'CREATE EXTENSION locality_uuid', stdout => \$out, stderr => \$err,
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
my @want = grep { my $n = $_; grep { $_ eq $n } @names } qw(uuid_extract_timestamp uuid_extract_version uuidv4);
my %args = (uuidv4 => 'n integer', uuid_extract_version => 't text', uuid_extract_timestamp => 't text');
if (@want)
{
	my $list = join ', ', map { "tools.$_($args{$_})" } @want;
	like($err, qr/ERROR:  42723: .*\nDETAIL:  .*: \Q$list\E\./,
		"a superuser is refused too, beside tools.uuidv4(integer) and, where added, uuid_extract_*(text): $list");
}
else
{
	is($err, '', "on $major: no name of these is added, the extension is created");
}

# Once her function is gone, bob creates it, and uuidv7() is the extension's (below 18).
is(as($node, alice => 'app', 'DROP FUNCTION public.uuidv7(timestamptz) CASCADE'), '|', 'alice drops her function');
is(as($node, bob => 'app', 'CREATE EXTENSION locality_uuid'), '|', 'bob creates the extension');
is(as($node, bob => 'app', "SELECT uuid_extract_version(uuidv7()) || ' ' || (uuidv7() <> '$mark')"), '7 true|',
	q{uuidv7() makes version 7 ids});

# ALTER EXTENSION UPDATE from 1.3 beside a polyfill is not refused (installs that have it).
$q->('postgres', 'CREATE DATABASE upd');
$q->('upd', qq{CREATE FUNCTION public.uuidv7() RETURNS uuid LANGUAGE sql AS \$\$ SELECT '$mark'::uuid \$\$;
	CREATE EXTENSION locality_uuid VERSION '1.3'});
my (undef, $states) = psql_states($node, 'upd', 'ALTER EXTENSION locality_uuid UPDATE');
is($states, '', 'ALTER EXTENSION UPDATE from 1.3 beside public.uuidv7() is not refused');
is($q->('upd', q{SELECT extversion = default_version FROM pg_extension JOIN pg_available_extensions ON name = extname
	WHERE extname = 'locality_uuid'}), 't', 'and reaches the default version');

# The install script runs as a superuser for bob: operators he plants in the schema it goes to
# (exact matches for the types the checks compare) never run in it.
my $plant = q{
	CREATE FUNCTION bobs.grab() RETURNS boolean LANGUAGE plpgsql AS $$
	BEGIN ALTER ROLE bob SUPERUSER; RETURN true; EXCEPTION WHEN OTHERS THEN RETURN true; END $$;
	CREATE FUNCTION bobs.eq(a oid, b regclass) RETURNS boolean LANGUAGE sql AS $$ SELECT bobs.grab() AND a = b::oid $$;
	CREATE OPERATOR bobs.= (LEFTARG = oid, RIGHTARG = regclass, FUNCTION = bobs.eq);
	CREATE FUNCTION bobs.cat(a text[], b text) RETURNS text[] LANGUAGE sql AS $$ SELECT CASE WHEN bobs.grab() THEN pg_catalog.array_append(a, b) END $$;
	CREATE OPERATOR bobs.|| (LEFTARG = text[], RIGHTARG = text, FUNCTION = bobs.cat);
	SET search_path = bobs, public; SELECT 1::oid = 'pg_class'::regclass, ARRAY['a'] || 'b'::text;};
$q->('postgres', 'CREATE DATABASE planted; GRANT CREATE ON DATABASE planted TO bob');
is(as($node, bob => 'planted', "CREATE SCHEMA bobs; $plant"), "f|{a,b}|",
	'bob plants = (oid, regclass) and || (text[], text) in his schema (they work for him)');
is(as($node, bob => 'planted', 'CREATE EXTENSION locality_uuid SCHEMA bobs'), '|', 'bob creates the extension in that schema');
is($q->('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'bob'}), 'f',
	'no operator of bob ran in the install script: bob is no superuser');
$q->('postgres', 'CREATE DATABASE planted_upd; GRANT CREATE ON DATABASE planted_upd TO bob');
is( as($node, bob => 'planted_upd', qq{CREATE SCHEMA bobs; CREATE EXTENSION locality_uuid SCHEMA bobs VERSION '1.3'; $plant
		ALTER EXTENSION locality_uuid UPDATE}),
	"f|{a,b}|", 'bob creates 1.3 in his schema, plants the same and updates it');
is($q->('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'bob'}), 'f',
	'no operator of bob ran in the update script: bob is no superuser');

done_testing();
