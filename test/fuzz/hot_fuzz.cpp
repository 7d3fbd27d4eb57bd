// libFuzzer target over the shard-key core: round trips, boundaries, generator ordering.
#include "core/hot.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace locality_uuid;

// Stop the run: libFuzzer saves the input as a crash artifact.
#define REQUIRE(cond) \
	do { \
		if (!(cond)) \
		{ \
			std::fprintf(stderr, "property failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
			std::abort(); \
		} \
	} while (0)

namespace
{

FuzzedDataProvider *provider;

// Random bytes for the counter's start come from the fuzzer's input.
bool
fuzz_random(uint8_t *buf, std::size_t len)
{
	std::memset(buf, 0, len);
	provider->ConsumeData(buf, len);
	return true;
}

bool
same_fields(const HotFields &a, const HotFields &b)
{
	return a.seconds == b.seconds && std::memcmp(a.machine, b.machine, hot_machine_len) == 0 &&
		a.process == b.process && a.counter == b.counter && a.shard == b.shard;
}

// Any 16 bytes decode, and encoding the fields gives the same bytes back.
void
check_decode_encode(const uint8_t in[uuid_len])
{
	HotFields	f;
	uint8_t		out[uuid_len];

	decode_hot(in, &f);
	REQUIRE(f.counter <= hot_counter_max);
	REQUIRE(encode_hot(f, out));
	REQUIRE(std::memcmp(in, out, uuid_len) == 0);
	REQUIRE(hot_shard_key(in) == f.shard && hot_time_field(in) == f.seconds);
}

// Any fields: encoding succeeds exactly when the counter fits, and decoding returns them.
void
check_encode_decode(FuzzedDataProvider &fdp)
{
	HotFields	f;
	HotFields	g;
	uint8_t		out[uuid_len];
	uint8_t		low[uuid_len];

	f.seconds = hot_seconds(fdp.ConsumeIntegral<int64_t>());
	fdp.ConsumeData(f.machine, hot_machine_len);
	f.process = fdp.ConsumeIntegral<uint16_t>();
	f.counter = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<uint32_t>(0, hot_counter_max + 2)
		: fdp.ConsumeIntegral<uint32_t>();
	f.shard = fdp.ConsumeIntegral<uint32_t>();
	if (!encode_hot(f, out))
	{
		REQUIRE(f.counter > hot_counter_max);
		return;
	}
	REQUIRE(f.counter <= hot_counter_max);
	decode_hot(out, &g);
	REQUIRE(same_fields(f, g));
	/* The boundary of its second sorts at or before it, and after the previous second's ids. */
	hot_boundary(f.seconds, low);
	REQUIRE(std::memcmp(low, out, uuid_len) <= 0);
	REQUIRE(hot_time_field(low) == f.seconds);
	for (std::size_t i = 4; i < uuid_len; i++)
		REQUIRE(low[i] == 0);
}

// A run of ids under a fuzzed clock: clock ids never repeat and sort in generation order
// (time, then counter); ids at an explicit second carry that second.
void
check_generator(FuzzedDataProvider &fdp)
{
	HotGenerator gen;
	HotEnvironment env;
	/* Realistic clocks: Unix seconds that keep the 32-bit field from wrapping during the run. */
	int64_t		wall = fdp.ConsumeIntegralInRange<int64_t>(0, (INT64_C(1) << 32) - (INT64_C(1) << 22));
	uint8_t		last[uuid_len];
	bool		have_last = false;
	int			ids = 0;

	fdp.ConsumeData(env.machine, hot_machine_len);
	env.process = fdp.ConsumeIntegral<uint16_t>();
	env.random_bytes = fuzz_random;
	while (fdp.remaining_bytes() > 0 && ids++ < 400)
	{
		uint8_t		op = fdp.ConsumeIntegral<uint8_t>();
		uint32_t	shard = fdp.ConsumeIntegral<uint32_t>();
		uint8_t		out[uuid_len];
		HotFields	f;

		switch (op & 3)
		{
			case 0:
				break;
			case 1:
				wall += fdp.ConsumeIntegralInRange<int64_t>(0, 3);
				break;
			case 2:
				wall -= fdp.ConsumeIntegralInRange<int64_t>(0, wall < 100 ? wall : 100);
				break;
			case 3:
				{
					/* An explicit time: any second the glue accepts (timestamptz range). */
					int64_t		at = fdp.ConsumeIntegralInRange<int64_t>(-211813488000LL, 9224318015999LL);

					REQUIRE(gen.next_at(shard, at, env, out));
					decode_hot(out, &f);
					REQUIRE(f.seconds == hot_seconds(at) && f.shard == shard && f.process == env.process);
					continue;
				}
		}
		env.wall_seconds = wall;
		REQUIRE(gen.next(shard, env, out));
		decode_hot(out, &f);
		REQUIRE(f.shard == shard && f.process == env.process);
		REQUIRE(std::memcmp(f.machine, env.machine, hot_machine_len) == 0);
		REQUIRE(f.seconds >= hot_seconds(wall));
		if (have_last)
		{
			HotFields	p;

			decode_hot(last, &p);
			REQUIRE(f.seconds > p.seconds || (f.seconds == p.seconds && f.counter > p.counter));
		}
		std::memcpy(last, out, uuid_len);
		have_last = true;
	}
}

}							// namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size)
{
	FuzzedDataProvider fdp(data, size);

	provider = &fdp;
	switch (fdp.ConsumeIntegralInRange<int>(0, 2))
	{
		case 0:
			{
				uint8_t		in[uuid_len] = {0};

				fdp.ConsumeData(in, uuid_len);
				check_decode_encode(in);
				break;
			}
		case 1:
			check_encode_decode(fdp);
			break;
		case 2:
			check_generator(fdp);
			break;
	}
	return 0;
}
