// Shard-key UUID (HotGuid layout): encoding, decoding, boundaries and the per-backend counter.
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

bool
HotGenerator::next_counter(const HotEnvironment &env, uint32_t *counter) noexcept
{
	if (!seeded_)
	{
		uint8_t		start[4];

		/* Modulo bias is below 500000 / 2^32: immaterial for a starting point. */
		if (!env.random_bytes(start, sizeof(start)))
			return false;
		counter_ = static_cast<uint32_t>(get_be(start, 4)) % hot_counter_start_below;
		seeded_ = true;
	}
	counter_ = (counter_ + 1) & hot_counter_max;
	*counter = counter_;
	return true;
}

bool
HotGenerator::next(uint32_t shard, const HotEnvironment &env, uint8_t out[uuid_len]) noexcept
{
	HotFields	f{0, {env.machine[0], env.machine[1], env.machine[2]}, env.process, 0, shard};
	int64_t		seconds = env.wall_seconds;

	if (!next_counter(env, &f.counter))
		return false;
	if (clock_used_ && seconds <= last_seconds_)
	{
		seconds = last_seconds_;
		if (f.counter <= last_counter_)
			seconds++;
	}
	last_seconds_ = seconds;
	last_counter_ = f.counter;
	clock_used_ = true;
	f.seconds = hot_seconds(seconds);
	return encode_hot(f, out);
}

bool
HotGenerator::next_at(uint32_t shard, int64_t unix_seconds, const HotEnvironment &env,
					  uint8_t out[uuid_len]) noexcept
{
	HotFields	f{hot_seconds(unix_seconds), {env.machine[0], env.machine[1], env.machine[2]},
		env.process, 0, shard};

	if (!next_counter(env, &f.counter))
		return false;
	return encode_hot(f, out);
}

}							// namespace locality_uuid
