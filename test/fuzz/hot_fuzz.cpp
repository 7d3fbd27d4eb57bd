// libFuzzer target over the shard-key core: round trips, boundaries, generator ordering, machine hash.
#include "core/hot.hpp"

#include "require.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace locality_uuid;


namespace
{

bool
same_fields(const HotFields &a, const HotFields &b)
{
	return a.seconds == b.seconds && std::memcmp(a.machine, b.machine, hot_machine_len) == 0 &&
		a.process == b.process && a.counter == b.counter && a.shard == b.shard;
}

// Any 16 bytes decode, and encoding the fields gives the same bytes back.
void
check_decode_encode(FuzzedDataProvider &fdp)
{
	uint8_t		in[uuid_len] = {0};

	fdp.ConsumeData(in, uuid_len);
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

// A run of ids under a fuzzed clock (nanoseconds; steps forward, back, or not at all) from
// backends that take one slot in turn: clock ids never repeat, sort in generation order
// (time, then counter) across every backend of the slot, are never earlier than the clock
// and run ahead of the highest clock reading by at most one tick per id; ids at an explicit
// second carry that second and never repeat each other.
void
check_generator(FuzzedDataProvider &fdp)
{
	static HotGenerator gen;
	static Allocator allocations(hot_allocation_bits);
	static uint64_t ranges_drawn = 0;
	constexpr int max_ids = 400;
	static uint8_t explicit_ids[max_ids][uuid_len];
	int			explicit_count = 0;
	SlotMarks	slot = {0, 0};
	HotEnvironment env;
	/* Realistic clocks: Unix time that keeps the 32-bit field from wrapping during the run. */
	int64_t		wall = fdp.ConsumeIntegralInRange<int64_t>(0, ((INT64_C(1) << 31) - (INT64_C(1) << 22)) * INT64_C(1000000000));
	int64_t		highest = wall;
	uint8_t		last[uuid_len];
	bool		have_last = false;
	int			ids = 0;

	gen = HotGenerator();
	allocations = Allocator(hot_allocation_bits);
	/* Sometimes the stand-in sequence is moved to the last ranges of 2^39 numbers. */
	if (fdp.ConsumeBool())
		ranges_drawn = (UINT64_C(1) << 31) - fdp.ConsumeIntegralInRange<uint64_t>(0, 2);
	fdp.ConsumeData(env.machine, hot_machine_len);
	env.process = fdp.ConsumeIntegral<uint16_t>();
	env.slot = &slot;
	while (fdp.remaining_bytes() > 0 && ids++ < max_ids)
	{
		uint8_t		op = fdp.ConsumeIntegral<uint8_t>();
		uint32_t	shard = fdp.ConsumeIntegral<uint32_t>();
		uint8_t		out[uuid_len];
		HotFields	f;
		bool		explicit_at = false;
		int64_t		at = 0;

		/* A new backend takes the slot. */
		if (op & 4)
		{
			gen = HotGenerator();
			allocations = Allocator(hot_allocation_bits);
		}
		switch (op & 3)
		{
			case 0:
				break;
			case 1:
				wall += fdp.ConsumeIntegralInRange<int64_t>(0, 3000000000);
				break;
			case 2:
				wall -= fdp.ConsumeIntegralInRange<int64_t>(0, wall < 3000000000 ? wall : 3000000000);
				break;
			case 3:
				/*
				 * An explicit time before 1970 (a few seconds, or any the glue accepts), so that
				 * the clock never reaches it: explicit ids at a second a backend's clock ids also
				 * go through are checked by the unit tests.
				 */
				explicit_at = true;
				at = (op & 8) ? fdp.ConsumeIntegralInRange<int64_t>(-4, -1)
					: fdp.ConsumeIntegralInRange<int64_t>(-211813488000LL, -1);
				break;
		}

		int64_t		before = slot.next_tick;

		env.wall_tick = hot_tick_of(wall);
		if (explicit_at)
		{
			AllocationStatus st = gen.next_at(shard, at, env, &allocations, out);

			/* The stand-in sequence: each range of 256 allocation numbers handed out once. */
			if (st == AllocationStatus::needs_allocations)
			{
				allocations.add_range(ranges_drawn++, 256);
				st = gen.next_at(shard, at, env, &allocations, out);
			}
			/* Refused only once the ranges reach 2^39 numbers. */
			if (st == AllocationStatus::exhausted)
			{
				REQUIRE(ranges_drawn >= UINT64_C(1) << 31);
				continue;
			}
			REQUIRE(st == AllocationStatus::ok);
		}
		else
			gen.next(shard, env, out);
		if (wall > highest)
			highest = wall;
		decode_hot(out, &f);
		REQUIRE(f.shard == shard && (explicit_at || f.process == env.process));
		REQUIRE(std::memcmp(f.machine, env.machine, hot_machine_len) == 0);
		if (explicit_at)
			REQUIRE(f.seconds == hot_seconds(at));
		if (explicit_at && slot.next_tick == before)
		{
			/* Second, process and counter (bytes 0..11) never repeat among explicit ids; bit 23 is set. */
			REQUIRE((f.counter & hot_explicit_bit) != 0);
			REQUIRE(hot_explicit_allocation(f.counter, f.process) < hot_allocation_limit);
			for (int i = 0; i < explicit_count; i++)
				REQUIRE(std::memcmp(explicit_ids[i], out, 12) != 0);
			std::memcpy(explicit_ids[explicit_count++], out, uuid_len);
			continue;
		}

		REQUIRE((f.counter & hot_explicit_bit) == 0);

		int64_t		tick = static_cast<int64_t>(f.seconds) * hot_ticks_per_second + f.counter;

		REQUIRE(tick >= hot_tick_of(wall));
		REQUIRE(tick <= hot_tick_of(highest) + ids);
		REQUIRE(slot.next_tick == tick + 1);
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

/* What the stand-in MD5 was handed, and whether it fails. */
struct Md5Call
{
	int			calls;
	const char *text;
	std::size_t len;
	bool		fail;
};

Md5Call		md5_call;

// Fill a digest from the bytes of text (a stand-in for MD5: any function of the bytes will do).
void
stand_in_digest(const char *text, std::size_t len, uint8_t digest[digest_len])
{
	uint64_t	h = UINT64_C(14695981039346656037);

	for (std::size_t i = 0; i < len; i++)
		h = (h ^ static_cast<uint8_t>(text[i])) * UINT64_C(1099511628211);
	for (std::size_t i = 0; i < digest_len; i++)
		digest[i] = static_cast<uint8_t>(h >> (8 * (i % 8))) ^ static_cast<uint8_t>(i);
}

// The stand-in MD5 passed to the core: records its call, then fails or fills the digest.
bool
recording_md5(const char *text, std::size_t len, uint8_t digest[digest_len])
{
	md5_call.calls++;
	md5_call.text = text;
	md5_call.len = len;
	if (md5_call.fail)
		return false;
	stand_in_digest(text, len, digest);
	return true;
}

// Any machine name and host name: the core hashes machine_name as given when it is set, else
// the host name up to its first dot (computed here with std::string), once, and keeps the
// first 3 digest bytes; a failing digest leaves the hash as it was.
void
check_machine_hash(FuzzedDataProvider &fdp)
{
	bool		unset = fdp.ConsumeBool();
	std::string machine_arg = fdp.ConsumeRandomLengthString(40);
	std::string host_arg = fdp.ConsumeRandomLengthString(300);
	/* As C strings: up to the first NUL, as the glue hands them over. */
	std::string machine_name(machine_arg.c_str());
	std::string host_name(host_arg.c_str());
	const char *machine = unset ? nullptr : machine_name.c_str();
	uint8_t		before[hot_machine_len];
	uint8_t		out[hot_machine_len];

	fdp.ConsumeData(before, hot_machine_len);
	std::memcpy(out, before, hot_machine_len);
	md5_call = Md5Call{0, nullptr, 0, fdp.ConsumeBool()};

	Status		st = hot_machine_hash(machine, host_name.c_str(), recording_md5, out);
	std::string expect = (unset || machine_name.empty()) ? host_name.substr(0, host_name.find('.'))
		: machine_name;

	REQUIRE(hot_machine_from_host(machine) == (unset || machine_name.empty()));
	REQUIRE(md5_call.calls == 1);
	REQUIRE(md5_call.len == expect.size());
	REQUIRE(std::memcmp(md5_call.text, expect.data(), expect.size()) == 0);
	if (md5_call.fail)
	{
		REQUIRE(st == Status::digest_failed);
		REQUIRE(std::memcmp(out, before, hot_machine_len) == 0);
		return;
	}

	uint8_t		digest[digest_len];

	stand_in_digest(expect.data(), expect.size(), digest);
	REQUIRE(st == Status::ok);
	REQUIRE(std::memcmp(out, digest, hot_machine_len) == 0);
}

// Any uuid and bounds (within 2 s of its time, or any): hot_uuid_made's answer is the plain
// predicate's, and the keys select exactly those ids.
void
check_made(FuzzedDataProvider &fdp)
{
	uint8_t		u[uuid_len];

	fdp.ConsumeData(u, sizeof(u));
	require_made(fdp, u, true, static_cast<int64_t>(hot_time_field(u)) * 1000000, 2000000, hot_made, hot_made_since,
				 hot_made_before);
}

}							// namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size)
{
	static const Check checks[] = {check_decode_encode, check_encode_decode, check_generator, check_machine_hash, check_made};

	return run_check(data, size, checks);
}
