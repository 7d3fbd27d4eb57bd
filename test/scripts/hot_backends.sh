#!/usr/bin/env bash
# hot_uuid across backends: host-name machine hash, concurrent backends never collide and each keeps order.
# Starts its own cluster (port HOT_PORT, default 55423); ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. test/cluster.sh
PORT=${HOT_PORT:-55423}
passed=0
failed=0

# check NAME GOT WANT: one TAP line.
check() {
	if [ "$2" = "$3" ]; then
		passed=$((passed + 1))
		echo "ok $((passed + failed)) - $1"
	else
		failed=$((failed + 1))
		echo "not ok $((passed + failed)) - $1"
		echo "#   got '$2', want '$3'"
	fi
}

cluster_start hot_backends "$PORT" || { echo "0 passed, 1 failed"; exit 1; }
DIR=$CLUSTER_DIR
trap 'cluster_stop "$DIR"' EXIT
q() { cluster_psql "$DIR" "$PORT" -At "$@"; }

q -c "CREATE EXTENSION locality_uuid" -c "CREATE UNLOGGED TABLE ids (backend int, n int, u uuid)"

# Default machine hash: MD5 of the host name up to its first dot, digest bytes 0..2.
short=$(hostname)
short=${short%%.*}
check "machine hash is MD5 of the short host name" \
	"$(q -c "SELECT hot_uuid_machine(hot_uuid(1)) = substring(decode(md5('$short'), 'hex') FOR 3)")" t

# Four backends at once, 50k ids each, interleaved with one another.
for b in 1 2 3 4; do
	q -c "INSERT INTO ids SELECT $b, n, hot_uuid(n % 7) FROM generate_series(1, 50000) n" &
done
wait
check "200k ids from 4 concurrent backends" "$(q -c "SELECT count(*) FROM ids")" 200000
check "no two ids are equal" "$(q -c "SELECT count(DISTINCT u) FROM ids")" 200000
check "each backend has its own process field" \
	"$(q -c "SELECT count(DISTINCT hot_uuid_process(u)) FROM ids")" 4
check "each backend's ids sort in generation order" \
	"$(q -c "SELECT count(*) FROM (SELECT backend, n, row_number() OVER (PARTITION BY backend ORDER BY u) AS r FROM ids) s WHERE r <> n")" 0
check "one machine hash for all backends" "$(q -c "SELECT count(DISTINCT hot_uuid_machine(u)) FROM ids")" 1

# locality_uuid.machine_name in postgresql.conf: every new backend takes it.
q -c "LOAD 'locality_uuid'" -c "ALTER SYSTEM SET locality_uuid.machine_name = 'cluster-b.example'" -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
check "machine_name from the configuration file, hashed as given" \
	"$(q -c "SELECT hot_uuid_machine(hot_uuid(1)) = substring(decode(md5('cluster-b.example'), 'hex') FOR 3)")" t

# process_field = pid gives HotGuid's field: the OS pid mod 65536.
check "process_field = pid" \
	"$(q -c "SET locality_uuid.process_field = pid" -c "SELECT hot_uuid_process(hot_uuid(1)) = pg_backend_pid() % 65536")" t

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
