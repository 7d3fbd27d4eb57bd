// Block-wrapped sequential UUIDs: layout, prefix, encoding and decoding.
#include "blocks.hpp"

namespace locality_uuid
{

int
prefix_bits_for(int32_t block_count) noexcept
{
	/* B = 8 * ceil(b / 8) with b the smallest b >= 1 such that 2^b >= C. */
	int bits = 8;

	while (bits < 32 && (INT64_C(1) << bits) < block_count)
		bits += 8;
	return bits;
}

BlockStatus
block_layout(int32_t block_size, int32_t block_count, BlockLayout *out) noexcept
{
	if (block_size < 1)
		return BlockStatus::bad_block_size;
	if (block_count < 1)
		return BlockStatus::bad_block_count;

	int     bits = prefix_bits_for(block_count);
	int64_t per_block = (static_cast<int64_t>(block_size) * block_count) >> bits;

	out->prefix_bits = bits;
	out->block_size = per_block > 1 ? per_block : 1;
	return BlockStatus::ok;
}

uint64_t
block_prefix(int64_t v, const BlockLayout &l) noexcept
{
	/* C++ division truncates toward zero, as the reference's does. */
	return static_cast<uint64_t>(v / l.block_size) & (block_prefixes(l) - 1);
}

int64_t
sequence_input(int64_t nextval) noexcept
{
	/* INT64_MIN - 1 wraps to INT64_MAX, as it does (by accident) in the reference. */
	return static_cast<int64_t>(static_cast<uint64_t>(nextval) - 1);
}

void
encode_prefix(uint64_t prefix, int prefix_bits, const uint8_t *random, uint8_t out[uuid_len]) noexcept
{
	int prefix_len = prefix_bits / 8;

	put_be(out, prefix, prefix_len);
	for (std::size_t i = static_cast<std::size_t>(prefix_len); i < uuid_len; i++)
		out[i] = random[i - prefix_len];
	set_rfc_version(out, version_4);
}

void
encode_block(int64_t v, const BlockLayout &l, const uint8_t *random, uint8_t out[uuid_len]) noexcept
{
	encode_prefix(block_prefix(v, l), l.prefix_bits, random, out);
}

uint64_t
decode_block(const uint8_t in[uuid_len], int32_t block_count) noexcept
{
	return decode_prefix(in, prefix_bits_for(block_count));
}

BlockStatus
interval_length_us(int32_t months, int32_t days, int64_t time_us, int64_t *out) noexcept
{
	if (months != 0)
		return BlockStatus::interval_has_months;

	/*
	 * days * 1 day + time can exceed int64 although the sum would not: carry whole days of
	 * time into the day count first, then only a small day count is multiplied.
	 */
	int64_t total_days = static_cast<int64_t>(days) + floor_div(time_us, usecs_per_day);
	int64_t rest_us = time_us % usecs_per_day;

	if (rest_us < 0)
		rest_us += usecs_per_day;

	if (total_days < 0)
		return BlockStatus::interval_too_short;
	if (total_days > time_block_max_us / usecs_per_day)
		return BlockStatus::interval_too_long;

	int64_t total = total_days * usecs_per_day + rest_us;

	if (total < time_block_min_us)
		return BlockStatus::interval_too_short;
	if (total > time_block_max_us)
		return BlockStatus::interval_too_long;
	*out = total;
	return BlockStatus::ok;
}

BlockStatus
time_block_layout(int64_t length_us, int32_t count, TimeBlockLayout *out) noexcept
{
	if (length_us < time_block_min_us)
		return BlockStatus::interval_too_short;
	if (length_us > time_block_max_us)
		return BlockStatus::interval_too_long;
	if (count < 1)
		return BlockStatus::bad_block_count;

	int64_t unit = length_us % usecs_per_sec == 0 ? usecs_per_sec : length_us % usecs_per_msec == 0 ? usecs_per_msec
																									: 1;
	int     bits = prefix_bits_for(count);

	/*
	 * floor(n * C / 2^B) without overflow: n < 2^51 and C <= 2^B, so with n = q * 2^B + r
	 * it is q * C + floor(r * C / 2^B), where q * C <= n and r * C < 2^32 * 2^31.
	 */
	uint64_t n = static_cast<uint64_t>(length_us / unit);
	uint64_t c = static_cast<uint64_t>(count);
	uint64_t per = (n >> bits) * c + (((n & ((UINT64_C(1) << bits) - 1)) * c) >> bits);

	/* At least one unit, and never below 1 ms (only lengths in microsecond units can get there). */
	int64_t block = static_cast<int64_t>(per) * unit;
	int64_t least = unit > time_block_min_us ? unit : time_block_min_us;

	out->prefix_bits = bits;
	out->unit_us = unit;
	out->block_us = block > least ? block : least;
	return BlockStatus::ok;
}

BlockStatus
time_block_layout_seconds(int32_t seconds, int32_t count, TimeBlockLayout *out) noexcept
{
	BlockLayout l;
	BlockStatus st = block_layout(seconds, count, &l);

	if (st != BlockStatus::ok)
		return st;
	/* S' <= (2^31 - 1)^2 / 2^32 < 2^30 seconds, so S' in microseconds fits. */
	out->prefix_bits = l.prefix_bits;
	out->unit_us = usecs_per_sec;
	out->block_us = l.block_size * usecs_per_sec;
	return BlockStatus::ok;
}

uint64_t
time_block_prefix(int64_t t_us, const TimeBlockLayout &l) noexcept
{
	return static_cast<uint64_t>(floor_div(t_us, l.block_us)) & ((UINT64_C(1) << l.prefix_bits) - 1);
}

bool
time_block_wrap_us(const TimeBlockLayout &l, int64_t *out) noexcept
{
	if (l.block_us > (INT64_MAX >> l.prefix_bits))
		return false;
	*out = l.block_us << l.prefix_bits;
	return true;
}

bool
time_block_start(uint64_t prefix, int64_t as_of_us, const TimeBlockLayout &l, int64_t *start_us) noexcept
{
	uint64_t mask = (UINT64_C(1) << l.prefix_bits) - 1;
	uint64_t s = static_cast<uint64_t>(l.block_us);
	int64_t  a = floor_div(as_of_us, l.block_us);
	int64_t  r = as_of_us % l.block_us;

	if (r < 0)
		r += l.block_us;

	/* Blocks back from as_of's own block a: (a - prefix) mod 2^B, in two's complement. */
	uint64_t d = (static_cast<uint64_t>(a) - prefix) & mask;

	/* start = as_of - r - d * S', if that is at least INT64_MIN. */
	uint64_t headroom = static_cast<uint64_t>(as_of_us) - static_cast<uint64_t>(INT64_MIN);

	if (static_cast<uint64_t>(r) > headroom || d > (headroom - static_cast<uint64_t>(r)) / s)
		return false;
	*start_us = static_cast<int64_t>(static_cast<uint64_t>(as_of_us) - static_cast<uint64_t>(r) - d * s);
	return true;
}

int64_t
advice_rows_that_fit(int64_t index_memory) noexcept
{
	return index_memory / advice_hot_divisor / advice_entry_bytes;
}

// Return rows * advice_entry_bytes rounded up, held below INT64_MAX.
static int64_t
advice_bytes(double rows) noexcept
{
	double bytes = rows * advice_entry_bytes;
	double whole = static_cast<double>(static_cast<int64_t>(bytes < 9.0e18 ? bytes : 9.0e18));

	return static_cast<int64_t>(whole < bytes ? whole + 1 : whole);
}

// Return the prefix width whose wrap (2^B blocks of block_us) covers margin * retention; 32 if none.
static int
advice_prefix_bits(double block_us, double retention_us) noexcept
{
	for (int bits = 8; bits < 32; bits += 8)
		if (block_us * static_cast<double>(UINT64_C(1) << bits) >= advice_wrap_margin * retention_us)
			return bits;
	return 32;
}

void
advise_sequence(double rate, double retention_us, int64_t index_memory, BlockAdvice *out) noexcept
{
	int64_t fit = advice_rows_that_fit(index_memory);
	int32_t size = 1;

	while (size < advice_max_block_size && static_cast<int64_t>(size) * 2 <= fit)
		size *= 2;

	/* A block of S values lasts S / rate seconds. */
	double block_us = static_cast<double>(size) / rate * usecs_per_sec;
	int    bits = advice_prefix_bits(block_us, retention_us);

	out->block_size = bits < 32 ? size : size * 4;
	out->interval_us = 0;
	out->count = bits < 32 ? static_cast<int32_t>(UINT64_C(1) << bits) : INT32_C(1) << 30;
	out->prefix_bits = bits;
	out->effective = size;
	out->rows_per_block = size;
	out->hot_set_bytes = advice_bytes(size);
	out->wrap_us = block_us * static_cast<double>(UINT64_C(1) << bits);
	out->hot_set_fits = out->hot_set_bytes <= index_memory / advice_hot_divisor;
	out->wrap_covers = out->wrap_us >= advice_wrap_margin * retention_us;
}

// Step to the next length of 1, 2, 5 times a power of ten: 1 -> 2 -> 5 -> 10.
static int64_t
advice_next_length(int64_t us) noexcept
{
	int64_t decade = 1;

	while (decade * 10 <= us)
		decade *= 10;
	return us / decade == 2 ? us / 2 * 5 : us * 2;
}

// Step to the previous length of 1, 2, 5 times a power of ten (never below 1 ms).
static int64_t
advice_previous_length(int64_t us) noexcept
{
	int64_t decade = 1;

	if (us <= time_block_min_us)
		return time_block_min_us;
	while (decade * 10 <= us)
		decade *= 10;
	return us / decade == 5 ? decade * 2 : us / decade == 2 ? decade
															: decade / 2;
}

void
advise_time(double rate, double retention_us, int64_t index_memory, BlockAdvice *out) noexcept
{
	int64_t fit = advice_rows_that_fit(index_memory);
	double  longest_us = static_cast<double>(fit) / rate * usecs_per_sec;
	int64_t len = time_block_min_us;

	while (len < advice_max_interval_us && static_cast<double>(advice_next_length(len)) <= longest_us)
		len = advice_next_length(len);

	int     bits = advice_prefix_bits(static_cast<double>(len), retention_us);
	int64_t arg = len;
	int32_t count = static_cast<int32_t>(UINT64_C(1) << (bits < 32 ? bits : 8));

	if (bits == 32)
	{
		/*
		 * 2^32 does not fit the count: count 2^30 with 4 times the length gives the same S',
		 * unless 4 times the length is whole seconds and the length is not (500 ms), where
		 * the rule rounds S' to whole seconds; then take the next shorter length.
		 */
		TimeBlockLayout l;

		count = INT32_C(1) << 30;
		for (;;)
		{
			arg = len * 4;
			if (time_block_layout(arg, count, &l) == BlockStatus::ok && l.block_us == len)
				break;
			len = advice_previous_length(len);
		}
	}

	double rows = rate * static_cast<double>(len) / usecs_per_sec;

	out->block_size = 0;
	out->interval_us = arg;
	out->count = count;
	out->prefix_bits = bits;
	out->effective = len;
	out->rows_per_block = rows;
	out->hot_set_bytes = advice_bytes(rows);
	out->wrap_us = static_cast<double>(len) * static_cast<double>(UINT64_C(1) << bits);
	out->hot_set_fits = out->hot_set_bytes <= index_memory / advice_hot_divisor;
	out->wrap_covers = out->wrap_us >= advice_wrap_margin * retention_us;
}

} // namespace locality_uuid
