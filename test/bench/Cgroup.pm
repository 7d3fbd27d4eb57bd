# The memory cgroup of the past-memory benchmarks (past_memory.pl, time_questions.pl): root makes
# it, runs the script again as postgres (initdb refuses root) and moves the server the child
# starts into it on request; the cgroup is removed at the end, also after a failure or a signal.
package Cgroup;
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(basename);
use File::Path qw(make_path remove_tree);
use POSIX qw(WNOHANG);
use Time::HiRes qw(time sleep);

# The cgroup of this run: {version, root, dir}; the child's view (it removes nothing).
our $CG;
my $ME = basename($0);

require Bench;
sub write_file { Bench::write_file(@_) }
sub read_file { Bench::read_file(@_) }

# parent O GLOB...: the output directory $O{out} made and absolute, and with --check-cgroup the
# answer (it exits); then in the parent (root: neither --child nor --list nor perl -c) the memory
# cgroup hierarchy found, the files of an earlier run (GLOBs in the output directory) removed and,
# unless --no-build, the extension built and installed. Returns whether this is the parent.
sub parent
{
	my ($o, @globs) = @_;
	check($o->{limit}) if $o->{'check-cgroup'};
	make_path($o->{out});
	$o->{out} = abs_path($o->{out});
	return 0 if $o->{child} || $o->{list} || $^C;
	my $c = find();
	ref $c or die "$ME: $c\n";
	remove_tree(grep { -e } map { glob "$o->{out}/$_" } @globs);
	Bench::build($o->{out}) if $o->{build};
	return 1;
}

# find: {version, root (the hierarchy's top directory)} of a memory cgroup hierarchy, or the
# reason there is none.
sub find
{
	return 'not root: making a memory cgroup needs root' if $> != 0;
	return { version => 1, root => '/sys/fs/cgroup/memory' } if -f '/sys/fs/cgroup/memory/memory.limit_in_bytes';
	for (split /\n/, read_file('/proc/mounts') // '') {
		my (undef, $dir, $type) = split / /;
		next unless $type eq 'cgroup2';
		next unless (read_file("$dir/cgroup.controllers") // '') =~ /\bmemory\b/;
		return { version => 2, root => $dir };
	}
	return 'no memory cgroup hierarchy is mounted (neither v1 /sys/fs/cgroup/memory nor a cgroup2 with the memory controller)';
}

# make LIMIT_MB: make the server's cgroup; dies with the reason when it cannot.
sub make
{
	my ($mb) = @_;
	my $c = find();
	ref $c or die "$ME: $c\n";
	$c->{dir} = "$c->{root}/locality_uuid_bench_$$";
	if ($c->{version} == 2) {
		my $sub = read_file("$c->{root}/cgroup.subtree_control") // '';
		write_file("$c->{root}/cgroup.subtree_control", '+memory') unless $sub =~ /\bmemory\b/;
	}
	mkdir $c->{dir} or die "$ME: mkdir $c->{dir}: $!\n";
	$CG = $c;
	my $bytes = $mb * 1024 * 1024;
	if ($c->{version} == 1) {
		write_file("$c->{dir}/memory.limit_in_bytes", $bytes);
		# The memory a process had when it came in goes with it.
		eval { write_file("$c->{dir}/memory.move_charge_at_immigrate", 3) };
		eval { write_file("$c->{dir}/memory.memsw.limit_in_bytes", $bytes) } if -e "$c->{dir}/memory.memsw.limit_in_bytes";
	} else {
		write_file("$c->{dir}/memory.max", $bytes);
		eval { write_file("$c->{dir}/memory.swap.max", 0) } if -e "$c->{dir}/memory.swap.max";
	}
	return $c;
}

# check LIMIT_MB: whether a cgroup can be made, limited and removed here (a read-only hierarchy
# cannot): prints where, or why not, and exits 0 or 3.
sub check
{
	my $c = eval { make($_[0]) };
	my $why = $@ =~ s/^\Q$ME\E: //r =~ s/\n//r;
	print $c ? "cgroup v$c->{version} memory hierarchy at $c->{root}\n" : "$why\n";
	remove() if $CG;
	exit($c ? 0 : 3);
}

# children PID: PID's child processes.
sub children
{
	my ($pid) = @_;
	my @c;
	for my $stat (glob '/proc/[0-9]*/stat') {
		my $t = read_file($stat) // next;
		push @c, $1 if $t =~ /^(\d+) \(.*\) \S (\d+) / && $2 == $pid;
	}
	return @c;
}

# of PID: the line of /proc/PID/cgroup of the memory hierarchy.
sub of
{
	my $t = read_file("/proc/$_[0]/cgroup") // return '';
	my ($l) = $CG->{version} == 1 ? $t =~ /^(\d+:(?:[^:]*,)?memory(?:,[^:]*)?:.*)$/m : $t =~ /^(0::.*)$/m;
	return $l // '';
}

# move POSTMASTER: move the postmaster and its children into the cgroup; their membership
# lines, or dies.
sub move
{
	my ($pm) = @_;
	my @pids = ($pm, children($pm));
	my $rel = substr($CG->{dir}, length $CG->{root});
	my @lines;
	for my $pid (@pids) {
		eval { write_file("$CG->{dir}/cgroup.procs", $pid) };
		my $l = of($pid);
		# A child that has just exited is no longer there to move.
		next if $l eq '' && !-e "/proc/$pid";
		$l =~ /:\Q$rel\E$/ or die "$ME: process $pid is not in $CG->{dir}: $l\n";
		push @lines, "$pid $l";
	}
	return @lines;
}

# remove: move what is left in the cgroup out of it, then remove it.
sub remove
{
	my $c = $CG or return;
	undef $CG;
	return unless -d $c->{dir};
	for my $try (1 .. 50) {
		my @left = grep { /\d/ } split /\n/, read_file("$c->{dir}/cgroup.procs") // '';
		if (@left) {
			warn "$ME: processes @left are still in $c->{dir}; moving them out\n" if $try == 1;
			eval { write_file("$c->{root}/cgroup.procs", $_) } for @left;
		}
		return print "cgroup $c->{dir} removed\n" if rmdir $c->{dir};
		sleep 0.1;
	}
	warn "$ME: could not remove $c->{dir}: $!\n";
}

# usage: meta lines of the cgroup's peak use and limit hits.
sub usage
{
	my $d = $CG->{dir};
	my @m;
	if ($CG->{version} == 1) {
		my $peak = read_file("$d/memory.max_usage_in_bytes") // 0;
		push @m, sprintf('meta,cgroup_peak_mb,%.1f', $peak / 1048576), 'meta,cgroup_failcnt,' . ((read_file("$d/memory.failcnt") // '') =~ s/\s//gr);
		push @m, "meta,cgroup_oom_kill,$1" if (read_file("$d/memory.oom_control") // '') =~ /^oom_kill (\d+)/m;
	} else {
		my $peak = read_file("$d/memory.peak");
		push @m, sprintf('meta,cgroup_peak_mb,%.1f', $peak / 1048576) if defined $peak;
		my $ev = read_file("$d/memory.events") // '';
		push @m, "meta,cgroup_$1,$2" while $ev =~ /^(max|oom_kill) (\d+)$/mg;
	}
	return @m;
}

# run_child LIMIT_MB OUT RAW ARGS...: (root) make the cgroup, run this script again as postgres
# with ARGS, '--child' and '--out OUT', move its server into the cgroup when it asks, append the
# cgroup's usage to the CSV file RAW, remove the cgroup; returns the exit status to give.
# The child asks by writing OUT/cgroup.request (the postmaster's pid); the answer goes to
# OUT/cgroup.reply: "ok" and the membership lines, or "error" and the reason.
sub run_child
{
	my ($mb, $out, $raw, $say, @args) = @_;
	my $c = make($mb);
	$say->("cgroup v$c->{version} $c->{dir}: memory limit $mb MB");
	system('chown', '-R', 'postgres:', $out);
	$ENV{BENCH_ARGS} = join ' ', @args;
	my $kid = fork // die "$ME: fork: $!\n";
	if ($kid == 0) {
		exec('runuser', '-u', 'postgres', '--', $^X, $0, @args, '--child', '--out', $out);
		die "$ME: runuser: $!\n";
	}
	my $signal;
	$SIG{$_} = sub { $signal = $_[0]; kill 'TERM', $kid } for qw(INT TERM HUP);
	my ($rc, $since);
	while (1) {
		my $w = waitpid($kid, WNOHANG);
		if ($w == $kid) { $rc = $?; last }
		if (-f "$out/cgroup.request" && !-f "$out/cgroup.reply") {
			my ($pm) = (read_file("$out/cgroup.request") // '') =~ /^(\d+)/;
			my @l = eval { move($pm // 0) };
			write_file("$out/cgroup.reply.tmp", $@ ? "error $@"
				  : join("\n", 'ok', "version $CG->{version}", "root $CG->{root}", "dir $CG->{dir}", @l) . "\n");
			rename "$out/cgroup.reply.tmp", "$out/cgroup.reply";
		}
		# Gone 60 s after a signal: leave it; the cgroup still goes.
		$since //= time if $signal;
		last if $since && time - $since > 60;
		sleep 0.2;
	}
	if (open my $f, '>>', $raw) {
		print $f map { "$_\n" } usage();
		close $f;
	}
	remove();
	return $signal ? 1 : $rc >> 8 || ($rc & 127 ? 1 : 0);
}

# join_server OUT POSTMASTER Q1: (the child) have the postmaster and its children moved into
# the cgroup, and check that a new backend is in it (Q1 SQL: the answer of one query in
# database postgres); returns the membership lines and the backend's "pid line".
sub join_server
{
	my ($out, $pm, $q1) = @_;
	write_file("$out/cgroup.request", "$pm\n");
	my $reply;
	for (1 .. 300) { last if defined($reply = read_file("$out/cgroup.reply")); sleep 0.1 }
	defined $reply && $reply =~ /^ok\n/ or die "$ME: the server was not moved into the cgroup: " . ($reply // 'no reply') . "\n";
	my @member = grep { length } split /\n/, $reply =~ s/^ok\n//r;
	$CG = { map { /^(version|root|dir) (.*)$/ ? ($1 => $2) : () } @member };
	@member = grep { !/^(version|root|dir) / } @member;
	# A backend, and the checkpointer (forked before the move), must be in the cgroup too.
	my ($bpid, $bline) = split /,/, $q1->("SELECT pg_backend_pid(), (regexp_match(pg_read_file('/proc/self/cgroup'), '"
		  . ($CG->{version} == 1 ? '(?:^|\n)(\d+:(?:[^:\n]*,)?memory(?:,[^:\n]*)?:[^\n]*)' : '(?:^|\n)(0::[^\n]*)') . "'))[1]");
	$bline =~ m{/locality_uuid_bench_\d+$} or die "$ME: a backend is not in the cgroup: $bline\n";
	return (\@member, "$bpid $bline");
}

1;
