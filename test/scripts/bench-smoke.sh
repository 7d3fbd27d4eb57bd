#!/usr/bin/env bash
# Benchmark smoke run: a small test/bench/run.sh --quick completes and writes every table and plot.
# It checks that figures were produced, never how fast anything was (the benchmark judges nothing).
set -uo pipefail
cd "$(dirname "$0")/../.."
export PG_CONFIG=${PG_CONFIG:-pg_config}
OUT=test/out/bench-smoke
PORT=${BENCH_SMOKE_PORT:-55439}

passed=0
failed=0
check() {
	if eval "$2"; then
		passed=$((passed + 1))
		echo "ok - $1"
	else
		failed=$((failed + 1))
		echo "not ok - $1"
	fi
}

bash test/bench/run.sh --quick --rows 100000 --conc-rows 10000 --cost-runs 1 --no-build --port "$PORT" --out "$OUT" >"$OUT.log" 2>&1
rc=$?
check "run.sh --quick exits 0" '[ $rc -eq 0 ] || { tail -20 "$OUT.log"; false; }'
check "no generator skipped" '! grep "^skip," "$OUT/raw.csv"'
check "cost.csv has the floor and 9 generators" '[ "$(grep -c . "$OUT/cost.csv")" -eq 11 ]'
check "locality.csv has 11 generators with WAL per row > 0" \
	'[ "$(awk -F, "NR > 1 && \$7 > 0" "$OUT/locality.csv" | wc -l)" -eq 11 ]'
check "concurrent.csv has 10 generators with TPS > 0" \
	'[ "$(awk -F, "NR > 1 && \$5 > 0" "$OUT/concurrent.csv" | wc -l)" -eq 10 ]'
check "results.md has the targets table" 'grep -q "^### Targets" "$OUT/results.md"'
for png in keyspace keyspace-zoom wal; do
	check "$png.png drawn" '[ -s "$OUT/$png.png" ] && ! grep -qi error "$OUT"/*.gp.log'
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
