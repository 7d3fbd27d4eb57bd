#!/usr/bin/env bash
# Restarts and preload: with the library in shared_preload_libraries, every generator keeps
# making distinct ids, backends never share seeds, and committed ids and sequence state
# survive a clean restart, a crash restart (pg_ctl stop -m immediate) and a backend killed
# with SIGKILL (the postmaster reinitialises and forks everything again).
set -uo pipefail
. "$(dirname "$0")/../reliability-lib.sh"

PORT=55446
IDS=2000        # ids per generator per phase
SESSIONS=20     # fresh sessions per phase whose first ids are compared

rel_start restarts $PORT "shared_preload_libraries = 'locality_uuid'" "restart_after_crash = on"
D=$CLUSTER_DIR
qq() { q "$D" $PORT "$@"; }
pg_ctl() { runuser -u postgres -- "$PGBIN/pg_ctl" -D "$D/data" -l "$D/server.log" -w -t 60 "$@" >/dev/null; }

is "preloaded: settings exist before CREATE EXTENSION" "$(qq "SHOW locality_uuid.node_id")" "-1"
qq "CREATE EXTENSION locality_uuid; $GENERATOR_SETUP
	CREATE TABLE ids (id uuid PRIMARY KEY, gen text NOT NULL, phase text NOT NULL);
	CREATE TABLE firsts (phase text, session int, gen text, id uuid, counter bigint);" >/dev/null

# phase NAME: insert IDS ids of every generator, then take the first ids of SESSIONS fresh
# sessions; check uniqueness so far and that no two sessions started from the same seed.
phase() {
	local name=$1 g n e sql="" s
	for g in "${GENERATORS[@]}"; do
		n=$(gen_name "$g")
		e=$(gen_expr "$g")
		sql="$sql INSERT INTO ids SELECT $e, '$n', '$name' FROM generate_series(1, $IDS);"
	done
	qq "$sql" >/dev/null
	check "$name: ${#GENERATORS[@]} generators x $IDS ids inserted under a unique key" [ $? -eq 0 ]
	for s in $(seq 1 $SESSIONS); do
		sql=""
		for g in "${GENERATORS[@]}"; do
			sql="$sql INSERT INTO firsts SELECT '$name', $s, '$(gen_name "$g")', u, locality_uuid_counter(u)
				FROM (SELECT $(gen_expr "$g") AS u) x;"
		done
		qq "$sql" >/dev/null || not_ok "$name: session $s"
	done
	is "$name: first ids of $SESSIONS fresh sessions all distinct, per generator" \
		"$(qq "SELECT count(*) FILTER (WHERE d <> $SESSIONS) FROM
			(SELECT gen, count(DISTINCT id) AS d FROM firsts WHERE phase = '$name' GROUP BY gen) s")" 0
	# Variable mode: the first counter is the session's random seed plus one step.
	is "$name: variable-mode seeds of $SESSIONS sessions all distinct, none seen in an earlier phase" \
		"$(qq "SELECT count(DISTINCT counter) || ' ' || count(*) FILTER (WHERE counter IN
			(SELECT counter FROM firsts WHERE gen = 'locality_variable' AND phase <> '$name'))
			FROM firsts WHERE gen = 'locality_variable' AND phase = '$name'")" "$SESSIONS 0"
	# Shard-key ids: the counter starts at random below 500000 in each session.
	is "$name: shard-key counter starts of $SESSIONS sessions distinct (one repeat tolerated, p ~ 4e-4)" \
		"$(qq "SELECT count(DISTINCT hot_uuid_counter(id)) >= $SESSIONS - 1 FROM firsts WHERE gen = 'hot_keys' AND phase = '$name'")" t
	is "$name: all ids so far distinct, firsts included" \
		"$(qq "SELECT count(*) - count(DISTINCT id) FROM (SELECT id FROM ids UNION ALL SELECT id FROM firsts) s")" 0
}

# survived: rows of earlier phases are all there.
survived() {
	is "$1: every committed id survived" "$(qq "SELECT count(*) FROM ids")" "$2"
}

phase start
rows=$(qq "SELECT count(*) FROM ids")
seq=$(qq "SELECT last_value FROM rel_shared_seq")

pg_ctl restart -m fast
check "clean restart (pg_ctl restart -m fast)" [ $? -eq 0 ]
survived "clean restart" "$rows"
is "clean restart: sequence state exact" "$(qq "SELECT last_value FROM rel_shared_seq")" "$seq"
phase restart
rows=$(qq "SELECT count(*) FROM ids")
seq=$(qq "SELECT last_value FROM rel_shared_seq")

pg_ctl stop -m immediate && pg_ctl start
check "crash restart (pg_ctl stop -m immediate, start)" [ $? -eq 0 ]
survived "crash restart" "$rows"
check "crash restart: sequence does not go back" [ "$(qq "SELECT last_value FROM rel_shared_seq")" -ge "$seq" ]
phase crash
rows=$(qq "SELECT count(*) FROM ids")

# A backend killed with SIGKILL: the postmaster ends every backend and reinitialises.
cluster_psql "$D" $PORT -c "SET application_name = 'rel_victim'" -c "SELECT pg_sleep(60)" >/dev/null 2>&1 &
bg=$!
victim=""
for _ in $(seq 1 50); do
	victim=$(qq "SELECT pid FROM pg_stat_activity WHERE application_name = 'rel_victim'")
	[ -n "$victim" ] && break
	sleep 0.1
done
if [ -n "$victim" ] && kill -KILL "$victim"; then
	wait $bg
	up=""
	for _ in $(seq 1 100); do
		sleep 0.2
		up=$(qq "SELECT 1" 2>/dev/null) && [ "$up" == 1 ] && break
	done
	check "backend $victim killed with SIGKILL: the cluster reinitialises and answers" [ "$up" == 1 ]
	check "server log shows the crash cycle" grep -q 'all server processes terminated; reinitializing' "$D/server.log"
	survived "backend kill" "$rows"
	phase backend_kill
else
	not_ok "find the backend to kill"
	kill "$bg" 2>/dev/null
fi

echo "# ids kept across phases: $(qq "SELECT count(*) FROM ids") in ids, $(qq "SELECT count(*) FROM firsts") first ids of fresh sessions"
rel_finish
