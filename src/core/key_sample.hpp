// What a sample of a uuid column's keys says: their formats, their order against insert order, the leaves the newest touch, the generator to pick.
#pragma once

#include "blocks.hpp"
#include "formats.hpp"

namespace locality_uuid
{

/* The index of "no format" in tallies and generator tables: one past the last format. */
constexpr int no_format = format_count;

/*
 * The newest keys are the last tenth of the sample in heap order (where a switch of generator
 * shows first), at most newest_rows_max of them, so that in a large sample they stay the newest
 * (a tenth of a million sampled rows would reach far back into the table).
 */
constexpr int newest_share = 10;
constexpr int newest_rows_max = 1000;

// Return how many of n sampled rows (in heap order) count as the newest.
constexpr int
newest_rows(int n) noexcept
{
	return n / newest_share < newest_rows_max ? n / newest_share : newest_rows_max;
}

/*
 * A TABLESAMPLE sized for limit rows by the planner's estimate returns about limit rows, more
 * when the table grew since it was analyzed or whole pages came. The sample reads up to half as
 * many again, and fetch_rows_slack more (a small sample's size varies the most), which bounds
 * what it reads; it then keeps limit rows spread evenly over them (sample_spread), so that the
 * newest rows stay in where a LIMIT of limit would drop them.
 */
constexpr int fetch_rows_slack = 100;

// Return how many rows a sample of limit rows reads before it is thinned to limit.
constexpr int
fetch_rows(int limit) noexcept
{
	return limit + limit / 2 + fetch_rows_slack;
}

// Return the row of got (in scan order) that is the i-th of kept rows spread evenly over them.
constexpr uint64_t
sample_spread(int i, uint64_t got, int kept) noexcept
{
	return static_cast<uint64_t>(i) * got / static_cast<uint64_t>(kept);
}

/* What a sample's keys say, counted in heap order. */
struct SampleTally
{
	int     rows;
	int     by_format[format_count + 1]; /* the first format that fits; by_format[no_format]: none */
	int     by_version[16];
	int     with_time; /* keys whose bits fix a time */
	int64_t first_us;  /* the earliest and latest of those times */
	int64_t last_us;
	int     v4_pairs;       /* consecutive version 4 keys */
	int     v4_same_prefix; /* of them, sharing their first two bytes (one block) */
	int     shard_key;      /* keys reading as shard-key ids of a plausible second and as no other format of a plausible time */
	int     newest_format;  /* the first format of the last key, shard-key only if plausible; no_format: none or no rows */
	int     largest_index;  /* the key first in uuid order from the top (-1: no rows) */
	bool    largest_v4;     /* it is version 4: keys made in time order land below it */
};

// Return the first format that fits a reading (no_format: none); with plausible_only, the shard-key format only of a plausible second.
int first_format(const IdReading &r, bool plausible_only) noexcept;

// Count the formats, versions, times and one-block neighbours of n keys in heap order, read as of now_us.
void tally_keys(const uint8_t (*keys)[uuid_len], int n, int64_t now_us, SampleTally *t) noexcept;

// Rank n keys among themselves (rank[i]: the place of keys[i] in uuid order, ties by position)
// and return Spearman's correlation of key rank with position: 1 ordered, near 0 random, 0 for
// fewer than two keys. order is scratch of n entries.
double key_order_correlation(const uint8_t (*keys)[uuid_len], int n, int *rank, int *order) noexcept;

// Return how many of leaf_pages leaves the last newest of n ranked keys fall in, each placed by
// its rank among the n; pages is scratch of newest entries.
int leaves_touched(const int *rank, int n, int newest, int64_t leaf_pages, int64_t *pages) noexcept;

/* The prefixes of the first two bytes, which tally_keys compares between neighbours. */
constexpr int two_byte_prefixes = 65536;

// Return the share of neighbours sharing their first two bytes among n uniformly random keys in
// key order (a sorted table, CLUSTER): n less the prefixes they occupy, 65536 (1 - e^(-n/65536)),
// over n - 1 pairs; 7 % for 10,000 keys, 78 % for 300,000.
double sorted_random_same_prefix(int n) noexcept;

// Return whether a sample's version 4 keys show blocks: most keys are version 4, and the share of
// consecutive pairs of them sharing a block's prefix lies more than halfway from what sorted
// random keys of the sample's size give towards all (over half of them for a small sample).
bool shows_blocks(const SampleTally &t) noexcept;

/* Why a generator is picked: the rules of docs/choosing.md, in the order they are asked. */
enum class PickReason : uint8_t
{
	no_rows,           /* nothing sampled: no generator */
	shard_key,         /* most keys are plausible shard-key ids */
	blocks,            /* most keys are version 4 ids in blocks */
	blocks_by_default, /* most keys are version 4 ids and the DEFAULT is a block generator: blocks too sparse to see */
	random_sorted,     /* the newest keys are random version 4 ids, in key order only after a sort (CLUSTER) */
	random_on_top,     /* an ordered generator in use (the DEFAULT, or the keys in order), random keys on top */
	ordered_elsewhere, /* the keys follow insert order, but no generator of this extension made the newest */
	ordered,           /* the keys follow insert order */
	newest_ordered,    /* only the newest keys follow insert order (a switch of generator) */
	unordered          /* the keys do not follow insert order */
};

/* The generator docs/choosing.md picks for a sample, and why. */
struct GeneratorPick
{
	const char *generator; /* its SQL call; nullptr for no_rows */
	PickReason  reason;
};

// Pick the generator docs/choosing.md names for what a sample shows: its tally, the correlation
// of all its keys and of its newest ones, and the column's DEFAULT where it is an ordered
// generator, or a block generator (its SQL call; nullptr otherwise).
GeneratorPick pick_generator(const SampleTally &t, double rho, double rho_newest, const char *ordered_default = nullptr,
							 const char *block_default = nullptr) noexcept;

} // namespace locality_uuid
