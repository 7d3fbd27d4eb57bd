#!/usr/bin/env bash
# The command-line tool's speed, beside util-linux uuidparse and OSSP uuid, in one run: explaining a
# file of 1 M ids (a quarter each locality, shard-key, version 7 and time-block ids, made by the
# tool) as aligned text, as JSON Lines, as JSON Lines with --all and as -o columns; making 1 M ids
# of several kinds (locality, version 4, 1 and 7, and version 5 of 1 M names). With OLD, the same
# commands of an older build of the tool (those it has) run beside. Each timed RUNS times, the medians
# of the wall-clock time and of the CPU time (user + system: what a busy machine changes least)
# printed; output to /dev/null.
# Usage: [RUNS=5] bash test/bench/cli.sh [TOOL [OLD]] (default ./locality-uuid: run `make` first). Prints
# figures; CSV, a file that gets them in the columns of docs/bench/cli.csv.
set -euo pipefail
cd "$(dirname "$0")/../.."
tool=${1:-./locality-uuid}
old=${2:-}
runs=${RUNS:-5}
[ -x "$tool" ] || { echo "cli.sh: $tool is not built (make)"; exit 1; }

work=$(mktemp -d /tmp/locality_uuid-cli-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
ids=$work/ids.txt
names=$work/names.txt
{
	"$tool" -n 250000
	"$tool" -n 250000 --hot 42
	"$tool" -n 250000 --v7
	"$tool" -n 250000 --time-block 100ms --block-count 16777216
} > "$ids"
seq -f 'host-%g.example.com' 1000000 > "$names"
echo "cli.sh: $(wc -l < "$ids") ids in $ids, $(wc -c < "$ids") bytes; tool $("$tool" --version)${old:+; old $("$old" --version)}"

# median SECONDS...: the middle value.
median() {
	printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}

# measure NAME COMMAND...: run the command $runs times (its output to /dev/null) and print the
# medians of its wall-clock and CPU seconds.
measure() {
	local name=$1 t0 t1 cpu times=() cpus=() TIMEFORMAT='%3U %3S'
	shift
	for _ in $(seq "$runs"); do
		t0=$(date +%s%N)
		cpu=$( { time "$@" > /dev/null 2>&3; } 3>&2 2>&1)
		t1=$(date +%s%N)
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) / 1e9}')")
		cpus+=("$(echo "$cpu" | awk '{printf "%.3f", $1 + $2}')")
	done
	printf '%-46s median %s s, CPU %s s, of %s runs (%s)\n' "$name" "$(median "${times[@]}")" "$(median "${cpus[@]}")" \
		"$runs" "${times[*]}"
	[ -z "${CSV:-}" ] || echo "\"$name\",$(median "${times[@]}"),$(median "${cpus[@]}")" >>"$CSV"
}
[ -z "${CSV:-}" ] || echo command,median_s,median_cpu_s >"$CSV"

# both NAME ARGS...: measure the tool with ARGS (standard input from $ids), and the old build if given.
both() {
	local name=$1
	shift
	measure "locality-uuid $name" sh -c 'exec "$@" < "$0"' "$ids" "$tool" "$@"
	[ -z "$old" ] || measure "locality-uuid (old) $name" sh -c 'exec "$@" < "$0"' "$ids" "$old" "$@"
}

both '-i < file' -i
both '--json -i < file' --json -i
both '--json --all -i < file' --json --all -i
measure 'locality-uuid -o id,type,time -i < file' sh -c "exec '$tool' -o id,type,time -i < '$ids'"
both '-n 1000000' -n 1000000
measure 'locality-uuid --v4 -n 1000000' "$tool" --v4 -n 1000000
measure 'locality-uuid --v7 -n 1000000' "$tool" --v7 -n 1000000
measure 'locality-uuid --v1 -n 1000000' "$tool" --v1 -n 1000000
measure 'locality-uuid --v5 --name - < 1 M names' sh -c "exec '$tool' --v5 --namespace @dns --name - < '$names'"
if command -v uuidparse > /dev/null; then
	measure 'uuidparse < file' sh -c "exec uuidparse < '$ids'"
	measure 'uuidparse -J < file' sh -c "exec uuidparse -J < '$ids'"
	measure 'uuidparse -o UUID,TYPE,TIME < file' sh -c "exec uuidparse -o UUID,TYPE,TIME < '$ids'"
fi
if command -v uuid > /dev/null; then
	measure 'uuid (OSSP) -v4 -n 1000000' uuid -v4 -n 1000000
	measure 'uuid (OSSP) -v1 -n 1000000' uuid -v1 -n 1000000
fi
