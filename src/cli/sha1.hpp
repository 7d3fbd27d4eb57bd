// SHA-1 (FIPS 180-4) for the command-line tool's name-based version 5 uuids: one-shot digest, no heap.
#pragma once

#include <cstddef>
#include <cstdint>

namespace locality_uuid
{

constexpr std::size_t sha1_len = 20;

// Compute the SHA-1 digest of len bytes of text.
void sha1_digest(const char *text, std::size_t len, uint8_t digest[sha1_len]) noexcept;

} // namespace locality_uuid
