// Core unit tests of the block-wrapped sequential UUIDs: SPEC.md 2 vectors, layouts for every prefix width, encoding.
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

// Return the prefix of the id made from what nextval returned, as the SPEC's vectors give it.
uint64_t
prefix_of_nextval(int64_t n, int32_t size, int32_t count)
{
	return block_prefix(sequence_input(n), layout(size, count));
}

void
test_spec_vectors()
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
	struct
	{
		int32_t		size;
		int32_t		count;
		int			bits;
		int64_t		per_block;
		int64_t		wrap;
	}			cases[] = {
		{65536, 1, 8, 256, 65536},
		{65536, 2, 8, 512, 131072},
		{65536, 256, 8, 65536, 16777216},
		{65536, 257, 16, 257, 16842752},
		{65536, 65536, 16, 65536, 4294967296LL},
		{65536, 65537, 24, 256, 4294967296LL},
		{65536, 16777216, 24, 65536, 1099511627776LL},
		{65536, 16777217, 32, 256, 1099511627776LL},
		{65536, 1073741825, 32, 16384, 70368744177664LL},
		{65536, 2147483647, 32, 32767, 140733193388032LL},
		{1, 1, 8, 1, 256},
		{1, 2147483647, 32, 1, 4294967296LL},
		{100, 100, 8, 39, 9984},
		{256, 65536, 16, 256, 16777216},
		{65536, 256, 8, 65536, 16777216},
		{256, 256, 8, 256, 65536},
		{60, 65536, 16, 60, 3932160},
		{2147483647, 1, 8, 8388607, 2147483392},
		{2147483647, 2147483647, 32, 1073741823, 4611686014132420608LL},
	};

	for (const auto &c : cases)
	{
		BlockLayout l = layout(c.size, c.count);

		CHECK_EQ(l.prefix_bits, c.bits);
		CHECK_EQ(l.block_size, c.per_block);
		CHECK_EQ(block_wrap(l), c.wrap);
		CHECK_EQ(block_prefixes(l), UINT64_C(1) << c.bits);
		CHECK_EQ(block_random_len(l), static_cast<std::size_t>(16 - c.bits / 8));
	}

	/* Every width boundary of the block count. */
	CHECK_EQ(prefix_bits_for(1), 8);
	CHECK_EQ(prefix_bits_for(256), 8);
	CHECK_EQ(prefix_bits_for(257), 16);
	CHECK_EQ(prefix_bits_for(65536), 16);
	CHECK_EQ(prefix_bits_for(65537), 24);
	CHECK_EQ(prefix_bits_for(16777216), 24);
	CHECK_EQ(prefix_bits_for(16777217), 32);
	CHECK_EQ(prefix_bits_for(1073741825), 32);
	CHECK_EQ(prefix_bits_for(INT32_MAX), 32);
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

}							// namespace

int
main()
{
	test_spec_vectors();
	test_layouts();
	test_bad_arguments();
	test_negative_and_extreme_values();
	test_encode_decode();
	return check::finish("blocks");
}
