#!/usr/bin/env bash
# Benchmark: generation cost of hot_uuid() above the SQL call floor, against gen_random_uuid().
# Starts its own cluster (port HOT_BENCH_PORT, default 55424). Prints figures, not pass/fail.
set -uo pipefail
cd "$(dirname "$0")/../.."
. test/cluster.sh
PORT=${HOT_BENCH_PORT:-55424}
N=${N:-2000000}
RUNS=${RUNS:-5}

cluster_start hot_bench "$PORT" || exit 1
DIR=$CLUSTER_DIR
trap 'cluster_stop "$DIR"' EXIT
cluster_psql "$DIR" "$PORT" -c "CREATE EXTENSION locality_uuid"

# Run the four queries in interleaved rounds in one session (so load drifts hit all alike),
# after one warm-up round; print the median milliseconds of each, in query order.
QUERIES=("SELECT count(x) FROM generate_series(1, $N) x;"
	"SELECT count(hot_uuid(7)) FROM generate_series(1, $N);"
	"SELECT count(hot_uuid(7, '2024-01-01 00:00:00+00')) FROM generate_series(1, $N);"
	"SELECT count(gen_random_uuid()) FROM generate_series(1, $N);")
TIMES=$(
	{
		echo '\timing on'
		for round in $(seq 0 "$RUNS"); do
			for q in "${QUERIES[@]}"; do echo "$q"; done
		done
	} | cluster_psql "$DIR" "$PORT" -o /dev/null 2>&1 | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
)
# median Q: median time of query Q (0-based) over the rounds after the warm-up.
median() {
	echo "$TIMES" | awk -v k=${#QUERIES[@]} -v q="$1" 'NR > k && (NR - 1) % k == q' | sort -n |
		awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
floor=$(median 0)
hot=$(median 1)
hot_at=$(median 2)
v4=$(median 3)
awk -v n="$N" -v f="$floor" -v h="$hot" -v a="$hot_at" -v r="$v4" 'BEGIN {
	printf "rows %d, median of runs, ms: floor %.1f, hot_uuid %.1f, hot_uuid(at) %.1f, gen_random_uuid %.1f\n", n, f, h, a, r
	printf "ns per call above floor: hot_uuid %.1f, hot_uuid(at) %.1f, gen_random_uuid %.1f\n",
		(h - f) * 1e6 / n, (a - f) * 1e6 / n, (r - f) * 1e6 / n
	printf "ratio hot_uuid / gen_random_uuid above floor: %.3f\n", (h - f) / (r - f)
}'
