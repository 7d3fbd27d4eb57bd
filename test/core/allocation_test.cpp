// Core unit tests of the allocation numbers of explicit-time ids: ranges, the limit, exhaustion.
#include "core/allocation.hpp"
#include "check.hpp"

using namespace locality_uuid;

namespace
{

void
test_ranges()
{
	Allocator	a(39);
	uint64_t	n = 99;

	CHECK_EQ(a.bits(), 39);
	CHECK_EQ(a.limit(), UINT64_C(549755813888));

	/* Nothing handed over yet: a range is needed, n untouched. */
	CHECK(a.next(&n) == AllocationStatus::needs_allocations);
	CHECK_EQ(n, UINT64_C(99));
	CHECK(!a.used_up());

	/* Range 3 of 256: 768 .. 1023 in order, then a range is needed again. */
	a.add_range(3, 256);
	CHECK(a.next(&n) == AllocationStatus::ok);
	CHECK_EQ(n, UINT64_C(768));
	CHECK(a.next(&n) == AllocationStatus::ok);
	CHECK_EQ(n, UINT64_C(769));
	for (int i = 2; i < 256; i++)
		a.next(&n);
	CHECK_EQ(n, UINT64_C(1023));
	CHECK(a.next(&n) == AllocationStatus::needs_allocations);

	/* A range anywhere: numbers are carried whole, never reduced mod 2^23 or 2^39. */
	a.add_range(UINT64_C(1) << 15, 256);
	CHECK(a.next(&n) == AllocationStatus::ok);
	CHECK_EQ(n, UINT64_C(8388608));

	/* An empty range asks again. */
	a.add(5, 0);
	CHECK(a.next(&n) == AllocationStatus::needs_allocations);
}

void
test_exhaustion()
{
	Allocator	a(39);
	uint64_t	n = 0;

	/* The last range: 2^39 - 256 .. 2^39 - 1, then exhausted for good. */
	a.add_range((UINT64_C(1) << 31) - 1, 256);
	CHECK(a.next(&n) == AllocationStatus::ok);
	CHECK_EQ(n, UINT64_C(549755813632));
	for (int i = 1; i < 256; i++)
		a.next(&n);
	CHECK_EQ(n, UINT64_C(549755813887));
	CHECK(a.used_up());
	CHECK(a.next(&n) == AllocationStatus::exhausted);
	CHECK(a.next(&n) == AllocationStatus::exhausted);
	CHECK_EQ(n, UINT64_C(549755813887));

	/* A range past the end, however far (a sequence moved on, a product that overflows): exhausted. */
	struct
	{
		uint64_t	index;
		uint32_t	size;
	}			past[] = {
		{UINT64_C(1) << 31, 256},
		{(UINT64_C(1) << 31) + 1, 256},
		{UINT64_C(1) << 56, 256},	/* 2^56 * 256 = 2^64 wraps to 0 */
		{UINT64_C(9223372036854775807), 256},
		{0, 0},
	};

	for (const auto &p : past)
	{
		Allocator	b(39);

		b.add_range(p.index, p.size);
		CHECK(b.next(&n) == AllocationStatus::exhausted);
		CHECK(b.used_up());
	}

	/* A range that straddles the end: the numbers below it, then exhausted. */
	Allocator	c(39);

	c.add((UINT64_C(1) << 39) - 2, UINT32_MAX);
	CHECK(c.next(&n) == AllocationStatus::ok);
	CHECK_EQ(n, UINT64_C(549755813886));
	CHECK(c.next(&n) == AllocationStatus::ok);
	CHECK_EQ(n, UINT64_C(549755813887));
	CHECK(c.next(&n) == AllocationStatus::exhausted);

	/* The tool's run: all the rest from a random start, to the last number. */
	Allocator	d(41);

	d.add((UINT64_C(1) << 41) - 1, UINT64_C(1));
	CHECK(d.next(&n) == AllocationStatus::ok);
	CHECK_EQ(n, UINT64_C(2199023255551));
	CHECK(d.next(&n) == AllocationStatus::exhausted);
	d.add(UINT64_MAX, UINT64_MAX);
	CHECK(d.next(&n) == AllocationStatus::exhausted);
}

}							// namespace

int
main()
{
	test_ranges();
	test_exhaustion();
	return check::finish("allocation");
}
