#!/usr/bin/env bash
# Run each libFuzzer target for its share of a time budget; "ok"/"not ok" per target.
# Usage: bash test/fuzz/run.sh TOTAL_SECONDS TARGET...
set -uo pipefail
each=$(($1 / ($# > 1 ? $# - 1 : 1)))
shift
[ $# -gt 0 ] || { echo "not ok - no fuzz targets"; exit 1; }
rc=0
for t; do
	dir=test/out/fuzz/$(basename "$t")
	mkdir -p "$dir/corpus"
	start=$SECONDS
	"$t" -max_total_time=$((each > 0 ? each : 1)) -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" >"$dir/run.log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/run.log")
	if [ $status -eq 0 ] && [ -n "$runs" ] && ! grep -qE 'ERROR: (libFuzzer|AddressSanitizer)|runtime error|property failed' "$dir/run.log"; then
		echo "ok - fuzz ${dir##*/}: $runs executions in $((SECONDS - start)) s, corpus $(ls "$dir/corpus" | wc -l) inputs, no finding"
	else
		echo "not ok - fuzz ${dir##*/}: exit $status after $((SECONDS - start)) s; see $dir/run.log"
		grep -E 'property failed|runtime error|ERROR:|Test unit written' "$dir/run.log" | head -5 | sed 's/^/#   /'
		rc=1
	fi
done
exit $rc
