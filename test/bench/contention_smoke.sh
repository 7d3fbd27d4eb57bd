#!/usr/bin/env bash
# Smoke run of test/bench/contention.sh: one round of 1 s a call, unpinned and pinned; every call
# measured with 1 and 8 clients (a positive ns a call) and a ratio for each. It judges no figure.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
OUT=test/out/bench-contention
mkdir -p "$OUT"
ROUNDS=1 SECONDS_EACH=1 CSV="$OUT/contention.csv" bash test/bench/contention.sh >"$OUT/contention.log" 2>&1
rc=$?
. test/bench/check.sh
check "contention.sh exits 0" '[ $rc -eq 0 ] || { tail -20 "$OUT/contention.log"; false; }'
check "20 measurements (5 calls, 1 and 8 clients, unpinned and pinned), each > 0 ns" \
	'[ "$(awk -F, "NR > 1 && \$5 > 0" "$OUT/contention.csv" | wc -l)" -eq 20 ]'
check "a median and a ratio for each of the 20" \
	'[ "$(grep -cE "^(no|yes),[^,]+,(1|8),[0-9.]+,-?[0-9.]+$" "$OUT/contention.log")" -eq 20 ]'
check "no server or directory left behind" '! ls -d /tmp/locality_uuid-contention.* >/dev/null 2>&1'
echo "1..$((passed + failed))"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
