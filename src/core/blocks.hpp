// Block-wrapped sequential UUIDs (sequential_uuids 1.0.3 compatible): layout, prefix, encoding.
#pragma once

#include "fields.hpp"

namespace locality_uuid
{

/*
 * A value v (a sequence value minus one, or Unix seconds) falls in block k = v / S'
 * (truncating toward zero), and the id starts with k mod 2^B, big-endian, in B/8 bytes:
 *
 *   C  = the number of blocks asked for, S = the block size (or interval length) asked for
 *   B  = the smallest of 8, 16, 24, 32 with 2^B >= C
 *   S' = max(1, floor(S * C / 2^B))    (so 2^B blocks of S' values wrap about every S * C)
 *
 * The rest of the id is random, with version 4 and the RFC 4122 variant, so these ids are
 * ordinary v4 uuids to everything that reads them. The reference computes 2^B in an int,
 * which overflows for C > 2^24 (division by zero) and C > 2^30 (endless loop); here all
 * arithmetic is 64-bit: S * C < 2^62 and 2^B * S' <= max(S * C, 2^32) < 2^63.
 */
constexpr int32_t  block_default = 65536;
constexpr unsigned version_4 = 0x4;

enum class BlockStatus
{
	ok,
	bad_block_size,
	bad_block_count,
	interval_not_finite, /* interval form: infinite */
	interval_has_months, /* interval form: months or years (no fixed length) */
	interval_too_short,  /* interval form: below 1 ms (zero and negative included) */
	interval_too_long    /* interval form: above 2147483647 s */
};

// What one (block size, block count) pair means.
struct BlockLayout
{
	int     prefix_bits; /* B: 8, 16, 24 or 32 */
	int64_t block_size;  /* S': values (or seconds) per prefix */
};

// Compute the layout of (block_size, block_count); both must be at least 1.
BlockStatus block_layout(int32_t block_size, int32_t block_count, BlockLayout *out) noexcept;

// Return the number of prefix bits for a block count of at least 1.
int prefix_bits_for(int32_t block_count) noexcept;

// Return the number of distinct prefixes, 2^B.
constexpr uint64_t
block_prefixes(const BlockLayout &l) noexcept
{
	return UINT64_C(1) << l.prefix_bits;
}

// Return the wrap period 2^B * S', in values (or seconds); below 2^63.
constexpr int64_t
block_wrap(const BlockLayout &l) noexcept
{
	return static_cast<int64_t>(block_prefixes(l) * static_cast<uint64_t>(l.block_size));
}

// Return the prefix of value v: (v / S' truncated toward zero) mod 2^B, two's complement.
uint64_t block_prefix(int64_t v, const BlockLayout &l) noexcept;

// Return the value a sequence variant id is made from: nextval's result minus one, wrapping.
int64_t sequence_input(int64_t nextval) noexcept;

// Return how many random bytes encode_block needs: those after the prefix.
constexpr std::size_t
block_random_len(const BlockLayout &l) noexcept
{
	return uuid_len - static_cast<std::size_t>(l.prefix_bits / 8);
}

// Write an id: the prefix of v, then block_random_len(l) bytes of random with version 4 and variant set.
void encode_block(int64_t v, const BlockLayout &l, const uint8_t *random,
				  uint8_t out[uuid_len]) noexcept;

// Read the block number (the prefix) an id carries for a block count of at least 1.
uint64_t decode_block(const uint8_t in[uuid_len], int32_t block_count) noexcept;

// Write an id: prefix in the first prefix_bits/8 bytes, then random bytes, version 4 and variant set.
void encode_prefix(uint64_t prefix, int prefix_bits, const uint8_t *random,
				   uint8_t out[uuid_len]) noexcept;

// Read the prefix of an id: its first prefix_bits/8 bytes (encode_prefix's inverse).
constexpr uint64_t
decode_prefix(const uint8_t in[uuid_len], int prefix_bits) noexcept
{
	return get_be(in, prefix_bits / 8);
}

/*
 * Time blocks of any length from 1 ms up (uuid_time_nextval_interval), in
 * microseconds. With L the length asked for and u the coarsest of 1 s, 1 ms and 1 us that
 * divides L, the rule above runs in units of u, and no block is shorter than 1 ms:
 *
 *   S' = max(u, 1 ms, floor((L / u) * C / 2^B) * u),   prefix = floor(t / S') mod 2^B
 *
 * for t the Unix time in microseconds. For a whole number of seconds u = 1 s, so S' is the
 * integer form's S' and, for every time from 1970 on, the prefix is the integer form's
 * (floor(t / S') = floor(floor(t / 1 s) / S') for t >= 0; before 1970 the integer form
 * truncates toward zero, this form floors). For counts that are powers of 256, S' = L.
 */
constexpr int64_t usecs_per_msec = 1000;
constexpr int64_t usecs_per_sec = 1000000;
constexpr int64_t usecs_per_day = INT64_C(86400) * usecs_per_sec;
constexpr int64_t time_block_min_us = usecs_per_msec;
constexpr int64_t time_block_max_us = INT64_C(2147483647) * usecs_per_sec;

// What one (interval length, interval count) pair means.
struct TimeBlockLayout
{
	int     prefix_bits; /* B: 8, 16, 24 or 32 */
	int64_t unit_us;     /* u: 1000000, 1000 or 1 */
	int64_t block_us;    /* S' in microseconds, a multiple of u */
};

// Return an interval's fixed length in microseconds (a day is 86400 s); months are refused.
BlockStatus interval_length_us(int32_t months, int32_t days, int64_t time_us, int64_t *out) noexcept;

// Compute the layout of (length_us, count): 1 ms <= length_us <= 2147483647 s, count >= 1.
BlockStatus time_block_layout(int64_t length_us, int32_t count, TimeBlockLayout *out) noexcept;

// Return the integer form's layout (seconds, count) as a time layout, or an error status.
BlockStatus time_block_layout_seconds(int32_t seconds, int32_t count, TimeBlockLayout *out) noexcept;

// Return the prefix of Unix time t_us: floor(t_us / S') mod 2^B.
uint64_t time_block_prefix(int64_t t_us, const TimeBlockLayout &l) noexcept;

// Return the wrap period 2^B * S' in microseconds; false if it exceeds int64.
bool time_block_wrap_us(const TimeBlockLayout &l, int64_t *out) noexcept;

/*
 * Set *start_us to the start of the latest block at or before as_of_us whose prefix is
 * prefix (taken mod 2^B): with a = floor(as_of / S'), the block k = a - ((a - prefix) mod 2^B),
 * starting at k * S'. False if that start is below INT64_MIN microseconds.
 */
bool time_block_start(uint64_t prefix, int64_t as_of_us, const TimeBlockLayout &l,
					  int64_t *start_us) noexcept;

/*
 * Advice: block parameters for both block generators from an insert rate (rows per second),
 * a retention (microseconds) and the memory the index may hold (bytes).
 *
 *   rows that fit:  N = floor(index_memory / hot_divisor / entry_bytes)
 *   sequence:       block_size = the largest power of two <= N (at least 1, at most 2^28)
 *   time:           interval = the largest 1, 2 or 5 times a power of ten milliseconds
 *                   with rate * interval <= N (at least 1 ms, at most 5 * 10^8 s)
 *   both:           prefix width B = the smallest of 8, 16, 24, 32 whose wrap period
 *                   (2^B blocks) is at least wrap_margin * retention; count 2^B for B < 32,
 *                   and for B = 32 (2^32 does not fit an integer) count 2^30 with 4 times
 *                   the size or interval, which gives the same S' (500 ms, whose 4 times
 *                   is whole seconds and so rounds S' to 1 s, steps down to 200 ms).
 */
constexpr int     advice_entry_bytes = 40;                  /* leaf bytes per uuid entry at random-insert density */
constexpr int     advice_hot_divisor = 8;                   /* a block's leaves take at most 1/8 of index memory */
constexpr int     advice_wrap_margin = 2;                   /* wrap period at least twice the retention */
constexpr int32_t advice_max_block_size = INT32_C(1) << 28; /* 4 times it fits an int32 */
constexpr int64_t advice_max_interval_us = INT64_C(500000000) * usecs_per_sec;

struct BlockAdvice
{
	int32_t block_size;  /* sequence: the block_size argument; time: 0 */
	int64_t interval_us; /* time: the interval_length argument in us; sequence: 0 */
	int32_t count;       /* block_count or interval_count */
	int     prefix_bits;
	int64_t effective; /* S': values (sequence) or microseconds (time) */
	double  rows_per_block;
	int64_t hot_set_bytes; /* rows_per_block * advice_entry_bytes, rounded up */
	double  wrap_us;       /* wrap period in microseconds at the given rate */
	bool    hot_set_fits;  /* hot_set_bytes <= index_memory / advice_hot_divisor */
	bool    wrap_covers;   /* wrap_us >= advice_wrap_margin * retention */
};

// Return the rows whose leaves fit the hot share of index_memory bytes.
int64_t advice_rows_that_fit(int64_t index_memory) noexcept;

// Advise uuid_sequence_nextval; rate > 0 and retention_us > 0 (finite), index_memory > 0.
void advise_sequence(double rate, double retention_us, int64_t index_memory,
					 BlockAdvice *out) noexcept;

// Advise uuid_time_nextval_interval, with the same preconditions.
void advise_time(double rate, double retention_us, int64_t index_memory,
				 BlockAdvice *out) noexcept;

} // namespace locality_uuid
