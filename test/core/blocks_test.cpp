// Core unit tests of the block-wrapped sequential UUIDs: docs/format.md, section 2 vectors, layouts, encoding, time blocks, advice.
#include "core/blocks.hpp"
#include "check.hpp"

using namespace locality_uuid;

namespace
{

// Return the layout of (size, count), which the caller knows to be valid.
BlockLayout
layout(int32_t size, int32_t count)
{
	BlockLayout l{0, 0};

	CHECK(block_layout(size, count, &l) == BlockStatus::ok);
	return l;
}

// Return the prefix of the id made from nextval's result, as the vectors of docs/format.md, section 2 do.
uint64_t
prefix_of_nextval(int64_t n, int32_t size, int32_t count)
{
	return block_prefix(sequence_input(n), layout(size, count));
}

void
test_format_vectors()
{
	CHECK_EQ(prefix_of_nextval(1, 65536, 65536), 0x0000u);
	CHECK_EQ(prefix_of_nextval(65537, 65536, 65536), 0x0001u);
	CHECK_EQ(prefix_of_nextval(4294967297LL, 65536, 65536), 0x0000u);	/* wrapped */
	CHECK_EQ(layout(100, 100).block_size, 39);
	CHECK_EQ(prefix_of_nextval(40, 100, 100), 0x01u);
	CHECK_EQ(prefix_of_nextval(39, 100, 100), 0x00u);
	CHECK_EQ(prefix_of_nextval(2, 1, 16777216), 0x000001u);
	CHECK_EQ(layout(1, 16777216).prefix_bits, 24);

	/* Time variant (60, 65536): floor(epoch / 60) mod 65536. */
	BlockLayout t = layout(60, 65536);

	CHECK_EQ(t.prefix_bits, 16);
	CHECK_EQ(t.block_size, 60);
	CHECK_EQ(block_prefix(1700000000, t), (1700000000u / 60) % 65536);
	CHECK_EQ(block_prefix(1700000000, t), 0x5515u);
}

void
test_layouts()
{
	/* (size, count): the layout {B, S'} and the values before the prefix wraps. */
	struct
	{
		int32_t		size;
		int32_t		count;
		BlockLayout want;
		int64_t		wrap;
	}			cases[] = {
		{65536, 1, {8, 256}, 65536},
		{65536, 2, {8, 512}, 131072},
		{65536, 256, {8, 65536}, 16777216},
		{65536, 257, {16, 257}, 16842752},
		{65536, 65536, {16, 65536}, 4294967296LL},
		{65536, 65537, {24, 256}, 4294967296LL},
		{65536, 16777216, {24, 65536}, 1099511627776LL},
		{65536, 16777217, {32, 256}, 1099511627776LL},
		{65536, 1073741825, {32, 16384}, 70368744177664LL},
		{65536, 2147483647, {32, 32767}, 140733193388032LL},
		{1, 1, {8, 1}, 256},
		{1, 2147483647, {32, 1}, 4294967296LL},
		{100, 100, {8, 39}, 9984},
		{256, 65536, {16, 256}, 16777216},
		{65536, 256, {8, 65536}, 16777216},
		{256, 256, {8, 256}, 65536},
		{60, 65536, {16, 60}, 3932160},
		{2147483647, 1, {8, 8388607}, 2147483392},
		{2147483647, 2147483647, {32, 1073741823}, 4611686014132420608LL},
	};

	for (const auto &c : cases)
	{
		BlockLayout l = layout(c.size, c.count);

		CHECK_EQ(l.prefix_bits, c.want.prefix_bits);
		CHECK_EQ(l.block_size, c.want.block_size);
		CHECK_EQ(block_wrap(l), c.wrap);
		CHECK_EQ(block_prefixes(l), UINT64_C(1) << c.want.prefix_bits);
		CHECK_EQ(block_random_len(l), static_cast<std::size_t>(16 - c.want.prefix_bits / 8));
	}

	/* Every width boundary of the block count. */
	CHECK_TABLE(prefix_bits_for, {{1, 8}, {256, 8}, {257, 16}, {65536, 16}, {65537, 24}, {16777216, 24},
								  {16777217, 32}, {1073741825, 32}, {INT32_MAX, 32}});
}

void
test_bad_arguments()
{
	BlockLayout l{0, 0};

	CHECK(block_layout(0, 1, &l) == BlockStatus::bad_block_size);
	CHECK(block_layout(-1, 1, &l) == BlockStatus::bad_block_size);
	CHECK(block_layout(INT32_MIN, 0, &l) == BlockStatus::bad_block_size);	/* size first */
	CHECK(block_layout(1, 0, &l) == BlockStatus::bad_block_count);
	CHECK(block_layout(1, -1, &l) == BlockStatus::bad_block_count);
	CHECK(block_layout(1, INT32_MIN, &l) == BlockStatus::bad_block_count);
	CHECK_EQ(l.prefix_bits, 0);		/* untouched on error */
}

void
test_negative_and_extreme_values()
{
	BlockLayout l100 = layout(100, 100);	/* S' = 39 */

	/* Truncation toward zero: -1 .. -38 share block 0 with 0 .. 38. */
	CHECK_EQ(block_prefix(-1, l100), 0x00u);
	CHECK_EQ(block_prefix(-38, l100), 0x00u);
	CHECK_EQ(block_prefix(-39, l100), 0xffu);
	CHECK_EQ(block_prefix(-77, l100), 0xffu);
	CHECK_EQ(block_prefix(-78, l100), 0xfeu);

	BlockLayout d = layout(65536, 65536);

	CHECK_EQ(block_prefix(-65535, d), 0x0000u);
	CHECK_EQ(block_prefix(-65536, d), 0xffffu);
	CHECK_EQ(prefix_of_nextval(0, 65536, 65536), 0x0000u);
	CHECK_EQ(prefix_of_nextval(-65536, 65536, 65536), 0xffffu);	/* v = -65537 */

	/* nextval's extremes: INT64_MIN - 1 wraps to INT64_MAX, as in the reference. */
	CHECK_EQ(sequence_input(INT64_MIN), INT64_MAX);
	CHECK_EQ(sequence_input(INT64_MAX), INT64_MAX - 1);
	CHECK_EQ(prefix_of_nextval(INT64_MIN, 65536, 65536), 0xffffu);
	CHECK_EQ(prefix_of_nextval(INT64_MAX, 65536, 65536), 0xffffu);
	CHECK_EQ(prefix_of_nextval(INT64_MIN + 1, 65536, 65536), 0x0000u);	/* -2^63/2^16 = -2^47 */

	/* 32-bit prefixes keep the low 32 bits of the block number. */
	BlockLayout w = layout(1, INT32_MAX);

	CHECK_EQ(block_prefix(-1, w), 0xffffffffu);
	CHECK_EQ(block_prefix(0x123456789LL, w), 0x23456789u);
	CHECK_EQ(prefix_of_nextval(2, 1, 16777216), 1u);
	CHECK_EQ(block_prefix(-2, layout(1, 16777216)), 0xfffffeu);
}

void
test_encode_decode()
{
	uint8_t		u[uuid_len];

	/* One random byte short of 16 per prefix byte: exact-size buffers catch over-reads. */
	uint8_t		r15[15];

	for (int i = 0; i < 15; i++)
		r15[i] = static_cast<uint8_t>(i);
	encode_block(256, layout(256, 256), r15, u);
	CHECK_UUID(u, "01000102-0304-4506-8708-090a0b0c0d0e");
	CHECK_EQ(decode_block(u, 256), 1u);
	CHECK_EQ(decode_block(u, 1), 1u);

	uint8_t		r14[14];

	std::memset(r14, 0xff, sizeof(r14));
	encode_block(65536, layout(65536, 65536), r14, u);
	CHECK_UUID(u, "0001ffff-ffff-4fff-bfff-ffffffffffff");
	CHECK_EQ(decode_block(u, 65536), 1u);
	CHECK_EQ(decode_block(u, 257), 1u);
	CHECK_EQ(decode_block(u, 256), 0u);		/* read with the wrong count: one byte */

	uint8_t		r13[13];

	std::memset(r13, 0, sizeof(r13));
	encode_block(-2, layout(1, 16777216), r13, u);
	CHECK_UUID(u, "fffffe00-0000-4000-8000-000000000000");
	CHECK_EQ(decode_block(u, 16777216), 0xfffffeu);

	uint8_t		r12[12];

	std::memset(r12, 0, sizeof(r12));
	encode_block(0x12345678, layout(1, INT32_MAX), r12, u);
	CHECK_UUID(u, "12345678-0000-4000-8000-000000000000");
	CHECK_EQ(decode_block(u, INT32_MAX), 0x12345678u);
	CHECK_EQ(decode_block(u, 16777217), 0x12345678u);
	CHECK_EQ(version_nibble(u), version_4);
}


// Return the time layout of (length_us, count), which the caller knows to be valid.
TimeBlockLayout
tlayout(int64_t length_us, int32_t count)
{
	TimeBlockLayout l{0, 0, 0};

	CHECK(time_block_layout(length_us, count, &l) == BlockStatus::ok);
	return l;
}

void
test_interval_length()
{
	int64_t		us = -1;
	const int64_t day = usecs_per_day;

	CHECK(interval_length_us(0, 0, 1000, &us) == BlockStatus::ok);
	CHECK_EQ(us, 1000);
	CHECK(interval_length_us(0, 1, 0, &us) == BlockStatus::ok);
	CHECK_EQ(us, INT64_C(86400000000));
	CHECK(interval_length_us(0, 24855, INT64_C(11647) * usecs_per_sec, &us) == BlockStatus::ok);
	CHECK_EQ(us, INT64_C(2147483647000000));	/* the longest: 2147483647 s */
	CHECK(interval_length_us(0, 1, -day + 1000, &us) == BlockStatus::ok);	/* 1 day -23:59:59.999 */
	CHECK_EQ(us, 1000);
	/* A day count whose product overflows, brought back by the time part. */
	CHECK(interval_length_us(0, 100000000, -99999999 * day, &us) == BlockStatus::ok);
	CHECK_EQ(us, day);
	us = -1;
	CHECK(interval_length_us(0, 0, 999, &us) == BlockStatus::interval_too_short);
	CHECK(interval_length_us(0, 0, 0, &us) == BlockStatus::interval_too_short);
	CHECK(interval_length_us(0, 0, -1000, &us) == BlockStatus::interval_too_short);
	CHECK(interval_length_us(0, -1, day + 999, &us) == BlockStatus::interval_too_short);
	CHECK(interval_length_us(0, INT32_MIN, INT64_MAX, &us) == BlockStatus::interval_too_short);
	CHECK(interval_length_us(0, 0, INT64_MIN, &us) == BlockStatus::interval_too_short);
	CHECK(interval_length_us(0, 24855, INT64_C(11647) * usecs_per_sec + 1, &us) == BlockStatus::interval_too_long);
	CHECK(interval_length_us(0, 24856, 0, &us) == BlockStatus::interval_too_long);
	CHECK(interval_length_us(0, INT32_MAX, INT64_MIN, &us) == BlockStatus::interval_too_long);
	CHECK(interval_length_us(0, 0, INT64_MAX, &us) == BlockStatus::interval_too_long);
	CHECK(interval_length_us(1, 0, 0, &us) == BlockStatus::interval_has_months);
	CHECK(interval_length_us(-1, 30, 0, &us) == BlockStatus::interval_has_months);
	CHECK(interval_length_us(12, 0, 1000, &us) == BlockStatus::interval_has_months);
	CHECK_EQ(us, -1);			/* untouched on error */
}

void
test_time_layouts()
{
	/* (length, count): the layout {B, u, S'}. */
	struct
	{
		int64_t		length_us;
		int32_t		count;
		TimeBlockLayout want;
	}			cases[] = {
		{1000, 1, {8, 1000, 1000}},
		{1000, 65536, {16, 1000, 1000}},
		{1001, 65536, {16, 1, 1001}},
		{1500, 100, {8, 1, 1000}},		/* 585 us, raised to 1 ms */
		{1500, 65536, {16, 1, 1500}},
		{2047, 256, {8, 1, 2047}},
		{999999, 255, {8, 1, 996092}},
		{250000, 4096, {16, 1000, 15000}},	/* 4096 blocks need 16 bits: S' = 250 * 4096 / 65536 ms */
		{250000, 65536, {16, 1000, 250000}},
		{100000, 16777216, {24, 1000, 100000}},
		{400000, 1073741824, {32, 1000, 100000}},
		{2000000, 100, {8, 1000000, 1000000}},	/* whole seconds: S' rounds to whole seconds */
		{2000000, 1073741824, {32, 1000000, 1000000}},	/* 500 ms would need ms units */
		{2001000, 1073741824, {32, 1000, 500000}},
		{60000000, 65536, {16, 1000000, 60000000}},
		{INT64_C(2147483647000000), 1, {8, 1000000, INT64_C(8388607000000)}},
		{INT64_C(2147483647000000), INT32_MAX, {32, 1000000, INT64_C(1073741823000000)}},
		{INT64_C(2147483646999999), INT32_MAX, {32, 1, INT64_C(1073741822999999)}},
	};

	for (const auto &c : cases)
	{
		TimeBlockLayout l = tlayout(c.length_us, c.count);

		CHECK_EQ(l.prefix_bits, c.want.prefix_bits);
		CHECK_EQ(l.unit_us, c.want.unit_us);
		CHECK_EQ(l.block_us, c.want.block_us);
	}

	TimeBlockLayout l{0, 0, 0};

	CHECK(time_block_layout(999, 1, &l) == BlockStatus::interval_too_short);
	CHECK(time_block_layout(0, 0, &l) == BlockStatus::interval_too_short);	/* length first */
	CHECK(time_block_layout(time_block_max_us + 1, 1, &l) == BlockStatus::interval_too_long);
	CHECK(time_block_layout(1000, 0, &l) == BlockStatus::bad_block_count);
	CHECK(time_block_layout(1000, INT32_MIN, &l) == BlockStatus::bad_block_count);
	CHECK(time_block_layout_seconds(0, 1, &l) == BlockStatus::bad_block_size);
	CHECK(time_block_layout_seconds(1, 0, &l) == BlockStatus::bad_block_count);
	CHECK_EQ(l.prefix_bits, 0);

	int64_t		wrap = 0;

	CHECK(time_block_wrap_us(tlayout(60000000, 65536), &wrap));
	CHECK_EQ(wrap, INT64_C(3932160000000));		/* 45 days 12:16:00 */
	CHECK(time_block_wrap_us(tlayout(1000, 1), &wrap));
	CHECK_EQ(wrap, 256000);
	CHECK(!time_block_wrap_us(tlayout(INT64_C(2147483647000000), 16777216), &wrap));
	CHECK(!time_block_wrap_us(tlayout(INT64_C(2147483647000000), 16777217), &wrap));
	CHECK(time_block_wrap_us(tlayout(INT64_C(2147483647), 16777217), &wrap));
	CHECK_EQ(wrap, INT64_C(8388608) << 32);		/* S' = 8388608 us */
	CHECK(time_block_wrap_us(tlayout(INT64_C(549755813887), 16777216), &wrap));
	CHECK_EQ(wrap, INT64_C(549755813887) << 24);	/* 2^63 - 2^24 */
	CHECK(!time_block_wrap_us(tlayout(INT64_C(549755813888), 16777216), &wrap));
}

// Return the next number of a fixed xorshift64 sequence.
uint64_t
next_random(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

void
test_interval_form_agrees_with_integer_form()
{
	/* Whole seconds: the same layout, and the same prefix at every clock from 1970 on. */
	const int32_t sizes[] = {1, 2, 3, 7, 39, 59, 60, 61, 100, 255, 256, 257, 1000, 3600, 65535,
		65536, 86400, 1000000, 16777216, 1073741824, INT32_MAX};
	const int32_t counts[] = {1, 2, 3, 100, 255, 256, 257, 4096, 65535, 65536, 65537, 16777215,
		16777216, 16777217, 1073741823, 1073741824, 1073741825, INT32_MAX};
	uint64_t	state = UINT64_C(0x9e3779b97f4a7c15);
	int			layouts = 0;
	int			layout_mismatches = 0;
	long		clocks = 0;
	long		prefix_mismatches = 0;

	for (int round = 0; round < 2000; round++)
	{
		int32_t		s;
		int32_t		c;

		if (round < 21 * 18)
		{
			s = sizes[round % 21];
			c = counts[round / 21];
		}
		else
		{
			s = static_cast<int32_t>(next_random(&state) % (round % 2 ? 100000 : INT32_MAX)) + 1;
			c = static_cast<int32_t>(next_random(&state) % (round % 3 ? 70000 : INT32_MAX)) + 1;
		}

		BlockLayout l = layout(s, c);
		TimeBlockLayout from_interval = tlayout(static_cast<int64_t>(s) * usecs_per_sec, c);
		TimeBlockLayout from_integer{0, 0, 0};

		CHECK(time_block_layout_seconds(s, c, &from_integer) == BlockStatus::ok);
		layouts++;
		if (from_interval.prefix_bits != l.prefix_bits ||
			from_interval.block_us != l.block_size * usecs_per_sec ||
			from_integer.prefix_bits != l.prefix_bits || from_integer.block_us != from_interval.block_us)
			layout_mismatches++;

		for (int k = 0; k < 200; k++)
		{
			int64_t		t_us;

			switch (k % 4)
			{
				case 0:			/* any time from 1970 to 2^62 microseconds */
					t_us = static_cast<int64_t>(next_random(&state) >> 2);
					break;
				case 1:			/* around now */
					t_us = INT64_C(1700000000000000) +
						static_cast<int64_t>(next_random(&state) % (INT64_C(1) << 50));
					break;
				case 2:			/* on a block boundary of the integer form, or just before it */
					{
						int64_t		blocks = (INT64_MAX / usecs_per_sec) / l.block_size;
						int64_t		block = static_cast<int64_t>(next_random(&state) %
															static_cast<uint64_t>(blocks < 100000000 ? blocks : 100000000));
						int64_t		secs = block * l.block_size;

						t_us = secs * usecs_per_sec - static_cast<int64_t>(next_random(&state) % 2);
						if (t_us < 0)
							t_us = 0;
						break;
					}
				default:		/* the first seconds after 1970 */
					t_us = static_cast<int64_t>(next_random(&state) % (INT64_C(1) << 40));
					break;
			}
			clocks++;

			/* The integer form reads Unix milliseconds and takes floor(ms / 1000) seconds. */
			int64_t		secs = floor_div(floor_div(t_us, 1000), 1000);

			if (time_block_prefix(t_us, from_interval) != block_prefix(secs, l))
				prefix_mismatches++;
		}
	}
	CHECK_EQ(layouts, 2000);
	CHECK_EQ(layout_mismatches, 0);
	CHECK_EQ(clocks, 400000L);
	CHECK_EQ(prefix_mismatches, 0L);
}

void
test_time_prefix_vectors()
{
	const int64_t t = INT64_C(1700000000123456);	/* 2023-11-14 22:13:20.123456 UTC */

	CHECK_EQ(time_block_prefix(t, tlayout(250000, 4096)), 0x6d5du);
	CHECK_EQ(time_block_prefix(t, tlayout(1000, 65536)), 0x687bu);
	CHECK_EQ(time_block_prefix(t, tlayout(1000000, 65536)), 0xf100u);
	CHECK_EQ(time_block_prefix(t, tlayout(100000, 16777216)), 0x476a01u);
	CHECK_EQ(time_block_prefix(t, tlayout(1500, 100)), 0x7bu);	/* 1 ms blocks */

	/* Floor before 1970: -1 us is in block -1. */
	CHECK_EQ(time_block_prefix(-1, tlayout(1000, 256)), 0xffu);
	CHECK_EQ(time_block_prefix(0, tlayout(1000, 256)), 0x00u);
	CHECK_EQ(time_block_prefix(INT64_MIN, tlayout(1000, 256)), 0x08u);	/* floor(-2^63 / 1000) mod 256 */

	/* The prefix advances every S' and wraps every 2^B * S'. */
	TimeBlockLayout l = tlayout(100000, 256);

	CHECK_EQ(time_block_prefix(99999, l), 0u);
	CHECK_EQ(time_block_prefix(100000, l), 1u);
	CHECK_EQ(time_block_prefix(25599999, l), 255u);
	CHECK_EQ(time_block_prefix(25600000, l), 0u);

	/* encode_prefix: the prefix, then the random bytes with version 4 and the variant. */
	uint8_t		r14[14];
	uint8_t		u[uuid_len];

	std::memset(r14, 0xff, sizeof(r14));
	encode_prefix(time_block_prefix(t, tlayout(250000, 4096)), 16, r14, u);
	CHECK_UUID(u, "6d5dffff-ffff-4fff-bfff-ffffffffffff");
	CHECK_EQ(decode_block(u, 4096), 0x6d5du);
	CHECK_EQ(decode_prefix(u, 16), 0x6d5du);
	CHECK_EQ(decode_prefix(u, 8), 0x6du);
	CHECK_EQ(decode_prefix(u, 32), 0x6d5dffffu);
}

void
test_time_block_start()
{
	const int64_t t = INT64_C(1700000000123456);
	int64_t		start = 0;
	TimeBlockLayout sec = tlayout(1000000, 65536);

	/* The block of t itself, the next prefix (one wrap back), and any other prefix. */
	CHECK(time_block_start(0xf100, t, sec, &start));
	CHECK_EQ(start, INT64_C(1700000000000000));
	CHECK(time_block_start(0xf101, t, sec, &start));
	CHECK_EQ(start, INT64_C(1699934465000000));
	CHECK(time_block_start(0x1234, t, sec, &start));
	CHECK_EQ(start, INT64_C(1699942964000000));
	CHECK(time_block_start(0xab, t, tlayout(250000, 256), &start));
	CHECK_EQ(start, INT64_C(1699999978750000));

	/* Exactly at a block start, that block; one microsecond before, the one before. */
	CHECK(time_block_start(0xf100, INT64_C(1700000000000000), sec, &start));
	CHECK_EQ(start, INT64_C(1700000000000000));
	CHECK(time_block_start(0xf100, INT64_C(1699999999999999), sec, &start));
	CHECK_EQ(start, INT64_C(1700000000000000) - INT64_C(65536000000));

	/* Before 1970: floor. */
	CHECK(time_block_start(0, -1, tlayout(1000000, 256), &start));
	CHECK_EQ(start, INT64_C(-256000000));
	CHECK(time_block_start(5, -1, tlayout(1000, 256), &start));
	CHECK_EQ(start, INT64_C(-251000));
	CHECK(time_block_start(0xff, -1, tlayout(1000, 256), &start));
	CHECK_EQ(start, -1000);

	/* Only the low B bits of the prefix count. */
	CHECK(time_block_start(0x1f100, t, sec, &start));
	CHECK_EQ(start, INT64_C(1700000000000000));

	/* Below INT64_MIN microseconds: refused. */
	CHECK(!time_block_start(1, INT64_MIN, tlayout(1000, 256), &start));
	CHECK(time_block_start(9, INT64_MIN + 1000, tlayout(1000, 256), &start));
	CHECK_EQ(start, INT64_MIN + 808);	/* -9223372036854775 ms, the block of as_of itself */
	CHECK(!time_block_start(8, INT64_MIN + 1000, tlayout(1000, 256), &start));	/* one block back */
	CHECK(!time_block_start(0, INT64_MIN + 1000, tlayout(1000, 256), &start));
	CHECK(time_block_start(0, INT64_MIN + 300000, tlayout(1000, 256), &start));
	CHECK_EQ(start, INT64_MIN + 247808);
	CHECK(!time_block_start(0, INT64_MIN / 2, tlayout(INT64_C(2147483647000000), 16777216), &start) ||
		  start <= INT64_MIN / 2);

	/* Every prefix, against a brute-force walk back over the blocks. */
	TimeBlockLayout small = tlayout(3000, 256);
	int			mismatches = 0;

	for (int64_t as_of = -20000; as_of <= 800000; as_of += 777)
		for (uint64_t p = 0; p < 256; p++)
		{
			int64_t		k = floor_div(as_of, small.block_us);

			while ((static_cast<uint64_t>(k) & 0xff) != p)
				k--;
			if (!time_block_start(p, as_of, small, &start) || start != k * small.block_us)
				mismatches++;
		}
	CHECK_EQ(mismatches, 0);
}

// Check the figures of an advice whose hot set fits and whose wrap covers the retention.
void
check_fitting_advice(const BlockAdvice &a, int32_t count, int prefix_bits, int64_t effective,
					 double rows_per_block, int64_t hot_set_bytes)
{
	CHECK_EQ(a.count, count);
	CHECK_EQ(a.prefix_bits, prefix_bits);
	CHECK_EQ(a.effective, effective);
	CHECK(a.rows_per_block == rows_per_block);
	CHECK_EQ(a.hot_set_bytes, hot_set_bytes);
	CHECK(a.hot_set_fits);
	CHECK(a.wrap_covers);
}

void
test_advice()
{
	BlockAdvice a;

	/* This machine's bulk load: 390,000 rows/s, 16 MB of shared_buffers, one day kept. */
	const int64_t mb16 = INT64_C(16777216);
	const double day = 86400e6;

	CHECK_EQ(advice_rows_that_fit(mb16), 52428);
	advise_sequence(390000, day, mb16, &a);
	CHECK_EQ(a.block_size, 32768);
	check_fitting_advice(a, 16777216, 24, 32768, 32768, 1310720);
	CHECK_EQ(static_cast<int64_t>(a.wrap_us), INT64_C(1409630292020));	/* 2^24 * 32768 / 390000 s */

	advise_time(390000, day, mb16, &a);
	CHECK_EQ(a.interval_us, 100000);
	check_fitting_advice(a, 16777216, 24, 100000, 39000, 1560000);
	CHECK(a.wrap_us == 1677721600000.0);

	/* 30 days kept: 4-byte prefixes, written as count 2^30 and 4 times the size. */
	advise_sequence(390000, 30 * day, mb16, &a);
	CHECK_EQ(a.block_size, 131072);
	CHECK_EQ(a.count, 1073741824);
	CHECK_EQ(a.prefix_bits, 32);
	CHECK_EQ(layout(a.block_size, a.count).block_size, 32768);
	CHECK(a.wrap_covers);
	advise_time(390000, 30 * day, mb16, &a);
	CHECK_EQ(a.interval_us, 400000);
	CHECK_EQ(a.count, 1073741824);
	CHECK_EQ(tlayout(a.interval_us, a.count).block_us, 100000);
	CHECK(a.wrap_covers);

	/* 500 ms with 4-byte prefixes would be written as 2 s, which rounds S' to 1 s: 200 ms. */
	advise_time(1500, 100 * day, 320000, &a);
	CHECK_EQ(a.effective, 200000);
	CHECK_EQ(a.interval_us, 800000);
	CHECK_EQ(a.prefix_bits, 32);
	CHECK_EQ(tlayout(a.interval_us, a.count).block_us, 200000);
	advise_time(1500, day, 320000, &a);		/* with one day kept, 3 bytes and 500 ms */
	CHECK_EQ(a.effective, 500000);
	CHECK_EQ(a.interval_us, 500000);
	CHECK_EQ(a.prefix_bits, 24);

	/* A slow table and 2 GB: long blocks, one prefix byte. */
	advise_time(10, 7 * day, INT64_C(2147483648), &a);
	CHECK_EQ(a.interval_us, INT64_C(500000000000));		/* 500000 s: 5 M rows, 6.7 M fit */
	CHECK_EQ(a.prefix_bits, 8);
	CHECK_EQ(a.count, 256);
	advise_sequence(10, 7 * day, INT64_C(2147483648), &a);
	CHECK_EQ(a.block_size, 4194304);
	CHECK_EQ(a.prefix_bits, 8);

	/* Memory too small for one row: the smallest blocks, flagged as not fitting. */
	advise_sequence(1000, day, 100, &a);
	CHECK_EQ(a.effective, 1);
	CHECK_EQ(a.prefix_bits, 32);	/* 2^24 one-row blocks last 4.7 hours at 1000 rows/s */
	CHECK_EQ(a.block_size, 4);
	CHECK(!a.hot_set_fits);
	advise_time(1000, day, 100, &a);
	CHECK_EQ(a.effective, 1000);
	CHECK_EQ(a.interval_us, 4000);
	CHECK(a.rows_per_block == 1);
	CHECK(!a.hot_set_fits);
	CHECK(a.wrap_covers);			/* 2^32 ms: 49.7 days */

	/* A rate no 4-byte prefix can wrap slowly enough for: flagged. */
	advise_sequence(1e12, 3650 * day, mb16, &a);
	CHECK_EQ(a.prefix_bits, 32);
	CHECK(!a.wrap_covers);

	/* The caps: 2^28 rows, 5 * 10^8 s. */
	advise_sequence(1, day, INT64_MAX, &a);
	CHECK_EQ(a.block_size, 268435456);
	CHECK_EQ(a.count, 256);
	advise_time(1e-6, 1e9 * 365 * day, INT64_MAX, &a);
	CHECK_EQ(a.effective, INT64_C(500000000000000));
	CHECK_EQ(a.interval_us, INT64_C(2000000000000000));
	CHECK_EQ(a.prefix_bits, 32);
}

}							// namespace

int
main()
{
	test_format_vectors();
	test_layouts();
	test_bad_arguments();
	test_negative_and_extreme_values();
	test_encode_decode();
	test_interval_length();
	test_time_layouts();
	test_interval_form_agrees_with_integer_form();
	test_time_prefix_vectors();
	test_time_block_start();
	test_advice();
	return check::finish("blocks");
}
