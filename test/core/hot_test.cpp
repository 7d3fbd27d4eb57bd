// Core unit tests of the shard-key uuid (HotGuid layout): SPEC.md 3 vectors, time wrap, counter and clock.
#include "core/hot.hpp"
#include "check.hpp"

using namespace locality_uuid;

namespace
{

/* Deterministic environment: random bytes come from this table. */
uint8_t		fake_random[4];
bool		fake_random_ok = true;
int			random_calls = 0;

bool
fake_random_bytes(uint8_t *buf, std::size_t len)
{
	random_calls++;
	for (std::size_t i = 0; i < len; i++)
		buf[i] = fake_random[i % sizeof(fake_random)];
	return fake_random_ok;
}

void
set_random(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3)
{
	fake_random[0] = b0;
	fake_random[1] = b1;
	fake_random[2] = b2;
	fake_random[3] = b3;
}

/* SPEC.md 3: machine digest bytes 11 22 33, process 0x4455. */
HotEnvironment
env_at(int64_t seconds)
{
	return HotEnvironment{seconds, {0x11, 0x22, 0x33}, 0x4455, fake_random_bytes};
}

constexpr int64_t t_2022_02_06 = 1644105600;	/* 2022-02-06 00:00:00 UTC */

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

	/* Extraction as SPEC.md 3 spells it: b12 + b13*2^8 + b14*2^16 + b15*2^24. */
	encode_hot(vectors[2].f, u);
	CHECK_EQ(u[12] + u[13] * 256u + u[14] * 65536u + u[15] * 16777216u, 305419896u);
}

void
test_limits()
{
	uint8_t		u[uuid_len];
	HotFields	f{0xFFFFFFFF, {0xFF, 0xFF, 0xFF}, 0xFFFF, hot_counter_max, 0xFFFFFFFF};

	CHECK(encode_hot(f, u));
	CHECK_UUID(u, "ffffffff-ffff-ffff-ffff-ffffffffffff");
	f = HotFields{0, {0, 0, 0}, 0, 0, 0};
	CHECK(encode_hot(f, u));
	CHECK_UUID(u, "00000000-0000-0000-0000-000000000000");

	/* Each field lands only in its own bytes. */
	f = HotFields{0, {0x01, 0x02, 0x03}, 0, 0, 0};
	encode_hot(f, u);
	CHECK_UUID(u, "00000000-0201-0003-0000-000000000000");
	f = HotFields{0, {0, 0, 0}, 0xABCD, 0, 0};
	encode_hot(f, u);
	CHECK_UUID(u, "00000000-0000-ab00-cd00-000000000000");
	f = HotFields{0, {0, 0, 0}, 0, 0xFEDCBA, 0};
	encode_hot(f, u);
	CHECK_UUID(u, "00000000-0000-0000-00fe-dcba00000000");
	f = HotFields{0, {0, 0, 0}, 0, 0, 0xFFFFFFFF};
	encode_hot(f, u);
	CHECK_UUID(u, "00000000-0000-0000-0000-0000ffffffff");
	CHECK_EQ(hot_shard_key(u), 4294967295u);
	f = HotFields{0, {0, 0, 0}, 0, 0, 1};
	encode_hot(f, u);
	CHECK_UUID(u, "00000000-0000-0000-0000-000001000000");

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
test_generator_start()
{
	uint8_t		u[uuid_len];
	HotFields	f;

	/* A start of 0 gives the SPEC's second vector as the first id: the counter adds 1 first. */
	HotGenerator g;

	set_random(0, 0, 0, 0);
	random_calls = 0;
	CHECK(g.next(0, env_at(t_2022_02_06), u));
	CHECK_UUID(u, "61ff0f80-2211-4433-5500-000100000000");
	CHECK(g.next(208, env_at(t_2022_02_06), u));
	CHECK_UUID(u, "61ff0f80-2211-4433-5500-0002d0000000");
	CHECK_EQ(random_calls, 1);

	/* The start is below 500000: the largest random value gives 4294967295 mod 500000. */
	HotGenerator m;

	set_random(0xFF, 0xFF, 0xFF, 0xFF);
	CHECK(m.next(1, env_at(t_2022_02_06), u));
	decode_hot(u, &f);
	CHECK_EQ(f.counter, 4294967295u % 500000u + 1u);
	CHECK(f.counter <= 500000u);

	/* Random 0x0007A11F = 499999: the largest start, so the first counter is 500000. */
	HotGenerator top;

	set_random(0x00, 0x07, 0xA1, 0x1F);
	top.next(1, env_at(t_2022_02_06), u);
	decode_hot(u, &f);
	CHECK_EQ(f.counter, 500000u);
	/* And 500000 itself wraps to a start of 0. */
	HotGenerator zero;

	set_random(0x00, 0x07, 0xA1, 0x20);
	zero.next(1, env_at(t_2022_02_06), u);
	decode_hot(u, &f);
	CHECK_EQ(f.counter, 1u);

	/* A failing random source is reported and leaves the counter unseeded. */
	HotGenerator r;

	fake_random_ok = false;
	CHECK(!r.next(1, env_at(t_2022_02_06), u));
	CHECK(!r.next_at(1, 0, env_at(t_2022_02_06), u));
	fake_random_ok = true;
	set_random(0, 0, 0, 41);
	CHECK(r.next_at(305419896, 0, env_at(t_2022_02_06), u));
	CHECK_UUID(u, "00000000-2211-4433-5500-002a78563412");
}

void
test_generator_clock()
{
	uint8_t		a[uuid_len];
	uint8_t		b[uuid_len];
	HotFields	f;
	HotGenerator g;

	set_random(0, 0, 0, 0);
	g.next(7, env_at(t_2022_02_06), a);

	/* The clock steps back: the held second is used, and the id still sorts after. */
	CHECK(g.next(7, env_at(t_2022_02_06 - 100), b));
	decode_hot(b, &f);
	CHECK_EQ(f.seconds, hot_seconds(t_2022_02_06));
	CHECK_EQ(f.counter, 2u);
	CHECK(std::memcmp(a, b, uuid_len) < 0);

	/* The clock moves on: the new second is used. */
	g.next(7, env_at(t_2022_02_06 + 5), b);
	decode_hot(b, &f);
	CHECK_EQ(f.seconds, hot_seconds(t_2022_02_06 + 5));
	CHECK_EQ(f.counter, 3u);

	/* An explicit time is carried exactly, shares the counter and leaves the held clock. */
	CHECK(g.next_at(7, 0, env_at(t_2022_02_06 + 5), b));
	CHECK_UUID(b, "00000000-2211-4433-5500-000407000000");
	CHECK(g.next_at(7, 4294967296LL, env_at(t_2022_02_06 + 5), b));
	decode_hot(b, &f);
	CHECK_EQ(f.seconds, 0u);
	CHECK(g.next_at(7, -1, env_at(t_2022_02_06 + 5), b));
	decode_hot(b, &f);
	CHECK_EQ(f.seconds, 4294967295u);
	CHECK_EQ(f.counter, 6u);
	g.next(7, env_at(t_2022_02_06), b);
	decode_hot(b, &f);
	CHECK_EQ(f.seconds, hot_seconds(t_2022_02_06 + 5));
	CHECK_EQ(f.counter, 7u);

	/* The process and machine of the environment are carried. */
	HotEnvironment e{t_2022_02_06, {0xA1, 0xB2, 0xC3}, 0x0102, fake_random_bytes};

	g.next(0, e, b);
	CHECK_UUID(b, "61ff0f85-b2a1-01c3-0200-000800000000");
}

void
test_counter_wrap()
{
	uint8_t		prev[uuid_len];
	uint8_t		u[uuid_len];
	HotFields	f;
	HotGenerator g;
	bool		ordered = true;
	bool		one_second = true;

	/* Start 0: 2^24 - 1 ids in one second use counters 1 .. 0xFFFFFF, in order. */
	set_random(0, 0, 0, 0);
	g.next(9, env_at(t_2022_02_06), prev);
	for (uint32_t i = 2; i <= hot_counter_max; i++)
	{
		g.next(9, env_at(t_2022_02_06), u);
		ordered = ordered && std::memcmp(prev, u, uuid_len) < 0;
		one_second = one_second && hot_time_field(u) == hot_seconds(t_2022_02_06);
		std::memcpy(prev, u, uuid_len);
	}
	CHECK(ordered);
	CHECK(one_second);
	decode_hot(prev, &f);
	CHECK_EQ(f.counter, 0xFFFFFFu);
	CHECK_UUID(prev, "61ff0f80-2211-4433-55ff-ffff09000000");

	/* The counter wraps to 0 within the same second: the id moves to the next second. */
	g.next(9, env_at(t_2022_02_06), u);
	CHECK_UUID(u, "61ff0f81-2211-4433-5500-000009000000");
	CHECK(std::memcmp(prev, u, uuid_len) < 0);

	/* The real clock is still behind: the held second goes on, in order. */
	std::memcpy(prev, u, uuid_len);
	g.next(9, env_at(t_2022_02_06), u);
	CHECK_UUID(u, "61ff0f81-2211-4433-5500-000109000000");
	CHECK(std::memcmp(prev, u, uuid_len) < 0);

	/* The clock catches up and passes: ordinary seconds again. */
	g.next(9, env_at(t_2022_02_06 + 1), u);
	CHECK_UUID(u, "61ff0f81-2211-4433-5500-000209000000");
	g.next(9, env_at(t_2022_02_06 + 2), u);
	CHECK_UUID(u, "61ff0f82-2211-4433-5500-000309000000");

	/* A wrap across a second boundary needs no correction. */
	HotGenerator w;

	set_random(0x00, 0x07, 0xA1, 0x1F);
	w.next(1, env_at(t_2022_02_06), u);
	for (uint32_t i = 500001; i <= hot_counter_max; i++)
		w.next(1, env_at(t_2022_02_06), u);
	decode_hot(u, &f);
	CHECK_EQ(f.counter, 0xFFFFFFu);
	w.next(1, env_at(t_2022_02_06 + 3), u);
	CHECK_UUID(u, "61ff0f83-2211-4433-5500-000001000000");
}

void
test_wrap_2106()
{
	uint8_t		u[uuid_len];
	HotGenerator g;

	/* On the wall clock the time field wraps in 2106, as HotGuid's tests expect. */
	set_random(0, 0, 0, 0);
	g.next(1, env_at(4294967295LL), u);
	CHECK_UUID(u, "ffffffff-2211-4433-5500-000101000000");
	g.next(1, env_at(4294967296LL), u);
	CHECK_UUID(u, "00000000-2211-4433-5500-000201000000");
}

}							// namespace

int
main()
{
	test_vectors();
	test_limits();
	test_time_field();
	test_generator_start();
	test_generator_clock();
	test_counter_wrap();
	test_wrap_2106();
	return check::finish("hot");
}
