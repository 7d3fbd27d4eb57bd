# The owner of a trusted install who is not a superuser (dave, owner of database app): pg_dump as
# dave; his dump and a superuser's restored by dave into a cluster whose clock is an hour behind,
# where the same backfills repeat no id and ordered ids go on above the old ones; the documented
# setval; the release of core's names, DROP EXTENSION and CREATE EXTENSION again, all as dave;
# the update from 1.3 as dave.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'libfaketime not found (Debian package faketime; or set LIBFAKETIME)'
  unless libfaketime();

# The source runs an hour ahead: its ordered ids lie above the restore cluster's clock, so only
# the restored lease keeps the copy's ordered ids above them.
my $clock_file = "$PostgreSQL::Test::Utils::tmp_check/065_owner.faketime";
set_fake_clock($clock_file, frozen_clock_spec(time() + 3600));
# Ordered ids start above the lease with shared state: preloaded on 15 and 16 (state_kinds).
my ($shared) = grep { $_->{shared} } state_kinds();
my $src = extension_node('owner_src', extension => 0, clock => $clock_file, preload => $shared->{preload});
my $dst = extension_node('owner_dst', extension => 0, preload => $shared->{preload});
my $major = int($src->pg_version->major);
my $core_members = $major >= 18 ? 0 : $major == 17 ? 3 : 5;
my $at = q{'2024-01-01 00:00:00+00'::timestamptz};

for my $node ($src, $dst)
{
	$node->safe_psql('postgres', 'CREATE ROLE dave LOGIN; CREATE ROLE bob LOGIN');
}


# The backfills and ordered ids of one database: 1000 of each kind.
my $fill = qq{CREATE TABLE made (kind text, id uuid);
	INSERT INTO made SELECT 'hot', hot_uuid(7, $at) FROM generate_series(1, 1000);
	INSERT INTO made SELECT 'v7at', uuidv7_ordered($at) FROM generate_series(1, 1000);
	INSERT INTO made SELECT 'ordered', uuidv7_ordered() FROM generate_series(1, 1000);
	INSERT INTO made SELECT 'sequential', locality_uuid(true) FROM generate_series(1, 1000);};

# 1. dave's database app and a superuser's database sapp, each with the extension and its ids.
$src->safe_psql('postgres', 'CREATE DATABASE app OWNER dave; CREATE DATABASE sapp');
is(as($src, dave => 'app', 'CREATE EXTENSION locality_uuid'), '|', 'dave (owner of app, not superuser) creates the extension');
is(as($src, dave => 'app', $fill), '|', 'dave makes 1000 ids of hot_uuid(k, at), uuidv7_ordered(at), uuidv7_ordered() and locality_uuid(true)');
$src->safe_psql('sapp', "CREATE EXTENSION locality_uuid; $fill");

# 2. pg_dump as dave: it reads the sequences, and carries their values, not their privileges.
my $dave_dump = $src->basedir . '/app.sql';
my ($ok, $err) = run_program('pg_dump', '-f', $dave_dump, '-d', $src->connstr('app') . ' user=dave');
ok($ok && $err eq '', 'pg_dump -U dave -d app: no error') or diag $err;
my $text = -f $dave_dump ? slurp_file($dave_dump) : '';
for my $seq (qw(locality_uuid_hot_allocation locality_uuid_v7_allocation locality_uuid_v7_lease locality_uuid_b_lease))
{
	like($text, qr/SELECT pg_catalog\.setval\('public\.$seq', [1-9]\d*, true\);/, "dave's dump sets $seq");
}
unlike($text, qr/(GRANT|REVOKE)[^;]*locality_uuid/, q{dave's dump grants nothing on the extension's objects});
my $su_dump = $src->basedir . '/sapp.dump';
($ok, $err) = run_program('pg_dump', '-Fc', '-f', $su_dump, '-d', $src->connstr('sapp'));
ok($ok && $err eq '', q{pg_dump of the superuser's database}) or diag $err;

# The values of the extension's sequences.
my $sequences = q{SELECT string_agg(sequencename || ' ' || last_value, ', ' ORDER BY sequencename)
	FROM pg_sequences WHERE sequencename LIKE 'locality_uuid%'};
my %dumped = ($dave_dump => $src->safe_psql('app', $sequences), $su_dump => $src->safe_psql('sapp', $sequences));
note "dumped: $_" for values %dumped;

# 3. dave restores both into new databases of his: on a cluster an hour behind, and beside the
# originals on the same cluster.
my @copies = ([ $dst, 'app', $dave_dump ], [ $dst, 'sapp', $su_dump ], [ $src, 'app_copy', $dave_dump ],
	[ $src, 'sapp_copy', $su_dump ]);
for my $copy (@copies)
{
	my ($node, $db, $file) = @$copy;
	my $where = ($node == $dst ? 'cluster an hour behind' : 'same cluster') . ", database $db";
	$node->safe_psql('postgres', "CREATE DATABASE $db OWNER dave");
	my $conn = $node->connstr($db) . ' user=dave';
	($ok, $err) = $file eq $dave_dump
	  ? run_program('psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $conn, '-f', $file)
	  : run_program('pg_restore', '--no-owner', '-d', $conn, $file);
	ok($ok && $err !~ /ERROR/, ($file eq $dave_dump ? q{dave restores his dump (psql -f)} : q{dave restores the superuser's dump (pg_restore --no-owner)})
		. " into $where: no error") or diag $err;
	is($node->safe_psql($db, $sequences), $dumped{$file}, "$where: the extension's sequences have their dumped values");
	is( as($node, dave => $db, qq{SELECT count(*) FROM (SELECT hot_uuid(7, $at) AS id FROM generate_series(1, 1000)) n
			WHERE id IN (SELECT id FROM made)}),
		'0|', "$where: the same backfill hot_uuid(7, at) repeats 0 of 1000 ids");
	is( as($node, dave => $db, qq{SELECT count(*) FROM (SELECT uuidv7_ordered($at) AS id FROM generate_series(1, 1000)) n
			WHERE id IN (SELECT id FROM made)}),
		'0|', "$where: the same backfill uuidv7_ordered(at) repeats 0 of 1000 ids");
	is( as($node, dave => $db, q{SELECT count(*) FROM (SELECT uuidv7_ordered() AS id FROM generate_series(1, 1000)) n
			WHERE id <= (SELECT id FROM made WHERE kind = 'ordered' ORDER BY id DESC LIMIT 1)}),
		'0|', "$where: 0 of 1000 ordered ids at or below the old ones");
	is( as($node, dave => $db, q{SELECT count(*) FROM (SELECT locality_uuid(true) AS id FROM generate_series(1, 1000)) n
			WHERE id <= (SELECT id FROM made WHERE kind = 'sequential' ORDER BY id DESC LIMIT 1)}),
		'0|', "$where: 0 of 1000 sequential ids at or below the old ones");
}

# 4. The documented steps, as dave: moving the allocation sequence on (docs/guarantees.md).
is( as($src, dave => 'app', q{SELECT setval('locality_uuid_v7_allocation', nextval('locality_uuid_v7_allocation') + 4294967296) > 4294967296}),
	't|', q{dave moves locality_uuid_v7_allocation on (the cloning step)});
is(as($src, bob => 'app', q{SELECT setval('locality_uuid_v7_allocation', 0)}), '|ERROR:  42501',
	'bob (not the owner) may not set the sequence');
is(as($src, bob => 'app', q{SELECT last_value FROM locality_uuid_hot_allocation}), '|ERROR:  42501',
	'bob may not read it');

# 5. Release, drop and create again, as dave; a default on uuidv7() made before stays bound.
my $catalog = q{SELECT string_agg(format('%s owner=%s acl=%s member=%s -- %s%s', p.oid::regprocedure, p.proowner::regrole,
		coalesce(p.proacl::text, 'default'), d.objid IS NOT NULL, obj_description(p.oid, 'pg_proc'), pg_get_functiondef(p.oid)),
		E'\n' ORDER BY p.oid::regprocedure::text)
	FROM pg_proc p
	LEFT JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.oid >= 16384
	  AND p.proname IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version')};
my $fresh = $src->safe_psql('sapp', $catalog);
is(as($src, dave => 'app', q{CREATE TABLE ev (id uuid DEFAULT uuidv7(), n int); INSERT INTO ev (n) VALUES (1)}), '|',
	'dave: a table with DEFAULT uuidv7()');
my $oid_sql = q{SELECT to_regprocedure('pg_catalog.uuidv7()')::oid};
my $oid_before = $src->safe_psql('app', $oid_sql);
is(as($src, bob => 'app', 'SELECT locality_uuid_release_core_names()'), '|ERROR:  42501', 'bob may not release the names');
is(as($src, dave => 'app', 'SELECT locality_uuid_release_core_names()'), "$core_members|",
	"dave releases core's names: $core_members detached");
is(as($src, dave => 'app', 'SELECT locality_uuid_release_core_names()'), '0|', 'a second release detaches none');
is(as($src, dave => 'app', 'DROP EXTENSION locality_uuid'), '|', 'dave drops the extension');
is(as($src, dave => 'app', 'CREATE EXTENSION locality_uuid'), '|', 'dave creates it again');
is($src->safe_psql('app', $oid_sql), $oid_before, 'the released uuidv7() is the one the extension has again');
is($src->safe_psql('app', $catalog), $fresh,
	'the taken-back functions: owner, privileges, membership, comment and definition as a fresh install');
is( as($src, dave => 'app', q{INSERT INTO ev (n) VALUES (2);
		SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || bool_and(uuid_extract_version(id) = 7)
		  || ' ' || uuid_extract_version(uuidv7()) || ' ' || uuid_extract_version(uuidv4()) FROM ev}),
	'2 2 true 7 4|', 'ids still made: the default, uuidv7() and uuidv4()');
is(as($src, dave => 'app', 'SELECT locality_uuid_release_core_names()'), "$core_members|", 'release works again');

# 6. The update from 1.3, as dave: then he dumps and releases.
$src->safe_psql('postgres', 'CREATE DATABASE upd OWNER dave');
is( as($src, dave => 'upd', q{CREATE EXTENSION locality_uuid VERSION '1.3'; SELECT hot_uuid(1, now()) IS NOT NULL;
		ALTER EXTENSION locality_uuid UPDATE; SELECT extversion = default_version FROM pg_extension
		JOIN pg_available_extensions ON name = extname WHERE extname = 'locality_uuid'}),
	"t\nt|", 'dave creates 1.3 and updates it to the default version');
($ok, $err) = run_program('pg_dump', '-f', $src->basedir . '/upd.sql', '-d', $src->connstr('upd') . ' user=dave');
ok($ok && $err eq '', 'after the update, pg_dump -U dave: no error') or diag $err;
is(as($src, dave => 'upd', 'SELECT locality_uuid_release_core_names()'), "$core_members|",
	'after the update, dave releases the names');

done_testing();
