#!/usr/bin/env perl
# Time questions past memory, the key against a created_at column: "the rows of the last hour",
# "of one day a month ago", "of a month" and Grafana's "$__timeFilter" (the last 6 hours as
# BETWEEN two literals), asked of a table of uuidv7_ordered(at) ids with the primary key alone
# and the CHECK that docs/time-ranges.md's "Drop created_at" adds (tq) three ways (the user's
# words uuidv7_timestamp(id) >= a AND < b, uuidv7_made, the hand-written key range), of the same
# rows without that CHECK in the user's words (tq_u: the check of each row in the plan), and of
# the same rows with created_at, the id's time, and its own index (tq_c), the server in the
# memory cgroup of past_memory.pl; then inserts into tq and tq_c, and their sizes. It prints and writes figures and says which targets were met; it fails only when a
# way errs or counts other rows than the plain predicate. Method: docs/bench/README.md, "Time
# questions".
#
# Usage (as root): perl test/bench/time_questions.pl [options]
# Needs: root (the memory cgroup, as past_memory.pl); gnuplot for the plot; disk for three tables
# of --rows rows with their indexes (10,000,000 rows: about 2.8 GB, and up to 1 GB of WAL). The
# defaults take about 20 minutes on 2 vCPUs.
#   --rows N (10000000)        rows of each table, made over --days D (60) ending when the run starts
#   --limit MB (64)            the server's memory limit (cgroup, page cache included)
#   --shared-buffers MB        shared_buffers (default: a quarter of --limit)
#   --rounds N (9)             interleaved rounds of the questions (each: every question, every
#                              way, their order rotated, cold then warm)
#   --insert-rounds N (5)      interleaved rounds of the inserts, --insert-seconds S (10) each
#                              table and round, --insert-clients N (2), 1000-row batches
#   --short                    the smoke run: 30,000 rows, 32 MB, 1 round of each, 2 s inserts
#   --no-build                 use the installed extension
#   --out DIR (test/bench/out/time_questions)   output: time_questions_{raw,queries,inserts,
#                              storage,summary,targets}.csv, time_questions.png; --publish DIR
#                              copies them there
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
	%o = (rows => 10_000_000, days => 60, limit => 64, 'shared-buffers' => 0, rounds => 9, 'insert-rounds' => 5,
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
			  for (map { "time_questions_$_.csv" } qw(raw queries inserts storage summary targets)), 'time_questions.png';
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

my @RAW = ((grep { length } split /\n/, read_file("$OUT/time_questions_raw.csv") // ''),
	'meta,machine,' . Bench::machine(), 'meta,postgres,' . q1('SHOW server_version'),
	'meta,extension,' . q1("SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'"),
	"meta,cgroup,v$Cgroup::CG->{version} $Cgroup::CG->{dir}", "meta,limit_mb,$LIMIT", "meta,shared_buffers_mb,$SB",
	"meta,rows,$o{rows}", "meta,days,$o{days}", "meta,rounds,$o{rounds}", "meta,insert_rounds,$o{'insert-rounds'}",
	"meta,insert_seconds,$o{'insert-seconds'}", "meta,insert_clients,$o{'insert-clients'}", 'meta,batch_rows,1000',
	'meta,short,' . ($o{short} ? 1 : 0), (map { "meta,member,$_" } @$member), "meta,member_backend,$backend",
	'meta,settings,' . q1("SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'synchronous_commit', 'max_wal_size', 'checkpoint_timeout', 'autovacuum', 'wal_level', 'huge_pages', 'max_parallel_workers_per_gather', 'maintenance_work_mem', 'TimeZone')"),
	'meta,command,perl test/bench/time_questions.pl ' . ($ENV{BENCH_ARGS} // ''),
	'meta,date,' . `date -u '+%Y-%m-%d %H:%M UTC'` =~ s/\n//r, 'meta,load_at_start,' . Bench::loadavg());

# The tables: tq with its primary key only and CHECK (uuidv7_made_check(id)): every id is of
# version 7 (docs/time-ranges.md, "Drop created_at"); tq_u the same rows and key without the
# CHECK; tq_c the same rows with created_at, the id's time (the same values), its primary key and
# created_at's own index. The ids are made over --days
# ending at T (the run's start, to the second: every bound below is a whole millisecond, where
# the hand-written range is exact), in time order, in batches; tq_c is filled in tq's order.
my $T = q1("SELECT date_trunc('second', now())");
push @RAW, "meta,t,$T";
my $BATCH = 1_000_000;
say("loading $o{rows} rows over $o{days} days ending $T, in batches of up to $BATCH");
q1('CREATE TABLE tq (id uuid NOT NULL CONSTRAINT tq_id_v7 CHECK (uuidv7_made_check(id)), n int8)');
for (my $g0 = 0; $g0 < $o{rows}; $g0 += $BATCH) {
	my $g1 = $g0 + $BATCH < $o{rows} ? $g0 + $BATCH : $o{rows};
	q1("INSERT INTO tq SELECT uuidv7_ordered('$T'::timestamptz - interval '$o{days} days' * ($o{rows} - g)::float8 / $o{rows}), g"
		  . " FROM generate_series($g0 + 1, $g1) g");
}
say("primary key of tq; tq_u: the same rows without the CHECK; tq_c: the same rows with created_at, its primary key and created_at's index");
q1('ALTER TABLE tq ADD PRIMARY KEY (id)');
q1('CREATE TABLE tq_u (id uuid NOT NULL, n int8)');
q1('INSERT INTO tq_u SELECT id, n FROM tq');
q1('ALTER TABLE tq_u ADD PRIMARY KEY (id)');
q1('CREATE TABLE tq_c (id uuid NOT NULL, created_at timestamptz NOT NULL, n int8)');
q1('INSERT INTO tq_c SELECT id, uuidv7_timestamp(id), n FROM tq');
q1('ALTER TABLE tq_c ADD PRIMARY KEY (id)');
q1('CREATE INDEX ON tq_c (created_at)');
q1($_) for 'VACUUM ANALYZE tq', 'VACUUM ANALYZE tq_u', 'VACUUM ANALYZE tq_c', 'CHECKPOINT';

# Storage: each table's heap and indexes (pg_relation_size, pg_indexes_size), MB.
my (@storage, %mb);
for my $t (qw(tq tq_c)) {
	my @b = split /,/, q1("SELECT pg_relation_size('$t'), pg_relation_size('${t}_pkey'),"
		  . " coalesce(pg_relation_size(to_regclass('${t}_created_at_idx')), 0), pg_indexes_size('$t')");
	my @v = map { $_ / 1048576 } @b, $b[0] + $b[3];
	@mb{ map { "${t}_$_" } qw(heap pkey created_at indexes total) } = @v;
	push @storage, join ',', $t, $o{rows}, map { sprintf '%.1f', $_ } @v;
}
push @storage, join ',', 'tq_c / tq', '', map { $mb{"tq_$_"} > 0 ? sprintf('%.2f', $mb{"tq_c_$_"} / $mb{"tq_$_"}) : '' }
  qw(heap pkey created_at indexes total);
say(sprintf('tq: heap %.0f MB, primary key %.0f MB (%.1fx the limit); tq_c: heap %.0f MB, primary key %.0f MB,'
		  . " created_at's index %.0f MB (%.2fx tq)", @mb{qw(tq_heap tq_pkey)}, $mb{tq_total} / $LIMIT,
		@mb{qw(tq_c_heap tq_c_pkey tq_c_created_at)}, $mb{tq_c_total} / $mb{tq_total}));

# The questions: {name, since, before (exclusive; undef: none), through (BETWEEN's inclusive
# end), end (the exclusive end that uuidv7_made and the range spell: before, or a millisecond
# past through, the ids' resolution)}, bounds as timestamptz literals. Grafana's $__timeFilter
# sends the dashboard's range as BETWEEN two UTC literals in RFC 3339 (here the last 6 hours).
my $iso = q{'YYYY-MM-DD"T"HH24:MI:SS"Z"'};
my @at = split /,/, q1("SELECT t - interval '1 hour', t - interval '30 days', t - interval '29 days',"
	  . " to_char((t - interval '6 hours') AT TIME ZONE 'UTC', $iso), to_char(t AT TIME ZONE 'UTC', $iso),"
	  . " t + interval '1 millisecond' FROM (SELECT '$T'::timestamptz t) s");
@at == 6 or die "time_questions.pl: the questions' bounds: @at\n";
my @QUESTIONS = ({ name => 'last_hour', since => $at[0] }, { name => 'day_month_ago', since => $at[1], before => $at[2] },
	{ name => 'month', since => $at[1], before => $T }, { name => 'grafana', since => $at[3], through => $at[4], end => $at[5] });
$_->{end} //= $_->{before} for @QUESTIONS;
# pred COLUMN Q: the question Q as a predicate on COLUMN, as a user writes it.
sub pred
{
	my ($col, $q) = @_;
	return "$col BETWEEN '$q->{since}' AND '$q->{through}'" if defined $q->{through};
	return "$col >= '$q->{since}'" . (defined $q->{before} ? " AND $col < '$q->{before}'" : '');
}
# The ways: [name, table, WHERE of a question].
my @WAYS = ([ words => 'tq', sub { pred('uuidv7_timestamp(id)', $_[0]) } ],
	[ words_no_check => 'tq_u', sub { pred('uuidv7_timestamp(id)', $_[0]) } ],
	[ made => 'tq', sub { "uuidv7_made(id, since => '$_[0]{since}'" . (defined $_[0]{end} ? ", before => '$_[0]{end}'" : '') . ')' } ],
	[ range => 'tq', sub { "id >= uuidv7_lower('$_[0]{since}')" . (defined $_[0]{end} ? " AND id < uuidv7_lower('$_[0]{end}')" : '') } ],
	[ created_at => 'tq_c', sub { pred('created_at', $_[0]) } ]);
my @W = map { $_->[0] } @WAYS;
sub sql { my ($q, $w) = @_; return "SELECT count(*), sum(n) FROM $w->[1] WHERE " . $w->[2]->($q) }
# The plain predicate: the user's words on every row of tq, out of the planner's reach (OFFSET 0
# keeps the condition above the scan, where no rewrite sees it): the rows each way must count.
sub plain { return 'SELECT count(*), sum(n) FROM (SELECT uuidv7_timestamp(id) AS t, n FROM tq OFFSET 0) s WHERE ' . pred('t', $_[0]) }

# Every way counts the plain predicate's rows (and sums their payload), or the run fails; the
# plain predicate's plan is recorded (a scan of every row, no index).
my (%count, @bad);
my $pp = plan(q1('EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' . plain($QUESTIONS[0])));
push @RAW, 'meta,plain_plan,' . csvq($pp->{plan}) . ',' . ($pp->{index} || 'no index');
for my $q (@QUESTIONS) {
	my $p = $count{ $q->{name} }{plain} = q1(plain($q));
	push @RAW, "count,$q->{name},plain," . ($p =~ s/,/ /r);
	for my $w (@WAYS) {
		my $c = $count{ $q->{name} }{ $w->[0] } = q1(sql($q, $w));
		push @RAW, "count,$q->{name},$w->[0]," . ($c =~ s/,/ /r);
		push @bad, "$q->{name}: $w->[0] gives $c, the plain predicate $p" if $c ne $p;
	}
	say("$q->{name} (" . pred('t', $q) . "): count, sum $p" . ((grep { /^$q->{name}:/ } @bad) ? '' : ', every way alike'));
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

# Cold: after reading, through tq's primary key (shared buffers, not a ring), a window of older
# rows than any question's, twice the memory limit of heap: shared buffers and the cgroup's page
# cache then hold other pages, of both tables. The windows move along days 31 to 59 back.
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
say(sprintf('%d rounds: each question, each way (rotated), cold (after reading %.1f days of older rows) then warm',
		$o{rounds}, $win));
for my $r (1 .. $o{rounds}) {
	for my $q (@QUESTIONS) {
		for my $w (@WAYS[ map { ($_ + $r - 1) % @WAYS } 0 .. $#WAYS ]) {
			flush();
			for my $state (qw(cold warm)) {
				my $p = plan(q1('EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' . sql($q, $w)));
				push @queries, join ',', $r, $q->{name}, $w->[0], $w->[1], $state, sprintf('%.3f', $p->{ms}),
				  sprintf('%.3f', $p->{plan_ms}), $p->{hit}, $p->{read}, $p->{hit} + $p->{read}, $p->{est}, sprintf('%.0f', $p->{rows}),
				  (split /,/, $count{ $q->{name} }{ $w->[0] })[0], $p->{index}, csvq($p->{plan}), csvq($p->{cond});
			}
		}
	}
	say("round $r of $o{rounds} done");
}

# Inserts: 2 clients, 1000-row batches of uuidv7_ordered() (now: the right edge of every index),
# into tq (the key alone) and tq_c (created_at = now(), as a column default writes it, and its
# index) in turn, the order swapped every round; a checkpoint before each.
my %INSERT = (tq => 'INSERT INTO tq (id, n) SELECT uuidv7_ordered(), g FROM generate_series(1, 1000) g;',
	tq_c => 'INSERT INTO tq_c (id, created_at, n) SELECT uuidv7_ordered(), now(), g FROM generate_series(1, 1000) g;');
write_file("$OUT/insert_$_.pgbench", "-- One transaction: 1000 rows.\n$INSERT{$_}\n") for keys %INSERT;
my $c = $o{'insert-clients'};
for my $r (1 .. $o{'insert-rounds'}) {
	for my $t ($r % 2 ? qw(tq tq_c) : qw(tq_c tq)) {
		q1('CHECKPOINT');
		my $out = `pgbench -n -h '$HOST' -p $PORT -c $c -j $c -T $o{'insert-seconds'} -f '$OUT/insert_$t.pgbench' postgres 2>&1`;
		open my $log, '>>', "$OUT/pgbench.log" or die;
		print $log "== round $r, $t\n$out";
		close $log;
		my ($tx) = $out =~ /^number of transactions actually processed: (\d+)/m;
		my ($tps) = $out =~ /^tps = ([\d.]+)/m;
		$? == 0 && $tx && $tps or die "time_questions.pl: the inserts into $t failed, see $OUT/pgbench.log\n";
		push @inserts, join ',', $r, $t, $t eq 'tq_c' ? 'yes' : 'no', $c, $o{'insert-seconds'}, $tx * 1000, sprintf('%.0f', $tps * 1000);
		say(sprintf('inserts, round %d, %s: %d rows, %.0f rows/s', $r, $t, $tx * 1000, $tps * 1000));
	}
}
push @RAW, 'meta,load_at_end,' . Bench::loadavg(), 'meta,seconds_total,' . int(time - $START);
$node->stop;
system('cp', $node->logfile, "$OUT/server.log");
remove_tree($DATA);

# The summary: per question, state and way, the medians over the rounds of buffers (hit +
# read), read and ms, as ratios to created_at's and to the hand-written range's; the scan's
# estimate (the same every round: the statistics do not change) against the actual rows.
my %m;
for (@queries) {
	my @f = Text::ParseWords::parse_line(',', 0, $_);
	my $k = "$f[1]|$f[2]|$f[4]";
	push @{ $m{$k}{buffers} }, $f[9];
	push @{ $m{$k}{read} }, $f[8];
	push @{ $m{$k}{ms} }, $f[5];
	@{ $m{$k} }{qw(est rows index plan)} = @f[ 10, 11, 13, 14 ];
}
my $ratio = sub { my ($a, $b) = @_; return $b > 0 ? sprintf('%.2f', $a / $b) : '' };
my (@summary, %v);
for my $q (@QUESTIONS) {
	for my $state (qw(cold warm)) {
		my $x = $v{ $q->{name} }{$state} = { map { my $k = "$q->{name}|$_|$state";
				($_ => { (map { ($_ => median(@{ $m{$k}{$_} })) } qw(buffers read ms)), map { ($_ => $m{$k}{$_}) } qw(est rows index plan) })
			} @W };
		for my $w (@W) {
			my $y = $x->{$w};
			push @summary, join ',', $q->{name}, $w, $state, $y->{rows}, $y->{est}, $y->{buffers}, $y->{read}, sprintf('%.3f', $y->{ms}),
			  $ratio->($y->{buffers}, $x->{created_at}{buffers}), $ratio->($y->{ms}, $x->{created_at}{ms}),
			  $ratio->($y->{ms}, $x->{range}{ms}), $ratio->($y->{est}, $y->{rows}), csvq($y->{plan}), $y->{index};
		}
	}
}
my %ins;
for (@inserts) { my @f = split /,/; $ins{ $f[0] }{ $f[1] } = $f[6] }
my ($key, $cat) = map { my $t = $_; median(map { $_->{$t} } values %ins) } qw(tq tq_c);
my @per_round = map { $ratio->($ins{$_}{tq}, $ins{$_}{tq_c}) } sort { $a <=> $b } keys %ins;

# Targets (issue 44): the user's words (with and without the CHECK) and uuidv7_made within 1.15x of the hand-written range's
# time, and within 1.2x of created_at's buffers and time (medians, cold and warm); their
# estimates within 2x of the actual rows wherever created_at's is; inserts into the key alone at
# least 1.3x the rows a second of the table with created_at and its index.
my @targets;
my $target = sub { my ($q, $state, $what, $x, $met) = @_; push @targets, join ',', $q, $state, $what, $x, $met ? 'met' : 'missed' };
for my $q (map { $_->{name} } @QUESTIONS) {
	for my $state (qw(cold warm)) {
		my $x = $v{$q}{$state};
		for my $w (qw(words made words_no_check)) {
			my $r = $x->{$w}{ms} / ($x->{range}{ms} || 1);
			$target->($q, $state, "$w / range ms <= 1.15", sprintf('%.2f', $r), $r <= 1.15);
			for my $what (qw(buffers ms)) {
				$r = $x->{$w}{$what} / ($x->{created_at}{$what} || 1);
				$target->($q, $state, "$w / created_at $what <= 1.2", sprintf('%.2f', $r), $r <= 1.2);
			}
		}
	}
	my $within = sub { my $e = $_[0]{est} / ($_[0]{rows} || 1); return ($e, $e >= 0.5 && $e <= 2) };
	my ($ce, $cin) = $within->($v{$q}{warm}{created_at});
	if ($cin) {
		for my $w (qw(words made words_no_check)) {
			my ($e, $in) = $within->($v{$q}{warm}{$w});
			$target->($q, '', sprintf("$w estimate / actual within 2x (created_at: %.2f)", $ce), sprintf('%.2f', $e), $in);
		}
	} else {
		push @RAW, sprintf("note,estimate,$q,created_at's estimate is %.2fx the actual rows: no estimate target", $ce);
	}
}
$target->('inserts', '', 'tq / tq_c rows/s >= 1.3', $ratio->($key, $cat), $cat > 0 && $key / $cat >= 1.3);

my %HEAD = (queries => 'round,question,way,table,state,ms,planning_ms,shared_hit,shared_read,buffers,estimated_rows,actual_rows,count,index,plan,index_cond',
	inserts => 'round,table,created_at,clients,seconds,rows,rows_per_s',
	storage => 'table,rows,heap_mb,primary_key_mb,created_at_index_mb,indexes_mb,total_mb',
	summary => 'question,way,state,rows,estimated_rows,buffers,read,ms,buffers_x_created_at,ms_x_created_at,ms_x_range,estimate_x_actual,plan,index',
	targets => 'question,state,target,measured,result');
write_file("$OUT/time_questions_raw.csv", join '', map { "$_\n" } @RAW);
write_file("$OUT/time_questions_$_->[0].csv", join '', map { "$_\n" } $HEAD{ $_->[0] }, @{ $_->[1] })
  for [ queries => \@queries ], [ inserts => \@inserts ], [ storage => \@storage ], [ summary => \@summary ], [ targets => \@targets ];

# The plot: median buffers and ms of each way, per question, cold and warm, log scales.
sub plot
{
	open my $d, '>', "$OUT/time_questions.dat" or die;
	for my $state (qw(cold warm)) {
		for my $q (@QUESTIONS) {
			print $d join(' ', '"' . ($q->{name} =~ s/_/ /gr) . '"',
				map { my $y = $v{ $q->{name} }{$state}{$_}; ($y->{buffers} || 1, $y->{ms} || 0.001) } @W), "\n";
		}
		print $d "\n\n";
	}
	close $d;
	my %color = (words => '#d62728', words_no_check => '#e377c2', made => '#9467bd', range => '#1f77b4', created_at => '#ff7f0e');
	my @gp = ("set multiplot layout 2,2 title 'Time questions on $o{rows} rows past memory (cgroup $LIMIT MB, shared_buffers $SB MB): the key (tq) against created_at (tq_c), median of $o{rounds} rounds' font ',11'",
		'set style data histogram; set style histogram clustered gap 1; set style fill solid 0.9 border -1',
		'set logscale y; set grid ytics; set key below horizontal');
	my $i = 0;
	for my $state (qw(cold warm)) {
		for my $y ([ 'shared buffers (hit + read)', 2 ], [ 'execution ms', 3 ]) {
			push @gp, "set title '$state: $y->[0]'", 'plot ' . join(', ', map {
					"'time_questions.dat' index $i using " . ($y->[1] + 2 * $_) . ":xtic(1) lc rgb '$color{$W[$_]}' title '$W[$_]'"
				} 0 .. $#W);
		}
		$i++;
	}
	Bench::gnuplot($OUT, 'time_questions', 800, @gp, 'unset multiplot');
}
plot();
print "\nquestion,way,state: rows, estimated, buffers, read, ms; x created_at's buffers, ms; x the range's ms; estimate x actual\n";
print join("\n", map { my @f = Text::ParseWords::parse_line(',', 0, $_); "$f[0],$f[1],$f[2]: " . join(' ', @f[ 3 .. 11 ]) . " ($f[12])" } @summary), "\n";
print "storage, MB (table, rows, heap, primary key, created_at's index, indexes, total):\n", join("\n", @storage), "\n";
printf "inserts, median rows/s: %.0f into tq (the key alone), %.0f into tq_c (created_at and its index): %s (rounds: %s)\n", $key, $cat,
  $ratio->($key, $cat), join(' ', @per_round);
print "targets:\n", join("\n", @targets), "\n";
say('done in ' . int(time - $START) . " s; output in $OUT");
