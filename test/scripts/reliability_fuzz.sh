#!/usr/bin/env bash
# Core fuzzing: every libFuzzer target over src/core for a fixed short budget (ASan/UBSan).
# The long soak is `make fuzz-soak` (FUZZ_SOAK_SECONDS, default 3600).
set -uo pipefail
cd "$(dirname "$0")/../.."
FUZZ_SECONDS=${FUZZ_SECONDS:-24}
passed=0
failed=0
if make -s fuzz-bin >test/out/fuzz-build.log 2>&1; then
	passed=$((passed + 1))
	echo "ok - fuzz targets build (clang-14, -fsanitize=fuzzer,address,undefined)"
	out=$(bash test/fuzz/run.sh "$FUZZ_SECONDS" $(ls test/fuzz/*_fuzz.cpp | sed 's/\.cpp$//'))
	echo "$out"
	passed=$((passed + $(echo "$out" | grep -c '^ok ')))
	failed=$((failed + $(echo "$out" | grep -c '^not ok ')))
else
	failed=$((failed + 1))
	echo "not ok - fuzz targets build"
	tail -20 test/out/fuzz-build.log | sed 's/^/#   /'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
