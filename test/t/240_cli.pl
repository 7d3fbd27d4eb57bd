# The command-line tool locality-uuid against the SQL functions: 15,000 ids of every format
# made in SQL and explained by the tool, every field equal to the SQL extractors' (and every id
# read as a shard-key uuid too, with --all); 15,000 ids composed by the tool from given fields
# equal to the SQL composers'; ids the tool makes, read back by SQL; --help, exit codes and
# malformed input. Version 7 times as the extension reads them on the major (v7_time_sql).
# The tool is $LOCALITY_UUID_CLI, else the one `make install` put in the server's bindir, else
# the one on PATH (the Debian package's /usr/bin/locality-uuid).
use strict;
use warnings FATAL => 'all';
use Cwd ();
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(clock_gettime CLOCK_REALTIME);

my $node = extension_node('cli');
my $cli = $ENV{LOCALITY_UUID_CLI};
if (!defined $cli)
{
	my $bindir = $node->config_data('--bindir');
	# PGXS puts the source tree on PATH: a binary built there is not the one installed.
	my %tree = map { $_ => 1 } (Cwd::getcwd(), $ENV{TESTDIR} // ());
	my @path = grep { !$tree{$_} } split /:/, $ENV{PATH} // '';
	($cli) = grep { -x $_ } map { "$_/locality-uuid" } ($bindir, @path);
}
die 'locality-uuid not found: run make install, or set LOCALITY_UUID_CLI' unless defined $cli && -x $cli;
note "tool: $cli";

my $dir = PostgreSQL::Test::Utils::tempdir();
my $n = $ENV{LOCALITY_UUID_CLI_IDS} // 15_000;
my $as_of = '2024-06-01T12:00:00.123456Z';    # the tool's --as-of and SQL's as_of

# Run the tool with arguments, standard input from a file (or /dev/null); return exit code, stdout, stderr.
sub tool
{
	my ($args, %opts) = @_;
	my ($out, $err) = ('', '');
	my @timeout = $opts{timeout} ? (IPC::Run::timeout($opts{timeout})) : ();
	my $done = eval {
		IPC::Run::run([ $cli, @$args ], '<', $opts{stdin} // '/dev/null',
			'>', $opts{stdout} // \$out, '2>', \$err, @timeout);
		1;
	};
	return ('timeout', $out, $err) unless $done;
	return ($? >> 8, $out, $err);
}

sub sql { return $node->safe_psql('postgres', shift) }

# Return the path of a program on PATH, or undef.
sub program
{
	my ($name) = @_;
	my ($path) = grep { -x $_ } map { "$_/$name" } split /:/, $ENV{PATH} // '';
	return $path;
}

# --- ids of every format made in SQL: kind, expression, the tool's options to read them ---

my @kinds = (
	[ locality_variable => 'locality_uuid(false)' ],
	[ locality_sequential => 'locality_uuid(true)' ],
	[ locality_make => q{locality_uuid_make(floor(random() * 4294967296)::bigint,
		floor(random() * 65536)::int, floor(random() * 268435456)::int,
		to_timestamp(floor(random() * 281474976710)) + floor(random() * 1000000) * interval '1 us',
		random() < 0.5)} ],
	[ hot_clock => 'hot_uuid(floor(random() * 4294967296)::bigint)' ],
	[ hot_at => q{hot_uuid(floor(random() * 4294967296)::bigint,
		now() - (1 + floor(random() * 315360000)) * interval '1 s')} ],
	[ hot_make => q{hot_uuid_make(floor(random() * 4294967296)::bigint,
		to_timestamp(-2208988800 + floor(random() * 9467280000)) + floor(random() * 1000000) * interval '1 us',
		substring(uuid_send(gen_random_uuid()) for 3), floor(random() * 65536)::int,
		floor(random() * 16777216)::int)} ],
	[ block_sequence => q{uuid_sequence_nextval('cli_seq', 100, 256)}, '--block-count', '256' ],
	[ block_time => 'uuid_time_nextval()', '--block-count', '65536', '--time-block', '60' ],
	[ block_time_ms => q{uuid_time_nextval_interval('100 ms', 16777216)},
		'--block-count', '16777216', '--time-block', '100ms' ],
	[ block_random => 'gen_random_uuid()', '--block-count', '4096', '--time-block', '250ms' ],
	[ any_random => 'md5(random()::text)::uuid' ],
	[ v7 => 'uuidv7()' ],
	[ v7_ordered => 'uuidv7_ordered()' ],
	[ v7_ordered_at => q{uuidv7_ordered(now() - floor(random() * 315360000000) * interval '1 ms')} ],
	[ v1 => q{encode(set_byte(set_byte(uuid_send(gen_random_uuid()), 6,
		(get_byte(uuid_send(gen_random_uuid()), 6) & 15) | 16), 8, 128 | (random() * 63)::int), 'hex')::uuid} ],
);

sql(q{CREATE SEQUENCE cli_seq; CREATE TABLE ids (kind text, n bigint, id uuid, PRIMARY KEY (kind, n));
	CREATE TABLE explained (kind text, n bigint, j jsonb, PRIMARY KEY (kind, n))});
for my $k (@kinds)
{
	my ($kind, $expr) = @$k;
	sql("SELECT setseed(0.2); INSERT INTO ids SELECT '$kind', g, $expr FROM generate_series(1, $n) g");
}

# Explain the ids of each kind with --json --all and load the tool's lines into table explained.
for my $k (@kinds)
{
	my ($kind, undef, @opts) = @$k;
	my ($ids, $json) = ("$dir/$kind.ids", "$dir/$kind.json");
	sql("COPY (SELECT id FROM ids WHERE kind = '$kind' ORDER BY n) TO '$ids'");
	my ($rc, undef, $err) = tool([ '--json', '--all', '--as-of', $as_of, @opts, '-i' ],
		stdin => $ids, stdout => $json);
	is($rc, 0, "$kind: the tool explained $n ids, exit 0") or diag $err;
	sql(qq{CREATE TEMP TABLE lines (n bigint GENERATED ALWAYS AS IDENTITY, line text);
		COPY lines (line) FROM '$json' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02');
		INSERT INTO explained SELECT '$kind', n, line::jsonb FROM lines});
}

# Count, over the ids of kind, the rows where each check fails; the format's object is f.
# Checks are SQL conditions on i.id (the id), e.j (the tool's line) and f; NULL counts as failed.
sub check_fields
{
	my ($kind, $format, $options, %checks) = @_;
	my @names = sort keys %checks;
	my $list = join(", ", map { "'$_=' || count(*) FILTER (WHERE NOT coalesce($checks{$_}, false))" } @names);
	my $got = sql(qq{SET timezone = 'UTC';
		SELECT concat_ws(' ', 'rows=' || count(*), $list)
		FROM ids i JOIN explained e USING (kind, n)
		CROSS JOIN LATERAL (SELECT jsonb_path_query_first(e.j, '\$.formats[*] ? (\@.format == "$format")') AS f) x
		WHERE kind = '$kind'});
	is($got, join(' ', "rows=$n", map { "$_=0" } @names),
		"$kind: the tool's $format fields equal the SQL extractors'$options");
	return;
}

my $iso_ms = q{'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'};
my $iso_s = q{'YYYY-MM-DD"T"HH24:MI:SS"Z"'};
my $iso_us = q{'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'};

for my $k (@kinds)
{
	my ($kind, undef, @opts) = @$k;

	# Every id: its digit, and the formats its fixed bits allow (the shard-key reading, by --all, last).
	check_fields($kind, 'hot', '',
		id => q{e.j->>'id' = i.id::text},
		version => q{e.j->>'version' = locality_uuid_version(i.id)},
		formats => q{jsonb_path_query_array(e.j, '$.formats[*].format') = to_jsonb(array_remove(ARRAY[
			CASE WHEN get_byte(uuid_send(i.id), 6) >> 4 = 11 THEN 'locality' END,
			CASE WHEN get_byte(uuid_send(i.id), 6) >> 4 = 4 AND get_byte(uuid_send(i.id), 8) >> 6 = 2 THEN 'block' END,
			CASE WHEN get_byte(uuid_send(i.id), 6) >> 4 = 7 AND get_byte(uuid_send(i.id), 8) >> 6 = 2 THEN 'v7' END,
			CASE WHEN get_byte(uuid_send(i.id), 6) >> 4 = 1 AND get_byte(uuid_send(i.id), 8) >> 6 = 2 THEN 'v1' END,
			CASE WHEN get_byte(uuid_send(i.id), 6) >> 4 = 6 AND get_byte(uuid_send(i.id), 8) >> 6 = 2 THEN 'v6' END,
			'hot'], NULL))},
		shard_key => q{(f->>'shard_key')::bigint = hot_uuid_shard_key(i.id)},
		time => qq{f->>'time' = to_char(hot_uuid_timestamp(i.id), $iso_s)},
		unix_seconds => q{(f->>'unix_seconds')::numeric = extract(epoch FROM hot_uuid_timestamp(i.id))},
		machine => q{f->>'machine' = encode(hot_uuid_machine(i.id), 'hex')},
		process => q{(f->>'process')::int = hot_uuid_process(i.id)},
		counter => q{(f->>'counter')::int = hot_uuid_counter(i.id)});

	if ($kind =~ /^locality/)
	{
		check_fields($kind, 'locality', '',
			time => qq{f->>'time' = to_char(locality_uuid_timestamp(i.id), $iso_ms)},
			unix_ms => q{(f->>'unix_ms')::numeric = extract(epoch FROM locality_uuid_timestamp(i.id)) * 1000},
			node => q{(f->>'node')::int = locality_uuid_node(i.id)},
			mac => q{f->>'mac' = locality_uuid_mac(i.id)},
			process => q{(f->>'process')::int = locality_uuid_pid(i.id)},
			counter_variable => q{(f->>'counter_variable')::bigint = locality_uuid_counter(i.id)},
			counter_sequential => q{(f->>'counter_sequential')::bigint = locality_uuid_counter(i.id, true)});
	}
	if ($kind =~ /^block/)
	{
		my %o = @opts;
		my $count = $o{'--block-count'};
		my %start;
		if (my $len = $o{'--time-block'})
		{
			my $interval = $len =~ /^\d+$/ ? $len : "'$len'::interval";
			my $start = "uuid_time_block_start(i.id, $interval, $count, '$as_of')";
			%start = (
				block_start => qq{f->>'block_start' = to_char($start, $iso_us)},
				block_start_unix_us => qq{(f->>'block_start_unix_us')::numeric = extract(epoch FROM $start) * 1000000});
		}
		check_fields($kind, 'block', " (count $count" . ($o{'--time-block'} ? ", blocks of $o{'--time-block'})" : ')'),
			block => qq{(f->>'block')::bigint = locality_uuid_block(i.id, $count)},
			block_count => qq{(f->>'block_count')::int = $count},
			%start);
	}
	if ($kind =~ /^v7/)
	{
		my $ts = v7_time_sql($node, 'i.id');
		check_fields($kind, 'v7', '',
			time => qq{f->>'time' = to_char($ts, $iso_ms)},
			unix_ms => qq{(f->>'unix_ms')::numeric = extract(epoch FROM $ts) * 1000},
			uuidv7_timestamp => q{(f->>'unix_ms')::numeric = extract(epoch FROM uuidv7_timestamp(i.id)) * 1000},
			version => q{(e.j->>'version')::smallint = uuid_extract_version(i.id)},
			ordered => ($kind eq 'v7_ordered_at'
				? q{f->>'ordered' = 'explicit'} : $kind eq 'v7_ordered' ? q{f->>'ordered' = 'clock'} : 'true'));
	}
	if ($kind eq 'v1')
	{
		check_fields($kind, 'v1', '',
			time => qq{f->>'time' = to_char(uuid_extract_timestamp(i.id), $iso_us)},
			unix_us => q{(f->>'unix_us')::numeric = extract(epoch FROM uuid_extract_timestamp(i.id)) * 1000000});
	}
}

# The tool's counter kinds agree with how hot_uuid made the ids.
is(sql(q{SELECT string_agg(kind || '=' || c, ' ' ORDER BY kind) FROM (
	SELECT kind, count(*) FILTER (WHERE e.j #>> '{formats,0,counter_kind}' = CASE kind WHEN 'hot_clock' THEN 'clock' ELSE 'explicit' END) AS c
	FROM explained e WHERE kind IN ('hot_clock', 'hot_at') GROUP BY kind) s}),
	"hot_at=$n hot_clock=$n", 'hot_uuid(k) ids read as clock ids, hot_uuid(k, at) ids as explicit-time ids');

# --- ids composed by the tool from given fields equal the SQL composers' ---

# Times written in three ways: ISO 8601 in UTC, with an offset of +05:30, and as @Unix seconds.
my $time_text = q{CASE g % 3
	WHEN 0 THEN to_char(ts, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
	WHEN 1 THEN to_char(ts AT TIME ZONE INTERVAL '+05:30', 'YYYY-MM-DD"T"HH24:MI:SS.US') || '+05:30'
	ELSE '@' || extract(epoch FROM ts) END};

my @compose = (
	[
		locality => [], q{floor(random() * 4294967296)::bigint AS counter, floor(random() * 65536)::int AS pid,
			floor(random() * 268435456)::int AS node,
			to_timestamp(floor(random() * 281474976710)) + floor(random() * 1000000) * interval '1 us' AS ts,
			random() < 0.5 AS seq},
		q{'--counter ' || counter || ' --process ' || pid || ' --node ' || node || ' --at ' || tt
			|| CASE WHEN seq THEN ' -s' ELSE '' END},
		'locality_uuid_make(counter, pid, node, ts, seq)'
	],
	[
		hot => [], q{floor(random() * 4294967296)::bigint AS shard,
			to_timestamp(floor(random() * 4294967296)) + floor(random() * 1000000) * interval '1 us' AS ts,
			substring(uuid_send(gen_random_uuid()) for 3) AS machine, floor(random() * 65536)::int AS process,
			floor(random() * 16777216)::int AS counter},
		q{'--hot ' || shard || ' --at ' || tt || ' --machine ' || encode(machine, 'hex') || ' --process ' || process
			|| ' --counter ' || counter},
		'hot_uuid_make(shard, ts, machine, process, counter)'
	],
	[
		hot_boundary => [], q{to_timestamp(floor(random() * 4294967296)) + floor(random() * 1000000) * interval '1 us' AS ts},
		q{'--hot 0 --at ' || tt}, 'hot_uuid_boundary(ts)'
	],
	[
		v7_lower => ['--v7'], q{to_timestamp(floor(random() * 281474976710)) + floor(random() * 1000000) * interval '1 us' AS ts},
		q{'--at ' || tt}, 'uuidv7_lower(ts)'
	],
	[
		v7_upper => ['--v7'], q{to_timestamp(floor(random() * 281474976710)) + floor(random() * 1000000) * interval '1 us' AS ts},
		q{'--upper --at ' || tt}, 'uuidv7_upper(ts)'
	]);

for my $c (@compose)
{
	my ($name, $opts, $fields, $line, $composer) = @$c;
	my ($lines, $made) = ("$dir/make_$name.lines", "$dir/make_$name.ids");
	sql(qq{SET timezone = 'UTC'; SELECT setseed(0.3);
		CREATE TABLE make_$name AS SELECT g, $fields FROM generate_series(1, $n) g;
		COPY (SELECT line FROM (SELECT g, $line AS line
			FROM (SELECT *, $time_text AS tt FROM make_$name) t) s ORDER BY g) TO '$lines'});
	my ($rc, undef, $err) = tool([ '--make', @$opts, '-' ], stdin => $lines, stdout => $made);
	is($rc, 0, "make $name: the tool composed $n ids, exit 0") or diag $err;
	is(sql(qq{SET timezone = 'UTC';
		CREATE TEMP TABLE made (g bigint GENERATED ALWAYS AS IDENTITY, id uuid);
		COPY made (id) FROM '$made';
		SELECT count(*) || ' ids, ' || count(*) FILTER (WHERE m.id IS DISTINCT FROM $composer) || ' differ'
		FROM make_$name JOIN made m USING (g)}),
		"$n ids, 0 differ", "make $name: every id equals $composer");
}

# Vectors of docs/format.md, composed on the command line.
for my $v (
	[ [qw(--make --counter 3488672514 --process 12618 --node 0xd537a50 --at 2012-10-15T18:58:18.450Z)],
		'20be0ffc-314a-bd53-7a50-013a65ca76d2' ],
	[ [qw(--make -s --counter 28857408 --process 12618 --node 0xd537a50 --at), '2012-10-15 18:58:18.45+00'],
		'01b85440-314a-bd53-7a50-013a65ca76d2' ],
	[ [qw(--make --hot 208 --at 2022-02-06 --machine 112233 --process 17493 --counter 658188)],
		'61ff0f80-2211-4433-550a-0b0cd0000000' ],
	[ [qw(--make --hot 0 --machine-name db-eu-1 --at @0)], '00000000-65e7-0001-0000-000000000000' ])
{
	my ($rc, $out, $err) = tool($v->[0]);
	is("$rc $out", "0 $v->[1]\n", "locality-uuid @{$v->[0]}");
}

# --- ids the tool makes, read back by the SQL extractors ---

# Run the tool with options, load its ids into table name, and return the Unix time before and after.
sub made_by_tool
{
	my ($name, @opts) = @_;
	my $file = "$dir/gen_$name.ids";
	my $before = sql('SELECT extract(epoch FROM clock_timestamp())');
	my ($rc, undef, $err) = tool([ '-n', 1000, @opts ], stdout => $file);
	is($rc, 0, "the tool made 1000 ids: @opts") or diag $err;
	my $after = sql('SELECT extract(epoch FROM clock_timestamp())');
	sql("CREATE TABLE gen_$name (g bigint GENERATED ALWAYS AS IDENTITY, id uuid); COPY gen_$name (id) FROM '$file'");
	return ($before, $after);
}

my ($t0, $t1) = made_by_tool('variable', qw(--node 12345 --process 4321));
is(sql(qq{SELECT count(DISTINCT id) || ' ' || bool_and(locality_uuid_node(id) = 12345 AND locality_uuid_pid(id) = 4321
		AND locality_uuid_timestamp(id) BETWEEN to_timestamp($t0) - interval '1 ms' AND to_timestamp($t1)
		AND locality_uuid_counter(id) = (locality_uuid_counter(prev) + 198491317) % 4294967296)
	FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM gen_variable) s WHERE prev IS NOT NULL}),
	'999 true', 'variable ids: distinct, node and process as given, time of the run, counter stepping by 198491317');

($t0, $t1) = made_by_tool('sequential', qw(-s --process 7));
is(sql(q{SELECT bool_and(locality_uuid_counter(id, true) = (first + g - 1) % 4294967296)
	FROM gen_sequential, (SELECT (get_byte(d, 0) + get_byte(d, 1) * 256 + get_byte(d, 2) * 65536
			+ get_byte(d, 3) * 16777216::bigint + 1) % 4294967296 AS first
		FROM (SELECT decode(md5(left(to_char(locality_uuid_timestamp(id) AT TIME ZONE 'UTC', 'YYYYMMDDHH24MI'), 11)), 'hex') AS d
			FROM gen_sequential WHERE g = 1) b) s}),
	't', 'sequential ids: the run starts at the seed of the bucket plus 1 and counts up by 1');

# Across a bucket boundary (a fake clock that advances 1 ms at every reading, from 00:09:59):
# continue goes on counting by 1 into the next bucket, bucket starts it at its own seed.
SKIP:
{
	skip 'libfaketime not found', 4 unless libfaketime();
	for my $rule (qw(continue bucket))
	{
		local $ENV{LD_PRELOAD} = libfaketime();
		local $ENV{FAKETIME} = '@2024-05-01 00:09:59 i0.001';
		local $ENV{TZ} = 'UTC';
		my ($rc, undef, $err) = tool([ '-n', 3000, '-s', '--sequential-seed', $rule ], stdout => "$dir/gen_seed_$rule.ids");
		is($rc, 0, "the tool made 3000 ids on a fake clock: --sequential-seed $rule") or diag $err;
		sql("CREATE TABLE gen_seed_$rule (g bigint GENERATED ALWAYS AS IDENTITY, id uuid); COPY gen_seed_$rule (id) FROM '$dir/gen_seed_$rule.ids'");
	}
	my $steps = q{SELECT count(DISTINCT date_bin('10 min', locality_uuid_timestamp(id), 'epoch')) || ' '
		|| count(*) FILTER (WHERE locality_uuid_counter(id, true) <> (locality_uuid_counter(prev, true) + 1) % 4294967296)
		FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM TABLE) s WHERE prev IS NOT NULL};
	is(sql($steps =~ s/TABLE/gen_seed_continue/r), '2 0', 'continue: two buckets, every counter the last + 1');
	is(sql($steps =~ s/TABLE/gen_seed_bucket/r), '2 1', 'bucket: two buckets, one counter not the last + 1 (the new seed)');
}

made_by_tool('default_identity');
is(sql(q{SELECT count(*) FILTER (WHERE locality_uuid_node(id) <> (SELECT node FROM locality_uuid_identity())) FROM gen_default_identity}),
	'0', 'without --node the node field is the one the extension reads from the MAC');

made_by_tool('hot', qw(--hot 4294967295 --machine-name db-eu-1 --process 65535));
is(sql(q{SELECT count(DISTINCT id) || ' ' || bool_and(hot_uuid_shard_key(id) = 4294967295
		AND hot_uuid_machine(id) = substring(decode(md5('db-eu-1'), 'hex') for 3) AND hot_uuid_process(id) = 65535
		AND hot_uuid_counter(id) < 8388608) || ' ' || bool_and(id > prev)
	FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM gen_hot) s WHERE prev IS NOT NULL}),
	'999 true true', 'shard-key ids: key, machine hash of the name and process as given, clock ids in increasing order');

made_by_tool('hot_default', qw(--hot 1));
is(sql(q{SELECT count(*) FILTER (WHERE hot_uuid_machine(id) <> (SELECT machine_hash FROM locality_uuid_identity())) FROM gen_hot_default}),
	'0', 'without --machine-name the machine hash is the one the extension makes from the host name');

made_by_tool('hot_at', qw(--hot 9 --at 2001-02-03T04:05:06.7Z));
is(sql(q{SELECT count(DISTINCT id) || ' ' || bool_and(hot_uuid_timestamp(id) = '2001-02-03 04:05:06+00' AND hot_uuid_counter(id) >= 8388608)
	FROM gen_hot_at}), '1000 true', 'shard-key ids at an explicit time: that second, explicit counters, distinct');

($t0, $t1) = made_by_tool('time_block', qw(--time-block 250ms --block-count 4096));
is(sql(qq{SELECT count(DISTINCT id) || ' ' || bool_and(uuid_time_block_start(id, '250 ms'::interval, 4096, to_timestamp($t1))
		BETWEEN to_timestamp($t0) - interval '15 ms' AND to_timestamp($t1)) FROM gen_time_block}),
	'1000 true', 'time-block ids: their block started during the run (or the 15 ms before)');

{
	($t0, $t1) = made_by_tool('v7_ordered', qw(--v7 --ordered));
	my $ts = v7_time_sql($node, 'id');
	is(sql(qq{SELECT count(*) FILTER (WHERE id <= prev) || ' ' || bool_and($ts
			BETWEEN to_timestamp($t0) - interval '1 ms' AND to_timestamp($t1))
		FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM gen_v7_ordered) s WHERE prev IS NOT NULL}),
		'0 true', 'ordered version 7 ids: strictly increasing, stamped with the time of the run');
	made_by_tool('v7_at', qw(--v7 --at 2001-02-03T04:05:06.789Z));
	is(sql(qq{SELECT count(DISTINCT id) || ' ' || bool_and($ts = '2001-02-03 04:05:06.789+00'
			AND get_byte(uuid_send(id), 8) & 32 = 32) FROM gen_v7_at}),
		'1000 true', 'version 7 ids at an explicit time: that millisecond, the explicit flag, distinct');
}

# --- which formats an id can be, without --all ---

{
	my ($rc, $out) = tool([ '--json', '--as-of', $as_of,
		sql(q{SELECT hot_uuid_make(1, '2024-06-01 11:00:00+00', '\x112233', 17029, 5)}),    # pid-like process 0x4285: version 4 and variant 10
		sql(q{SELECT hot_uuid_make(1, '2024-06-01 11:00:00+00', '\x112233', 12933, 5)}),    # 0x3285: version 3, in the window
		sql(q{SELECT hot_uuid_make(1, '2010-06-01 11:00:00+00', '\x112233', 12933, 5)}),    # version 3, before the window
		sql(q{SELECT hot_uuid_make(1, '1990-06-01 11:00:00+00', '\x112233', 1, 5)}),        # a backend slot: no version digit
		'6ba7b810-9dad-11d1-80b4-00c04fd430c8' ]);
	my @formats = map { join(',', /"format":"(\w+)"/g) || 'none' } split /\n/, $out;
	is("$rc @formats", '0 block,hot hot none hot v1', 'formats by fixed bits and the shard-key window');
}

# --- help, exit codes, malformed input ---

{
	my ($rc, $out, $err) = tool(['--help']);
	is($rc, 0, '--help exits 0');
	like($out, qr/^Usage: locality-uuid .*Exit status: 0 done; 1 .*2 bad options; 3 /s, '--help shows the usage and the exit codes');

	($rc, $out, $err) = tool([]);
	like("$rc $out", qr/^0 [0-9a-f]{8}-[0-9a-f]{4}-b[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}\n$/, 'no arguments: one locality uuid');

	($rc, $out, $err) = tool(['--version']);
	is($rc, 0, '--version exits 0');

	for my $bad ([qw(--frobnicate)], [qw(-n 0)], [qw(--hot -1)], [qw(--hot 1 --v7)], [qw(--node 268435456)],
		[qw(--time-block 1.5us)], [qw(--make --counter 1)], [qw(--json)], [qw(-s --hot 1)],
		[qw(--at 2024-02-30)], [qw(--hot 1 --at 2024-01-01T00:00:00.1234567Z)], [qw(--block-count 5)],
		[qw(-s --sequential-seed hash)], [qw(--hot 1 --sequential-seed bucket)],
		[ '--node', '1', '20be0ffc-314a-bd53-7a50-013a65ca76d2' ])
	{
		($rc, $out, $err) = tool($bad);
		is("$rc " . ($out eq '' ? 'no output' : 'output'), '2 no output', "@$bad: exit 2, nothing done");
		like($err, qr/^locality-uuid: /, "@$bad: says why on standard error");
	}

	my $input = "$dir/mixed.txt";
	PostgreSQL::Test::Utils::append_to_file($input,
		"20be0ffc-314a-bd53-7a50-013a65ca76d2\nnot-a-uuid\n\n  {61FF0F80-2211-4433-550A-0B0CD0000000}  \r\n"
		  . "20be0ffc314abd537a50013a65ca76d2x\n6ba7b810-9dad-11d1-80b4-00c04fd430c8\n");
	($rc, $out, $err) = tool([ '-j', '-' ], stdin => $input);
	is($rc, 1, 'malformed lines: exit 1');
	is(join(' ', map { /"id":"([^"]+)"/ } split /\n/, $out),
		'20be0ffc-314a-bd53-7a50-013a65ca76d2 61ff0f80-2211-4433-550a-0b0cd0000000 6ba7b810-9dad-11d1-80b4-00c04fd430c8',
		'malformed lines: the other lines explained, in order (spaces, braces, upper case and empty lines allowed)');
	is($err, qq{locality-uuid: line 2: not a uuid: "not-a-uuid"\nlocality-uuid: line 5: not a uuid: "20be0ffc314abd537a50013a65ca76d2x"\n},
		'malformed lines: each named on standard error with its line number');

	($rc, $out, $err) = tool([ '20be0ffc-314a-bd53-7a50-013a65ca76d2', 'nope' ]);
	like("$rc $out", qr/^1 20be0ffc-314a-bd53-7a50-013a65ca76d2  version b, variant ncs: no RFC 9562 kind\n  locality uuid \(version b\)\n    time        2012-10-15 18:58:18\.450 UTC\n/,
		'an argument that is not a uuid: exit 1, the other explained as aligned text');
	is($err, qq{locality-uuid: argument 2: not a uuid: "nope"\n}, 'the argument named on standard error');

	($rc, $out) = tool(['6ba7b810-9dad-11d1-80b4-00c04fd430c8']);
	is($rc, 0, 'an id that no format explains: exit 0');

	my $lines = "$dir/make_mixed.lines";
	PostgreSQL::Test::Utils::append_to_file($lines, "--hot 1 --at \@0\n--hot 1 --counter 16777216 --at \@0\n--hot 2 --at \@1\n--v4\n");
	($rc, $out, $err) = tool([ '--make', '-' ], stdin => $lines);
	is("$rc $out", "1 00000000-0000-0000-0000-000001000000\n00000001-0000-0000-0000-000002000000\n",
		'--make -: bad field lines exit 1, the others made');
	like($err, qr/^locality-uuid: line 2: the counter .*\nlocality-uuid: line 4: --v4 is not a field option/,
		'--make -: each bad line named on standard error');

	($rc) = tool([ '-n', '10' ], stdout => '/dev/full');
	is($rc, 3, 'an output that cannot be written: exit 3');
}

# --- keyed facades (--facade-key, --facade-key-file): the tool's and the extension's agree ---
{
	my $key = '8f1e6b0a3c5d7e9f00112233445566aa';
	my $keyfile = "$dir/facade.key";
	PostgreSQL::Test::Utils::append_to_file($keyfile, "$key\n");

	# Facades the tool makes of its version 7 ids: the extension maps each back to a version 7
	# id whose facade it is; clock, ordered and explicit-time ids.
	for my $made ([ '--v7' ], [ '--v7', '--ordered' ], [ '--v7', '--at', '2001-02-03T04:05:06.789Z' ])
	{
		my ($rc, $out, $err) = tool([ @$made, '-n', '1000', '--facade-key-file', $keyfile ]);
		is("$rc $err", '0 ', "@$made --facade-key-file: exit 0");
		my $array = '{' . join(',', split /\n/, $out) . '}';
		is(sql(qq{SELECT count(*), count(*) FILTER (WHERE uuid_extract_version(f) = 4),
			count(*) FILTER (WHERE uuid_extract_version(uuidv7_from_facade(f, '\\x$key')) = 7
			                 AND uuidv7_to_facade(uuidv7_from_facade(f, '\\x$key'), '\\x$key') = f)
			FROM unnest('$array'::uuid[]) f}), '1000|1000|1000',
			"@$made: 1000 facades, each of a version 7 id under the key (uuidv7_from_facade)");
	}
	my ($rc, $out) = tool([ '--v7', '--at', '2001-02-03T04:05:06.789Z', '--facade-key', $key ]);
	chomp $out;
	is(sql(qq{SELECT uuidv7_timestamp(uuidv7_from_facade('$out', '\\x$key'))}), '2001-02-03 04:05:06.789+00',
		'--facade-key HEX: the facade of an id of the time given');

	# Facades the extension makes, explained by the tool as the ids they stand for.
	my $pairs = sql(qq{SELECT id || ' ' || uuidv7_to_facade(id, '\\x$key')
		FROM (SELECT uuidv7() AS id FROM generate_series(1, 500)
		      UNION ALL SELECT uuidv7_ordered() FROM generate_series(1, 500)) s});
	my (@ids, @facades);
	for (split /\n/, $pairs) { my ($i, $f) = split / /; push @ids, $i; push @facades, $f; }
	my $input = "$dir/facades.txt";
	PostgreSQL::Test::Utils::append_to_file($input, join("\n", @facades) . "\n");
	($rc, $out) = tool([ '-j', '--facade-key-file', $keyfile, '-' ], stdin => $input);
	my @read = map { [ /"id":"([^"]+)","facade":"([^"]+)","version":"7"/ ] } split /\n/, $out;
	is($rc, 0, 'explaining facades with the key: exit 0');
	is(join(' ', map { $_->[0] // '-' } @read), join(' ', @ids),
		'each of 1000 facades of uuidv7() and uuidv7_ordered() explained as the version 7 id the extension made');
	is(join(' ', map { $_->[1] // '-' } @read), join(' ', @facades), 'each with the facade it was read from');
	($rc, $out) = tool([ '--facade-key', $key, $facades[0] ]);
	like($out, qr/^\Q$ids[0]\E  version 7, variant rfc9562: Unix time-based\n  the id of the facade \Q$facades[0]\E under the key given\n  version 7 uuid/,
		'as text: the id and its RFC 9562 kind, then the facade it was read from');
	($rc, $out) = tool([ '-j', $facades[0] ]);
	like($out, qr/^\{"id":"\Q$facades[0]\E","version":"4"/, 'without a key, a facade is a version 4 uuid');
	($rc, $out) = tool([ '-o', 'id,facade,version', '--facade-key', $key, $facades[0], $ids[0] ]);
	is("$rc\n$out", "0\n$ids[0]\t$facades[0]\t7\n$ids[0]\t\t7\n",
		'-o facade: the facade an id was read from, empty for an id given as itself');

	# Errors: exit 2, and no message shows the key or the file's text.
	my $secret = 'secret-not-a-key-' . $$;
	my $badfile = "$dir/bad.key";
	PostgreSQL::Test::Utils::append_to_file($badfile, "$secret\n");
	for my $bad ([ '--v7', '--facade-key', $secret ], [ '--v7', '--facade-key', substr($key, 1) ],
		[ '--v7', '--facade-key-file', $badfile ], [ '--v7', '--facade-key-file', "$dir/missing.key" ],
		[ '--hot', '1', '--facade-key', $key ], [ '--facade-key', $key ],
		[ '--make', '--v7', '--at', '@0', '--facade-key', $key ],
		[ '--v7', '--facade-key', $key, '--facade-key-file', $keyfile ])
	{
		my ($brc, $bout, $berr) = tool($bad);
		is("$brc " . ($bout eq '' ? 'no output' : 'output'), '2 no output', "@$bad: exit 2, nothing done");
		unlike($berr, qr/\Q$secret\E|\Q$key\E|\Q@{[substr($key, 1)]}\E/, "@$bad: the message shows no key");
	}
}

# --- pipelines: write errors, long lines, line ends, line buffering, -i with ids ---

# Return the ids of JSON Lines, one a line.
sub ids_of
{
	return join('', map { "$_\n" } shift =~ /"id":"([^"]+)"/g);
}

{
	my ($rc, $out, $err) = tool([ '-n', '1000000000' ], stdout => '/dev/full', timeout => 60);
	is("$rc $err", "3 locality-uuid: could not write the output: No space left on device\n",
		'-n 1000000000 > /dev/full: stops at the first failed write, exit 3, says why');

	my $errfile = "$dir/sigpipe.err";
	my $status = '';
	my $done = eval {
		IPC::Run::run([ 'bash', '-c', 'trap "" PIPE; "$1" -n 1000000000 2>"$2" | head -1 >/dev/null; echo "${PIPESTATUS[0]}"',
			'_', $cli, $errfile ], '<', '/dev/null', '>', \$status, IPC::Run::timeout(60));
		1;
	};
	is(($done ? $status : "timeout\n") . PostgreSQL::Test::Utils::slurp_file($errfile),
		"3\nlocality-uuid: could not write the output: Broken pipe\n",
		'SIGPIPE ignored, | head -1: stops at the first failed write, exit 3, says why');

	my $lines = "$dir/make_full.lines";
	PostgreSQL::Test::Utils::append_to_file($lines, "--hot 1 --at \@0\n--v4\n");
	($rc, $out, $err) = tool([ '--make', '-' ], stdin => $lines, stdout => '/dev/full');
	like("$rc $err", qr/^3 .*could not write the output: No space left on device\n$/s,
		'--make - > /dev/full: exit 3 and the ENOSPC, though a line was malformed');

	my $ids = "$dir/many.ids";
	PostgreSQL::Test::Utils::append_to_file($ids, "20be0ffc-314a-bd53-7a50-013a65ca76d2\n" x 20000);
	($rc, $out, $err) = tool([ '-j', '-' ], stdin => $ids, stdout => '/dev/full');
	is("$rc $err", "3 locality-uuid: could not write the output: No space left on device\n",
		'explaining > /dev/full: exit 3, said once');

	my $long = "$dir/long.txt";
	PostgreSQL::Test::Utils::append_to_file($long, "20be0ffc-314a-bd53-7a50-013a65ca76d2\n" . ('a' x 2_000_000)
		  . "\n6ba7b810-9dad-11d1-80b4-00c04fd430c8\n" . ('b' x 1_048_576) . "\n" . ('c' x 1_048_577)
		  . "\n61ff0f80-2211-4433-550a-0b0cd0000000");
	($rc, $out, $err) = tool([ '-j', '-' ], stdin => $long);
	is("$rc " . ids_of($out),
		"1 20be0ffc-314a-bd53-7a50-013a65ca76d2\n6ba7b810-9dad-11d1-80b4-00c04fd430c8\n61ff0f80-2211-4433-550a-0b0cd0000000\n",
		'lines over the limit: exit 1, the ids after them still read');
	like($err, qr/^locality-uuid: line 2: longer than 1048576 bytes\nlocality-uuid: line 4: not a uuid: "bbbb.*\.\.\."\nlocality-uuid: line 5: longer than 1048576 bytes\n$/,
		'a line of 1048576 bytes is read (and is no uuid), one of 1048577 is one malformed line');

	my $ends = "$dir/ends.txt";
	PostgreSQL::Test::Utils::append_to_file($ends, "\xef\xbb\xbf20be0ffc-314a-bd53-7a50-013a65ca76d2\r"
		  . "61ff0f80-2211-4433-550a-0b0cd0000000\r\n\r\n6ba7b810-9dad-11d1-80b4-00c04fd430c8\rnope\n");
	($rc, $out, $err) = tool([ '-j', '-' ], stdin => $ends);
	is("$rc " . ids_of($out) . $err, "1 20be0ffc-314a-bd53-7a50-013a65ca76d2\n61ff0f80-2211-4433-550a-0b0cd0000000\n"
		  . "6ba7b810-9dad-11d1-80b4-00c04fd430c8\nlocality-uuid: line 5: not a uuid: \"nope\"\n",
		'a byte-order mark on line 1, CR, CRLF and LF line ends: every id read, lines numbered as written');

	my $one = "$dir/one.ids";
	PostgreSQL::Test::Utils::append_to_file($one, "61ff0f80-2211-4433-550a-0b0cd0000000\n");
	($rc, $out) = tool([ '-i', '-j', '20be0ffc-314a-bd53-7a50-013a65ca76d2' ], stdin => $one);
	is("$rc " . ids_of($out), "0 20be0ffc-314a-bd53-7a50-013a65ca76d2\n61ff0f80-2211-4433-550a-0b0cd0000000\n",
		'-i with an id: the id, then standard input');

	# --line-buffered: each id's line comes out while standard input is still open.
	for my $args ([qw(--line-buffered -j -)], [qw(--line-buffered -n 3 --v4)])
	{
		my ($in, $got, $e) = ('', '', '');
		my $explain = grep { $_ eq '-' } @$args;
		my $h = IPC::Run::start([ $cli, @$args ], '<', \$in, '>', \$got, '2>', \$e, IPC::Run::timeout(30));
		$in = "20be0ffc-314a-bd53-7a50-013a65ca76d2\n" if $explain;
		my $ok = eval { $h->pump until $got =~ /\n/; 1 };
		is($ok ? 'a line' : "nothing ($e)", 'a line', "@$args: output before the input ends");
		eval { $h->finish } if $ok;
		$h->kill_kill unless $ok;
	}
  SKIP:
	{
		skip 'no script(1) to give the tool a terminal', 1 unless -x '/usr/bin/script';
		my ($in, $got) = ('', '');
		my $h = IPC::Run::start([ 'script', '-qfec', "'$cli' -o id,type -", '/dev/null' ],
			'<', \$in, '>', \$got, IPC::Run::timeout(30));
		$in = "20be0ffc-314a-bd53-7a50-013a65ca76d2\n";
		my $ok = eval { $h->pump until $got =~ /20be0ffc-314a-bd53-7a50-013a65ca76d2\tunknown/; 1 };
		ok($ok, 'on a terminal: output line by line by default');
		$h->kill_kill;
	}
}

# --- requests refused before any id is made; messages ---

{
	for my $bad ([qw(--hot 1 --at 2200-01-01)], [qw(--make --hot 1 --at 2200-01-01)],
		[qw(--hot 1 --at 1969-12-31T23:59:59Z)], [qw(--hot 1 --at 2020-01-01 -n 549755813889)],
		[qw(--v7 --at 2020-01-01 -n 2199023255553)], [qw(-o bogus 6ba7b810-9dad-11d1-80b4-00c04fd430c8)],
		[qw(-j -o id 6ba7b810-9dad-11d1-80b4-00c04fd430c8)], [qw(--v3 --name x)], [qw(--v5 --namespace @dns)],
		[qw(--v5 --namespace @dns --name x -n 2)], [qw(--name x)], [qw(--v1 --v6)], [qw(--namespace @nope --v3 --name x)])
	{
		my ($rc, $out, $err) = tool($bad, timeout => 60);
		is("$rc " . ($out eq '' ? 'no output' : 'output'), '2 no output', "@$bad: exit 2, nothing done");
		like($err, qr/^locality-uuid: /, "@$bad: says why on standard error");
	}
	my ($rc, $out, $err) = tool([ '--hot', '1', '--at', '2020-01-01', '-n', '8388609' ], stdout => '/dev/null');
	is("$rc $err", '0 ', '--hot --at -n 8388609 (more than 1.3 made of one second): made, exit 0');
	# -n at the limit (2^39 and 2^41 allocation numbers) passes the up-front check: the run
	# starts and stops only at the first write, which /dev/full refuses.
	for my $at_limit ([qw(--hot 1 -n 549755813888)], [qw(--v7 -n 2199023255552)])
	{
		($rc, $out, $err) = tool([ @$at_limit, '--at', '2020-01-01' ], stdout => '/dev/full', timeout => 60);
		like("$rc $err", qr/^3 locality-uuid: (?!-n)/, "@$at_limit --at: accepted up front, exit 3 at the failed write");
	}

	($rc, $out, $err) = tool([qw(-n x)]);
	is($err, qq{locality-uuid: -n: expected a number of ids, 1 or more, not "x"\nTry 'locality-uuid --help'.\n},
		'-n is called -n');
	($rc, $out, $err) = tool([ "caf\xc3\xa9\x7f\xff" ]);
	is($err, qq{locality-uuid: argument 1: not a uuid: "caf\\xc3\\xa9\\x7f\\xff"\n}, 'bytes outside printable ASCII escaped');
	($rc, $out) = tool([qw(--block-count 1 1c000000-0000-4000-8000-000000000000)]);
	like($out, qr/\n    block       28 \(the first 8 bits, for a block count of 1\)\n/, 'block count 1: the block is the first 8 bits');
	($rc, $out) = tool(['--help']);
	like($out, qr/at most 1048576 bytes; a longer\s+line is one malformed line/, '--help states the line limit');
}

# --- every id named by RFC 9562 first ---

{
	my @ids = (
		'00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
		'c232ab00-9414-11ec-b3c8-9f6bdeced846', '5df41881-3aed-3515-88a7-2f4a814cf09e',
		'919108f7-52d1-4320-9bac-f847db4148a8', '2ed6657d-e927-568b-95e1-2665a8aea6a2',
		'1ec9414c-232a-6b00-b3c8-9f6bdeced846', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
		'2489e9ad-2ee2-8e00-8ec9-32d5f69181c0', '20be0ffc-314a-bd53-7a50-013a65ca76d2',
		'000d0780-0000-0000-0000-000000000000');
	my ($rc, $out) = tool([ '-o', 'id,version,variant,type,time,unix_us,formats', '--as-of', $as_of, @ids ]);
	is("$rc\n$out", "0\n" . join('', map { join("\t", @$_) . "\n" } (
		[ $ids[0], 0, 'ncs', 'nil', '', '', '' ],
		[ $ids[1], 'f', 'future', 'max', '', '', '' ],
		[ $ids[2], 1, 'rfc9562', 'time', '2022-02-22T19:22:22.000000Z', '1645557742000000', 'v1' ],
		[ $ids[3], 3, 'rfc9562', 'md5', '', '', 'hot' ],
		[ $ids[4], 4, 'rfc9562', 'random', '', '', 'block' ],
		[ $ids[5], 5, 'rfc9562', 'sha1', '', '', '' ],
		[ $ids[6], 6, 'rfc9562', 'reordered-time', '2022-02-22T19:22:22.000000Z', '1645557742000000', 'v6' ],
		[ $ids[7], 7, 'rfc9562', 'unix-time', '2022-02-22T19:22:22.000Z', '1645557742000000', 'v7' ],
		[ $ids[8], 8, 'rfc9562', 'custom', '', '', '' ],
		[ $ids[9], 'b', 'ncs', 'unknown', '2012-10-15T18:58:18.450Z', '1350327498450000', 'locality' ],
		[ $ids[10], 0, 'ncs', 'unknown', '', '', 'hot' ])),
		"-o: RFC 9562's examples, nil, max and ours: version, variant, kind, time, the formats that fit");

	($rc, $out) = tool([ '--as-of', $as_of, @ids ]);
	my @heads = $out =~ /^([0-9a-f-]{36}  .*)$/mg;
	is(join("\n", @heads), join("\n",
		"$ids[0]  version 0, variant ncs: the nil uuid", "$ids[1]  version f, variant future: the max uuid",
		"$ids[2]  version 1, variant rfc9562: time-based", "$ids[3]  version 3, variant rfc9562: name-based, MD5",
		"$ids[4]  version 4, variant rfc9562: random", "$ids[5]  version 5, variant rfc9562: name-based, SHA-1",
		"$ids[6]  version 6, variant rfc9562: reordered time-based", "$ids[7]  version 7, variant rfc9562: Unix time-based",
		"$ids[8]  version 8, variant rfc9562: custom", "$ids[9]  version b, variant ncs: no RFC 9562 kind",
		"$ids[10]  version 0, variant ncs: no RFC 9562 kind"), 'text: the first line of each id names its version, variant and kind');
	unlike($out, qr/^\Q$ids[0]\E.*\n  shard-key/m, 'the nil uuid is no shard-key uuid');
	like($out, qr/^\Q$ids[6]\E.*\n  version 6 uuid \(RFC 9562\)\n    time        2022-02-22 19:22:22\.000000 UTC\n/m,
		'version 6: its time');
	like($out, qr/^\Q$ids[3]\E.*\n  shard-key uuid, if hot_uuid made it \(a guess/m, 'a shard-key reading is marked as a guess');

	# A locality id made by -s gives -o its time: the text's, within the run.
	my $before = int((clock_gettime(CLOCK_REALTIME) - 0.001) * 1e6);
	my (undef, $seq) = tool(['-s']);
	my $after = int((clock_gettime(CLOCK_REALTIME) + 0.001) * 1e6);
	chomp $seq;
	my (undef, $o) = tool([ '-o', 'id,time,unix_us,formats', $seq ]);
	my (undef, $text) = tool([$seq]);
	my ($text_time) = $text =~ /^    time        (\S+ \S+) UTC$/m;
	my ($o_id, $o_time, $o_us, $o_formats) = split /\t/, $o;
	$o_time =~ s/^(\S+)T(\S+)Z$/$1 $2/;
	is(join(' ', $o_id, $o_time, $o_us >= $before && $o_us <= $after ? 'in the run' : "$o_us outside $before..$after", $o_formats =~ /^locality\b/ ? 'locality' : $o_formats),
		"$seq $text_time in the run locality", '-o time of a locality id made by -s: its millisecond, as the text shows it');

	# A hot_uuid of process 0x7080 reads as version 7 of the year 5536 (as of 2024-06-01);
	# an id is not made after the time of asking, so -o gives no time (the shard-key time is a guess).
	my $hot7 = '6659bbc0-e765-7001-8000-00052a000000';
	($rc, $out) = tool([ '-o', 'version,time,unix_us,formats', '--as-of', $as_of, $hot7 ]);
	is("$rc $out", "0 7\t\t\tv7,hot\n", '-o time of a hot_uuid that reads as version 7 of 5536: none');
	($rc, $out) = tool([ '--as-of', $as_of, $hot7 ]);
	like($out, qr/^  version 7 uuid \(RFC 9562\)\n    time        5536-02-11 05:35:04\.037 UTC\n.*^  shard-key uuid.*\n    time        2024-05-31 12:00:00 UTC\n/ms,
		'its text still shows both readings: version 7 of 5536, shard-key id of 2024-05-31 12:00:00');
	(undef, $out) = tool([qw(--hot 7 --process 28800 -n 100)]);
	(undef, $out) = tool([ '-o', 'version,time,formats', split /\n/, $out ]);
	is($out, "7\t\tv7,hot\n" x 100, 'hot_uuid(7) ids of process 28800 made now: version 7 to the bits, no time');

	# -o's names are the JSON keys, with the same values.
	my ($jrc, $json) = tool([ '-j', '--as-of', $as_of, $ids[2] ]);
	my ($orc, $fields) = tool([ '-o', 'id,version,variant,type,time,unix_us', $ids[2] ]);
	my %j = $json =~ /"(id|version|variant|type|time|unix_us)":"?([^",]*)"?[,}]/g;
	is(join("\t", @j{qw(id version variant type time unix_us)}) . "\n", $fields, '-o fields equal the JSON keys of the same name');
}

# --- versions 1, 3, 5 and 6, against Python's uuid module (and util-linux uuidgen where installed) ---

{
	my @vectors = (
		[ [qw(--v3 --namespace @dns --name www.example.com)], '5df41881-3aed-3515-88a7-2f4a814cf09e' ],
		[ [qw(--v5 --namespace @dns --name www.example.com)], '2ed6657d-e927-568b-95e1-2665a8aea6a2' ],
		[ [qw(--v5 --namespace 6ba7b811-9dad-11d1-80b4-00c04fd430c8 --name), 'http://example.com/'],
			'0a300ee9-f9e4-5697-a51a-efc7fafaba67' ]);
	for my $v (@vectors)
	{
		my ($rc, $out) = tool($v->[0]);
		is("$rc $out", "0 $v->[1]\n", "locality-uuid @{$v->[0]}: RFC 9562's example");
	}

  SKIP:
	{
		my $python = program('python3');
		skip 'no python3', 8 unless $python;
		# 10,000 random names (spaces, UTF-8, empty, long), the ids Python makes of them in five namespaces.
		my $names = "$dir/names.txt";
		my $script = q{
import random, sys, uuid
random.seed(7)
alphabet = 'abcXYZ019 .-_/:@\t\u00e9\u4e2d\U0001f600'
names = [''.join(random.choice(alphabet) for _ in range(random.choice([0, 1, 5, 20, 300]))) for _ in range(10000)]
open(sys.argv[1], 'w', encoding='utf-8', newline='\n').write(''.join(n + '\n' for n in names))
custom = uuid.UUID('01234567-89ab-cdef-0123-456789abcdef')
for ns in (uuid.NAMESPACE_DNS, uuid.NAMESPACE_URL, uuid.NAMESPACE_OID, uuid.NAMESPACE_X500, custom):
    for f in (uuid.uuid3, uuid.uuid5):
        open(sys.argv[1] + '.%s.%s' % (f.__name__, ns), 'w').write(''.join(str(f(ns, n)) + '\n' for n in names))
};
		IPC::Run::run([ $python, '-c', $script, $names ]) or die "python3 failed";
		my %ns = ('@dns' => '6ba7b810-9dad-11d1-80b4-00c04fd430c8', '@url' => '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
			'@oid' => '6ba7b812-9dad-11d1-80b4-00c04fd430c8', '@x500' => '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
			'01234567-89ab-cdef-0123-456789abcdef' => '01234567-89ab-cdef-0123-456789abcdef');
		my @differ;
		for my $ns (sort keys %ns)
		{
			for my $v (3, 5)
			{
				my ($rc, $out) = tool([ "--v$v", '--namespace', $ns, '--name', '-' ], stdin => $names);
				my $want = PostgreSQL::Test::Utils::slurp_file("$names.uuid$v.$ns{$ns}");
				my @o = split /\n/, $out;
				my @w = split /\n/, $want;
				push @differ, "v$v $ns: exit $rc, " . scalar(@o) . ' ids, ' . scalar(grep { $o[$_] ne $w[$_] } 0 .. $#w) . ' differ'
				  unless $rc == 0 && $out eq $want;
			}
		}
		is(join('; ', @differ), '', '10,000 names in @dns, @url, @oid, @x500 and a uuid: every version 3 and 5 id equals Python\'s');

		# Versions 1 and 6 the tool makes: Python reads their fields; times of the run, strictly increasing.
		for my $v (1, 6)
		{
			my $file = "$dir/gen_v$v.ids";
			# The clock the tool reads (Perl's time lags it by up to a tick), 1 ms either side for
			# rounding; after also 1 ms more, as the ids may lead the clock by one 100 ns step each.
			my $before = sprintf('%.6f', clock_gettime(CLOCK_REALTIME) - 0.001);
			my ($rc) = tool([ "--v$v", '-n', '10000' ], stdout => $file);
			my $after = sprintf('%.6f', clock_gettime(CLOCK_REALTIME) + 0.002);
			my $check = q{
import sys, uuid
ids = [uuid.UUID(l) for l in open(sys.argv[1]).read().split()]
def ts(u):
    if u.version == 6:
        return ((u.int >> 96) << 28) | (((u.int >> 80) & 0xffff) << 12) | ((u.int >> 64) & 0xfff)
    return u.time
raw = [ts(u) for u in ids]
times = [(t - 0x01b21dd213814000) / 1e7 for t in raw]
print(len(ids), all(u.version == int(sys.argv[2]) and u.variant == uuid.RFC_4122 for u in ids),
      all(b > a for a, b in zip(raw, raw[1:])), all(float(sys.argv[3]) <= t <= float(sys.argv[4]) for t in times),
      len({(u.clock_seq, u.node) for u in ids}), all(u.node >> 40 & 1 for u in ids))
print('times', min(times), max(times), 'run', sys.argv[3], sys.argv[4], file=sys.stderr)
};
			my ($got, $span) = ('', '');
			IPC::Run::run([ $python, '-c', $check, $file, $v, $before, $after ], '>', \$got, '2>', \$span);
			is("$rc $got", "0 10000 True True True 1 True\n",
				"--v$v: 10,000 ids of version $v, times of the run strictly increasing, one clock sequence and node, multicast bit set")
			  or diag $span;
			if ($v == 1)
			{
				sql("CREATE TABLE gen_rfc_v1 (id uuid); COPY gen_rfc_v1 FROM '$file'");
				is(sql(qq{SELECT count(*) FILTER (WHERE uuid_extract_version(id) = 1
						AND uuid_extract_timestamp(id) BETWEEN to_timestamp($before) AND to_timestamp($after)) FROM gen_rfc_v1}),
					'10000', '--v1: PostgreSQL reads version 1 and the time of the run') if $node->pg_version >= 17;
			}
		}
	}

  SKIP:
	{
		my $uuidgen = program('uuidgen');
		skip 'no uuidgen (util-linux uuid-runtime)', 1 unless $uuidgen;
		my @differ;
		for my $i (1 .. 200)
		{
			my $name = "name-$i-" . ('x' x ($i % 70));
			for my $m ([ 3, '--md5' ], [ 5, '--sha1' ])
			{
				my ($theirs, $ours) = ('', '');
				IPC::Run::run([ $uuidgen, $m->[1], '--namespace', '@url', '--name', $name ], '>', \$theirs);
				(undef, $ours) = tool([ "--v$m->[0]", '--namespace', '@url', '--name', $name ]);
				push @differ, "$m->[1] $name" if $ours ne $theirs;
			}
		}
		is(join(', ', @differ), '', '200 names: version 3 and 5 ids equal util-linux uuidgen\'s');
	}
}

done_testing();
