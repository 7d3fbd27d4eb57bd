#!/usr/bin/env bash
# The command-line tool's speed: explaining a file of 1 M ids (a quarter each locality, shard-key,
# version 7 and time-block ids, made by the tool) as aligned text, as JSON Lines, and as JSON Lines
# with --all; making 1 M locality ids. Each timed 5 times, the median printed; output to /dev/null.
# Usage: bash test/bench/cli.sh [TOOL] (default ./locality-uuid: run `make` first). Prints figures;
# CSV, a file that gets them in the columns of docs/bench/cli.csv.
set -euo pipefail
cd "$(dirname "$0")/../.."
tool=${1:-./locality-uuid}
runs=5
[ -x "$tool" ] || { echo "cli.sh: $tool is not built (make)"; exit 1; }

work=$(mktemp -d /tmp/locality_uuid-cli-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
ids=$work/ids.txt
{
	"$tool" -n 250000
	"$tool" -n 250000 --hot 42
	"$tool" -n 250000 --v7
	"$tool" -n 250000 --time-block 100ms --block-count 16777216
} > "$ids"
echo "cli.sh: $(wc -l < "$ids") ids in $ids, $(wc -c < "$ids") bytes; tool $("$tool" --version)"

# median SECONDS...: the middle value.
median() {
	printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}

# measure NAME COMMAND...: run the command $runs times (its output to /dev/null) and print the median.
measure() {
	local name=$1 t0 t1 times=()
	shift
	for _ in $(seq "$runs"); do
		t0=$(date +%s%N)
		"$@" > /dev/null
		t1=$(date +%s%N)
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) / 1e9}')")
	done
	printf '%-38s median %s s of %s runs (%s)\n' "$name" "$(median "${times[@]}")" "$runs" "${times[*]}"
	[ -z "${CSV:-}" ] || echo "\"$name\",$(median "${times[@]}")" >>"$CSV"
}
[ -z "${CSV:-}" ] || echo command,median_s >"$CSV"

measure 'locality-uuid -i < file' sh -c "exec '$tool' -i < '$ids'"
measure 'locality-uuid --json -i < file' sh -c "exec '$tool' --json -i < '$ids'"
measure 'locality-uuid --json --all -i < file' sh -c "exec '$tool' --json --all -i < '$ids'"
measure 'locality-uuid -n 1000000' "$tool" -n 1000000
