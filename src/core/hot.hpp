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

// The fields of one shard-key id. seconds is Unix time mod 2^32; machine is digest bytes 0..2.
struct HotFields
{
	uint32_t	seconds;
	uint8_t		machine[hot_machine_len];
	uint16_t	process;
	uint32_t	counter;
	uint32_t	shard;
};

// What the glue supplies for one generated id: the wall clock in Unix nanoseconds and identity.
struct HotEnvironment
{
	int64_t		wall_ns;
	uint8_t		machine[hot_machine_len];
	uint16_t	process;
};

// Outcome of making an id: done, or come back once the clock has moved on.
enum class HotStatus
{
	ok,
	wait
};

/*
 * Ids count time in ticks of 2^-24 second: the time field holds a tick's whole second and
 * the counter field the tick within it, so the pair is one 56-bit clock reading.
 */
constexpr int64_t hot_ticks_per_second = INT64_C(1) << 24;

// Give up waiting for a clock that is this far behind the last tick used (about 1 ms).
constexpr int64_t hot_wait_limit = hot_ticks_per_second / 1000;

// Convert Unix nanoseconds to ticks of 2^-24 second (floor).
constexpr int64_t
hot_tick_of(int64_t unix_ns) noexcept
{
	int64_t		s = floor_div(unix_ns, 1000000000);

	return s * hot_ticks_per_second + (unix_ns - s * 1000000000) * hot_ticks_per_second / 1000000000;
}

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
 * Per-backend generator. Every id takes a tick of its own: the current tick if this backend
 * has not used it, else the caller waits for the next (status wait: read the clock again).
 * A tick is never later than the clock reading it came from, and a backend's first tick
 * comes after the first reading it sees, that is after it took its backend slot. So the
 * ticks of one slot, through every backend that holds it in turn, are all distinct, and one
 * backend's ids sort in generation order; the process field (the slot) tells slots apart.
 * A clock that steps back by more than hot_wait_limit is not waited for: the backend runs on
 * from its last tick until the clock catches up (unique and ordered within the backend).
 *
 * This is where the counter departs from HotGuid, whose counter starts at a random value
 * below 500000 and adds 1: two backends that held one slot in the same second would repeat
 * each other's ids.
 *
 * An id at an explicit time (backfills) carries that second and the sub-second part of its
 * tick. It equals a wall-clock id when the second is the tick's own; for another second, two
 * ids of one slot coincide only if their ticks are a whole number of seconds apart (odds
 * 2^-24 for a pair made more than a second apart, none for ids made within one second).
 */
class HotGenerator
{
public:
	// Make the next id for shard on the wall clock.
	HotStatus	next(uint32_t shard, const HotEnvironment &env, uint8_t out[uuid_len]) noexcept;

	// Make the next id for shard at an explicit Unix second.
	HotStatus	next_at(uint32_t shard, int64_t unix_seconds, const HotEnvironment &env,
						uint8_t out[uuid_len]) noexcept;

private:
	HotStatus	take_tick(const HotEnvironment &env, int64_t *tick) noexcept;

	int64_t		last_tick_ = 0;
	bool		clock_used_ = false;
};

}							// namespace locality_uuid
