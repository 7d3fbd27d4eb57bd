# The two editions' catalogs, compared: the C extension in one database, the portable SQL edition
# in another, each function read from pg_proc and pg_description. Every function they share must
# have the same name, argument names, types and defaults, result, volatility, strictness,
# parallel safety, leakproofness, SECURITY and comment; every function one edition has alone, and
# every attribute that differs, must be in the allow-lists below, each with its reason (the
# differences docs/portable.md lists).
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# Functions of the C extension alone: they read or set what only C code has (shared memory,
# the host's MAC and name, pg_catalog) or plan from the server's memory.
my %C_ONLY = map { $_ => 1 } (
	'locality_uuid_state()',                  # which shared state the backend uses
	'locality_uuid_generators(double precision, double precision)',    # reads the shared state and the extension's sequences
	'locality_uuid_identity()',               # the identity read from the host
	'locality_uuid_release_core_names()',     # detaches core's names in pg_catalog before pg_upgrade
	'locality_uuid_block_advice(double precision, interval, bigint)',    # reads shared_buffers
	'uuidv7_made_support(internal)',          # a planner support function (rewrites uuidv7_made)
	'hot_uuid_made_support(internal)',        # a planner support function (rewrites hot_uuid_made)
	'locality_uuid_describe(uuid, timestamp with time zone)',    # the core's format rule (a SQL copy would be a second rule)
	'locality_uuid_column_report(regclass, name, integer)',      # the same rule on a sample, and the relcache
	'locality_uuid_survey(name)',             # tells the extension's generators by their membership of it
	'uuidv7_made_check_support(internal)',    # a planner support function (estimates uuidv7_made_check)
	'hot_uuid_made_check_support(internal)',  # a planner support function (estimates hot_uuid_made_check)
	'uuidv7_made_check(uuid, timestamp with time zone, timestamp with time zone)',      # the rewrite's check, for its estimate
	'hot_uuid_made_check(uuid, timestamp with time zone, timestamp with time zone)',    # the rewrite's check, for its estimate
	'uuidv7_made_check(uuid)',                # the rewrite's check (1.6)
	'hot_uuid_made_check(uuid)',              # the rewrite's check (1.6)
	'uuidv7_timestamp_support(internal)',     # a planner support function (loads the hook of the user's words)
	'hot_uuid_timestamp_support(internal)',   # a planner support function (loads the hook of the user's words)
);

# Functions of the portable edition alone: its session state, allocation numbers and the
# helpers its functions share, all named locality_uuid_portable_* and kept in <schema>_internal.
my $PORTABLE_ONLY = qr/^locality_uuid_portable_\w+\(/;

# Attributes that differ by design: function => { attribute => reason }.
my %SAME_BUT = (
	# The portable generators keep their state in temporary sequences, which parallel workers
	# may not write.
	'locality_uuid()' => { parallel => 'state in temporary sequences' },
	'locality_uuid(boolean)' => { parallel => 'state in temporary sequences' },
	'hot_uuid(bigint)' => { parallel => 'state in temporary sequences' },
	'uuidv7()' => { parallel => 'state in temporary sequences' },
	'uuidv7(interval)' => { parallel => 'state in temporary sequences' },
	# Only a superuser may mark a function LEAKPROOF; the portable edition installs without one.
	'uuid_extract_timestamp(uuid)' => { leakproof => 'needs a superuser' },
	'uuid_extract_version(uuid)' => { leakproof => 'needs a superuser' },
	'uuidv7_timestamp(uuid)' => { leakproof => 'needs a superuser' },
	# The comments name what each edition does differently: the C extension's allocation
	# sequences and cluster-wide order, the portable edition's session state.
	'hot_uuid(bigint, timestamp with time zone)' => { comment => 'names the C allocation sequence' },
	'uuidv7_ordered()' => { comment => 'ordered in the cluster (C) or the session (portable)' },
	'uuidv7_ordered(timestamp with time zone)' => { comment => 'names each edition\'s allocation sequence' },
	# The C extension defines locality_uuid.facade_key for superusers alone; the portable edition
	# reads a placeholder setting, which any role may set and read (docs/portable.md).
	'uuidv7_to_facade(uuid)' => { comment => 'superuser-only setting (C) or placeholder setting (portable)' },
	# pg_dump prints an unnamed parameter of a SQL-standard body as "" where it qualifies names,
	# and the restore fails: the portable edition names the sequence argument.
	'uuid_sequence_nextval(regclass, integer, integer)' => { arguments => 'an unnamed parameter does not dump' },
);

my @ATTRIBUTES = qw(arguments result volatility strict parallel leakproof security comment);

my $node = extension_node('portable_catalog', extension => 0);
$node->safe_psql('postgres', 'CREATE DATABASE c_edition; CREATE DATABASE p_edition');
$node->safe_psql('c_edition', 'CREATE EXTENSION locality_uuid');
install_portable($node, 'p_edition');

# name(identity argument types) => attribute => value, for the edition's functions of a
# database: those in public, and the extension's members elsewhere (core's names in pg_catalog).
sub catalog
{
	my ($db) = @_;
	my %funcs;
	my $rows = $node->safe_psql($db, q{
SELECT p.proname || '(' || pg_catalog.array_to_string(ARRAY(
           SELECT pg_catalog.format_type(t, NULL) FROM pg_catalog.unnest(p.proargtypes::oid[]) WITH ORDINALITY a(t, i)
           ORDER BY i), ', ') || ')',
       pg_catalog.pg_get_function_arguments(p.oid), pg_catalog.pg_get_function_result(p.oid),
       p.provolatile, p.proisstrict, p.proparallel, p.proleakproof, p.prosecdef,
       coalesce(pg_catalog.obj_description(p.oid, 'pg_proc'), '(none)')
FROM pg_catalog.pg_proc p
WHERE p.pronamespace = 'public'::regnamespace
   OR p.oid IN (SELECT d.objid FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid
                WHERE e.extname = 'locality_uuid' AND d.deptype = 'e' AND d.classid = 'pg_proc'::regclass)},
		extra_params => [ '-F', "\x1f", '-R', "\x1e" ]);
	for my $row (split /\x1e/, $rows)
	{
		my ($sig, @values) = split /\x1f/, $row, -1;
		@{ $funcs{$sig} }{@ATTRIBUTES} = @values;
	}
	return \%funcs;
}

my $c = catalog('c_edition');
my $p = catalog('p_edition');
cmp_ok(scalar keys %$c, '>=', 30, 'the C extension\'s functions are read');
cmp_ok(scalar keys %$p, '>=', 30, 'the portable edition\'s functions are read');

my @c_alone = grep { !exists $p->{$_} && !$C_ONLY{$_} } sort keys %$c;
is(join("\n", @c_alone), '', 'every function of the C extension is in the portable edition, or allowed not to be');
my @p_alone = grep { !exists $c->{$_} && $_ !~ $PORTABLE_ONLY } sort keys %$p;
is(join("\n", @p_alone), '', 'every function of the portable edition is in the C extension, or one of its own helpers');
is(join("\n", grep { $_ =~ $PORTABLE_ONLY } sort keys %$p), '', 'no helper of the portable edition is in its install schema');
is($node->safe_psql('p_edition', q{SELECT count(*) FILTER (WHERE proname LIKE 'locality\_uuid\_portable\_%'), count(*)
	FROM pg_proc WHERE pronamespace = 'public_internal'::regnamespace}),
	join('|', (portable_functions('internal') + ($node->pg_version < 18 ? 1 : 0)) x 2),
	'the helpers its sources make (and uuidv7\'s before 18) are in public_internal');
my @wrong_only = grep { exists $p->{$_} } sort keys %C_ONLY;
is(join("\n", @wrong_only), '', 'the functions allowed in the C extension alone are not in the portable edition');

# Every shared function: each attribute the same, or allowed to differ.
my (@differ, @allowed);
for my $sig (grep { exists $p->{$_} } sort keys %$c)
{
	for my $attr (@ATTRIBUTES)
	{
		next if $c->{$sig}{$attr} eq $p->{$sig}{$attr};
		my $line = "$sig $attr: C '$c->{$sig}{$attr}', portable '$p->{$sig}{$attr}'";
		if ($SAME_BUT{$sig}{$attr}) { push @allowed, $line; }
		else { push @differ, $line; }
	}
}
my $shared = grep { exists $p->{$_} } keys %$c;
cmp_ok($shared, '>=', 30, "$shared functions in both editions");
is(join("\n", @differ), '', 'the shared functions have the same arguments, defaults, result, labels and comments');
note("allowed: $_") for @allowed;

$node->stop;
done_testing();
