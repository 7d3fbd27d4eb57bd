// Shard-key UUID (HotGuid layout): encoding, decoding, boundaries, machine hash, clock ticks and explicit-time ids.
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

bool
encode_hot_explicit(uint32_t shard, int64_t unix_seconds, const uint8_t machine[hot_machine_len],
					uint64_t n, uint8_t out[uuid_len]) noexcept
{
	HotFields f{hot_seconds(unix_seconds), {machine[0], machine[1], machine[2]}, 0, 0, shard};

	if (!hot_explicit_fields(n, &f.counter, &f.process))
		return false;
	return encode_hot(f, out);
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

bool
hot_made_since(int64_t us, uint8_t out[uuid_len]) noexcept
{
	int64_t seconds = made_unit(us, 1000000, hot_seconds_max);

	if (seconds > hot_seconds_max)
		return false;
	hot_boundary(static_cast<uint32_t>(seconds), out);
	return true;
}

bool
hot_made_before(int64_t us, uint8_t out[uuid_len]) noexcept
{
	int64_t seconds = made_unit(us, 1000000, hot_seconds_max);

	if (seconds == 0)
		return false;
	uuid_fill(out, 0xff);
	put_be(out, static_cast<uint64_t>(seconds - 1), 4);
	return true;
}

Status
hot_machine_hash(const char *machine_name, const char *host_name, Md5Function md5,
				 uint8_t out[hot_machine_len]) noexcept
{
	const char *name = machine_name;
	std::size_t len = 0;
	uint8_t     digest[digest_len];

	if (hot_machine_from_host(machine_name))
	{
		name = host_name;
		len = hot_host_name_length(host_name);
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
	SlotMarks *slot = env.slot != nullptr ? env.slot : &own_slot_;

	if (!started_)
	{
		next_tick_ = slot->next_tick;
		started_ = true;
	}
	return slot;
}

// Write the id of a counter value, in the given second.
static void
encode_counter(uint32_t shard, int64_t unix_seconds, uint32_t counter, const HotEnvironment &env,
			   uint8_t out[uuid_len]) noexcept
{
	HotFields f{hot_seconds(unix_seconds), {env.machine[0], env.machine[1], env.machine[2]}, env.process, counter, shard};

	encode_hot(f, out);
}

void
HotGenerator::next(uint32_t shard, const HotEnvironment &env, uint8_t out[uuid_len]) noexcept
{
	SlotMarks *slot = start(env);
	int64_t    tick = env.wall_tick > next_tick_ ? env.wall_tick : next_tick_;
	int64_t    second = floor_div(tick, hot_ticks_per_second);
	uint32_t   counter = static_cast<uint32_t>(tick - second * hot_ticks_per_second);

	next_tick_ = tick + 1;
	slot->next_tick = next_tick_;
	encode_counter(shard, second, counter, env, out);
}

AllocationStatus
HotGenerator::next_at(uint32_t shard, int64_t unix_seconds, const HotEnvironment &env,
					  Allocator *allocations, uint8_t out[uuid_len]) noexcept
{
	start(env);

	int64_t tick = env.wall_tick > next_tick_ ? env.wall_tick : next_tick_;

	if (floor_div(tick, hot_ticks_per_second) == unix_seconds)
	{
		next(shard, env, out);
		return AllocationStatus::ok;
	}

	uint64_t         n;
	AllocationStatus st = allocations->next(&n);

	if (st != AllocationStatus::ok)
		return st;
	/* An allocator of more than 39 bits would hand out a number the id cannot carry. */
	if (!encode_hot_explicit(shard, unix_seconds, env.machine, n, out))
		return AllocationStatus::exhausted;
	return AllocationStatus::ok;
}

} // namespace locality_uuid
