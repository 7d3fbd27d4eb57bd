// Shard-key UUID compatible with .NET HotGuid: bit layout, boundaries, machine hash, clock ticks and explicit-time counters.
#pragma once

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

/*
 * Ids count time in ticks of 2^-24 second: the time field holds a tick's whole second and
 * the counter field the tick within it, so the pair is one 56-bit clock reading.
 */
constexpr int64_t hot_ticks_per_second = INT64_C(1) << 24;

// The last Unix second of the clock read (2^38 - 1: year 10680); ticks then stay below 2^62,
// so a held tick can step on for 2^62 ids without overflow. Later clocks are refused.
constexpr int64_t hot_clock_seconds_max = (INT64_C(1) << 38) - 1;

// What the glue supplies for one generated id: the wall clock in ticks (0 or later: the glue
// refuses a clock before 1970), identity, and the marks of the backend's slot (null: its own).
struct HotEnvironment
{
	int64_t		wall_tick;
	uint8_t		machine[hot_machine_len];
	uint16_t	process;
	SlotMarks  *slot;
};

// Outcome of making an id: done, or the explicit second has no counter value left.
enum class HotStatus
{
	ok,
	second_full
};

// Convert a clock reading (Unix seconds and nanoseconds, 0 <= seconds <= hot_clock_seconds_max) to ticks (floor).
constexpr int64_t
hot_tick_at(int64_t unix_seconds, int64_t nanoseconds) noexcept
{
	return unix_seconds * hot_ticks_per_second + nanoseconds * hot_ticks_per_second / 1000000000;
}

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

// Write the machine hash of machine_name, or of host_name (read only when
// hot_machine_from_host(machine_name), then not null); Status::digest_failed leaves out unchanged.
Status		hot_machine_hash(const char *machine_name, const char *host_name, Md5Function md5,
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
 * Explicit-time ids (backfills) have a real per-second counter. An id at the second the next
 * tick falls in is a wall-clock id. For any other second the counter is (first + used) mod
 * 2^24, where the second's first allocation `first` comes from the slot's count of explicit
 * ids (SlotMarks::explicit_next) when the second is first seen: 2^24 distinct ids per second,
 * then second_full. A second that this backend's clock ids went through (they are over once
 * the clock has left it) is remembered the same way, with the counters its clock ids left free:
 * above the last tick used in it, then below the first; explicit ids there never meet them.
 * A slot's allocations start from the clock's tick when it has none yet (new shared state,
 * or state of this backend only: then backends of one slot differ by the time between them,
 * not by construction). The backend remembers up to explicit_entries seconds (direct-mapped
 * on a hash of the time field: a new second evicts the one in its entry); a second that is
 * forgotten and comes back starts a new allocation after every earlier one,
 * so its ids repeat none of its earlier ones unless 2^24 or more explicit ids of the slot lie
 * between its first id and the new one. The same holds between backends of one slot.
 */
class HotGenerator
{
public:
	// Make the next id for shard on the wall clock.
	HotStatus	next(uint32_t shard, const HotEnvironment &env, uint8_t out[uuid_len]) noexcept;

	// Make the next id for shard at an explicit Unix second.
	HotStatus	next_at(uint32_t shard, int64_t unix_seconds, const HotEnvironment &env,
						uint8_t out[uuid_len]) noexcept;

	static constexpr std::size_t explicit_entries = 256;

private:
	struct ExplicitSecond
	{
		uint32_t	second;			/* time field */
		uint32_t	first;			/* first counter value */
		uint32_t	used;			/* counter values taken: first + 0 .. first + used - 1 */
		uint32_t	capacity;		/* counter values this second may take */
		bool		valid;
	};

	SlotMarks  *start(const HotEnvironment &env) noexcept;
	ExplicitSecond &entry(uint32_t field) noexcept;
	void		close_wall_second() noexcept;

	bool		started_ = false;
	int64_t		next_tick_ = 0;
	bool		wall_open_ = false; /* the second of the last clock id, and its first and last tick */
	int64_t		wall_second_ = 0;
	uint32_t	wall_lo_ = 0;
	uint32_t	wall_hi_ = 0;
	uint64_t	explicit_next_ = 0;
	ExplicitSecond explicit_[explicit_entries] = {};
	SlotMarks	own_slot_ = {0, 0, 0};
};

}							// namespace locality_uuid
