// The keyed façade of version 7 ids (uuidv47's mapping): SipHash-2-4 and the exact, invertible map between a version 7 id and a version-4-looking façade.
#pragma once

#include "fields.hpp"
#include "v7.hpp"

namespace locality_uuid
{

/*
 * A façade is the version 7 id with its 48-bit millisecond field masked and its version
 * nibble set to 4; every other bit is the id's, so the façade is as unique as the id and
 * the map is exact both ways. In byte order:
 *
 *   bytes 0..5    unix_ts_ms XOR mask, where mask = low 48 bits of SipHash-2-4(key, message)
 *   byte  6       version 4 in the façade, 7 in the id (high nibble); rand_a bits 11..8
 *   bytes 7..15   the id's, variant bits included (both are RFC 9562's, 10)
 *
 * The 10-byte message holds the id's 74 bits after the time, version and variant, as
 * uuidv47 takes them: byte 6's low nibble, byte 7, byte 8's low six bits, bytes 9..15. They
 * are the same bits in the id and in its façade, so one mask serves both directions.
 *
 * The key is 16 bytes, k0 then k1, each a little-endian 64-bit word (uuidv47's bytea key);
 * its text form is those 16 bytes as 32 hexadecimal digits.
 */
constexpr std::size_t facade_key_len = 16;
constexpr std::size_t facade_message_len = 10;
constexpr std::size_t facade_key_hex_len = 2 * facade_key_len;

// SipHash's 128-bit key as two 64-bit words.
struct FacadeKey
{
	uint64_t k0;
	uint64_t k1;
};

// Read a key from its 16 bytes: k0 from bytes 0..7, k1 from bytes 8..15, each little-endian.
constexpr FacadeKey
facade_key(const uint8_t bytes[facade_key_len]) noexcept
{
	return FacadeKey{get_le(bytes, 8), get_le(bytes + 8, 8)};
}

// Read a key from exactly 32 hexadecimal digits (either case) of text; false if text is not that.
bool parse_facade_key(const char *text, std::size_t len, FacadeKey *key) noexcept;

// Return SipHash-2-4 of len bytes of message under key.
uint64_t siphash24(const uint8_t *message, std::size_t len, FacadeKey key) noexcept;

// True if the uuid has RFC 9562's variant and version nibble version.
constexpr bool
rfc_version(const uint8_t *u, unsigned version) noexcept
{
	return rfc_variant(u) && version_nibble(u) == version;
}

// Write the façade of a version 7 id; false (out untouched) if id is not version 7 of RFC 9562's variant.
bool to_facade(const uint8_t id[uuid_len], FacadeKey key, uint8_t out[uuid_len]) noexcept;

// Write the version 7 id of a façade; false (out untouched) if facade is not version 4 of RFC 9562's variant.
bool from_facade(const uint8_t facade[uuid_len], FacadeKey key, uint8_t out[uuid_len]) noexcept;

} // namespace locality_uuid
