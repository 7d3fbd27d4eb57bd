#!/usr/bin/env perl
# Where the generators with one shared word pay under concurrency: wall-clock ns a call with 1 and
# 8 pgbench clients (statements of 20,000 calls) of a floor (1::int), gen_random_uuid(),
# locality_uuid() (no shared word), locality_uuid(true) and uuidv7_ordered() (one shared word
# each), in interleaved rounds; then the same with the server's processes pinned to one CPU, where
# no cache line moves between cores. Ratio: (median - floor) / (gen_random_uuid()'s median - floor).
# Prints CSV lines pinned,round,call,clients,ns_per_call (also to OUT/contention.csv), then medians
# and ratios.
#
# Usage (the extension installed for $PG_CONFIG; as root, it runs as postgres): perl test/bench/contention.pl [options]
#   --rounds N (3)          interleaved rounds
#   --seconds N (8)         length of each measurement (pgbench -T)
#   --pins LIST (no,yes)    unpinned (no), then pinned to CPU 0 (yes)
#   --preload               shared_preload_libraries = 'locality_uuid'
#   --out DIR (test/bench/out/contention)   contention.csv, the framework's cluster and logs
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path);
use lib dirname(abs_path($0));
use Bench ();

our (%o, $TERM_OUT, $TERM_ERR);
BEGIN {
	my ($bench) = Bench::start();
	my @args = @ARGV;
	%o = (rounds => 3, seconds => 8, pins => 'no,yes', preload => 0, out => "$bench/out/contention");
	Bench::options(\%o, undef, qw(rounds=i seconds=i pins=s preload out=s));
	Bench::positive(\%o, qw(rounds seconds));
	$o{pins} =~ /^(no|yes)(,no|,yes)*$/ or die "contention.pl: --pins is a list of no and yes, like no,yes\n";
	make_path($o{out});
	$o{out} = abs_path($o{out});
	Bench::as_postgres($o{out}, @args);
	($TERM_OUT, $TERM_ERR) = Bench::framework($o{out});
}
use PostgreSQL::Test::Cluster;
use Test::More ();
Test::More->builder->no_ending(1);
open STDERR, '>&', $TERM_ERR or die;

my $calls = 20000;
my $node = PostgreSQL::Test::Cluster->new('contention');
$node->init;
$node->append_conf('postgresql.conf', "max_connections = 30\n" . ($o{preload} ? "shared_preload_libraries = 'locality_uuid'\n" : ''));
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION locality_uuid');
# The framework's lines of the set-up went to its log; the figures go to the terminal.
open STDOUT, '>&', $TERM_OUT or die;
print "contention.pl: PostgreSQL ", $node->safe_psql('postgres', "SELECT current_setting('server_version') || ', state ' || locality_uuid_state()"),
  '; ', `nproc` =~ s/\n//r, " CPUs; rounds $o{rounds} of $o{seconds}s\n";
my ($postmaster) = Bench::read_file($node->data_dir . '/postmaster.pid') =~ /^(\d+)/;

# ns CALL CLIENTS: wall-clock ns a call, from pgbench's transactions a second.
sub ns
{
	my ($call, $clients) = @_;
	Bench::write_file("$o{out}/q.sql", "SELECT count($call) FROM generate_series(1, $calls)\n");
	my $r = `pgbench -h '${\$node->host}' -p ${\$node->port} -n -f '$o{out}/q.sql' -c $clients -j 2 -T $o{seconds} postgres 2>&1`;
	$r =~ /^tps = ([0-9.]+)/m or die "contention.pl: pgbench failed:\n$r";
	return sprintf '%.1f', 1e9 / ($1 * $calls);
}
# pin CPUS: the postmaster and every process it has forked on CPUS (backends forked later inherit it).
sub pin
{
	# A process that exited since ps listed it needs no pinning; any other failure is said.
	for my $p ($postmaster, split ' ', `ps -o pid= --ppid $postmaster`) {
		system("taskset -p -c $_[0] $p >/dev/null 2>&1") == 0 || !kill(0, $p) or warn "contention.pl: could not pin process $p\n";
	}
}

my @head = qw(pinned round call clients ns_per_call);
my @rows;
open my $csv, '>', "$o{out}/contention.csv" or die "contention.pl: $o{out}/contention.csv: $!\n";
$csv->autoflush(1);
print $csv join(',', @head), "\n";
for my $p (split /,/, $o{pins}) {
	pin($p eq 'yes' ? '0' : '0-' . (`nproc` - 1));
	for my $r (1 .. $o{rounds}) {
		for my $c ('1::int', 'gen_random_uuid()', 'locality_uuid()', 'locality_uuid(true)', 'uuidv7_ordered()') {
			for my $n (1, 8) {
				my %row;
				@row{@head} = ($p, $r, $c, $n, ns($c, $n));
				push @rows, \%row;
				print $_ join(',', @row{@head}), "\n" for \*STDOUT, $csv;
			}
		}
	}
}
close $csv;
print "pinned,call,clients,median ns,ratio to gen_random_uuid() above the floor\n";
my $m = Bench::contention_medians(@rows);
for my $k (sort keys %$m) {
	my ($p, undef, $n) = split /,/, $k;
	printf "%s,%.1f,%.3f\n", $k, $m->{$k}, Bench::above_floor($m->{$k}, map { $m->{"$p,$_,$n"} } '1::int', 'gen_random_uuid()');
}
