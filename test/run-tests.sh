#!/usr/bin/env bash
# Build, install and test locality_uuid on this machine's PostgreSQL; ends with "N passed, N failed".
# Usage (as root, from the repository): bash test/run-tests.sh
#
# Steps: build (warning-free), install, core unit tests (plain and ASan/UBSan, through prove),
# fuzzing, `make installcheck` (pg_regress, then the TAP tests in test/t), `make
# installcheck-portable` (the portable edition's suite), benchmark smoke run.
# Each step is judged by its exit status; its log is in test/out/<step>.log.
# Every other PostgreSQL major, and the Debian packages: bash test/matrix.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=$PWD/test/out
mkdir -p "$OUT"
export PG_CONFIG=${PG_CONFIG:-pg_config}

passed=0
failed=0

# step NAME COMMAND...: run a step, log it, count it; show the log's tail when it fails.
step() {
	local name=$1 start rc
	shift
	start=$(date +%s)
	"$@" >"$OUT/$name.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok - $name ($(($(date +%s) - start)) s)"
	else
		failed=$((failed + 1))
		echo "not ok - $name (exit $rc; log: test/out/$name.log)"
		tail -40 "$OUT/$name.log" | sed 's/^/#   /'
	fi
	return $rc
}

# finish: the closing line, and the exit status.
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

step setup bash test/setup-debian.sh || finish
step build make -j2 || finish
step warnings bash -c '! grep -E "warning:" "$0"' "$OUT/build.log"
step install make install || finish
step core-tests bash -c 'make -s core-test-bin && prove --exec "" test/core/*_test test/core/*_test_san'
step fuzz make -s fuzz
step installcheck bash test/installcheck.sh
step installcheck-portable env LOCALITY_UUID_TARGET=installcheck-portable bash test/installcheck.sh
step bench-smoke bash test/bench/smoke.sh
finish
