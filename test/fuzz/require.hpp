// What the fuzz targets share: REQUIRE (a failed property aborts, and libFuzzer keeps the
// input), and running the one of a target's checks that the input chooses.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>

#define REQUIRE(cond) \
	do { \
		if (!(cond)) \
		{ \
			std::fprintf(stderr, "property failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
			std::abort(); \
		} \
	} while (0)

// One property check, reading what it checks from the fuzzer's input.
using Check = void (*) (FuzzedDataProvider &fdp);

// Run the check that the input's first bytes choose on the rest of the input.
template<std::size_t N>
int
run_check(const uint8_t *data, std::size_t size, const Check (&checks)[N])
{
	FuzzedDataProvider fdp(data, size);

	checks[fdp.ConsumeIntegralInRange<std::size_t>(0, N - 1)](fdp);
	return 0;
}
