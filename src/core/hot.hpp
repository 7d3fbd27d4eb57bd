// Shard-key UUID compatible with .NET HotGuid: bit layout, boundaries, machine hash, clock ticks and explicit-time counters.
#pragma once

#include "allocation.hpp"
#include "fields.hpp"
#include "state.hpp"

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
constexpr uint32_t    hot_counter_max = (UINT32_C(1) << 24) - 1;

// The fields of one shard-key id. seconds is Unix time mod 2^32; machine is digest bytes 0..2.
struct HotFields
{
	uint32_t seconds;
	uint8_t  machine[hot_machine_len];
	uint16_t process;
	uint32_t counter;
	uint32_t shard;
};

/*
 * The 24-bit counter has two halves that never meet. Ids made on the wall clock count time in
 * ticks of 2^-23 second: the time field holds a tick's whole second and the counter its tick
 * within the second (bit 23 clear), so the pair is one 55-bit clock reading. Ids made at an
 * explicit time (backfills) set bit 23 and carry an allocation number n of 39 bits, which the
 * glue draws from a WAL-logged sequence in ranges (HotGenerator::next_at), split in two:
 *
 *   counter (24 bits) = 0x800000 | (n & 0x7FFFFF)
 *   process (16 bits) = 0xFFFF - (n >> 23)
 *
 * The process field names no process in an explicit id. Complemented, it keeps these ids apart
 * from those of 1.3 and before (which carried the backend's slot, a small number, and n mod
 * 2^23) until (65535 - slot) * 2^23 numbers have been drawn. n is never reduced: a number of
 * 2^39 or more is refused (54000).
 */
constexpr int64_t  hot_ticks_per_second = INT64_C(1) << 23;
constexpr uint32_t hot_explicit_bit = UINT32_C(1) << 23;
constexpr uint32_t hot_allocation_mask = hot_explicit_bit - 1; /* n's bits in the counter */
constexpr int      hot_allocation_bits = 39;
constexpr uint64_t hot_allocation_limit = UINT64_C(1) << hot_allocation_bits;

// Give the counter and process fields of the explicit id carrying allocation number n; false if n >= 2^39.
constexpr bool
hot_explicit_fields(uint64_t n, uint32_t *counter, uint16_t *process) noexcept
{
	if (n >= hot_allocation_limit)
		return false;
	*counter = hot_explicit_bit | static_cast<uint32_t>(n & hot_allocation_mask);
	*process = static_cast<uint16_t>(0xFFFF - (n >> 23));
	return true;
}

// Return the allocation number of an explicit id's fields (its counter has hot_explicit_bit).
constexpr uint64_t
hot_explicit_allocation(uint32_t counter, uint16_t process) noexcept
{
	return (static_cast<uint64_t>(0xFFFF - process) << 23) | (counter & hot_allocation_mask);
}

// What the glue supplies for one generated id: the wall clock in ticks (0 or later: the glue
// refuses a clock outside 1970 .. 9999), identity, and the marks of the backend's slot (null:
// its own).
struct HotEnvironment
{
	int64_t    wall_tick;
	uint8_t    machine[hot_machine_len];
	uint16_t   process;
	SlotMarks *slot;
};

// Convert a clock reading (Unix seconds and nanoseconds, 0 <= seconds <= clock_seconds_max) to ticks (floor).
constexpr int64_t
hot_tick_at(int64_t unix_seconds, int64_t nanoseconds) noexcept
{
	return unix_seconds * hot_ticks_per_second + nanoseconds * hot_ticks_per_second / 1000000000;
}

// Convert Unix nanoseconds to ticks of 2^-23 second (floor).
constexpr int64_t
hot_tick_of(int64_t unix_ns) noexcept
{
	int64_t s = floor_div(unix_ns, 1000000000);

	return s * hot_ticks_per_second + (unix_ns - s * 1000000000) * hot_ticks_per_second / 1000000000;
}

// Reduce Unix seconds to the 32-bit time field: mod 2^32, so 2106 wraps to 0 and 1969 to 2^32 - 1.
constexpr uint32_t
hot_seconds(int64_t unix_seconds) noexcept
{
	return static_cast<uint32_t>(static_cast<uint64_t>(unix_seconds));
}

// Write the 16 bytes of a shard-key id; false if the counter exceeds 24 bits.
bool encode_hot(const HotFields &f, uint8_t out[uuid_len]) noexcept;

// Write the explicit-time id of shard at a Unix second carrying allocation number n; false if n >= 2^39.
bool encode_hot_explicit(uint32_t shard, int64_t unix_seconds, const uint8_t machine[hot_machine_len],
						 uint64_t n, uint8_t out[uuid_len]) noexcept;

// Read the fields of a shard-key id (every uuid decodes: the layout has no version digit).
void decode_hot(const uint8_t in[uuid_len], HotFields *f) noexcept;

// True if a shard-key id's counter is an explicit-time id's (hot_explicit_bit set), false for a clock id's.
constexpr bool
hot_counter_explicit(uint32_t counter) noexcept
{
	return (counter & hot_explicit_bit) != 0;
}

// Return the clock tick a clock id's second and counter read as, in Unix microseconds (truncated).
constexpr int64_t
hot_clock_us(const HotFields &f) noexcept
{
	return static_cast<int64_t>(f.seconds) * 1000000 + static_cast<int64_t>(f.counter) * 1000000 / hot_ticks_per_second;
}

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
void hot_boundary(uint32_t seconds, uint8_t out[uuid_len]) noexcept;

/* The last value of the 32-bit time field: 2106-02-07 06:28:15 UTC. */
constexpr int64_t hot_seconds_max = INT64_C(4294967295);

/*
 * Every uuid is a shard-key id (the layout has no version), the nil and the max uuid included,
 * so no key can stand for "no id": when none is made in the range the keys are absent.
 */

// Write the smallest key of the ids made at or after Unix microsecond us (made_unit); false
// (nothing written) when none is.
bool hot_made_since(int64_t us, uint8_t out[uuid_len]) noexcept;

// Write the largest key of the ids made before Unix microsecond us (made_unit); false
// (nothing written) when none is.
bool hot_made_before(int64_t us, uint8_t out[uuid_len]) noexcept;

// True if the id's second (hot_uuid_timestamp's) is at or after since_us and before before_us.
constexpr bool
hot_made(const uint8_t in[uuid_len], int64_t since_us, int64_t before_us) noexcept
{
	int64_t seconds = hot_time_field(in);

	return seconds >= made_unit(since_us, 1000000, hot_seconds_max) &&
		seconds < made_unit(before_us, 1000000, hot_seconds_max);
}

/*
 * Machine hash, as HotGuid derives it: the first hot_machine_len bytes of the MD5 digest of
 * a name, in digest order (encode_hot stores them at bytes 5, 4, 7). The name is
 * locality_uuid.machine_name exactly as given, dots included, when it is set. When it is
 * empty, the name is the host name up to its first dot, since HotGuid hashes .NET's
 * Environment.MachineName, which on Unix is that; it is empty (MD5 of no bytes) when the
 * host name is empty or starts with a dot.
 */

// True if machine_name (null or empty) leaves the machine hash to the host name.
constexpr bool
hot_machine_from_host(const char *machine_name) noexcept
{
	return machine_name == nullptr || machine_name[0] == '\0';
}

// Return how many bytes of a host name the machine hash reads: those before its first dot.
constexpr std::size_t
hot_host_name_length(const char *host_name) noexcept
{
	std::size_t len = 0;

	while (host_name[len] != '\0' && host_name[len] != '.')
		len++;
	return len;
}

// Write the machine hash of machine_name, or of host_name (read only when
// hot_machine_from_host(machine_name), then not null); Status::digest_failed leaves out unchanged.
Status hot_machine_hash(const char *machine_name, const char *host_name, Md5Function md5,
						uint8_t out[hot_machine_len]) noexcept;

/*
 * The generator of one backend, and the rules that keep its ids unique. Its position in time
 * is written through to the marks of its backend slot (SlotMarks), which the glue keeps in
 * memory shared by the cluster's backends when it can; without shared state (env.slot null)
 * the generator keeps marks of its own, and the rules below hold for one backend only.
 *
 * Wall-clock ids: every id takes a tick of its own, the clock's, or, if this slot already
 * used that one (a burst faster than the clock, a coarse or frozen clock, a clock that stepped
 * back), the tick after the last one used: nothing ever waits. A backend's first tick comes
 * after every tick of the earlier backends of its slot (SlotMarks::next_tick), so the ticks of
 * one slot are all distinct whatever the clock does, and one backend's ids sort in the order
 * they were made. The process field (the slot) tells slots apart.
 *
 * This is where the counter departs from HotGuid, whose counter starts at a random value
 * below 500000 and adds 1: two backends that held one slot in the same second would repeat
 * each other's ids.
 *
 * Explicit-time ids (backfills): an id at the second of the next tick is a wall-clock id.
 * Any other second takes the next number of the backend's allocations (Allocator), which the
 * glue feeds with ranges of a WAL-logged sequence of the database, so no number is handed out
 * twice, before or after a restart, a crash, a promotion or pg_upgrade. Hence an explicit id
 * never equals a wall-clock id (bit 23 differs), nor another explicit id of the database
 * (their numbers differ, and each is carried whole); when the numbers are used up, the call
 * is refused.
 */
class HotGenerator
{
  public:
	// Make the next id for shard on the wall clock.
	void next(uint32_t shard, const HotEnvironment &env, uint8_t out[uuid_len]) noexcept;

	// Make the next id for shard at an explicit Unix second, taking its number from
	// allocations; needs_allocations asks the caller for a range and to call again,
	// exhausted says that no number is left.
	AllocationStatus next_at(uint32_t shard, int64_t unix_seconds, const HotEnvironment &env,
							 Allocator *allocations, uint8_t out[uuid_len]) noexcept;

  private:
	SlotMarks *start(const HotEnvironment &env) noexcept;

	bool      started_ = false;
	int64_t   next_tick_ = 0;
	SlotMarks own_slot_ = {0, 0};
};

} // namespace locality_uuid
