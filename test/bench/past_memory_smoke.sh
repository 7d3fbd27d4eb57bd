#!/usr/bin/env bash
# Smoke run of the past-memory benchmark: test/bench/past_memory.pl --short (32 MB, 6 s loads, three
# generators, 1 and 8 clients, about a minute) writes every CSV file with the rows expected and the
# plot, and removes its cgroup. It judges no figure. Skips, with the reason, where no memory
# cgroup can be made (not root, no memory hierarchy mounted).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
export PG_CONFIG=${PG_CONFIG:-pg_config}
OUT=test/out/bench-past-memory

. test/bench/check.sh
short_run_in_cgroup test/bench/past_memory.pl "$OUT"
cgroup_checks "$OUT/past_memory_raw.csv"
# rows CSV PATTERN N: N data rows of CSV (after its header) match PATTERN.
rows() {
	local m
	m=$(tail -n +2 "$OUT/$1" 2>/dev/null | grep -cE "$2")
	[ "$m" -eq "$3" ] || { echo "# $1: $m rows match $2, expected $3" >&2; false; }
}
N='[0-9]+(\.[0-9]+)?'
for g in bigserial gen_random_uuid locality_true; do
	for c in 1 8; do
		check "load.csv: $g with $c client(s), every figure there" \
			"rows past_memory_load.csv '^$g,[^,]+,[a-z]+,$c,$N,$N,$N,($N)?,$N,$N,$N,$N,$N,$N,$N,$N,\$' 1"
		check "reads.csv: $g with $c client(s), recent and all rows" \
			"rows past_memory_reads.csv '^$g,[^,]+,$c,recent,$N,300,$N,$N,$N,$N,$N\$' 1 && rows past_memory_reads.csv '^$g,[^,]+,$c,all,$N,300,$N,$N,$N,$N,$N\$' 1"
		check "progress.csv: $g with $c client(s), samples every 2 s" \
			"[ \"\$(tail -n +2 $OUT/past_memory_progress.csv | grep -cE '^$g,[^,]+,$c,$N,$N,$N,$N,$N,$N\$')\" -ge 2 ]"
	done
done
check "the CSV files have nothing else" '[ "$(wc -l <"$OUT/past_memory_load.csv")" -eq 7 ] && [ "$(wc -l <"$OUT/past_memory_reads.csv")" -eq 13 ]'
check "past_memory.png drawn" '[ -s "$OUT/past_memory.png" ] && ! grep -qi error "$OUT/past_memory.gp.log"'
check "past_memory.md has a row per load" '[ "$(grep -c "^| \`" "$OUT/past_memory.md")" -eq 6 ]'
check "the data directory is gone" '[ -z "$(ls -d "$OUT"/tmp_check/t_*_data/pgdata 2>/dev/null)" ]'

echo "1..$((passed + failed))"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
