// The keyed façade of version 7 ids: SipHash-2-4 and the map between an id and its façade.
#include "facade.hpp"

namespace locality_uuid
{

// Rotate v left by b bits (0 < b < 64).
static constexpr uint64_t
rotl(uint64_t v, int b) noexcept
{
	return (v << b) | (v >> (64 - b));
}

// SipHash's state: four 64-bit words.
struct SipState
{
	uint64_t v0;
	uint64_t v1;
	uint64_t v2;
	uint64_t v3;
};

// Apply rounds SipRounds to the state.
static void
sip_rounds(SipState &s, int rounds) noexcept
{
	for (int i = 0; i < rounds; i++)
	{
		s.v0 += s.v1;
		s.v1 = rotl(s.v1, 13);
		s.v1 ^= s.v0;
		s.v0 = rotl(s.v0, 32);
		s.v2 += s.v3;
		s.v3 = rotl(s.v3, 16);
		s.v3 ^= s.v2;
		s.v0 += s.v3;
		s.v3 = rotl(s.v3, 21);
		s.v3 ^= s.v0;
		s.v2 += s.v1;
		s.v1 = rotl(s.v1, 17);
		s.v1 ^= s.v2;
		s.v2 = rotl(s.v2, 32);
	}
}

uint64_t
siphash24(const uint8_t *message, std::size_t len, FacadeKey key) noexcept
{
	/* The initial words: "somepseudorandomlygeneratedbytes" in ASCII, XORed with the key. */
	SipState    s = {UINT64_C(0x736f6d6570736575) ^ key.k0, UINT64_C(0x646f72616e646f6d) ^ key.k1,
					 UINT64_C(0x6c7967656e657261) ^ key.k0, UINT64_C(0x7465646279746573) ^ key.k1};
	std::size_t whole = len - len % 8;

	for (std::size_t i = 0; i < whole; i += 8)
	{
		uint64_t m = get_le(message + i, 8);

		s.v3 ^= m;
		sip_rounds(s, 2);
		s.v0 ^= m;
	}

	/* The last word: the remaining 0..7 bytes, little-endian, and the length mod 256 on top. */
	uint64_t last = (static_cast<uint64_t>(len) << 56) |
		get_le(message + whole, static_cast<int>(len - whole));

	s.v3 ^= last;
	sip_rounds(s, 2);
	s.v0 ^= last;
	s.v2 ^= 0xff;
	sip_rounds(s, 4);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

// Return the 48-bit mask of the id's (or façade's) bits after the time, version and variant.
static uint64_t
facade_mask(const uint8_t u[uuid_len], FacadeKey key) noexcept
{
	uint8_t message[facade_message_len];

	message[0] = u[6] & 0x0f;
	message[1] = u[7];
	message[2] = u[8] & 0x3f;
	for (int i = 0; i < 7; i++)
		message[3 + i] = u[9 + i];
	return siphash24(message, sizeof(message), key) & ((UINT64_C(1) << 48) - 1);
}

// Write u with its time field XORed with the mask and its version nibble set to version.
static void
facade_map(const uint8_t u[uuid_len], FacadeKey key, unsigned version, uint8_t out[uuid_len]) noexcept
{
	uint64_t time = get_be(u, 6) ^ facade_mask(u, key);

	for (std::size_t i = 6; i < uuid_len; i++)
		out[i] = u[i];
	put_be(out, time, 6);
	out[6] = static_cast<uint8_t>((u[6] & 0x0f) | (version << 4));
}

bool
to_facade(const uint8_t id[uuid_len], FacadeKey key, uint8_t out[uuid_len]) noexcept
{
	if (!rfc_version(id, 7))
		return false;
	facade_map(id, key, 4, out);
	return true;
}

bool
from_facade(const uint8_t facade[uuid_len], FacadeKey key, uint8_t out[uuid_len]) noexcept
{
	if (!rfc_version(facade, 4))
		return false;
	facade_map(facade, key, 7, out);
	return true;
}

bool
parse_facade_key(const char *text, std::size_t len, FacadeKey *key) noexcept
{
	uint8_t bytes[facade_key_len];

	if (len != facade_key_hex_len)
		return false;
	for (std::size_t i = 0; i < facade_key_len; i++)
	{
		int hi = hex_value(text[2 * i]);
		int lo = hex_value(text[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		bytes[i] = static_cast<uint8_t>(hi << 4 | lo);
	}
	*key = facade_key(bytes);
	return true;
}

} // namespace locality_uuid
