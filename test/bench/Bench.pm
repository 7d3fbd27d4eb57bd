# What the benchmark scripts share: options, progress lines, the build, running as postgres, the
# peers' installation, the machine's description, the plots' writer and the contention figures.
package Bench;
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(basename dirname);
use File::Path qw(make_path);
use Getopt::Long qw(:config no_ignore_case);
use Time::HiRes qw(time);

my $ME = basename($0);
my ($ROOT, $START);

# start: where the benchmark scripts are and the repository's root, both absolute, and the time
# the run starts; PG_CONFIG defaults to pg_config.
sub start
{
	my $bench = dirname(abs_path($0));
	$ENV{PG_CONFIG} //= 'pg_config';
	($ROOT, $START) = (abs_path("$bench/../.."), time);
	return ($bench, $ROOT, $START);
}

# say MESSAGE: one progress line with the time since start.
sub say
{
	my $s = int(time - $START);
	print sprintf("[%02d:%02d] %s\n", $s / 60, $s % 60, "@_");
}

# options O SHORT SPEC...: the command line into %O, which holds the defaults (Getopt::Long's
# SPEC; --help prints the script's header comment). With --short, SHORT's values (a hash
# reference) replace the defaults first, so that options given as well still count.
sub options
{
	my ($o, $short, @spec) = @_;
	%$o = (%$o, %$short) if $short && grep { $_ eq '--short' } @ARGV;
	GetOptions($o, @spec, help => sub { open my $f, '<', $0; while (<$f>) { last if /^use /; print s/^# ?//r if $. > 1 } exit 0 })
	  or die "$ME: bad options (try --help)\n";
}

# positive O NAME...: die unless each option NAME of %O is above zero.
sub positive
{
	my ($o, @names) = @_;
	$o->{$_} > 0 or die "$ME: --$_ must be positive\n" for @names;
}

# build OUT: make and install the extension with $PG_CONFIG, the log in OUT/build.log; dies when it fails.
sub build
{
	my ($out) = @_;
	say("building and installing the extension with $ENV{PG_CONFIG}");
	system("make -C '$ROOT' -s -j2 PG_CONFIG='$ENV{PG_CONFIG}' >'$out/build.log' 2>&1"
		  . " && make -C '$ROOT' -s install PG_CONFIG='$ENV{PG_CONFIG}' >>'$out/build.log' 2>&1") == 0
	  or die "$ME: the build failed, see $out/build.log\n";
}

# as_postgres OUT ARGS...: as root, give OUT to postgres and run this script again as postgres
# with ARGS (initdb refuses root); otherwise return.
sub as_postgres
{
	my ($out, @args) = @_;
	return if $> != 0 || $^C;
	system('chown', '-R', 'postgres:', $out);
	exec('runuser', '-u', 'postgres', '--', $^X, $0, @args) or die "$ME: runuser: $!\n";
}

# framework OUT: ready PostgreSQL's TAP framework (of $PG_CONFIG's server) to load, its
# files in OUT; returns copies of standard output and standard error, taken before it loads.
sub framework
{
	my ($out) = @_;
	open my $term_out, '>&', \*STDOUT or die;
	open my $term_err, '>&', \*STDERR or die;
	# 15 and 16 put tmp_check in TESTDIR, 17 and later tmp_check and its log where these say.
	$ENV{TESTDIR} = $out;
	$ENV{TESTDATADIR} = "$out/tmp_check";
	$ENV{TESTLOGDIR} = "$out/tmp_check/log";
	my $src = dirname(`"$ENV{PG_CONFIG}" --pgxs`) . '/..';
	unshift @INC, "$src/test/perl";
	$ENV{PG_REGRESS} //= "$src/test/regress/pg_regress";
	$ENV{PATH} = `"$ENV{PG_CONFIG}" --bindir` =~ s/\n//r . ":$ENV{PATH}";
	return ($term_out, $term_err);
}

# peer_install EXTENSION TARBALL OUT VENDOR SAY: make a peer available to $PG_CONFIG's server,
# built in OUT/src from VENDOR's TARBALL after its SHA256SUMS check; returns (raw.csv line, why
# it is skipped), one of them empty. SAY prints a progress line.
sub peer_install
{
	my ($ext, $file, $out, $vendor, $say) = @_;
	my $share = `"$ENV{PG_CONFIG}" --sharedir` =~ s/\n//r;
	if (-f "$share/extension/$ext.control") {
		my $pkg = `dpkg -S '$share/extension/$ext.control' 2>/dev/null` =~ s/:.*//sr;
		my $how = $pkg ? "Debian package $pkg" : 'installed before this run';
		$say->("peer $ext: $how");
		return ("peer,$ext,$how\n", '');
	}
	my $why = !$vendor ? 'its source is absent: no vendor directory (--vendor DIR or LOCALITY_UUID_VENDOR)'
	  : !-f "$vendor/$file" ? "its source is absent: no $vendor/$file"
	  : !-f "$vendor/SHA256SUMS" ? "no $vendor/SHA256SUMS to check $file against" : '';
	unless ($why) {
		my ($want) = `cat '$vendor/SHA256SUMS'` =~ /^([0-9a-f]{64})\s+\*?\Q$file\E$/m;
		my $have = `sha256sum '$vendor/$file'` =~ s/\s.*//sr;
		$why = !$want ? "$file is not listed in $vendor/SHA256SUMS"
		  : $want ne $have ? "$vendor/$file does not match SHA256SUMS (sha256 $have)" : '';
	}
	unless ($why) {
		make_path("$out/src");
		my $top = `tar -tzf '$vendor/$file' | head -1` =~ s{/.*}{}sr;
		my $src = "$out/src/$top";
		$say->("peer $ext: building $file (sha256 checked) in $src");
		system("tar -C '$out/src' -xzf '$vendor/$file' && make -C '$src' PG_CONFIG='$ENV{PG_CONFIG}' >'$out/peer-$ext.log' 2>&1"
			  . " && make -C '$src' install PG_CONFIG='$ENV{PG_CONFIG}' >>'$out/peer-$ext.log' 2>&1") == 0
		  and return ("peer,$ext,built from $file\n", '');
		$why = "building $file failed (see $out/peer-$ext.log)";
	}
	$say->("peer $ext: skipped: $why");
	return ('', $why);
}

# machine: this machine in one line: CPUs, memory, system.
sub machine
{
	my $cpu = `grep -m1 'model name' /proc/cpuinfo` =~ s/^[^:]*:\s*|\n//gr;
	my $virt = `lscpu 2>/dev/null` =~ /^Hypervisor vendor:\s*(.*)$/m ? ", $1 VM" : '';
	my ($mem) = `cat /proc/meminfo` =~ /MemTotal:\s*(\d+)/;
	my $os = `. /etc/os-release 2>/dev/null && echo "\$PRETTY_NAME"` =~ s/\n//r || `uname -s` =~ s/\n//r;
	my $arch = `uname -m` =~ s/\n//r;
	my $nproc = `nproc` =~ s/\n//r;
	return "$nproc x $cpu ($arch$virt), " . sprintf('%.0f', $mem / 1048576) . " GB RAM, $os";
}

# write_file FILE TEXT; read_file FILE: the whole file (undef when it cannot be read).
sub write_file { open my $f, '>', $_[0] or die "$_[0]: $!"; print $f $_[1]; close $f }
sub read_file { open my $f, '<', $_[0] or return undef; local $/; my $t = <$f>; close $f; return $t }

# gnuplot OUT NAME HEIGHT LINE...: draw OUT/NAME.png, 1200 pixels wide and HEIGHT high, with
# gnuplot: the terminal's lines and LINEs in OUT/NAME.gp, its complaints in OUT/NAME.gp.log.
sub gnuplot
{
	my ($out, $name, $height, @lines) = @_;
	write_file("$out/$name.gp", join "\n", "set terminal pngcairo noenhanced size 1200,$height font 'DejaVu Sans,10'", "set output '$name.png'", @lines, '');
	# The script is written either way: where there is no gnuplot (a chroot), it is drawn elsewhere.
	return warn "$ME: gnuplot not found (apt-get install gnuplot-nox); no $name.png (gnuplot $out/$name.gp draws it)\n"
	  if system('command -v gnuplot >/dev/null');
	system("cd '$out' && gnuplot $name.gp >$name.gp.log 2>&1") == 0 or warn "$ME: gnuplot failed, see $out/$name.gp.log\n";
}

# median LIST: the median (the mean of the middle two of an even count).
sub median { my @s = sort { $a <=> $b } @_; return @s % 2 ? $s[ $#s / 2 ] : ($s[ @s / 2 - 1 ] + $s[ @s / 2 ]) / 2 }

# above_floor NS FLOOR RANDOM: NS above the floor as a ratio to gen_random_uuid()'s above it.
sub above_floor { my ($ns, $f, $g) = @_; return ($ns - $f) / ($g - $f) }

# contention_medians ROWS: {"pinned,call,clients" => median ns a call} of contention.csv's ROWS
# (hashes by its header's names).
sub contention_medians
{
	my %v;
	push @{ $v{"$_->{pinned},$_->{call},$_->{clients}"} }, $_->{ns_per_call} for @_;
	return { map { ($_ => median(@{ $v{$_} })) } keys %v };
}

# loadavg: the load averages of the last 1, 5 and 15 minutes.
sub loadavg { `cut -d' ' -f1-3 /proc/loadavg` =~ s/\n//r }

1;
