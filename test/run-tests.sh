#!/usr/bin/env bash
# Build, install and test locality_uuid on this machine's PostgreSQL, one TAP test a step, run
# by prove, which ends with its summary ("Result: PASS"). Logs: test/out/STEP.log.
# Usage (as root, from the repository): bash test/run-tests.sh
#
# Steps: setup (missing packages), build (-j2; any "warning:" fails the warnings step), the
# entry points in script order (make entry-order-check), the layout of src/ (make format-check),
# install,
# core unit tests (plain and ASan/UBSan), fuzzing, make installcheck (pg_regress, then the TAP
# tests in test/t, three at a time: they mostly wait on their clusters), make
# installcheck-portable, benchmark smoke run, past-memory and time-questions benchmark smoke runs
# (skipped with the reason where no memory cgroup can be made), contention smoke run.
# Every other PostgreSQL major, and the Debian packages: bash test/matrix.sh.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
. test/tap.sh
under_prove "$@"
LOGS=$PWD/test/out
mkdir -p "$LOGS"
export PG_CONFIG=${PG_CONFIG:-pg_config}

if step setup bash test/setup-debian.sh && step build make -j2; then
	step warnings no_warnings "$LOGS/build.log"
	step entry-order make -s entry-order-check
	step format-check make -s format-check
	if step install make install; then
		step core-tests bash -c 'make -s core-test-bin && prove --exec "" test/core/*_test test/core/*_test_san'
		step fuzz make -s fuzz
		step installcheck bash test/installcheck.sh PROVE_FLAGS=-j3
		step installcheck-portable env LOCALITY_UUID_TARGET=installcheck-portable bash test/installcheck.sh
		step bench-smoke bash test/bench/smoke.sh
		step bench-past-memory bash test/bench/smoke.sh past_memory
		step bench-time-questions bash test/bench/smoke.sh time_questions
		step bench-contention bash test/bench/smoke.sh contention
	fi
fi
echo "1..$tap_tests"
