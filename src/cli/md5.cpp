// MD5 (RFC 1321): one-shot digest of a byte string, no heap.
#include "md5.hpp"

namespace locality_uuid
{

namespace
{

/* Per-step additive constants: floor(2^32 * |sin(i + 1)|), RFC 1321 section 3.4. */
constexpr uint32_t sine_table[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

/* Left-rotation amounts: four per round, repeated over the round's 16 steps. */
constexpr int rotations[4][4] = {
	{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

constexpr uint32_t
rotate_left(uint32_t x, int n) noexcept
{
	return (x << n) | (x >> (32 - n));
}

// Fold one 64-byte block into the state a, b, c, d.
void
md5_block(uint32_t state[4], const uint8_t block[64]) noexcept
{
	uint32_t m[16];
	uint32_t a = state[0],
			 b = state[1],
			 c = state[2],
			 d = state[3];

	for (int i = 0; i < 16; i++)
		m[i] = static_cast<uint32_t>(get_le(block + 4 * i, 4));
	for (int i = 0; i < 64; i++)
	{
		int      round = i / 16;
		uint32_t f;
		int      k;

		/* The round's function and the order in which it reads the block's words. */
		switch (round)
		{
			case 0:
				f = (b & c) | (~b & d);
				k = i;
				break;
			case 1:
				f = (b & d) | (c & ~d);
				k = (5 * i + 1) % 16;
				break;
			case 2:
				f = b ^ c ^ d;
				k = (3 * i + 5) % 16;
				break;
			default:
				f = c ^ (b | ~d);
				k = (7 * i) % 16;
				break;
		}

		uint32_t next = b + rotate_left(a + f + sine_table[i] + m[k], rotations[round][i % 4]);

		a = d;
		d = c;
		c = b;
		b = next;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
}

} // namespace

bool
md5_digest(const char *text, std::size_t len, uint8_t digest[digest_len]) noexcept
{
	uint32_t       state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
	const uint8_t *p = reinterpret_cast<const uint8_t *>(text);
	std::size_t    rest = len;
	uint8_t        tail[128] = {};

	for (; rest >= 64; rest -= 64, p += 64)
		md5_block(state, p);

	/* Padding: a 1 bit, zeros to 56 mod 64 bytes, then the length in bits, little-endian. */
	for (std::size_t i = 0; i < rest; i++)
		tail[i] = p[i];
	tail[rest] = 0x80;

	std::size_t tail_len = rest < 56 ? 64 : 128;

	put_le(tail + tail_len - 8, static_cast<uint64_t>(len) * 8, 8);
	md5_block(state, tail);
	if (tail_len == 128)
		md5_block(state, tail + 64);
	for (int i = 0; i < 4; i++)
		put_le(digest + 4 * i, state[i], 4);
	return true;
}

} // namespace locality_uuid
