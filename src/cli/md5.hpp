// MD5 (RFC 1321) for the command-line tool, which has no PostgreSQL to lend it one: the seed and machine-hash digests.
#pragma once

#include "core/fields.hpp"

namespace locality_uuid
{

// Compute the MD5 digest of len bytes of text; always true (an Md5Function).
bool md5_digest(const char *text, std::size_t len, uint8_t digest[digest_len]) noexcept;

} // namespace locality_uuid
