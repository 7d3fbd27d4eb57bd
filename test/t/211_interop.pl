# The extension's version 7 and version 4 ids as independent implementations read them: Python's
# uuid module (3.14 and later read a version 7 timestamp) and the npm uuid package (validate,
# version; the 48-bit millisecond field decoded in JavaScript) agree with the extension's
# extractors on version, variant and timestamp of 1000 ids of every such generator; and the
# extension reads their own version 7 ids right. On the server on PATH, and on 17
# (LOCALITY_UUID_OLD_INSTALL) too where test/core_upgrade.sh put it beside 18. Locality and
# shard-key ids carry no RFC version: they are not compared.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $count = 1000;

# The output of a command, or undef when it is missing or fails.
sub output_of
{
	my ($out, $err) = ('', '');
	my $ok = eval { IPC::Run::run([@_], '<', \undef, '>', \$out, '2>', \$err) };
	return $ok ? $out : undef;
}

# Python 3.14 or later: the first interpreter found that is one, or undef.
my ($python) = grep { (output_of($_, '-c', 'import sys; print(sys.version_info >= (3, 14))') // '') =~ /^True/ }
  qw(python3 python3.14 python3.15);
# node with the npm uuid package (NODE_PATH or node's own search path): the package's version.
my $node_uuid = output_of('node', '-e', 'const u = require("uuid"); if (typeof u.v7 !== "function") process.exit(1);
	console.log(require("uuid/package.json").version)');
chomp $node_uuid if defined $node_uuid;
plan skip_all => 'neither Python 3.14 nor node with the npm uuid package (10 or later) found'
  unless $python || $node_uuid;
note $python ? "python: $python" : 'no Python 3.14: Python is skipped';
note $node_uuid ? "npm uuid package $node_uuid" : 'no node with the uuid package: npm uuid is skipped';

# Each reader prints, per id read from the file named by its first argument, one line:
# "id version variant ms" ("-" for none; variant "rfc" or "other").
my $python_reader = q{
import sys, uuid
for line in open(sys.argv[1]):
    u = uuid.UUID(line.strip())
    v = u.version
    print(str(u), '-' if v is None else v, 'rfc' if u.variant == uuid.RFC_4122 else 'other', u.time if v == 7 else '-')
};
# The package has no timestamp reader: the 48-bit millisecond field is hex digits 0..11.
# validate() accepts versions 1 to 8 of the RFC variant only (and nil and max).
my $node_reader = q{
const { validate, version } = require('uuid');
const ids = require('fs').readFileSync(process.argv[1], 'utf8').split('\n').filter((s) => s);
for (const s of ids) {
	const ok = validate(s), v = ok ? version(s) : '-';
	console.log(s, v, ok ? 'rfc' : 'other', v === 7 ? parseInt(s.slice(0, 8) + s.slice(9, 13), 16) : '-');
}
};
# Each maker prints n version 7 ids of its own.
my $python_maker = 'import sys, uuid; [print(uuid.uuid7()) for _ in range(int(sys.argv[1]))]';
my $node_maker = 'const { v7 } = require("uuid"); for (let i = 0; i < +process.argv[1]; i++) console.log(v7())';

my %readers = (python => [ $python, '-c', $python_reader ], npm => [ 'node', '-e', $node_reader ]);
my %makers = (python => [ $python, '-c', $python_maker ], npm => [ 'node', '-e', $node_maker ]);
my %has = (python => $python, npm => $node_uuid);

# The extension's reading of ids in the same form: uuid_extract_version is NULL unless the
# variant is RFC 9562's.
sub extension_readings
{
	my ($node, $ids) = @_;
	my $array = '{' . join(',', @$ids) . '}';
	return $node->safe_psql('postgres', qq{SELECT u || ' ' || coalesce(v::text, '-') || ' '
		|| CASE WHEN v IS NULL THEN 'other' ELSE 'rfc' END || ' '
		|| coalesce((extract(epoch FROM } . v7_time_sql($node, 'u') . qq{) * 1000)::bigint::text, '-')
		FROM unnest('$array'::uuid[]) WITH ORDINALITY AS x(u, i),
		LATERAL (SELECT uuid_extract_version(u)) e(v) ORDER BY i});
}

# Run a reader or maker with its argument; returns its output.
sub run_tool
{
	my ($cmd, $arg) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ @$cmd, $arg ], '>', \$out, '2>', \$err) or die "@$cmd[0] failed: $err";
	return $out;
}

# The generators, as [name, expression over g = 1..count, version]; the five core names are
# the extension's up to 17 only.
sub generators
{
	my ($major) = @_;
	return (
		($major < 18
			? ([ 'uuidv7()', 'uuidv7()', 7 ],
				[ 'uuidv7(interval)', q{uuidv7(make_interval(days => g * 7 - 3500, secs => g * 0.001))}, 7 ],
				[ 'uuidv4()', 'uuidv4()', 4 ])
			: ()),
		[ 'uuidv7_ordered()', 'uuidv7_ordered()', 7 ],
		[ 'uuidv7_ordered(at)', q{uuidv7_ordered(timestamptz '2020-01-01 00:00:00+00' + g * interval '1 hour 0.0137 s')}, 7 ],
		[ 'uuidv7_lower(at)', q{uuidv7_lower(timestamptz '1971-01-01 00:00:00+00' + g * interval '97 days 0.001 s')}, 7 ],
		[ 'uuidv7_upper(at)', q{uuidv7_upper(timestamptz '1971-01-01 00:00:00+00' + g * interval '97 days 0.001 s')}, 7 ],
		[ 'uuid_sequence_nextval', q{uuid_sequence_nextval('interop_seq'::regclass)}, 4 ],
		[ 'uuid_time_nextval', 'uuid_time_nextval()', 4 ],
		[ 'uuid_time_nextval_interval', q{uuid_time_nextval_interval('100 ms'::interval, 16777216)}, 4 ]);
}

my @servers = (extension_node('interop_path', extension => 0));
my ($old_path, $why_not) = old_install();
if ($old_path)
{
	my $old = PostgreSQL::Test::Cluster->new('interop_old', install_path => $old_path);
	$old->init;
	$old->start;
	push @servers, $old;
}
else
{
	note "no second major: $why_not";
}

for my $server (@servers)
{
	my $major = $server->pg_version->major;
	$server->safe_psql('postgres', 'CREATE EXTENSION locality_uuid; CREATE SEQUENCE interop_seq');
	my $file = $server->basedir . '/ids.txt';
	for my $gen (generators($major))
	{
		my ($name, $expr, $version) = @$gen;
		my @ids = split /\n/, $server->safe_psql('postgres', "SELECT $expr FROM generate_series(1, $count) g");
		my $ext = extension_readings($server, \@ids);
		my $pattern = $version == 7 ? qr/ 7 rfc \d+$/m : qr/ 4 rfc -$/m;
		is(scalar(() = $ext =~ /$pattern/g), $count, "$major $name: $count ids of version $version, RFC variant");
		open my $fh, '>', $file or die "cannot write $file: $!";
		print $fh map { "$_\n" } @ids;
		close $fh;
		for my $impl (sort keys %readers)
		{
		  SKIP:
			{
				skip "no $impl", 1 unless $has{$impl};
				same_lines(run_tool($readers{$impl}, $file), $ext, "$major $name read by $impl");
			}
		}
	}
	for my $impl (sort keys %makers)
	{
	  SKIP:
		{
			skip "no $impl", 1 unless $has{$impl};
			my @ids = split /\n/, run_tool($makers{$impl}, $count);
			open my $fh, '>', $file or die "cannot write $file: $!";
			print $fh map { "$_\n" } @ids;
			close $fh;
			same_lines(extension_readings($server, \@ids), run_tool($readers{$impl}, $file),
				"$major: $count version 7 ids of $impl read by " . ($major < 18 ? 'the extension' : 'core'));
		}
	}
}

done_testing();
