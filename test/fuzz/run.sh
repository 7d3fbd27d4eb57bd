#!/usr/bin/env bash
# Run each libFuzzer target for its share of a time budget; "ok"/"not ok" per target.
# Usage: bash test/fuzz/run.sh TOTAL_SECONDS TARGET...
set -uo pipefail
total=$1
shift
[ $# -gt 0 ] || { echo "not ok - no fuzz targets"; exit 1; }
each=$((total / $#))
[ "$each" -ge 1 ] || each=1
rc=0
for t in "$@"; do
	name=$(basename "$t")
	dir=test/out/fuzz/$name
	mkdir -p "$dir/corpus"
	start=$(date +%s)
	"$t" -max_total_time="$each" -print_final_stats=1 -artifact_prefix="$dir/" \
		"$dir/corpus" >"$dir/run.log" 2>&1
	status=$?
	secs=$(($(date +%s) - start))
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/run.log")
	corpus=$(ls "$dir/corpus" | wc -l)
	if [ $status -eq 0 ] && [ -n "$runs" ] && ! grep -qE 'ERROR: (libFuzzer|AddressSanitizer)|runtime error|property failed' "$dir/run.log"; then
		echo "ok - fuzz $name: $runs executions in ${secs} s, corpus $corpus inputs, no finding"
	else
		echo "not ok - fuzz $name: exit $status after ${secs} s; see $dir/run.log"
		grep -E 'property failed|runtime error|ERROR:|Test unit written' "$dir/run.log" | head -5 | sed 's/^/#   /'
		rc=1
	fi
done
exit $rc
