// What the fuzz targets share: REQUIRE (a failed property aborts, and libFuzzer keeps the
// input), running the one of a target's checks that the input chooses, and the property of a
// time format's made predicate and keys.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

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

// Write the key of bound into key; a void key function always writes one, a bool one returns whether it did.
template<typename Key>
bool
made_key(Key key, int64_t bound, uint8_t *key_out)
{
	if constexpr (std::is_void_v<decltype(key(bound, key_out))>)
	{
		key(bound, key_out);
		return true;
	}
	else
		return key(bound, key_out);
}

// Two bounds near the id's time t_us (within spread microseconds) or any, as the glue passes them
// (saturated): made(u, since, before) is the plain predicate (u is the format's id and t_us is in
// [since, before)), and for the format's ids the keys of since and before select exactly those.
template<typename Made, typename Since, typename Before>
void
require_made(FuzzedDataProvider &fdp, const uint8_t *u, bool is_id, int64_t t_us, int64_t spread, Made made,
			 Since made_since, Before made_before)
{
	int64_t		since = fdp.ConsumeBool() ? t_us + fdp.ConsumeIntegralInRange<int64_t>(-spread, spread)
										  : fdp.ConsumeIntegral<int64_t>();
	int64_t		before = fdp.ConsumeBool() ? t_us + fdp.ConsumeIntegralInRange<int64_t>(-spread, spread)
										   : fdp.ConsumeIntegral<int64_t>();
	bool		plain = is_id && t_us >= since && t_us < before;
	uint8_t		since_key[16];
	uint8_t		before_key[16];
	bool		has_since = made_key(made_since, since, since_key);
	bool		has_before = made_key(made_before, before, before_key);

	REQUIRE(made(u, since, before) == plain);
	REQUIRE(!is_id ||
			(has_since && has_before && std::memcmp(since_key, u, 16) <= 0 && std::memcmp(u, before_key, 16) <= 0) ==
				plain);
}
