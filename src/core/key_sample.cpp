// What a sample of a uuid column's keys says: formats, key order against insert order, leaves touched, the generator to pick.
#include "key_sample.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace locality_uuid
{

namespace
{

// Return the generator docs/choosing.md names for the keys of a format (or no_format) when they
// follow insert order; versions 1 and 6, and keys of no format, come from elsewhere:
// uuidv7_ordered() keeps their order. A switch on Format, so that a new format without a
// generator here is a warning (-Wswitch), which the build refuses.
constexpr const char *
ordered_generator(int format) noexcept
{
	if (format == no_format)
		return "uuidv7_ordered()";
	switch (static_cast<Format>(format))
	{
		case Format::locality:
			return "locality_uuid(true)";
		case Format::block:
			return "uuid_sequence_nextval(seq) or uuid_time_nextval()";
		case Format::v7:
		case Format::v1:
		case Format::v6:
			return "uuidv7_ordered()";
		case Format::hot:
			return "hot_uuid(shard_key)";
	}
	return nullptr;
}

/* Spearman's correlation counts as order at this value and above. */
constexpr double ordered_rho = 0.9;

// Return whether a generator of this extension makes ids of the format.
constexpr bool
made_here(int format) noexcept
{
	return format != static_cast<int>(Format::v1) && format != static_cast<int>(Format::v6) && format != no_format;
}

// Return whether another format's exact time of the id lies in the shard-key window too: a
// sequential locality id's counter (a digest of its 10-minute bucket, plus one an id) reads as a
// plausible second in about one bucket of 14, and its millisecond is then plausible as well; a
// shard-key id's bytes rarely read as a plausible time of another format.
bool
plausible_elsewhere(const IdReading &r, int64_t now_us) noexcept
{
	return r.time_from >= 0 && r.time_from != static_cast<int>(Format::hot) &&
		in_hot_window(r.formats[r.time_from].unix_us, now_us);
}

} // namespace

int
first_format(const IdReading &r, bool plausible_only) noexcept
{
	for (int f = 0; f < format_count; f++)
		if (r.formats[f].fits && (!plausible_only || f != static_cast<int>(Format::hot) || r.hot_plausible))
			return f;
	return no_format;
}

void
tally_keys(const uint8_t (*keys)[uuid_len], int n, int64_t now_us, SampleTally *t) noexcept
{
	*t = SampleTally{};
	t->rows = n;
	t->newest_format = no_format;
	t->largest_index = -1;
	for (int i = 0; i < n; i++)
	{
		IdReading r;

		read_id(keys[i], now_us, false, &r);
		t->by_format[first_format(r, false)]++;
		t->by_version[r.version]++;
		t->shard_key += r.formats[static_cast<int>(Format::hot)].fits && r.hot_plausible && !plausible_elsewhere(r, now_us);
		if (r.time_from >= 0)
		{
			int64_t us = r.formats[r.time_from].unix_us;

			t->first_us = t->with_time == 0 || us < t->first_us ? us : t->first_us;
			t->last_us = t->with_time == 0 || us > t->last_us ? us : t->last_us;
			t->with_time++;
		}
		if (i > 0 && r.version == version_4 && version_nibble(keys[i - 1]) == version_4)
		{
			t->v4_pairs++;
			t->v4_same_prefix += std::memcmp(keys[i - 1], keys[i], 2) == 0;
		}
		if (i == n - 1)
			t->newest_format = first_format(r, true);
		if (t->largest_index < 0 || std::memcmp(keys[i], keys[t->largest_index], uuid_len) > 0)
			t->largest_index = i;
	}
	t->largest_v4 = n > 0 && version_nibble(keys[t->largest_index]) == version_4;
}

double
key_order_correlation(const uint8_t (*keys)[uuid_len], int n, int *rank, int *order) noexcept
{
	double d2 = 0;

	for (int i = 0; i < n; i++)
		order[i] = i;
	std::sort(order, order + n, [keys](int a, int b) {
		int c = std::memcmp(keys[a], keys[b], uuid_len);

		return c < 0 || (c == 0 && a < b);
	});
	for (int i = 0; i < n; i++)
		rank[order[i]] = i;
	for (int i = 0; i < n; i++)
		d2 += static_cast<double>(rank[i] - i) * (rank[i] - i);
	return n < 2 ? 0 : 1 - 6 * d2 / (static_cast<double>(n) * (static_cast<double>(n) * n - 1));
}

int
leaves_touched(const int *rank, int n, int newest, int64_t leaf_pages, int64_t *pages) noexcept
{
	int count = 0;

	for (int i = 0; i < newest; i++)
		pages[i] = static_cast<int64_t>(rank[n - newest + i]) * leaf_pages / n;
	std::sort(pages, pages + newest);
	for (int i = 0; i < newest; i++)
		count += i == 0 || pages[i] != pages[i - 1];
	return count;
}

double
sorted_random_same_prefix(int n) noexcept
{
	double occupied = -static_cast<double>(two_byte_prefixes) * std::expm1(-n / static_cast<double>(two_byte_prefixes));

	return n < 2 ? 0 : std::max(0.0, (n - occupied) / (n - 1));
}

bool
shows_blocks(const SampleTally &t) noexcept
{
	double sorted = sorted_random_same_prefix(t.by_version[version_4]);

	return t.by_version[version_4] * 2 > t.rows && t.v4_same_prefix > t.v4_pairs * (1 + sorted) / 2;
}

GeneratorPick
pick_generator(const SampleTally &t, double rho, double rho_newest, const char *ordered_default,
			   const char *block_default) noexcept
{
	const char *newest = ordered_generator(t.newest_format);

	if (t.rows == 0)
		return {nullptr, PickReason::no_rows};
	if (t.shard_key * 2 > t.rows)
		return {ordered_generator(static_cast<int>(Format::hot)), PickReason::shard_key};
	if (shows_blocks(t))
		return {ordered_generator(static_cast<int>(Format::block)), PickReason::blocks};
	/* Blocks smaller than the sample's spacing: neighbours in the sample lie in other blocks. */
	if (block_default != nullptr && t.by_version[version_4] * 2 > t.rows)
		return {block_default, PickReason::blocks_by_default};
	/* A random uuid reads as a block id; no generator makes random keys in insert order. */
	if (t.newest_format == static_cast<int>(Format::block) && (rho >= ordered_rho || rho_newest >= ordered_rho))
		return ordered_default != nullptr ? GeneratorPick{ordered_default, PickReason::random_on_top}
										  : GeneratorPick{"uuidv7_ordered()", PickReason::random_sorted};
	if ((rho >= ordered_rho || rho_newest >= ordered_rho) && !made_here(t.newest_format))
		return {newest, PickReason::ordered_elsewhere};
	/* All keys in order, the largest random: random keys sorted (CLUSTER) above the ordered ones. */
	if (rho >= ordered_rho && t.largest_v4)
		return {ordered_default != nullptr ? ordered_default : newest, PickReason::random_on_top};
	if (rho >= ordered_rho)
		return {newest, PickReason::ordered};
	if (rho_newest >= ordered_rho)
		return {newest, PickReason::newest_ordered};
	return {"uuidv7_ordered()", PickReason::unordered};
}

} // namespace locality_uuid
