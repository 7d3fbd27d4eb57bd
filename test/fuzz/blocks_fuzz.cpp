// libFuzzer target over the block-wrapped core: layouts, prefixes, round trips, time blocks and advice.
#include "core/blocks.hpp"

#include "require.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace locality_uuid;


namespace
{

// Pick an int32 that is mostly near the interesting edges: 0, 1, powers of two, INT32_MAX.
int32_t
edgy_int32(FuzzedDataProvider &fdp)
{
	switch (fdp.ConsumeIntegralInRange<int>(0, 3))
	{
		case 0:
			return fdp.ConsumeIntegral<int32_t>();
		case 1:
			return fdp.ConsumeIntegralInRange<int32_t>(-2, 300);
		case 2:
			{
				int			shift = fdp.ConsumeIntegralInRange<int>(0, 30);

				return static_cast<int32_t>((INT64_C(1) << shift) + fdp.ConsumeIntegralInRange<int>(-1, 1));
			}
		default:
			return INT32_MAX - fdp.ConsumeIntegralInRange<int32_t>(0, 2);
	}
}

// The rule of docs/format.md, section 2, computed independently in 128-bit arithmetic.
void
check_layout(int32_t s, int32_t c, BlockLayout *l, bool *valid)
{
	BlockStatus st = block_layout(s, c, l);

	*valid = false;
	if (s < 1)
	{
		REQUIRE(st == BlockStatus::bad_block_size);
		return;
	}
	if (c < 1)
	{
		REQUIRE(st == BlockStatus::bad_block_count);
		return;
	}
	REQUIRE(st == BlockStatus::ok);

	int			b = 1;

	while ((INT64_C(1) << b) < c)
		b++;

	int			want_bits = 8 * ((b + 7) / 8);
	__int128	per = (static_cast<__int128>(s) * c) >> want_bits;

	REQUIRE(l->prefix_bits == want_bits);
	REQUIRE(l->block_size == (per > 1 ? static_cast<int64_t>(per) : 1));
	REQUIRE(prefix_bits_for(c) == want_bits);
	REQUIRE(block_wrap(*l) > 0);
	REQUIRE(block_random_len(*l) == uuid_len - static_cast<std::size_t>(want_bits / 8));
	*valid = true;
}

// The integer layouts: the rule, prefixes and encode/decode round trips.
void
fuzz_blocks(FuzzedDataProvider &fdp)
{
	int32_t		s = edgy_int32(fdp);
	int32_t		c = edgy_int32(fdp);
	BlockLayout l;
	bool		valid;

	check_layout(s, c, &l, &valid);
	if (!valid)
		return;

	/* Value: a sequence value (any bigint, through nextval - 1) or a time in seconds. */
	int64_t		n = fdp.ConsumeIntegral<int64_t>();
	int64_t		v = sequence_input(n);

	REQUIRE(static_cast<uint64_t>(v) == static_cast<uint64_t>(n) - 1);

	uint64_t	mask = block_prefixes(l) - 1;
	uint64_t	want_prefix = static_cast<uint64_t>(static_cast<int64_t>(static_cast<__int128>(v) / l.block_size)) & mask;

	REQUIRE(block_prefix(v, l) == want_prefix);

	/* The next block starts S' values on (unless that overflows). */
	if (v <= INT64_MAX - l.block_size && v >= 0)
		REQUIRE(block_prefix(v + l.block_size, l) == ((want_prefix + 1) & mask));

	uint8_t		random[uuid_len] = {0};
	uint8_t		out[uuid_len];

	fdp.ConsumeData(random, block_random_len(l));
	encode_block(v, l, random, out);

	/* Round trip: the prefix reads back, the rest is the random bytes but the version and variant. */
	REQUIRE(decode_block(out, c) == want_prefix);
	REQUIRE(version_nibble(out) == version_4);
	REQUIRE((out[8] & 0xC0) == 0x80);

	std::size_t p = static_cast<std::size_t>(l.prefix_bits / 8);

	for (std::size_t i = p; i < uuid_len; i++)
	{
		uint8_t		keep = i == 6 ? 0x0F : i == 8 ? 0x3F : 0xFF;

		REQUIRE((out[i] & keep) == (random[i - p] & keep));
	}

	/* Any 16 bytes decode to their first B/8 bytes. */
	uint8_t		any[uuid_len] = {0};

	fdp.ConsumeData(any, uuid_len);
	REQUIRE(decode_block(any, c) == get_be(any, static_cast<int>(p)));
}

// Floor division in 128 bits.
__int128
floor_div128(__int128 a, __int128 b)
{
	__int128	q = a / b;

	return q - ((a % b != 0) && ((a < 0) != (b < 0)));
}

// Pick a time-block length in microseconds, mostly near the edges and the round units.
int64_t
edgy_length_us(FuzzedDataProvider &fdp)
{
	switch (fdp.ConsumeIntegralInRange<int>(0, 4))
	{
		case 0:
			return fdp.ConsumeIntegral<int64_t>();
		case 1:
			return fdp.ConsumeIntegralInRange<int64_t>(-2, 3000);
		case 2:
			return fdp.ConsumeIntegralInRange<int64_t>(1, 100000) * usecs_per_msec;
		case 3:
			return static_cast<int64_t>(edgy_int32(fdp)) * usecs_per_sec;
		default:
			return time_block_max_us - fdp.ConsumeIntegralInRange<int64_t>(-2, 2);
	}
}

// The interval form: its rule in 128 bits, agreement with the integer form, prefixes, block starts.
void
fuzz_time_blocks(FuzzedDataProvider &fdp)
{
	/* An interval's fixed length: months refused, days of 86400 s, exact in 128 bits. */
	int32_t		months = fdp.ConsumeBool() ? 0 : fdp.ConsumeIntegral<int32_t>();
	int32_t		days = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<int32_t>(-2, 30000) : fdp.ConsumeIntegral<int32_t>();
	int64_t		time = fdp.ConsumeBool() ? edgy_length_us(fdp) : fdp.ConsumeIntegral<int64_t>();
	int64_t		us = -7;
	BlockStatus st = interval_length_us(months, days, time, &us);
	__int128	total = static_cast<__int128>(days) * usecs_per_day + time;

	if (months != 0)
		REQUIRE(st == BlockStatus::interval_has_months);
	else if (total < time_block_min_us)
		REQUIRE(st == BlockStatus::interval_too_short);
	else if (total > time_block_max_us)
		REQUIRE(st == BlockStatus::interval_too_long);
	else
		REQUIRE(st == BlockStatus::ok && us == static_cast<int64_t>(total));
	if (st != BlockStatus::ok)
		REQUIRE(us == -7);

	/* The layout: u the coarsest unit dividing L, S' = max(1, floor((L / u) * C / 2^B)) * u. */
	int64_t		len = edgy_length_us(fdp);
	int32_t		c = edgy_int32(fdp);
	TimeBlockLayout l{0, 0, 0};

	st = time_block_layout(len, c, &l);
	if (len < time_block_min_us)
	{
		REQUIRE(st == BlockStatus::interval_too_short);
		return;
	}
	if (len > time_block_max_us)
	{
		REQUIRE(st == BlockStatus::interval_too_long);
		return;
	}
	if (c < 1)
	{
		REQUIRE(st == BlockStatus::bad_block_count);
		return;
	}
	REQUIRE(st == BlockStatus::ok);

	int64_t		u = len % usecs_per_sec == 0 ? usecs_per_sec : len % usecs_per_msec == 0 ? usecs_per_msec : 1;
	int			bits = prefix_bits_for(c);
	__int128	per = (static_cast<__int128>(len / u) * c) >> bits;

	REQUIRE(l.prefix_bits == bits && l.unit_us == u);
	int64_t		least = u > time_block_min_us ? u : time_block_min_us;

	REQUIRE(l.block_us == (static_cast<int64_t>(per) * u > least ? static_cast<int64_t>(per) * u : least));
	REQUIRE(l.block_us >= time_block_min_us && l.block_us <= len);

	/* Whole seconds: the integer form's layout, and its prefix at every clock from 1970. */
	int64_t		t = fdp.ConsumeIntegral<int64_t>();

	if (u == usecs_per_sec && len / usecs_per_sec <= INT32_MAX)
	{
		BlockLayout il;
		TimeBlockLayout sl{0, 0, 0};

		REQUIRE(block_layout(static_cast<int32_t>(len / usecs_per_sec), c, &il) == BlockStatus::ok);
		REQUIRE(time_block_layout_seconds(static_cast<int32_t>(len / usecs_per_sec), c, &sl) == BlockStatus::ok);
		REQUIRE(sl.prefix_bits == l.prefix_bits && sl.block_us == l.block_us && sl.unit_us == l.unit_us);
		REQUIRE(il.block_size * usecs_per_sec == l.block_us);
		if (t >= 0)
			REQUIRE(time_block_prefix(t, l) == block_prefix(floor_div(floor_div(t, 1000), 1000), il));
	}

	/* The prefix is floor(t / S') mod 2^B. */
	uint64_t	mask = (UINT64_C(1) << bits) - 1;
	uint64_t	want = static_cast<uint64_t>(static_cast<int64_t>(floor_div128(t, l.block_us))) & mask;

	REQUIRE(time_block_prefix(t, l) == want);

	/* The wrap, when it fits. */
	int64_t		wrap = 0;
	__int128	want_wrap = static_cast<__int128>(l.block_us) << bits;

	if (want_wrap <= INT64_MAX)
		REQUIRE(time_block_wrap_us(l, &wrap) && wrap == static_cast<int64_t>(want_wrap));
	else
		REQUIRE(!time_block_wrap_us(l, &wrap));

	/* The block start: the latest k * S' <= as_of with k = prefix mod 2^B, exact in 128 bits. */
	uint64_t	prefix = fdp.ConsumeIntegral<uint64_t>();
	int64_t		as_of = fdp.ConsumeBool() ? t : fdp.ConsumeIntegral<int64_t>();
	__int128	a = floor_div128(as_of, l.block_us);
	__int128	d = (static_cast<__int128>(static_cast<uint64_t>(static_cast<int64_t>(a)) - prefix)) & mask;
	__int128	want_start = (a - d) * l.block_us;
	int64_t		start = 0;
	bool		ok = time_block_start(prefix, as_of, l, &start);

	REQUIRE(ok == (want_start >= INT64_MIN));
	if (ok)
	{
		REQUIRE(start == static_cast<int64_t>(want_start));
		REQUIRE(start <= as_of);
		REQUIRE(static_cast<__int128>(as_of) - start < static_cast<__int128>(l.block_us) << bits);
		REQUIRE(time_block_prefix(start, l) == (prefix & mask));
	}
}

// The advice: every row meets or flags the rule, and its arguments make the advised block.
void
fuzz_advice(FuzzedDataProvider &fdp)
{
	double		rate = fdp.ConsumeBool() ? fdp.ConsumeFloatingPointInRange<double>(1e-9, 1e13) :
		static_cast<double>(fdp.ConsumeIntegralInRange<int64_t>(1, 10000000));
	double		retention = fdp.ConsumeFloatingPointInRange<double>(1, 1e18);
	int64_t		memory = fdp.ConsumeIntegralInRange<int64_t>(1, INT64_MAX);
	int64_t		fit = advice_rows_that_fit(memory);
	BlockAdvice s;
	BlockAdvice t;

	advise_sequence(rate, retention, memory, &s);
	advise_time(rate, retention, memory, &t);

	/* Sequence: a power of two, the largest that fits (or 1, or the cap). */
	REQUIRE(s.effective >= 1 && (s.effective & (s.effective - 1)) == 0);
	REQUIRE(s.effective <= advice_max_block_size);
	REQUIRE(s.effective <= (fit > 1 ? fit : 1));
	REQUIRE(s.effective * 2 > fit || s.effective == advice_max_block_size);
	REQUIRE(s.rows_per_block == static_cast<double>(s.effective));

	BlockLayout sl;

	REQUIRE(block_layout(s.block_size, s.count, &sl) == BlockStatus::ok);
	REQUIRE(sl.block_size == s.effective && sl.prefix_bits == s.prefix_bits);

	/* Time: 1, 2 or 5 times a power of ten ms, and the arguments make exactly that block. */
	int64_t		ms = t.effective / usecs_per_msec;

	REQUIRE(t.effective % usecs_per_msec == 0 && ms >= 1);
	while (ms % 10 == 0)
		ms /= 10;
	REQUIRE(ms == 1 || ms == 2 || ms == 5);
	REQUIRE(t.effective <= advice_max_interval_us);

	TimeBlockLayout tl{0, 0, 0};

	REQUIRE(time_block_layout(t.interval_us, t.count, &tl) == BlockStatus::ok);
	REQUIRE(tl.block_us == t.effective && tl.prefix_bits == t.prefix_bits);

	/* Both: flags as defined, prefix the smallest that covers, hot set 40 bytes a row. */
	const BlockAdvice *both[] = {&s, &t};

	for (const BlockAdvice *a : both)
	{
		double		block_us = a->wrap_us / static_cast<double>(UINT64_C(1) << a->prefix_bits);

		REQUIRE(a->hot_set_fits == (a->hot_set_bytes <= memory / advice_hot_divisor));
		REQUIRE(a->wrap_covers == (a->wrap_us >= advice_wrap_margin * retention));
		REQUIRE(a->wrap_covers || a->prefix_bits == 32);
		REQUIRE(a->prefix_bits == 8 || block_us * static_cast<double>(UINT64_C(1) << (a->prefix_bits - 8)) <
				advice_wrap_margin * retention);
		REQUIRE(a->hot_set_bytes >= a->rows_per_block * advice_entry_bytes ||
				a->rows_per_block * advice_entry_bytes > 9.0e18);
		REQUIRE(a->count == (a->prefix_bits < 32 ? static_cast<int32_t>(UINT64_C(1) << a->prefix_bits) : INT32_C(1) << 30));
	}
}

}							// namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size)
{
	static const Check checks[] = {fuzz_blocks, fuzz_time_blocks, fuzz_advice};

	return run_check(data, size, checks);
}
