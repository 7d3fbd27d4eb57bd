// Core unit tests of the shard-key uuid (HotGuid layout): docs/format.md, section 3 vectors, ids over time, machine hash.
#include "core/hot.hpp"
#include "check.hpp"

using namespace locality_uuid;

namespace
{

/* As in docs/format.md, section 3: machine digest bytes 11 22 33, process 0x4455; clock in Unix us. */
HotEnvironment
env_us(int64_t unix_us)
{
	return HotEnvironment{hot_tick_of(unix_us * 1000), {0x11, 0x22, 0x33}, 0x4455, nullptr};
}

constexpr int64_t t_2022_02_06 = 1644105600;	/* 2022-02-06 00:00:00 UTC */
constexpr int64_t us_2022_02_06 = t_2022_02_06 * 1000000;

void
test_vectors()
{
	struct
	{
		HotFields	f;
		const char *text;
	}			vectors[] = {
		{{hot_seconds(t_2022_02_06), {0x11, 0x22, 0x33}, 0x4455, 0x0A0B0C, 208},
		"61ff0f80-2211-4433-550a-0b0cd0000000"},
		{{hot_seconds(t_2022_02_06), {0x11, 0x22, 0x33}, 0x4455, 1, 0},
		"61ff0f80-2211-4433-5500-000100000000"},
		{{hot_seconds(0), {0x11, 0x22, 0x33}, 0x4455, 42, 305419896},
		"00000000-2211-4433-5500-002a78563412"},
	};
	uint8_t		u[uuid_len];
	HotFields	f;

	CHECK_EQ(hot_seconds(t_2022_02_06), 0x61FF0F80u);
	for (const auto &v : vectors)
	{
		CHECK(encode_hot(v.f, u));
		const char *got = check::uuid_text(u);

		check::report(std::strcmp(got, v.text) == 0, v.text, __FILE__, __LINE__);
		if (std::strcmp(got, v.text) != 0)
			std::printf("#   got %s\n", got);
		decode_hot(u, &f);
		CHECK_EQ(f.seconds, v.f.seconds);
		CHECK_EQ(f.machine[0], v.f.machine[0]);
		CHECK_EQ(f.machine[1], v.f.machine[1]);
		CHECK_EQ(f.machine[2], v.f.machine[2]);
		CHECK_EQ(f.process, v.f.process);
		CHECK_EQ(f.counter, v.f.counter);
		CHECK_EQ(f.shard, v.f.shard);
		CHECK_EQ(hot_shard_key(u), v.f.shard);
		CHECK_EQ(hot_time_field(u), v.f.seconds);
	}

	/* The shard key as docs/format.md, section 3 extracts it: b12 + b13*2^8 + b14*2^16 + b15*2^24. */
	encode_hot(vectors[2].f, u);
	CHECK_EQ(u[12] + u[13] * 256u + u[14] * 65536u + u[15] * 16777216u, 305419896u);
}

void
test_limits()
{
	uint8_t		u[uuid_len];
	/* The extremes, then each field landing only in its own bytes. */
	const struct
	{
		HotFields	f;
		const char *text;
	}			layouts[] = {
		{{0xFFFFFFFF, {0xFF, 0xFF, 0xFF}, 0xFFFF, hot_counter_max, 0xFFFFFFFF}, "ffffffff-ffff-ffff-ffff-ffffffffffff"},
		{{0, {0, 0, 0}, 0, 0, 0}, "00000000-0000-0000-0000-000000000000"},
		{{0, {0x01, 0x02, 0x03}, 0, 0, 0}, "00000000-0201-0003-0000-000000000000"},
		{{0, {0, 0, 0}, 0xABCD, 0, 0}, "00000000-0000-ab00-cd00-000000000000"},
		{{0, {0, 0, 0}, 0, 0xFEDCBA, 0}, "00000000-0000-0000-00fe-dcba00000000"},
		{{0, {0, 0, 0}, 0, 0, 0xFFFFFFFF}, "00000000-0000-0000-0000-0000ffffffff"},
		{{0, {0, 0, 0}, 0, 0, 1}, "00000000-0000-0000-0000-000001000000"},
	};

	for (const auto &l : layouts)
	{
		CHECK(encode_hot(l.f, u));
		CHECK_UUID(u, l.text);
		CHECK_EQ(hot_shard_key(u), l.f.shard);
	}

	HotFields	f = layouts[6].f;

	/* A counter beyond 24 bits is refused and nothing is written. */
	uint8_t		before[uuid_len];

	std::memcpy(before, u, uuid_len);
	f.counter = hot_counter_max + 1;
	CHECK(!encode_hot(f, u));
	CHECK(std::memcmp(before, u, uuid_len) == 0);
}

void
test_time_field()
{
	/* HotGuid's own tests: 2038 steps over int32, 2106 wraps to 0. */
	CHECK_EQ(hot_seconds(2147483646), 2147483646u);	/* 2038-01-19 03:14:06 UTC */
	CHECK_EQ(hot_seconds(2147483647), 2147483647u);	/* 2038-01-19 03:14:07 UTC */
	CHECK_EQ(hot_seconds(2147483648LL), 2147483648u);	/* 2038-01-19 03:14:08 UTC */
	CHECK_EQ(hot_seconds(4294967294LL), 4294967294u);	/* 2106-02-07 06:28:14 UTC */
	CHECK_EQ(hot_seconds(4294967295LL), 4294967295u);	/* 2106-02-07 06:28:15 UTC */
	CHECK_EQ(hot_seconds(4294967296LL), 0u);			/* 2106-02-07 06:28:16 UTC */
	CHECK_EQ(hot_seconds(4294967297LL), 1u);
	/* Before 1970 wraps too. */
	CHECK_EQ(hot_seconds(-1), 4294967295u);			/* 1969-12-31 23:59:59 UTC */
	CHECK_EQ(hot_seconds(-4294967296LL), 0u);

	uint8_t		u[uuid_len];

	hot_boundary(hot_seconds(t_2022_02_06), u);
	CHECK_UUID(u, "61ff0f80-0000-0000-0000-000000000000");
	hot_boundary(hot_seconds(4294967296LL), u);
	CHECK_UUID(u, "00000000-0000-0000-0000-000000000000");
	hot_boundary(hot_seconds(-1), u);
	CHECK_UUID(u, "ffffffff-0000-0000-0000-000000000000");

	/* The boundary sorts at or below every id of its second and above every earlier one. */
	uint8_t		lo[uuid_len];
	uint8_t		hi[uuid_len];
	HotFields	smallest{hot_seconds(t_2022_02_06), {0, 0, 0}, 0, 0, 0};
	HotFields	largest{hot_seconds(t_2022_02_06 - 1), {0xFF, 0xFF, 0xFF}, 0xFFFF, hot_counter_max, 0xFFFFFFFF};

	hot_boundary(hot_seconds(t_2022_02_06), u);
	encode_hot(smallest, lo);
	encode_hot(largest, hi);
	CHECK(std::memcmp(u, lo, uuid_len) == 0);
	CHECK(std::memcmp(hi, u, uuid_len) < 0);
}

void
test_ticks()
{
	/* 2^23 ticks a second: a tick is 119.2 ns; one microsecond is 8.388608 ticks, floored. */
	CHECK_TABLE(hot_tick_of, {{0, 0}, {119, 0}, {120, 1}, {1000, 8}, {2000, 16}, {999999999, 8388607},
							  {1000000000, hot_ticks_per_second}, {-1, -1}, {-1000, -9}});
	CHECK_EQ(hot_tick_of(us_2022_02_06 * 1000), t_2022_02_06 * hot_ticks_per_second);
	CHECK_EQ(hot_tick_at(t_2022_02_06, 999999999), t_2022_02_06 * hot_ticks_per_second + 8388607);
}

void
test_generator_clock()
{
	uint8_t		a[uuid_len];
	uint8_t		b[uuid_len];
	HotFields	f;
	HotGenerator g;

	/* The first id takes the clock's tick. */
	g.next(208, env_us(us_2022_02_06 + 1), a);
	CHECK_UUID(a, "61ff0f80-2211-4433-5500-0008d0000000");	/* second + tick 8 */

	/* Same tick again: the next tick, at once (nothing waits). */
	g.next(208, env_us(us_2022_02_06 + 1), b);
	decode_hot(b, &f);
	CHECK_EQ(f.counter, 9u);
	/* read back: a clock id, tick 9 of 2^23 in its second is 1.07 us, truncated to 1 */
	CHECK(!hot_counter_explicit(f.counter));
	CHECK_EQ(hot_clock_us(f), us_2022_02_06 + 1);
	CHECK(std::memcmp(a, b, uuid_len) < 0);

	/* Last tick of a second, then the next second starts at tick 0. */
	g.next(1, env_us(us_2022_02_06 + 999999), a);
	decode_hot(a, &f);
	CHECK_EQ(f.seconds, hot_seconds(t_2022_02_06));
	CHECK_EQ(f.counter, 8388599u);
	g.next(1, env_us(us_2022_02_06 + 1000000), b);
	CHECK_UUID(b, "61ff0f81-2211-4433-5500-000001000000");
	CHECK(std::memcmp(a, b, uuid_len) < 0);

	/* A clock behind by any amount: the backend runs on from its last tick, in order. */
	g.next(1, env_us(us_2022_02_06 + 999500), a);
	decode_hot(a, &f);
	CHECK_EQ(f.seconds, hot_seconds(t_2022_02_06 + 1));
	CHECK_EQ(f.counter, 1u);
	CHECK(std::memcmp(b, a, uuid_len) < 0);
	g.next(1, env_us(us_2022_02_06 - 86400000000LL), b);
	decode_hot(b, &f);
	CHECK_EQ(f.counter, 2u);

	/* The clock catches up and passes: its own ticks again. */
	g.next(1, env_us(us_2022_02_06 + 2000000), a);
	CHECK_UUID(a, "61ff0f82-2211-4433-5500-000001000000");

	/* The process and machine of the environment are carried. */
	HotEnvironment e{hot_tick_of((us_2022_02_06 + 5000000) * 1000), {0xA1, 0xB2, 0xC3}, 0x0102, nullptr};

	g.next(0, e, b);
	CHECK_UUID(b, "61ff0f85-b2a1-01c3-0200-000000000000");

	/* A frozen clock: every id is the tick after the last, 2^23 of them fill one second. */
	HotGenerator z;
	bool		ordered = true;

	z.next(0, env_us(us_2022_02_06), a);
	for (int i = 1; i < (1 << 23); i++)
	{
		z.next(0, env_us(us_2022_02_06), b);
		ordered = ordered && std::memcmp(a, b, uuid_len) < 0;
		std::memcpy(a, b, uuid_len);
	}
	CHECK(ordered);
	CHECK_UUID(a, "61ff0f80-2211-4433-557f-ffff00000000");
	z.next(0, env_us(us_2022_02_06), b);
	CHECK_UUID(b, "61ff0f81-2211-4433-5500-000000000000");

	/* The last clock second the glue reads is 9999-12-31 23:59:59 UTC; its ticks stay below 2^62. */
	CHECK_EQ(clock_seconds_max, 253402300799);
	CHECK(hot_tick_at(clock_seconds_max, 999999999) < (INT64_C(1) << 62));
	HotGenerator late;
	HotEnvironment le{hot_tick_at(clock_seconds_max, 999999999), {0x11, 0x22, 0x33}, 0x4455, nullptr};

	late.next(0, le, a);
	decode_hot(a, &f);
	CHECK_EQ(f.seconds, hot_seconds(clock_seconds_max));
	CHECK_EQ(f.counter, hot_allocation_mask);
	/* 2300-01-01: past int64 nanoseconds (2262), the second mod 2^32. */
	HotGenerator y2300;
	HotEnvironment ye{hot_tick_at(10413792000LL, 0), {0x11, 0x22, 0x33}, 0x4455, nullptr};

	y2300.next(0, ye, a);
	decode_hot(a, &f);
	CHECK_EQ(f.seconds, static_cast<uint32_t>(10413792000LL % 4294967296LL));
}

/*
 * A stand-in for the extension's sequence: ranges of 256 allocation numbers, each range handed
 * out once. next_at_drawing makes an explicit-time id, drawing a range when the generator asks.
 */
uint64_t	sequence_next = 0;

AllocationStatus
next_at_drawing(HotGenerator &g, Allocator *a, uint32_t shard, int64_t seconds, const HotEnvironment &env,
				uint8_t out[uuid_len])
{
	AllocationStatus st = g.next_at(shard, seconds, env, a, out);

	if (st == AllocationStatus::needs_allocations)
	{
		a->add_range(sequence_next++, 256);
		st = g.next_at(shard, seconds, env, a, out);
	}
	return st;
}

void
test_slot_reuse()
{
	uint8_t		u[uuid_len];
	uint8_t		last[uuid_len];
	SlotMarks	slot = {0, 0};
	bool		distinct = true;
	bool		ordered = true;
	bool		have = false;

	/*
	 * Backends holding one slot in turn, each making a burst of ids faster than the clock
	 * ticks, and the clock stepping back between backends (1 ms, 1 s, 1 h, 1 day, then a
	 * frozen clock): every id of every backend is a tick of its own, so none repeats and all
	 * are in order, because each backend starts after the slot's marks.
	 */
	const int64_t steps_us[] = {0, 1000, 1000000, 3600000000LL, 86400000000LL, 0, 0};
	int64_t		clock_ns = us_2022_02_06 * 1000;

	for (int64_t step : steps_us)
	{
		HotGenerator g;

		clock_ns -= step * 1000;
		for (int i = 0; i < 5000; i++)
		{
			HotEnvironment e = env_us(0);

			e.wall_tick = hot_tick_of(clock_ns);
			e.slot = &slot;
			g.next(3, e, u);
			if (have)
			{
				int			c = std::memcmp(last, u, uuid_len);

				distinct = distinct && c != 0;
				ordered = ordered && c < 0;
			}
			std::memcpy(last, u, uuid_len);
			have = true;
			if (step != 0 || i % 2 == 0)
				clock_ns += 37;
		}
	}
	CHECK(distinct);
	CHECK(ordered);

	/* Without the marks (a slot of its own per generator) two backends do repeat each other. */
	HotGenerator p;
	HotGenerator q;
	uint8_t		v[uuid_len];

	p.next(3, env_us(us_2022_02_06), u);
	q.next(3, env_us(us_2022_02_06), v);
	CHECK(std::memcmp(u, v, uuid_len) == 0);
}

void
test_explicit_layout()
{
	/* docs/format.md: counter 0x800000 | (n & 0x7FFFFF), process 0xFFFF - (n >> 23). */
	struct
	{
		uint64_t	n;
		const char *text;
	}			vectors[] = {
		{0, "00000000-2211-ff33-ff80-000007000000"},
		{1, "00000000-2211-ff33-ff80-000107000000"},
		{(UINT64_C(1) << 23) - 1, "00000000-2211-ff33-ffff-ffff07000000"},
		{UINT64_C(1) << 23, "00000000-2211-ff33-fe80-000007000000"},
		{(UINT64_C(1) << 23) + 5, "00000000-2211-ff33-fe80-000507000000"},
		{(UINT64_C(1) << 39) - 1, "00000000-2211-0033-00ff-ffff07000000"},
	};
	const uint8_t machine[hot_machine_len] = {0x11, 0x22, 0x33};
	uint8_t		u[uuid_len];
	HotFields	f;

	for (const auto &v : vectors)
	{
		CHECK(encode_hot_explicit(7, 0, machine, v.n, u));
		CHECK_UUID(u, v.text);
		decode_hot(u, &f);
		CHECK(hot_counter_explicit(f.counter));
		CHECK_EQ(hot_explicit_allocation(f.counter, f.process), v.n);
	}
	CHECK(encode_hot_explicit(7, t_2022_02_06, machine, 1000, u));
	CHECK_UUID(u, "61ff0f80-2211-ff33-ff80-03e807000000");

	/* 2^39 does not fit: refused, nothing written. */
	uint8_t		w[uuid_len] = {0};
	uint32_t	counter = 1;
	uint16_t	process = 1;

	CHECK(!encode_hot_explicit(7, 0, machine, UINT64_C(1) << 39, w));
	CHECK_UUID(w, "00000000-0000-0000-0000-000000000000");
	CHECK(!hot_explicit_fields(UINT64_C(1) << 39, &counter, &process));
	CHECK(!hot_explicit_fields(UINT64_MAX, &counter, &process));
	CHECK_EQ(counter, 1u);
	CHECK_EQ(process, 1);
}

void
test_explicit_time()
{
	uint8_t		u[uuid_len];
	uint8_t		v[uuid_len];
	HotFields	f;
	HotGenerator g;
	Allocator	a(hot_allocation_bits);

	/* No allocation numbers yet: the generator asks for a range and makes nothing. */
	CHECK(g.next_at(7, 0, env_us(us_2022_02_06), &a, u) == AllocationStatus::needs_allocations);

	/*
	 * An explicit second is carried exactly, mod 2^32; the counter is bit 23 and the number's
	 * low 23 bits, the process field 0xFFFF minus its high bits (the backend's 0x4455 not used).
	 */
	a.add(1000, 256);
	CHECK(g.next_at(7, 0, env_us(us_2022_02_06 + 250001), &a, u) == AllocationStatus::ok);
	decode_hot(u, &f);
	CHECK_EQ(f.seconds, 0u);
	CHECK_EQ(f.counter, hot_explicit_bit | 1000u);
	CHECK_UUID(u, "00000000-2211-ff33-ff80-03e807000000");
	CHECK(g.next_at(7, 0, env_us(us_2022_02_06 + 250001), &a, u) == AllocationStatus::ok);
	decode_hot(u, &f);
	CHECK_EQ(f.counter, hot_explicit_bit | 1001u);
	/* 2^32 s later: the same time field; every explicit id takes the next number, any second. */
	CHECK(g.next_at(7, 4294967296LL, env_us(us_2022_02_06 + 250002), &a, u) == AllocationStatus::ok);
	decode_hot(u, &f);
	CHECK_EQ(f.seconds, 0u);
	CHECK_EQ(f.counter, hot_explicit_bit | 1002u);
	CHECK(g.next_at(7, -1, env_us(us_2022_02_06 + 250003), &a, u) == AllocationStatus::ok);
	decode_hot(u, &f);
	CHECK_EQ(f.seconds, 4294967295u);
	CHECK_EQ(f.counter, hot_explicit_bit | 1003u);

	/* The range runs out after 256 numbers; the next one is wherever the sequence is now. */
	bool		all_ok = true;

	for (int i = 4; i < 256; i++)
		all_ok = all_ok && g.next_at(7, 5, env_us(us_2022_02_06), &a, u) == AllocationStatus::ok;
	CHECK(all_ok);
	CHECK(g.next_at(7, 5, env_us(us_2022_02_06), &a, u) == AllocationStatus::needs_allocations);
	a.add_range(UINT64_C(1) << 15, 256);	/* numbers 2^23 .. 2^23 + 255 */
	CHECK(g.next_at(7, 5, env_us(us_2022_02_06), &a, u) == AllocationStatus::ok);
	decode_hot(u, &f);
	CHECK_EQ(f.counter, hot_explicit_bit);
	CHECK_EQ(f.process, 0xFFFE);

	/* The last range of 2^39: its 256 numbers, then exhausted, also after another range. */
	a.add_range((UINT64_C(1) << 31) - 1, 256);
	all_ok = true;
	for (int i = 0; i < 256; i++)
		all_ok = all_ok && g.next_at(7, 5, env_us(us_2022_02_06), &a, u) == AllocationStatus::ok;
	CHECK(all_ok);
	CHECK_UUID(u, "00000005-2211-0033-00ff-ffff07000000");
	CHECK(g.next_at(7, 5, env_us(us_2022_02_06), &a, u) == AllocationStatus::exhausted);
	a.add_range(UINT64_C(1) << 31, 256);
	CHECK(g.next_at(7, 5, env_us(us_2022_02_06), &a, u) == AllocationStatus::exhausted);
	/* The clock's own second needs no number: still a clock id. */
	CHECK(g.next_at(7, t_2022_02_06, env_us(us_2022_02_06 + 250004), &a, u) == AllocationStatus::ok);
	decode_hot(u, &f);
	CHECK((f.counter & hot_explicit_bit) == 0);

	/* An allocator wider than the field: a number past 2^39 is refused, not reduced. */
	Allocator	wide(41);

	wide.add(UINT64_C(1) << 39, 1);
	CHECK(g.next_at(7, 5, env_us(us_2022_02_06), &wide, u) == AllocationStatus::exhausted);

	/* The tick's own second is a clock id: the next tick, distinct from the clock ids around it. */
	Allocator	b(hot_allocation_bits);

	g.next(7, env_us(us_2022_02_06 + 250005), u);
	CHECK(g.next_at(7, t_2022_02_06, env_us(us_2022_02_06 + 250005), &b, v) == AllocationStatus::ok);
	CHECK(std::memcmp(u, v, uuid_len) < 0);
	decode_hot(v, &f);
	CHECK((f.counter & hot_explicit_bit) == 0);

	/* An explicit time in the tick's own second gives the same id a clock id of that tick would. */
	HotGenerator c;
	HotGenerator e;

	c.next(7, env_us(us_2022_02_06 + 10), u);
	e.next(7, env_us(us_2022_02_06 + 10), v);
	c.next(7, env_us(us_2022_02_06 + 20), u);
	CHECK(e.next_at(7, t_2022_02_06, env_us(us_2022_02_06 + 20), &b, v) == AllocationStatus::ok);
	CHECK(std::memcmp(u, v, uuid_len) == 0);
}

uint8_t		mixed_ids[130000][uuid_len];

void
test_explicit_never_meets()
{
	/*
	 * hot_uuid(k) and hot_uuid(k, now()) in one statement that runs from second S into S + 1
	 * (now() stays S): clock ids have bit 23 clear, ids at S once the clock has left it have
	 * it set, so none meets a clock id.
	 */
	HotGenerator g;
	Allocator	a(hot_allocation_bits);
	int			n = 0;
	bool		ok = true;
	int64_t		ns = (us_2022_02_06 + 999000) * 1000;	/* 1 ms before S + 1 */

	for (int i = 0; i < 60000; i++)
	{
		HotEnvironment e = env_us(0);

		e.wall_tick = hot_tick_of(ns);
		g.next(3, e, mixed_ids[n++]);
		ok = ok && next_at_drawing(g, &a, 3, t_2022_02_06, e, mixed_ids[n++]) == AllocationStatus::ok;
		ns += 40;
	}
	CHECK(ok);
	CHECK_EQ(check::duplicate_ids(mixed_ids, n), 0);

	/*
	 * Backends one after the other (a restart between each; shared marks lost), each with a
	 * backfill of second S, of 300 other seconds, then S again, while the stand-in sequence
	 * has moved 2^23 numbers on between backends (as other seconds' backfills would): numbers
	 * are never reduced, so no id repeats (1.3 repeated every id of S 2^23 numbers apart).
	 */
	n = 0;
	for (int backend = 0; backend < 3; backend++)
	{
		HotGenerator b;
		Allocator	ba(hot_allocation_bits);

		for (int i = 0; i < 20000; i++)
			next_at_drawing(b, &ba, 9, 1577836800, env_us(us_2022_02_06), mixed_ids[n++]);
		for (int s = 1; s <= 300; s++)
			next_at_drawing(b, &ba, 9, 1577836800 + s, env_us(us_2022_02_06), mixed_ids[n++]);
		for (int i = 0; i < 20000; i++)
			next_at_drawing(b, &ba, 9, 1577836800, env_us(us_2022_02_06), mixed_ids[n++]);
		sequence_next += (UINT64_C(1) << 23) / 256 - 158;	/* 158 ranges drawn above */
	}
	CHECK_EQ(n, 120900);
	CHECK_EQ(check::duplicate_ids(mixed_ids, n), 0);

	/* Without the sequence (a range handed out twice, as a reset would) they do repeat. */
	HotGenerator r1;
	HotGenerator r2;
	Allocator	a1(hot_allocation_bits);
	Allocator	a2(hot_allocation_bits);

	a1.add_range(0, 256);
	a2.add_range(0, 256);
	r1.next_at(9, 1577836800, env_us(us_2022_02_06), &a1, mixed_ids[0]);
	r2.next_at(9, 1577836800, env_us(us_2022_02_06 + 5000000), &a2, mixed_ids[1]);
	CHECK_EQ(check::duplicate_ids(mixed_ids, 2), 1);
}

/*
 * MD5 digests of the names the machine-hash tests hash, computed outside this repository
 * with `printf %s NAME | md5sum`. The fake MD5 answers only these names, so a test fails if
 * the core hashes any other bytes.
 */
struct KnownDigest
{
	const char *name;
	const char *md5_hex;
};

const KnownDigest known_digests[] = {
	{"db-eu-1", "e765017a8108c712a6aba763076a4148"},
	{"host", "67b3dba8bc6778101892eb77249db32e"},
	{"", "d41d8cd98f00b204e9800998ecf8427e"},
	{"cluster-b.example", "85fc4d29330d59068f2ac8d6e85624d5"},
	{"db-\xc3\xbc", "8c846e748c2424b03b3c4e647aad2fb5"},	/* "db-" and U+00FC in UTF-8 */
};

int			fake_md5_calls = 0;

// Return the value of one lowercase hex digit.
int
hex_value(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

// Return the known digest of exactly len bytes of text; false for any other text.
bool
fake_md5(const char *text, std::size_t len, uint8_t digest[digest_len])
{
	fake_md5_calls++;
	for (const auto &k : known_digests)
		if (std::strlen(k.name) == len && std::memcmp(k.name, text, len) == 0)
		{
			for (std::size_t i = 0; i < digest_len; i++)
				digest[i] = static_cast<uint8_t>(hex_value(k.md5_hex[2 * i]) * 16 +
												 hex_value(k.md5_hex[2 * i + 1]));
			return true;
		}
	return false;
}

// A digest source that always fails.
bool
failing_md5(const char *, std::size_t, uint8_t *)
{
	return false;
}

// Return the machine hash of (machine_name, host_name) as six hex digits, or "failed".
const char *
machine_hex(const char *machine_name, const char *host_name)
{
	static char buf[7];
	uint8_t		m[hot_machine_len];

	if (hot_machine_hash(machine_name, host_name, fake_md5, m) != Status::ok)
		return "failed";
	std::snprintf(buf, sizeof(buf), "%02x%02x%02x", m[0], m[1], m[2]);
	return buf;
}

#define CHECK_MACHINE(machine_name, host_name, hex) \
	check::report(std::strcmp(machine_hex(machine_name, host_name), hex) == 0, \
				  "machine hash of " #machine_name ", " #host_name " is " hex, __FILE__, __LINE__)

void
test_machine_hash()
{
	/* machine_name set: hashed as given, dots included; the host name is not read. */
	CHECK_MACHINE("db-eu-1", nullptr, "e76501");
	CHECK_MACHINE("db-eu-1", "host.example.com", "e76501");
	CHECK_MACHINE("cluster-b.example", nullptr, "85fc4d");
	CHECK_MACHINE("db-\xc3\xbc", nullptr, "8c846e");	/* UTF-8 bytes as they are */

	/* machine_name empty or unset: the host name up to its first dot. */
	CHECK(hot_machine_from_host(nullptr));
	CHECK(hot_machine_from_host(""));
	CHECK(!hot_machine_from_host("x"));
	CHECK(!hot_machine_from_host("."));
	CHECK_MACHINE("", "host", "67b3db");
	CHECK_MACHINE(nullptr, "host", "67b3db");
	CHECK_MACHINE("", "host.example.com", "67b3db");
	CHECK_MACHINE("", "host.", "67b3db");
	CHECK_MACHINE("", "db-eu-1.internal.example", "e76501");

	/* An empty host name, or one that starts with a dot: the MD5 of no bytes. */
	CHECK_MACHINE("", "", "d41d8c");
	CHECK_MACHINE("", ".local", "d41d8c");
	CHECK_MACHINE(nullptr, ".", "d41d8c");

	/* A name the fake does not know fails: nothing but the rule's bytes is hashed. */
	CHECK_MACHINE("db-eu-1 ", nullptr, "failed");
	CHECK_MACHINE("", "hosts", "failed");

	/* One digest per call; a failing digest is reported and leaves the hash as it was. */
	uint8_t		m[hot_machine_len] = {0xA1, 0xB2, 0xC3};

	fake_md5_calls = 0;
	CHECK(hot_machine_hash("db-eu-1", nullptr, fake_md5, m) == Status::ok);
	CHECK_EQ(fake_md5_calls, 1);
	CHECK(hot_machine_hash("db-eu-1", nullptr, failing_md5, m) == Status::digest_failed);
	CHECK_EQ(m[0], 0xe7);
	CHECK_EQ(m[1], 0x65);
	CHECK_EQ(m[2], 0x01);

	/* In an id: digest bytes 0, 1, 2 land at bytes 5, 4, 7 (text digits 10..13, 17..18). */
	HotFields	f{hot_seconds(t_2022_02_06), {m[0], m[1], m[2]}, 0x4455, 0x0A0B0C, 208};
	uint8_t		u[uuid_len];

	CHECK(encode_hot(f, u));
	CHECK_UUID(u, "61ff0f80-65e7-4401-550a-0b0cd0000000");
}

void
test_wrap_2106()
{
	uint8_t		u[uuid_len];
	HotGenerator g;

	/* On the wall clock the time field wraps in 2106, as HotGuid's tests expect. */
	g.next(1, env_us(4294967295LL * 1000000), u);
	g.next(1, env_us(4294967295LL * 1000000 + 500000), u);
	CHECK_UUID(u, "ffffffff-2211-4433-5540-000001000000");	/* half a second: tick 2^22 */
	g.next(1, env_us(4294967296LL * 1000000), u);
	CHECK_UUID(u, "00000000-2211-4433-5500-000001000000");
}

void
test_made()
{
	const int64_t us_day = INT64_C(1772409600000000); /* 2026-03-02 00:00:00 UTC */
	const int64_t us_end = hot_seconds_max * 1000000; /* 2106-02-07 06:28:15 UTC */
	uint8_t		  nil[uuid_len];
	uint8_t		  max[uuid_len];

	/* A bound with microseconds rounds up to the id's second. 1970 and earlier, -infinity; 2106
	 * and later, infinity: clamped, or no key at all. */
	CHECK_IDS(hot_made_since, {{us_day, "69a4d300-0000-0000-0000-000000000000"},
							   {us_day + 1, "69a4d301-0000-0000-0000-000000000000"},
							   {INT64_MIN, "00000000-0000-0000-0000-000000000000"},
							   {-1, "00000000-0000-0000-0000-000000000000"},
							   {us_end, "ffffffff-0000-0000-0000-000000000000"},
							   {us_end + 1, nullptr},
							   {INT64_MAX, nullptr}});
	CHECK_IDS(hot_made_before, {{us_day, "69a4d2ff-ffff-ffff-ffff-ffffffffffff"},
								{us_day + 1, "69a4d300-ffff-ffff-ffff-ffffffffffff"},
								{0, nullptr},
								{INT64_MIN, nullptr},
								{1, "00000000-ffff-ffff-ffff-ffffffffffff"},
								{us_end, "fffffffe-ffff-ffff-ffff-ffffffffffff"},
								{us_end + 1, "ffffffff-ffff-ffff-ffff-ffffffffffff"},
								{INT64_MAX, "ffffffff-ffff-ffff-ffff-ffffffffffff"}});

	/* The nil and max uuids are ids of 1970 and of 2106's last second. */
	uuid_fill(nil, 0x00);
	uuid_fill(max, 0xff);
	CHECK(hot_made(nil, INT64_MIN, 1));
	CHECK(!hot_made(nil, INT64_MIN, 0));
	CHECK(!hot_made(nil, 1, INT64_MAX));
	CHECK(hot_made(max, us_end, INT64_MAX));
	CHECK(!hot_made(max, us_end + 1, INT64_MAX));
	CHECK(!hot_made(max, INT64_MIN, us_end));
	CHECK(hot_made(max, INT64_MIN, us_end + 1));
}

}							// namespace

int
main()
{
	test_vectors();
	test_limits();
	test_time_field();
	test_ticks();
	test_generator_clock();
	test_slot_reuse();
	test_explicit_layout();
	test_explicit_time();
	test_explicit_never_meets();
	test_wrap_2106();
	test_machine_hash();
	test_made();
	return check::finish("hot");
}
