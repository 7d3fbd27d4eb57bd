#!/usr/bin/env bash
# Privileges: a non-superuser with CREATE on the database can CREATE EXTENSION (trusted);
# ordinary users cannot change locality_uuid.node_id or the process field, by any path;
# the sequence generator refuses a sequence the caller may not use.
set -uo pipefail
. "$(dirname "$0")/../reliability-lib.sh"

PORT=55445
rel_start privileges $PORT
D=$CLUSTER_DIR

# as USER SQL...: run statements as a login role on database rel; prints results and, for
# errors and warnings, the severity and SQLSTATE only. Extra PGOPTIONS may be set by the caller.
as() {
	local user=$1
	shift
	local args=()
	local s
	for s in "$@"; do args+=(-c "$s"); done
	"$PGBIN/psql" -h "$D" -p $PORT -U "$user" -d rel -X -q -At -v VERBOSITY=sqlstate "${args[@]}" 2>&1
}

q "$D" $PORT "CREATE DATABASE rel" >/dev/null
q "$D" $PORT "CREATE ROLE alice LOGIN; CREATE ROLE bob LOGIN; CREATE ROLE carol LOGIN;
	GRANT CREATE ON DATABASE rel TO alice;" >/dev/null

# 1. Trusted extension.
is "bob (no CREATE on the database) cannot create the extension" \
	"$(as bob "CREATE EXTENSION locality_uuid")" "ERROR:  42501"
is "alice (CREATE on the database, not superuser) creates the extension" \
	"$(as alice "CREATE EXTENSION locality_uuid" "SELECT extowner::regrole FROM pg_extension WHERE extname = 'locality_uuid'")" "alice"
is "the extension's functions belong to the bootstrap superuser" \
	"$(as alice "SELECT DISTINCT proowner::regrole FROM pg_proc WHERE proname LIKE 'locality_uuid%'")" "postgres"
is "alice cannot relabel a function of the extension" \
	"$(as alice "ALTER FUNCTION locality_uuid() PARALLEL UNSAFE")" "ERROR:  42501"
is "bob generates ids" "$(as bob "SELECT locality_uuid_version(locality_uuid(true))")" "b"

# 2. Settings reserved to superusers: every path an ordinary user has.
for user in alice bob; do
	for setting in "locality_uuid.node_id = 7" "locality_uuid.process_field = pid" "locality_uuid.machine_name = spoof"; do
		name=${setting%% *}
		value=${setting##* }
		default=$(q "$D" $PORT "LOAD 'locality_uuid'; SHOW $name")
		is "$user: SET $setting refused" "$(as $user "SELECT 1 FROM locality_uuid()" "SET $setting")" "1
ERROR:  42501"
		is "$user: set_config('$name') refused" \
			"$(as $user "SELECT 1 FROM locality_uuid()" "SELECT set_config('$name', '$value', false)")" "1
ERROR:  42501"
		# Before the library is loaded in the session, SET only makes a placeholder; loading
		# the library must not let it through.
		is "$user: SET $setting before the library loads is dropped at load" \
			"$(as $user "SET $setting" "SELECT locality_uuid_node(locality_uuid()) = 7 OR locality_uuid_pid(locality_uuid()) = pg_backend_pid() % 65536
				OR hot_uuid_machine(hot_uuid(1)) = substr(decode(md5('spoof'), 'hex'), 1, 3)" "SHOW $name")" \
			"$(printf 'WARNING:  42501\nf\n%s' "$default")"
		is "$user: PGOPTIONS -c $name=$value is dropped at load" \
			"$(PGOPTIONS="-c $name=$value" as $user "SELECT locality_uuid_version(locality_uuid())" "SHOW $name")" \
			"$(printf 'WARNING:  42501\nb\n%s' "$default")"
	done
	is "$user: ALTER ROLE $user SET locality_uuid.node_id refused" \
		"$(as $user "ALTER ROLE $user SET locality_uuid.node_id = 7")" "ERROR:  42501"
	is "$user: SET locality_uuid.counter_mode allowed (a user setting)" \
		"$(as $user "SET locality_uuid.counter_mode = sequential" "SHOW locality_uuid.counter_mode")" "sequential"
done
# 3. The sequence generator uses nextval's permission check: USAGE or UPDATE, not SELECT.
# (bob may look into alice's schema, so what refuses him is the sequence's own privilege).
is "alice makes a schema and a sequence" \
	"$(as alice "CREATE SCHEMA alice" "CREATE SEQUENCE alice.secret_seq" "GRANT USAGE ON SCHEMA alice TO bob")" ""
is "bob: uuid_sequence_nextval on alice's sequence refused" \
	"$(as bob "SELECT uuid_sequence_nextval('alice.secret_seq')")" "ERROR:  42501"
as alice "GRANT SELECT ON alice.secret_seq TO bob" >/dev/null
is "bob with SELECT only: still refused" "$(as bob "SELECT uuid_sequence_nextval('alice.secret_seq')")" "ERROR:  42501"
is "the refused calls took no value" "$(as alice "SELECT last_value || ' ' || is_called FROM alice.secret_seq")" "1 false"
as alice "GRANT USAGE ON alice.secret_seq TO bob" >/dev/null
is "bob with USAGE: allowed" "$(as bob "SELECT locality_uuid_version(uuid_sequence_nextval('alice.secret_seq'))")" "4"
is "bob: uuid_time_nextval needs no privilege" "$(as bob "SELECT locality_uuid_version(uuid_time_nextval())")" "4"

# A superuser may delegate: GRANT SET ON PARAMETER (PostgreSQL 15).
q "$D" $PORT "GRANT SET ON PARAMETER locality_uuid.node_id TO carol" >/dev/null
is "carol, granted SET on node_id, sets it and her ids carry it" \
	"$(as carol "SET locality_uuid.node_id = 4242" "SELECT locality_uuid_node(locality_uuid())")" "4242"
is "carol still cannot set the process field" \
	"$(as carol "SELECT 1 FROM locality_uuid()" "SET locality_uuid.process_field = pid")" "1
ERROR:  42501"

rel_finish
