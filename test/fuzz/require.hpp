// REQUIRE for the fuzz targets: a failed property aborts, and libFuzzer keeps the input.
#pragma once

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
