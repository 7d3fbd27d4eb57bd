// Block-wrapped sequential UUIDs: layout, prefix, encoding and decoding.
#include "blocks.hpp"

namespace locality_uuid
{

int
prefix_bits_for(int32_t block_count) noexcept
{
	/* B = 8 * ceil(b / 8) with b the smallest b >= 1 such that 2^b >= C. */
	int			bits = 8;

	while (bits < 32 && (INT64_C(1) << bits) < block_count)
		bits += 8;
	return bits;
}

BlockStatus
block_layout(int32_t block_size, int32_t block_count, BlockLayout *out) noexcept
{
	if (block_size < 1)
		return BlockStatus::bad_block_size;
	if (block_count < 1)
		return BlockStatus::bad_block_count;

	int			bits = prefix_bits_for(block_count);
	int64_t		per_block = (static_cast<int64_t>(block_size) * block_count) >> bits;

	out->prefix_bits = bits;
	out->block_size = per_block > 1 ? per_block : 1;
	return BlockStatus::ok;
}

uint64_t
block_prefix(int64_t v, const BlockLayout &l) noexcept
{
	/* C++ division truncates toward zero, as the reference's does. */
	return static_cast<uint64_t>(v / l.block_size) & (block_prefixes(l) - 1);
}

int64_t
sequence_input(int64_t nextval) noexcept
{
	/* INT64_MIN - 1 wraps to INT64_MAX, as it does (by accident) in the reference. */
	return static_cast<int64_t>(static_cast<uint64_t>(nextval) - 1);
}

void
encode_block(int64_t v, const BlockLayout &l, const uint8_t *random, uint8_t out[uuid_len]) noexcept
{
	int			prefix_len = l.prefix_bits / 8;

	put_be(out, block_prefix(v, l), prefix_len);
	for (std::size_t i = static_cast<std::size_t>(prefix_len); i < uuid_len; i++)
		out[i] = random[i - prefix_len];
	out[6] = static_cast<uint8_t>((out[6] & 0x0F) | (version_4 << 4));
	out[8] = static_cast<uint8_t>((out[8] & 0x3F) | 0x80);
}

uint64_t
decode_block(const uint8_t in[uuid_len], int32_t block_count) noexcept
{
	return get_be(in, prefix_bits_for(block_count) / 8);
}

}							// namespace locality_uuid
