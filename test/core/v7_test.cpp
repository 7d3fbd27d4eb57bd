// Core unit tests of version 7 and 4: RFC 9562 vectors, boundaries, PostgreSQL 18's clock rule, ordered and explicit-time ids.
#include "core/formats.hpp"
#include "core/v7.hpp"
#include "check.hpp"

#include <initializer_list>

using namespace locality_uuid;

namespace
{

constexpr int64_t ms_rfc = INT64_C(0x017F22E279B0);	/* 2022-02-22 19:22:22 UTC, RFC 9562 A.6 */

void
test_rfc_vectors()
{
	const uint8_t rand_b[8] = {0x98, 0xC4, 0xDC, 0x0C, 0x0C, 0x07, 0x39, 0x8F};
	uint8_t		u[uuid_len];

	encode_v7(ms_rfc, 0xCC3, rand_b, u);
	CHECK_UUID(u, "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
	CHECK_EQ(v7_ms(u), ms_rfc);
	CHECK_EQ(version_nibble(u), 7u);
	CHECK(rfc_variant(u));

	/* RFC 9562 A.1, version 1 of the same instant: 100 ns since 1582-10-15. */
	const uint8_t v1[uuid_len] = {0xC2, 0x32, 0xAB, 0x00, 0x94, 0x14, 0x11, 0xEC,
		0xB3, 0xC8, 0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46};

	CHECK_EQ(v1_timestamp(v1), UINT64_C(138648505420000000));

	/* Version 4: the random bytes, but version and variant. */
	uint8_t		ones[uuid_len];

	for (auto &b : ones)
		b = 0xff;
	encode_v4(ones, u);
	CHECK_UUID(u, "ffffffff-ffff-4fff-bfff-ffffffffffff");
}

void
test_boundaries()
{
	uint8_t		u[uuid_len];

	v7_lower(ms_rfc, u);
	CHECK_UUID(u, "017f22e2-79b0-7000-8000-000000000000");
	v7_upper(ms_rfc, u);
	CHECK_UUID(u, "017f22e2-79b0-7fff-bfff-ffffffffffff");
	v7_lower(0, u);
	CHECK_UUID(u, "00000000-0000-7000-8000-000000000000");
	v7_upper(v7_ms_max, u);
	CHECK_UUID(u, "ffffffff-ffff-7fff-bfff-ffffffffffff");
}

// The time of ns nanoseconds from 1970 (ns >= 0).
V7Time
at_ns(int64_t ns)
{
	return V7Time{ns / ns_per_ms, static_cast<int32_t>(ns % ns_per_ms)};
}

// The reading as nanoseconds from 1970 (for readings before 2262).
int64_t
ns_of(V7Time t)
{
	return t.ms * ns_per_ms + t.ns;
}

void
test_clock()
{
	CHECK_EQ(v7_subms(0), 0u);
	CHECK_EQ(v7_subms(244), 0u);
	CHECK_EQ(v7_subms(245), 1u);
	CHECK_EQ(v7_subms(500000), 2048u);
	CHECK_EQ(v7_subms(999999), 4095u);
	CHECK_EQ(v7_step_ns, 245);

	V7Clock		c;

	CHECK_EQ(ns_of(c.next(at_ns(1000))), 1000);
	CHECK_EQ(ns_of(c.next(at_ns(1000))), 1245);	/* a clock that has not moved */
	CHECK_EQ(ns_of(c.next(at_ns(500))), 1490);	/* a clock that stepped back */
	CHECK_EQ(ns_of(c.next(at_ns(1735))), 1735);	/* one step exactly: previous + step, which is the clock */
	CHECK_EQ(ns_of(c.next(at_ns(1736))), 1980);	/* less than a step on: previous + step */
	CHECK_EQ(ns_of(c.next(at_ns(2226))), 2226);	/* more than a step on: the clock's */
	CHECK_EQ(ns_of(c.next(at_ns(999900))), 999900);
	CHECK_EQ(ns_of(c.next(at_ns(999900))), 1000145);	/* a step over into the next millisecond */

	/* Every step moves the fraction on: 4096 readings in one frozen millisecond all differ. */
	V7Clock		d;
	V7Time		last = d.next(at_ns(1000000000));
	int			increasing = 0;

	for (int i = 0; i < 4095; i++)
	{
		V7Time		t = d.next(at_ns(1000000000));

		increasing += t.ms > last.ms || v7_subms(t.ns) > v7_subms(last.ns);
		last = t;
	}
	CHECK_EQ(increasing, 4095);

	/* Past 2262, where nanoseconds from 1970 overflow 64 bits: the year 9999's last millisecond. */
	V7Clock		e;
	V7Time		late{INT64_C(253402300799999), 999800};
	V7Time		t = e.next(late);

	CHECK(t.ms == late.ms && t.ns == late.ns);
	t = e.next(late);
	CHECK(t.ms == late.ms + 1 && t.ns == 45);
}

void
test_ordered()
{
	const uint8_t ones[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	uint8_t		u[uuid_len];
	uint64_t	w = v7_word(V7Time{ms_rfc, 500000});

	CHECK_EQ(v7_word_ms(w), ms_rfc);
	encode_v7_ordered(w, ones, u);
	CHECK_UUID(u, "017f22e2-79b0-7800-83ff-ffffffffffff");
	encode_v7_ordered(w + 7, ones, u);
	CHECK_UUID(u, "017f22e2-79b0-7800-9fff-ffffffffffff");
	encode_v7_ordered(w + 8, ones, u);
	CHECK_UUID(u, "017f22e2-79b0-7801-83ff-ffffffffffff");

	/* The word of the last step of a millisecond, then the next millisecond. */
	uint64_t	last = v7_word(V7Time{ms_rfc, 999999}) | 7;

	encode_v7_ordered(last + 1, ones, u);
	CHECK_UUID(u, "017f22e2-79b1-7000-83ff-ffffffffffff");

	/* Taking words: the clock's when it is ahead, else the previous + 1 (stopped or stepped back). */
	CHECK_EQ(v7_word_after(w, w + 100), w + 100);
	CHECK_EQ(v7_word_after(w, w), w + 1);
	CHECK_EQ(v7_word_after(w, w - 5000), w + 1);

	/* Ids sort as their words, whatever the random bytes. */
	uint8_t		a[uuid_len];
	uint8_t		b[uuid_len];
	const uint8_t zeros[8] = {};
	int			sorted = 0;

	for (uint64_t i = 0; i < 1000; i++)
	{
		encode_v7_ordered(w + i, ones, a);
		encode_v7_ordered(w + i + 1, zeros, b);
		sorted += std::memcmp(a, b, uuid_len) < 0;
	}
	CHECK_EQ(sorted, 1000);
}

void
test_explicit()
{
	const uint8_t r[4] = {1, 2, 3, 4};
	uint8_t		u[uuid_len];

	CHECK(encode_v7_explicit(ms_rfc, UINT64_C(0x123456789AB), r, u));
	CHECK_UUID(u, "017f22e2-79b0-791a-a567-89ab01020304");
	CHECK(encode_v7_explicit(ms_rfc, 0, r, u));
	CHECK_UUID(u, "017f22e2-79b0-7000-a000-000001020304");
	CHECK(encode_v7_explicit(ms_rfc, (UINT64_C(1) << 41) - 1, r, u));
	CHECK_UUID(u, "017f22e2-79b0-7fff-bfff-ffff01020304");

	/* Numbers are never reduced: 2^41 and above are refused, nothing written. */
	uint8_t		w[uuid_len] = {0};

	CHECK(!encode_v7_explicit(ms_rfc, UINT64_C(1) << 41, r, w));
	CHECK(!encode_v7_explicit(ms_rfc, (UINT64_C(1) << 41) + 1, r, w));
	CHECK_UUID(w, "00000000-0000-0000-0000-000000000000");

	/* An explicit id and a clock id differ in byte 8's flag, whatever else they carry. */
	const uint8_t ones[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	uint8_t		c[uuid_len];

	encode_v7_ordered(v7_word(V7Time{ms_rfc, 999999}) | 7, ones, c);
	encode_v7_explicit(ms_rfc, UINT64_C(0x1FFFFFFFFFF), r, u);
	CHECK_EQ(c[8] & v7_explicit_flag, 0);
	CHECK_EQ(u[8] & v7_explicit_flag, v7_explicit_flag);

	/* The last range of 2^41 numbers in ranges of 256: 256 numbers, then exhausted. */
	Allocator	a(v7_allocation_bits);
	uint64_t	n = 99;

	CHECK_EQ(a.limit(), UINT64_C(2199023255552));
	a.add_range((UINT64_C(1) << 33) - 1, 256);
	CHECK(a.next(&n) == AllocationStatus::ok);
	CHECK_EQ(n, (UINT64_C(1) << 41) - 256);
	for (int i = 1; i < 256; i++)
		a.next(&n);
	CHECK_EQ(n, (UINT64_C(1) << 41) - 1);
	CHECK(a.next(&n) == AllocationStatus::exhausted);
}

// The decoder reads back what each encoder wrote: time, fraction, counter, allocation.
void
test_decode()
{
	const uint8_t ones[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	const uint8_t r[4] = {1, 2, 3, 4};
	uint8_t		u[uuid_len];
	V7Fields	f;

	/* uuidv7(): 0xCC3 (3267) of 4096 of a millisecond is 797.6 us, truncated */
	encode_v7(ms_rfc, 0xCC3, ones, u);
	decode_v7(u, &f);
	CHECK_EQ(f.ms, ms_rfc);
	CHECK_EQ(f.rand_a, 0xCC3u);
	CHECK_EQ(f.subms_us, ms_rfc * 1000 + 797);

	/* a clock id of uuidv7_ordered(): counter 5 of the word of 500000 ns (fraction 2048) */
	encode_v7_ordered(v7_word(V7Time{ms_rfc, 500000}) + 5, ones, u);
	decode_v7(u, &f);
	CHECK(!f.is_explicit);
	CHECK_EQ(f.counter, 5u);
	CHECK_EQ(f.rand_a, 2048u);
	CHECK_EQ(f.subms_us, ms_rfc * 1000 + 500);

	/* explicit ids: the allocation number, at both ends of its 41 bits */
	for (uint64_t n : {UINT64_C(0), UINT64_C(0x123456789AB), v7_allocation_limit - 1})
	{
		encode_v7_explicit(ms_rfc, n, r, u);
		decode_v7(u, &f);
		CHECK(f.is_explicit);
		CHECK_EQ(f.ms, ms_rfc);
		CHECK_EQ(f.allocation, n);
	}
}

/* 2026-03-02 00:00:00 UTC in Unix microseconds; its millisecond is 0x019cabd83800. */
constexpr int64_t us_day = INT64_C(1772409600000000);

void
test_made_keys()
{
	/* made_unit: a bound with microseconds rounds up to the id's millisecond, then clamps. */
	CHECK_EQ(made_unit(0, 1000, v7_ms_max), 0);
	CHECK_EQ(made_unit(1, 1000, v7_ms_max), 1);
	CHECK_EQ(made_unit(1000, 1000, v7_ms_max), 1);
	CHECK_EQ(made_unit(1001, 1000, v7_ms_max), 2);
	CHECK_EQ(made_unit(-1, 1000, v7_ms_max), 0);
	CHECK_EQ(made_unit(-1001, 1000, v7_ms_max), 0);
	CHECK_EQ(made_unit(INT64_MIN, 1000, v7_ms_max), 0);
	CHECK_EQ(made_unit(INT64_MAX, 1000, v7_ms_max), v7_ms_max + 1);

	/* made_next_us: "after a" is "at or after a + 1 us"; the ends of int64 (the infinities) stay. */
	CHECK_EQ(made_next_us(0), 1);
	CHECK_EQ(made_next_us(-1), 0);
	CHECK_EQ(made_next_us(INT64_MIN), INT64_MIN + 1);
	CHECK_EQ(made_next_us(INT64_MAX), INT64_MAX);
	CHECK_EQ(made_unit(made_next_us(1000), 1000, v7_ms_max), 2);
	CHECK_EQ(made_unit(made_next_us(999), 1000, v7_ms_max), 1);

	/* 1970 and earlier, -infinity: every id from since, none before. The format's end
	 * (10889-08-02 05:31:50.655 UTC), infinity: none from since, every id before. */
	CHECK_IDS(v7_made_since, {{us_day, "019cabd8-3800-7000-8000-000000000000"},
							  {us_day + 1, "019cabd8-3801-7000-8000-000000000000"},
							  {INT64_MIN, "00000000-0000-0000-0000-000000000000"},
							  {-5, "00000000-0000-0000-0000-000000000000"},
							  {1, "00000000-0001-7000-8000-000000000000"},
							  {v7_ms_max * 1000, "ffffffff-ffff-7000-8000-000000000000"},
							  {v7_ms_max * 1000 + 1, "ffffffff-ffff-ffff-ffff-ffffffffffff"},
							  {INT64_MAX, "ffffffff-ffff-ffff-ffff-ffffffffffff"}});
	CHECK_IDS(v7_made_before, {{us_day, "019cabd8-37ff-7fff-bfff-ffffffffffff"},
							   {us_day + 1, "019cabd8-3800-7fff-bfff-ffffffffffff"},
							   {0, "00000000-0000-0000-0000-000000000000"},
							   {INT64_MIN, "00000000-0000-0000-0000-000000000000"},
							   {1, "00000000-0000-7fff-bfff-ffffffffffff"},
							   {v7_ms_max * 1000, "ffffffff-fffe-7fff-bfff-ffffffffffff"},
							   {v7_ms_max * 1000 + 1, "ffffffff-ffff-ffff-ffff-ffffffffffff"},
							   {INT64_MAX, "ffffffff-ffff-ffff-ffff-ffffffffffff"}});
}

void
test_made()
{
	const uint8_t rand_b[8] = {0x98, 0xC4, 0xDC, 0x0C, 0x0C, 0x07, 0x39, 0x8F};
	const int64_t us = ms_rfc * 1000;
	uint8_t		  u[uuid_len];
	uint8_t		  ones[uuid_len];

	encode_v7(ms_rfc, 0xCC3, rand_b, u);
	CHECK(v7_id(u));
	CHECK(v7_made(u, us, us + 1));
	CHECK(v7_made(u, us - 999, us + 1));
	CHECK(!v7_made(u, us + 1, INT64_MAX));
	CHECK(!v7_made(u, INT64_MIN, us));
	CHECK(v7_made(u, INT64_MIN, INT64_MAX));

	/* Other versions carry no version 7 time. */
	for (auto &b : ones)
		b = 0xff;
	encode_v4(ones, u);
	CHECK(!v7_id(u));
	CHECK(!v7_made(u, INT64_MIN, INT64_MAX));
}

}							// namespace

int
main()
{
	test_rfc_vectors();
	test_boundaries();
	test_clock();
	test_ordered();
	test_explicit();
	test_decode();
	test_made_keys();
	test_made();
	return check::finish("v7");
}
