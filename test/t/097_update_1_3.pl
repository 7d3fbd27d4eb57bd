# PostgreSQL 18's names on this major: ALTER EXTENSION UPDATE from 1.2 to 1.3 leaves a user's own
# public.uuidv7() and the defaults bound to it alone, and adds the extension's in pg_catalog below
# 18 (none from 18 on); defaults on them dump unqualified and restore; DROP EXTENSION keeps what
# depends on them, and SET SCHEMA is refused below 18, where members sit in pg_catalog.
use strict;
use warnings FATAL => 'all';

use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = extension_node('upd', extension => 0);
my $below_18 = int($node->pg_version->major) < 18;
my $q = sub { $node->safe_psql(@_) };

# The five names in pg_catalog that belong to the extension.
my $members = q{
	SELECT count(*) FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
	WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e' AND p.pronamespace = 'pg_catalog'::regnamespace
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'locality_uuid')};

$q->('postgres', q{
	CREATE DATABASE upd;});
$q->('upd', q{
	CREATE EXTENSION locality_uuid VERSION '1.2';
	-- a common stand-in of older majors, in public
	CREATE FUNCTION public.uuidv7() RETURNS uuid LANGUAGE sql AS $$ SELECT 'aaaaaaaa-aaaa-7aaa-aaaa-aaaaaaaaaaaa'::uuid $$;
	CREATE TABLE own (id uuid DEFAULT uuidv7(), n int);});
$q->('upd', q{ALTER EXTENSION locality_uuid UPDATE TO '1.3'});
my $major = int($node->pg_version->major);
my $added = $major >= 18 ? 0 : $major == 17 ? 3 : 5;
is($q->('upd', $members), $added, "on $major the update adds $added members in pg_catalog (what core lacks)");
$q->('upd', q{
	INSERT INTO own (n) VALUES (1);
	CREATE TABLE ext (id uuid PRIMARY KEY DEFAULT uuidv7(), t timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED);
	INSERT INTO ext DEFAULT VALUES;});
# Below 18 the stand-in was the only uuidv7() when the table was made; from 18 core's was first.
if ($below_18)
{
	is($q->('upd', q{SELECT id FROM own}), 'aaaaaaaa-aaaa-7aaa-aaaa-aaaaaaaaaaaa',
		'a default bound to public.uuidv7() before the update still calls it');
}
else
{
	is($q->('upd', q{SELECT id <> 'aaaaaaaa-aaaa-7aaa-aaaa-aaaaaaaaaaaa' AND uuid_extract_version(id) = 7 FROM own}), 't',
		q{from 18 on, a default uuidv7() made before the update binds to core's});
}
is($q->('upd', q{SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'ext'::regclass AND adnum = 1}),
	'uuidv7()', q{a new default binds to pg_catalog.uuidv7() (the extension's below 18, core's from 18)});
is($q->('upd', q{SELECT uuid_extract_version(id) || ' ' || (t = uuidv7_timestamp(id)) FROM ext}),
	'7 true', 'the new default makes version 7 ids');

# pg_dump prints the default unqualified, and the dump restores into a fresh database.
my $dump = $node->basedir . '/upd.sql';
my ($out, $err);
IPC::Run::run([ 'pg_dump', '-f', $dump, '-d', $node->connstr('upd') ], '>', \$out, '2>', \$err)
  or die "pg_dump failed: $err";
like(slurp_file($dump), qr/id uuid DEFAULT uuidv7\(\) NOT NULL/, 'the dump calls uuidv7() unqualified');
$q->('postgres', 'CREATE DATABASE restored');
my $rc = $node->psql('restored', undef, extra_params => [ '-v', 'ON_ERROR_STOP=1', '-f', $dump ],
	stdout => \$out, stderr => \$err);
is($rc, 0, 'the dump restores') or diag $err;
$q->('restored', 'INSERT INTO ext DEFAULT VALUES; INSERT INTO own (n) VALUES (2)');
is($q->('restored', q{SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || bool_and(uuid_extract_version(id) = 7) FROM ext}),
	'2 2 true', 'the restored default makes version 7 ids');

# DROP EXTENSION refuses while defaults depend on the functions; SET SCHEMA below 18 is refused.
my (undef, $dropped) = psql_states($node, 'upd', 'DROP EXTENSION locality_uuid');
is($dropped, 'ERROR:  2BP01', 'DROP EXTENSION refuses while a default calls its uuidv7() (2BP01)') if $below_18;
$q->('upd', 'CREATE SCHEMA elsewhere');
my (undef, $moved) = psql_states($node, 'upd', 'ALTER EXTENSION locality_uuid SET SCHEMA elsewhere');
if ($below_18)
{
	is($moved, 'ERROR:  0A000', 'below 18, SET SCHEMA is refused (0A000): five members live in pg_catalog');
}
else
{
	is($moved, '', 'from 18 on, SET SCHEMA moves the extension');
	$q->('upd', 'ALTER EXTENSION locality_uuid SET SCHEMA public');
}

# Releasing the names (before pg_upgrade to 18) detaches them; they keep working.
is($q->('upd', 'SELECT locality_uuid_release_core_names()'), $added, 'release detaches the members');
is($q->('upd', $members), '0', 'no member left in pg_catalog');
is($q->('upd', q{SELECT uuid_extract_version(uuidv7())}), '7', 'uuidv7() still works after the release');

done_testing();
