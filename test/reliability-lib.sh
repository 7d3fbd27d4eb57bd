# Helpers for test/scripts/reliability_*.sh: TAP-style results and clusters torn down on exit.
# Sourced, not run. Each script calls rel_finish last; it prints "N passed, N failed".

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
export PG_CONFIG=${PG_CONFIG:-pg_config}
. test/cluster.sh
. test/generators.sh

rel_passed=0
rel_failed=0
rel_clusters=()

# ok NAME / not_ok NAME [DETAIL]: record one result.
ok() {
	rel_passed=$((rel_passed + 1))
	echo "ok - $1"
}

not_ok() {
	rel_failed=$((rel_failed + 1))
	echo "not ok - $1"
	[ -z "${2:-}" ] || echo "$2" | sed 's/^/#   /'
}

# is NAME GOT WANT: pass when the two strings are equal.
is() {
	if [ "$2" == "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "got:  $2
want: $3"
	fi
}

# check NAME COMMAND...: pass when the command succeeds.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# rel_start NAME PORT [conf lines...]: start a throw-away cluster that is stopped on exit;
# sets CLUSTER_DIR. A cluster that does not start is a failure and ends the script.
rel_start() {
	if cluster_start "$@"; then
		rel_clusters+=("$CLUSTER_DIR")
	else
		not_ok "start cluster $1 on port $2"
		rel_finish
	fi
}

# rel_teardown: stop every cluster this script started, by data directory.
rel_teardown() {
	local d
	for d in "${rel_clusters[@]}"; do
		cluster_stop "$d" 2>/dev/null || true
	done
	rel_clusters=()
}
trap rel_teardown EXIT
trap 'rel_teardown; exit 1' INT TERM

# rel_finish: print the totals and exit non-zero on any failure.
rel_finish() {
	rel_teardown
	echo "$rel_passed passed, $rel_failed failed"
	[ "$rel_failed" -eq 0 ] && exit 0
	exit 1
}

# q DIR PORT SQL [psql args...]: run SQL, print unaligned tuples only.
q() {
	local dir=$1 port=$2 sql=$3
	shift 3
	cluster_psql "$dir" "$port" -At "$@" -c "$sql"
}
