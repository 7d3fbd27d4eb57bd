#!/usr/bin/env bash
# The command-line tool's speed beside util-linux uuidparse and OSSP uuid, in one run: explaining a
# file of 1 M ids of four kinds, made by the tool, as text, JSON Lines (also --all) and -o columns;
# making 1 M ids of several kinds. Each command timed RUNS times, its output to /dev/null; printed:
# the medians of the wall-clock and of the CPU time (user + system: what a busy machine changes least).
# Usage: [RUNS=5] [CSV=FILE] bash test/bench/cli.sh [TOOL [OLD]] (TOOL default ./locality-uuid: run
# `make` first; OLD: an older build, its same commands beside). CSV: docs/bench/cli.csv's columns.
set -euo pipefail
cd "$(dirname "$0")/../.."
tool=${1:-./locality-uuid} old=${2:-} runs=${RUNS:-5}
[ -x "$tool" ] || { echo "cli.sh: $tool is not built (make)"; exit 1; }
work=$(mktemp -d /tmp/locality_uuid-cli-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
ids=$work/ids.txt names=$work/names.txt
for kind in "" "--hot 42" --v7 "--time-block 100ms --block-count 16777216"; do "$tool" -n 250000 $kind; done >"$ids"
seq -f 'host-%g.example.com' 1000000 >"$names"
echo "cli.sh: $(wc -l <"$ids") ids in $ids, $(wc -c <"$ids") bytes; tool $("$tool" --version)${old:+; old $("$old" --version)}"
[ -z "${CSV:-}" ] || echo command,median_s,median_cpu_s >"$CSV"

# median SECONDS...: the middle value.
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# measure NAME COMMAND...: run COMMAND $runs times, standard input from the file of ids, and print
# the medians of its wall-clock and CPU seconds.
measure() {
	local name=$1 t0 cpu times=() cpus=() TIMEFORMAT='%3U %3S'
	shift
	for _ in $(seq "$runs"); do
		t0=$(date +%s%N)
		cpu=$( { time "$@" <"$ids" >/dev/null 2>&3; } 3>&2 2>&1)
		times+=("$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN {printf "%.3f", (b - a) / 1e9}')")
		cpus+=("$(echo "$cpu" | awk '{printf "%.3f", $1 + $2}')")
	done
	printf '%-46s median %s s, CPU %s s, of %s runs (%s)\n' "$name" "$(median "${times[@]}")" "$(median "${cpus[@]}")" \
		"$runs" "${times[*]}"
	[ -z "${CSV:-}" ] || echo "\"$name\",$(median "${times[@]}"),$(median "${cpus[@]}")" >>"$CSV"
}
# both NAME ARGS...: measure the tool with ARGS, and the old build if given.
both() {
	measure "locality-uuid $1" "$tool" "${@:2}"
	[ -z "$old" ] || measure "locality-uuid (old) $1" "$old" "${@:2}"
}

both '-i < file' -i
both '--json -i < file' --json -i
both '--json --all -i < file' --json --all -i
measure 'locality-uuid -o id,type,time -i < file' "$tool" -o id,type,time -i
both '-n 1000000' -n 1000000
for v in 4 7 1; do measure "locality-uuid --v$v -n 1000000" "$tool" "--v$v" -n 1000000; done
measure 'locality-uuid --v5 --name - < 1 M names' sh -c 'exec "$0" --v5 --namespace @dns --name - <"$1"' "$tool" "$names"
if command -v uuidparse >/dev/null; then
	measure 'uuidparse < file' uuidparse
	measure 'uuidparse -J < file' uuidparse -J
	measure 'uuidparse -o UUID,TYPE,TIME < file' uuidparse -o UUID,TYPE,TIME
fi
if command -v uuid >/dev/null; then
	for v in 4 1; do measure "uuid (OSSP) -v$v -n 1000000" uuid "-v$v" -n 1000000; done
fi
