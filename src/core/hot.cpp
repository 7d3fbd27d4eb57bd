// Shard-key UUID (HotGuid layout): encoding, decoding, boundaries and the per-backend clock ticks.
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

HotStatus
HotGenerator::take_tick(const HotEnvironment &env, int64_t *tick) noexcept
{
	int64_t		now = hot_tick_of(env.wall_ns);

	if (!clock_used_)
	{
		last_tick_ = now;
		clock_used_ = true;
	}
	if (now > last_tick_)
		*tick = now;
	else if (last_tick_ - now < hot_wait_limit)
		return HotStatus::wait;
	else
		*tick = last_tick_ + 1;
	last_tick_ = *tick;
	return HotStatus::ok;
}

// Write the id of a tick, in the given second.
static void
encode_tick(uint32_t shard, int64_t tick, int64_t unix_seconds, const HotEnvironment &env,
			uint8_t out[uuid_len]) noexcept
{
	HotFields	f{hot_seconds(unix_seconds), {env.machine[0], env.machine[1], env.machine[2]},
		env.process, static_cast<uint32_t>(tick & hot_counter_max), shard};

	encode_hot(f, out);
}

HotStatus
HotGenerator::next(uint32_t shard, const HotEnvironment &env, uint8_t out[uuid_len]) noexcept
{
	int64_t		tick;

	if (take_tick(env, &tick) == HotStatus::wait)
		return HotStatus::wait;
	encode_tick(shard, tick, floor_div(tick, hot_ticks_per_second), env, out);
	return HotStatus::ok;
}

HotStatus
HotGenerator::next_at(uint32_t shard, int64_t unix_seconds, const HotEnvironment &env,
					  uint8_t out[uuid_len]) noexcept
{
	int64_t		tick;

	if (take_tick(env, &tick) == HotStatus::wait)
		return HotStatus::wait;
	encode_tick(shard, tick, unix_seconds, env, out);
	return HotStatus::ok;
}

}							// namespace locality_uuid
