#!/usr/bin/env perl
# Write the tables of docs/bench/README.md from the published runs' CSV files (docs/bench/pg15,
# pg18, cli.csv and routing.csv): each table stands between <!-- table:NAME --> and <!-- /table -->.
# Usage: perl test/bench/page.pl [--check]   (--check: exit 1 if the page's tables differ)
use strict;
use warnings;
use File::Basename qw(dirname);
use Text::ParseWords qw(parse_line);
use lib dirname(__FILE__);
use Bench ();

my $DOCS = dirname(__FILE__) . '/../../docs/bench';
my @MAJORS = (15, 18);

# csv FILE: its rows as hashes by the header's names, in file order.
sub csv
{
	open my $f, '<', "$DOCS/$_[0]" or die "page.pl: $DOCS/$_[0]: $!\n";
	chomp(my @lines = <$f>);
	my @head = split /,/, shift @lines;
	return map { my %r; @r{@head} = parse_line(',', 0, $_); \%r } @lines;
}
# by KEY ROWS: the rows by their KEY column.
sub by { my $k = shift; return { map { $_->{$k} => $_ } @_ } }
# union LISTS: every name of the lists once, a later list's new names after their predecessor.
sub union
{
	my @all;
	for my $list (@_) {
		my $at = 0;
		for my $n (@$list) {
			my ($i) = grep { $all[$_] eq $n } 0 .. $#all;
			if (defined $i) { $at = $i + 1 } else { splice @all, $at++, 0, $n }
		}
	}
	return @all;
}
sub x { return defined $_[0] && $_[0] ne '' ? sprintf('%.2f', $_[0]) : '' }
sub n { my ($v, $f) = @_; return defined $v && $v ne '' ? sprintf($f, $v) : '' }
# table HEAD ROWS: a compact Markdown table; the cells after the first two are right-aligned.
sub table
{
	my ($head, @rows) = @_;
	return join '', map { '|' . join('|', @$_) . "|\n" } $head, [ '-', map { '-:' } 1 .. $#$head ], @rows;
}
# per_major SUFFIX CSV...: [major => {csv => rows}] of each published run.
sub runs
{
	my ($suffix, @names) = @_;
	return map { my $m = $_; [ $m, { map { $_ => [ csv("pg$m/$_$suffix.csv") ] } @names } ] } @MAJORS;
}

# cost SUFFIX FILTER: ns above the floor in one backend; ratio to gen_random_uuid() in one
# backend, with 1 and with 8 clients; of the generators whose name matches FILTER.
sub cost
{
	my ($suffix, $filter) = @_;
	my @runs = runs($suffix, qw(cost cost_concurrent));
	my @names = grep { $_ ne 'floor' && ($filter eq '' || /$filter/) } union(map { [ map { $_->{generator} } @{ $_->[1]{cost} } ] } @runs);
	return table([ 'generator', map { ("$_->[0] ns", 'x', '1 client', '8 clients') } @runs ],
		map { my $g = $_; [ $g, map {
			my ($c, $cc) = (by(generator => @{ $_->[1]{cost} })->{$g}, by(generator => @{ $_->[1]{cost_concurrent} })->{$g});
			(n($c->{ns_per_call_above_floor}, '%.0f'), x($c->{ratio_to_gen_random_uuid}), x($cc->{ratio_1_client}),
				x($cc->{ratio_8_clients}))
		} @runs ] } @names);
}
# locality SUFFIX [PHASE, HEAD, COLUMNS]...: per run and phase the COLUMNS (w: WAL per row as a
# ratio to the sequential uuid's, f: full-page images per 1000 rows, d: leaf density %).
sub locality
{
	my ($suffix, @phases) = @_;
	my @runs = runs($suffix, map { $_->[0] } @phases);
	my @names = union(map { my $r = $_; map { [ map { $_->{label} } @{ $r->[1]{ $_->[0] } } ] } @phases } @runs);
	my %head = (w => 'WAL', f => 'FPI', d => '%');
	return table([ 'generator', map { my $m = $_->[0]; map { my ($h, @c) = ($_->[1], split //, $_->[2]);
				("$m $h $head{shift @c}", map { $head{$_} } @c) } @phases } @runs ],
		map { my $g = $_; [ $g, map { my $r = $_; map {
			my $row = by(label => @{ $r->[1]{ $_->[0] } })->{$g};
			my %v = (w => x($row->{wal_ratio}), f => n($row->{fpi_per_1000_rows}, '%.2f'),
				d => n($row->{leaf_density} // $row->{leaf_density_after}, '%.1f'));
			@v{ split //, $_->[2] }
		} @phases } @runs ] } @names);
}

# meta RAW: the meta lines of a run's raw.csv, by name.
sub meta
{
	open my $f, '<', "$DOCS/$_[0]" or die "page.pl: $DOCS/$_[0]: $!\n";
	return { map { /^meta,([^,]+),(.*)$/ ? ($1 => $2) : () } <$f> };
}

# past_memory_table DIR: one run of past_memory.pl published in DIR (pgNN or pgNN/NAME): rows/s
# once table and index are 8x the memory limit and its ratio to bigserial's, 1 and 8 clients;
# leaf density; blocks read and p99 of a lookup of a recent row.
sub past_memory_table
{
	my ($dir) = @_;
	my @load = csv("$dir/past_memory_load.csv");
	my @reads = csv("$dir/past_memory_reads.csv");
	my %base = map { ($_->{clients} => $_) } grep { $_->{generator} eq 'bigserial' } @load;
	table([ 'generator', 'rows/s past 8x, 1 client', 'x', '8 clients', 'x', 'leaf % 1 / 8', 'x limit 1 / 8',
			'recent lookup: blocks 1 / 8', 'p99 ms 1 / 8' ],
		map { my $g = $_;
			my %l = map { ($_->{clients} => $_) } grep { $_->{label} eq $g } @load;
			my %r = map { ($_->{clients} => $_) } grep { $_->{label} eq $g && $_->{kind} eq 'recent' } @reads;
			my $rate = sub { my $x = $l{ $_[0] } or return ('', '');
				return $x->{rows_per_s_past_8x} eq '' ? ("(reached $x->{x_limit}x)", '')
				  : ($x->{rows_per_s_past_8x}, $base{ $_[0] } && $base{ $_[0] }{rows_per_s_past_8x}
					  ? x($x->{rows_per_s_past_8x} / $base{ $_[0] }{rows_per_s_past_8x}) : '') };
			[ "`$g`", $rate->(1), $rate->(8), join(' / ', map { n($l{$_}{leaf_density}, '%.1f') } 1, 8),
				join(' / ', map { n($l{$_}{x_limit}, '%.1f') } 1, 8),
				join(' / ', map { n($r{$_}{blocks_read_per_lookup}, '%.2f') } 1, 8), join(' / ', map { n($r{$_}{p99_ms}, '%.2f') } 1, 8) ]
		} union([ map { $_->{label} } @load ]));
}

# contention_round_ranges DIR: {call => "lowest–highest"} of each call's ratio with 8 unpinned
# clients over the rounds of DIR/contention.csv, each round against its own floor and
# gen_random_uuid().
sub contention_round_ranges
{
	my (%ns, %x);
	$ns{ $_->{round} }{ $_->{call} } = $_->{ns_per_call} for grep { $_->{pinned} eq 'no' && $_->{clients} == 8 } csv("$_[0]/contention.csv");
	for my $round (values %ns) {
		my ($f, $g) = @$round{ '1::int', 'gen_random_uuid()' };
		push @{ $x{$_} }, Bench::above_floor($round->{$_}, $f, $g) for keys %$round;
	}
	return { map { my @s = sort { $a <=> $b } @{ $x{$_} }; ($_ => n($s[0], '%.3f') . '–' . n($s[-1], '%.3f')) } keys %x };
}

# time_questions_majors: the majors whose published time questions are of time_questions.pl's
# present shape (the key against created_at: a storage file, ways in the summary), and a note
# naming the majors whose files are of the earlier shape (the spellings against an expression
# index), which no table shows.
sub time_questions_majors
{
	my @pub = grep { -f "$DOCS/pg$_/time_questions_summary.csv" } @MAJORS;
	my @new = grep { -f "$DOCS/pg$_/time_questions_storage.csv" && (csv("pg$_/time_questions_summary.csv"))[0]{way} } @pub;
	my @old = grep { my $m = $_; !grep { $_ == $m } @new } @pub;
	return (\@new, @old ? 'PostgreSQL ' . join(' and ', @old) . ': the published files (' . join(' and ', map { "pg$_/time_questions_*.csv" } @old)
		  . ") are of the earlier harness, without created_at; not shown until they are measured again.\n" : '');
}

my %tables = (
	runs => sub {
		table([ 'run', 'PostgreSQL', 'state', 'date', 'load', 's' ], map {
			my ($m, $s) = @$_;
			my $r = meta("pg$m/raw$s.csv");
			[ "[$m$s](pg$m/)", $r->{postgres} =~ s/ .*//r, $r->{state}, $r->{date} =~ s/ UTC//r,
				($r->{load_at_start} =~ s/ .*//r) . ' to ' . ($r->{load_at_end} =~ s/ .*//r), $r->{seconds} ]
		} map { [ $_, '' ], [ $_, '_v7' ], [ $_, '_14' ] } @MAJORS);
	},
	cost => sub { cost('', '') },
	cost_14 => sub { cost('_14', '') },
	wal => sub { locality('', [ locality => 'bulk', 'wfd' ], [ concurrent => "clients", "w" ],
			[ short => 'short', 'wfd' ], [ short_concurrent => '-C', 'wf' ]) },
	order => sub {
		my @runs = runs('', 'monotonic');
		table([ 'generator', map { "$_->[0] out of order" } @runs ],
			map { my $g = $_; [ $g, map { n(by(generator => @{ $_->[1]{monotonic} })->{$g}{out_of_order_pairs}, '%d') } @runs ] }
			  union(map { [ map { $_->{generator} } @{ $_->[1]{monotonic} } ] } @runs));
	},
	targets => sub {
		table([ 'run', 'met', 'missed' ], map {
			my ($m, $s) = @$_;
			my @t = csv("pg$m/targets$s.csv");
			[ "$m" . ($s ? ' v7' : ''), scalar(grep { $_->{result} eq 'met' } @t),
				join '; ', map { ($_->{generator} =~ s/`//gr) . ' ' . ($_->{target} =~ s/, ratio to gen_random_uuid\(\)|above floor, //gr)
					  . ' ' . ($_->{target} =~ /ratio/ ? n($_->{measured}, '%.2fx') : n($_->{measured}, '%.0f ns')) }
				  grep { $_->{result} ne 'met' } @t ]
		} map { [ $_, '' ], [ $_, '_v7' ] } @MAJORS);
	},
	v7_cost => sub { cost('_v7', qr/uuidv|gen_random|_v7/) },
	v7_locality => sub { locality('_v7', [ locality => 'bulk', 'wfd' ], [ short_concurrent => '-C', 'wfd' ]) },
	instructions => sub {
		my @runs = runs('', 'instructions_v7');
		table([ 'generator', map { ("$_->[0] instructions", 'x', 'timed ns min / median') } @runs ],
			map { my $g = $_; [ $g, map { my $r = by(generator => @{ $_->[1]{instructions_v7} })->{$g};
				(n($g eq 'x' ? $r->{instructions_per_call} : $r->{above_floor}, '%d'), n($r->{ratio}, '%.3f'),
					$r->{timed_min_ns} ? "$r->{timed_min_ns} / $r->{timed_median_ns}" : '') } @runs ] }
			  union(map { [ map { $_->{generator} } @{ $_->[1]{instructions_v7} } ] } @runs));
	},
	routing => sub {
		my @rows = csv('routing.csv');
		table([ 'PostgreSQL', 'DEFAULT', 'plain rows/s', 'partitioned rows/s', 'plain rows/CPU s', 'partitioned rows/CPU s', 'partitioned / plain (CPU)' ],
			map { my ($p, $q) = @rows[ $_, $_ + 1 ]; [ $p->{postgres}, "`$p->{format}`", $p->{rows_per_s}, $q->{rows_per_s},
				$p->{rows_per_cpu_s}, $q->{rows_per_cpu_s}, $q->{ratio_cpu} ] } grep { $_ % 2 == 0 } 0 .. $#rows);
	},
	contention => sub {
		# Per published major: median ns a call and its ratio to gen_random_uuid()'s above the
		# floor (1::int), with 1 and 8 clients (and the range of the rounds' own ratios with 8), then
		# 8 clients with the server pinned to one CPU.
		my @rows;
		for my $m (grep { -f "$DOCS/pg$_/contention.csv" } @MAJORS) {
			my ($md, $ranges) = (Bench::contention_medians(csv("pg$m/contention.csv")), contention_round_ranges("pg$m"));
			my $cell = sub { my ($pin, $c, $n) = @_; my ($f, $g) = map { $md->{"$pin,$_,$n"} } '1::int', 'gen_random_uuid()';
				return ($md->{"$pin,$c,$n"}, n(Bench::above_floor($md->{"$pin,$c,$n"}, $f, $g), "%.3f")) };
			push @rows, map { [ $m, "`$_`", $cell->('no', $_, 1), $cell->('no', $_, 8), $ranges->{$_}, $cell->('yes', $_, 8) ] }
			  grep { $_ ne '1::int' } union([ map { $_->{call} } csv("pg$m/contention.csv") ]);
		}
		table([ 'PostgreSQL', 'call', 'ns, 1 client', 'x', 'ns, 8 clients', 'x', 'x, 8 clients, each round', 'ns, 8 clients on one CPU', 'x' ], @rows);
	},
	# The time questions (time_questions.pl), per published major: median buffers and ms of each
	# way, as ratios to created_at's and to the hand-written range's; storage; the inserts; targets.
	time_questions => sub {
		my ($majors, $note) = time_questions_majors();
		return $note unless @$majors;
		table([ 'PostgreSQL', 'question', 'way', 'plan', 'rows', 'estimated', 'buffers', 'read, cold', 'x created_at', 'ms cold',
				'x created_at', 'x range', 'ms warm', 'x created_at', 'x range' ],
			map { my $m = $_; my @s = csv("pg$m/time_questions_summary.csv");
				my %cold = map { ("$_->{question},$_->{way}" => $_) } grep { $_->{state} eq 'cold' } @s;
				map { my $c = $cold{"$_->{question},$_->{way}"};
					[ $m, $_->{question} =~ s/_/ /gr, "`$_->{way}`", ($_->{plan} =~ s/.* > //r) . ($_->{index} ? " ($_->{index})" : ''),
						$_->{rows}, $_->{estimated_rows}, $_->{buffers}, $c->{read}, $_->{buffers_x_created_at}, n($c->{ms}, '%.1f'),
						$c->{ms_x_created_at}, $c->{ms_x_range}, n($_->{ms}, '%.1f'), $_->{ms_x_created_at}, $_->{ms_x_range} ] }
				  grep { $_->{state} eq 'warm' } @s
			} @$majors) . ($note ? "\n$note" : '');
	},
	time_questions_storage => sub {
		my ($majors, $note) = time_questions_majors();
		return $note unless @$majors;
		table([ 'PostgreSQL', 'table', 'rows', 'heap MB', 'primary key MB', "created_at's index MB", 'indexes MB', 'total MB' ],
			map { my $m = $_; map { [ $m, $_->{table} =~ /\// ? $_->{table} : "`$_->{table}`", @$_{qw(rows heap_mb primary_key_mb
					created_at_index_mb indexes_mb total_mb)} ] } csv("pg$m/time_questions_storage.csv") } @$majors) . ($note ? "\n$note" : '');
	},
	time_questions_inserts => sub {
		my ($majors, $note) = time_questions_majors();
		return $note unless @$majors;
		table([ 'PostgreSQL', 'rows/s, the key alone (tq)', 'with created_at and its index (tq_c)', 'x', 'x, each round' ],
			map { my %r; $r{ $_->{round} }{ $_->{table} } = $_->{rows_per_s} for csv("pg$_/time_questions_inserts.csv");
				my @x = map { $r{$_}{tq} / $r{$_}{tq_c} } sort { $a <=> $b } keys %r;
				my ($key, $cat) = map { my $k = $_; Bench::median(map { $_->{$k} } values %r) } qw(tq tq_c);
				[ $_, n($key, '%.0f'), n($cat, '%.0f'), x($key / $cat), join(' ', map { x($_) } @x) ]
			} @$majors) . ($note ? "\n$note" : '');
	},
	time_questions_targets => sub {
		my ($majors, $note) = time_questions_majors();
		return $note unless @$majors;
		table([ 'PostgreSQL', 'question', 'cold / warm', 'target', 'measured', 'result' ],
			map { my $m = $_; map { [ $m, $_->{question} =~ s/_/ /gr, $_->{state}, $_->{target}, $_->{measured}, $_->{result} ] }
				  csv("pg$m/time_questions_targets.csv") } @$majors) . ($note ? "\n$note" : '');
	},
	cli => sub {
		table([ 'command (1 M ids)', 'wall s (median of 5)', 'CPU s (median of 5)' ],
			map { [ "`$_->{command}`", $_->{median_s}, $_->{median_cpu_s} // '' ] } csv('cli.csv'));
	},
	cli_change => sub {
		my @rows = csv('cli.csv');
		my %old = map { $_->{command} =~ s/^locality-uuid \(old\) //r => $_ } grep { $_->{command} =~ /\(old\)/ } @rows;
		table([ 'command (1 M ids)', 'CPU s, old', 'CPU s, new', 'new / old', 'wall s, old', 'wall s, new' ],
			map { my $o = $old{ $_->{command} =~ s/^locality-uuid //r };
				[ "`$_->{command}`", $o->{median_cpu_s}, $_->{median_cpu_s}, x($_->{median_cpu_s} / $o->{median_cpu_s}),
					$o->{median_s}, $_->{median_s} ] }
			  grep { $_->{command} !~ /\(old\)/ && $old{ $_->{command} =~ s/^locality-uuid //r } } @rows);
	},
);

# A table for each published past-memory run: past_memory_15 for pg15/, past_memory_18_targets
# for pg18/past_memory_targets/.
for my $m (@MAJORS) {
	for my $run (grep { -f "$DOCS/$_/past_memory_load.csv" } "pg$m", "pg$m/past_memory_targets") {
		my $name = 'past_memory_' . ($run =~ s{^pg}{}r =~ s{/past_memory_}{_}r);
		$tables{$name} = sub { past_memory_table($run) };
	}
}

my $page = "$DOCS/README.md";
open my $f, '<', $page or die "page.pl: $page: $!\n";
my $text = do { local $/; <$f> };
close $f;
my @differ;
(my $new = $text) =~ s{(<!-- table:(\w+) -->\n)(.*?)(<!-- \/table -->)}{
	my $t = ($tables{$2} or die "page.pl: no table $2\n")->();
	push @differ, $2 if $t ne $3;
	"$1$t$4"
}gse;
if (grep { $_ eq '--check' } @ARGV) {
	print "page.pl: $page: these tables differ from what the CSV files give: @differ (perl test/bench/page.pl writes them)\n" if @differ;
	exit(@differ ? 1 : 0);
}
open $f, '>', $page or die "page.pl: $page: $!\n";
print $f $new;
