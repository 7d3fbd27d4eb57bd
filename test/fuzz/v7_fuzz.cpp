// libFuzzer target over the version 7 core: encodings, boundaries, the per-backend clock, ordered words and explicit-time numbers.
#include "core/v7.hpp"

#include "require.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstring>

using namespace locality_uuid;

namespace
{

// A clock reading the glue may pass: 1970-01-01 .. 9999-12-31 UTC.
V7Time
clock_reading(FuzzedDataProvider &fdp)
{
	return V7Time{fdp.ConsumeIntegralInRange<int64_t>(0, INT64_C(253402300799999)),
		fdp.ConsumeIntegralInRange<int32_t>(0, ns_per_ms - 1)};
}

// Any millisecond and bits: version 7, RFC variant, the millisecond back, between the boundaries.
void
check_encode(FuzzedDataProvider &fdp)
{
	int64_t		ms = fdp.ConsumeIntegralInRange<int64_t>(0, v7_ms_max);
	uint16_t	rand_a = fdp.ConsumeIntegral<uint16_t>();
	uint8_t		random[8];
	uint8_t		u[uuid_len];
	uint8_t		lo[uuid_len];
	uint8_t		hi[uuid_len];

	fdp.ConsumeData(random, sizeof(random));
	encode_v7(ms, rand_a, random, u);
	v7_lower(ms, lo);
	v7_upper(ms, hi);
	V7Fields	f;

	decode_v7(u, &f);
	REQUIRE(version_nibble(u) == 7 && rfc_variant(u) && f.ms == ms);
	REQUIRE(f.rand_a == (rand_a & 0x0fffu));
	REQUIRE(f.subms_us >= ms * 1000 && f.subms_us < (ms + 1) * 1000);
	REQUIRE(std::memcmp(lo, u, uuid_len) <= 0 && std::memcmp(u, hi, uuid_len) <= 0);
	REQUIRE(v7_ms(lo) == ms && v7_ms(hi) == ms);

	uint8_t		r16[uuid_len];

	fdp.ConsumeData(r16, sizeof(r16));
	encode_v4(r16, u);
	REQUIRE(version_nibble(u) == 4 && rfc_variant(u));
}

// Any clock readings: the clock's next readings strictly increase, and so do the ids made of them.
void
check_clock(FuzzedDataProvider &fdp)
{
	V7Clock		c;
	V7Time		prev = {0, 0};
	bool		started = false;
	uint8_t		prev_id[uuid_len] = {};
	const uint8_t zeros[8] = {};

	for (int i = 0; i < 64 && fdp.remaining_bytes() > 0; i++)
	{
		V7Time		t = c.next(clock_reading(fdp));
		uint8_t		u[uuid_len];

		REQUIRE(t.ns >= 0 && t.ns < ns_per_ms);
		REQUIRE(started == false || v7_before(prev, t));
		encode_v7(t.ms, v7_subms(t.ns), zeros, u);
		REQUIRE(std::memcmp(prev_id, u, uuid_len) <= 0);
		prev = t;
		started = true;
		std::memcpy(prev_id, u, uuid_len);
	}
}

// Any clock words: each word taken exceeds the previous, and its id sorts after the previous id.
void
check_ordered(FuzzedDataProvider &fdp)
{
	uint64_t	word = 0;
	uint8_t		prev[uuid_len] = {};

	for (int i = 0; i < 64 && fdp.remaining_bytes() > 0; i++)
	{
		uint64_t	next = v7_word_after(word, v7_word(clock_reading(fdp)));
		uint8_t		random[8];
		uint8_t		u[uuid_len];

		fdp.ConsumeData(random, sizeof(random));
		REQUIRE(next > word);
		encode_v7_ordered(next, random, u);

		V7Fields	f;

		decode_v7(u, &f);
		REQUIRE(version_nibble(u) == 7 && rfc_variant(u) && !f.is_explicit);
		REQUIRE(f.ms == v7_word_ms(next) && f.counter == (next & ((1u << v7_counter_bits) - 1)));
		REQUIRE(f.rand_a == ((next >> v7_counter_bits) & 0x0fff));
		REQUIRE(std::memcmp(prev, u, uuid_len) < 0);
		word = next;
		std::memcpy(prev, u, uuid_len);
	}
}

// Any ranges of allocation numbers: each number of a range is handed out once, in order, and
// only below 2^41 (then exhausted); explicit ids carry a number back whole and refuse 2^41 and more.
void
check_explicit(FuzzedDataProvider &fdp)
{
	Allocator	a(v7_allocation_bits);
	int64_t		ms = fdp.ConsumeIntegralInRange<int64_t>(0, v7_ms_max);
	uint64_t	expected = 0;	/* the next number the ranges handed over give */
	uint64_t	stop = 0;		/* the end of the range, or 2^41 */

	for (int i = 0; i < 32 && fdp.remaining_bytes() > 0; i++)
	{
		uint64_t	n;
		AllocationStatus st = a.next(&n);

		if (expected >= v7_allocation_limit)
		{
			REQUIRE(st == AllocationStatus::exhausted);
			break;
		}
		if (expected == stop)
		{
			REQUIRE(st == AllocationStatus::needs_allocations);

			uint64_t	first = fdp.ConsumeIntegralInRange<uint64_t>(0, UINT64_C(1) << 42);
			uint32_t	count = fdp.ConsumeIntegralInRange<uint32_t>(0, 256);

			a.add(first, count);
			expected = first < v7_allocation_limit ? first : v7_allocation_limit;
			stop = expected + count < v7_allocation_limit ? expected + count : v7_allocation_limit;
			continue;
		}
		REQUIRE(st == AllocationStatus::ok && n == expected);
		expected++;

		uint8_t		random[4];
		uint8_t		u[uuid_len];

		fdp.ConsumeData(random, sizeof(random));
		REQUIRE(encode_v7_explicit(ms, n, random, u));

		V7Fields	f;

		decode_v7(u, &f);
		REQUIRE(version_nibble(u) == 7 && rfc_variant(u) && f.is_explicit);
		REQUIRE(f.ms == ms && f.allocation == n);
		REQUIRE(!encode_v7_explicit(ms, n + v7_allocation_limit, random, u));
	}
}

// Any uuid, half of them with version 7's bits, and bounds (within 2 ms of its time, or any):
// uuidv7_made's answer is the plain predicate's, and the keys select exactly those ids.
void
check_made(FuzzedDataProvider &fdp)
{
	uint8_t		u[uuid_len];

	fdp.ConsumeData(u, sizeof(u));
	if (fdp.ConsumeBool())
	{
		u[6] = static_cast<uint8_t>((u[6] & 0x0f) | 0x70);
		u[8] = static_cast<uint8_t>((u[8] & 0x3f) | 0x80);
	}
	require_made(fdp, u, v7_id(u), v7_ms(u) * 1000, 2000, v7_made, v7_made_since, v7_made_before);
}

}							// namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size)
{
	static const Check checks[] = {check_encode, check_clock, check_ordered, check_explicit, check_made};

	return run_check(data, size, checks);
}
