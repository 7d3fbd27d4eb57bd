# The keyed facade against its reference and its secret. With LOCALITY_UUID_VENDOR: facades equal
# to uuidv47.h's (commit 81ba63f) for 1,000,000 random version 7 ids under as many random keys,
# both ways, in the C extension (and 10,000 of them in the portable edition); and both ways against
# uuidv47's own PostgreSQL extension, built from the same source, where it builds. Always: the
# setting locality_uuid.facade_key stays with superusers (SHOW, current_setting, pg_settings,
# SHOW ALL, SET; "(hidden)" to pg_read_all_settings), while any role makes facades with it, and
# no value of it reaches an error or the server log (but for the server's own "parameter changed"
# line on a reload, which docs/guarantees.md names).
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

my $key = '8f1e6b0a3c5d7e9f00112233445566aa';
my $node = extension_node('facade', preload => 1,
	conf => [ "locality_uuid.facade_key = '$key'", 'log_statement = none', 'log_min_messages = debug1' ]);
$node->safe_psql('postgres', q{CREATE ROLE app LOGIN; CREATE ROLE reader LOGIN IN ROLE pg_read_all_settings});

# Any role makes facades with the setting's key, equal to the key given as an argument.
my $id = '017f22e2-79b0-7cc3-98c4-dc0c0c07398f';
my $keyed = $node->safe_psql('postgres', qq{SELECT uuidv7_to_facade('$id', '\\x$key')});
my ($out, $err) = psql_states($node, 'postgres',
	qq{SELECT uuidv7_to_facade('$id'); SELECT uuidv7_from_facade(uuidv7_to_facade('$id'))}, user => 'app');
is($out, "$keyed\n$id", 'a role that is not a superuser makes facades and reads them back with the setting\'s key');
is($err, '', 'without an error');

# The value is the superuser's alone.
($out, $err) = psql_states($node, 'postgres', q{
	SHOW locality_uuid.facade_key;
	SELECT current_setting('locality_uuid.facade_key');
	SELECT count(*) FROM pg_settings WHERE name = 'locality_uuid.facade_key';
	SELECT count(*) FROM pg_show_all_settings() WHERE name = 'locality_uuid.facade_key';
	SET locality_uuid.facade_key = '00000000000000000000000000000000';
	ALTER ROLE app SET locality_uuid.facade_key = '00000000000000000000000000000000';
}, user => 'app');
is($out, "0\n0", 'not in pg_settings for another role');
is($err, join("\n", ('ERROR:  42501') x 4), 'SHOW, current_setting, SET and ALTER ROLE SET: 42501 for another role');
($out, $err) = psql_states($node, 'postgres', q{
	SHOW locality_uuid.facade_key;
	SELECT current_setting('locality_uuid.facade_key');
	SELECT count(*) FROM pg_settings WHERE name = 'locality_uuid.facade_key';
}, user => 'reader');
is($out, "(hidden)\n(hidden)\n0", 'a member of pg_read_all_settings reads "(hidden)", and no row of pg_settings');
$out = $node->safe_psql('postgres', q{SHOW locality_uuid.facade_key});
is($out, $key, 'a superuser reads the key');
$out = $node->safe_psql('postgres', q{SHOW ALL});
unlike($out, qr/facade_key|\Q$key\E/, 'SHOW ALL leaves it out, for a superuser too');

# Malformed values are taken without a word and refused, unquoted, where a facade needs them.
my $bad = 'not-a-key-but-a-secret-' . $$;
($out, $err) = psql_states($node, 'postgres', qq{
	SET locality_uuid.facade_key = '$bad';
	SELECT uuidv7_to_facade('$id');
	\\set VERBOSITY verbose
	SELECT uuidv7_to_facade('$id');
});
like($err, qr/^ERROR:  55000\nERROR:  55000: locality_uuid.facade_key is not a valid key/, 'a malformed key: 55000 where it is used');
unlike($err, qr/\Q$bad\E/, 'the error does not quote the value');
my $log = slurp_file($node->logfile);
unlike($log, qr/\Q$bad\E/, 'neither SET nor the refusal puts the value in the server log');
unlike($log, qr/\Q$key\E/, 'nor the key of postgresql.conf');

# The reference: uuidv47.h and uuidv47's extension, built from the vendored source.
SKIP:
{
	my ($src, $why) = vendor_source('uuidv47-81ba63f.tar.gz');
	skip "uuidv47 is not available: $why", 7 unless $src;
	my $work = PostgreSQL::Test::Utils::tempdir();

	# A generator of our own on uuidv47.h: n lines "key id facade" of random version 7 ids of
	# RFC 9562's variant (any time, any 74 bits) and random keys, from a fixed xorshift seed.
	my $count = 1_000_000;
	open my $fh, '>', "$work/vectors.c" or die "$work/vectors.c: $!";
	print $fh <<'C';
#include <stdio.h>
#include <stdlib.h>
#include "uuidv47.h"

static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint64_t
next64(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static void
put_uuid(const uint8_t *b)
{
	for (int i = 0; i < 16; i++)
		printf("%s%02x", (i == 4 || i == 6 || i == 8 || i == 10) ? "-" : "", b[i]);
}

int
main(int argc, char **argv)
{
	long		n = atol(argv[1]);

	for (long i = 0; i < n; i++)
	{
		uint8_t		kb[16];
		uuid128_t	id;
		uint64_t	a = next64(), b = next64(), c = next64(), d = next64();

		for (int j = 0; j < 8; j++)
		{
			kb[j] = (uint8_t) (a >> (8 * j));
			kb[8 + j] = (uint8_t) (b >> (8 * j));
			id.b[j] = (uint8_t) (c >> (8 * j));
			id.b[8 + j] = (uint8_t) (d >> (8 * j));
		}
		id.b[6] = (uint8_t) ((id.b[6] & 0x0f) | 0x70);
		id.b[8] = (uint8_t) ((id.b[8] & 0x3f) | 0x80);

		uuidv47_key_t key = {rd64le(kb), rd64le(kb + 8)};
		uuid128_t	facade = uuidv47_encode_v4facade(id, key);

		for (int j = 0; j < 16; j++)
			printf("%02x", kb[j]);
		putchar(' ');
		put_uuid(id.b);
		putchar(' ');
		put_uuid(facade.b);
		putchar('\n');
	}
	return 0;
}
C
	close $fh;
	my ($cout, $cerr) = ('', '');
	IPC::Run::run([ 'cc', '-O2', '-I', $src, '-o', "$work/vectors", "$work/vectors.c" ], '>', \$cout, '2>', \$cerr)
	  or die "building the uuidv47.h generator failed:\n$cout$cerr";
	IPC::Run::run([ "$work/vectors", $count ], '>', "$work/vectors.txt") or die 'the uuidv47.h generator failed';

	$node->safe_psql('postgres', qq{
		CREATE TABLE ref (k text, id uuid, facade uuid);
		COPY ref FROM '$work/vectors.txt' WITH (DELIMITER ' ');
		ALTER TABLE ref ADD COLUMN key bytea;
		UPDATE ref SET key = decode(k, 'hex');
		VACUUM ANALYZE ref;
	});
	$out = $node->safe_psql('postgres', q{
		SELECT count(*), count(*) FILTER (WHERE uuidv7_to_facade(id, key) = facade),
		       count(*) FILTER (WHERE uuidv7_from_facade(facade, key) = id),
		       count(DISTINCT key)
		FROM ref});
	is($out, "$count|$count|$count|$count", "C extension: $count facades of random ids under random keys equal uuidv47.h's, both ways");

	# The portable edition, on the first 10,000.
	$node->safe_psql('postgres', 'CREATE DATABASE portable');
	install_portable($node, 'portable');
	$node->safe_psql('portable', qq{
		CREATE TABLE ref (k text, id uuid, facade uuid);
		COPY ref FROM PROGRAM 'head -n 10000 $work/vectors.txt' WITH (DELIMITER ' ');
	});
	$out = $node->safe_psql('portable', q{
		SELECT count(*), count(*) FILTER (WHERE uuidv7_to_facade(id, decode(k, 'hex')) = facade),
		       count(*) FILTER (WHERE uuidv7_from_facade(facade, decode(k, 'hex')) = id)
		FROM ref});
	is($out, '10000|10000|10000', 'portable edition: 10000 of them, both ways');

	# uuidv47's extension (a type uuid47 that stores version 7 and shows the facade), built
	# against this server and loaded from its build directory.
	my $pg_config = $ENV{PG_CONFIG} // $node->config_data('--bindir') . '/pg_config';
	my ($mout, $merr) = ('', '');
	my $built = IPC::Run::run([ 'make', '-C', "$src/pgext/uuid47", "PG_CONFIG=$pg_config" ],
		'>', \$mout, '2>', \$merr);
	skip "uuidv47's extension does not build against " . `$pg_config --version` . ":\n$merr", 5 unless $built;
	my $script = slurp_file("$src/pgext/uuid47/sql/uuid47--1.0.sql");
	$script =~ s/\$libdir\/uuid47/$src\/pgext\/uuid47\/uuid47.so/g;
	$node->safe_psql('postgres', "CREATE SCHEMA uuid47; SET search_path = uuid47, public;\n$script");
	note 'uuidv47 extension built against ' . `$pg_config --version`;

	# To the facade: uuidv47 takes a version 7 uuid as it is, and shows it under a key.
	$out = $node->safe_psql('postgres', q{
		SET search_path = uuid47, public;
		SELECT count(*) FILTER (WHERE uuid47_to_uuid_with_key(uuid_to_uuid47_with_key(id, key), key) = facade),
		       count(*) FILTER (WHERE uuid47_to_uuid_with_key(uuid_to_uuid47_with_key(id, key), key) = uuidv7_to_facade(id, key))
		FROM ref});
	is($out, "$count|$count", "to the facade: uuidv47's extension gives the same $count facades");
	# Back: uuidv47 decodes a version-4-looking uuid under a key into its version 7.
	$out = $node->safe_psql('postgres', q{
		SET search_path = uuid47, public;
		SELECT count(*) FILTER (WHERE uuid47_as_v7(uuid_to_uuid47_with_key(facade, key)) = uuidv7_from_facade(facade, key))
		FROM ref});
	is($out, $count, "from the facade: uuidv47's extension gives the same $count ids");

	# The ids the extension makes, through uuidv47's extension and back through ours.
	$out = $node->safe_psql('postgres', qq{
		SET search_path = uuid47, public;
		WITH made AS (SELECT uuidv7() AS id FROM generate_series(1, 10000)
		              UNION ALL SELECT uuidv7_ordered() FROM generate_series(1, 10000)
		              UNION ALL SELECT uuidv7_ordered(now() - i * interval '1 ms') FROM generate_series(1, 10000) i)
		SELECT count(*) FILTER (WHERE uuidv7_from_facade(uuid47_to_uuid_with_key(uuid_to_uuid47_with_key(id, '\\x$key'), '\\x$key'), '\\x$key') = id),
		       count(*) FILTER (WHERE uuid47_as_v7(uuid_to_uuid47_with_key(uuidv7_to_facade(id), '\\x$key')) = id)
		FROM made});
	is($out, '30000|30000', 'uuidv7(), uuidv7_ordered() and uuidv7_ordered(at) ids: each direction in one extension, the other in the other');

	# Version 7 ids of another variant: uuidv47 forces RFC 9562's; the extension refuses them.
	($out, $err) = psql_states($node, 'postgres', q{
		SET search_path = uuid47, public;
		SELECT uuid47_to_uuid_with_key(uuid_to_uuid47_with_key('017f22e2-79b0-7cc3-d8c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f'), '\x000102030405060708090a0b0c0d0e0f');
		SELECT uuidv7_to_facade('017f22e2-79b0-7cc3-d8c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f');
	});
	like($out, qr/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-9[0-9a-f]{3}-/, 'uuidv47 maps a version 7 of variant 11 to a facade of variant 10');
	is($err, 'ERROR:  22023', 'the extension refuses it (22023)');
}

done_testing();
