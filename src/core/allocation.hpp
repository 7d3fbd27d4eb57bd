// Allocation numbers of explicit-time ids: N-bit numbers handed out from ranges, never reduced, refused once used up.
#pragma once

#include "fields.hpp"

namespace locality_uuid
{

// Outcome of asking for an allocation number: one given, a range needed first, or none left.
enum class AllocationStatus
{
	ok,
	needs_allocations,
	exhausted
};

/*
 * The allocation numbers of one kind of explicit-time id (hot_uuid(key, at): 39 bits,
 * uuidv7_ordered(at): 41 bits). The numbers come in ranges that the caller hands over; in the
 * server a range is nextval of a WAL-logged sequence times the range's size, so no number is
 * handed out twice in the database, before or after a restart, a crash, a promotion or
 * pg_upgrade. A number is carried as it is, never reduced modulo the field: two ids that carry
 * numbers are equal only if they carry the same number, so they never are. The ranges only
 * grow; once a range reaches past the field (number 2^bits or more), every later call answers
 * exhausted, and the caller raises 54000.
 */
class Allocator
{
  public:
	explicit constexpr Allocator(int bits) noexcept
		: bits_(bits), limit_(UINT64_C(1) << bits) {}

	// Return the width of the numbers, in bits.
	constexpr int
	bits() const noexcept
	{
		return bits_;
	}

	// Return the first number the field cannot carry: 2^bits.
	constexpr uint64_t
	limit() const noexcept
	{
		return limit_;
	}

	// True if no number is left: the current range reaches 2^bits.
	constexpr bool
	used_up() const noexcept
	{
		return next_ >= limit_;
	}

	// Give the next number of the current range, or say that a range is needed or none is left.
	AllocationStatus
	next(uint64_t *n) noexcept
	{
		if (used_up())
			return AllocationStatus::exhausted;
		if (next_ == end_)
			return AllocationStatus::needs_allocations;
		*n = next_++;
		return AllocationStatus::ok;
	}

	// Hand over the numbers first .. first + count - 1 (none handed out before).
	void
	add(uint64_t first, uint64_t count) noexcept
	{
		next_ = first < limit_ ? first : limit_;
		end_ = count < limit_ - next_ ? next_ + count : limit_;
	}

	// Hand over range number index of ranges of size numbers: index * size .. + size - 1.
	void
	add_range(uint64_t index, uint32_t size) noexcept
	{
		/* A product at or past the limit (an index moved far on, or one that overflows) is used up. */
		add(size != 0 && index < limit_ / size ? index * size : limit_, size);
	}

  private:
	int      bits_;
	uint64_t limit_;
	uint64_t next_ = 0;
	uint64_t end_ = 0;
};

} // namespace locality_uuid
