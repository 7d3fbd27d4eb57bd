#!/usr/bin/env bash
# Instructions per call of generators, counted by callgrind: a figure the machine's load does not move.
# Usage (as root, or as the user that owns the data directory; PG_CONFIG picks the server, whose
# locality_uuid and, where installed, pg_uuidv7 are used):
#   [CALLS=100000] [CSV=FILE] bash test/bench/instructions.sh [EXPR...]
# EXPR: SQL expressions (default: gen_random_uuid() uuidv7() uuidv4() uuidv7_ordered()
# uuid_generate_v7() locality_uuid(true)); x, the floor, is always counted first. CSV: a file that
# gets the figures in the columns of docs/bench/pg*/instructions_v7.csv (the timed ones left empty).
# Each runs as SELECT count(EXPR) FROM generate_series(1, N) x in a single-user backend (no other
# process) under callgrind, with N = 20000 and with N = 20000 + CALLS: the difference over CALLS is
# one call, start-up removed. Printed: that, the same above the floor count(x), and its ratio to
# gen_random_uuid()'s. Instructions are not time: system calls are not counted, and valgrind's CPU
# model may lead a library to other code paths than on the machine.
set -euo pipefail
PG_CONFIG=${PG_CONFIG:-pg_config} CALLS=${CALLS:-100000}
[ $# -gt 0 ] || set -- 'gen_random_uuid()' 'uuidv7()' 'uuidv4()' 'uuidv7_ordered()' 'uuid_generate_v7()' 'locality_uuid(true)'
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
. "$(dirname "$0")/../cluster.sh" && cluster -
# Below 17 the cluster-wide state of uuidv7_ordered() and locality_uuid(true) needs preloading.
[ "$("$PG_CONFIG" --version | sed 's/^PostgreSQL \([0-9]*\).*/\1/')" -ge 17 ] ||
	echo "shared_preload_libraries = 'locality_uuid'" >>"$dir/data/postgresql.conf"
# single SQL [TOOL...]: run SQL in a single-user backend (under TOOL), its output in out.log; fail
# where it reported an error (its exit status does not say).
single() {
	echo "$1" | as "${@:2}" "$bin/postgres" --single -D "$dir/data" postgres >"$dir/out.log" 2>&1 && ! grep -q ' ERROR: ' "$dir/out.log"
}
single "CREATE EXTENSION locality_uuid;$([ ! -f "$("$PG_CONFIG" --sharedir)/extension/pg_uuidv7.control" ] ||
	echo ' CREATE EXTENSION pg_uuidv7;')" || { cat "$dir/out.log"; exit 1; }

# total EXPR N: instructions of the whole backend for N calls of EXPR; nothing if it failed.
total() {
	rm -f "$dir/callgrind.out"
	single "SELECT count($1) FROM generate_series(1, $2) x;" valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" &&
		awk '$1 == "summary:" || $1 == "totals:" { print $2; exit }' "$dir/callgrind.out" || true
}

echo "PostgreSQL $("$PG_CONFIG" --version | cut -d' ' -f2-); instructions per call, $CALLS calls; callgrind $(valgrind --version)"
printf '%-28s %12s %12s %10s\n' expression per_call above_floor ratio
declare -A per=()
for e in x "$@"; do
	a=$(total "$e" 20000) b=$(total "$e" $((20000 + CALLS)))
	if [ -n "$a" ] && [ -n "$b" ]; then
		per[$e]=$(((b - a) / CALLS))
	else
		printf '%-28s %12s\n' "$e" "failed: $(grep -m1 ' ERROR: ' "$dir/out.log" | sed 's/.*ERROR: *//')"
	fi
done
[ -z "${CSV:-}" ] || echo generator,instructions_per_call,above_floor,ratio,timed_min_ns,timed_median_ns >"$CSV"
for e in x "$@"; do
	[ -z "${per[$e]:-}" ] || awk -v e="$e" -v p="${per[$e]}" -v f="${per[x]}" -v g="$((${per['gen_random_uuid()']:-0} - ${per[x]}))" -v csv="${CSV:-}" 'BEGIN {
		r = (g > 0 && e != "x") ? sprintf("%.4f", (p - f) / g) : ""
		printf "%-28s %12d %12d %10s\n", e, p, p - f, (r == "") ? "" : sprintf("%.3fx", r)
		if (csv != "") printf "\"%s\",%d,%d,%s,,\n", e, p, p - f, r >>csv
	}'
done
