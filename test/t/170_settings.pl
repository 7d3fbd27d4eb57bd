# Settings per role, database and function (docs/guarantees.md, "Setting locality_uuid
# settings per role or database"): an ordinary user may store locality_uuid.counter_mode with
# ALTER ROLE, ALTER DATABASE or a function's SET clause only once the library is loaded in the
# session (or preloaded); a superuser may store any of them at any time; the stored values
# reach new sessions of the role. ALTER SYSTEM, before PostgreSQL 17, needs the library loaded
# in the session too.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use Test::More;

my $node = extension_node('settings', extension => 0);
$node->safe_psql('postgres', q{CREATE ROLE alice LOGIN; CREATE ROLE bob LOGIN; CREATE ROLE carol LOGIN;
	CREATE ROLE dave LOGIN; CREATE DATABASE adb OWNER alice;});
$node->safe_psql('adb', q{CREATE EXTENSION locality_uuid; GRANT CREATE ON SCHEMA public TO alice;});

# Loading the library in a session: any function of the extension does it.
my $load = 'SELECT 1 FROM locality_uuid();';
my $loaded = q{SELECT count(*) FROM pg_settings WHERE name = 'locality_uuid.counter_mode';};

is(as($node, alice => 'adb', $loaded), '0|', 'a new session has not loaded the library');

# 1. Before the library is loaded, an ordinary user's setting is an unknown placeholder.
is(as($node, alice => 'adb', 'ALTER ROLE alice SET locality_uuid.counter_mode = sequential'), '|ERROR:  42501',
	'alice, library not loaded: ALTER ROLE alice SET counter_mode refused');
is(as($node, alice => 'adb', 'ALTER DATABASE adb SET locality_uuid.counter_mode = sequential'), '|ERROR:  42501',
	'alice (owner of adb), library not loaded: ALTER DATABASE SET counter_mode refused');
is( as( $node, alice => 'adb', q{CREATE FUNCTION mode_in() RETURNS text LANGUAGE sql
		SET locality_uuid.counter_mode = sequential AS $$SELECT current_setting('locality_uuid.counter_mode')$$}),
	'|ERROR:  42501', 'alice, library not loaded: a function SET clause for counter_mode refused');
is(as($node, alice => 'adb', q{LOAD 'locality_uuid'}), '|ERROR:  42501', 'alice may not LOAD the library');

# 2. Once loaded in the session, counter_mode (a user setting) is accepted; the
# superuser-only settings are still refused.
is(as($node, alice => 'adb', "$load $loaded ALTER ROLE alice SET locality_uuid.counter_mode = sequential"),
	"1\n1|", 'alice, library loaded: ALTER ROLE alice SET counter_mode accepted');
is(as($node, alice => 'adb', "$load ALTER DATABASE adb SET locality_uuid.counter_mode = sequential"),
	'1|', 'alice, library loaded: ALTER DATABASE adb SET counter_mode accepted');
is( as( $node, alice => 'adb', qq{$load CREATE FUNCTION mode_in() RETURNS text LANGUAGE sql
		SET locality_uuid.counter_mode = variable AS \$\$SELECT current_setting('locality_uuid.counter_mode')\$\$}),
	'1|', 'alice, library loaded: a function SET clause for counter_mode accepted');
for my $setting ([ 'locality_uuid.node_id', '5' ], [ 'locality_uuid.process_field', 'pid' ],
	[ 'locality_uuid.machine_name', 'spoof' ])
{
	my ($name, $value) = @$setting;
	is(as($node, alice => 'adb', "$load ALTER ROLE alice SET $name = $value"), '1|ERROR:  42501',
		"alice, library loaded: ALTER ROLE alice SET $name still refused");
	is(as($node, alice => 'adb', "$load CREATE FUNCTION f() RETURNS int LANGUAGE sql SET $name = $value AS 'SELECT 1'"),
		'1|ERROR:  42501', "alice, library loaded: a function SET clause for $name still refused");
}

# The stored values reach new sessions: alice's own, and bob's in database adb.
is(as($node, alice => 'postgres', 'SHOW locality_uuid.counter_mode'), 'sequential|',
	q{a new session of alice (database postgres) has her role's counter_mode});
is(as($node, bob => 'adb', "$load SHOW locality_uuid.counter_mode"), "1\nsequential|",
	q{a new session of bob in adb has the database's counter_mode});
is(as($node, bob => 'adb', "$load SELECT mode_in(); SHOW locality_uuid.counter_mode"), "1\nvariable\nsequential|",
	q{the function's SET clause holds inside the function only});

# 3. A superuser may store any of them before the library is loaded in the session; the
# library checks them when it loads in the role's sessions.
is( $node->safe_psql(
		'adb', "$loaded ALTER ROLE bob SET locality_uuid.node_id = 77;
		ALTER ROLE bob SET locality_uuid.process_field = pid;
		ALTER ROLE bob IN DATABASE adb SET locality_uuid.machine_name = 'db-eu-1';"),
	'0', 'a superuser stores the superuser-only settings for bob before the library is loaded');
is( as( $node, bob => 'adb', q{SELECT locality_uuid_node(locality_uuid()),
		locality_uuid_pid(locality_uuid()) = pg_backend_pid() % 65536,
		hot_uuid_machine(hot_uuid(1)) = substr(decode(md5('db-eu-1'), 'hex'), 1, 3)}),
	'77|t|t|', q{bob's ids carry the node id, the pid and the machine hash stored for him});
is(as($node, bob => 'postgres', 'SHOW locality_uuid.node_id'), '77|', q{bob's node id holds in every database});
$node->safe_psql('postgres', 'ALTER ROLE bob RESET ALL; ALTER ROLE bob IN DATABASE adb RESET ALL');
is(as($node, undef, 'adb', "$loaded ALTER DATABASE adb SET locality_uuid.process_field = pid"), '0|',
	'a superuser stores process_field for database adb before the library is loaded');
is(as($node, bob => 'adb', 'SELECT locality_uuid_pid(locality_uuid()) = pg_backend_pid() % 65536'), 't|',
	q{bob's ids in adb carry the pid});
$node->safe_psql('postgres', 'ALTER DATABASE adb RESET ALL');
is(as($node, undef, 'adb', "$load ALTER ROLE dave SET locality_uuid.counter_mode = 'nonsense'"), '1|ERROR:  22023',
	'library loaded: a superuser gets 22023 for a bad value');

# Names and values stored before the library loads are not checked until it loads.
$node->safe_psql('postgres', q{ALTER ROLE dave SET locality_uuid.counter_mod = sequential;
	ALTER ROLE dave SET locality_uuid.counter_mode = 'nonsense';});
is(as($node, dave => 'adb', "$load SHOW locality_uuid.counter_mode"), "1\nvariable|WARNING:  22023\nWARNING:  42602",
	'a misspelt name and a bad value stored before load: warnings when the library loads, default kept');
is(as($node, undef, 'adb', "$load ALTER ROLE dave SET locality_uuid.counter_mod = sequential"),
	'1|ERROR:  42602', 'once loaded, the misspelt name is refused');
$node->safe_psql('postgres', 'ALTER ROLE dave RESET ALL');

# 4. Function SET clauses for a superuser-only setting apply with the caller's rights, unless
# the function is SECURITY DEFINER and owned by a superuser.
$node->safe_psql('adb', q{
	CREATE FUNCTION node_definer() RETURNS int LANGUAGE sql SECURITY DEFINER
		SET locality_uuid.node_id = 99 SET search_path = public, pg_temp
		AS 'SELECT locality_uuid_node(locality_uuid())';
	CREATE FUNCTION node_invoker() RETURNS int LANGUAGE sql SET locality_uuid.node_id = 99
		AS 'SELECT locality_uuid_node(locality_uuid())';});
is(as($node, alice => 'adb', 'SELECT node_definer()'), '99|', 'alice: a superuser-owned SECURITY DEFINER function sets node_id');
is(as($node, alice => 'adb', "$load SELECT node_invoker()"), '1|ERROR:  42501',
	'alice: an invoker function with SET node_id is refused once the library is loaded');
is(as($node, alice => 'adb', 'SELECT node_invoker() = 99'), 'f|WARNING:  42501',
	'alice: the same, library not loaded: the value is dropped with a warning when it loads');
is(as($node, undef, 'adb', 'SELECT node_invoker()'), '99|', 'a superuser calling the invoker function gets node_id 99');

# 5. GRANT SET ON PARAMETER lets a role store the setting before the library is loaded.
$node->safe_psql('postgres', 'GRANT SET ON PARAMETER locality_uuid.counter_mode, locality_uuid.node_id TO carol');
is( as( $node, carol => 'adb', "$loaded ALTER ROLE carol SET locality_uuid.counter_mode = sequential;
		ALTER ROLE carol SET locality_uuid.node_id = 4242;"),
	'0|', 'carol, granted SET ON PARAMETER, stores both before the library is loaded');
is(as($node, carol => 'adb', 'SELECT locality_uuid_node(locality_uuid()); SHOW locality_uuid.counter_mode'),
	"4242\nsequential|", q{a new session of carol has both});

# 6. ALTER SYSTEM: before PostgreSQL 17 it refuses a setting the session does not know
# (42704), so a superuser loads the library first; from 17 it stores it unchecked.
is( as($node, undef, 'postgres', "$loaded ALTER SYSTEM SET locality_uuid.machine_name = 'db-eu-1'"),
	$node->pg_version >= 17 ? '0|' : '0|ERROR:  42704',
	'superuser, library not loaded: ALTER SYSTEM SET machine_name ' . ($node->pg_version >= 17 ? 'stored' : 'refused'));
is(as($node, undef, 'postgres', q{LOAD 'locality_uuid'; ALTER SYSTEM SET locality_uuid.machine_name = 'db-eu-1'}),
	'|', 'superuser, after LOAD: ALTER SYSTEM SET machine_name stored');
$node->reload;
my $eu1 = q{SELECT hot_uuid_machine(hot_uuid(1)) = substr(decode(md5('db-eu-1'), 'hex'), 1, 3)};
$node->poll_query_until('adb', $eu1) or die 'machine_name not reloaded';
is(as($node, bob => 'adb', $eu1), 't|', q{a new session of bob has the machine hash of ALTER SYSTEM's name});
$node->safe_psql('postgres', q{LOAD 'locality_uuid'; ALTER SYSTEM RESET locality_uuid.machine_name});
$node->reload;

# 7. Preloading: the library is loaded in every session before its first statement.
$node->safe_psql('postgres', "ALTER SYSTEM SET session_preload_libraries = 'locality_uuid'");
$node->reload;
$node->poll_query_until('postgres', q{SELECT current_setting('session_preload_libraries') = 'locality_uuid'})
  or die 'session_preload_libraries not reloaded';
$node->safe_psql('postgres', 'ALTER ROLE alice RESET ALL');
is( as( $node, alice => 'adb', "$loaded ALTER ROLE alice SET locality_uuid.counter_mode = sequential;
		ALTER ROLE alice SET locality_uuid.node_id = 3;"),
	'1|ERROR:  42501',
	'session_preload_libraries: alice stores counter_mode at once; node_id still refused');
is(as($node, alice => 'postgres', 'SHOW locality_uuid.counter_mode'), 'sequential|', 'a new session of alice has it');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET session_preload_libraries; ALTER ROLE alice RESET ALL');
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'locality_uuid'");
$node->restart;
is( as( $node, alice => 'adb', "$loaded ALTER ROLE alice SET locality_uuid.counter_mode = sequential;
		ALTER ROLE alice SET locality_uuid.process_field = pid;"),
	'1|ERROR:  42501',
	'shared_preload_libraries: alice stores counter_mode at once; process_field still refused');
is(as($node, alice => 'postgres', 'SHOW locality_uuid.counter_mode'), 'sequential|', 'a new session of alice has it');

done_testing();
