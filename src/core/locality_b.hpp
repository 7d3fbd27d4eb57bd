// Locality UUID version "b": bit layout, per-backend counters and the sequential seeding rule.
#pragma once

#include "fields.hpp"

namespace locality_uuid
{

/*
 * Layout, in PostgreSQL's byte order (the order of the hex digits):
 *
 *   bytes 0..3    32-bit counter: nibble-reversed (variable mode) or big-endian (sequential)
 *   bytes 4..5    16-bit process field, big-endian
 *   byte  6       high nibble: version digit 'b'; low nibble: node bits 27..24
 *   bytes 7..9    node bits 23..0 (by default the low 28 bits of the MAC)
 *   bytes 10..15  Unix time in milliseconds, low 48 bits, big-endian
 *
 * No RFC 4122 variant bits: byte 8 carries node data.
 */
constexpr unsigned version_b = 0xB;
constexpr uint32_t variable_step = 198491317;
constexpr uint32_t node_max = (UINT32_C(1) << 28) - 1;
constexpr uint64_t time_ms_max = (UINT64_C(1) << 48) - 1;
constexpr int64_t bucket_ms = 10 * 60 * 1000;
constexpr std::size_t bucket_text_len = 11;
constexpr std::size_t digest_len = 16;

enum class CounterMode
{
	variable,
	sequential
};

enum class Status
{
	ok,
	node_out_of_range,
	time_out_of_range,
	random_failed,
	digest_failed
};

// The fields of one id. counter is the counter value itself, before any nibble reversal.
struct LocalityFields
{
	uint32_t	counter;
	uint16_t	process;
	uint32_t	node;
	uint64_t	time_ms;
};

// What the glue supplies for one generated id: clock, identity, and the sources of
// random bytes and MD5 digests (both may fail; the core reports that as a Status).
struct Environment
{
	uint64_t	wall_ms;
	uint16_t	process;
	uint32_t	node;
	bool		(*random_bytes) (uint8_t *buf, std::size_t len);
	bool		(*md5) (const char *text, std::size_t len, uint8_t digest[digest_len]);
};

// Reverse the order of the eight hex digits of v.
uint32_t	reverse_nibbles(uint32_t v) noexcept;

// Write the 16 bytes of a version-b id.
Status		encode_b(const LocalityFields &f, CounterMode mode, uint8_t out[uuid_len]) noexcept;

// Read a version-b id; the counter is the variable-mode reading unless mode says otherwise.
bool		decode_b(const uint8_t in[uuid_len], LocalityFields *f,
					 CounterMode mode = CounterMode::variable) noexcept;

// Return the 28-bit node of a MAC: octet 2 low nibble, octets 3, 4 and 5.
uint32_t	node_from_mac(const uint8_t mac[6]) noexcept;

// Return the 10-minute UTC bucket that a Unix time in milliseconds falls in.
int64_t		bucket_of(int64_t unix_ms) noexcept;

// Format a bucket as yyyyMMddHHm (the first 11 characters of yyyyMMddHHmm); false past year 9999.
bool		bucket_text(int64_t bucket, char out[bucket_text_len]) noexcept;

// Read the first four digest bytes as a little-endian number.
uint32_t	seed_from_digest(const uint8_t digest[digest_len]) noexcept;

/*
 * Per-backend generator state. Time never goes backwards here: a wall clock that steps
 * back is held at the last millisecond used, so within one backend two ids in the same
 * millisecond always differ in their counter. The variable counter has period 2^32 (the
 * step is odd); the sequential counter is re-seeded only when the time enters a new
 * bucket, that is at a millisecond no earlier id of this backend used.
 */
class LocalityGenerator
{
public:
	// Make the next id in the given mode.
	Status		next(CounterMode mode, const Environment &env, uint8_t out[uuid_len]) noexcept;

private:
	Status		next_variable(const Environment &env, uint32_t *counter) noexcept;
	Status		next_sequential(const Environment &env, uint64_t ms, uint32_t *counter) noexcept;

	uint64_t	last_ms_ = 0;
	uint32_t	var_value_ = 0;
	bool		var_seeded_ = false;
	uint32_t	seq_value_ = 0;
	int64_t		seq_bucket_ = 0;
	bool		seq_seeded_ = false;
};

}							// namespace locality_uuid
