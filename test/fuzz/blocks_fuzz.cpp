// libFuzzer target over the block-wrapped core: layout, prefix and encode/decode round trips.
#include "core/blocks.hpp"

#include "require.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace locality_uuid;


namespace
{

// Pick an int32 that is mostly near the interesting edges: 0, 1, powers of two, INT32_MAX.
int32_t
edgy_int32(FuzzedDataProvider &fdp)
{
	switch (fdp.ConsumeIntegralInRange<int>(0, 3))
	{
		case 0:
			return fdp.ConsumeIntegral<int32_t>();
		case 1:
			return fdp.ConsumeIntegralInRange<int32_t>(-2, 300);
		case 2:
			{
				int			shift = fdp.ConsumeIntegralInRange<int>(0, 30);

				return static_cast<int32_t>((INT64_C(1) << shift) + fdp.ConsumeIntegralInRange<int>(-1, 1));
			}
		default:
			return INT32_MAX - fdp.ConsumeIntegralInRange<int32_t>(0, 2);
	}
}

// The SPEC's rule, computed independently in 128-bit arithmetic.
void
check_layout(int32_t s, int32_t c, BlockLayout *l, bool *valid)
{
	BlockStatus st = block_layout(s, c, l);

	*valid = false;
	if (s < 1)
	{
		REQUIRE(st == BlockStatus::bad_block_size);
		return;
	}
	if (c < 1)
	{
		REQUIRE(st == BlockStatus::bad_block_count);
		return;
	}
	REQUIRE(st == BlockStatus::ok);

	int			b = 1;

	while ((INT64_C(1) << b) < c)
		b++;

	int			want_bits = 8 * ((b + 7) / 8);
	__int128	per = (static_cast<__int128>(s) * c) >> want_bits;

	REQUIRE(l->prefix_bits == want_bits);
	REQUIRE(l->block_size == (per > 1 ? static_cast<int64_t>(per) : 1));
	REQUIRE(prefix_bits_for(c) == want_bits);
	REQUIRE(block_wrap(*l) > 0);
	REQUIRE(block_random_len(*l) == uuid_len - static_cast<std::size_t>(want_bits / 8));
	*valid = true;
}

}							// namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size)
{
	FuzzedDataProvider fdp(data, size);
	int32_t		s = edgy_int32(fdp);
	int32_t		c = edgy_int32(fdp);
	BlockLayout l;
	bool		valid;

	check_layout(s, c, &l, &valid);
	if (!valid)
		return 0;

	/* Value: a sequence value (any bigint, through nextval - 1) or a time in seconds. */
	int64_t		n = fdp.ConsumeIntegral<int64_t>();
	int64_t		v = sequence_input(n);

	REQUIRE(static_cast<uint64_t>(v) == static_cast<uint64_t>(n) - 1);

	uint64_t	mask = block_prefixes(l) - 1;
	uint64_t	want_prefix = static_cast<uint64_t>(static_cast<int64_t>(static_cast<__int128>(v) / l.block_size)) & mask;

	REQUIRE(block_prefix(v, l) == want_prefix);

	/* The next block starts S' values on (unless that overflows). */
	if (v <= INT64_MAX - l.block_size && v >= 0)
		REQUIRE(block_prefix(v + l.block_size, l) == ((want_prefix + 1) & mask));

	uint8_t		random[uuid_len] = {0};
	uint8_t		out[uuid_len];

	fdp.ConsumeData(random, block_random_len(l));
	encode_block(v, l, random, out);

	/* Round trip: the prefix reads back, the rest is the random bytes but the version and variant. */
	REQUIRE(decode_block(out, c) == want_prefix);
	REQUIRE(version_nibble(out) == version_4);
	REQUIRE((out[8] & 0xC0) == 0x80);

	std::size_t p = static_cast<std::size_t>(l.prefix_bits / 8);

	for (std::size_t i = p; i < uuid_len; i++)
	{
		uint8_t		keep = i == 6 ? 0x0F : i == 8 ? 0x3F : 0xFF;

		REQUIRE((out[i] & keep) == (random[i - p] & keep));
	}

	/* Any 16 bytes decode to their first B/8 bytes. */
	uint8_t		any[uuid_len] = {0};

	fdp.ConsumeData(any, uuid_len);
	REQUIRE(decode_block(any, c) == get_be(any, static_cast<int>(p)));
	return 0;
}
