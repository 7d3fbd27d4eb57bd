# Removing the portable edition keeps data: portable/locality_uuid_portable_remove.sql lists
# every object that uses the edition (column defaults, a generated column, an expression index,
# a view, a CHECK constraint, PL/pgSQL functions naming it, in any case or quoted) and refuses, dropping nothing,
# while they exist; with none it drops the edition without CASCADE. Dropping only
# <schema>_internal is refused without CASCADE; after CASCADE, installing again repairs it. The
# installer's own functions in the install schema that the edition did not make stay, whatever
# their names (hot_uuidish_report(); on 18 uuidv4() and uuid_extract_version(uuid)).
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = extension_node('portable_remove', extension => 0);
$node->safe_psql('postgres', q{CREATE ROLE app LOGIN; CREATE DATABASE app OWNER app});
# From 18 on the edition makes no uuidv4 nor uuid_extract_version: the installer's own of those
# names in the install schema are not the edition's, and stay.
my $own_core = $node->pg_version >= 18 ? ', ids.uuid_extract_version(uuid), ids.uuidv4()' : '';
psql_as($node, app => app => q{CREATE SCHEMA ids;
	CREATE FUNCTION ids.uuidv4() RETURNS uuid LANGUAGE sql VOLATILE RETURN gen_random_uuid();
	CREATE FUNCTION ids.uuid_extract_version(uuid) RETURNS smallint LANGUAGE sql IMMUTABLE RETURN 4;}) if $own_core;
install_portable($node, 'app', schema => 'ids', user => 'app');
# A second install, whose functions name the edition's functions, is no user of the first.
install_portable($node, 'app', schema => 'other', user => 'app');
my $edition = q{SELECT count(*) FROM pg_proc WHERE pronamespace IN (SELECT oid FROM pg_namespace WHERE nspname IN ('ids', 'ids_internal'))};
my $functions = $node->safe_psql('app', $edition);
cmp_ok($functions, '>', 70, 'the edition is installed');

my ($rc, $out, $err) = psql_as($node, app => app => q{
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT ids.hot_uuid(7),
                     shard_key bigint GENERATED ALWAYS AS (ids.hot_uuid_shard_key(id)) STORED,
                     v7 uuid DEFAULT ids.uuidv7_ordered(),
                     seq uuid DEFAULT ids.locality_uuid(true) CHECK (ids.locality_uuid_version(seq) = 'b'));
CREATE INDEX orders_time ON orders (ids.hot_uuid_timestamp(id));
CREATE VIEW orders_api AS SELECT ids.hot_uuid_shard_key(id) AS k FROM orders;
CREATE FUNCTION next_order() RETURNS uuid LANGUAGE plpgsql AS $$ BEGIN RETURN ids.hot_uuid(8); END $$;
CREATE FUNCTION next_upper() RETURNS uuid LANGUAGE plpgsql AS $$ BEGIN RETURN IDS.HOT_UUID(7); END $$;
CREATE FUNCTION next_quoted() RETURNS uuid LANGUAGE plpgsql AS $$ BEGIN RETURN "ids"."hot_uuid"(7); END $$;
INSERT INTO orders SELECT FROM generate_series(1, 10);
});
is($err, '', 'a table with defaults, a generated column, a CHECK, an index, a view and functions use the edition');
is($node->safe_psql('app', 'SELECT ids.hot_uuid_shard_key(next_upper()), ids.hot_uuid_shard_key(next_quoted())'), '7|7',
	'among them functions naming the edition in upper case and quoted');
my $data = q{SELECT count(*), count(DISTINCT id), sum(shard_key), count(v7), count(seq), (SELECT sum(k) FROM orders_api) FROM orders};
is($node->safe_psql('app', $data), '10|10|70|10|10|70', 'ten rows');

# The removal lists each and drops nothing.
($rc, $out, $err) = psql_as($node, app => app => undef, '-v', 'VERBOSITY=verbose', '-v', 'schema=ids',
	'-f', 'portable/locality_uuid_portable_remove.sql');
is($rc, 3, 'the removal fails while objects use the edition');
like($err, qr/ERROR:  2BP01: 10 objects use the portable edition of locality_uuid in schema ids\n/, 'with 2BP01, counting them');
my ($detail) = $err =~ /^DETAIL:  Used by: (.*)\.$/m;
is($detail, join('; ',
	'constraint orders_seq_check on table public.orders',
	'default value for column id of table public.orders',
	'default value for column seq of table public.orders',
	'default value for column v7 of table public.orders',
	'function public.next_order() (its body names them)',
	'function public.next_quoted() (its body names them)',
	'function public.next_upper() (its body names them)',
	'generated column shard_key of table public.orders',
	'index public.orders_time',
	'view public.orders_api'), 'and names each: defaults, the generated column, the CHECK, the index, the view, the functions (IDS.HOT_UUID and "ids"."hot_uuid" too)');
is($node->safe_psql('app', $edition), $functions, 'no function of the edition is dropped');
is($node->safe_psql('app', $data), '10|10|70|10|10|70', 'the data is intact');
($rc, $out, $err) = psql_as($node, app => app => q{INSERT INTO orders DEFAULT VALUES; SELECT count(*) FROM orders});
is($out, '11', 'and the defaults work') or diag($err);

# PostgreSQL's own DROP SCHEMA without CASCADE refuses as well, the internal schema alone too.
($rc, $out, $err) = psql_as($node, app => app => 'DROP SCHEMA ids, ids_internal', '-v', 'VERBOSITY=sqlstate');
like($err, qr/ERROR:  2BP01/, 'DROP SCHEMA without CASCADE refuses');
($rc, $out, $err) = psql_as($node, app => app => 'DROP SCHEMA ids_internal', '-v', 'VERBOSITY=sqlstate');
like($err, qr/ERROR:  2BP01/, 'so does DROP SCHEMA ids_internal alone');

# With the users dropped or changed (the generated column keeps its values), the removal drops
# the edition and its internal schema, and nothing else.
($rc, $out, $err) = psql_as($node, app => app => q{
ALTER TABLE orders ALTER COLUMN shard_key DROP EXPRESSION, ALTER COLUMN id DROP DEFAULT,
                   ALTER COLUMN v7 DROP DEFAULT, ALTER COLUMN seq DROP DEFAULT, DROP CONSTRAINT orders_seq_check;
DROP INDEX orders_time;
DROP VIEW orders_api;
DROP FUNCTION next_order(), next_upper(), next_quoted();
});
is($err, '', 'the users of the edition are changed or dropped');
# A function of the installer's own in ids, named like the edition's, made after the install.
($rc, $out, $err) = psql_as($node, app => app => q{CREATE FUNCTION ids.hot_uuidish_report() RETURNS integer LANGUAGE sql RETURN 1});
is($err, '', 'the installer makes ids.hot_uuidish_report() of its own');
($rc, $out, $err) = psql_as($node, app => app => undef, '-v', 'schema=ids', '-f', 'portable/locality_uuid_portable_remove.sql');
is($rc, 0, 'the removal then succeeds') or diag($err);
is($node->safe_psql('app', q{SELECT string_agg(oid::regprocedure::text, ', ' ORDER BY oid::regprocedure::text) FROM pg_proc
	WHERE pronamespace IN (SELECT oid FROM pg_namespace WHERE nspname IN ('ids', 'ids_internal'))
	UNION ALL SELECT count(*)::text FROM pg_namespace WHERE nspname IN ('ids', 'ids_internal')
	UNION ALL SELECT count(*)::text FROM pg_class WHERE relnamespace = 'ids'::regnamespace}), "ids.hot_uuidish_report()${own_core}\n1\n0",
	'no function or sequence of the edition is left, nor ids_internal; the schema ids stays, with the installer\'s own functions'
	. ($own_core ? ' (uuidv4() and uuid_extract_version(uuid) too, on 18)' : ''));
$node->safe_psql('app', 'DROP FUNCTION ids.hot_uuidish_report()');
is($node->safe_psql('app', q{SELECT count(*), count(DISTINCT id), sum(shard_key), count(v7), count(seq) FROM orders}),
	'11|11|77|11|11', 'every row and value is kept');

# Only the internal schema dropped with CASCADE: the generators with PL/pgSQL bodies stay and
# fail (42883); installing again makes the helpers anew and they work again.
install_portable($node, 'app', schema => 'ids', user => 'app');
($rc, $out, $err) = psql_as($node, app => app => 'DROP SCHEMA ids_internal CASCADE; SELECT ids.hot_uuid(1)', '-v', 'VERBOSITY=sqlstate');
like($err, qr/ERROR:  42883/, 'after DROP SCHEMA ids_internal CASCADE, hot_uuid fails with 42883');
install_portable($node, 'app', schema => 'ids', user => 'app');
is($node->safe_psql('app', 'SELECT ids.hot_uuid_shard_key(ids.hot_uuid(1))', extra_params => [ '-U', 'app' ]), '1',
	'installing again repairs it');
is($node->safe_psql('app', $edition), $functions, 'with every function of the edition');

# The removal of an edition that is not there says so.
($rc, $out, $err) = psql_as($node, app => app => undef, '-v', 'schema=public', '-f', 'portable/locality_uuid_portable_remove.sql');
like($err, qr/ERROR:  the portable edition of locality_uuid is not installed in schema public by app/, 'removing an edition that is not installed fails');

$node->stop;
done_testing();
