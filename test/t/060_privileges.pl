# Privileges: a non-superuser with CREATE on the database can CREATE EXTENSION (trusted);
# ordinary users cannot change locality_uuid.node_id or the process field, by any path;
# the sequence generator refuses a sequence the caller may not use.
use strict;
use warnings FATAL => 'all';
use LocalityUuid;
use Test::More;

my $node = extension_node('privileges', extension => 0);
$node->safe_psql('postgres', 'CREATE DATABASE rel');
$node->safe_psql('postgres', q{CREATE ROLE alice LOGIN; CREATE ROLE bob LOGIN; CREATE ROLE carol LOGIN;
	GRANT CREATE ON DATABASE rel TO alice;});
my $superuser = $node->safe_psql('postgres', 'SELECT 10::regrole');

# 1. Trusted extension.
is(as($node, bob => rel => 'CREATE EXTENSION locality_uuid'), '|ERROR:  42501',
	'bob (no CREATE on the database) cannot create the extension');
is( as($node, alice => rel => q{CREATE EXTENSION locality_uuid;
		SELECT extowner::regrole FROM pg_extension WHERE extname = 'locality_uuid'}),
	'alice|',
	'alice (CREATE on the database, not superuser) creates the extension');
is(as($node, alice => rel => q{SELECT DISTINCT proowner::regrole FROM pg_proc WHERE proname LIKE 'locality_uuid%'}),
	"$superuser|", q{the extension's functions belong to the bootstrap superuser});
is(as($node, alice => rel => 'ALTER FUNCTION locality_uuid() PARALLEL UNSAFE'), '|ERROR:  42501',
	'alice cannot relabel a function of the extension');
is(as($node, bob => rel => 'SELECT locality_uuid_version(locality_uuid(true))'), 'b|', 'bob generates ids');

# 2. Settings reserved to superusers: every path an ordinary user has.
for my $user (qw(alice bob))
{
	for my $setting ([ 'locality_uuid.node_id', '7' ], [ 'locality_uuid.process_field', 'pid' ],
		[ 'locality_uuid.machine_name', 'spoof' ])
	{
		my ($name, $value) = @$setting;
		my $default = $node->safe_psql('postgres', "LOAD 'locality_uuid'; SHOW $name");
		is(as($node, $user => rel => "SELECT 1 FROM locality_uuid(); SET $name = $value;"), '1|ERROR:  42501',
			"$user: SET $name = $value refused");
		is(as($node, $user => rel => "SELECT 1 FROM locality_uuid(); SELECT set_config('$name', '$value', false);"),
			'1|ERROR:  42501', "$user: set_config('$name') refused");
		# Before the library is loaded in the session, SET only makes a placeholder; loading
		# the library must not let it through.
		is( as( $node, $user => rel => "SET $name = $value;
				SELECT locality_uuid_node(locality_uuid()) = 7 OR locality_uuid_pid(locality_uuid()) = pg_backend_pid() % 65536
				OR hot_uuid_machine(hot_uuid(1)) = substr(decode(md5('spoof'), 'hex'), 1, 3);
				SHOW $name;"),
			"f\n$default|WARNING:  42501",
			"$user: SET $name = $value before the library loads is dropped at load");
		is(as($node, $user => rel => "SELECT locality_uuid_version(locality_uuid()); SHOW $name;", options => "-c $name=$value"),
			"b\n$default|WARNING:  42501", "$user: PGOPTIONS -c $name=$value is dropped at load");
	}
	is(as($node, $user => rel => "ALTER ROLE $user SET locality_uuid.node_id = 7"), '|ERROR:  42501',
		"$user: ALTER ROLE $user SET locality_uuid.node_id refused");
	is(as($node, $user => rel => 'SET locality_uuid.counter_mode = sequential; SHOW locality_uuid.counter_mode'),
		'sequential|', "$user: SET locality_uuid.counter_mode allowed (a user setting)");
}

# 3. The sequence generator uses nextval's permission check: USAGE or UPDATE, not SELECT.
# (bob may look into alice's schema, so what refuses him is the sequence's own privilege).
is(as($node, alice => rel => 'CREATE SCHEMA alice; CREATE SEQUENCE alice.secret_seq; GRANT USAGE ON SCHEMA alice TO bob;'),
	'|', 'alice makes a schema and a sequence');
is(as($node, bob => rel => q{SELECT uuid_sequence_nextval('alice.secret_seq')}), '|ERROR:  42501',
	q{bob: uuid_sequence_nextval on alice's sequence refused});
as($node, alice => rel => 'GRANT SELECT ON alice.secret_seq TO bob');
is(as($node, bob => rel => q{SELECT uuid_sequence_nextval('alice.secret_seq')}), '|ERROR:  42501',
	'bob with SELECT only: still refused');
is(as($node, alice => rel => q{SELECT last_value || ' ' || is_called FROM alice.secret_seq}), '1 false|',
	'the refused calls took no value');
as($node, alice => rel => 'GRANT USAGE ON alice.secret_seq TO bob');
is(as($node, bob => rel => q{SELECT locality_uuid_version(uuid_sequence_nextval('alice.secret_seq'))}), '4|',
	'bob with USAGE: allowed');
is(as($node, bob => rel => 'SELECT locality_uuid_version(uuid_time_nextval())'), '4|', 'bob: uuid_time_nextval needs no privilege');

# A superuser may delegate: GRANT SET ON PARAMETER (PostgreSQL 15).
$node->safe_psql('postgres', 'GRANT SET ON PARAMETER locality_uuid.node_id TO carol');
is(as($node, carol => rel => 'SET locality_uuid.node_id = 4242; SELECT locality_uuid_node(locality_uuid())'), '4242|',
	'carol, granted SET on node_id, sets it and her ids carry it');
is(as($node, carol => rel => 'SELECT 1 FROM locality_uuid(); SET locality_uuid.process_field = pid'), '1|ERROR:  42501',
	'carol still cannot set the process field');

done_testing();
