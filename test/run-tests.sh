#!/usr/bin/env bash
# Build, install and test locality_uuid on this machine's PostgreSQL (PG_CONFIG picks another), one
# TAP test a step, run by prove, which ends with its summary ("Result: PASS"). Logs: test/out/STEP.log.
# Usage (as root, from the repository): bash test/run-tests.sh; the other majors: test/matrix.sh.
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
		step core-tests bash -c 'make -s -j2 core-test-bin && prove --exec "" test/core/*_test test/core/*_test_san'
		step fuzz make -s -j2 fuzz
		# The TAP tests three at a time: they mostly wait on their clusters.
		step installcheck bash test/installcheck.sh PROVE_FLAGS=-j3
		step installcheck-portable env LOCALITY_UUID_TARGET=installcheck-portable bash test/installcheck.sh
		for b in run past_memory time_questions contention; do step "bench-${b//_/-}" bash test/bench/smoke.sh $b; done
	fi
fi
echo "1..$tap_tests"
