# Drop-in for sequential_uuids 1.0.3: every call form of uuid_time_nextval and
# uuid_sequence_nextval that works there works here unchanged. As SQL text: untyped literals,
# NULL, named arguments, PREPARE without parameter types. Through libpq as drivers send them:
# pgbench -M prepared and -M extended, whose parameters have no declared type. Each call must
# succeed with the right result: NULL where an argument is NULL, else a version 4 id whose
# prefix is the block of the clock or of the sequence value. Errors keep their SQLSTATEs.
# With LOCALITY_UUID_VENDOR (or sequential_uuids installed), the same forms run against
# sequential_uuids 1.0.3 built from its checked source and must give the same verdicts.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = extension_node('dropin', conf => [ 'log_statement = none' ]);
my $work = $node->basedir;

# Call forms as SQL text: [name, query making one column u, expected]. Expected is
# [time => interval_length, interval_count], [seq => block_size, block_count] or ['null'].
# The q_* statements are prepared without parameter types by $SETUP.
my @SQL_FORMS = (
	[ time_defaults => 'SELECT uuid_time_nextval() AS u', [ time => 60, 65536 ] ],
	[ time_integer => 'SELECT uuid_time_nextval(60) AS u', [ time => 60, 65536 ] ],
	[ time_integers => 'SELECT uuid_time_nextval(1, 256) AS u', [ time => 1, 256 ] ],
	[ time_smallints => 'SELECT uuid_time_nextval(1::smallint, 256::smallint) AS u', [ time => 1, 256 ] ],
	[ time_untyped => q{SELECT uuid_time_nextval('60') AS u}, [ time => 60, 65536 ] ],
	[ time_untyped_two => q{SELECT uuid_time_nextval('1', '256') AS u}, [ time => 1, 256 ] ],
	[ time_untyped_count => q{SELECT uuid_time_nextval(60, '65536') AS u}, [ time => 60, 65536 ] ],
	[ time_named_length => 'SELECT uuid_time_nextval(interval_length => 60) AS u', [ time => 60, 65536 ] ],
	[ time_named_count => 'SELECT uuid_time_nextval(interval_count => 256) AS u', [ time => 60, 256 ] ],
	[
		time_named_both =>
		  q{SELECT uuid_time_nextval(interval_count => '256', interval_length => '1') AS u},
		[ time => 1, 256 ]
	],
	[ time_mixed => 'SELECT uuid_time_nextval(1, interval_count => 256) AS u', [ time => 1, 256 ] ],
	[ time_null => 'SELECT uuid_time_nextval(NULL) AS u', ['null'] ],
	[ time_null_two => 'SELECT uuid_time_nextval(NULL, NULL) AS u', ['null'] ],
	[ time_null_count => 'SELECT uuid_time_nextval(60, NULL) AS u', ['null'] ],
	[ time_named_null => 'SELECT uuid_time_nextval(interval_length => NULL) AS u', ['null'] ],
	[ time_named_null_count => 'SELECT uuid_time_nextval(interval_count => NULL) AS u', ['null'] ],
	[ time_prepared => q{EXECUTE q_time('1', '256')}, [ time => 1, 256 ] ],
	[ time_prepared_one => 'EXECUTE q_time_one(60)', [ time => 60, 65536 ] ],
	[ time_prepared_null => 'EXECUTE q_time_one(NULL)', ['null'] ],
	[ time_prepared_nulls => 'EXECUTE q_time(NULL, NULL)', ['null'] ],
	[ seq_untyped => q{SELECT uuid_sequence_nextval('dropin_seq') AS u}, [ seq => 65536, 65536 ] ],
	[ seq_regclass => q{SELECT uuid_sequence_nextval('dropin_seq'::regclass) AS u}, [ seq => 65536, 65536 ] ],
	[ seq_size => q{SELECT uuid_sequence_nextval('dropin_seq', 256) AS u}, [ seq => 256, 65536 ] ],
	[ seq_untyped_three => q{SELECT uuid_sequence_nextval('dropin_seq', '256', '256') AS u}, [ seq => 256, 256 ] ],
	[
		seq_named =>
		  q{SELECT uuid_sequence_nextval('dropin_seq', block_size => 256, block_count => 256) AS u},
		[ seq => 256, 256 ]
	],
	[ seq_named_count => q{SELECT uuid_sequence_nextval('dropin_seq', block_count => '256') AS u}, [ seq => 65536, 256 ] ],
	[ seq_null => 'SELECT uuid_sequence_nextval(NULL) AS u', ['null'] ],
	[ seq_null_size => q{SELECT uuid_sequence_nextval('dropin_seq', NULL) AS u}, ['null'] ],
	[ seq_named_null => q{SELECT uuid_sequence_nextval('dropin_seq', block_count => NULL) AS u}, ['null'] ],
	[ seq_prepared => q{EXECUTE q_seq('dropin_seq', '256', '256')}, [ seq => 256, 256 ] ],
	[ seq_prepared_null => q{EXECUTE q_seq('dropin_seq', NULL, 256)}, ['null'] ],
);

# Call forms with pgbench variables, sent as parameters of no declared type: [name, call, expected].
my @PARAM_FORMS = (
	[ time_param => 'uuid_time_nextval(:len)', [ time => 60, 65536 ] ],
	[ time_params => 'uuid_time_nextval(:one, :small)', [ time => 1, 256 ] ],
	[ time_param_count => 'uuid_time_nextval(60, :small)', [ time => 60, 256 ] ],
	[ time_named_param => 'uuid_time_nextval(interval_length => :one)', [ time => 1, 65536 ] ],
	[ time_named_params => 'uuid_time_nextval(interval_count => :small, interval_length => :one)', [ time => 1, 256 ] ],
	[ seq_param => 'uuid_sequence_nextval(:seq)', [ seq => 65536, 65536 ] ],
	[ seq_params => 'uuid_sequence_nextval(:seq, :small, :small)', [ seq => 256, 256 ] ],
	[ seq_named_param => 'uuid_sequence_nextval(:seq, block_count => :small)', [ seq => 65536, 256 ] ],
);

# Errors: the same SQLSTATE as sequential_uuids 1.0.3 gives.
my @ERROR_FORMS = (
	[ 'SELECT uuid_time_nextval(0)', '22023' ],
	[ 'SELECT uuid_time_nextval(60, -1)', '22023' ],
	[ q{SELECT uuid_time_nextval('1 s')}, '22P02' ],
	[ q{SELECT uuid_time_nextval('60'::text)}, '42883' ],
	[ q{SELECT uuid_sequence_nextval('dropin_seq', 0)}, '22023' ],
	[ q{SELECT uuid_sequence_nextval('dropin_seq', 1, 0)}, '22023' ],
	[ q{SELECT uuid_sequence_nextval('no_such_seq')}, '42P01' ],
);

# The results land in table got; both the SQL and the pgbench forms fill it.
my $SETUP = <<'SQL';
CREATE SEQUENCE dropin_seq START 1000000;
CREATE TABLE got (form text PRIMARY KEY, kind text, a bigint, b bigint, u text,
                  t0 timestamptz, t1 timestamptz DEFAULT clock_timestamp(), v bigint);
SQL
my $PREPARE = <<'SQL';
PREPARE q_time AS SELECT uuid_time_nextval($1, $2) AS u;
PREPARE q_time_one AS SELECT uuid_time_nextval($1) AS u;
PREPARE q_seq AS SELECT uuid_sequence_nextval($1, $2, $3) AS u;
SQL

# The verdict of each row of got, by SQL alone (it runs against sequential_uuids too): 'ok', or
# what is wrong. The prefix is the first bytes the count needs (1 to 4), version 4 and variant 10
# are set; a time prefix is the block of a second between t0 and t1, a sequence prefix the
# block of the value taken (nextval - 1).
my $VERDICT = <<'SQL';
SELECT form || ': ' || CASE
  WHEN u IS NULL AND kind = 'null' THEN 'ok'
  WHEN u IS NULL THEN 'NULL'
  WHEN kind = 'null' THEN 'not NULL: ' || u
  WHEN substr(u, 15, 1) <> '4' OR substr(u, 20, 1) NOT IN ('8', '9', 'a', 'b') THEN 'not version 4: ' || u
  WHEN kind = 'time' AND ((p - floor(extract(epoch FROM t0) / a)::bigint % b) % b + b) % b
       <= floor(extract(epoch FROM t1) / a)::bigint - floor(extract(epoch FROM t0) / a)::bigint THEN 'ok'
  WHEN kind = 'seq' AND p = (v - 1) / a % b THEN 'ok'
  ELSE 'prefix ' || p || ' of ' || u
END
FROM (SELECT *, ('x' || lpad(substr(replace(u, '-', ''), 1,
                  CASE WHEN b <= 256 THEN 2 WHEN b <= 65536 THEN 4 WHEN b <= 16777216 THEN 6 ELSE 8 END),
                  16, '0'))::bit(64)::bigint AS p
      FROM got) s
ORDER BY form
SQL

# Run every form against database $db (the generators there) and return the verdicts, one line
# a form, and the SQLSTATEs of the error forms.
sub run_forms
{
	my ($db) = @_;
	$node->safe_psql($db, $SETUP);

	# SQL text, in one session: the query's result kept in a table, its clock read around it.
	my $sql = $PREPARE;
	for my $f (@SQL_FORMS)
	{
		my ($name, $query, $want) = @$f;
		my ($kind, $a, $b) = @$want;
		$sql .= "INSERT INTO got (form, kind, a, b, t0) VALUES ('$name', '$kind', "
		  . ($a // 'NULL') . ', ' . ($b // 'NULL') . ", clock_timestamp());\n"
		  . "CREATE TEMP TABLE r AS $query;\n"
		  . "UPDATE got SET u = (SELECT u::text FROM r), t1 = clock_timestamp()"
		  . ($kind eq 'seq' ? ", v = currval('dropin_seq')" : '')
		  . " WHERE form = '$name';\nDROP TABLE r;\n";
	}
	my ($out, $states) = psql_states($node, $db, $sql);
	is($states, '', "$db: every call form as SQL text runs without an error");

	# Through pgbench: one transaction a script and a protocol mode.
	for my $mode (qw(prepared extended))
	{
		for my $f (@PARAM_FORMS)
		{
			my ($name, $call, $want) = @$f;
			my ($kind, $a, $b) = @$want;
			my $form = "${name}_$mode";
			my $file = "$work/$db-$form.pgbench";
			unlink $file;
			append_to_file($file, <<"SCRIPT");
\\set len 60
\\set one 1
\\set small 256
\\set a $a
\\set b $b
SELECT clock_timestamp() AS t0 \\gset
SELECT $call AS u \\gset
SELECT @{[ $kind eq 'seq' ? q{currval('dropin_seq')} : '0' ]} AS v \\gset
INSERT INTO got (form, kind, a, b, u, t0, v) VALUES (:form, :kind, :a, :b, :u, :t0, :v);
SCRIPT
			my ($pout, $perr);
			my $ran = IPC::Run::run(
				[
					$node->installed_command('pgbench'), '-h', $node->host, '-p', $node->port, '-n',
					'-t', 1, '-M', $mode, '-D', "form=$form", '-D', "kind=$kind", '-D', 'seq=dropin_seq',
					'-f', $file, $db
				],
				'>', \$pout, '2>', \$perr);
			my ($done) = $pout =~ /^number of transactions actually processed: (\d+)/m;
			ok($ran && ($done // 0) == 1, "$db: pgbench -M $mode: SELECT $call")
			  or diag "$pout\n$perr";
		}
	}

	my @errors;
	for my $e (@ERROR_FORMS)
	{
		my (undef, $st) = psql_states($node, $db, $e->[0]);
		push @errors, "$e->[0]: " . ($st =~ s/^ERROR:\s+//r);
	}
	return ($node->safe_psql($db, $VERDICT), join("\n", @errors));
}

my $forms = @SQL_FORMS + 2 * @PARAM_FORMS;
my $all_ok = join("\n", sort map { "$_: ok" } (map { $_->[0] } @SQL_FORMS),
	map { my $n = $_->[0]; map { "${n}_$_" } qw(prepared extended) } @PARAM_FORMS);
my $want_errors = join("\n", map { "$_->[0]: $_->[1]" } @ERROR_FORMS);

my ($verdicts, $errors) = run_forms('postgres');
is($verdicts, $all_ok, "locality_uuid: all $forms call forms give the result sequential_uuids 1.0.3 gives");
is($errors, $want_errors, 'locality_uuid: the error forms keep their SQLSTATEs');
is( $node->safe_psql(
		'postgres', q{SELECT string_agg(p.oid::regprocedure::text, ', ' ORDER BY 1) FROM pg_proc p
		WHERE p.proname IN ('uuid_time_nextval', 'uuid_sequence_nextval')}),
	'uuid_sequence_nextval(regclass,integer,integer), uuid_time_nextval(integer,integer)',
	'one function under each name of sequential_uuids 1.0.3, with its argument types');

# The same against sequential_uuids 1.0.3: installed, or built from the checked vendor source
# and its install script run with the library's path (no install into the server needed).
my $sharedir = $node->config_data('--sharedir');
SKIP:
{
	my $how;
	$node->safe_psql('postgres', 'CREATE DATABASE su');
	if (-f "$sharedir/extension/sequential_uuids.control")
	{
		$node->safe_psql('su', q{CREATE EXTENSION sequential_uuids VERSION '1.0.3'});
		$how = 'installed';
	}
	else
	{
		my ($src, $why) = vendor_source('sequential_uuids-1.0.3.tar.gz');
		skip "sequential_uuids 1.0.3 is not installed and cannot be built: $why", 3 + 2 * @PARAM_FORMS
		  unless $src;
		my $pg_config = $ENV{PG_CONFIG} // $node->config_data('--bindir') . '/pg_config';
		my ($mout, $merr);
		IPC::Run::run([ 'make', '-C', $src, "PG_CONFIG=$pg_config" ], '>', \$mout, '2>', \$merr)
		  or die "building sequential_uuids failed:\n$mout\n$merr";
		my $script = slurp_file("$src/sequential_uuids--1.0.1.sql");
		$script =~ s/^\\echo.*$//mg;
		$script =~ s/MODULE_PATHNAME/$src\/sequential_uuids.so/g;
		$node->safe_psql('su', $script);
		$how = 'built from the vendor source';
	}
	note "sequential_uuids 1.0.3: $how";
	my ($su_verdicts, $su_errors) = run_forms('su');
	is($su_verdicts, $all_ok, "sequential_uuids 1.0.3 ($how): the same $forms call forms give the same results");
	is($su_errors, $want_errors, 'sequential_uuids 1.0.3: the same SQLSTATEs');
}

done_testing();
