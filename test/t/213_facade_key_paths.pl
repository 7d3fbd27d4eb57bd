# Each way of giving the facade key, and what it exposes, as docs/guarantees.md ("Keys") says:
# a SET statement's text in the log (log_statement = all) and, for members of pg_read_all_stats,
# in pg_stat_statements; ALTER ROLE ... SET to every role in pg_db_role_setting; a bound
# parameter in the log's "parameters:" line under log_statement = all (not with
# log_parameter_max_length = 0, nor with an error by default); a literal key on the STATEMENT
# line of an error under the default log_min_error_statement; a function's SET clause in
# pg_proc.proconfig and a view's literal key in pg_get_viewdef, to every role; and the advised
# paths: postgresql.conf (none of those), and a SECURITY DEFINER function reading a key that only
# its owner may read, loaded with the docs' own \copy line (the key in no statement, log or
# catalog). Also: an idle session's SET in pg_stat_activity for pg_read_all_stats members; a
# bound parameter under log_min_duration_statement = 0; ALTER SYSTEM, ALTER ROLE/DATABASE SET
# and CREATE FUNCTION ... SET under log_statement = ddl.
use strict;
use warnings FATAL => 'all';
use IPC::Run;
use Time::HiRes qw(usleep);
use LocalityUuid;
use PostgreSQL::Test::Utils;
use Test::More;

my %key = (conf => '8f1e6b0a3c5d7e9f00112233445566aa', table => 'a0b1c2d3e4f5061728394a5b6c7d8e9f', map { $_->[0] => $_->[1] x 16 }
	[ set => 'a1' ], [ role => 'b2' ], [ bound => 'c3' ], [ quiet => 'd4' ], [ bound_error => 'e5' ],
	[ literal => 'f6' ], [ literal_ok => '4a' ], [ system => '5b' ], [ index => '6c' ], [ function => '17' ], [ view => '28' ], [ activity => '7d' ],
	[ duration => '8e' ], [ ddl_system => '9f' ], [ ddl_role => '0a' ], [ ddl_database => '1b' ], [ ddl_function => '2c' ], [ ddl_not => '3d' ]);
my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
my $pss = -f "$pkglibdir/pg_stat_statements.so";
my $node = extension_node('facade_paths',
	conf => [ "shared_preload_libraries = 'locality_uuid" . ($pss ? ',pg_stat_statements' : '') . "'",
		"locality_uuid.facade_key = '$key{conf}'", 'log_statement = all' ]);
$node->safe_psql('postgres', q{CREATE ROLE app LOGIN; CREATE ROLE stats LOGIN IN ROLE pg_read_all_stats; CREATE ROLE settings LOGIN IN ROLE pg_read_all_settings;
	CREATE ROLE keeper LOGIN; GRANT CREATE ON SCHEMA public TO keeper});
$node->safe_psql('postgres', 'CREATE EXTENSION pg_stat_statements') if $pss;
my $id = '017f22e2-79b0-7cc3-98c4-dc0c0c07398f';
my $v4 = '017f22e2-79b0-4cc3-98c4-dc0c0c07398f';
# A facade computed by the superuser with nothing logged, to compare with.
my $facade = sub { $node->safe_psql('postgres', qq{SET log_statement = none; SELECT uuidv7_to_facade('$id', '\\x$_[0]')}) };
my $log = sub { slurp_file($node->logfile) };

# postgresql.conf: any role makes facades with the key, which no statement carries.
my ($out, $err) = psql_states($node, 'postgres', qq{SELECT uuidv7_to_facade('$id')}, user => 'app');
is($out, $facade->($key{conf}), 'the key of postgresql.conf serves every role');

# SET: the statement's text, key and all, in the log and in pg_stat_statements.
$node->safe_psql('postgres', qq{SET locality_uuid.facade_key = '$key{set}'; SELECT uuidv7_to_facade('$id')});
like($log->(), qr/LOG:  statement: SET locality_uuid.facade_key = '$key{set}'/, 'SET: log_statement = all logs the key');
SKIP:
{
	skip 'pg_stat_statements is not installed', 1 unless $pss;
	($out, $err) = psql_states($node, 'postgres',
		q{SELECT query FROM pg_stat_statements WHERE query LIKE 'SET locality_uuid.facade_key%'}, user => 'stats');
	# From PostgreSQL 18 pg_stat_statements replaces a SET statement's value by $1.
	is($out, $node->pg_version >= 18 ? 'SET locality_uuid.facade_key = $1' : "SET locality_uuid.facade_key = '$key{set}'",
		'SET: a member of pg_read_all_stats reads the key in pg_stat_statements (before 18; $1 from 18)');
}

# ALTER SYSTEM, as SET (reset without a reload, so the server keeps the key of postgresql.conf).
$node->safe_psql('postgres', qq{ALTER SYSTEM SET locality_uuid.facade_key = '$key{system}'; ALTER SYSTEM RESET locality_uuid.facade_key});
like($log->(), qr/LOG:  statement: ALTER SYSTEM SET locality_uuid.facade_key = '$key{system}'/, 'ALTER SYSTEM: log_statement = all logs the key');
SKIP:
{
	skip 'pg_stat_statements is not installed', 1 unless $pss;
	($out, $err) = psql_states($node, 'postgres',
		q{SELECT query FROM pg_stat_statements WHERE query LIKE 'ALTER SYSTEM SET locality_uuid.facade_key%'}, user => 'stats');
	is($out, $node->pg_version >= 18 ? 'ALTER SYSTEM SET locality_uuid.facade_key = $1' : "ALTER SYSTEM SET locality_uuid.facade_key = '$key{system}'",
		'ALTER SYSTEM: so does pg_stat_statements (before 18; $1 from 18)');
}
($out, $err) = psql_states($node, 'postgres', q{SELECT count(*) FROM pg_file_settings}, user => 'settings');
is($err, 'ERROR:  42501', 'pg_file_settings is for superusers, not for pg_read_all_settings');

# ALTER ROLE ... SET: every role reads pg_db_role_setting.
$node->safe_psql('postgres', qq{ALTER ROLE keeper SET locality_uuid.facade_key = '$key{role}'});
($out, $err) = psql_states($node, 'postgres', q{SELECT array_to_string(setconfig, ',') FROM pg_db_role_setting WHERE setrole = 'keeper'::regrole}, user => 'app');
is($out, "locality_uuid.facade_key=$key{role}", 'ALTER ROLE ... SET: any role reads the key in pg_db_role_setting');

# A bound parameter (pgbench sends its variables as parameters): logged with log_statement =
# all, not with log_parameter_max_length = 0; an error's log line has no parameters by default.
my $pgbench = sub {
	my ($sql, $k, $uuid) = @_;
	my $script = PostgreSQL::Test::Utils::tempdir() . '/bound.sql';
	open my $fh, '>', $script or die "$script: $!";
	print $fh $sql;
	close $fh;
	my ($o, $e) = ('', '');
	IPC::Run::run([ 'pgbench', '-n', '-t', '1', '-M', 'extended', '-f', $script, '-D', "key=\\x$k", '-D', 'id=' . ($uuid // $id),
		'-h', $node->host, '-p', $node->port, 'postgres' ], '>', \$o, '2>', \$e);
	diag("pgbench: $e") if $e ne '' && !defined $uuid;
	return $e;
};
$pgbench->("SELECT uuidv7_to_facade(:id::uuid, :key::bytea);\n", $key{bound});
# "Parameters:" from 17.
like($log->(), qr/DETAIL:  [Pp]arameters: \$1 = '$id', \$2 = '\\x$key{bound}'/, 'a bound parameter: log_statement = all logs it');
$pgbench->("SET log_parameter_max_length = 0;\nSELECT uuidv7_to_facade(:id::uuid, :key::bytea);\n", $key{quiet});
unlike($log->(), qr/$key{quiet}/, 'not with log_parameter_max_length = 0');
$pgbench->("SET log_statement = none;\nSELECT uuidv7_to_facade(:id::uuid, :key::bytea);\n", $key{bound_error}, $v4);
my $l = $log->();
like($l, qr/STATEMENT:  SELECT uuidv7_to_facade\(\$1::uuid, \$2::bytea\)/, 'a bound parameter\'s error is logged');
unlike($l, qr/$key{bound_error}/, 'without the parameters (log_parameter_max_length_on_error = 0)');

# log_min_duration_statement = 0 logs a bound parameter too, with log_statement = none.
$pgbench->("SET log_statement = none;\nSET log_min_duration_statement = 0;\nSELECT uuidv7_to_facade(:id::uuid, :key::bytea);\n", $key{duration});
like($log->(), qr/LOG:  duration: [^\n]*\n[^\n]*[Pp]arameters: \$1 = '$id', \$2 = '\\x$key{duration}'/,
	'a bound parameter: log_min_duration_statement = 0 logs it');

# log_statement = ddl logs ALTER SYSTEM, ALTER ROLE/DATABASE SET and CREATE FUNCTION ... SET (not a SELECT).
$node->safe_psql('postgres', qq{SET log_statement = ddl;
	SELECT uuidv7_to_facade('$id', '\\x$key{ddl_not}');
	ALTER SYSTEM SET locality_uuid.facade_key = '$key{ddl_system}';
	ALTER SYSTEM RESET locality_uuid.facade_key;
	ALTER ROLE keeper SET locality_uuid.facade_key = '$key{ddl_role}';
	ALTER DATABASE postgres SET locality_uuid.facade_key = '$key{ddl_database}';
	ALTER DATABASE postgres RESET locality_uuid.facade_key;
	CREATE FUNCTION ddl_facade(id uuid) RETURNS uuid LANGUAGE sql STABLE SET locality_uuid.facade_key = '$key{ddl_function}'
	RETURN uuidv7_to_facade(id)});
$l = $log->();
unlike($l, qr/$key{ddl_not}/, 'log_statement = ddl: a SELECT with a literal key is not logged');
like($l, qr/LOG:  statement: ALTER SYSTEM SET locality_uuid.facade_key = '$key{ddl_system}'/, 'log_statement = ddl logs ALTER SYSTEM SET\'s key');
like($l, qr/LOG:  statement: ALTER ROLE keeper SET locality_uuid.facade_key = '$key{ddl_role}'/, 'and ALTER ROLE SET\'s');
like($l, qr/LOG:  statement: ALTER DATABASE postgres SET locality_uuid.facade_key = '$key{ddl_database}'/, 'and ALTER DATABASE SET\'s');
like($l, qr/LOG:  statement: CREATE FUNCTION ddl_facade[^\n]*SET locality_uuid.facade_key = '$key{ddl_function}'/,
	'and CREATE FUNCTION ... SET\'s');

# An idle session's last statement, a SET of the key, in pg_stat_activity for pg_read_all_stats.
my $go_on = PostgreSQL::Test::Utils::tempdir() . '/go_on';
my $idle = start_psql($node, 'postgres', qq{SET locality_uuid.facade_key = '$key{activity}';
\\! while [ ! -e $go_on ]; do sleep 0.1; done
});
my $seen = '';
for (1 .. 100)
{
	($seen) = psql_states($node, 'postgres', qq{SELECT query FROM pg_stat_activity WHERE query LIKE 'SET locality_uuid.facade_key%'}, user => 'stats');
	last if $seen ne '';
	usleep(100_000);
}
PostgreSQL::Test::Utils::append_to_file($go_on, '');
ok(finish_psql($idle), 'a session sets the key and stays idle') or diag($idle->{err});
is($seen, "SET locality_uuid.facade_key = '$key{activity}';", 'a member of pg_read_all_stats reads its SET, key and all, in pg_stat_activity');

# A literal key: logged with the statement, but pg_stat_statements replaces it by $n.
$node->safe_psql('postgres', qq{SELECT uuidv7_to_facade('$id', '\\x$key{literal_ok}')});
like($log->(), qr/statement: SELECT uuidv7_to_facade\('$id', '\\x$key{literal_ok}'\)/, 'a literal key: log_statement = all logs it');
SKIP:
{
	skip 'pg_stat_statements is not installed', 2 unless $pss;
	($out, $err) = psql_states($node, 'postgres',
		q{SELECT query FROM pg_stat_statements WHERE query LIKE 'SELECT uuidv7_to_facade($1, $2)'}, user => 'stats');
	is($out, 'SELECT uuidv7_to_facade($1, $2)', 'pg_stat_statements keeps the query with $n');
	is($node->safe_psql('postgres', qq{SELECT count(*) FROM pg_stat_statements WHERE query LIKE '%$key{literal_ok}%'}), '0',
		'and without the key');
}

# A literal key: the STATEMENT line of any error, with log_statement off.
($out, $err) = psql_states($node, 'postgres', qq{SET log_statement = none; SELECT uuidv7_to_facade('$v4', '\\x$key{literal}')});
is($err, 'ERROR:  22023', 'an error in a statement with a literal key');
like($log->(), qr/STATEMENT:  SELECT uuidv7_to_facade\('$v4', '\\x$key{literal}'\)/,
	'a literal key: the error\'s STATEMENT line logs it (log_min_error_statement = error)');

# A function's SET clause and a view's literal key: every role reads them.
$node->safe_psql('postgres', qq{
	CREATE FUNCTION api_facade(id uuid) RETURNS uuid LANGUAGE sql STABLE SET locality_uuid.facade_key = '$key{function}'
	RETURN uuidv7_to_facade(id);
	CREATE VIEW api_view AS SELECT uuidv7_to_facade('$id', '\\x$key{view}') AS id;
	CREATE TABLE api_table (id uuid); CREATE INDEX api_index ON api_table (uuidv7_to_facade(id, '\\x$key{index}'));
	REVOKE ALL ON FUNCTION api_facade(uuid) FROM PUBLIC; REVOKE ALL ON api_view FROM PUBLIC});
($out, $err) = psql_states($node, 'postgres', q{SELECT array_to_string(proconfig, ',') FROM pg_proc WHERE proname = 'api_facade';
	SELECT pg_get_viewdef('api_view'); SELECT indexdef FROM pg_indexes WHERE indexname = 'api_index';
	SELECT pg_get_functiondef('api_facade'::regproc)}, user => 'app');
like($out, qr/^locality_uuid.facade_key=$key{function}\n/, 'a function\'s SET clause: any role reads the key in pg_proc.proconfig');
like($out, qr/'\\x$key{view}'::bytea/, 'a view\'s literal key: any role reads it with pg_get_viewdef');
like($out, qr/'\\x$key{index}'::bytea/, 'an index\'s literal key: any role reads it in pg_indexes');
like($out, qr/SET "locality_uuid.facade_key" TO '$key{function}'/, 'and the SET clause with pg_get_functiondef');

# The keyed form through a SECURITY DEFINER function of a role that alone reads the key, loaded
# with docs/guarantees.md's own \copy line from the file it describes (\x and 32 hexadecimal
# digits, first byte 0xa0): every role makes facades, no role reads the key, nothing logs it.
$node->safe_psql('postgres', q{
	SET ROLE keeper;
	CREATE TABLE facade_key (key bytea NOT NULL CHECK (octet_length(key) = 16));
	CREATE FUNCTION to_facade(id uuid) RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp
	BEGIN ATOMIC SELECT public.uuidv7_to_facade(id, k.key) FROM public.facade_key k; END;
	REVOKE ALL ON facade_key FROM PUBLIC;
	RESET ROLE});
my ($copy) = slurp_file('docs/guarantees.md') =~ /^ *-- (\\copy facade_key FROM 'key\.txt'(?: WITH \([^)]*\))?)/m;
ok(defined $copy, 'docs/guarantees.md has a \\copy line');
my $key_dir = PostgreSQL::Test::Utils::tempdir();
PostgreSQL::Test::Utils::append_to_file("$key_dir/key.txt", "\\x$key{table}\n");
my ($stdout, $stderr) = ('', '');
IPC::Run::run([ 'psql', '-X', '-d', $node->connstr('postgres') . ' user=keeper', '-c', $copy ],
	'>', \$stdout, '2>', \$stderr, init => sub { chdir $key_dir or die "$key_dir: $!" });
is($stderr, '', "the key is loaded with the docs' line: $copy");
($out, $err) = psql_states($node, 'postgres', qq{SELECT to_facade('$id'); SELECT key FROM facade_key;
	SELECT array_to_string(proconfig, ',') FROM pg_proc WHERE proname = 'to_facade'}, user => 'app');
is("$out|$err", $facade->($key{table}) . "\nsearch_path=pg_catalog, pg_temp|ERROR:  42501",
	'another role makes facades through the function with the table\'s key, and cannot read the key');
unlike($log->(), qr/$key{table}/, 'which the log does not hold');
SKIP:
{
	skip 'pg_stat_statements is not installed', 1 unless $pss;
	is($node->safe_psql('postgres', qq{SELECT count(*) FROM pg_stat_statements WHERE query LIKE '%$key{table}%'}), '0',
		'nor pg_stat_statements');
}
unlike($log->(), qr/$key{conf}/, 'nor the key of postgresql.conf');

$node->stop;
done_testing();
