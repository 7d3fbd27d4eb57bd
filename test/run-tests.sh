#!/usr/bin/env bash
# Build, install and run every test of locality_uuid; ends with "N passed, N failed".
# Usage (as root, from the repository): bash test/run-tests.sh
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/test/out
mkdir -p "$OUT"

bash test/setup-debian.sh || { echo "0 passed, 1 failed"; exit 1; }
export PG_CONFIG=${PG_CONFIG:-pg_config}

passed=0
failed=0

# count_tap FILE: add a TAP file's ok / not ok lines to the totals.
count_tap() {
	local ok nok
	ok=$(grep -c '^ok ' "$1")
	nok=$(grep -c '^not ok ' "$1")
	passed=$((passed + ok))
	failed=$((failed + nok))
	echo "  $ok passed, $nok failed"
	[ "$nok" -eq 0 ]
}

# step NAME COMMAND...: run a build step; a failure counts once and is shown.
step() {
	local name=$1
	shift
	echo "== $name"
	if "$@" >"$OUT/$name.log" 2>&1; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "not ok - $name"
		tail -30 "$OUT/$name.log"
		return 1
	fi
}

step build make -j2 || { echo "$passed passed, $failed failed"; exit 1; }
step warnings bash -c '! grep -E "warning:" test/out/build.log' || true
step install make install || { echo "$passed passed, $failed failed"; exit 1; }

echo "== core unit tests (plain, then ASan/UBSan)"
make -s core-test-bin >"$OUT/core-build.log" 2>&1 || { failed=$((failed + 1)); tail -30 "$OUT/core-build.log"; }
for t in test/core/*_test test/core/*_test_san; do
	[ -x "$t" ] || continue
	"$t" >"$OUT/$(basename "$t").tap" 2>&1
	rc=$?
	count_tap "$OUT/$(basename "$t").tap" && [ $rc -eq 0 ] || { failed=$((failed + 1)); grep -A2 '^not ok\|ERROR\|runtime error' "$OUT/$(basename "$t").tap" | head -20; }
done

echo "== pg_regress"
. test/cluster.sh
REGRESS_PORT=${REGRESS_PORT:-55400}
if cluster_start regress $REGRESS_PORT; then
	REGRESS_DIR=$CLUSTER_DIR
	PGHOST=$REGRESS_DIR PGPORT=$REGRESS_PORT make installcheck >"$OUT/regress.log" 2>&1
	grep -E '^(test| *[a-z_]+ +\.\.\.)' "$OUT/regress.log" | sed 's/^/  /'
	ok=$(grep -cE '\.\.\. ok' "$OUT/regress.log")
	nok=$(grep -cE '\.\.\. FAILED' "$OUT/regress.log")
	passed=$((passed + ok))
	failed=$((failed + nok))
	[ "$nok" -eq 0 ] || head -100 regression.diffs
	grep -q 'tests passed\|tests failed' "$OUT/regress.log" || { failed=$((failed + 1)); tail -20 "$OUT/regress.log"; }
	cluster_stop "$REGRESS_DIR"
else
	failed=$((failed + 1))
fi

# Scripts in test/ that start their own clusters; each ends with "N passed, N failed".
for s in test/scripts/*.sh; do
	[ -f "$s" ] || continue
	name=$(basename "$s" .sh)
	echo "== $name"
	bash "$s" >"$OUT/$name.log" 2>&1
	rc=$?
	grep -E '^(not ok|ok|#)' "$OUT/$name.log" | sed 's/^/  /' | tail -40
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$OUT/$name.log" | tail -1)
	if [ -n "$line" ]; then
		passed=$((passed + ${line%% passed*}))
		f=${line#*passed, }
		failed=$((failed + ${f%% failed*}))
	fi
	if [ $rc -ne 0 ] && [ -z "$line" -o "${f%% failed*}" = 0 ]; then
		failed=$((failed + 1))
		tail -20 "$OUT/$name.log"
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
