# Update scripts: for every older version with an update path to the default version,
# CREATE EXTENSION ... VERSION 'old' followed by ALTER EXTENSION ... UPDATE must leave the same
# database as a fresh CREATE EXTENSION: same pg_dump --schema-only, same member objects
# (pg_dump --binary-upgrade dumps them one by one), same labels, comments and argument names.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use Test::More;

my $node = extension_node('upgrade', extension => 0);
my $q = sub { $node->safe_psql(@_) };

my $default = $q->('postgres', q{SELECT default_version FROM pg_available_extensions WHERE name = 'locality_uuid'});
my @old = split /\n/, $q->(
	'postgres', qq{
	SELECT v.version FROM pg_available_extension_versions v
	JOIN pg_extension_update_paths('locality_uuid') p
	  ON p.source = v.version AND p.target = '$default' AND p.path IS NOT NULL
	WHERE v.name = 'locality_uuid' AND v.version <> '$default'
	ORDER BY v.version});
cmp_ok(scalar @old, '>', 0, "versions with an update path to the default version $default: @old");

# Without an install script of its own, CREATE EXTENSION of the default version runs the
# oldest install script and the update chain, so both sides below are made the same way.
my $script = $node->config_data('--sharedir') . "/extension/locality_uuid--$default.sql";
note "no locality_uuid--$default.sql: a fresh CREATE EXTENSION runs the update chain too"
  unless -f $script;

# pg_dump of a database with extra options; the \restrict key is random per dump, and the
# OIDs that a binary-upgrade dump pins differ per database.
sub dump_schema
{
	my ($db, @opts) = @_;
	my ($out, $err);
	IPC::Run::run([ 'pg_dump', '--schema-only', @opts, '-d', $node->connstr($db) ], '>', \$out, '2>', \$err)
	  or die "pg_dump $db failed: $err";
	$out =~ s/'\d+'::pg_catalog\.oid/'OID'::pg_catalog.oid/g;
	$out =~ s/(binary_upgrade_create_empty_extension\([^)]*?)'\{[\d,]+\}'/$1'{OIDS}'/g;
	return join("\n", grep { !/^\\(un)?restrict / } split /\n/, $out);
}

# Every member object of the extension: identity, comment, and for functions their labels,
# result, arguments with names and defaults, and whole definition.
my $members = q{
SELECT string_agg(line, E'\n' ORDER BY line) FROM (
  SELECT pg_describe_object(d.classid, d.objid, d.objsubid)
    || E'\n  comment: ' || coalesce(obj_description(d.objid, d.classid::regclass::name), '(none)')
    || coalesce(E'\n  labels: volatility ' || p.provolatile::text || ', parallel ' || p.proparallel::text
      || ', strict ' || p.proisstrict || ', security definer ' || p.prosecdef
      || ', leakproof ' || p.proleakproof || ', cost ' || p.procost || ', rows ' || p.prorows
      || E'\n  arguments: ' || pg_get_function_arguments(p.oid)
      || E'\n  argument names: ' || coalesce(p.proargnames::text, '(none)')
      || E'\n  result: ' || pg_get_function_result(p.oid)
      || E'\n  config: ' || coalesce(p.proconfig::text, '(none)')
      || E'\n  acl: ' || coalesce(p.proacl::text, '(default)')
      || CASE WHEN p.prokind IN ('f', 'p') THEN E'\n' || pg_get_functiondef(p.oid) ELSE '' END, '') AS line
  FROM pg_depend d
  JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
  LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
  WHERE e.extname = 'locality_uuid' AND d.deptype = 'e'
  UNION ALL
  SELECT 'extension ' || extname || ' ' || extversion || ', relocatable ' || extrelocatable
    || ', config ' || coalesce(extconfig::regclass[]::text, '(none)') || E'\n  comment: '
    || coalesce(obj_description(oid, 'pg_extension'), '(none)')
  FROM pg_extension WHERE extname = 'locality_uuid') s};

# Report the first differing lines of two texts.
sub first_difference
{
	my ($got, $want) = @_;
	my @g = split /\n/, $got;
	my @w = split /\n/, $want;
	for my $i (0 .. ($#g > $#w ? $#g : $#w))
	{
		my ($x, $y) = ($g[$i] // '(end)', $w[$i] // '(end)');
		return 'line ' . ($i + 1) . ":\n  updated: $x\n  fresh:   $y" if $x ne $y;
	}
	return '';
}

$q->('postgres', 'CREATE DATABASE fresh');
$q->('fresh', 'CREATE EXTENSION locality_uuid');
is($q->('fresh', q{SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'}), $default,
	"fresh CREATE EXTENSION installs the default version $default");
my %fresh = (
	dump => dump_schema('fresh'),
	members => dump_schema('fresh', '--binary-upgrade'),
	catalog => $q->('fresh', $members));
like($fresh{members}, qr/binary_upgrade_create_empty_extension\('locality_uuid', 'public', true, '\Q$default\E'/,
	'the binary-upgrade dump names the extension and its version');

for my $v (@old)
{
	my $db = 'from_' . ($v =~ s/\W/_/gr);
	$q->('postgres', "CREATE DATABASE $db");
	$q->($db, "CREATE EXTENSION locality_uuid VERSION '$v'");
	is($q->($db, q{SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'}), $v, "$v installs");
	$q->($db, 'ALTER EXTENSION locality_uuid UPDATE');
	is($q->($db, q{SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'}), $default,
		"$v -> $default: ALTER EXTENSION UPDATE reaches the default version");
	my %got = (
		dump => dump_schema($db),
		members => dump_schema($db, '--binary-upgrade'),
		catalog => $q->($db, $members));
	ok($got{dump} eq $fresh{dump}, "$v -> $default: pg_dump --schema-only equal to a fresh install")
	  or diag first_difference($got{dump}, $fresh{dump});
	ok($got{members} eq $fresh{members},
		"$v -> $default: every member object equal (pg_dump --binary-upgrade --schema-only)")
	  or diag first_difference($got{members}, $fresh{members});
	ok($got{catalog} eq $fresh{catalog},
		"$v -> $default: every member's labels, comment, argument names and definition equal")
	  or diag first_difference($got{catalog}, $fresh{catalog});
}

done_testing();
