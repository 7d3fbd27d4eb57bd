# Every example in README.md and docs/*.md, run as the page shows it (CONTRIBUTING.md, "Examples
# in the docs"): sql blocks through psql, each compared with the text block after it; console
# blocks' `$ ` commands through bash; conf blocks read by the server's own parser (postgres -C).
# A page runs in a database of its own, with the extension created, as a superuser, on a node
# that preloads the module; a page marked <!-- doc-test: portable --> runs on a node without the
# module, as a non-superuser owner who installed the portable edition with psql -f; one marked
# <!-- doc-test: bare --> without the extension created. A mark on the line before a block:
# <!-- doc-test: skip REASON --> skips it, <!-- doc-test: requires EXTENSION [MIN_VERSION] -->
# runs it where that extension is available. In a text block, … matches any text.
# LOCALITY_UUID_DOC_PAGES='README.md docs/format.md' limits the run to those pages.
use strict;
use warnings FATAL => 'all';

use File::Temp ();
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

my @pages = $ENV{LOCALITY_UUID_DOC_PAGES}
  ? split(' ', $ENV{LOCALITY_UUID_DOC_PAGES})
  : ('README.md', sort glob('docs/*.md'));

# TimescaleDB's examples need its library preloaded, where it is installed.
my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
my @preload = ('locality_uuid', -f "$pkglibdir/timescaledb.so" ? ('timescaledb') : ());
my %nodes = (
	c => extension_node('doc_c', extension => 0,
		conf => [ "shared_preload_libraries = '" . join(',', @preload) . "'",
			'timescaledb.telemetry_level = off', "timezone = 'UTC'",
			# README's façade key, which it shows in postgresql.conf
			"locality_uuid.facade_key = '000102030405060708090a0b0c0d0e0f'" ]),
	plain => extension_node('doc_plain', extension => 0, conf => ["timezone = 'UTC'"]),
);
$nodes{plain}->safe_psql('postgres', 'CREATE ROLE app LOGIN CREATEROLE');
my $bindir = $nodes{c}->config_data('--bindir');

# The fenced blocks of a page, in order: {lang, line, text, directive (the doc-test comment
# right before the fence), follows (only blank lines since the block before)}.
sub blocks_of
{
	my ($page) = @_;
	open my $fh, '<', $page or die "$page: $!";
	my @lines = <$fh>;
	close $fh;
	my (@blocks, $open, $directive);
	my $gap = '';    # what stands between the last block and this line
	for my $i (0 .. $#lines)
	{
		my $line = $lines[$i];
		if ($open)
		{
			if ($line =~ /^```\s*$/) { push @blocks, $open; undef $open; $gap = ''; }
			else { $open->{text} .= $line; }
		}
		elsif ($line =~ /^```(\S*)\s*$/)
		{
			my $lang = $1;
			$open = { lang => $lang, line => $i + 1, text => '', directive => $directive,
				follows => @blocks && $gap !~ /\S/ };
			undef $directive;
		}
		else
		{
			$gap .= $line;
			if ($line =~ /^<!-- doc-test: (.*?) -->\s*$/) { $directive = $1; }
			elsif ($line =~ /\S/) { undef $directive; }
		}
	}
	return @blocks;
}

# Does the output match the expected text? Blank lines and trailing spaces do not count; `…`
# in a line matches any text of that line; a line that is just `…` matches any lines.
sub matches
{
	my ($expected, $actual) = @_;
	my @want = grep { /\S/ } map { s/\s+$//r } split /\n/, $expected;
	my @got = grep { /\S/ } map { s/\s+$//r } split /\n/, $actual;
	my $match;
	$match = sub {
		my ($w, $g) = @_;
		return $g == @got if $w == @want;
		if ($want[$w] eq '…')
		{
			for my $skip ($g .. @got) { return 1 if $match->($w + 1, $skip); }
			return 0;
		}
		return 0 if $g == @got;
		my $re = join '.*', map { quotemeta } split /…/, $want[$w], -1;
		return $got[$g] =~ /^$re$/ && $match->($w + 1, $g + 1);
	};
	my $result = $match->(0, 0);
	undef $match;
	return $result;
}

# Run a command with the page's database in the environment; stdout and stderr together.
sub run_with_db
{
	my ($db, $cmd, $stdin) = @_;
	my $out = '';
	local $ENV{PGHOST} = $db->{node}->host;
	local $ENV{PGPORT} = $db->{node}->port;
	local $ENV{PGDATABASE} = $db->{name};
	local $ENV{PGUSER} = $db->{user};
	local $ENV{PGTZ} = 'UTC';
	local $ENV{PATH} = "$bindir:$ENV{PATH}";
	IPC::Run::run($cmd, '<', \$stdin, '>&', \$out);
	return $out;
}

# The database of a page, made ready as its directives say.
sub page_database
{
	my ($n, $text) = @_;
	my %db = (name => "doc$n", node => $nodes{c});
	if ($text =~ /<!-- doc-test: portable -->/)
	{
		%db = (%db, user => 'app', node => $nodes{plain});
		$db{node}->safe_psql('postgres', "CREATE DATABASE $db{name} OWNER app");
		install_portable($db{node}, $db{name}, user => 'app');
		return \%db;
	}
	$db{user} = $db{node}->safe_psql('postgres', 'SELECT current_user');
	$db{node}->safe_psql('postgres', "CREATE DATABASE $db{name}");
	$db{node}->safe_psql($db{name}, 'CREATE EXTENSION locality_uuid')
	  unless $text =~ /<!-- doc-test: bare -->/;
	return \%db;
}

# Is extension name available in version min (dotted numbers) or later?
sub available
{
	my ($db, $name, $min) = @_;
	my $version = $db->{node}->safe_psql($db->{name},
		"SELECT default_version FROM pg_available_extensions WHERE name = '$name'");
	return 0 if $version eq '';
	my @have = split /\./, $version;
	for my $want (split /\./, $min // '')
	{
		my $part = shift(@have) // 0;
		return $part > $want if $part != $want;
	}
	return 1;
}

# Check a conf block with the server's parser: postgres -C reads a postgresql.conf and exits
# non-zero on a line it cannot parse or a value a known setting refuses.
sub conf_errors
{
	my ($text) = @_;
	my $dir = File::Temp::tempdir(CLEANUP => 1);
	open my $fh, '>', "$dir/postgresql.conf" or die $!;
	print $fh $text;
	close $fh;
	my $out = '';
	IPC::Run::run([ "$bindir/postgres", '-D', $dir, '-C', 'shared_preload_libraries' ], '>&', \$out);
	return $? == 0 ? '' : $out;
}

my $n = 0;
for my $page (@pages)
{
	open my $fh, '<', $page or die "$page: $!";
	my $text = do { local $/; <$fh> };
	close $fh;
	my @blocks = blocks_of($page);
	next unless grep { $_->{lang} =~ /^(sql|console|conf)$/ } @blocks;
	my $db = page_database(++$n, $text);
	for my $i (0 .. $#blocks)
	{
		my $block = $blocks[$i];
		my $where = "$page:$block->{line}";
		my $output = $blocks[ $i + 1 ] && $blocks[ $i + 1 ]{lang} eq 'text' && $blocks[ $i + 1 ]{follows}
		  ? $blocks[ $i + 1 ]{text} : undef;
		next unless $block->{lang} =~ /^(sql|console|conf)$/;
		my $d = $block->{directive} // '';
		if ($d =~ /^skip (.+)/) { note "$where skipped: $1"; next; }
		if ($d =~ /^requires (\S+)(?: (\S+))?/ && !available($db, $1, $2))
		{
			note "$where skipped: " . join(' ', grep { defined } $1, $2) . ' is not installed';
			next;
		}
		if ($block->{lang} eq 'conf')
		{
			is(conf_errors($block->{text}), '', "$where: postgresql.conf lines the server accepts");
		}
		elsif ($block->{lang} eq 'sql')
		{
			my $out = run_with_db($db, [ 'psql', '-X', '-q' ], $block->{text});
			if (defined $output) { ok(matches($output, $out), "$where: the output shown") or diag("expected:\n$output\ngot:\n$out"); }
			else { unlike($out, qr/^(ERROR|FATAL):/m, "$where: runs without error"); }
		}
		else
		{
			# console: each `$ command` and the lines after it, its expected output.
			my @steps;
			for my $line (split /\n/, $block->{text})
			{
				if ($line =~ /^\$ (.*)/) { push @steps, [ $1, '' ]; }
				elsif (@steps) { $steps[-1][1] .= "$line\n"; }
			}
			for my $s (@steps)
			{
				my $out = run_with_db($db, [ 'bash', '-c', $s->[0] ], '');
				ok(matches($s->[1], $out), "$where: \$ $s->[0]") or diag("expected:\n$s->[1]got:\n$out");
			}
		}
	}
}

done_testing();
