// Shard-key UUID compatible with .NET HotGuid: bit layout, boundaries and the per-backend counter.
#pragma once

#include "fields.hpp"

namespace locality_uuid
{

/*
 * Layout, in PostgreSQL's byte order (the order of the hex digits), as HotGuid's bytes
 * read once a driver stores the Guid in text order:
 *
 *   bytes 0..3    Unix time in whole seconds, mod 2^32, big-endian (ids sort by second)
 *   bytes 4, 5    machine hash: MD5 digest bytes 1, 0
 *   byte  6       process field, high byte
 *   byte  7       machine hash: MD5 digest byte 2
 *   byte  8       process field, low byte
 *   bytes 9..11   24-bit counter, big-endian
 *   bytes 12..15  32-bit shard key, little-endian (byte 12 is the least significant)
 *
 * Text form TTTTTTTT-m1m0-PHm2-PLC2-C1C0S0S1S2S3. No version digit, no variant bits.
 */
constexpr std::size_t hot_machine_len = 3;
constexpr uint32_t hot_counter_max = (UINT32_C(1) << 24) - 1;
constexpr uint32_t hot_counter_start_below = 500000;

// The fields of one shard-key id. seconds is Unix time mod 2^32; machine is digest bytes 0..2.
struct HotFields
{
	uint32_t	seconds;
	uint8_t		machine[hot_machine_len];
	uint16_t	process;
	uint32_t	counter;
	uint32_t	shard;
};

// What the glue supplies for one generated id: clock in whole Unix seconds (floor),
// identity, and the source of random bytes for the counter's start (may fail).
struct HotEnvironment
{
	int64_t		wall_seconds;
	uint8_t		machine[hot_machine_len];
	uint16_t	process;
	bool		(*random_bytes) (uint8_t *buf, std::size_t len);
};

// Reduce Unix seconds to the 32-bit time field: mod 2^32, so 2106 wraps to 0 and 1969 to 2^32 - 1.
constexpr uint32_t
hot_seconds(int64_t unix_seconds) noexcept
{
	return static_cast<uint32_t>(static_cast<uint64_t>(unix_seconds));
}

// Write the 16 bytes of a shard-key id; false if the counter exceeds 24 bits.
bool		encode_hot(const HotFields &f, uint8_t out[uuid_len]) noexcept;

// Read the fields of a shard-key id (every uuid decodes: the layout has no version digit).
void		decode_hot(const uint8_t in[uuid_len], HotFields *f) noexcept;

// Read only the shard key: bytes 12..15, little-endian.
constexpr uint32_t
hot_shard_key(const uint8_t in[uuid_len]) noexcept
{
	return static_cast<uint32_t>(get_le(in + 12, 4));
}

// Read only the time field: bytes 0..3, big-endian.
constexpr uint32_t
hot_time_field(const uint8_t in[uuid_len]) noexcept
{
	return static_cast<uint32_t>(get_be(in, 4));
}

// Write the smallest id of a second: its time field, every other byte zero.
void		hot_boundary(uint32_t seconds, uint8_t out[uuid_len]) noexcept;

/*
 * Per-backend generator. The counter starts at a random value below 500000 and adds 1
 * (mod 2^24) before each id, shared by both kinds of id, as HotGuid's per-process counter.
 *
 * Ids on the wall clock keep generation order in uuid order: time never goes backwards
 * (a clock that steps back is held at the last second used), and when the counter wraps
 * within a second, that is when it is not above the last counter used in that second,
 * the id moves on to the next second. So within one time value this backend's counters
 * strictly increase: no two of its clock ids are equal and each sorts after the last.
 * The clock runs ahead only while a backend sustains more than 2^24 ids a second.
 *
 * Ids at an explicit time (backfills) carry exactly that second and do not touch the
 * held clock; they are unique within a backend while fewer than 2^24 ids separate two
 * ids of the same second.
 */
class HotGenerator
{
public:
	// Make the next id for shard on the wall clock; false if the random source failed.
	bool		next(uint32_t shard, const HotEnvironment &env, uint8_t out[uuid_len]) noexcept;

	// Make the next id for shard at an explicit Unix second; false if the random source failed.
	bool		next_at(uint32_t shard, int64_t unix_seconds, const HotEnvironment &env,
						uint8_t out[uuid_len]) noexcept;

private:
	bool		next_counter(const HotEnvironment &env, uint32_t *counter) noexcept;

	uint32_t	counter_ = 0;
	bool		seeded_ = false;
	int64_t		last_seconds_ = 0;
	uint32_t	last_counter_ = 0;
	bool		clock_used_ = false;
};

}							// namespace locality_uuid
