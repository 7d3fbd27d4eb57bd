#!/usr/bin/env perl
# Time questions past memory: "the rows of the last hour", "of one day a month ago", "of a month"
# asked of a table of uuidv7_ordered(at) ids (primary key on the id) four ways, the server in the
# memory cgroup of past_memory.pl; then inserts into the table with and without an expression
# index on uuidv7_timestamp(id), the index the new spelling saves. It prints and writes figures
# and says which targets were met; it fails only when a spelling errs or counts other rows than
# the plain predicate. Method: docs/bench/README.md, "Time questions".
#
# Usage (as root): perl test/bench/time_questions.pl [options]
# Needs: root (the memory cgroup, as past_memory.pl); gnuplot for the plot; disk for two tables
# of --rows rows with their indexes (10,000,000 rows: about 2 GB). The defaults take about 15 minutes.
#   --rows N (10000000)        rows of each table, made over --days D (60) ending when the run starts
#   --limit MB (64)            the server's memory limit (cgroup, page cache included)
#   --shared-buffers MB        shared_buffers (default: a quarter of --limit)
#   --rounds N (5)             interleaved rounds of the questions (each: every question, every
#                              spelling, cold then warm)
#   --insert-rounds N (3)      interleaved rounds of the inserts, --insert-seconds S (10) each
#                              table and round, --insert-clients N (2), 1000-row batches
#   --short                    the smoke run: 30,000 rows, 32 MB, 1 round of each, 2 s inserts
#   --no-build                 use the installed extension
#   --out DIR (test/bench/out/time_questions)   output: time_questions_{raw,queries,inserts,
#                              summary}.csv, time_questions.png; --publish DIR copies them there
#   --check-cgroup             say whether a memory cgroup can be made here (exit 0) or why not (exit 3)
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use JSON::PP ();
use Text::ParseWords ();
use Time::HiRes qw(time);
use lib dirname(abs_path($0));
use Bench ();
use Cgroup ();

our ($BENCH, $ROOT, %o, $OUT, $START, $TERM_OUT, $TERM_ERR);

sub say { Bench::say(@_) }
sub write_file { Bench::write_file(@_) }
sub read_file { Bench::read_file(@_) }
sub median { Bench::median(@_) }

# The parent (root) builds and installs, then runs the rest as postgres in the cgroup (Cgroup.pm).
BEGIN {
	($BENCH, $ROOT, $START) = Bench::start();
	my @args = @ARGV;
	%o = (rows => 10_000_000, days => 60, limit => 64, 'shared-buffers' => 0, rounds => 5, 'insert-rounds' => 3,
		'insert-seconds' => 10, 'insert-clients' => 2, short => 0, build => 1, out => "$BENCH/out/time_questions",
		publish => '', child => 0, 'check-cgroup' => 0);
	Bench::options(\%o, { rows => 30_000, limit => 32, rounds => 1, 'insert-rounds' => 1, 'insert-seconds' => 2 },
		(map { "$_=i" } qw(rows days limit shared-buffers rounds insert-rounds insert-seconds insert-clients)),
		qw(short build! out=s publish=s child check-cgroup));
	$o{'shared-buffers'} ||= int($o{limit} / 4);
	Bench::positive(\%o, qw(rows days limit shared-buffers rounds insert-rounds insert-seconds insert-clients));
	$o{days} > 31 or die "time_questions.pl: --days must be more than 31 (the questions reach a month back)\n";
	my $parent = Cgroup::parent(\%o, qw(*.csv *.dat *.png *.gp *.gp.log *.log *.pgbench cgroup.* tmp_check));
	$OUT = $o{out};
	if ($parent) {
		write_file("$OUT/time_questions_raw.csv", '');
		my $rc = Cgroup::run_child($o{limit}, $OUT, "$OUT/time_questions_raw.csv", \&say, @args);
		# The parent publishes: the child (postgres) may not write there.
		if ($rc == 0 && $o{publish}) {
			make_path($o{publish});
			system('cp', "$OUT/$_", $o{publish}) == 0 or die "time_questions.pl: cp $OUT/$_ $o{publish} failed\n"
			  for (map { "time_questions_$_.csv" } qw(raw queries inserts summary targets)), 'time_questions.png';
			say("copied the CSV files and the plot to $o{publish}");
		}
		exit $rc;
	}
	($TERM_OUT, $TERM_ERR) = Bench::framework($OUT);
}
# After the framework's own END (which stops the server): the data directory (also after a failure).
our $DATA;
END { remove_tree($DATA) if $DATA && -d $DATA }

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils ();
use Test::More ();
Test::More->builder->no_ending(1);
open STDOUT, '>&', $TERM_OUT or die;
open STDERR, '>&', $TERM_ERR or die;

my $major = `"$ENV{PG_CONFIG}" --version` =~ s/^PostgreSQL (\d+).*/$1/sr;
my ($SB, $LIMIT) = ($o{'shared-buffers'}, $o{limit});
my $node = PostgreSQL::Test::Cluster->new('time_questions');
# Interrupted: die, so that the END blocks stop the server and remove the cgroup.
$SIG{$_} = sub { die "time_questions.pl: interrupted ($_[0])\n" } for qw(INT TERM HUP);
$node->init(extra => [ '-E', 'UTF8', '--locale=C' ]);
$DATA = $node->data_dir;
# past_memory.pl's server; no autovacuum (the run vacuums after loading). The cgroup counts the
# backends' memory too: sorts kept small, and no parallel workers (a first run's leader and two
# workers of a seq scan were killed by the cgroup's OOM killer at 64 MB).
$node->append_conf('postgresql.conf', join "\n", "shared_buffers = ${SB}MB", 'huge_pages = off',
	'autovacuum = off', 'synchronous_commit = off', 'max_wal_size = 1GB', 'maintenance_work_mem = 8MB',
	'max_parallel_workers_per_gather = 0', 'max_parallel_maintenance_workers = 0',
	'log_statement = none', 'wal_level = replica', 'max_connections = 20',
	$major < 17 ? "shared_preload_libraries = 'locality_uuid'" : ());
$node->start;
my ($HOST, $PORT) = ($node->host, $node->port);
my $PM = (read_file($node->data_dir . '/postmaster.pid') // '') =~ s/\n.*//sr;

$ENV{PGOPTIONS} = '-c client_min_messages=warning';
# q1 SQL: psql's output (-At -F,) of SQL in database postgres; dies on an error.
sub q1
{
	open my $p, '-|', 'psql', '-h', $HOST, '-p', $PORT, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-At', '-F,', '-d', 'postgres', '-c', $_[0]
	  or die "psql: $!";
	local $/;
	my $out = <$p> // '';
	close $p or die "time_questions.pl: psql failed: $_[0]\n";
	return $out =~ s/\n\z//r;
}

# Into the cgroup: the parent (root) moves the postmaster and its children; later ones inherit.
my ($member, $backend) = Cgroup::join_server($OUT, $PM, \&q1);
say("server in the cgroup: postmaster $member->[0]; a backend $backend");
q1('CREATE EXTENSION locality_uuid');
my $MADE = q1("SELECT to_regprocedure('uuidv7_made(uuid,timestamptz,timestamptz)') IS NOT NULL") eq 't';

my @RAW = ((grep { length } split /\n/, read_file("$OUT/time_questions_raw.csv") // ''),
	'meta,machine,' . Bench::machine(), 'meta,postgres,' . q1('SHOW server_version'),
	'meta,extension,' . q1("SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'"),
	"meta,cgroup,v$Cgroup::CG->{version} $Cgroup::CG->{dir}", "meta,limit_mb,$LIMIT", "meta,shared_buffers_mb,$SB",
	"meta,rows,$o{rows}", "meta,days,$o{days}", "meta,rounds,$o{rounds}", "meta,insert_rounds,$o{'insert-rounds'}",
	"meta,insert_seconds,$o{'insert-seconds'}", "meta,insert_clients,$o{'insert-clients'}", 'meta,batch_rows,1000',
	'meta,short,' . ($o{short} ? 1 : 0), (map { "meta,member,$_" } @$member), "meta,member_backend,$backend",
	'meta,settings,' . q1("SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'synchronous_commit', 'max_wal_size', 'checkpoint_timeout', 'autovacuum', 'wal_level', 'huge_pages', 'max_parallel_workers_per_gather', 'maintenance_work_mem')"),
	'meta,command,perl test/bench/time_questions.pl ' . ($ENV{BENCH_ARGS} // ''),
	'meta,date,' . `date -u '+%Y-%m-%d %H:%M UTC'` =~ s/\n//r, 'meta,load_at_start,' . Bench::loadavg());
push @RAW, 'skip,spelling,made,uuidv7_made(uuid; timestamptz; timestamptz) is not in this build' unless $MADE;

# The tables: tq with its primary key only; tq_x the same rows, with the expression index too.
# The ids are made over --days ending at T (the run's start, to the second: every bound below
# is a whole millisecond, where the hand-written range is exact), in time order, in batches.
my $T = q1("SELECT date_trunc('second', now())");
push @RAW, "meta,t,$T";
my $BATCH = 1_000_000;
say("loading $o{rows} rows over $o{days} days ending $T, in batches of up to $BATCH");
q1('CREATE TABLE tq (id uuid NOT NULL, n int8)');
for (my $g0 = 0; $g0 < $o{rows}; $g0 += $BATCH) {
	my $g1 = $g0 + $BATCH < $o{rows} ? $g0 + $BATCH : $o{rows};
	q1("INSERT INTO tq SELECT uuidv7_ordered('$T'::timestamptz - interval '$o{days} days' * ($o{rows} - g)::float8 / $o{rows}), g"
		  . " FROM generate_series($g0 + 1, $g1) g");
}
say('primary key of tq; tq_x: a copy, its primary key and the expression index');
q1('ALTER TABLE tq ADD PRIMARY KEY (id)');
q1('CREATE TABLE tq_x (id uuid NOT NULL, n int8); INSERT INTO tq_x SELECT * FROM tq; ALTER TABLE tq_x ADD PRIMARY KEY (id)');
q1('CREATE INDEX tq_x_ts ON tq_x (uuidv7_timestamp(id))');
q1($_) for 'VACUUM ANALYZE tq', 'VACUUM ANALYZE tq_x', 'CHECKPOINT';
my %mb = map { my ($k, $v) = split /=/; ($k => $v) } split / /, q1("SELECT 'tq_heap=' || pg_relation_size('tq') / 1048576 || ' tq_pkey='"
	  . " || pg_relation_size('tq_pkey') / 1048576 || ' tq_x_ts=' || pg_relation_size('tq_x_ts') / 1048576");
push @RAW, map { "meta,${_}_mb,$mb{$_}" } sort keys %mb;
say(sprintf('tq: heap %d MB, primary key %d MB (%.1fx the limit); the expression index %d MB', $mb{tq_heap}, $mb{tq_pkey},
		($mb{tq_heap} + $mb{tq_pkey}) / $LIMIT, $mb{tq_x_ts}));

# The questions: [name, since, before (undef: none)], bounds as timestamptz literals.
my @ask = q1("SELECT '$T'::timestamptz - interval '1 hour', '$T'::timestamptz - interval '30 days', '$T'::timestamptz - interval '29 days'")
  =~ /^([^,]+),([^,]+),([^,]+)$/ or die;
my @QUESTIONS = ([ last_hour => $ask[0], undef ], [ day_month_ago => $ask[1], $ask[2] ], [ month => $ask[1], $T ]);
# The spellings: [name, table, WHERE of since and before].
my @SPELLINGS = (
	[ plain => 'tq', sub { my ($a, $b) = @_; "uuidv7_timestamp(id) >= '$a'" . (defined $b ? " AND uuidv7_timestamp(id) < '$b'" : '') } ],
	($MADE ? [ made => 'tq', sub { my ($a, $b) = @_; "uuidv7_made(id, since => '$a'" . (defined $b ? ", before => '$b'" : '') . ')' } ] : ()),
	[ range => 'tq', sub { my ($a, $b) = @_; "id >= uuidv7_lower('$a')" . (defined $b ? " AND id < uuidv7_lower('$b')" : '') } ],
	[ expression_index => 'tq_x', sub { my ($a, $b) = @_; "uuidv7_timestamp(id) >= '$a'" . (defined $b ? " AND uuidv7_timestamp(id) < '$b'" : '') } ]);
sub sql { my ($q, $s) = @_; return "SELECT count(*), sum(n) FROM $s->[1] WHERE " . $s->[2]->(@$q[ 1, 2 ]) }

# Every spelling counts the plain predicate's rows (and sums their payload), or the run fails.
my (%count, @bad);
for my $q (@QUESTIONS) {
	for my $s (@SPELLINGS) {
		$count{ $q->[0] }{ $s->[0] } = q1(sql($q, $s));
		my ($c, $p) = ($count{ $q->[0] }{ $s->[0] }, $count{ $q->[0] }{plain});
		push @bad, "$q->[0]: $s->[0] gives $c, the plain predicate $p" if $c ne $p;
	}
	say("$q->[0] (since $q->[1]" . (defined $q->[2] ? ", before $q->[2]" : '') . "): count, sum " . $count{ $q->[0] }{plain}
		  . (@bad ? '' : ', every spelling alike'));
}
if (@bad) {
	push @RAW, map { 'error,count,' . s/,/;/gr } @bad;
	write_file("$OUT/time_questions_raw.csv", join '', map { "$_\n" } @RAW);
	die 'time_questions.pl: ' . join("\n", @bad) . "\n";
}

# plan JSON: from EXPLAIN's JSON: execution and planning ms, shared buffers hit and read, the
# chain of plan nodes from the top (first children), the indexes used, the first index
# condition, and the first scan's estimated and actual rows (every loop).
sub plan
{
	my $e = JSON::PP::decode_json($_[0])->[0];
	my $p = $e->{Plan};
	my (@chain, %idx, $cond, $scan);
	for (my $n = $p; $n; $n = $n->{Plans} ? $n->{Plans}[0] : undef) {
		push @chain, ($n->{'Parallel Aware'} ? 'Parallel ' : '') . ($n->{'Partial Mode'} && $n->{'Partial Mode'} ne 'Simple'
			  ? "$n->{'Partial Mode'} " : '') . $n->{'Node Type'};
	}
	my @todo = ($p);
	while (my $n = shift @todo) {
		$idx{ $n->{'Index Name'} } = 1 if $n->{'Index Name'};
		$cond //= $n->{'Index Cond'};
		$scan //= $n if $n->{'Node Type'} =~ /Scan$/ && $n->{'Node Type'} ne 'Bitmap Index Scan';
		push @todo, @{ $n->{Plans} // [] };
	}
	return { ms => $e->{'Execution Time'}, plan_ms => $e->{'Planning Time'}, hit => $p->{'Shared Hit Blocks'},
		read => $p->{'Shared Read Blocks'}, plan => join(' > ', @chain), index => join('+', sort keys %idx), cond => $cond // '',
		est => $scan->{'Plan Rows'}, rows => $scan->{'Actual Rows'} * ($scan->{'Actual Loops'} || 1) };
}
sub csvq { my ($t) = @_; return $t =~ /[",]/ ? '"' . ($t =~ s/"/""/gr) . '"' : $t }

# Cold: after reading, through the primary key (shared buffers, not a ring), a window of older
# rows than any question's, twice the memory limit of heap: shared buffers and the cgroup's page
# cache then hold other pages. The windows move along days 31 to 59 back.
my $day_mb = $mb{tq_heap} / $o{days};
my $win = $day_mb > 0 ? 2 * $LIMIT / $day_mb : 28;
$win = 28 if $win > 28;
my ($flushes, $windows) = (0, int(28 / $win));
sub flush
{
	my $from = 31 + ($flushes++ % $windows) * $win;
	q1("SET enable_seqscan = off; SET enable_bitmapscan = off; SELECT sum(n) FROM tq WHERE id >= uuidv7_lower('$T'::timestamptz"
		  . " - interval '1 day' * ($from + $win)) AND id < uuidv7_lower('$T'::timestamptz - interval '1 day' * $from)");
}

my (@queries, @inserts);
say(sprintf('%d rounds: each question, each spelling (rotated), cold (after reading %.1f days of older rows) then warm',
		$o{rounds}, $win));
for my $r (1 .. $o{rounds}) {
	for my $q (@QUESTIONS) {
		my @s = @SPELLINGS[ map { ($_ + $r - 1) % @SPELLINGS } 0 .. $#SPELLINGS ];
		for my $s (@s) {
			flush();
			for my $state (qw(cold warm)) {
				my $p = plan(q1('EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' . sql($q, $s)));
				push @queries, join ',', $r, $q->[0], $s->[0], $s->[1], $state, sprintf('%.3f', $p->{ms}), sprintf('%.3f', $p->{plan_ms}),
				  $p->{hit}, $p->{read}, $p->{hit} + $p->{read}, $p->{est}, sprintf('%.0f', $p->{rows}),
				  (split /,/, $count{ $q->[0] }{ $s->[0] })[0], $p->{index}, csvq($p->{plan}), csvq($p->{cond});
			}
		}
	}
	say("round $r of $o{rounds} done");
}

# Inserts: 2 clients, 1000-row batches of uuidv7_ordered() (now: the right edge of every index),
# into tq and tq_x in turn, the order swapped every round; a checkpoint before each.
my $script = "$OUT/insert.pgbench";
for my $t (qw(tq tq_x)) {
	write_file("$OUT/insert_$t.pgbench", "-- One transaction: 1000 rows.\nINSERT INTO $t (id, n) SELECT uuidv7_ordered(), g FROM generate_series(1, 1000) g;\n");
}
my $c = $o{'insert-clients'};
for my $r (1 .. $o{'insert-rounds'}) {
	for my $t ($r % 2 ? qw(tq tq_x) : qw(tq_x tq)) {
		q1('CHECKPOINT');
		my $out = `pgbench -n -h '$HOST' -p $PORT -c $c -j $c -T $o{'insert-seconds'} -f '$OUT/insert_$t.pgbench' postgres 2>&1`;
		open my $log, '>>', "$OUT/pgbench.log" or die;
		print $log "== round $r, $t\n$out";
		close $log;
		my ($tx) = $out =~ /^number of transactions actually processed: (\d+)/m;
		my ($tps) = $out =~ /^tps = ([\d.]+)/m;
		$? == 0 && $tx && $tps or die "time_questions.pl: the inserts into $t failed, see $OUT/pgbench.log\n";
		push @inserts, join ',', $r, $t, $t eq 'tq_x' ? 'yes' : 'no', $c, $o{'insert-seconds'}, $tx * 1000, sprintf('%.0f', $tps * 1000);
		say(sprintf('inserts, round %d, %s: %d rows, %.0f rows/s', $r, $t, $tx * 1000, $tps * 1000));
	}
}
push @RAW, 'meta,load_at_end,' . Bench::loadavg(), 'meta,seconds_total,' . int(time - $START);
$node->stop;
system('cp', $node->logfile, "$OUT/server.log");
remove_tree($DATA);

# The summary: per question and spelling, the medians over the rounds (cold and warm) of
# buffers (hit + read) and ms, their ratios to the hand-written range's and the plain
# predicate's; then the inserts' median rows/s with and without the expression index.
my %m;
for (@queries) {
	my @f = Text::ParseWords::parse_line(',', 0, $_);
	my $k = "$f[1]|$f[2]|$f[4]";
	push @{ $m{$k}{buffers} }, $f[9];
	push @{ $m{$k}{read} }, $f[8];
	push @{ $m{$k}{ms} }, $f[5];
	$m{$k}{rows} = $f[12];
	$m{$k}{index} = $f[13];
	$m{$k}{plan} = $f[14];
}
my $ratio = sub { my ($a, $b) = @_; return $b > 0 ? sprintf('%.2f', $a / $b) : '' };
my @summary;
for my $q (@QUESTIONS) {
	for my $state (qw(cold warm)) {
		my %v;
		for my $s (@SPELLINGS) {
			my $k = "$q->[0]|$s->[0]|$state";
			$v{ $s->[0] } = { map { ($_ => median(@{ $m{$k}{$_} })) } qw(buffers read ms) };
		}
		for my $s (@SPELLINGS) {
			my ($k, $x) = ("$q->[0]|$s->[0]|$state", $v{ $s->[0] });
			push @summary, join ',', $q->[0], $s->[0], $state, $m{$k}{rows}, $x->{buffers}, $x->{read}, sprintf('%.3f', $x->{ms}),
			  $ratio->($x->{buffers}, $v{range}{buffers}), $ratio->($x->{ms}, $v{range}{ms}),
			  $ratio->($v{plain}{buffers}, $x->{buffers}), $ratio->($v{plain}{ms}, $x->{ms}), csvq($m{$k}{plan}), $m{$k}{index};
		}
	}
}
my %ins;
for (@inserts) { my @f = split /,/; $ins{ $f[0] }{ $f[2] } = $f[6] }
my ($without, $with) = map { my $x = $_; median(map { $_->{$x} } values %ins) } qw(no yes);
my @per_round = map { $ratio->($ins{$_}{yes}, $ins{$_}{no}) } sort { $a <=> $b } keys %ins;

# Targets: the new spellings within 1.2x of the hand-written range's buffers and time (warm and
# cold medians): uuidv7_made where the build has it, and the plain predicate (the user's words,
# which 1.6 plans on the key) where the build serves it as an index condition on the primary key.
my @targets;
my $plain_on_key = ($m{'last_hour|plain|warm'}{index} // '') =~ /\btq_pkey\b/;
for my $spelling (($MADE ? 'made' : ()), ($plain_on_key ? 'plain' : ())) {
	for my $q (@QUESTIONS) {
		for my $state (qw(cold warm)) {
			my ($sk, $rk) = map { "$q->[0]|$_|$state" } ($spelling, 'range');
			for my $what (qw(buffers ms)) {
				my $x = median(@{ $m{$sk}{$what} }) / (median(@{ $m{$rk}{$what} }) || 1);
				push @targets, join ',', $q->[0], $state, "$spelling / range $what <= 1.2", sprintf('%.2f', $x), $x <= 1.2 ? 'met' : 'missed';
			}
		}
	}
}
if ($MADE && !$plain_on_key) {
	for my $state (qw(cold warm)) {
		my $x = median(@{ $m{"last_hour|plain|$state"}{buffers} }) / (median(@{ $m{"last_hour|made|$state"}{buffers} }) || 1);
		push @targets, join ',', 'last_hour', $state, 'plain / made buffers >= 10', sprintf('%.1f', $x), $x >= 10 ? 'met' : 'missed';
	}
}

my %HEAD = (queries => 'round,question,spelling,table,state,ms,planning_ms,shared_hit,shared_read,buffers,estimated_rows,actual_rows,count,index,plan,index_cond',
	inserts => 'round,table,expression_index,clients,seconds,rows,rows_per_s',
	summary => 'question,spelling,state,rows,buffers,read,ms,buffers_x_range,ms_x_range,plain_buffers_x,plain_ms_x,plan,index',
	targets => 'question,state,target,measured,result');
write_file("$OUT/time_questions_raw.csv", join '', map { "$_\n" } @RAW);
write_file("$OUT/time_questions_$_->[0].csv", join '', map { "$_\n" } $HEAD{ $_->[0] }, @{ $_->[1] })
  for [ queries => \@queries ], [ inserts => \@inserts ], [ summary => \@summary ], [ targets => \@targets ];

# The plot: median buffers and ms of each spelling, per question, cold and warm, log scales.
sub plot
{
	my @sp = map { $_->[0] } @SPELLINGS;
	open my $d, '>', "$OUT/time_questions.dat" or die;
	for my $state (qw(cold warm)) {
		for my $q (@QUESTIONS) {
			print $d join(' ', '"' . ($q->[0] =~ s/_/ /gr) . '"', map { my $k = "$q->[0]|$_|$state";
					(median(@{ $m{$k}{buffers} }) || 1, median(@{ $m{$k}{ms} }) || 0.001) } @sp), "\n";
		}
		print $d "\n\n";
	}
	close $d;
	my %color = (plain => '#555555', made => '#d62728', range => '#1f77b4', expression_index => '#ff7f0e');
	my @gp = ("set multiplot layout 2,2 title 'Time questions on $o{rows} rows past memory (cgroup $LIMIT MB, shared_buffers $SB MB): median of $o{rounds} rounds' font ',11'",
		'set style data histogram; set style histogram clustered gap 1; set style fill solid 0.9 border -1',
		'set logscale y; set grid ytics; set key below horizontal');
	my $i = 0;
	for my $state (qw(cold warm)) {
		for my $w ([ 'shared buffers (hit + read)', 2 ], [ 'execution ms', 3 ]) {
			push @gp, "set title '$state: $w->[0]'", 'plot ' . join(', ', map {
					"'time_questions.dat' index $i using " . ($w->[1] + 2 * $_) . ":xtic(1) lc rgb '$color{$sp[$_]}' title '$sp[$_]'"
				} 0 .. $#sp);
		}
		$i++;
	}
	Bench::gnuplot($OUT, 'time_questions', 800, @gp, 'unset multiplot');
}
plot();
print "\nquestion,spelling,state: rows, buffers (read), ms; x the range's buffers, ms; the plain predicate's x\n";
print join("\n", map { my @f = Text::ParseWords::parse_line(',', 0, $_); "$f[0],$f[1],$f[2]: " . join(' ', @f[ 3 .. 10 ]) . " ($f[11])" } @summary), "\n";
printf "inserts, median rows/s: %.0f without the expression index, %.0f with: %s (rounds: %s)\n", $without, $with,
  $ratio->($with, $without), join(' ', @per_round);
print "targets:\n", join("\n", @targets), "\n" if @targets;
say('done in ' . int(time - $START) . " s; output in $OUT");
