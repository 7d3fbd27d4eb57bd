#!/usr/bin/env perl
# Benchmark locality_uuid against its peers on a throw-away cluster of PostgreSQL's TAP framework:
# generation cost (one backend, then 1 and N pgbench clients), order within one backend, B-tree
# locality (bulk load, concurrent, short sessions), in the same run as the portable SQL edition
# (schema lu_sql). Method and figures: docs/bench/README.md. It prints figures; it judges nothing.
#
# Usage (as root, or a user that may install into $PG_CONFIG's tree): perl test/bench/run.pl [options]
#   --rows N (3000000) --batch N (100000)      bulk load: rows per generator, rows between CHECKPOINTs
#   --conc-rows N (200000; 0 skips)            rows then inserted by --clients N (4) pgbench clients,
#   --jobs N (2)                               pgbench threads
#   --cost-calls N (1000000) --cost-runs N (7) calls per cost measurement, rounds (median reported)
#   --cc-clients N (8) --cc-calls N (200000; 0 skips) --cc-runs N (3)   concurrent cost: 1 and N clients
#   --mono-ids N (1000000; 0 skips)            ids from one backend in the order check
#   --short-rows N (1000000; 0 skips) --short-batch N (10000) --short-checkpoint N (100000)
#                                              short sessions: rows, rows a connection, between CHECKPOINTs
#   --short-conc-rows N (100000; 0 skips) --short-conc-per N (100)   then pgbench -C: rows, rows a connection
#   --seq-block N (256)                        block_size of the tuned uuid_sequence_nextval
#   --time-interval I                          interval of the tuned time generator ('250 ms', or whole
#                                              seconds); default: locality_uuid_block_advice() for the
#                                              sequential baseline's bulk-load rate and --retention I ('30 days')
#   --vendor DIR                               the peers' source tarballs with SHA256SUMS ($LOCALITY_UUID_VENDOR)
#   --only LIST                                these generators of the locality parts (the baselines always run)
#   --no-portable --skip-cost --no-build       leave out the portable edition, the cost parts, the build
#   --quick                                    small sizes everywhere
#   --preload yes|no|auto                      locality_uuid in shared_preload_libraries (auto: below 17)
#   --setup-sql FILE                           run FILE after CREATE EXTENSION
#   --out DIR (test/bench/out)                 output; --publish DIR also copies the CSV files and plots there
# Peers: pg_uuidv7 and sequential_uuids when installed for $PG_CONFIG, else built from
# pg_uuidv7-1.6.0.tar.gz and sequential_uuids-1.0.3.tar.gz of the vendor directory after their
# SHA256SUMS check; a peer that cannot be had is skipped with a reason. Writes into OUT: raw.csv,
# cost.csv, cost_concurrent.csv, monotonic.csv, locality.csv, concurrent.csv, short.csv,
# short_concurrent.csv, targets.csv, results.md (report.awk) and the plots.
use strict;
use warnings;
use Cwd qw(abs_path getcwd);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use POSIX qw(ceil);
use Time::HiRes qw(time);
use lib dirname(abs_path($0));
use Bench ();

our ($BENCH, $ROOT, %o, $OUT, $RAW, %peer_skip, $START, $TERM_OUT, $TERM_ERR);

sub say { Bench::say(@_) }

# peer_install EXTENSION TARBALL: make it available to $PG_CONFIG's server; returns raw.csv lines.
sub peer_install
{
	my ($line, $why) = Bench::peer_install(@_, $OUT, $o{vendor}, \&say);
	$peer_skip{ $_[0] } = $why if $why;
	return $line;
}

# Options, the build and the peers' installation run first (as root when so invoked); the
# cluster part runs as postgres, since initdb refuses root. Both before the framework loads.
BEGIN {
	($BENCH, $ROOT, $START) = Bench::start();
	my @args = @ARGV;
	%o = (rows => 3000000, batch => 100000, 'conc-rows' => 200000, clients => 4, jobs => 2,
		'cost-calls' => 1000000, 'cost-runs' => 7, 'cc-clients' => 8, 'cc-calls' => 200000,
		'cc-runs' => 3, 'mono-ids' => 1000000, 'short-rows' => 1000000, 'short-batch' => 10000,
		'short-checkpoint' => 100000, 'short-conc-rows' => 100000, 'short-conc-per' => 100,
		'seq-block' => 256, 'time-interval' => '', retention => '30 days', only => '',
		vendor => $ENV{LOCALITY_UUID_VENDOR} // '', preload => 'auto', out => "$BENCH/out",
		publish => '', 'setup-sql' => '', portable => 1, 'skip-cost' => 0, build => 1, child => 0);
	my @num = qw(rows batch conc-rows clients jobs cost-calls cost-runs cc-clients cc-calls cc-runs
	  mono-ids short-rows short-batch short-checkpoint short-conc-rows short-conc-per seq-block);
	Bench::options(\%o, undef, (map { "$_=i" } @num), qw(time-interval=s retention=s vendor=s only=s
		  preload=s out=s publish=s setup-sql=s portable! skip-cost build! child),
		quick => sub {
			@o{qw(rows batch conc-rows cost-calls cost-runs cc-calls cc-runs mono-ids short-rows
			  short-batch short-checkpoint short-conc-rows)} =
			  (200000, 50000, 20000, 200000, 3, 20000, 1, 100000, 100000, 5000, 50000, 4000);
		});
	Bench::positive(\%o, qw(batch short-batch short-conc-per clients cc-clients cost-runs cc-runs));
	$o{'short-checkpoint'} >= $o{'short-batch'} or die "run.pl: --short-checkpoint must be at least --short-batch\n";
	$o{preload} =~ /^(yes|no|auto)$/ or die "run.pl: --preload is yes, no or auto\n";
	$_ && ($_ = abs_path($_) // $_) for @o{qw(vendor setup-sql)};
	make_path($o{out});
	$o{out} = abs_path($o{out});
	$o{publish} = Cwd::realpath($o{publish}) // $o{publish} if $o{publish};
	$OUT = $o{out};
	$RAW = "$OUT/raw.csv";
	%peer_skip = map { split /=/, $_, 2 } grep { length } split /\n/, $ENV{BENCH_PEER_SKIP} // '';
	# perl -c compiles only: no build, no installation, no run.
	unless ($o{child} || $^C) {
		remove_tree(grep { -e } map { glob "$OUT/$_" } qw(*.csv results.md generators.txt *.dat *.png
			  *.gp *.gp.log *.sql *.pgbench advice.txt *.log src tmp_check));
		open my $raw, '>', $RAW or die "run.pl: $RAW: $!\n";
		Bench::build($OUT) if $o{build};
		print $raw peer_install($_->[0], $_->[1])
		  for [ pg_uuidv7 => 'pg_uuidv7-1.6.0.tar.gz' ], [ sequential_uuids => 'sequential_uuids-1.0.3.tar.gz' ];
		close $raw;
		if ($> == 0) {
			system('chown', '-R', 'postgres:', $OUT);
			$ENV{BENCH_PEER_SKIP} = join "\n", map { "$_=$peer_skip{$_}" } keys %peer_skip;
			exec('runuser', '-u', 'postgres', '--', $^X, $0, @args, '--child', '--out', $OUT);
		}
	}
	($TERM_OUT, $TERM_ERR) = Bench::framework($OUT);
}

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils ();
use Test::More ();
Test::More->builder->no_ending(1);
# The framework sends STDOUT and STDERR to its log (tmp_check/log); a benchmark prints its figures.
open STDOUT, '>&', $TERM_OUT or die;
open STDERR, '>&', $TERM_ERR or die;

my $major = `"$ENV{PG_CONFIG}" --version` =~ s/^PostgreSQL (\d+).*/$1/sr;
my $preload = $o{preload} eq 'auto' ? ($major < 17 ? 'yes' : 'no') : $o{preload};
my $SB_MB = 16;
my ($CLIENTS, $JOBS) = @o{qw(clients jobs)};
my $node = PostgreSQL::Test::Cluster->new('bench');
$node->init(extra => [ '-E', 'UTF8', '--locale=C' ]);
# Only our CHECKPOINTs: no timed or size-triggered ones, no autovacuum; commits need not wait.
# wal_level and max_wal_senders at initdb's defaults, not the framework's minimal ones.
$node->append_conf('postgresql.conf', join "\n", "shared_buffers = ${SB_MB}MB", 'autovacuum = off',
	'synchronous_commit = off', 'max_wal_size = 16GB', 'checkpoint_timeout = 1h', 'work_mem = 64MB',
	'synchronize_seqscans = off', 'log_statement = none', 'wal_level = replica', 'max_wal_senders = 10',
	'max_connections = ' . (($CLIENTS > $o{'cc-clients'} ? $CLIENTS : $o{'cc-clients'}) + 12),
	$preload eq 'yes' ? "shared_preload_libraries = 'locality_uuid'" : ());
say('starting a throw-away cluster in ' . $node->data_dir . " (shared_buffers ${SB_MB}MB)");
$node->start;
my ($HOST, $PORT) = ($node->host, $node->port);

# No NOTICEs from DROP ... IF EXISTS and the like.
$ENV{PGOPTIONS} = '-c client_min_messages=warning';
# psql DB ARGS...: psql's output (-At -F,); dies on an error.
sub psql
{
	my ($db, @args) = @_;
	open my $p, '-|', 'psql', '-h', $HOST, '-p', $PORT, '-X', '-q',
	  '-v', 'ON_ERROR_STOP=1', '-At', '-F,', '-d', $db, @args or die "psql: $!";
	local $/;
	my $out = <$p> // '';
	close $p or die "run.pl: psql failed in $db: @args\n";
	$out =~ s/\n\z//;
	return $out;
}
# script DB NAME TEXT: write TEXT to OUT/NAME and run it there, its output appended to raw.csv.
sub script
{
	my ($db, $name, $text) = @_;
	write_file("$OUT/$name", $text);
	my $out = psql($db, '-f', "$OUT/$name");
	append_raw($out) if length $out;
}
sub write_file { open my $f, '>', $_[0] or die "$_[0]: $!"; print $f $_[1]; close $f }
sub append_raw { open my $f, '>>', $RAW or die; print $f map { "$_\n" } @_; close $f }
sub skip { say("skip $_[1] ($_[0]): $_[2]"); append_raw("skip,$_[0],$_[1]," . ($_[2] =~ s/,/;/gr)) }
my $PGBENCH = "pgbench -n -h '$HOST' -p $PORT";

psql('postgres', '-c', 'CREATE EXTENSION locality_uuid; CREATE EXTENSION "uuid-ossp"; CREATE EXTENSION pgstattuple;');
psql('postgres', '-f', $o{'setup-sql'}) if $o{'setup-sql'};
# The portable SQL edition, installed as its users do, into a schema of its own; every call to it
# is schema-qualified (lu_sql.f), so nothing resolves to the C extension's function of that name.
my $PS = 'lu_sql';
psql('postgres', '-v', "schema=$PS", '-f', "$ROOT/portable/locality_uuid_portable.sql") if $o{portable};
# pg_uuidv7 lives with this extension (no name in common); sequential_uuids in a database of its own.
my $SU = 'bench_su';
unless ($peer_skip{pg_uuidv7}) {
	psql('postgres', '-c', 'CREATE EXTENSION pg_uuidv7');
	append_raw('meta,pg_uuidv7_version,' . psql('postgres', '-c', "SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidv7'"));
}
unless ($peer_skip{sequential_uuids}) {
	psql('postgres', '-c', "CREATE DATABASE $SU");
	psql($SU, '-c', 'CREATE EXTENSION sequential_uuids; CREATE EXTENSION pgstattuple;');
	append_raw('meta,sequential_uuids_version,' . psql($SU, '-c', "SELECT extversion FROM pg_extension WHERE extname = 'sequential_uuids'"));
}
my $server_num = psql('postgres', '-c', 'SHOW server_version_num');

sub has_function { psql($_[0], '-c', "SELECT to_regprocedure('$_[1]') IS NOT NULL") eq 't' }
# available DB SIGNATURE: has_function, also for a database that was never made.
sub available { return 0 if $_[0] eq $SU && $peer_skip{sequential_uuids}; $_[1] eq '-' || has_function(@_) }
# why_missing DB SIGNATURE: why a generator's function is not there.
sub why_missing
{
	my ($db, $fn) = @_;
	return "$fn is built in from PostgreSQL 18 and this extension's on 15 to 17 from version 1.3; this server is "
	  . psql('postgres', '-c', 'SHOW server_version') . ', the extension '
	  . psql('postgres', '-c', "SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'")
	  if $fn eq 'uuidv7()' || $fn eq 'uuidv4()';
	return 'pg_uuidv7: ' . ($peer_skip{pg_uuidv7} // 'its function is not installed') if $fn eq 'uuid_generate_v7()';
	return 'sequential_uuids: ' . ($peer_skip{sequential_uuids} // "$fn is not installed") if $db eq $SU;
	return "$fn is not installed (a later version of this extension has it)";
}
# uuidv7() and uuidv4(): core's from 18 (named with their source, as peers are), this extension's
# on 15 to 17 (a plain name, as this extension's generators).
my $v7_owner = psql('postgres', '-c', "SELECT CASE WHEN l.lanname = 'internal' THEN 'core' WHEN p.probin LIKE '%locality_uuid' THEN 'ours' ELSE 'other' END FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = to_regprocedure('uuidv7()')");
my ($V7_NAME, $V4_NAME) = ('uuidv7()', 'uuidv4()');
($V7_NAME, $V4_NAME) = map { "$_ (PostgreSQL " . substr($server_num, 0, 2) . ')' } $V7_NAME, $V4_NAME
  if $v7_owner eq 'core';

{
	append_raw('meta,machine,' . Bench::machine(),
		'meta,postgres,' . psql('postgres', '-c', 'SHOW server_version'), "meta,preload,$preload",
		has_function('postgres', 'locality_uuid_state()') ? 'meta,state,' . psql('postgres', '-c', 'SELECT locality_uuid_state()') : (),
		'meta,v7_owner,' . ($v7_owner || 'none'), "meta,v7_name,$V7_NAME", "meta,v4_name,$V4_NAME",
		'meta,load_at_start,' . loadavg(), (map { "meta,$_->[0],$o{$_->[1]}" } [ rows => 'rows' ],
			[ batch => 'batch' ], [ conc_rows => 'conc-rows' ], [ clients => 'clients' ]),
		"meta,shared_buffers_mb,$SB_MB", "meta,cost_calls,$o{'cost-calls'}", 'meta,portable_div,10',
		'meta,portable_cc_div,4', "meta,portable_schema,$PS",
		map({ 'meta,' . s/-/_/gr . ",$o{$_}" }
			qw(cost-runs cc-clients cc-calls cc-runs mono-ids short-rows short-batch short-checkpoint
			  short-conc-rows short-conc-per)),
		'meta,date,' . `date -u '+%Y-%m-%d %H:%M UTC'` =~ s/\n//r);
}
sub loadavg { Bench::loadavg() }

# The interval form of uuid_time_nextval in a schema: uuid_time_nextval_interval, or in 1.1 an
# overload of uuid_time_nextval (a run against 1.1 keeps the newer labels, so that the two compare).
sub interval_fn
{
	my ($s) = @_;
	return !has_function('postgres', "${s}uuid_time_nextval_interval(interval,integer)")
	  && has_function('postgres', "${s}uuid_time_nextval(interval,integer)")
	  ? "${s}uuid_time_nextval" : "${s}uuid_time_nextval_interval";
}
my ($TIF, $PTIF) = (interval_fn(''), interval_fn("$PS."));

# ---------------------------------------------------------------------------------------------
# 1. Generation cost: median ns per call of count(f()) over generate_series, minus the floor.
# ---------------------------------------------------------------------------------------------
# [name, database, expression, function that must exist]; uuidv7() and uuidv4() go among the
# peers when they are core's, among this extension's generators when they are ours.
my @V7 = ([ $V7_NAME, 'postgres', 'uuidv7()', 'uuidv7()' ], [ $V4_NAME, 'postgres', 'uuidv4()', 'uuidv4()' ]);
my @cost = (
	[ 'floor', 'postgres', 'x', '-' ],
	[ 'gen_random_uuid()', 'postgres', 'gen_random_uuid()', '-' ],
	[ 'uuid_generate_v4()', 'postgres', 'uuid_generate_v4()', '-' ],
	[ 'nextval()', 'postgres', "nextval('bench_cost_s')", '-' ],
	($v7_owner eq 'core' ? @V7 : ()),
	[ 'uuid_generate_v7() (pg_uuidv7)', 'postgres', 'uuid_generate_v7()', 'uuid_generate_v7()' ],
	[ 'uuid_sequence_nextval() (sequential_uuids)', $SU, "uuid_sequence_nextval('bench_cost_s2')", 'uuid_sequence_nextval(regclass,integer,integer)' ],
	[ 'uuid_time_nextval() (sequential_uuids)', $SU, 'uuid_time_nextval()', 'uuid_time_nextval(integer,integer)' ],
	[ 'locality_uuid()', 'postgres', 'locality_uuid()', 'locality_uuid()' ],
	[ 'locality_uuid(false)', 'postgres', 'locality_uuid(false)', 'locality_uuid(boolean)' ],
	[ 'locality_uuid(true)', 'postgres', 'locality_uuid(true)', 'locality_uuid(boolean)' ],
	[ 'uuid_sequence_nextval()', 'postgres', "uuid_sequence_nextval('bench_cost_s2')", 'uuid_sequence_nextval(regclass,integer,integer)' ],
	[ 'uuid_time_nextval()', 'postgres', 'uuid_time_nextval()', 'uuid_time_nextval(integer,integer)' ],
	[ "uuid_time_nextval_interval('10 ms')", 'postgres', "$TIF('10 ms'::interval)", "$TIF(interval,integer)" ],
	[ 'hot_uuid()', 'postgres', 'hot_uuid(42)', 'hot_uuid(bigint)' ],
	($v7_owner ne 'core' ? @V7 : ()),
	[ 'uuidv7_ordered()', 'postgres', 'uuidv7_ordered()', 'uuidv7_ordered()' ],
	# The facade both ways, with the key of locality_uuid.facade_key (set for the database below):
	# STABLE, so called on every row, where an IMMUTABLE call on constants would be folded once.
	[ 'uuidv7_to_facade(id)', 'postgres', "uuidv7_to_facade('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid)", 'uuidv7_to_facade(uuid)' ],
	[ 'uuidv7_from_facade(facade)', 'postgres', "uuidv7_from_facade('e4b98970-eb53-4cc3-98c4-dc0c0c07398f'::uuid)", 'uuidv7_from_facade(uuid)' ]);
# The portable edition's, the same calls in its schema (with its own name for the interval form).
my %portable_cost = map { $_ => 1 } ('locality_uuid(false)', 'locality_uuid(true)', 'uuid_sequence_nextval()',
	'uuid_time_nextval()', "uuid_time_nextval_interval('10 ms')", 'hot_uuid()', 'uuidv7_to_facade(id)',
	'uuidv7_from_facade(facade)');
push @cost, map { [ "$PS.$_->[0]", 'postgres', map { "$PS.$_" =~ s/^\Q$PS.$TIF(\E/$PTIF(/r } @$_[ 2, 3 ] ] }
  grep { $o{portable} && $portable_cost{ $_->[0] } } @cost;
# calls N NAME DIV: N calls, or N / DIV (at least 1000) for a generator of the portable edition,
# whose PL/pgSQL generators cost microseconds.
sub calls
{
	my ($n, $name, $div) = @_;
	return $n unless $name =~ /^\Q$PS\E\./;
	return $n / $div > 1000 ? int($n / $div) : $n < 1000 ? $n : 1000;
}
psql('postgres', '-c', 'CREATE SEQUENCE bench_cost_s; CREATE SEQUENCE bench_cost_s2;');
# The facade functions' key, for every later session (a throw-away key of a throw-away cluster).
psql('postgres', '-c', "ALTER DATABASE postgres SET locality_uuid.facade_key = '000102030405060708090a0b0c0d0e0f'")
  if available('postgres', 'uuidv7_to_facade(uuid)');
psql($SU, '-c', 'CREATE SEQUENCE bench_cost_s2;') unless $peer_skip{sequential_uuids};

unless ($o{'skip-cost'}) {
	my @ok = grep { available($_->[1], $_->[3]) or skip('cost', $_->[0], why_missing($_->[1], $_->[3])), 0 } @cost;
	say("generation cost: $o{'cost-runs'} runs x $o{'cost-calls'} calls of each of " . @ok . ' generators');
	# Rounds interleave the generators (and the databases) so that outside load spreads over all.
	for my $r (1 .. $o{'cost-runs'}) {
		for my $db ('postgres', $SU) {
			my @g = grep { $_->[1] eq $db } @ok or next;
			# Server-side wall time of one query, in ns per row; a warm-up first (it seeds
			# per-backend state); the name through a variable, or \qecho would take its quotes.
			script($db, "cost_$db.sql", "SET work_mem = '256MB';\n" . <<'EOF' . join '', map {
CREATE FUNCTION pg_temp.ns_per_call(q text, calls bigint) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; t1 timestamptz;
BEGIN
	t0 := clock_timestamp();
	EXECUTE q;
	t1 := clock_timestamp();
	RETURN extract(epoch FROM t1 - t0) * 1e9 / calls;
END $$;
EOF
				my ($name, undef, $expr) = @$_;
				my $n = calls($o{'cost-calls'}, $name, 10);
				"SELECT count($expr) FROM generate_series(1, " . calls(10000, $name, 10) . ") x \\gset warm_\n"
				  . "SELECT pg_temp.ns_per_call('SELECT count(" . ($expr =~ s/'/''/gr) . ") FROM generate_series(1, $n) x', $n) AS ns \\gset\n"
				  . "\\set gname '" . ($name =~ s/'/''/gr) . "'\n\\qecho cost,$r,:gname,:ns\n"
			} @g);
		}
		say("  cost round $r/$o{'cost-runs'} done");
	}
	# Concurrent cost: pgbench clients each running count(f()) over generate_series; ns per call
	# is 1e9 / (calls per second of all clients together), minus the floor's.
	if ($o{'cc-calls'} > 0) {
		say("concurrent cost: 1 and $o{'cc-clients'} pgbench clients x $o{'cc-calls'} calls each ("
			  . calls($o{'cc-calls'}, "$PS.", 4) . " for the portable edition), $o{'cc-runs'} runs");
		for my $r (1 .. $o{'cc-runs'}) {
			for my $c (1, $o{'cc-clients'}) {
				my $i = 0;
				for (grep { $_->[0] !~ /^(uuid_generate_v4|nextval)/ } @ok) {
					my ($name, $db, $expr) = @$_;
					my $f = "$OUT/cc_" . ++$i . '.pgbench';
					# Up to 20000 calls a transaction (2000 for the portable edition's generators).
					my $n = calls($o{'cc-calls'}, $name, 4);
					my $per = calls(20000, $name, 10);
					$per = $n if $n < $per;
					write_file($f, "SELECT count($expr) FROM generate_series(1, $per) x;\n");
					my $j = $c < $JOBS ? $c : $JOBS;
					my $out = `$PGBENCH -c $c -j $j -t @{[ceil($n / $per)]} -f '$f' $db 2>>'$OUT/pgbench.log' | tee -a '$OUT/pgbench.log'`;
					my ($tps) = $out =~ /^tps = ([0-9.]+)/m or die "run.pl: pgbench failed, see $OUT/pgbench.log\n";
					append_raw(sprintf 'ccost,%s,%s,%s,%.3f', $c, $r, $name, 1e9 / ($tps * $per));
				}
			}
			say("  concurrent cost round $r/$o{'cc-runs'} done");
		}
	}
	# Order: adjacent pairs out of order (and equal) among ids made by one backend in a row.
	if ($o{'mono-ids'} > 0) {
		say("monotonicity: $o{'mono-ids'} ids from one backend per generator");
		for ($V7[0], map { [ $_->[0], 'postgres', $_->[1], $_->[2] ] }
			[ 'uuid_generate_v7() (pg_uuidv7)', 'uuid_generate_v7()', 'uuid_generate_v7()' ],
			[ 'locality_uuid(true)', 'locality_uuid(true)', 'locality_uuid(boolean)' ],
			[ 'hot_uuid()', 'hot_uuid(42)', 'hot_uuid(bigint)' ],
			[ 'uuidv7_ordered()', 'uuidv7_ordered()', 'uuidv7_ordered()' ]) {
			my ($name, $db, $expr, $fn) = @$_;
			available($db, $fn) or skip('monotonic', $name, why_missing($db, $fn)), next;
			append_raw(psql($db, '-c', "SET work_mem = '256MB'", '-c', "SELECT 'mono', '$name', count(*), count(*) FILTER (WHERE id < prev), count(*) FILTER (WHERE id = prev) FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM (SELECT n, $expr AS id FROM generate_series(1, $o{'mono-ids'}) n) s) t"));
		}
	}
}

# ---------------------------------------------------------------------------------------------
# 2. B-tree locality: bulk insert in batches with a CHECKPOINT between, then pgbench clients;
#    then the same with a new connection per batch (short sessions) and pgbench -C.
# ---------------------------------------------------------------------------------------------
# Rows of one interval of the tuned uuid_time_nextval must fit in shared_buffers (the rule when
# locality_uuid_block_advice() is not there): random inserts leave leaves ~70 % full, about 40
# bytes of leaf per uuid row, and the heap, the inner pages and the rest need the other half.
my $FIT_ROWS = int($SB_MB * 1024 * 1024 / 2 / 40);
my ($TE, $TL, $TF, $TI_SECONDS);

# gen_spec NAME: [class, column type, bulk expression, DEFAULT expression, function, label, database].
# In the bulk expression g is the generate_series row number; bench_s is the table's sequence.
sub gen_spec
{
	my %s = (
		seq_uuid => [ 'baseline', 'uuid', "lpad(to_hex(nextval('bench_s')), 32, '0')::uuid", '=', '-', 'sequential uuid' ],
		bigserial => [ 'baseline', 'bigint', "nextval('bench_s')", '=', '-', 'bigserial' ],
		gen_random_uuid => [ 'baseline', 'uuid', 'gen_random_uuid()', '=', '-', 'gen_random_uuid()' ],
		uuidv7 => [ $v7_owner ne 'core' ? 'ordered' : 'peer', 'uuid', 'uuidv7()', '=', 'uuidv7()', $V7_NAME ],
		pg_uuidv7 => [ 'peer', 'uuid', 'uuid_generate_v7()', '=', 'uuid_generate_v7()', 'uuid_generate_v7() (pg_uuidv7)' ],
		su_seq_block => [ 'peer', 'uuid', "uuid_sequence_nextval('bench_s')", '=', 'uuid_sequence_nextval(regclass,integer,integer)', 'uuid_sequence_nextval(s) (sequential_uuids)', $SU ],
		su_time_block => [ 'peer', 'uuid', 'uuid_time_nextval()', '=', 'uuid_time_nextval(integer,integer)', 'uuid_time_nextval() (sequential_uuids)', $SU ],
		locality_variable => [ 'spread', 'uuid', 'locality_uuid(false)', '=', 'locality_uuid(boolean)', 'locality_uuid(false)' ],
		locality_sequential => [ 'ordered', 'uuid', 'locality_uuid(true)', '=', 'locality_uuid(boolean)', 'locality_uuid(true)' ],
		hot_uuid => [ 'ordered', 'uuid', 'hot_uuid(g % 1024)', 'hot_uuid((random() * 1023)::bigint)', 'hot_uuid(bigint)', 'hot_uuid(shard_key)' ],
		uuidv7_ordered => [ 'ordered', 'uuid', 'uuidv7_ordered()', '=', 'uuidv7_ordered()', 'uuidv7_ordered()' ],
		seq_block => [ 'block', 'uuid', "uuid_sequence_nextval('bench_s')", '=', 'uuid_sequence_nextval(regclass,integer,integer)', 'uuid_sequence_nextval(s)' ],
		seq_block_tuned => [ 'block', 'uuid', "uuid_sequence_nextval('bench_s', $o{'seq-block'})", '=', 'uuid_sequence_nextval(regclass,integer,integer)', "uuid_sequence_nextval(s, $o{'seq-block'})" ],
		time_block => [ 'block', 'uuid', 'uuid_time_nextval()', '=', 'uuid_time_nextval(integer,integer)', 'uuid_time_nextval()' ],
		time_block_tuned => [ 'block', 'uuid', '@TE@', '=', '@TF@', '@TL@' ],
		time_block_paced => [ 'block', 'uuid', 'uuid_time_nextval(1)', '=', 'uuid_time_nextval(integer,integer)', 'uuid_time_nextval(1), paced' ]);
	# The portable edition's: the same calls in its schema.
	my %from = (sequential => 'locality_sequential', map { $_ => $_ } qw(seq_block seq_block_tuned time_block time_block_tuned));
	$s{"portable_$_"} = [ 'portable', 'uuid', map { "$PS.$_" } @{ $s{ $from{$_} } }[ 2, 4, 5 ] ] for keys %from;
	splice @{ $s{"portable_$_"} }, 3, 0, '=' for keys %from;
	my $s = $s{ $_[0] } or return;
	return [ @$s[ 0 .. 5 ], $s->[6] // 'postgres' ];
}
# uuidv7 among the peers when it is core's, next to uuidv7_ordered when it is ours.
my @gens = (qw(seq_uuid bigserial gen_random_uuid), $v7_owner eq 'core' ? 'uuidv7' : (),
	qw(pg_uuidv7 su_seq_block su_time_block locality_variable locality_sequential hot_uuid),
	$v7_owner ne 'core' ? 'uuidv7' : (), qw(uuidv7_ordered seq_block seq_block_tuned time_block
	  time_block_tuned time_block_paced),
	$o{portable} ? qw(portable_sequential portable_seq_block portable_seq_block_tuned
	  portable_time_block portable_time_block_tuned) : ());
if ($o{only}) {
	my @sel = qw(seq_uuid bigserial gen_random_uuid);
	for my $n (split /,/, $o{only}) {
		gen_spec($n) or die "run.pl: unknown generator $n (one of @gens)\n";
		push @sel, $n unless grep { $_ eq $n } @sel;
	}
	@gens = @sel;
}

# counters ALIAS: psql lines that \gset the cumulative counters as :ALIAS_wal etc. A session's
# statistics reach pg_stat_wal when it goes idle, at most once a second unless forced: force it.
sub counters
{
	my ($a) = @_;
	return <<"EOF";
SELECT pg_stat_force_next_flush() AS ignore \\gset
SELECT w.wal_bytes AS ${a}_wal, w.wal_fpi AS ${a}_fpi, pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0') AS ${a}_lsn,
       coalesce((SELECT idx_blks_read FROM pg_statio_user_indexes WHERE indexrelid = 'bench_t_pkey'::regclass), 0) AS ${a}_ird,
       pg_relation_size('bench_t_pkey') AS ${a}_isz,
       extract(epoch FROM clock_timestamp()) AS ${a}_t
FROM pg_stat_wal w \\gset
EOF
}
# Let pgbench's backends exit and flush their statistics.
my $WAIT_CLIENTS = q{DO $$ BEGIN FOR i IN 1..1000 LOOP PERFORM pg_stat_clear_snapshot(); EXIT WHEN (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()) = 0; PERFORM pg_sleep(0.01); END LOOP; END $$;} . "\n";
my $END_T = "SELECT extract(epoch FROM clock_timestamp()) AS b_t \\gset\n";
# report_line TAG NAME K NB ROWS: one progress line of a measured step (between counters a and c).
sub report_line
{
	my ($tag, $name, $k, $nb, $rows) = @_;
	return "SELECT format('  %s %s %s/%s: %s rows, %s s, WAL %s B/row, FPI %s/1000 rows, index %s MB, %s blocks read',\n"
	  . "  '$name', '$tag', $k, $nb, $rows, round((:b_t - :a_t)::numeric, 2), round((:c_wal - :a_wal) / $rows.0),\n"
	  . "  round((:c_fpi - :a_fpi) * 1000.0 / $rows, 2), round(:c_isz / 1048576.0, 1), :c_ird - :a_ird) AS line \\gset\n\\warn :line\n";
}
# table_script TYPE: a fresh table and sequence.
sub table_script
{
	return "DROP TABLE IF EXISTS bench_t; DROP SEQUENCE IF EXISTS bench_s;\nCREATE SEQUENCE bench_s;\n"
	  . "CREATE TABLE bench_t (id $_[0] PRIMARY KEY);\nCHECKPOINT;\n";
}
# pgbench_line ARGS DB: a psql line that runs pgbench into OUT/pgbench.log.
sub pgbench_line
{
	return "\\! $PGBENCH $_[0] $_[1] >>'$OUT/pgbench.log' 2>&1 || echo 'pgbench failed, see $OUT/pgbench.log' >&2\n";
}
# conc_script TAG NAME DB ROWS PER_ROUND PGBENCH_ARGS SCRIPT [ROWS_PER_TX]: pgbench rounds, a CHECKPOINT between.
sub conc_script
{
	my ($tag, $name, $db, $total, $per_round, $args, $script, $per_tx) = @_;
	$per_tx ||= 1;
	my $rounds = ceil($total / $per_round);
	my $s = '';
	for my $r (1 .. $rounds) {
		my $n = $r * $per_round < $total ? $per_round : $total - ($r - 1) * $per_round;
		my $tx = int($n / $CLIENTS / $per_tx) || 1;
		$n = $tx * $CLIENTS * $per_tx;
		$s .= counters('a') . pgbench_line("$args -c $CLIENTS -j $JOBS -t $tx -f '$script'", $db) . $END_T
		  . $WAIT_CLIENTS . counters('c')
		  . "\\qecho $tag,$name,$r,$n,:b_t,:a_t,:a_wal,:c_wal,:a_fpi,:c_fpi,:a_ird,:c_ird,:a_isz,:c_isz,:a_lsn,:c_lsn\n"
		  . report_line("$tag round", $name, $r, $rounds, $n) . "CHECKPOINT;\n";
	}
	return $s . "SELECT avg_leaf_density AS d, leaf_fragmentation AS f FROM pgstatindex('bench_t_pkey') \\gset\n"
	  . "\\qecho ${tag}final,$name,:d,:f\n";
}
# leaf_final TAG NAME ROWS WHAT: the index's leaf density and fragmentation after a load.
sub leaf_final
{
	my ($tag, $name, $rows, $what) = @_;
	return "SELECT avg_leaf_density AS d, leaf_fragmentation AS f, leaf_pages AS lp FROM pgstatindex('bench_t_pkey') \\gset\n"
	  . "\\qecho $tag,$name,$rows,:c_isz,:d,:f,:lp\n\\warn '  $name$what: leaf density' :d '%, leaf fragmentation' :f '%'\n";
}
# then_concurrent NAME DEFAULT CONC_SCRIPT_ARGS...: after a load, the concurrent phase into the
# same table with the generator as the column DEFAULT (none without rows, nor for the paced run,
# whose concurrent phase would repeat uuid_time_nextval(1)'s); then drop the table.
sub then_concurrent
{
	my ($name, $def, @args) = @_;
	my $s = '';
	if ($args[3] > 0 && $name ne 'time_block_paced') {
		$s .= "ALTER TABLE bench_t ALTER COLUMN id SET DEFAULT $def;\nCHECKPOINT;\n";
		# The tuned time generator waits for a fresh interval, or its clients would first finish
		# the interval the load before used.
		$s .= "SELECT pg_sleep($TI_SECONDS - extract(epoch FROM clock_timestamp())::numeric % $TI_SECONDS) AS ignore \\gset\n"
		  if $name =~ /^(portable_)?time_block_tuned$/;
		$s .= conc_script(@args);
	}
	return $s . "DROP TABLE bench_t; DROP SEQUENCE bench_s;\n";
}
# locality_script NAME TYPE BULK DEFAULT DB: one generator's bulk load, then its concurrent phase.
sub locality_script
{
	my ($name, $type, $bulk, $def, $db) = @_;
	my ($rows, $batch) = @o{qw(rows batch)};
	my $nb = ceil($rows / $batch);
	my $s = table_script($type);
	for my $k (1 .. $nb) {
		my ($lo, $hi) = (($k - 1) * $batch + 1, $k * $batch < $rows ? $k * $batch : $rows);
		# Paced: each batch starts on a new second, so one 1-second interval holds one batch.
		$s .= "SELECT pg_sleep(1 - extract(epoch FROM clock_timestamp()) % 1) AS ignore \\gset\n"
		  if $name eq 'time_block_paced';
		$s .= counters('a') . "INSERT INTO bench_t (id) SELECT $bulk FROM generate_series($lo, $hi) g;\n" . $END_T
		  . counters('c')
		  . "\\qecho batch,$name,$k,$hi," . ($hi - $lo + 1) . ",:b_t,:a_t,:a_wal,:c_wal,:a_fpi,:c_fpi,:a_ird,:c_ird,:c_isz,:a_lsn,:c_lsn\n"
		  . report_line('batch', $name, $k, $nb, $hi - $lo + 1) . "CHECKPOINT;\n";
	}
	# A random sample of (row number, first 32 bits) in insertion order (the heap's physical
	# order: one backend appended to a fresh table); a fixed step could alias.
	$s .= "SELECT setseed(0.5) AS ignore \\gset\n\\o $OUT/keys_$name.dat\n"
	  . "SELECT n, ('x' || substr(id::text, 1, 8))::bit(32)::bigint FROM (SELECT row_number() OVER () AS n, id FROM bench_t) s WHERE random() < 2000.0 / $rows;\n\\o\n"
	  if $type eq 'uuid';
	return $s . leaf_final('final', $name, $rows, '')
	  . then_concurrent($name, $def, 'conc', $name, $db, $o{'conc-rows'}, $batch, '', "$BENCH/insert.pgbench");
}
# short_script NAME TYPE BULK DEFAULT DB: a new connection (pgbench -C, one client) per batch,
# a CHECKPOINT every --short-checkpoint rows; then pgbench -C clients.
sub short_script
{
	my ($name, $type, $bulk, $def, $db) = @_;
	my ($rows, $sb, $ck) = @o{qw(short-rows short-batch short-checkpoint)};
	my $ns = ceil($rows / $ck);
	my $bscript = "$OUT/short_bulk_$name.pgbench";
	write_file($bscript, "INSERT INTO bench_t (id) SELECT $bulk FROM generate_series(1, $sb) g;\n");
	my ($s, $sofar) = (table_script($type), 0);
	for my $k (1 .. $ns) {
		my $n = $rows - $sofar < $ck ? $rows - $sofar : $ck;
		my $tx = ceil($n / $sb);
		$n = $tx * $sb;
		$sofar += $n;
		$s .= counters('a') . pgbench_line("-C -c 1 -j 1 -t $tx -f '$bscript'", $db) . $END_T . $WAIT_CLIENTS
		  . counters('c')
		  . "\\qecho sbatch,$name,$k,$sofar,$n,:b_t,:a_t,:a_wal,:c_wal,:a_fpi,:c_fpi,:a_ird,:c_ird,:c_isz,:a_lsn,:c_lsn\n"
		  . report_line('short-session batch', $name, $k, $ns, $n) . "CHECKPOINT;\n";
	}
	return $s . leaf_final('sfinal', $name, $sofar, ' short sessions')
	  . then_concurrent($name, $def, 'sconc', $name, $db, $o{'short-conc-rows'}, $ck, '-C',
		"$OUT/short_conc.pgbench", $o{'short-conc-per'});
}
# One pgbench -C transaction of the short-session run: rows from the column DEFAULT.
write_file("$OUT/short_conc.pgbench", "-- One pgbench -C transaction of the short-session run: rows from the column DEFAULT.\n"
	  . 'INSERT INTO bench_t (id) VALUES ' . join(', ', ('(DEFAULT)') x $o{'short-conc-per'}) . ";\n");

# tune_time: the tuned uuid_time_nextval for the sequential baseline's bulk-load rate.
sub tune_time
{
	my ($t0, $t1, $n);
	for (`cat '$RAW'`) {
		my @f = split /,/;
		next unless $f[0] eq 'batch' && $f[1] eq 'seq_uuid';
		$t0 //= $f[6];
		($t1, $n) = ($f[5], ($n // 0) + $f[4]);
	}
	my $rate = defined $t1 && $t1 > $t0 ? int($n / ($t1 - $t0)) : 0;
	my @meta = ("meta,time_interval_rate,$rate", "meta,time_interval_fit_rows,$FIT_ROWS");
	my $r1 = $rate || 1;
	if (my $ti = $o{'time-interval'}) {
		if ($ti =~ /^\d+$/) {
			($TE, $TF, $TI_SECONDS) = ("uuid_time_nextval($ti)", 'uuid_time_nextval(integer,integer)', $ti);
			$TL = $TE;
		} else {
			($TE, $TL, $TF) = ("$TIF('$ti'::interval)", "uuid_time_nextval_interval('$ti')", "$TIF(interval,integer)");
			$TI_SECONDS = psql('postgres', '-c', "SELECT extract(epoch FROM '$ti'::interval)");
		}
		push @meta, 'meta,time_interval_how,set with --time-interval';
	} elsif (has_function('postgres', 'locality_uuid_block_advice(double precision,interval,bigint)')
		&& has_function('postgres', "$TIF(interval,integer)")) {
		my $q = "locality_uuid_block_advice(insert_rate => $r1, retention => '$o{retention}')";
		my ($len, $count);
		($len, $count, $TI_SECONDS) = split /,/, psql('postgres', '-c', "SELECT interval_length, interval_count, extract(epoch FROM interval_length) FROM $q WHERE interval_length IS NOT NULL LIMIT 1");
		defined $count or die "run.pl: locality_uuid_block_advice() recommended no interval\n";
		my $ti = sprintf('%g', $TI_SECONDS * 1000) . ' ms';
		($TE, $TL, $TF) = ("$TIF('$ti'::interval, $count)", "uuid_time_nextval_interval('$ti', $count)", "$TIF(interval,integer)");
		push @meta, "meta,time_interval_how,locality_uuid_block_advice(insert_rate => $r1; retention => '$o{retention}') for the sequential baseline's rate";
		write_file("$OUT/advice.txt", psql('postgres', '-P', 'format=aligned', '-P', 'tuples_only=off', '-P', 'footer=off', '-x', '-c', "SELECT * FROM $q") . "\n");
		say("tuned time generator: $TL from locality_uuid_block_advice(insert_rate => " . ($rate || '?') . ", retention => '$o{retention}')");
	} elsif (has_function('postgres', "$TIF(interval,integer)")) {
		# The interval whose rows, at the measured rate, fit in shared_buffers; at least 1 ms.
		my $ms = $rate > 0 ? int($FIT_ROWS * 1000 / $rate) : 1000;
		$ms = 1 if $ms < 1;
		($TE, $TL, $TF, $TI_SECONDS) = ("$TIF('$ms ms'::interval)", "uuid_time_nextval_interval('$ms ms')", "$TIF(interval,integer)", $ms / 1000);
		push @meta, "meta,time_interval_how,locality_uuid_block_advice() is not installed: the interval whose rows fit in shared_buffers";
		say("locality_uuid_block_advice() is not installed: tuned time generator $TL");
	} else {
		my $s = $rate > 0 ? int($FIT_ROWS / $rate) : 1;
		$s = 1 if $s < 1;
		($TE, $TF, $TI_SECONDS) = ("uuid_time_nextval($s)", 'uuid_time_nextval(integer,integer)', $s);
		$TL = $TE;
		push @meta, 'meta,time_interval_how,neither locality_uuid_block_advice() nor uuid_time_nextval_interval() is installed: whole seconds whose rows fit in shared_buffers (1 s at least)';
		say("tuned time generator $TE");
	}
	append_raw(@meta, "meta,time_interval,$TL");
}

# run_generators MODE: the main (bulk + concurrent) or short-session runs of every generator.
sub run_generators
{
	my ($mode) = @_;
	for my $name (@gens) {
		my ($class, $type, $bulk, $def, $fn, $label, $db) = @{ gen_spec($name) };
		# The portable edition: bulk and concurrent loads only (its short sessions would add minutes).
		next if $mode eq 'short' && ($name eq 'time_block_paced' || $class eq 'portable');
		if ($name =~ /^(portable_)?time_block_tuned$/) {
			tune_time() unless defined $TE;
			s/\@TE\@/$TE/ for $bulk;
			s/\@TF\@/$TF/ for $fn;
			s/\@TL\@/$TL/ for $label;
			# The portable edition's own name for the interval form.
			s/^\Q$PS.$TIF(\E/$PTIF(/ for grep { $class eq 'portable' } $bulk, $fn;
		}
		available($db, $fn) or skip($mode eq 'main' ? 'locality' : 'short', $name, why_missing($db, $fn)), next;
		$def = $bulk if $def eq '=';
		if ($mode eq 'main') {
			append_raw("gen,$name,$class,$type,$db,$label");
			say("$label: inserting $o{rows} rows");
			script($db, "locality_$name.sql", locality_script($name, $type, $bulk, $def, $db));
		} else {
			append_raw("sgen,$name,$class,$type,$db,$label");
			say("$label: $o{'short-rows'} rows, a new connection per $o{'short-batch'}");
			script($db, "short_$name.sql", short_script($name, $type, $bulk, $def, $db));
		}
	}
}

say(scalar(@gens) . " generators x $o{rows} rows (CHECKPOINT every $o{batch}), then $o{'conc-rows'} rows by $CLIENTS pgbench clients");
run_generators('main');
if ($o{'short-rows'} > 0) {
	say("short sessions: $o{'short-rows'} rows, a new connection per $o{'short-batch'} rows, CHECKPOINT every $o{'short-checkpoint'}; then $o{'short-conc-rows'} rows by $CLIENTS pgbench -C clients");
	run_generators('short');
}
append_raw('meta,load_at_end,' . loadavg(), 'meta,seconds,' . int(time - $START));

# ---------------------------------------------------------------------------------------------
# 3. Tables and plots.
# ---------------------------------------------------------------------------------------------
# plots: from report.awk's files, where keys land (keyspace.png, and keyspace-zoom.png each panel
# zoomed), WAL, full-page images and reads per batch (wal.png, short.png) and the cost (cost.png).
sub plots
{
	my $list = sub { map { [ split /\|/, $_, 4 ] } split /\n/, Bench::read_file("$OUT/$_[0]") // '' };
	my %color = (baseline => '#555555', peer => '#d95f02', portable => '#1b9e77');
	# Key space: one panel per uuid generator, first 32 bits of the key against the row number.
	my @keys = grep { -s "$OUT/keys_$_->[0].dat" } $list->('generators.txt');
	my $rows = int((@keys + 2) / 3);
	for my $png (qw(keyspace keyspace-zoom)) {
		my @gp = $png eq 'keyspace'
		  ? ("set multiplot layout $rows,3 title 'Where new keys land: first 32 bits of each key, as a fraction of the key space, in insertion order ($o{rows} rows, random sample)' font ',12'",
			"set yrange [-0.04:1.04]; set ytics 0.25; set format y '%.2f'")
		  : ("set multiplot layout $rows,3 title 'The same, each panel zoomed to its own range (first 32 bits in hex)' font ',12'", "set format y '%08x'");
		push @gp, "set datafile separator ','", "set xlabel 'row number (millions)' offset 0,0.5; set grid; unset key",
		  "set format x '%g'; set xrange [0:$o{rows}/1e6]";
		for (@keys) {
			my ($name, $class, undef, $label) = @$_;
			my $y = '($2/4294967296.0)';
			if ($png eq 'keyspace-zoom') {
				# few distinct values (one id per row from a sequence, a few seconds): integer tics
				my @v = sort { $a <=> $b } map { (split /,/)[1] } split /\n/, Bench::read_file("$OUT/keys_$name.dat");
				push @gp, $v[-1] - $v[0] < 8 ? "set yrange [$v[0]-0.5:$v[-1]+0.5]; set ytics 1" : 'set autoscale y; set ytics autofreq';
				$y = 2;
			}
			push @gp, 'set title "' . ($label =~ s/"//gr) . " ($class)\"; plot 'keys_$name.dat' using (\$1/1e6):$y with points pt 7 ps 0.25 lc rgb '"
			  . ($color{$class} // '#1f5fa8') . "'";
		}
		Bench::gnuplot($OUT, $png, $rows * 300 + 50, @gp, 'unset multiplot');
	}
	# Per batch: WAL, full-page images and index reads against the index size, one line per generator.
	my @lt = ('#000000', '#777777', '#d62728', '#ff7f0e', '#2ca02c', '#17becf', '#1f77b4', '#9467bd', '#8c564b', '#e377c2', '#bcbd22',
		'#000080', '#800000', '#008080', '#808000', '#ff00ff', '#1b9e77', '#7570b3', '#e6ab02', '#a6761d', '#66a61e', '#e7298a');
	my %style = (baseline => 'dt 2 lw 2', peer => 'dt 4 lw 2', portable => 'dt 3 lw 2');
	for ([ 'batches.dat', 'generators.txt', 'wal', "Each batch of the bulk load, against the index size after it; dashed line: shared_buffers ($SB_MB MB); CHECKPOINT after each batch" ],
		[ 'short_batches.dat', 'short_generators.txt', 'short',
			"Short sessions (a new connection per batch): each CHECKPOINT interval, against the index size after it; dashed line: shared_buffers ($SB_MB MB)" ]) {
		my ($data, $gl, $png, $title) = @$_;
		my @g = $list->($gl) or next;
		my @gp = ("set multiplot layout 3,1 title '$title' font ',12'",
			"set grid; set xlabel 'index size after the batch (MB)' offset 0,0.5; set rmargin at screen 0.66",
			"set arrow 1 from $SB_MB, graph 0 to $SB_MB, graph 1 nohead dt 2 lw 2 lc rgb '#888888'",
			map { 'set linetype ' . ($_ + 1) . " lc rgb '$lt[$_]'" } 0 .. $#lt);
		for ([ 3, 'WAL bytes per row', 'WAL bytes per row' ],
			[ 4, 'full-page images per 1000 rows (log scale; 0 drawn at 0.01)', 'FPI per 1000 rows' ],
			[ 5, 'index blocks read per 1000 rows (log scale; 0 drawn at 0.01; on PostgreSQL 15 new pages count as reads)', 'blocks read per 1000 rows' ]) {
			my ($col, $ptitle, $ylabel) = @$_;
			push @gp, "set title '$ptitle'; set ylabel '$ylabel' offset 1,0", $col == 3
			  ? ('set logscale y; set yrange [*:*]', 'set key at screen 0.99, screen 0.95 right top noopaque spacing 1.2')
			  : ('set logscale y; set yrange [0.01:*]', 'unset key');
			my $y = $col == 3 ? 3 : "(\$$col > 0.01 ? \$$col : 0.01)";
			push @gp, 'plot' . join ',', map { " '$data' index $_ using 2:$y with linespoints pt 7 ps 0.5 " . ($style{ $g[$_][1] } // 'lw 2')
				  . ' lt ' . ($_ + 1) . ' title "' . ($g[$_][3] =~ s/"//gr) . " ($g[$_][1])\"" } 0 .. $#g;
		}
		Bench::gnuplot($OUT, $png, 1250, @gp, 'unset multiplot');
	}
	# Cost: ratio to gen_random_uuid() per generator, one backend and 1 / N pgbench clients.
	my $n = () = (Bench::read_file("$OUT/cost_plot.dat") // '') =~ /\n/g or return;
	# horizontal bars (x, y, x low, x high, y low, y high), three per generator; 0 drawn at 0.01
	Bench::gnuplot($OUT, 'cost', $n * 40 + 160,
		'set title "Cost of a call above the floor, as a ratio to gen_random_uuid() (log scale; below 0.01 drawn at 0.01)\npeers: the names with their source in brackets; lu_sql.*: the portable SQL edition" font \',12\'',
		"set datafile separator '|'", 'set style fill solid 0.9 border -1',
		"set logscale x; set xrange [0.01:20]; set grid x; set xlabel 'ratio to gen_random_uuid() (1 = as costly)'",
		"set yrange [$n-0.5:-0.5]; set ytics nomirror; set key top right box opaque; set lmargin 42",
		"set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lw 2 lc rgb '#888888'", 'v(x) = (x > 0.01) ? x : 0.01',
		q{plot 'cost_plot.dat' using (v($2)):($0-0.27):(0.01):(v($2)):($0-0.4):($0-0.14):ytic(1) with boxxyerror lc rgb '#1b9e77' title 'one backend, count(f())', \\},
		q{  '' using (v($3)):($0):(0.01):(v($3)):($0-0.13):($0+0.13) with boxxyerror lc rgb '#7570b3' title 'pgbench, 1 client', \\},
		q{  '' using (v($4)):($0+0.27):(0.01):(v($4)):($0+0.14):($0+0.4) with boxxyerror lc rgb '#e7298a' title 'pgbench, } . "$o{'cc-clients'} clients'");
}
say('writing tables and plots');
$node->stop;
system('cp', $node->logfile, "$OUT/server.log");
system('awk', '-F,', '-v', "out=$OUT", '-f', "$BENCH/report.awk", $RAW) == 0 or die "run.pl: report.awk failed\n";
plots();
if ($o{publish}) {
	make_path($o{publish});
	system('cp', $_, $o{publish}) for grep { -f } map { "$OUT/$_" } qw(raw.csv cost.csv cost_concurrent.csv
	  monotonic.csv locality.csv concurrent.csv short.csv short_concurrent.csv targets.csv keyspace.png
	  keyspace-zoom.png wal.png short.png cost.png);
	say("copied the CSV files and plots to $o{publish}; perl test/bench/page.pl writes docs/bench/README.md's tables");
}
print `cat '$OUT/results.md'`;
say('done in ' . int(time - $START) . " s; output in $OUT");
