#!/usr/bin/env perl
# Cost of routing rows to time partitions: rows a second into a plain table and into a table
# partitioned by month (docs/partitioning.md's recipes), each id from the column DEFAULT.
#
# Usage (PG_CONFIG picks the server; as root, it runs as postgres): perl test/bench/partition_routing.pl [options]
#   --rows N        rows per table (default 1000000)
#   --months N      monthly partitions before and after the current one (default 12: 25 partitions)
#   --repeat N      loads per table, alternating plain and partitioned; the least is shown (default 5)
#   --out DIR       the framework's cluster and logs (default test/bench/out/partition_routing)
#
# Per format, a plain table and a partitioned one with the same DEFAULT, the same primary key or
# unique index and nothing else; each load is one INSERT ... SELECT of --rows rows (all of the
# current month) in one backend into the emptied table, timed by the server (clock_timestamp
# before and after) and by the backend's CPU time, after a CHECKPOINT; plain and partitioned
# alternate, --repeat times. The least wall and CPU times of the loads are what this machine did
# once; the ratio is that of rows per CPU second, partitioned to plain.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path);
use List::Util qw(min);
use lib dirname(abs_path($0));
use Bench ();

our (%o, $TERM_OUT);
BEGIN {
	my ($bench) = Bench::start();
	my @args = @ARGV;
	%o = (rows => 1000000, months => 12, repeat => 5, out => "$bench/out/partition_routing");
	Bench::options(\%o, undef, qw(rows=i months=i repeat=i out=s));
	make_path($o{out});
	Bench::as_postgres($o{out}, @args);
	($TERM_OUT) = Bench::framework(abs_path($o{out}));
}
use PostgreSQL::Test::Cluster;
use Test::More ();
Test::More->builder->no_ending(1);
open STDOUT, '>&', $TERM_OUT or die;

my $node = PostgreSQL::Test::Cluster->new('routing');
$node->init;
$node->append_conf('postgresql.conf', "timezone = UTC\nshared_buffers = 256MB\nmax_wal_size = 4GB\n"
	  . "synchronous_commit = off\nlog_statement = none\nwal_level = replica\nmax_wal_senders = 10");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION locality_uuid');

# The backend's CPU time (user and system) in clock ticks, from /proc (Linux); the least of the
# loads is shown, since the wall clock of a shared machine measures its other users as well.
my $ticks = `getconf CLK_TCK` =~ s/\n//r;
my $cpu_ticks = q{(SELECT f[14]::bigint + f[15]::bigint FROM string_to_array(pg_read_file('/proc/self/stat'), ' ') f)};

# Each format: name, DEFAULT, partition key, bound of a month start (%s), whether the key is an
# expression (then no primary key on the parent: a unique index on id in each partition).
my @formats = (
	[ 'hot_uuid', 'hot_uuid(7)', 'id', 'hot_uuid_boundary(%s)', 0 ],
	[ 'uuidv7', 'uuidv7()', 'id', 'uuidv7_lower(%s)', 0 ],
	[ 'uuidv7_ordered', 'uuidv7_ordered()', 'id', 'uuidv7_lower(%s)', 0 ],
	[ 'locality', 'locality_uuid()', 'locality_uuid_timestamp(id)', '%s', 1 ]);

# CSV=FILE appends the figures to FILE, the source of the benchmark page's routing table.
my $csv;
if ($ENV{CSV}) {
	my $fresh = !-s $ENV{CSV};
	open $csv, '>>', $ENV{CSV} or die "partition_routing.pl: $ENV{CSV}: $!\n";
	print $csv "postgres,format,table,rows_per_s,rows_per_cpu_s,ratio_cpu\n" if $fresh;
}

my $head = "%-15s %-6s %8s %7s %9s %7s %9s %6s   %s\n";
printf $head, qw(format table rows wall_s rows/s cpu_s rows/cpu_s ratio), '(wall s of each load | backend CPU s of each load)';
for (@formats) {
	my ($name, $default, $key, $bound, $expr) = @$_;
	my $pk = $expr ? '' : 'PRIMARY KEY';
	$node->safe_psql('postgres', <<"SQL");
CREATE TABLE ${name}_plain (id uuid NOT NULL $pk DEFAULT $default, payload integer);
CREATE TABLE ${name}_part (id uuid NOT NULL $pk DEFAULT $default, payload integer)
    PARTITION BY RANGE ($key);
DO \$\$
DECLARE
    m timestamptz;
BEGIN
    FOR i IN -$o{months}..$o{months} LOOP
        m := date_trunc('month', now()) + i * interval '1 month';
        EXECUTE format('CREATE TABLE %I PARTITION OF ${name}_part FOR VALUES FROM (%s) TO (%s)',
                       '${name}_part_' || to_char(m, 'YYYY_MM'),
                       format('$bound', quote_literal(m)),
                       format('$bound', quote_literal(m + interval '1 month')));
        IF $expr = 1 THEN
            EXECUTE format('CREATE UNIQUE INDEX ON %I (id)', '${name}_part_' || to_char(m, 'YYYY_MM'));
        END IF;
    END LOOP;
END
\$\$;
SQL
	$node->safe_psql('postgres', "CREATE UNIQUE INDEX ON ${name}_plain (id)") if $expr;
	my (%wall, %cpu);
	for (1 .. $o{repeat}) {
		for my $table ("${name}_plain", "${name}_part") {
			my ($w, $c) = split /\|/, $node->safe_psql('postgres', <<"SQL");
TRUNCATE $table;
CHECKPOINT;
SELECT clock_timestamp() AS t0, $cpu_ticks AS c0 \\gset
INSERT INTO $table (payload) SELECT g FROM generate_series(1, $o{rows}) g;
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 3),
       round(($cpu_ticks - :c0) / $ticks.0, 2);
SQL
			push @{ $wall{$table} }, $w;
			push @{ $cpu{$table} }, $c;
		}
	}
	my $plain_rate;
	for my $table ("${name}_plain", "${name}_part") {
		my ($w, $c) = (min(@{ $wall{$table} }), min(@{ $cpu{$table} }));
		my $cpu_rate = $o{rows} / $c;
		$plain_rate //= $cpu_rate;
		printf "%-15s %-6s %8s %7s %9.0f %7s %9.0f %6.2f   %s| %s\n", $name, $table =~ s/^\Q$name\E_//r,
		  $o{rows}, $w, $o{rows} / $w, $c, $cpu_rate, $cpu_rate / $plain_rate, "@{ $wall{$table} } ",
		  "@{ $cpu{$table} }";
		printf $csv "%s,%s,%s,%.0f,%.0f,%.2f\n", ($node->pg_version =~ /^(\d+)/)[0], $default, $table =~ s/^\Q$name\E_//r,
		  $o{rows} / $w, $cpu_rate, $cpu_rate / $plain_rate if $csv;
	}
	# Every row of the partitioned table is in the partition of the current month.
	print $node->safe_psql('postgres', "SELECT '  check: ' || count(*) FILTER (WHERE tableoid::regclass::text = '${name}_part_' || to_char(now(), 'YYYY_MM')) || ' of ' || count(*) || ' rows in the current month''s partition' FROM ${name}_part"), "\n";
}
