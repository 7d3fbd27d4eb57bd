// What 16 bytes are: RFC 9562's version, variant and kind, and which of our formats could have made them, with their time.
#pragma once

#include <algorithm>

#include "blocks.hpp"
#include "fields.hpp"
#include "hot.hpp"
#include "locality_b.hpp"
#include "v7.hpp"

namespace locality_uuid
{

/* 100 ns intervals from 1582-10-15 (the Gregorian epoch of versions 1 and 6) to 1970-01-01. */
constexpr int64_t gregorian_unix_offset = INT64_C(122192928000000000);

// Read the 60-bit timestamp of a version 1 uuid: 100 ns intervals since 1582-10-15 UTC.
constexpr uint64_t
v1_timestamp(const uint8_t *u) noexcept
{
	return (static_cast<uint64_t>(u[6] & 0x0f) << 56) | (static_cast<uint64_t>(u[7]) << 48) |
		(get_be(u + 4, 2) << 32) | get_be(u, 4);
}

// Read the 60-bit timestamp of a version 6 uuid: 100 ns intervals since 1582-10-15 UTC.
constexpr uint64_t
v6_timestamp(const uint8_t *u) noexcept
{
	return (get_be(u, 4) << 28) | (get_be(u + 4, 2) << 12) | (get_be(u + 6, 2) & 0x0fff);
}

// Return the time of a version 1 or 6 uuid (by its version digit) as Unix microseconds, truncated as uuid_extract_timestamp.
constexpr int64_t
gregorian_unix_us(const uint8_t *u) noexcept
{
	uint64_t t = version_nibble(u) == 6 ? v6_timestamp(u) : v1_timestamp(u);

	return static_cast<int64_t>(t / 10) - gregorian_unix_offset / 10;
}

/* The variants of RFC 9562, section 4.1, by the high bits of byte 8. */
enum class Variant : uint8_t
{
	ncs,
	rfc9562,
	microsoft,
	future
};

/* What RFC 9562 calls an id: nil, max, its version's kind, or unknown (another variant or version). */
enum class RfcKind : uint8_t
{
	unknown,
	time,
	dce,
	md5,
	random,
	sha1,
	reordered_time,
	unix_time,
	custom,
	nil,
	max
};

/* Our formats, in the order they are listed. */
enum class Format : uint8_t
{
	locality, /* locality_uuid(), sequential or variable (the bits cannot tell) */
	block,    /* uuid_sequence_nextval or uuid_time_nextval (also any random uuid) */
	v7,       /* uuidv7(), uuidv7_ordered() */
	v1,       /* RFC 9562 version 1 (the tool's --v1) */
	v6,       /* RFC 9562 version 6 (the tool's --v6) */
	hot       /* hot_uuid(): no fixed bits, a guess */
};
constexpr int format_count = 6;
static_assert(static_cast<int>(Format::hot) + 1 == format_count, "format_count counts Format, whose last is hot");

/* The plausible window of a shard-key id's time, around the time of asking. */
constexpr int64_t hot_window_before = INT64_C(315576000); /* ten years of 365.25 days */
constexpr int64_t hot_window_after = INT64_C(86400);      /* a day: clocks that run ahead */

/* Beyond any format's time (about 146,000 years from 1970): as_of is read within it. */
constexpr int64_t as_of_limit_us = int64_t(1) << 62;

// Return whether a time lies in that window around as_of_us.
constexpr bool
in_hot_window(int64_t us, int64_t as_of_us) noexcept
{
	as_of_us = std::clamp(as_of_us, -as_of_limit_us, as_of_limit_us); /* the window's sums stay in range */
	return us >= as_of_us - hot_window_before * usecs_per_sec && us <= as_of_us + hot_window_after * usecs_per_sec;
}

/* How an id reads as one format. */
struct FormatReading
{
	bool    fits;           /* the format could have made the id */
	bool    has_time;       /* the reading gives a time */
	bool    time_exact;     /* the bits fix that time (false: a guess) */
	bool    orders_by_time; /* the format's ids sort (byte order) by that time */
	int     time_digits;    /* fractional digits of a second the time carries: 0, 3 or 6 */
	int64_t unix_us;        /* the time, Unix microseconds */
};

/* The fields of a version 1 or 6 id besides its time. */
struct GregorianFields
{
	unsigned clock_seq; /* 14 bits: bytes 8 and 9 but the variant */
	uint8_t  node[6];   /* bytes 10..15 */
};

/* What the bits of an id say, and which reading gives its time (-1: the bits fix none). */
struct IdReading
{
	unsigned      version;
	Variant       variant;
	RfcKind       kind;
	FormatReading formats[format_count];
	int           time_from;
	bool          hot_plausible; /* the shard-key reading's second lies in the window around as_of */
	/* Each format's fields, as its decoder reads them, where the format fits (else zero). */
	LocalityFields  locality;                    /* its counter read in variable mode */
	uint32_t        locality_sequential_counter; /* the counter read in sequential mode */
	V7Fields        v7;
	GregorianFields gregorian; /* version 1 or 6 */
	HotFields       hot;
};

/*
 * Read an id as RFC 9562 does, then as each of our formats.
 *
 *   locality   version digit b (the format's only fixed part); its millisecond, exact
 *   block      version 4 and RFC 9562's variant; no time (blocks carry no clock: a time block's
 *              start needs the count and length it was made with)
 *   v7         version 7 and RFC 9562's variant; its millisecond, exact
 *   v1, v6     version 1 or 6 and RFC 9562's variant; the microsecond, exact
 *   hot        no fixed bits, so any id reads as one: it fits when no other format and no other
 *              RFC 9562 version claims the id (so whenever the process field is a backend slot
 *              below 4096), or when its second falls in the plausible window around as_of_us
 *              (a pid process field can make any version and variant digits), or with all; never
 *              the nil or max uuid but with all. Its second is a guess.
 *
 * The id's time (time_from) is that of the exact reading, unless that time is more than
 * hot_window_after after as_of_us while the id also reads as a plausible shard-key id: an id is
 * not made in the future, so the bits fix no time then (a hot_uuid whose bytes read as version 7
 * of the year 5699).
 */
void read_id(const uint8_t id[uuid_len], int64_t as_of_us, bool all, IdReading *r) noexcept;

// Name a variant as RFC 9562 does: "ncs", "rfc9562", "microsoft", "future".
const char *variant_name(Variant v) noexcept;

// Name a kind: "nil", "max", "time", ..., "unix-time", "custom", "unknown".
const char *rfc_kind_name(RfcKind k) noexcept;

// Name a format as the tool and SQL do: "locality", "block", "v7", "v1", "v6", "hot".
const char *format_name(Format f) noexcept;

} // namespace locality_uuid
