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
constexpr int32_t block_default = 65536;
constexpr unsigned version_4 = 0x4;

enum class BlockStatus
{
	ok,
	bad_block_size,
	bad_block_count
};

// What one (block size, block count) pair means.
struct BlockLayout
{
	int			prefix_bits;	/* B: 8, 16, 24 or 32 */
	int64_t		block_size;		/* S': values (or seconds) per prefix */
};

// Compute the layout of (block_size, block_count); both must be at least 1.
BlockStatus block_layout(int32_t block_size, int32_t block_count, BlockLayout *out) noexcept;

// Return the number of prefix bits for a block count of at least 1.
int			prefix_bits_for(int32_t block_count) noexcept;

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
uint64_t	block_prefix(int64_t v, const BlockLayout &l) noexcept;

// Return the value a sequence variant id is made from: nextval's result minus one, wrapping.
int64_t		sequence_input(int64_t nextval) noexcept;

// Return how many random bytes encode_block needs: those after the prefix.
constexpr std::size_t
block_random_len(const BlockLayout &l) noexcept
{
	return uuid_len - static_cast<std::size_t>(l.prefix_bits / 8);
}

// Write an id: the prefix of v, then block_random_len(l) bytes of random with version 4 and variant set.
void		encode_block(int64_t v, const BlockLayout &l, const uint8_t *random,
						 uint8_t out[uuid_len]) noexcept;

// Read the block number (the prefix) an id carries for a block count of at least 1.
uint64_t	decode_block(const uint8_t in[uuid_len], int32_t block_count) noexcept;

}							// namespace locality_uuid
