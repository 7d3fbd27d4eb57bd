#!/usr/bin/env bash
# Instructions per call of generators, counted by callgrind: a figure the machine's load does not move.
#
# Usage (as root, or as the user that owns the data directory): bash test/bench/instructions.sh [EXPR ...]
#   EXPR   SQL expressions to count (default: gen_random_uuid() uuidv7() uuidv4() uuidv7_ordered()
#          uuid_generate_v7() locality_uuid(true)); x is the floor, always counted first
# Environment: PG_CONFIG (default pg_config), the server whose installed extensions are used
# (locality_uuid, and pg_uuidv7 when installed); CALLS (default 100000); CSV, a file that gets
# the figures in the columns of docs/bench/pg*/instructions_v7.csv (the timed ones left empty).
#
# For each expression, a single-user backend (postgres --single, no other process) runs
# SELECT count(EXPR) FROM generate_series(1, N) x under valgrind --tool=callgrind, once with
# N = 20000 and once with N = 20000 + CALLS; the difference of the two totals over CALLS is the
# instructions of one call, start-up cost removed. Printed: that figure, the same above the floor
# count(x), and its ratio to gen_random_uuid()'s. Instructions are not time: system calls are not
# counted, and valgrind's CPU model may lead a library to other code paths than on the machine.
set -euo pipefail
export PG_CONFIG=${PG_CONFIG:-pg_config}
CALLS=${CALLS:-100000}
[[ $CALLS =~ ^[0-9]+$ ]] && [ "$CALLS" -gt 0 ] || { echo "instructions.sh: CALLS must be a positive number" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
if [ $# -gt 0 ]; then
	EXPRS=("$@")
else
	EXPRS=('gen_random_uuid()' 'uuidv7()' 'uuidv4()' 'uuidv7_ordered()' 'uuid_generate_v7()' 'locality_uuid(true)')
fi
PGBIN=$("$PG_CONFIG" --bindir)
SHAREDIR=$("$PG_CONFIG" --sharedir)
MAJOR=$("$PG_CONFIG" --version | sed 's/^PostgreSQL \([0-9]*\).*/\1/')
DIR=$(mktemp -d /tmp/locality_uuid_instructions.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
as_pg() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" = 0 ] && chown postgres: "$DIR"
as_pg "$PGBIN/initdb" -D "$DIR/data" -U postgres -A trust --no-sync >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log"; exit 1; }
# Below 17 the cluster-wide state of uuidv7_ordered() and locality_uuid(true) needs preloading.
PRELOAD=
[ "$MAJOR" -ge 17 ] || PRELOAD="-c shared_preload_libraries=locality_uuid"
# single SQL: run SQL in a single-user backend.
single() {
	echo "$1" | as_pg "$PGBIN/postgres" --single -D "$DIR/data" $PRELOAD postgres
}
setup="CREATE EXTENSION locality_uuid;"
[ ! -f "$SHAREDIR/extension/pg_uuidv7.control" ] || setup="$setup CREATE EXTENSION pg_uuidv7;"
single "$setup" >"$DIR/setup.log" 2>&1 || { cat "$DIR/setup.log"; exit 1; }

# total EXPR N: instructions of the whole backend for N calls of EXPR; nothing if it failed.
total() {
	local out=$DIR/callgrind.out
	rm -f "$out"
	echo "SELECT count($1) FROM generate_series(1, $2) x;" |
		as_pg valgrind --tool=callgrind --callgrind-out-file="$out" "$PGBIN/postgres" --single -D "$DIR/data" $PRELOAD postgres \
			>"$DIR/out.log" 2>"$DIR/valgrind.log"
	grep -q ERROR "$DIR/out.log" && return 0
	awk '$1 == "summary:" || $1 == "totals:" { print $2; exit }' "$out"
}

echo "PostgreSQL $("$PG_CONFIG" --version | cut -d' ' -f2-); instructions per call, $CALLS calls; callgrind $(valgrind --version)"
printf '%-28s %12s %12s %10s\n' expression per_call above_floor ratio
declare -A per=()
for e in x "${EXPRS[@]}"; do
	a=$(total "$e" 20000)
	b=$(total "$e" $((20000 + CALLS)))
	if [ -z "$a" ] || [ -z "$b" ]; then
		printf '%-28s %12s\n' "$e" "failed: $(grep -m1 ERROR "$DIR/out.log" | sed 's/.*ERROR: *//')"
		continue
	fi
	per[$e]=$(((b - a) / CALLS))
done
fl=${per[x]}
g=$((${per['gen_random_uuid()']:-0} - fl))
[ -z "${CSV:-}" ] || echo generator,instructions_per_call,above_floor,ratio,timed_min_ns,timed_median_ns >"$CSV"
for e in x "${EXPRS[@]}"; do
	[ -n "${per[$e]:-}" ] || continue
	awk -v e="$e" -v p="${per[$e]}" -v f="$fl" -v g="$g" -v csv="${CSV:-}" 'BEGIN {
		r = (g > 0 && e != "x") ? sprintf("%.4f", (p - f) / g) : ""
		printf "%-28s %12d %12d %10s\n", e, p, p - f, (r == "") ? "" : sprintf("%.3fx", r)
		if (csv != "") printf "\"%s\",%d,%d,%s,,\n", e, p, p - f, r >>csv
	}'
done
