// What 16 bytes are: RFC 9562's reading, then each of our formats that could have made them.
#include "formats.hpp"

namespace locality_uuid
{

namespace
{

// Read the variant from the high bits of byte 8.
Variant
read_variant(const uint8_t *u) noexcept
{
	if ((u[8] & 0x80) == 0)
		return Variant::ncs;
	if ((u[8] & 0xc0) == 0x80)
		return Variant::rfc9562;
	if ((u[8] & 0xe0) == 0xc0)
		return Variant::microsoft;
	return Variant::future;
}

// Return the kind: nil and max by all their bits, else the version of an RFC 9562 id.
RfcKind
read_kind(const uint8_t *u, Variant variant) noexcept
{
	bool zeros = true;
	bool ones = true;

	for (std::size_t i = 0; i < uuid_len; i++)
	{
		zeros = zeros && u[i] == 0;
		ones = ones && u[i] == 0xff;
	}
	if (zeros)
		return RfcKind::nil;
	if (ones)
		return RfcKind::max;
	if (variant != Variant::rfc9562 || version_nibble(u) > 8)
		return RfcKind::unknown;
	return static_cast<RfcKind>(version_nibble(u));
}

// Read the clock sequence and node of a version 1 or 6 id.
void
decode_gregorian(const uint8_t *u, GregorianFields *f) noexcept
{
	f->clock_seq = static_cast<unsigned>(get_be(u + 8, 2) & 0x3fff);
	for (int i = 0; i < 6; i++)
		f->node[i] = u[10 + i];
}

// Set a reading that fits, with an exact time of digits fractional digits or none.
void
fit(FormatReading *f, bool has_time, bool exact, bool orders, int digits, int64_t unix_us) noexcept
{
	*f = FormatReading{true, has_time, exact, orders, digits, unix_us};
}

// Fit the formats that have fixed bits (locality, block, v7, v1, v6), each with its decoder's fields.
void
fit_fixed_formats(const uint8_t *id, IdReading *r) noexcept
{
	bool rfc = rfc_variant(id);
	auto at = [r](Format f) { return &r->formats[static_cast<int>(f)]; };

	if (decode_b(id, &r->locality, CounterMode::variable))
	{
		LocalityFields sequential;

		decode_b(id, &sequential, CounterMode::sequential);
		r->locality_sequential_counter = sequential.counter;
		fit(at(Format::locality), true, true, false, 3, static_cast<int64_t>(r->locality.time_ms) * 1000);
	}
	else
		r->locality = LocalityFields{};
	if (rfc && r->version == version_4)
		fit(at(Format::block), false, false, false, 0, 0);
	if (rfc && r->version == 7)
	{
		decode_v7(id, &r->v7);
		fit(at(Format::v7), true, true, true, 3, r->v7.ms * 1000);
	}
	if (rfc && (r->version == 1 || r->version == 6))
	{
		decode_gregorian(id, &r->gregorian);
		fit(at(r->version == 1 ? Format::v1 : Format::v6), true, true, r->version == 6, 6, gregorian_unix_us(id));
	}
}

} // namespace

void
read_id(const uint8_t id[uuid_len], int64_t as_of_us, bool all, IdReading *r) noexcept
{
	as_of_us = std::clamp(as_of_us, -as_of_limit_us, as_of_limit_us); /* the window's sums stay in range */
	int64_t hot_us = static_cast<int64_t>(hot_time_field(id)) * usecs_per_sec;
	bool    hot_plausible = in_hot_window(hot_us, as_of_us);

	*r = IdReading{};
	r->version = version_nibble(id);
	r->variant = read_variant(id);
	r->kind = read_kind(id, r->variant);
	r->time_from = -1;
	r->hot_plausible = hot_plausible;
	fit_fixed_formats(id, r);

	bool named = r->kind == RfcKind::nil || r->kind == RfcKind::max;
	bool rfc_claimed = rfc_variant(id) && r->version >= 1 && r->version <= 8;

	if (all || (!named && ((r->version != version_b && !rfc_claimed) || hot_plausible)))
	{
		decode_hot(id, &r->hot);
		fit(&r->formats[static_cast<int>(Format::hot)], true, false, true, 0, hot_us);
	}
	for (int i = 0; i < format_count; i++)
		if (r->formats[i].time_exact)
			r->time_from = i;
	if (r->time_from >= 0 && hot_plausible && r->formats[static_cast<int>(Format::hot)].fits &&
		r->formats[r->time_from].unix_us > as_of_us + hot_window_after * usecs_per_sec)
		r->time_from = -1;
}

const char *
variant_name(Variant v) noexcept
{
	static const char *const names[] = {"ncs", "rfc9562", "microsoft", "future"};
	static_assert(sizeof(names) / sizeof(names[0]) == static_cast<int>(Variant::future) + 1, "a name for each Variant");

	return names[static_cast<int>(v)];
}

const char *
rfc_kind_name(RfcKind k) noexcept
{
	static const char *const names[] = {"unknown", "time", "dce", "md5", "random", "sha1",
										"reordered-time", "unix-time", "custom", "nil", "max"};
	static_assert(sizeof(names) / sizeof(names[0]) == static_cast<int>(RfcKind::max) + 1, "a name for each RfcKind");

	return names[static_cast<int>(k)];
}

const char *
format_name(Format f) noexcept
{
	/* A switch, not a table: a Format without its name is a warning, and no name can sit at another's place. */
	switch (f)
	{
		case Format::locality:
			return "locality";
		case Format::block:
			return "block";
		case Format::v7:
			return "v7";
		case Format::v1:
			return "v1";
		case Format::v6:
			return "v6";
		case Format::hot:
			return "hot";
	}
	return "none";
}

} // namespace locality_uuid
