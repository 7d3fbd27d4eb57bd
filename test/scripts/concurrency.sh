#!/usr/bin/env bash
# Multi-backend uniqueness: concurrent sessions generate in both modes into one unique key.
# All sessions are live at once (barriers at start and end), so the process fields checked
# here belong to simultaneously live backends.
set -uo pipefail
cd "$(dirname "$0")/../.."
. test/cluster.sh

PORT=${CONCURRENCY_PORT:-55401}
SESSIONS=${SESSIONS:-10}
PER_MODE=${PER_MODE:-10000}
ROUNDS=${ROUNDS:-3}

passed=0
failed=0
check() {
	local name=$1 got=$2 want=$3
	if [ "$got" = "$want" ]; then
		passed=$((passed + 1))
		echo "ok - $name"
	else
		failed=$((failed + 1))
		echo "not ok - $name (got '$got', want '$want')"
	fi
}

cluster_start concurrency "$PORT" "max_connections = 40" || { echo "0 passed, 1 failed"; exit 1; }
DIR=$CLUSTER_DIR
trap 'cluster_stop "$DIR"' EXIT
sql() { cluster_psql "$DIR" "$PORT" -d postgres -At "$@"; }

sql -c "CREATE EXTENSION locality_uuid;
	CREATE TABLE ids (id uuid PRIMARY KEY, round int, session int, mode text);
	CREATE TABLE live (round int, session int, pid int, field int, PRIMARY KEY (round, session));
	CREATE TABLE done (round int, session int);"

# session ROUND S: register, wait for all, generate both modes, wait for all, leave.
session() {
	local r=$1 s=$2
	sql <<SQL
INSERT INTO live VALUES ($r, $s, pg_backend_pid(), locality_uuid_pid(locality_uuid()));
DO \$\$ BEGIN
	WHILE (SELECT count(*) FROM live WHERE round = $r) < $SESSIONS LOOP PERFORM pg_sleep(0.01); END LOOP;
END \$\$;
INSERT INTO ids SELECT locality_uuid(false), $r, $s, 'variable' FROM generate_series(1, $PER_MODE);
SELECT locality_uuid_use_sequential_ids();
INSERT INTO ids SELECT locality_uuid(), $r, $s, 'sequential' FROM generate_series(1, $PER_MODE);
INSERT INTO done VALUES ($r, $s);
DO \$\$ BEGIN
	WHILE (SELECT count(*) FROM done WHERE round = $r) < $SESSIONS LOOP PERFORM pg_sleep(0.01); END LOOP;
END \$\$;
SQL
}

# Each round uses new connections, so later rounds reuse the backend slots of earlier ones.
errors=0
for r in $(seq 1 "$ROUNDS"); do
	pids=()
	for s in $(seq 1 "$SESSIONS"); do
		session "$r" "$s" >/dev/null 2>"$DIR/session.$r.$s.err" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || errors=$((errors + 1)); done
done
check "sessions finished without error" "$errors" 0
cat "$DIR"/session.*.err | head -5

total=$((ROUNDS * SESSIONS * PER_MODE * 2))
check "row count exact" "$(sql -c 'SELECT count(*) FROM ids')" "$total"
check "all ids distinct" "$(sql -c 'SELECT count(DISTINCT id) FROM ids')" "$total"
check "every id is version b" "$(sql -c "SELECT count(*) FROM ids WHERE locality_uuid_version(id) <> 'b'")" 0
check "process fields distinct among live sessions of each round" \
	"$(sql -c 'SELECT count(*) FROM (SELECT round FROM live GROUP BY round HAVING count(DISTINCT field) = count(*)) s')" "$ROUNDS"
check "every id carries its session's process field" \
	"$(sql -c 'SELECT count(*) FROM ids JOIN live USING (round, session) WHERE locality_uuid_pid(id) <> field')" 0
check "backend slots were reused across rounds" \
	"$(sql -c 'SELECT count(DISTINCT field) < count(*) FROM live')" t
# With per-backend state, sequential sessions in one bucket start from the same seed, so their
# counters coincide: uniqueness comes from the process field, by construction, not from luck.
# With shared state (17+, or preloaded) they take turns in one run: no counter is shared.
shared=$(sql -c "SELECT count(*) FROM (SELECT round, locality_uuid_counter(id, true)
	FROM ids WHERE mode = 'sequential' GROUP BY 1, 2 HAVING count(DISTINCT session) > 1) s")
echo "# sequential counter values shared by several live sessions: $shared"
if [ "$(sql -c 'SELECT locality_uuid_state()')" = backend ]; then
	check "sequential sessions share counter values" "$([ "$shared" -gt 0 ] && echo yes)" yes
else
	check "sequential sessions take turns in one run: no counter value shared" "$shared" 0
fi
echo "# $ROUNDS rounds x $SESSIONS sessions x $PER_MODE ids per mode: $total ids, 0 duplicates allowed"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
