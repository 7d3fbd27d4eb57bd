// RFC 9562 version 7 (and version 4) uuids: layout, boundaries, PostgreSQL 18's sub-millisecond rule, ordered and explicit-time ids.
#pragma once

#include "allocation.hpp"
#include "fields.hpp"

namespace locality_uuid
{

/*
 * Layout of version 7 (RFC 9562, section 5.7), in byte order:
 *
 *   bytes 0..5    unix_ts_ms: Unix time in milliseconds, 48 bits, big-endian
 *   byte  6       version 7 (high nibble), rand_a bits 11..8
 *   byte  7       rand_a bits 7..0
 *   byte  8       variant 10 (two high bits), rand_b bits 61..56
 *   bytes 9..15   rand_b bits 55..0
 *
 * uuidv7() fills rand_a as PostgreSQL 18 does: the millisecond's fraction in 1/4096 ms, from a
 * nanosecond clock that each backend makes strictly increasing in steps of at least
 * v7_step_ns (V7Clock); rand_b is random.
 *
 * Ordered ids (uuidv7_ordered) use rand_b's six bits in byte 8: bit 5 tells apart clock ids (0)
 * from explicit-time ids (1).
 *   clock ids:    rand_a = sub-millisecond fraction, byte 8 bits 4..2 a counter; the 63 bits
 *                 ms | fraction | counter are the ordered word (v7_word), one per id, strictly
 *                 increasing across every backend that shares it; bits 1..0 and bytes 9..15 random.
 *   explicit ids: a 41-bit allocation number in rand_a (bits 40..29), byte 8 bits 4..0
 *                 (bits 28..24) and bytes 9..11 (bits 23..0); bytes 12..15 random. The glue
 *                 draws the numbers from a WAL-logged sequence of the database in ranges
 *                 (Allocator), never hands one out twice and never reduces one: a number of
 *                 2^41 or more is refused (54000).
 * So an explicit id never equals a clock id nor another explicit id of the database; both
 * kinds sort by millisecond first.
 */
constexpr int64_t  v7_ms_max = (INT64_C(1) << 48) - 1; /* 10889-08-02 05:31:50.655 UTC */
constexpr int32_t  ns_per_ms = 1000000;
constexpr int64_t  v7_subms_steps = 4096;
constexpr int32_t  v7_step_ns = ns_per_ms / v7_subms_steps + 1; /* 245 ns */
constexpr int      v7_counter_bits = 3;
constexpr uint8_t  v7_explicit_flag = 0x20; /* byte 8, bit 5 */
constexpr int      v7_allocation_bits = 41;
constexpr uint64_t v7_allocation_limit = UINT64_C(1) << v7_allocation_bits;

// True if the uuid has RFC 9562's variant (byte 8 is 10xxxxxx).
constexpr bool
rfc_variant(const uint8_t *u) noexcept
{
	return (u[8] & 0xc0) == 0x80;
}

// Read the 48-bit millisecond field of a version 7 uuid.
constexpr int64_t
v7_ms(const uint8_t *u) noexcept
{
	return static_cast<int64_t>(get_be(u, 6));
}

// A clock reading as version 7 reads it: Unix milliseconds and nanoseconds within the
// millisecond (0 .. 999999). Two fields, since nanoseconds from 1970 overflow 64 bits in 2262.
struct V7Time
{
	int64_t ms;
	int32_t ns;
};

// Return the sub-millisecond fraction of nanoseconds within a millisecond, in 1/4096 ms, as PostgreSQL 18.
constexpr uint16_t
v7_subms(int32_t ns) noexcept
{
	return static_cast<uint16_t>(static_cast<int64_t>(ns) * v7_subms_steps / ns_per_ms);
}

// True if a is before b.
constexpr bool
v7_before(V7Time a, V7Time b) noexcept
{
	return a.ms < b.ms || (a.ms == b.ms && a.ns < b.ns);
}

// Return t plus ns nanoseconds (0 <= ns < 1000000).
constexpr V7Time
v7_plus(V7Time t, int32_t ns) noexcept
{
	int32_t sum = t.ns + ns;

	return sum >= ns_per_ms ? V7Time{t.ms + 1, static_cast<int32_t>(sum - ns_per_ms)} : V7Time{t.ms, sum};
}

// Write a version 7 uuid: ms (0 .. v7_ms_max), rand_a (12 bits), and rand_b from random[0..7].
void encode_v7(int64_t ms, uint16_t rand_a, const uint8_t random[8], uint8_t out[uuid_len]) noexcept;

// Write a version 4 uuid from 16 random bytes.
void encode_v4(const uint8_t random[uuid_len], uint8_t out[uuid_len]) noexcept;

// Write the smallest version 7 uuid of a millisecond: every bit after the time zero but version and variant.
void v7_lower(int64_t ms, uint8_t out[uuid_len]) noexcept;

// Write the largest version 7 uuid of a millisecond: every bit after the time one but version and variant.
void v7_upper(int64_t ms, uint8_t out[uuid_len]) noexcept;

// True if the uuid is version 7 with RFC 9562's variant: the ids whose time uuidv7_timestamp reads.
constexpr bool
v7_id(const uint8_t *u) noexcept
{
	return rfc_variant(u) && version_nibble(u) == 7;
}

// True if the uuid is a version 7 id made at or after since_us and before before_us (made_unit).
constexpr bool
v7_made(const uint8_t *u, int64_t since_us, int64_t before_us) noexcept
{
	return v7_id(u) && v7_ms(u) >= made_unit(since_us, 1000, v7_ms_max) &&
		v7_ms(u) < made_unit(before_us, 1000, v7_ms_max);
}

// Write the smallest key of the version 7 ids made at or after Unix microsecond us (made_unit):
// the nil uuid when every one is, the max uuid (no version 7 id) when none is.
void v7_made_since(int64_t us, uint8_t out[uuid_len]) noexcept;

// Write the largest key of the version 7 ids made before Unix microsecond us (made_unit): the
// nil uuid (no version 7 id) when none is, the max uuid when every one is.
void v7_made_before(int64_t us, uint8_t out[uuid_len]) noexcept;

/*
 * PostgreSQL 18's per-backend clock for version 7: each reading is the clock's, or the previous
 * reading plus v7_step_ns when the clock has not moved on that far (a burst, a coarse or stopped
 * clock, a step back). So one backend's ids strictly increase, as core's do.
 */
class V7Clock
{
  public:
	// Return the time the next id carries, given the clock's.
	V7Time
	next(V7Time clock) noexcept
	{
		V7Time stepped = v7_plus(previous_, v7_step_ns);

		if (!v7_before(stepped, clock))
			clock = stepped;
		previous_ = clock;
		return clock;
	}

  private:
	V7Time previous_ = {0, 0};
};

// Return the ordered word of a clock reading (ms >= 0): its millisecond, fraction and counter 0.
constexpr uint64_t
v7_word(V7Time t) noexcept
{
	return (static_cast<uint64_t>(t.ms) << (12 + v7_counter_bits)) |
		(static_cast<uint64_t>(v7_subms(t.ns)) << v7_counter_bits);
}

// Return the millisecond of an ordered word.
constexpr int64_t
v7_word_ms(uint64_t word) noexcept
{
	return static_cast<int64_t>(word >> (12 + v7_counter_bits));
}

// Return the word an ordered id takes after previous, given the clock's word: the larger of the two.
constexpr uint64_t
v7_word_after(uint64_t previous, uint64_t clock_word) noexcept
{
	return clock_word > previous ? clock_word : previous + 1;
}

// Write the ordered clock id of a word (its millisecond at most v7_ms_max); random[0..7] fill the rest.
void encode_v7_ordered(uint64_t word, const uint8_t random[8], uint8_t out[uuid_len]) noexcept;

// Write the explicit-time id of a millisecond and an allocation number; random[0..3] fill bytes
// 12..15; false (nothing written) if the number is 2^41 or more.
bool encode_v7_explicit(int64_t ms, uint64_t allocation, const uint8_t random[4],
						uint8_t out[uuid_len]) noexcept;

/* The fields of a version 7 id as uuidv7() and uuidv7_ordered() fill them (see the layout above). */
struct V7Fields
{
	int64_t  ms;          /* unix_ts_ms */
	uint16_t rand_a;      /* 12 bits */
	int64_t  subms_us;    /* ms and rand_a read as its fraction in 1/4096 ms, as uuidv7() makes it, in microseconds */
	bool     is_explicit; /* byte 8, bit 5: an explicit-time id of uuidv7_ordered(at) */
	unsigned counter;     /* a clock id's counter: byte 8, bits 4..2 */
	uint64_t allocation;  /* an explicit id's allocation number: rand_a, byte 8 bits 4..0, bytes 9..11 */
};

// Read the fields of a version 7 id: each reading of rand_a and rand_b, whichever generator made it.
void decode_v7(const uint8_t in[uuid_len], V7Fields *f) noexcept;

} // namespace locality_uuid
