#!/usr/bin/env perl
# Inserts and reads past memory: the server of a throw-away cluster (PostgreSQL's TAP framework)
# in a memory cgroup, each generator's table loaded by pgbench in 1000-row batches until table
# and index are many times the limit, then point lookups of recent and of any rows. It prints
# and writes figures; it judges nothing. Method: docs/bench/README.md, "Inserts and reads past memory".
#
# Usage (as root): perl test/bench/past_memory.pl [options]
# Needs: root, to make the memory cgroup (cgroup v1's memory hierarchy, or v2 with the memory
# controller; the server runs as postgres in it, the harness outside it); gnuplot for the plot;
# disk for the largest table with its index and WAL (the loads stop at --max-mb; each table is
# dropped before the next); time: generators x clients x (--seconds + about 5 s of reads; 10 s with tables of gigabytes).
# The defaults (13 generators, 1 and 8 clients, 90 s) take about 45 minutes.
#   --limit MB (64)            the server's memory limit (cgroup, page cache included)
#   --shared-buffers MB        shared_buffers (default: a quarter of --limit)
#   --seconds N (90)           length of each load (pgbench -T), progress every --progress N (5) s
#   --clients LIST (1,8)       pgbench clients of the loads, one load each
#   --checkpoint-timeout S (300)  checkpoint_timeout: short loads see full-page images only with a short one
#   --max-mb N (20000)         stop a load when table and index reach N MB
#   --lookups N (5000)         point lookups of each kind after each load, of --ids N (2000) sampled rows
#   --only LIST                these generators (names: --list)
#   --clock-step S             move the server's clock S seconds forward (600: a 10-minute bucket
#                              of locality_uuid(true)) after every --clock-every N (2) progress
#                              lines of a load; libfaketime (package faketime) on the server
#                              (its timed checkpoints then come at each step)
#   --short                    the smoke run: 32 MB, 3 s loads, 3 generators, 300 lookups
#   --vendor DIR               the peers' source tarballs with SHA256SUMS ($LOCALITY_UUID_VENDOR)
#   --no-build                 use the installed extension
#   --out DIR (test/bench/out/past_memory)   output: past_memory_{raw,progress,load,reads}.csv,
#                              past_memory.png, past_memory.md; --publish DIR copies them there
#   --check-cgroup             say whether a memory cgroup can be made here (exit 0) or why not (exit 3)
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use POSIX qw(floor WNOHANG);
use Time::HiRes qw(time sleep);
use lib dirname(abs_path($0));
use Bench ();
use Cgroup ();

our ($BENCH, $ROOT, %o, $OUT, $START, $TERM_OUT, $TERM_ERR, %peer_skip);

# Bench's and Cgroup's, under the names the script uses.
sub say { Bench::say(@_) }
sub write_file { Bench::write_file(@_) }
sub read_file { Bench::read_file(@_) }

# The parent (root) makes the cgroup, builds and installs, runs the rest as postgres (initdb
# refuses root) and moves the server into the cgroup when asked; it removes the cgroup at the end.
BEGIN {
	($BENCH, $ROOT, $START) = Bench::start();
	my @args = @ARGV;
	%o = (limit => 64, 'shared-buffers' => 0, seconds => 90, progress => 5, clients => '1,8',
		'max-mb' => 20000, lookups => 5000, ids => 2000, only => '', short => 0, 'clock-step' => 0, 'clock-every' => 2,
		'checkpoint-timeout' => 300,
		vendor => $ENV{LOCALITY_UUID_VENDOR} // '', build => 1, out => "$BENCH/out/past_memory",
		publish => '', child => 0, list => 0, 'check-cgroup' => 0);
	Bench::options(\%o, { limit => 32, seconds => 3, progress => 1, lookups => 300, ids => 300,
			only => 'bigserial,gen_random_uuid,locality_true' },
		(map { "$_=i" } qw(limit shared-buffers seconds progress max-mb lookups ids clock-step clock-every checkpoint-timeout)),
		qw(clients=s only=s short vendor=s build! out=s publish=s child list check-cgroup));
	$o{'shared-buffers'} ||= int($o{limit} / 4);
	Bench::positive(\%o, qw(limit shared-buffers seconds progress lookups ids clock-every checkpoint-timeout));
	$o{clients} =~ /^\d+(,\d+)*$/ or die "past_memory.pl: --clients is a list like 1,8\n";
	$o{vendor} = abs_path($o{vendor}) // $o{vendor} if $o{vendor};
	my $parent = Cgroup::parent(\%o, qw(*.csv *.md *.dat *.png *.gp *.gp.log *.log *.pgbench lookup_log* cgroup.* src
		  tmp_check));
	$OUT = $o{out};
	if ($parent) {
		my $raw = '';
		# The peers the generators need: pg_uuidv7's and sequential_uuids' (su_*).
		for (grep { !$o{only} || $o{only} =~ $_->[2] } [ pg_uuidv7 => 'pg_uuidv7-1.6.0.tar.gz', qr/\bpg_uuidv7\b/ ],
			[ sequential_uuids => 'sequential_uuids-1.0.3.tar.gz', qr/\bsu_/ ]) {
			my ($line, $why) = Bench::peer_install(@$_[ 0, 1 ], $OUT, $o{vendor}, \&say);
			$raw .= $line;
			$raw .= "skip,peer,$_->[0]," . ($why =~ s/,/;/gr) . "\n" if $why;
		}
		write_file("$OUT/past_memory_raw.csv", $raw);
		exit Cgroup::run_child($o{limit}, $OUT, "$OUT/past_memory_raw.csv", \&say, @args);
	}
	($TERM_OUT, $TERM_ERR) = Bench::framework($OUT);
}
# After the framework's own END (which stops the server): the cgroup (parent), the data
# directory, which may hold gigabytes (child, also after a failure).
our $DATA;
END { Cgroup::remove() if $Cgroup::CG && $> == 0; remove_tree($DATA) if $DATA && -d $DATA }

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils ();
use Test::More ();
use lib "$ROOT/test/t";
use LocalityUuid qw(libfaketime fake_clock_env set_fake_clock);
Test::More->builder->no_ending(1);
open STDOUT, '>&', $TERM_OUT or die;
open STDERR, '>&', $TERM_ERR or die;

# Every generator: [label, class, database, column type, DEFAULT, id expression of the INSERT
# (g: 1 to 1000) when not the DEFAULT, function that must exist].
my $SU = 'bench_su';
my @ORDER = qw(bigserial gen_random_uuid uuidv7 uuidv7_ordered locality_true locality_false hot_1 hot_1000
  time_nextval seq_nextval pg_uuidv7 su_time su_seq);
sub specs
{
	my ($v7) = @_;
	return (
		bigserial => [ 'bigserial', 'baseline', 'postgres', 'bigint', "nextval('bench_s')", '', '-' ],
		gen_random_uuid => [ 'gen_random_uuid()', 'random', 'postgres', 'uuid', 'gen_random_uuid()', '', '-' ],
		uuidv7 => [ $v7, $v7 =~ /PostgreSQL/ ? 'peer' : 'ordered', 'postgres', 'uuid', 'uuidv7()', '', 'uuidv7()' ],
		uuidv7_ordered => [ 'uuidv7_ordered()', 'ordered', 'postgres', 'uuid', 'uuidv7_ordered()', '', 'uuidv7_ordered()' ],
		locality_true => [ 'locality_uuid(true)', 'ordered', 'postgres', 'uuid', 'locality_uuid(true)', '', 'locality_uuid(boolean)' ],
		locality_false => [ 'locality_uuid(false)', 'spread', 'postgres', 'uuid', 'locality_uuid(false)', '', 'locality_uuid(boolean)' ],
		hot_1 => [ 'hot_uuid(0): 1 key', 'ordered', 'postgres', 'uuid', 'hot_uuid(0::bigint)', '', 'hot_uuid(bigint)' ],
		hot_1000 => [ 'hot_uuid(n % 1000): 1000 keys', 'spread', 'postgres', 'uuid', 'hot_uuid(0::bigint)', 'hot_uuid((g % 1000)::bigint)', 'hot_uuid(bigint)' ],
		time_nextval => [ 'uuid_time_nextval()', 'block', 'postgres', 'uuid', 'uuid_time_nextval()', '', 'uuid_time_nextval(integer,integer)' ],
		seq_nextval => [ 'uuid_sequence_nextval(s)', 'block', 'postgres', 'uuid', "uuid_sequence_nextval('bench_s'::regclass)", '', 'uuid_sequence_nextval(regclass,integer,integer)' ],
		pg_uuidv7 => [ 'uuid_generate_v7() (pg_uuidv7)', 'peer', 'postgres', 'uuid', 'uuid_generate_v7()', '', 'uuid_generate_v7()' ],
		su_time => [ 'uuid_time_nextval() (sequential_uuids)', 'peer', $SU, 'uuid', 'uuid_time_nextval()', '', 'uuid_time_nextval(integer,integer)' ],
		su_seq => [ 'uuid_sequence_nextval(s) (sequential_uuids)', 'peer', $SU, 'uuid', "uuid_sequence_nextval('bench_s'::regclass)", '', 'uuid_sequence_nextval(regclass,integer,integer)' ]);
}
if ($o{list}) { my %s = specs('uuidv7()'); print map { "$_\t$s{$_}[0]\n" } @ORDER; exit 0 }
my @gens = @ORDER;
if ($o{only}) {
	my %known = map { $_ => 1 } @ORDER;
	@gens = split /,/, $o{only};
	$known{$_} or die "past_memory.pl: unknown generator $_ (one of @ORDER)\n" for @gens;
}
my @CLIENTS = split /,/, $o{clients};

my $major = `"$ENV{PG_CONFIG}" --version` =~ s/^PostgreSQL (\d+).*/$1/sr;
my $SB = $o{'shared-buffers'};
my $LIMIT = $o{limit};
my $maxc = (sort { $b <=> $a } @CLIENTS)[0];
my $node = PostgreSQL::Test::Cluster->new('past_memory');
# Interrupted: die, so that the END blocks stop the server and remove the cgroup.
$SIG{$_} = sub { die "past_memory.pl: interrupted ($_[0])\n" } for qw(INT TERM HUP);
$node->init(extra => [ '-E', 'UTF8', '--locale=C' ]);
$DATA = $node->data_dir;
# No autovacuum: its insert-triggered vacuums would read the table in the middle of a load.
$node->append_conf('postgresql.conf', join "\n", "shared_buffers = ${SB}MB", 'huge_pages = off',
	'autovacuum = off', 'synchronous_commit = off', 'max_wal_size = 1GB', "checkpoint_timeout = $o{'checkpoint-timeout'}s",
	'log_statement = none',
	'wal_level = replica', 'max_wal_senders = 10', 'max_connections = ' . ($maxc + 10),
	$major < 17 ? "shared_preload_libraries = 'locality_uuid'" : ());
# With --clock-step: the server on a clock of its own, moved forward during each load.
my ($CLOCK, $OFFSET) = ("$OUT/clock", 0);
if ($o{'clock-step'}) {
	libfaketime() or die "past_memory.pl: --clock-step needs libfaketime (apt-get install faketime)\n";
	write_file($CLOCK, "+0\n");
	my %env = fake_clock_env($CLOCK);
	local @ENV{ keys %env } = values %env;
	$node->start;
} else {
	$node->start;
}
my ($HOST, $PORT) = ($node->host, $node->port);
my $PM = (read_file($node->data_dir . '/postmaster.pid') // '') =~ s/\n.*//sr;

$ENV{PGOPTIONS} = '-c client_min_messages=warning';
# psql DB ARGS...: psql's output (-At -F,); dies on an error.
sub psql
{
	my ($db, @args) = @_;
	open my $p, '-|', 'psql', '-h', $HOST, '-p', $PORT, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-At', '-F,', '-d', $db, @args
	  or die "psql: $!";
	local $/;
	my $out = <$p> // '';
	close $p or die "past_memory.pl: psql failed in $db: @args\n";
	$out =~ s/\n\z//;
	return $out;
}
sub q1 { psql($_[0], '-c', $_[1]) }
my $PGBENCH = "pgbench -n -h '$HOST' -p $PORT";

# Into the cgroup: the parent (root) moves the postmaster and its children; later ones inherit.
my ($m, $backend) = Cgroup::join_server($OUT, $PM, sub { q1('postgres', $_[0]) });
my @member = @$m;
my ($bpid, $bline) = split / /, $backend, 2;
say("server in the cgroup: postmaster $member[0]; a backend $bpid $bline");

q1('postgres', 'CREATE EXTENSION locality_uuid; CREATE EXTENSION pgstattuple;');
my %raw;
$raw{$_} = 1 for grep { /^skip,peer,/ } split /\n/, read_file("$OUT/past_memory_raw.csv") // '';
my %peer_out = map { /^skip,peer,([^,]+),/ ? ($1 => 1) : () } keys %raw;
$peer_out{pg_uuidv7} = 1 unless grep { $_ eq 'pg_uuidv7' } @gens;
$peer_out{sequential_uuids} = 1 unless grep { /^su_/ } @gens;
q1('postgres', 'CREATE EXTENSION pg_uuidv7') unless $peer_out{pg_uuidv7};
unless ($peer_out{sequential_uuids}) {
	q1('postgres', "CREATE DATABASE $SU");
	q1($SU, 'CREATE EXTENSION sequential_uuids; CREATE EXTENSION pgstattuple;');
}
my $server_num = q1('postgres', 'SHOW server_version_num');
my $v7_owner = q1('postgres', "SELECT CASE WHEN l.lanname = 'internal' THEN 'core' WHEN p.probin LIKE '%locality_uuid' THEN 'ours' ELSE 'other' END FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = to_regprocedure('uuidv7()')");
my $V7 = $v7_owner eq 'core' ? 'uuidv7() (PostgreSQL ' . substr($server_num, 0, 2) . ')' : 'uuidv7()';
my %SPEC = specs($V7);

my @meta = ('meta,machine,' . Bench::machine(), 'meta,postgres,' . q1('postgres', 'SHOW server_version'),
	'meta,extension,' . q1('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'"),
	"meta,cgroup,v$Cgroup::CG->{version} $Cgroup::CG->{dir}", "meta,limit_mb,$LIMIT", "meta,shared_buffers_mb,$SB", "meta,seconds,$o{seconds}",
	"meta,progress_s,$o{progress}", 'meta,clients,' . join(' ', @CLIENTS), "meta,max_mb,$o{'max-mb'}",
	"meta,lookups,$o{lookups}", "meta,ids,$o{ids}", "meta,clock_step_s,$o{'clock-step'}", "meta,clock_every,$o{'clock-every'}", "meta,batch_rows,1000", 'meta,short,' . ($o{short} ? 1 : 0),
	(map { "meta,member,$_" } @member), "meta,member_backend,$bpid $bline", "meta,v7_owner,$v7_owner",
	'meta,settings,' . q1('postgres', "SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'synchronous_commit', 'max_wal_size', 'checkpoint_timeout', 'autovacuum', 'wal_level', 'full_page_writes', 'huge_pages')"),
	'meta,command,perl test/bench/past_memory.pl ' . ($ENV{BENCH_ARGS} // ''),
	'meta,date,' . `date -u '+%Y-%m-%d %H:%M UTC'` =~ s/\n//r, 'meta,load_at_start,' . Bench::loadavg());
my @RAW = ((grep { length } split /\n/, read_file("$OUT/past_memory_raw.csv") // ''), @meta);

# available DB FUNCTION: whether a generator's function is there.
sub available
{
	my ($db, $fn) = @_;
	return 0 if $db eq $SU && $peer_out{sequential_uuids};
	return $fn eq '-' || q1($db, "SELECT to_regprocedure('$fn') IS NOT NULL") eq 't';
}

# counters DB: cumulative WAL bytes, full-page images and blocks read of the server.
# Blocks read: pg_stat_io (16 and later: every relation, reads only); pg_statio on 15, where a new
# page counts as a read: the pages the table and index grew by are taken off after the load.
sub counters
{
	my ($db) = @_;
	my $reads = $server_num >= 160000 ? "(SELECT sum(reads) FROM pg_stat_io WHERE object = 'relation')"
	  : "(SELECT coalesce(heap_blks_read, 0) + coalesce(idx_blks_read, 0) + coalesce(toast_blks_read, 0) + coalesce(tidx_blks_read, 0) FROM pg_statio_all_tables WHERE relid = 'bench_t'::regclass)";
	my ($wal, $fpi, $rd, $pages) = split /,/, q1($db, "SELECT w.wal_bytes, w.wal_fpi, coalesce($reads, 0), "
		  . "(pg_table_size('bench_t') + pg_indexes_size('bench_t')) / 8192 FROM pg_stat_wal w");
	return { wal => $wal, fpi => $fpi, reads => $rd, pages => $pages };
}
# wait_clients DB: until pgbench's backends have exited (and flushed their statistics).
sub wait_clients
{
	q1($_[0], q{DO $$ BEGIN FOR i IN 1..1000 LOOP PERFORM pg_stat_clear_snapshot(); EXIT WHEN (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()) = 0; PERFORM pg_sleep(0.01); END LOOP; END $$});
}
# sizes DB: table and index sizes in MB.
sub sizes
{
	my ($t, $i) = split /,/, q1($_[0], "SELECT pg_table_size('bench_t') / 1048576.0, pg_indexes_size('bench_t') / 1048576.0");
	return ($t, $i);
}
sub f2 { sprintf '%.2f', $_[0] }
# pct LIST P: the P-th percentile (nearest rank) of a sorted list.
sub pct { my ($l, $p) = @_; return $l->[ $p * @$l > 1 ? int($p * @$l + 0.999999) - 1 : 0 ] }
# csvq TEXT: TEXT quoted for CSV when it holds a comma or a quote.
sub csvq { my ($t) = @_; return $t =~ /[",]/ ? '"' . ($t =~ s/"/""/gr) . '"' : $t }

my (@progress, @load, @reads);
# load GEN CLIENTS: one load of a fresh table, then its reads; appends to the three lists.
sub load
{
	my ($gen, $c) = @_;
	my ($label, $class, $db, $type, $def, $expr) = @{ $SPEC{$gen} };
	q1($db, "DROP TABLE IF EXISTS bench_t, bench_ids_recent, bench_ids_all; DROP SEQUENCE IF EXISTS bench_s; CREATE SEQUENCE bench_s;"
		  . " CREATE TABLE bench_t (id $type PRIMARY KEY DEFAULT $def, n int8); CHECKPOINT;");
	my $script = "$OUT/insert_$gen.pgbench";
	write_file($script, "-- One transaction of the load: 1000 rows.\n"
		  . ($expr ? "INSERT INTO bench_t (id, n) SELECT $expr, g FROM generate_series(1, 1000) g;\n"
			  : "INSERT INTO bench_t (n) SELECT g FROM generate_series(1, 1000) g;\n"));
	my $c0 = counters($db);
	# The harness's clock: the server's may be moved (--clock-step).
	my $w0 = time;
	my $j = $c < 2 ? $c : 2;
	my $pid = open my $pb, '-|', 'sh', '-c', "exec $PGBENCH -c $c -j $j -T $o{seconds} -P $o{progress} -f '$script' $db 2>&1"
	  or die "past_memory.pl: pgbench: $!\n";
	my ($t0, $rows, $tx, $stopped, @samples) = (0, 0, undef, '');
	open my $log, '>>', "$OUT/pgbench.log" or die;
	print $log "== $gen, $c clients\n";
	while (my $l = <$pb>) {
		print $log $l;
		$tx = $1 if $l =~ /^number of transactions actually processed: (\d+)/;
		next unless $l =~ /^progress: ([\d.]+) s, ([\d.]+) tps/;
		my ($t, $tps) = ($1, $2);
		$rows += $tps * 1000 * ($t - $t0);
		$t0 = $t;
		my ($tm, $im) = sizes($db);
		my $x = ($tm + $im) / $LIMIT;
		push @samples, [ $t, $rows, $tps * 1000, $tm, $im, $x ];
		push @progress, join ',', $gen, csvq($label), $c, $t, sprintf('%.0f', $rows), sprintf('%.0f', $tps * 1000), f2($tm), f2($im), f2($x);
		# The server's clock forward (read by the server within about 2 s, which this waits).
		if ($o{'clock-step'} && @samples % $o{'clock-every'} == 0) {
			$OFFSET += $o{'clock-step'};
			set_fake_clock($CLOCK, "+$OFFSET");
		}
		if ($tm + $im >= $o{'max-mb'} && !$stopped) {
			$stopped = "at $o{'max-mb'} MB";
			kill 'INT', $pid;
		}
	}
	close $pb;
	close $log;
	wait_clients($db);
	my $c1 = counters($db);
	my $secs = time - $w0;
	$rows = defined $tx ? $tx * 1000 : int($rows);
	$rows > 0 or die "past_memory.pl: the load of $label with $c clients inserted nothing, see $OUT/pgbench.log\n";
	my ($tm, $im) = sizes($db);
	my $x = ($tm + $im) / $LIMIT;
	my @past = map { $_->[2] } grep { $_->[5] >= 8 } @samples;
	my $past8 = @past ? sprintf('%.0f', eval { my $s = 0; $s += $_ for @past; $s / @past }) : '';
	my $rd = $c1->{reads} - $c0->{reads} - ($server_num >= 160000 ? 0 : $c1->{pages} - $c0->{pages});
	$rd = 0 if $rd < 0;
	say(sprintf('  %s, %d client(s): %d rows in %.0f s, %.0f rows/s%s; table %.0f MB + index %.0f MB = %.1fx the limit; WAL %.0f B/row, FPI %.2f/1000 rows, %.2f blocks read/1000 rows',
		$label, $c, $rows, $secs, $rows / $secs, $past8 ne '' ? ", $past8 rows/s past 8x" : '', $tm, $im, $x,
		($c1->{wal} - $c0->{wal}) / $rows, ($c1->{fpi} - $c0->{fpi}) * 1000 / $rows, $rd * 1000 / $rows));

	# Reads: ids of random rows of the newest 1 % of the heap's pages and of all of them
	# (insert-only: the heap's order is the order of insertion), by TID, then looked up by id.
	my $blocks = q1($db, "SELECT pg_relation_size('bench_t') / 8192");
	my @rd;
	for my $kind ([ recent => floor($blocks * 0.99) ], [ all => 0 ]) {
		my ($k, $lo) = @$kind;
		$lo = $blocks - 1 if $lo > $blocks - 1;
		my $nids = q1($db, "CREATE TABLE bench_ids_$k (k int PRIMARY KEY, id $type);"
			  . " INSERT INTO bench_ids_$k SELECT row_number() OVER (), id FROM (SELECT id FROM (SELECT DISTINCT id FROM bench_t"
			  . " WHERE ctid = ANY (ARRAY(SELECT format('(%s,%s)', $lo + floor(random() * ($blocks - $lo)), 1 + floor(random() * 40))::tid"
			  . " FROM generate_series(1, " . 3 * $o{ids} . ")))) d ORDER BY random() LIMIT $o{ids}) s;"
			  . " SELECT count(*) FROM bench_ids_$k;");
		$nids > 0 or die "past_memory.pl: no ids sampled from ${label}'s table\n";
		my $ls = "$OUT/lookup_$k.pgbench";
		write_file($ls, "-- One point lookup by id of a sampled row.\n\\set k random(1, $nids)\n"
			  . "SELECT n FROM bench_t WHERE id = (SELECT id FROM bench_ids_$k WHERE k = :k);\n");
		my $io = "SELECT heap_blks_read, idx_blks_read FROM pg_statio_user_tables WHERE relid = 'bench_t'::regclass";
		my ($h0, $i0) = split /,/, q1($db, $io);
		unlink glob "$OUT/lookup_log*";
		system("cd '$OUT' && $PGBENCH -c 1 -j 1 -t $o{lookups} -M prepared -l --log-prefix=lookup_log -f '$ls' $db >>'$OUT/pgbench.log' 2>&1") == 0
		  or die "past_memory.pl: the lookups failed, see $OUT/pgbench.log\n";
		wait_clients($db);
		my ($h1, $i1) = split /,/, q1($db, $io);
		my @lat;
		for my $f (glob "$OUT/lookup_log*") {
			push @lat, map { (split / /)[2] / 1000 } grep { /^\d/ } split /\n/, read_file($f);
			unlink $f;
		}
		@lat == $o{lookups} or die "past_memory.pl: " . scalar(@lat) . " lookup latencies logged, expected $o{lookups}\n";
		@lat = sort { $a <=> $b } @lat;
		my ($med, $p99) = (pct(\@lat, 0.5), pct(\@lat, 0.99));
		my $bpl = ($h1 - $h0 + $i1 - $i0) / $o{lookups};
		my $ipl = ($i1 - $i0) / $o{lookups};
		push @reads, join ',', $gen, csvq($label), $c, $k, $nids, $o{lookups}, sprintf('%.3f', $med), sprintf('%.3f', $p99),
		  sprintf('%.3f', $bpl), sprintf('%.3f', $ipl), f2($x);
		push @rd, sprintf('%s: median %.3f ms, p99 %.3f ms, %.2f blocks read a lookup (%.2f index)', $k, $med, $p99, $bpl, $ipl);
	}
	say("  lookups ($o{lookups} each), $label, $c client(s): " . join('; ', @rd));
	my ($dens, $lp, $frag) = split /,/, q1($db, "SELECT avg_leaf_density, leaf_pages, leaf_fragmentation FROM pgstatindex('bench_t_pkey')");
	say("  index of $label, $c client(s): leaf density $dens %, $lp leaf pages, fragmentation $frag %");
	push @load, join ',', $gen, csvq($label), $class, $c, sprintf('%.1f', $secs), $rows, sprintf('%.0f', $rows / $secs), $past8,
	  sprintf('%.1f', ($c1->{wal} - $c0->{wal}) / $rows), sprintf('%.3f', ($c1->{fpi} - $c0->{fpi}) * 1000 / $rows),
	  sprintf('%.3f', $rd * 1000 / $rows), f2($tm), f2($im), f2($x), $dens, $frag, $stopped;
	q1($db, 'DROP TABLE bench_t, bench_ids_recent, bench_ids_all; DROP SEQUENCE bench_s; CHECKPOINT;');
}

my %HEAD = (progress => 'generator,label,clients,t_s,rows,rows_per_s,table_mb,index_mb,x_limit',
	load => 'generator,label,class,clients,seconds,rows,rows_per_s,rows_per_s_past_8x,wal_bytes_per_row,fpi_per_1000_rows,blocks_read_per_1000_rows,table_mb,index_mb,x_limit,leaf_density,leaf_fragmentation,stopped',
	reads => 'generator,label,clients,kind,ids,lookups,median_ms,p99_ms,blocks_read_per_lookup,index_blocks_read_per_lookup,x_limit');
# write_csvs: the CSV files of what was measured so far.
sub write_csvs
{
	write_file("$OUT/past_memory_raw.csv", join '', map { "$_\n" } @RAW);
	write_file("$OUT/past_memory_$_->[0].csv", join '', map { "$_\n" } $HEAD{ $_->[0] }, @{ $_->[1] })
	  for [ progress => \@progress ], [ load => \@load ], [ reads => \@reads ];
}

say(scalar(@gens) . " generators x clients @CLIENTS, $o{seconds} s each; memory limit $LIMIT MB, shared_buffers $SB MB");
for my $gen (@gens) {
	my ($label, undef, $db, undef, undef, undef, $fn) = @{ $SPEC{$gen} };
	unless (available($db, $fn)) {
		my $why = $db eq $SU ? 'sequential_uuids: not installed' : "$fn is not installed";
		say("skip $label: $why");
		push @RAW, "skip,$gen," . csvq($label) . ",$why";
		next;
	}
	for my $c (@CLIENTS) {
		say("$label: $c client" . ($c == 1 ? '' : 's') . ", $o{seconds} s");
		load($gen, $c);
		write_csvs();
	}
}
push @RAW, 'meta,load_at_end,' . Bench::loadavg(), 'meta,seconds_total,' . int(time - $START);
write_csvs();
$node->stop;
system('cp', $node->logfile, "$OUT/server.log");
# The data directory goes now: it may hold gigabytes of WAL.
remove_tree($DATA);

# The plot: rows a second against rows in the table, one line per generator, one panel per
# client count; a circle where table and index reach the memory limit, a square at 8x.
sub plot
{
	my %by;
	for (@progress) {
		my @f = Text::ParseWords::parse_line(',', 0, $_);
		push @{ $by{ $f[2] }{ $f[0] } }, \@f;
	}
	my @gp = ("set multiplot layout " . scalar(@CLIENTS) . ",1 title 'Inserts past memory: the server in a cgroup of $LIMIT MB (shared_buffers $SB MB), pgbench, 1000-row batches; o: table + index reach the limit, square: 8x the limit' font ',11'",
		"set grid; set xlabel 'rows in the table (millions)'; set ylabel 'rows per second (thousands)'; set yrange [0:*]",
		"set key outside right top spacing 1.2; set rmargin at screen 0.7");
	my @lt = ('#000000', '#d62728', '#777777', '#1f77b4', '#2ca02c', '#17becf', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#bcbd22', '#000080', '#800000');
	for my $c (@CLIENTS) {
		my (@plot, @marks);
		my $i = 0;
		open my $d, '>', "$OUT/past_memory_$c.dat" or die;
		for my $gen (grep { $by{$c}{$_} } @gens) {
			my @s = @{ $by{$c}{$gen} };
			print $d map { sprintf("%.4f %.3f\n", $_->[4] / 1e6, $_->[5] / 1000) } @s;
			print $d "\n\n";
			my $color = $lt[ (grep { $ORDER[$_] eq $gen } 0 .. $#ORDER)[0] % @lt ];
			my $dash = $SPEC{$gen}[1] eq 'peer' ? ' dt 4' : $SPEC{$gen}[1] =~ /baseline|random/ ? ' dt 2' : '';
			push @plot, "'past_memory_$c.dat' index $i using 1:2 with lines lw 2$dash lc rgb '$color' title \"" . ($s[0][1] =~ s/"//gr) . '"';
			for my $m ([ 1, 6 ], [ 8, 4 ]) {
				my ($at) = grep { $_->[8] >= $m->[0] } @s;
				push @marks, sprintf("set object circle at %.4f,%.3f size char 0.5 fc rgb '%s' fs solid", $at->[4] / 1e6, $at->[5] / 1000, $color)
				  if $at && $m->[0] == 1;
				push @marks, sprintf("set object rect center %.4f,%.3f size char 1,char 0.6 fc rgb '%s' fs solid", $at->[4] / 1e6, $at->[5] / 1000, $color)
				  if $at && $m->[0] == 8;
			}
			$i++;
		}
		close $d;
		push @gp, "unset object", @marks, "set title '$c client" . ($c == 1 ? '' : 's') . "'", 'plot ' . join(', ', @plot);
	}
	Bench::gnuplot($OUT, 'past_memory', 480 * @CLIENTS + 60, @gp, 'unset multiplot');
}

# The summary: each load with its reads, as ratios to bigserial's with as many clients.
sub summary
{
	my %ld = map { my @f = Text::ParseWords::parse_line(',', 0, $_); ("$f[0]|$f[3]" => \@f) } @load;
	my %rd = map { my @f = Text::ParseWords::parse_line(',', 0, $_); ("$f[0]|$f[2]|$f[3]" => \@f) } @reads;
	my $r = sub { my ($v, $base) = @_; return defined $v && $v ne '' && $base && $base > 0 ? sprintf('%.2f', $v / $base) : '' };
	my @t = ("# Inserts and reads past memory\n", "Memory limit $LIMIT MB, shared_buffers $SB MB, $o{seconds} s loads; ratios to bigserial's with as many clients",
		"(inserts: rows/s once table + index are 8x the limit; reads: blocks read a lookup).\n",
		'| generator | clients | rows | rows/s | past 8x | x bigserial | WAL B/row | FPI/1000 | reads/1000 | index MB | x limit | leaf % | recent median ms | p99 | blocks | x bigserial | all median ms | p99 | blocks |',
		'|-|-:|-:|-:|-:|-:|-:|-:|-:|-:|-:|-:|-:|-:|-:|-:|-:|-:|-:|');
	for my $c (@CLIENTS) {
		for my $gen (@gens) {
			my $l = $ld{"$gen|$c"} or next;
			my $bl = $ld{"bigserial|$c"};
			my ($re, $al, $br) = ($rd{"$gen|$c|recent"}, $rd{"$gen|$c|all"}, $rd{"bigserial|$c|recent"});
			push @t, '| ' . join(' | ', "`$l->[1]`", $c, $l->[5], $l->[6], $l->[7], $bl ? $r->($l->[7], $bl->[7]) : '', @$l[ 8, 9, 10, 12, 13, 14 ],
				@$re[ 6, 7, 8 ], $br ? $r->($re->[8], $br->[8]) : '', @$al[ 6, 7, 8 ]) . ' |';
		}
	}
	write_file("$OUT/past_memory.md", join "\n", @t, '');
}
require Text::ParseWords;
plot();
summary();
if ($o{publish}) {
	make_path($o{publish});
	system('cp', "$OUT/$_", $o{publish}) for map { "past_memory_$_" } qw(raw.csv progress.csv load.csv reads.csv), 'past_memory.png';
	say("copied the CSV files and the plot to $o{publish}");
}
print read_file("$OUT/past_memory.md");
say('done in ' . int(time - $START) . " s; output in $OUT");
