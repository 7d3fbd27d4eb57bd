# Shared helpers of the TAP tests in test/t: nodes with the extension, the generator list,
# psql runs judged by SQLSTATE, background sessions and plans read from EXPLAIN (FORMAT JSON).
package LocalityUuid;

use strict;
use warnings FATAL => 'all';

use Exporter 'import';
use IPC::Run;
use JSON::PP;
use POSIX ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();

our @EXPORT = qw(
  @GENERATORS $GENERATOR_SETUP
  extension_node state_kinds parallel_guc psql_states session_states start_psql finish_psql
  as psql_as gen_sql
  plan_nodes count_nodes vendor_source install_portable portable_functions long_call
  libfaketime fake_clock_env start_on_fake_clock set_fake_clock frozen_clock_spec
  v7_time_sql pg_upgrade_into
  installed_major old_install same_lines run_program
);

# Every generator the cluster tests exercise, as [name, SQL expression]. The expression is
# usable as a column DEFAULT and in a SELECT list; it may use the objects of $GENERATOR_SETUP.
# Both block generators on a sequence share one, as several tables sharing a sequence would.
# A new generator is one more entry here: load, dump/restore and restart tests pick it up.
our @GENERATORS = (
	[ locality_variable => 'locality_uuid(false)' ],
	[ locality_sequential => 'locality_uuid(true)' ],
	[ locality_setting => 'locality_uuid()' ],
	[ block_seq => q{uuid_sequence_nextval('rel_shared_seq'::regclass)} ],
	[ block_seq_small => q{uuid_sequence_nextval('rel_shared_seq'::regclass, 100, 256)} ],
	[ block_time => 'uuid_time_nextval()' ],
	[ block_time_short => 'uuid_time_nextval(1, 16)' ],
	[ block_time_ms => q{uuid_time_nextval_interval('100 ms'::interval, 16777216)} ],
	[ hot_keys => 'hot_uuid(floor(random() * 4)::bigint)' ],
	[ hot_at => 'hot_uuid(floor(random() * 4)::bigint, now())' ],
	[ v7_ordered => 'uuidv7_ordered()' ],
	[ v7_ordered_at => 'uuidv7_ordered(now())' ],
);

# Objects the generator expressions need, created once per database before any table.
our $GENERATOR_SETUP = 'CREATE SEQUENCE IF NOT EXISTS rel_shared_seq;';

# Make, configure and start a node; create the extension in database postgres unless
# extension => 0. conf => [lines] go after the framework's own settings; preload => 1 puts the
# library in shared_preload_libraries; init => {...} are arguments of the framework's init
# (allows_streaming => 1 for a node to copy); clock => FILE starts it on the fake clock of FILE
# (start_on_fake_clock).
sub extension_node
{
	my ($name, %opts) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(%{ $opts{init} // {} });
	$node->append_conf('postgresql.conf',
		join("\n", ($opts{preload} ? q{shared_preload_libraries = 'locality_uuid'} : ()), @{ $opts{conf} // [] }));
	if (defined $opts{clock})
	{
		start_on_fake_clock($node, $opts{clock});
	}
	else
	{
		$node->start;
	}
	$node->safe_psql('postgres', 'CREATE EXTENSION locality_uuid')
	  if $opts{extension} // 1;
	return $node;
}

# The kinds of generator state of the PostgreSQL on PATH, each a hash: name (for a node), preload
# (the library in shared_preload_libraries), state (what locality_uuid_state() says) and shared
# (one state for every backend). From 17 the DSM registry shares it, preloaded or not: one kind,
# not preloaded. On 15 and 16 it is shared only when preloaded, else kept per backend: two kinds.
sub state_kinds
{
	my ($major) = installed_major();
	die 'no pg_config on PATH' unless defined $major;
	return { name => 'plain', preload => 0, state => 'dsm_registry', shared => 1 } if $major >= 17;
	return (
		{ name => 'preload', preload => 1, state => 'preload', shared => 1 },
		{ name => 'plain', preload => 0, state => 'backend', shared => 0 });
}

# Run new's pg_upgrade from old (stopped) into new (made by init, stopped), with extra options;
# returns (ok, its output, the logs pg_upgrade kept in new's data directory).
sub pg_upgrade_into
{
	my ($old, $new, @extra) = @_;
	my $cwd = PostgreSQL::Test::Utils::tempdir();
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(
		[
			$new->installed_command('pg_upgrade'), '--no-sync', @extra,
			'-d', $old->data_dir, '-D', $new->data_dir,
			'-b', $old->config_data('--bindir'), '-B', $new->config_data('--bindir'),
			'-p', $old->port, '-P', $new->port, '-s', $new->host
		],
		'>', \$out, '2>', \$err, init => sub { chdir $cwd });
	my $logs = join '', map { PostgreSQL::Test::Utils::slurp_file($_) }
	  glob($new->data_dir . '/pg_upgrade_output.d/*/log/*.log');
	return ($ok, "$out$err", $logs);
}

# The SQL expression of the time of uuid col as the extension reads it on node: core's
# uuid_extract_timestamp, except on 17, whose core function reads version 1 only, where
# uuidv7_timestamp reads version 7.
sub v7_time_sql
{
	my ($node, $col) = @_;
	return int($node->pg_version->major) == 17
	  ? "coalesce(uuidv7_timestamp($col), uuid_extract_timestamp($col))"
	  : "uuid_extract_timestamp($col)";
}

# The path of libfaketime (Debian package faketime; or $LIBFAKETIME), or undef.
sub libfaketime
{
	my ($lib) = grep { -r $_ } (
		$ENV{LIBFAKETIME} // (),
		glob('/usr/lib/*/faketime/libfaketime.so.1'),
		'/usr/lib/faketime/libfaketime.so.1', '/usr/local/lib/faketime/libfaketime.so.1');
	return $lib;
}

# The major of the PostgreSQL whose pg_config is bindir/pg_config (PATH when bindir is undef)
# and whether the extension is installed there: (major, true/false), or () without pg_config.
sub installed_major
{
	my ($bindir) = @_;
	my $pg_config = defined $bindir ? "$bindir/pg_config" : 'pg_config';
	return () if defined $bindir && !-x $pg_config;
	my ($version, $sharedir) = ('', '');
	IPC::Run::run([ $pg_config, '--version' ], '>', \$version, '2>', \my $e1) or return ();
	IPC::Run::run([ $pg_config, '--sharedir' ], '>', \$sharedir, '2>', \my $e2) or return ();
	chomp $sharedir;
	my ($major) = $version =~ /PostgreSQL (\d+)/ or return ();
	return ($major, -f "$sharedir/extension/locality_uuid.control" ? 1 : 0);
}

# An older major (15 to 17) beside the one on PATH, for the tests that move to core's names
# (LOCALITY_UUID_OLD_INSTALL, default /usr/lib/postgresql/17): its install path, or
# (undef, why not) unless it has the extension and PATH's PostgreSQL is 18 or later with it.
sub old_install
{
	my $path = $ENV{LOCALITY_UUID_OLD_INSTALL} // '/usr/lib/postgresql/17';
	my ($new, $new_ext) = installed_major();
	return (undef, 'no pg_config on PATH') unless defined $new;
	return (undef, "PostgreSQL $new on PATH: core's uuidv7 needs 18 or later") if $new < 18;
	return (undef, "the extension is not installed for PostgreSQL $new") unless $new_ext;
	my ($old, $old_ext) = installed_major("$path/bin");
	return (undef, "no PostgreSQL in $path (LOCALITY_UUID_OLD_INSTALL)") unless defined $old;
	return (undef, "$path is PostgreSQL $old, not 15 to 17") if $old < 15 || $old > 17;
	return (undef, "the extension is not installed for PostgreSQL $old in $path") unless $old_ext;
	return ($path);
}

# Run a program (pg_dump, pg_restore, psql); returns (ok, stderr).
sub run_program
{
	my (@cmd) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(\@cmd, '>', \$out, '2>', \$err);
	return ($ok, $err);
}

# Test that text got has the lines of want, in order; on failure name the first five that differ.
sub same_lines
{
	my ($got, $want, $name) = @_;
	my @g = split /\n/, $got;
	my @w = split /\n/, $want;
	my $last = $#g > $#w ? $#g : $#w;
	my @diff = grep { ($g[$_] // '(none)') ne ($w[$_] // '(none)') } 0 .. $last;
	is(scalar @diff, 0, "$name: " . scalar(@w) . ' lines, all the same')
	  or diag join "\n", map { "line $_: got '" . ($g[$_] // '(none)') . "', want '" . ($w[$_] // '(none)') . "'" }
	  @diff[ 0 .. ($#diff < 4 ? $#diff : 4) ];
	return;
}

# The setting that runs parallel-safe calls in a worker: renamed in PostgreSQL 16.
sub parallel_guc
{
	my ($node) = @_;
	return $node->pg_version >= 16 ? 'debug_parallel_query' : 'force_parallel_mode';
}

# Run SQL through psql with VERBOSITY=sqlstate, going on after errors. Returns stdout and
# the error and warning lines of stderr as "ERROR:  42501" (psql's script prefix removed).
# user => ROLE connects as that role; options => '-c name=value' sets PGOPTIONS-style options;
# conn => 'key=value ...' adds connection parameters (application_name: the framework sets
# PGAPPNAME, which wins over options).
sub psql_states
{
	my ($node, $db, $sql, %opts) = @_;
	my $connstr = $node->connstr($db);
	$connstr .= " user=$opts{user}" if defined $opts{user};
	$connstr .= " options='$opts{options}'" if defined $opts{options};
	$connstr .= " $opts{conn}" if defined $opts{conn};
	my ($out, $err) = ('', '');
	$node->psql(
		$db, $sql,
		connstr => $connstr,
		stdout => \$out,
		stderr => \$err,
		on_error_stop => 0,
		extra_params => [ '-v', 'VERBOSITY=sqlstate' ]);
	return ($out, error_lines($err));
}

# Run SQL as user (undef: the superuser) on db of node: "stdout|error states" (psql_states;
# %opts as there, e.g. options => '-c name=value').
sub as
{
	my ($node, $user, $db, $sql, %opts) = @_;
	my ($out, $states) = psql_states($node, $db, $sql, user => $user, %opts);
	return "$out|$states";
}

# Run psql as role on db of node (as orders them so), SQL (undef: none) then extra psql arguments (-f FILE, -v ...):
# (exit code, stdout, stderr).
sub psql_as
{
	my ($node, $role, $db, $sql, @params) = @_;
	my ($stdout, $stderr);
	my $rc = $node->psql($db, $sql, stdout => \$stdout, stderr => \$stderr,
		extra_params => [ '-U', $role, @params ]);
	return ($rc, $stdout, $stderr);
}

# The statement that inserts count ids of each kind into table ids (who, kind, u), the kinds
# interleaved in the order given: hot, seq and var (the default), at (explicit time), v7, ord.
my %GEN_KIND = (
	hot => 'hot_uuid(g % 3)',
	seq => 'locality_uuid(true)',
	var => 'locality_uuid(false)',
	at => q{hot_uuid(g % 3, '2020-01-01 00:00:00+00')},
	v7 => 'uuidv7()',
	ord => 'uuidv7_ordered()');

sub gen_sql
{
	my ($who, $count, @kinds) = @_;
	@kinds = qw(hot seq var) unless @kinds;
	my $case = join ' ', map { "WHEN '$_' THEN " . ($GEN_KIND{$_} // die "gen_sql: no kind $_") } @kinds;
	my $values = join ', ', map { "('$_')" } @kinds;
	return qq{INSERT INTO ids (who, kind, u)
		SELECT '$who', k, CASE k $case END
		FROM generate_series(1, $count) g, (VALUES $values) v(k)};
}

# The same in a session of the framework's background_psql (made with on_error_stop => 0):
# the backend stays, and so does VERBOSITY=sqlstate.
sub session_states
{
	my ($session, $sql) = @_;
	my $out = $session->query("\\set VERBOSITY sqlstate\n$sql");
	my $err = $session->{stderr};
	$session->{stderr} = '';
	return ($out, error_lines($err));
}

# The error and warning lines of psql's stderr, without psql's script prefix, one string.
sub error_lines
{
	my ($err) = @_;
	return join "\n", map { s/^psql:[^:]*:\d+: //r } grep { /\b(ERROR|WARNING|FATAL):/ } split /\n/, $err;
}

# Start psql on SQL in the background; finish_psql waits for it. Returns a handle whose
# {out} and {err} hold the output (psql's script prefix removed from {err}). options and conn as in psql_states. The SQL goes
# through files: IPC::Run moves a scalar's data only while its own harness is pumped.
my $script_count = 0;

sub start_psql
{
	my ($node, $db, $sql, %opts) = @_;
	my $connstr = $node->connstr($db);
	$connstr .= " options='$opts{options}'" if defined $opts{options};
	$connstr .= " $opts{conn}" if defined $opts{conn};
	my $file = $node->basedir . '/session_' . ++$script_count . '.sql';
	PostgreSQL::Test::Utils::append_to_file($file, $sql);
	my %h = (out => '', err => '', outfile => "$file.out", errfile => "$file.err");
	$h{run} = IPC::Run::start(
		[
			$node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1',
			'-v', 'VERBOSITY=sqlstate', '-d', $connstr, '-f', $file
		],
		'<', '/dev/null', '>', $h{outfile}, '2>', $h{errfile});
	return \%h;
}

# Wait for a start_psql session; true when psql exited with status 0.
sub finish_psql
{
	my ($h) = @_;
	$h->{run}->finish;
	$h->{out} = PostgreSQL::Test::Utils::slurp_file($h->{outfile});
	$h->{err} = PostgreSQL::Test::Utils::slurp_file($h->{errfile});
	chomp($h->{out}, $h->{err});
	$h->{err} =~ s/^psql:[^:]*:\d+: //mg;
	return $h->{run}->result == 0;
}

# The plan of a statement as a flat list of plan nodes (hashes of EXPLAIN (FORMAT JSON)).
# setup => SQL runs first in the same session (SET, PREPARE); explain => 'VERBOSE, ' adds options.
sub plan_nodes
{
	my ($node, $db, $stmt, %opts) = @_;
	my $sql = ($opts{setup} // '') . "\nEXPLAIN (" . ($opts{explain} // '') . "COSTS OFF, FORMAT JSON) $stmt";
	my $json = $node->safe_psql($db, $sql);
	$json =~ s/^[^\[]*//s;    # output of the setup statements (SET prints nothing, PREPARE nothing)
	my $doc = decode_json($json);
	my @nodes;
	my @todo = ($doc->[0]{Plan});
	while (my $p = shift @todo)
	{
		push @nodes, $p;
		push @todo, @{ $p->{Plans} // [] };
	}
	return @nodes;
}

# How many plan nodes have this "Node Type" (and, if given, this "Relation Name").
sub count_nodes
{
	my ($nodes, $type, $relation) = @_;
	return scalar grep {
		$_->{'Node Type'} eq $type
		  && (!defined $relation || ($_->{'Relation Name'} // '') eq $relation)
	} @$nodes;
}

# Unpack FILE of the vendor directory (LOCALITY_UUID_VENDOR: other projects' source tarballs with
# their SHA256SUMS) into a new temporary directory, after checking it against its line there.
# Returns the unpacked top directory, or (undef, why not) when the directory or the file is
# absent; dies when the file does not match its checksum.
sub vendor_source
{
	my ($file) = @_;
	my $vendor = $ENV{LOCALITY_UUID_VENDOR};
	return (undef, 'LOCALITY_UUID_VENDOR is not set (a directory of source tarballs with SHA256SUMS)')
	  unless $vendor;
	return (undef, "no $vendor/$file") unless -f "$vendor/$file";
	my ($want) = map { /^([0-9a-f]{64})\s+\*?\Q$file\E$/ ? $1 : () }
	  split /\n/, PostgreSQL::Test::Utils::slurp_file("$vendor/SHA256SUMS");
	die "$file is not listed in $vendor/SHA256SUMS" unless $want;
	require Digest::SHA;
	my $have = Digest::SHA->new(256)->addfile("$vendor/$file")->hexdigest;
	die "$vendor/$file does not match SHA256SUMS (sha256 $have, listed $want)" unless $have eq $want;
	my $dir = PostgreSQL::Test::Utils::tempdir();
	IPC::Run::run([ 'tar', '-C', $dir, '-xzf', "$vendor/$file" ]) or die "cannot unpack $vendor/$file";
	my ($top) = grep { -d } glob("$dir/*");
	return $top;
}

# Install the portable SQL edition into schema (default public) of database db with psql -f,
# as the node's superuser unless user => ROLE; dies on failure.
sub install_portable
{
	my ($node, $db, %opts) = @_;
	my $stderr;
	my $rc = $node->psql($db, undef, stderr => \$stderr, on_error_stop => 1,
		extra_params => [ '-v', 'schema=' . ($opts{schema} // 'public'),
			(defined $opts{user} ? ('-U', $opts{user}) : ()),
			'-f', 'portable/locality_uuid_portable.sql' ]);
	die "installing the portable edition failed: $stderr" if $rc != 0;
	return;
}

# How many functions the portable edition makes in its schema ('extschema') or in its helpers'
# schema ('internal'), counted in its sources by test/portable/functions.sh (core's names aside).
sub portable_functions
{
	my ($schema) = @_;
	my $count = `sh test/portable/functions.sh $schema`;
	die "test/portable/functions.sh $schema failed" if $? != 0;
	chomp $count;
	return $count;
}

# The environment under which a server started (local @ENV{...}) reads its clock from
# clock_file, read again at every clock reading (about 6 us each); the monotonic clock stays real.
sub fake_clock_env
{
	my ($clock_file) = @_;
	return (
		LD_PRELOAD => libfaketime(),
		FAKETIME_TIMESTAMP_FILE => $clock_file,
		FAKETIME_NO_CACHE => '1',
		FAKETIME_DONT_FAKE_MONOTONIC => '1',
		TZ => 'UTC');
}

# Write a libfaketime spec ('+0', '-3600', or a frozen_clock_spec) to clock_file at once (rename):
# every server started with fake_clock_env reads it at its next clock reading (FAKETIME_NO_CACHE),
# one started later from its start.
sub set_fake_clock
{
	my ($clock_file, $spec) = @_;
	open my $fh, '>', "$clock_file.tmp" or die "could not write $clock_file.tmp: $!";
	print $fh "$spec\n";
	close $fh;
	rename "$clock_file.tmp", $clock_file or die "could not rename to $clock_file: $!";
	return;
}

# A libfaketime spec that freezes the clock at Unix time t (seconds, to the millisecond).
sub frozen_clock_spec
{
	my ($t) = @_;
	my $s = POSIX::floor($t);
	return POSIX::strftime('%Y-%m-%d %H:%M:%S', gmtime($s)) . sprintf('.%03d', int(($t - $s) * 1000 + 0.5));
}

# Start the node with its postmaster (and so every backend) on the clock of file, in UTC.
sub start_on_fake_clock
{
	my ($node, $file) = @_;
	my %env = fake_clock_env($file);
	local @ENV{ keys %env } = values %env;
	$node->start;
	return;
}

# Run SELECT count(call) over 10^10 rows g in database postgres and check that it stops with
# 57014 within a second: of its statement_timeout of 500 ms (how => 'timeout'; on a running
# clock), or of a pg_cancel_backend (how => 'cancel'; PostgreSQL's own timeouts read the wall
# clock, so statement_timeout cannot fire while a fake clock is frozen). Test names start
# with label.
sub long_call
{
	my ($node, $call, $how, $label) = @_;
	my $sql = "SELECT count($call) FROM generate_series(1, 10000000000) g /* long_call */";
	$sql = "SET statement_timeout = '500ms'; $sql" if $how eq 'timeout';
	my ($out, $err) = ('', '');
	my $t0 = Time::HiRes::time();
	my $h = IPC::Run::start(
		[ 'psql', '-XAtq', '-v', 'VERBOSITY=sqlstate', '-d', $node->connstr('postgres'), '-c', $sql ],
		'>', \$out, '2>', \$err);
	if ($how eq 'cancel')
	{
		$node->poll_query_until('postgres',
			q{SELECT count(*) = 1 FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%/* long_call */%' AND pid <> pg_backend_pid()})
		  or die 'long call did not start';
		Time::HiRes::sleep(0.3);
		# Timed from the moment the signal is sent (pg_cancel_backend has returned).
		is($node->safe_psql('postgres',
			q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%/* long_call */%' AND pid <> pg_backend_pid()}),
			't', "$label$call: cancel sent");
		$t0 = Time::HiRes::time();
	}
	else
	{
		$t0 += 0.5;
	}
	$h->finish;
	my $elapsed = Time::HiRes::time() - $t0;
	my ($state) = $err =~ /ERROR:\s+([0-9A-Z]{5})/;
	is($state // 'none', '57014', "$label$call stopped by $how: 57014");
	cmp_ok($elapsed, '<', 1.0, "$label$call stopped by $how within a second (" . sprintf('%.2f s', $elapsed) . ')');
	return;
}

1;
