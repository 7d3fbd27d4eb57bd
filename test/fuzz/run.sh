#!/usr/bin/env bash
# Run each libFuzzer target for its share of a time budget, two at a time (each is one process);
# "ok"/"not ok" per target, in the order given.
# Usage: bash test/fuzz/run.sh TOTAL_SECONDS TARGET...
set -uo pipefail
each=$(($1 * 2 / ($# > 1 ? $# - 1 : 1)))
shift
[ $# -gt 0 ] || { echo "not ok - no fuzz targets"; exit 1; }

# fuzz TARGET: run it for $each seconds; its result line in test/out/fuzz/NAME/result, exit 0 if it found nothing.
fuzz() {
	local dir=test/out/fuzz/$(basename "$1") start=$SECONDS status runs
	mkdir -p "$dir/corpus"
	"$1" -max_total_time=$((each > 0 ? each : 1)) -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" >"$dir/run.log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/run.log")
	if [ $status -eq 0 ] && [ -n "$runs" ] && ! grep -qE 'ERROR: (libFuzzer|AddressSanitizer)|runtime error|property failed' "$dir/run.log"; then
		echo "ok - fuzz ${dir##*/}: $runs executions in $((SECONDS - start)) s, corpus $(ls "$dir/corpus" | wc -l) inputs, no finding" >"$dir/result"
	else
		{ echo "not ok - fuzz ${dir##*/}: exit $status after $((SECONDS - start)) s; see $dir/run.log"
		  grep -E 'property failed|runtime error|ERROR:|Test unit written' "$dir/run.log" | head -5 | sed 's/^/#   /'; } >"$dir/result"
	fi
}

for t; do
	[ "$(jobs -rp | wc -l)" -lt 2 ] || wait -n
	fuzz "$t" &
done
wait
rc=0
for t; do
	cat "test/out/fuzz/$(basename "$t")/result"
	grep -q '^ok' "test/out/fuzz/$(basename "$t")/result" || rc=1
done
exit $rc
