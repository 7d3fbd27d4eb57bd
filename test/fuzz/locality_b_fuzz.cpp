// libFuzzer target over the locality uuid core: round trips, bucket text, generator state.
#include "core/locality_b.hpp"

#include "require.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace locality_uuid;


namespace
{

FuzzedDataProvider *provider;

// Random bytes for the generator come from the fuzzer's input.
bool
fuzz_random(uint8_t *buf, std::size_t len)
{
	std::memset(buf, 0, len);
	provider->ConsumeData(buf, len);
	return true;
}

// A stand-in digest: any function of the text will do, the core only reads 4 bytes of it.
bool
fuzz_md5(const char *text, std::size_t len, uint8_t digest[digest_len])
{
	uint64_t	h = 1469598103934665603ULL;

	for (std::size_t i = 0; i < len; i++)
		h = (h ^ static_cast<uint8_t>(text[i])) * 1099511628211ULL;
	for (std::size_t i = 0; i < digest_len; i++)
		digest[i] = static_cast<uint8_t>(h >> (8 * (i % 8)));
	return true;
}

// Read n decimal digits.
int64_t
digits(const char *p, int n)
{
	int64_t		v = 0;

	for (int i = 0; i < n; i++)
	{
		REQUIRE(p[i] >= '0' && p[i] <= '9');
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

// Any 16 bytes: a version-b id decodes, and encoding the fields gives the same bytes back.
void
check_decode_encode(FuzzedDataProvider &fdp)
{
	uint8_t		in[uuid_len] = {0};

	fdp.ConsumeData(in, uuid_len);
	for (CounterMode mode : {CounterMode::variable, CounterMode::sequential})
	{
		LocalityFields f;
		uint8_t		out[uuid_len];

		if (!decode_b(in, &f, mode))
		{
			REQUIRE(version_nibble(in) != version_b);
			continue;
		}
		REQUIRE(f.node <= node_max && f.time_ms <= time_ms_max);
		REQUIRE(encode_b(f, mode, out) == Status::ok);
		REQUIRE(std::memcmp(in, out, uuid_len) == 0);
	}
}

// Any fields: encoding succeeds exactly when they fit, and decoding returns them.
void
check_encode_decode(FuzzedDataProvider &fdp)
{
	LocalityFields f;

	f.counter = fdp.ConsumeIntegral<uint32_t>();
	f.process = fdp.ConsumeIntegral<uint16_t>();
	/* Mostly in range, sometimes just past it, sometimes anything. */
	f.node = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<uint32_t>(0, node_max + 2)
		: fdp.ConsumeIntegral<uint32_t>();
	f.time_ms = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<uint64_t>(0, time_ms_max + 2)
		: fdp.ConsumeIntegral<uint64_t>();

	CounterMode mode = fdp.ConsumeBool() ? CounterMode::sequential : CounterMode::variable;
	uint8_t		out[uuid_len];
	LocalityFields g;
	Status		st = encode_b(f, mode, out);

	if (f.node > node_max)
	{
		REQUIRE(st == Status::node_out_of_range);
		return;
	}
	if (f.time_ms > time_ms_max)
	{
		REQUIRE(st == Status::time_out_of_range);
		return;
	}
	REQUIRE(st == Status::ok);
	REQUIRE(version_nibble(out) == version_b);
	REQUIRE(decode_b(out, &g, mode));
	REQUIRE(g.counter == f.counter && g.process == f.process && g.node == f.node &&
			g.time_ms == f.time_ms);
	REQUIRE(reverse_nibbles(reverse_nibbles(f.counter)) == f.counter);
}

// Any time: the bucket text is 11 digits that read back to the same bucket, in order.
void
check_bucket(FuzzedDataProvider &fdp)
{
	int64_t		unix_ms = fdp.ConsumeIntegral<int64_t>();
	int64_t		bucket = bucket_of(unix_ms);
	char		text[bucket_text_len];
	char		next[bucket_text_len];

	__int128	start = static_cast<__int128>(bucket) * bucket_ms;

	REQUIRE(start <= unix_ms && unix_ms - start < bucket_ms);
	if (!bucket_text(bucket, text))
		return;

	int64_t		y = digits(text, 4);
	int64_t		mo = digits(text + 4, 2);
	int64_t		d = digits(text + 6, 2);
	int64_t		h = digits(text + 8, 2);
	int64_t		m10 = digits(text + 10, 1);

	REQUIRE(mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && m10 <= 5);
	REQUIRE(days_from_civil(y, static_cast<int>(mo), static_cast<int>(d)) * 144 + h * 6 + m10 == bucket);
	if (bucket_text(bucket + 1, next))
		REQUIRE(std::memcmp(text, next, bucket_text_len) < 0);
}

uint64_t	fuzz_word = seq_word_empty;	/* the run shared by the fuzzed backends */

// A run of generated ids under a fuzzed clock and modes, from backends that take one slot
// in turn on one shared run: fields carried, time never goes back (not even across
// backends), the clock is refused outside the format, and no id repeats, in either mode.
void
check_generator(FuzzedDataProvider &fdp)
{
	constexpr int max_ids = 300;
	static uint8_t ids[max_ids][uuid_len];
	static LocalityGenerator gen;
	int			count = 0;
	SlotMarks	slot = {0, 0};
	int64_t		wall = fdp.ConsumeIntegralInRange<int64_t>(-2000, time_ms_max + 2000);
	uint64_t	last_time = 0;
	uint16_t	process = fdp.ConsumeIntegral<uint16_t>();
	uint32_t	node = fdp.ConsumeIntegralInRange<uint32_t>(0, node_max);

	provider = &fdp;
	gen = LocalityGenerator();
	fuzz_word = seq_word_empty;
	while (fdp.remaining_bytes() > 0 && count < max_ids)
	{
		uint8_t		op = fdp.ConsumeIntegral<uint8_t>();
		CounterMode mode = (op & 1) ? CounterMode::sequential : CounterMode::variable;

		/* A new backend takes the slot. */
		if (op & 8)
			gen = LocalityGenerator();
		/* Another backend ran ahead in the shared run. */
		if (op & 16)
		{
			SeqTake		t;
			uint64_t	next;

			if (seq_advance(fuzz_word, bucket_of(wall < 0 ? 0 : wall) + fdp.ConsumeIntegralInRange<int64_t>(0, 2),
							&next, &t) == SeqStatus::ok)
				fuzz_word = next;
		}
		/* Clock: stay, step forward, jump, or step back (also before 1970 and past the format). */
		switch ((op >> 1) & 3)
		{
			case 0:
				break;
			case 1:
				wall += fdp.ConsumeIntegralInRange<int64_t>(0, 1000);
				break;
			case 2:
				wall += fdp.ConsumeIntegralInRange<int64_t>(0, 4 * bucket_ms);
				break;
			case 3:
				wall -= fdp.ConsumeIntegralInRange<int64_t>(0, 2 * bucket_ms);
				break;
		}

		Environment env{wall, process, node, &slot};
		uint8_t		out[uuid_len];
		LocalityFields f;
		Status		st = next_alone(gen, mode, env, fuzz_random, fuzz_md5, &fuzz_word, out);

		if (st != Status::ok)
		{
			/* Only the clock can be refused: before 1970, past the format, or past 9999 (sequential). */
			REQUIRE(st == Status::time_out_of_range);
			REQUIRE(wall < 0 || static_cast<uint64_t>(wall) > time_ms_max ||
					(mode == CounterMode::sequential &&
					 (wall >= 253402300800000LL || last_time >= 253402300800000ULL)) ||
					last_time >= time_ms_max);
			continue;
		}
		REQUIRE(decode_b(out, &f, mode));
		REQUIRE(f.process == process && f.node == node);
		REQUIRE(f.time_ms >= last_time && f.time_ms >= static_cast<uint64_t>(wall));
		REQUIRE(slot.next_ms == f.time_ms + 1);
		last_time = f.time_ms;
		for (int i = 0; i < count; i++)
			REQUIRE(std::memcmp(ids[i], out, uuid_len) != 0);
		std::memcpy(ids[count++], out, uuid_len);
	}
}

// One step of the cluster's run from any word: a later bucket starts its run at index 0,
// an earlier or equal one steps the run by one, and the run never wraps.
void
check_seq_advance(FuzzedDataProvider &fdp)
{
	uint64_t	word = fdp.ConsumeIntegral<uint64_t>();
	int64_t		bucket = fdp.ConsumeBool() ? static_cast<int64_t>(word >> 32) - 1 + fdp.ConsumeIntegralInRange<int64_t>(-1, 1)
		: fdp.ConsumeIntegral<int64_t>();
	uint64_t	next = 0;
	SeqTake		t;
	SeqStatus	st = seq_advance(word, bucket, &next, &t);
	uint64_t	run_plus_1 = word >> 32;
	uint32_t	index = static_cast<uint32_t>(word);

	if (bucket < 0 || bucket > seq_bucket_max)
	{
		REQUIRE(st == SeqStatus::bad_bucket);
		return;
	}
	if (run_plus_1 == 0 || static_cast<uint64_t>(bucket) + 1 > run_plus_1)
	{
		REQUIRE(st == SeqStatus::ok && t.run_bucket == bucket && t.index == 0);
		REQUIRE(next == ((static_cast<uint64_t>(bucket) + 1) << 32));
		return;
	}
	if (index == UINT32_MAX)
	{
		REQUIRE(st == SeqStatus::exhausted);
		return;
	}
	REQUIRE(st == SeqStatus::ok && t.index == index + 1);
	REQUIRE(t.run_bucket == static_cast<int64_t>(run_plus_1 - 1));
	REQUIRE(next == word + 1);
}

}							// namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size)
{
	static const Check checks[] = {check_decode_encode, check_encode_decode, check_bucket, check_generator,
		check_seq_advance};

	return run_check(data, size, checks);
}
