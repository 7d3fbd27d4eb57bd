// SHA-1 (FIPS 180-4, section 6.1): one-shot digest of a byte string, no heap.
#include "sha1.hpp"

#include <cstring>

namespace locality_uuid
{

namespace
{

/* The four round constants, one per 20 steps (FIPS 180-4, 4.2.1). */
constexpr uint32_t round_constants[4] = {0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6};

/* The initial hash value (FIPS 180-4, 5.3.1). */
constexpr uint32_t initial[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};

// Rotate x left by n bits.
constexpr uint32_t
rotate_left(uint32_t x, int n) noexcept
{
	return (x << n) | (x >> (32 - n));
}

// Return step t's function of b, c and d: Ch, Parity, Maj, Parity.
constexpr uint32_t
step_function(int t, uint32_t b, uint32_t c, uint32_t d) noexcept
{
	if (t < 20)
		return (b & c) | (~b & d);
	if (t >= 40 && t < 60)
		return (b & c) | (b & d) | (c & d);
	return b ^ c ^ d;
}

// Fold one 64-byte block into the hash value h.
void
sha1_block(uint32_t h[5], const uint8_t block[64]) noexcept
{
	uint32_t w[80];
	uint32_t v[5];

	for (int t = 0; t < 16; t++)
		w[t] = (uint32_t(block[4 * t]) << 24) | (uint32_t(block[4 * t + 1]) << 16) |
			(uint32_t(block[4 * t + 2]) << 8) | uint32_t(block[4 * t + 3]);
	for (int t = 16; t < 80; t++)
		w[t] = rotate_left(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
	std::memcpy(v, h, sizeof(v));
	for (int t = 0; t < 80; t++)
	{
		uint32_t temp = rotate_left(v[0], 5) + step_function(t, v[1], v[2], v[3]) + v[4] +
			round_constants[t / 20] + w[t];

		v[4] = v[3];
		v[3] = v[2];
		v[2] = rotate_left(v[1], 30);
		v[1] = v[0];
		v[0] = temp;
	}
	for (int i = 0; i < 5; i++)
		h[i] += v[i];
}

} // namespace

void
sha1_digest(const char *text, std::size_t len, uint8_t digest[sha1_len]) noexcept
{
	const uint8_t *p = reinterpret_cast<const uint8_t *>(text);
	uint32_t       h[5];
	uint8_t        tail[128] = {};
	std::size_t    whole = len & ~std::size_t(63);
	std::size_t    rest = len - whole;
	std::size_t    tail_len = rest < 56 ? 64 : 128;
	uint64_t       bits = static_cast<uint64_t>(len) * 8;

	std::memcpy(h, initial, sizeof(h));
	for (std::size_t i = 0; i < whole; i += 64)
		sha1_block(h, p + i);

	/* Padding: the rest, a 1 bit, zeros, and the length in bits, big-endian, ending a block. */
	std::memcpy(tail, p + whole, rest);
	tail[rest] = 0x80;
	for (int i = 0; i < 8; i++)
		tail[tail_len - 1 - i] = static_cast<uint8_t>(bits >> (8 * i));
	for (std::size_t i = 0; i < tail_len; i += 64)
		sha1_block(h, tail + i);
	for (int i = 0; i < 20; i++)
		digest[i] = static_cast<uint8_t>(h[i / 4] >> (24 - 8 * (i % 4)));
}

} // namespace locality_uuid
