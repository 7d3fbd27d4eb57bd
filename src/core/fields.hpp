// Shared by every format: byte-level field access on a 16-byte uuid, the core status and the MD5 source.
#pragma once

#ifdef POSTGRES_H
#error "src/core must not see PostgreSQL headers: include core headers before postgres.h"
#endif

#include <cstddef>
#include <cstdint>

namespace locality_uuid
{

constexpr std::size_t uuid_len = 16;
constexpr std::size_t digest_len = 16; /* an MD5 digest */

// Outcome of a core call that can fail; the glue turns each into its error (report_status).
enum class Status
{
	ok,
	node_out_of_range,
	time_out_of_range,
	random_failed,
	digest_failed,
	sequence_exhausted
};

// Computes the MD5 digest of len bytes of text; false on failure. The glue passes PostgreSQL's.
using Md5Function = bool (*)(const char *text, std::size_t len, uint8_t digest[digest_len]);

// Write the low nbytes of v at p, most significant byte first.
constexpr void
put_be(uint8_t *p, uint64_t v, int nbytes) noexcept
{
	for (int i = nbytes - 1; i >= 0; i--)
	{
		p[i] = static_cast<uint8_t>(v);
		v >>= 8;
	}
}

// Read nbytes at p as a big-endian unsigned number.
constexpr uint64_t
get_be(const uint8_t *p, int nbytes) noexcept
{
	uint64_t v = 0;

	for (int i = 0; i < nbytes; i++)
		v = (v << 8) | p[i];
	return v;
}

// Write the low nbytes of v at p, least significant byte first.
constexpr void
put_le(uint8_t *p, uint64_t v, int nbytes) noexcept
{
	for (int i = 0; i < nbytes; i++)
	{
		p[i] = static_cast<uint8_t>(v);
		v >>= 8;
	}
}

// Read nbytes at p as a little-endian unsigned number.
constexpr uint64_t
get_le(const uint8_t *p, int nbytes) noexcept
{
	uint64_t v = 0;

	for (int i = nbytes - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

// Return the value of a hexadecimal digit, or -1.
constexpr int
hex_value(char c) noexcept
{
	return c >= '0' && c <= '9' ? c - '0'
		: c >= 'a' && c <= 'f'  ? c - 'a' + 10
		: c >= 'A' && c <= 'F'  ? c - 'A' + 10
								: -1;
}

// Return the version digit: the high nibble of byte 6.
constexpr unsigned
version_nibble(const uint8_t *u) noexcept
{
	return u[6] >> 4;
}

// Set the version digit (the high nibble of byte 6) and RFC 9562's variant (byte 8 is 10xxxxxx).
constexpr void
set_rfc_version(uint8_t *u, unsigned version) noexcept
{
	u[6] = static_cast<uint8_t>((u[6] & 0x0f) | (version << 4));
	u[8] = static_cast<uint8_t>((u[8] & 0x3f) | 0x80);
}

// The last Unix second of the system clock that every generator reads (9999-12-31 23:59:59
// UTC, the last second every format of this extension can carry); the glue refuses later
// clocks, and earlier ones than 1970, before any generator state changes.
constexpr int64_t clock_seconds_max = INT64_C(253402300799);

// Floor division for a positive divisor (C++ division truncates toward zero).
constexpr int64_t
floor_div(int64_t a, int64_t b) noexcept
{
	return a / b - ((a % b != 0) && (a < 0));
}

/*
 * "Made at or after a, before b" on ids that lead with a time: their time field counts units of
 * unit_us microseconds from 1970 (0 .. unit_max), so time(id) >= a holds when the field is at
 * least ceil(a / unit_us). The glue passes times as Unix microseconds saturated at the ends of
 * int64 (-infinity is INT64_MIN, infinity INT64_MAX). The format writes the keys: since's is
 * its smallest id of that unit, or the max uuid past the format's end; before's its largest id
 * of the unit before, or the nil uuid when no unit is before it. These clamps never fail.
 */

// Return the first unit at or after Unix microsecond us, clamped to 0 .. unit_max + 1.
constexpr int64_t
made_unit(int64_t us, int64_t unit_us, int64_t unit_max) noexcept
{
	int64_t unit = us / unit_us + (us % unit_us > 0);

	return unit < 0 ? 0 : unit > unit_max ? unit_max + 1
										  : unit;
}

// Return the Unix microsecond after us, saturated: "made after a" is "made at or after a + 1 us",
// "made at or before b" is "made before b + 1 us" (times are whole microseconds).
constexpr int64_t
made_next_us(int64_t us) noexcept
{
	return us == INT64_MAX ? us : us + 1;
}

// Write 16 bytes of fill: the nil (0x00) or the max (0xff) uuid.
constexpr void
uuid_fill(uint8_t out[uuid_len], uint8_t fill) noexcept
{
	for (std::size_t i = 0; i < uuid_len; i++)
		out[i] = fill;
}

// Return the days from 1970-01-01 to a proleptic Gregorian date (month 1 .. 12, day 1 .. 31): civil_from_days's inverse.
constexpr int64_t
days_from_civil(int64_t year, int month, int day) noexcept
{
	/* Count in 400-year eras from 0000-03-01, so that the leap day ends each year. */
	year -= month <= 2;

	int64_t era = floor_div(year, 400);
	int64_t yoe = year - era * 400;
	int64_t doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

// Convert days since 1970-01-01 to a proleptic Gregorian date.
constexpr void
civil_from_days(int64_t days, int64_t *year, int *month, int *day) noexcept
{
	/* Count from 0000-03-01 in 400-year eras so that leap days end each year. */
	int64_t z = days + 719468;
	int64_t era = floor_div(z, 146097);
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;

	*day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
	*month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
	*year = yoe + era * 400 + (*month <= 2 ? 1 : 0);
}

} // namespace locality_uuid
