#!/usr/bin/env perl
# Check that the SQL entry points in src/pg/*.cpp follow the install order of the SQL scripts.
# Usage (from the repository): perl test/check_entry_order.pl SCRIPT... (make entry-order-check
# names the Makefile's SCRIPT_CHAIN)
#
# The scripts are taken in the order given; each C function a
# script names (AS 'MODULE_PATHNAME', 'c_name') takes the place of its first declaration.
# Within each glue file, the entry points (extern "C" Datum c_name(PG_FUNCTION_ARGS)) must come
# in that order, each under a comment that begins with its SQL signature ("// name(args) ...").
# Every declared C function must be defined once, and every entry point declared. Prints each
# fault on a line and exits 1 if there is any.
use strict;
use warnings;

my @faults;

my @scripts = @ARGV or die "usage: perl test/check_entry_order.pl SCRIPT...\n";

# The C functions in install order, with the SQL name of their first declaration.
my (%place, %sql_name, @order);
for my $script (@scripts)
{
	open my $fh, '<', $script or die "$script: $!";
	my $text = join '', <$fh>;
	close $fh;
	while ($text =~ /CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:\w+\.)?(\w+)\s*\(((?:[^'()]|'[^']*'|\([^()]*\))*)\)(.*?)(?=CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION|\z)/gs)
	{
		my ($name, $rest) = ($1, $3);
		next unless $rest =~ /AS\s+'MODULE_PATHNAME'\s*,\s*'(\w+)'/;
		next if exists $place{$1};
		$place{$1} = scalar @order;
		$sql_name{$1} = $name;
		push @order, $1;
	}
}
push @faults, 'no C function declared in ' . join(' ', @scripts) unless @order;

# The entry points of each glue file, in file order.
my %defined;
for my $file (sort glob 'src/pg/*.cpp')
{
	open my $fh, '<', $file or die "$file: $!";
	my @lines = <$fh>;
	close $fh;
	my $last = -1;
	my $last_name;
	for my $i (1 .. $#lines)
	{
		my ($c) = $lines[$i] =~ /^(\w+)\(PG_FUNCTION_ARGS\)/ or next;
		next unless $lines[ $i - 1 ] =~ /^extern "C" Datum\s*$/;
		my $line = $i + 1;
		push @faults, "$file:$line: $c is defined again (first in $defined{$c})" if $defined{$c};
		$defined{$c} //= "$file:$line";
		if (!exists $place{$c})
		{
			push @faults, "$file:$line: $c is declared by no script of the chain";
			next;
		}
		my $top = $i - 1;
		$top-- while $top > 0 && $lines[ $top - 1 ] =~ m{^(//|/\*| \*)};
		push @faults, "$file:$line: $c: the comment above should begin with its SQL signature, // $sql_name{$c}(...)"
		  unless $top < $i - 1 && $lines[$top] =~ /^\/\/ (?:\w+\.)?\Q$sql_name{$c}\E\(/;
		push @faults, "$file:$line: $c comes after $last_name, but the scripts declare it first"
		  if $place{$c} < $last;
		($last, $last_name) = ($place{$c}, $c) if $place{$c} > $last;
	}
}
push @faults, "$_ ($sql_name{$_}) is declared but defined in no src/pg/*.cpp" for grep { !$defined{$_} } @order;

print "$_\n" for @faults;
print scalar(@order) . ' entry points, ' . (@faults ? scalar(@faults) . ' faults' : 'in script order') . "\n";
exit(@faults ? 1 : 0);
