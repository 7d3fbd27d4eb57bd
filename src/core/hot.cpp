// Shard-key UUID (HotGuid layout): encoding, decoding, boundaries, machine hash, clock ticks and explicit-time counters.
#include "hot.hpp"

namespace locality_uuid
{

bool
encode_hot(const HotFields &f, uint8_t out[uuid_len]) noexcept
{
	if (f.counter > hot_counter_max)
		return false;
	put_be(out, f.seconds, 4);
	out[4] = f.machine[1];
	out[5] = f.machine[0];
	out[6] = static_cast<uint8_t>(f.process >> 8);
	out[7] = f.machine[2];
	out[8] = static_cast<uint8_t>(f.process);
	put_be(out + 9, f.counter, 3);
	put_le(out + 12, f.shard, 4);
	return true;
}

void
decode_hot(const uint8_t in[uuid_len], HotFields *f) noexcept
{
	f->seconds = hot_time_field(in);
	f->machine[0] = in[5];
	f->machine[1] = in[4];
	f->machine[2] = in[7];
	f->process = static_cast<uint16_t>((in[6] << 8) | in[8]);
	f->counter = static_cast<uint32_t>(get_be(in + 9, 3));
	f->shard = hot_shard_key(in);
}

void
hot_boundary(uint32_t seconds, uint8_t out[uuid_len]) noexcept
{
	for (std::size_t i = 0; i < uuid_len; i++)
		out[i] = 0;
	put_be(out, seconds, 4);
}

Status
hot_machine_hash(const char *machine_name, const char *host_name, Md5Function md5,
				 uint8_t out[hot_machine_len]) noexcept
{
	const char *name = machine_name;
	std::size_t len = 0;
	uint8_t		digest[digest_len];

	if (hot_machine_from_host(machine_name))
	{
		name = host_name;
		while (name[len] != '\0' && name[len] != '.')
			len++;
	}
	else
	{
		while (name[len] != '\0')
			len++;
	}
	if (!md5(name, len, digest))
		return Status::digest_failed;
	for (std::size_t i = 0; i < hot_machine_len; i++)
		out[i] = digest[i];
	return Status::ok;
}

SlotMarks *
HotGenerator::start(const HotEnvironment &env) noexcept
{
	SlotMarks  *slot = env.slot != nullptr ? env.slot : &own_slot_;

	if (!started_)
	{
		next_tick_ = slot->next_tick;
		/*
		 * The slot's first explicit allocation since the state was made (a new cluster, a
		 * restart, or state of this backend only) starts at the clock's tick: so it lands
		 * after those of earlier backends as long as the clock went on, by chance otherwise.
		 */
		explicit_next_ = slot->explicit_next != 0 ? slot->explicit_next
			: static_cast<uint64_t>(env.wall_tick);
		started_ = true;
	}
	return slot;
}

// Write the id of a counter value, in the given second.
static void
encode_counter(uint32_t shard, int64_t unix_seconds, uint32_t counter, const HotEnvironment &env,
			   uint8_t out[uuid_len]) noexcept
{
	HotFields	f{hot_seconds(unix_seconds), {env.machine[0], env.machine[1], env.machine[2]},
		env.process, counter & hot_counter_max, shard};

	encode_hot(f, out);
}

HotGenerator::ExplicitSecond &
HotGenerator::entry(uint32_t field) noexcept
{
	/* Fibonacci hashing of the time field onto the table. */
	std::size_t i = static_cast<std::size_t>((field * UINT64_C(0x9E3779B97F4A7C15)) >> 56);

	return explicit_[i % explicit_entries];
}

void
HotGenerator::close_wall_second() noexcept
{
	uint32_t	field = hot_seconds(wall_second_);
	ExplicitSecond &e = entry(field);

	/* A second already counted (explicit ids made before the clock got there) keeps its count. */
	if (!e.valid || e.second != field)
		e = ExplicitSecond{field, (wall_hi_ + 1) & hot_counter_max, 0,
			hot_counter_max - (wall_hi_ - wall_lo_), true};
	wall_open_ = false;
}

HotStatus
HotGenerator::next(uint32_t shard, const HotEnvironment &env, uint8_t out[uuid_len]) noexcept
{
	SlotMarks  *slot = start(env);
	int64_t		tick = env.wall_tick > next_tick_ ? env.wall_tick : next_tick_;
	int64_t		second = floor_div(tick, hot_ticks_per_second);
	uint32_t	counter = static_cast<uint32_t>(tick) & hot_counter_max;

	next_tick_ = tick + 1;
	slot->next_tick = next_tick_;
	if (wall_open_ && second == wall_second_)
		wall_hi_ = counter;
	else
	{
		if (wall_open_)
			close_wall_second();
		wall_open_ = true;
		wall_second_ = second;
		wall_lo_ = wall_hi_ = counter;
	}
	encode_counter(shard, second, counter, env, out);
	return HotStatus::ok;
}

HotStatus
HotGenerator::next_at(uint32_t shard, int64_t unix_seconds, const HotEnvironment &env,
					  uint8_t out[uuid_len]) noexcept
{
	SlotMarks  *slot = start(env);
	int64_t		tick = env.wall_tick > next_tick_ ? env.wall_tick : next_tick_;

	if (floor_div(tick, hot_ticks_per_second) == unix_seconds)
		return next(shard, env, out);
	/* The clock has left the second of the last clock id: its ticks there are known now. */
	if (wall_open_ && wall_second_ == unix_seconds)
		close_wall_second();

	/* Count by the time field (seconds mod 2^32): seconds 2^32 apart share it. */
	uint32_t	field = hot_seconds(unix_seconds);
	ExplicitSecond &e = entry(field);

	if (!e.valid || e.second != field)
		e = ExplicitSecond{field, static_cast<uint32_t>(explicit_next_) & hot_counter_max, 0,
			hot_counter_max + 1, true};
	if (e.used >= e.capacity)
		return HotStatus::second_full;
	encode_counter(shard, unix_seconds, (e.first + e.used) & hot_counter_max, env, out);
	e.used++;
	explicit_next_++;
	slot->explicit_next = explicit_next_;
	return HotStatus::ok;
}

}							// namespace locality_uuid
