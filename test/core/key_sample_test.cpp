// Core unit tests of what a sample of keys says: the tally, Spearman's correlation, the leaves touched, the generator picked.
#include "core/hot.hpp"
#include "core/key_sample.hpp"
#include "core/locality_b.hpp"
#include "core/v7.hpp"
#include "check.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace locality_uuid;

namespace
{

/* 2024-06-01 12:00:00 UTC, the time of asking. */
constexpr int64_t now_s = INT64_C(1717243200);
constexpr int64_t now_us = now_s * usecs_per_sec;

// Write the shard-key id of shard at second with process field process (counter 1).
void
hot_key(int64_t second, uint16_t process, uint32_t shard, uint8_t out[uuid_len])
{
	HotFields f = {static_cast<uint32_t>(second), {0x11, 0x22, 0x33}, process, 1, shard};

	encode_hot(f, out);
}

// Write the version 7 id of a millisecond whose random bits are all fill.
void
v7_key(int64_t ms, uint8_t fill, uint8_t out[uuid_len])
{
	uint8_t random[8] = {fill, fill, fill, fill, fill, fill, fill, fill};

	encode_v7(ms, 0, random, out);
}

// Return whether two strings are equal (both null counts as equal).
bool
same(const char *a, const char *b)
{
	return a == b || (a != nullptr && b != nullptr && std::strcmp(a, b) == 0);
}

// Shard-key ids of a plausible second whose bytes also read as another format: the pick's
// reason and its generator must agree (the newest key read as that format first).
void
test_shard_key_pick()
{
	/* process 0x4080: byte 6 0x40 (version 4), byte 8 0x80 (RFC 9562's variant); 0x7080: version 7 */
	static const uint16_t processes[] = {0x4080, 0x7080, 0x0101};

	for (uint16_t process : processes)
	{
		uint8_t     keys[5][uuid_len];
		SampleTally t;

		for (int i = 0; i < 5; i++)
			hot_key(now_s - 60 + i, process, 7, keys[i]);
		tally_keys(keys, 5, now_us, &t);
		CHECK_EQ(t.shard_key, 5);

		GeneratorPick p = pick_generator(t, 1.0, 1.0);

		CHECK(p.reason == PickReason::shard_key);
		CHECK(same(p.generator, "hot_uuid(shard_key)"));
		if (!same(p.generator, "hot_uuid(shard_key)"))
			std::printf("#   process %04x: got %s\n", process, p.generator);
	}
}

// Sequential locality ids whose counter reads as a second of the last hour (the run of a
// 10-minute bucket whose seed is such a number, as 2026-11-29 06:20's was): their millisecond is
// plausible too, so they are locality ids, not shard-key ids; so in variable mode.
void
test_locality_not_shard_key()
{
	static const CounterMode modes[] = {CounterMode::sequential, CounterMode::variable};

	for (CounterMode mode : modes)
	{
		uint8_t     keys[5][uuid_len];
		SampleTally t;

		for (int i = 0; i < 5; i++)
		{
			uint32_t       second = static_cast<uint32_t>(now_s - 3600 + i);
			LocalityFields f = {mode == CounterMode::sequential ? second : reverse_nibbles(second), 0x1234, 0xd537a50,
								static_cast<uint64_t>(now_s * 1000 + i)};

			CHECK(encode_b(f, mode, keys[i]) == Status::ok);
			CHECK_EQ(static_cast<int64_t>(hot_time_field(keys[i])), now_s - 3600 + i);
		}
		tally_keys(keys, 5, now_us, &t);
		CHECK_EQ(t.shard_key, 0);
		CHECK_EQ(t.by_format[static_cast<int>(Format::locality)], 5);
		CHECK_EQ(t.newest_format, static_cast<int>(Format::locality));
		CHECK(same(pick_generator(t, 1.0, 1.0).generator, "locality_uuid(true)"));
	}
}

// Tally formats, versions, times and one-block neighbours.
void
test_tally()
{
	uint8_t     keys[6][uuid_len];
	SampleTally t;

	v7_key(now_s * 1000 - 2000, 0x00, keys[0]);
	v7_key(now_s * 1000 - 1000, 0x00, keys[1]);
	for (int i = 2; i < 6; i++)
	{
		uint8_t random[uuid_len] = {0xab, 0xcd, static_cast<uint8_t>(i)};

		encode_v4(random, keys[i]);
	}
	keys[5][1] = 0xce; /* the last pair of version 4 keys in two blocks */
	tally_keys(keys, 6, now_us, &t);
	CHECK_EQ(t.rows, 6);
	CHECK_EQ(t.by_format[static_cast<int>(Format::v7)], 2);
	CHECK_EQ(t.by_format[static_cast<int>(Format::block)], 4);
	CHECK_EQ(t.by_format[no_format], 0);
	CHECK_EQ(t.by_version[7], 2);
	CHECK_EQ(t.by_version[4], 4);
	CHECK_EQ(t.with_time, 2);
	CHECK_EQ(t.first_us, (now_s * 1000 - 2000) * 1000);
	CHECK_EQ(t.last_us, (now_s * 1000 - 1000) * 1000);
	CHECK_EQ(t.v4_pairs, 3);
	CHECK_EQ(t.v4_same_prefix, 2);
	CHECK_EQ(t.newest_format, static_cast<int>(Format::block));
	CHECK_EQ(t.largest_index, 5);
	CHECK(t.largest_v4);

	tally_keys(keys, 0, now_us, &t);
	CHECK_EQ(t.largest_index, -1);
	CHECK(!t.largest_v4);
	CHECK_EQ(t.rows, 0);
	CHECK_EQ(t.newest_format, no_format);

	/* the nil uuid: no format at all */
	uint8_t nil[1][uuid_len] = {};

	tally_keys(nil, 1, now_us, &t);
	CHECK_EQ(t.by_format[no_format], 1);
	CHECK_EQ(t.newest_format, no_format);
}

// Spearman's correlation of key rank with position, and the ranks it leaves.
void
test_correlation()
{
	uint8_t keys[4][uuid_len] = {};
	int     rank[4];
	int     order[4];

	for (int i = 0; i < 4; i++)
		keys[i][0] = static_cast<uint8_t>(i);
	CHECK(key_order_correlation(keys, 4, rank, order) == 1.0);
	CHECK_EQ(rank[3], 3);
	for (int i = 0; i < 4; i++)
		keys[i][0] = static_cast<uint8_t>(3 - i);
	CHECK(key_order_correlation(keys, 4, rank, order) == -1.0);
	CHECK_EQ(rank[0], 3);
	/* ranks 1, 0, 2, 3: d² = 2, 1 - 6 * 2 / (4 * 15) = 0.8 */
	keys[0][0] = 1;
	keys[1][0] = 0;
	keys[2][0] = 2;
	keys[3][0] = 3;
	CHECK(key_order_correlation(keys, 4, rank, order) == 1 - 12.0 / 60);
	/* equal keys rank by position */
	for (int i = 0; i < 4; i++)
		keys[i][0] = 5;
	CHECK(key_order_correlation(keys, 4, rank, order) == 1.0);
	CHECK_EQ(rank[2], 2);
	CHECK(key_order_correlation(keys, 1, rank, order) == 0.0);
	CHECK(key_order_correlation(keys, 0, rank, order) == 0.0);
}

// The leaves the newest keys fall in, placed by rank.
void
test_leaves()
{
	int     rank[10] = {0, 1, 2, 3, 4, 5, 6, 9, 8, 7};
	int64_t pages[3];

	/* ranks 9, 8, 7 of 10 over 5 leaves: leaves 4, 4, 3 */
	CHECK_EQ(leaves_touched(rank, 10, 3, 5, pages), 2);
	/* over 100 leaves: 90, 80, 70 */
	CHECK_EQ(leaves_touched(rank, 10, 3, 100, pages), 3);
	CHECK_EQ(leaves_touched(rank, 10, 0, 100, pages), 0);
}

// Each rule of the pick, in docs/choosing.md's order.
void
test_pick()
{
	SampleTally t = {};

	CHECK(pick_generator(t, 0, 0).generator == nullptr);
	CHECK(pick_generator(t, 0, 0).reason == PickReason::no_rows);

	t.rows = 10;
	t.by_version[version_4] = 10;
	t.v4_pairs = 9;
	t.v4_same_prefix = 8;
	t.newest_format = static_cast<int>(Format::block);
	CHECK(shows_blocks(t));
	CHECK(same(pick_generator(t, 0, 0).generator, "uuid_sequence_nextval(seq) or uuid_time_nextval()"));
	CHECK(pick_generator(t, 0, 0).reason == PickReason::blocks);
	t.v4_same_prefix = 4; /* not more than half of the pairs */
	CHECK(!shows_blocks(t));
	t.v4_same_prefix = 0;
	CHECK(same(pick_generator(t, 0, 0).generator, "uuidv7_ordered()"));
	CHECK(pick_generator(t, 0, 0).reason == PickReason::unordered);
	/* Random keys in key order (CLUSTER, a sorted load): new random keys still land anywhere. */
	CHECK(same(pick_generator(t, 1.0, 1.0).generator, "uuidv7_ordered()"));
	CHECK(pick_generator(t, 1.0, 1.0).reason == PickReason::random_sorted);
	/* The same keys where the DEFAULT is a block generator: blocks smaller than the sample's spacing. */
	CHECK(same(pick_generator(t, 0, 0, nullptr, "uuid_sequence_nextval()").generator, "uuid_sequence_nextval()"));
	CHECK(pick_generator(t, 0, 0, nullptr, "uuid_sequence_nextval()").reason == PickReason::blocks_by_default);
	CHECK(pick_generator(t, 1.0, 1.0, nullptr, "uuid_time_nextval()").reason == PickReason::blocks_by_default);

	t = SampleTally{};
	t.rows = 10;
	t.newest_format = static_cast<int>(Format::locality);
	CHECK(same(pick_generator(t, 0.95, 0).generator, "locality_uuid(true)"));
	CHECK(pick_generator(t, 0.95, 0).reason == PickReason::ordered);
	CHECK(pick_generator(t, 0.2, 0.9).reason == PickReason::newest_ordered);
	CHECK(same(pick_generator(t, 0.2, 0.9).generator, "locality_uuid(true)"));
	CHECK(same(pick_generator(t, 0.89, 0.89).generator, "uuidv7_ordered()"));
	t.newest_format = static_cast<int>(Format::v1);
	CHECK(same(pick_generator(t, 0.95, 0).generator, "uuidv7_ordered()"));
	CHECK(pick_generator(t, 0.95, 0).reason == PickReason::ordered_elsewhere);
	t.newest_format = no_format;
	CHECK(same(pick_generator(t, 0, 0.95).generator, "uuidv7_ordered()"));
	t.newest_format = static_cast<int>(Format::hot);
	CHECK(same(pick_generator(t, 0.95, 0).generator, "hot_uuid(shard_key)"));
}

/* Keys for the block tests: as many as a dense sample of a 300,000-row table. */
constexpr int many = 300000;
struct Key
{
	uint8_t b[uuid_len];
};
Key keys_many[many];

// Fill n keys with version 4 ids of a fixed pseudo-random sequence (splitmix64); with
// rows_per_block > 0, each run of rows_per_block keys shares its first two bytes (a block).
void
random_v4_keys(int n, int rows_per_block)
{
	uint64_t x = 42;

	for (int i = 0; i < n; i++)
	{
		uint8_t random[uuid_len];

		for (size_t j = 0; j < uuid_len; j += 8)
		{
			uint64_t z = (x += UINT64_C(0x9e3779b97f4a7c15));

			z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
			z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
			z ^= z >> 31;
			std::memcpy(random + j, &z, 8);
		}
		if (rows_per_block > 0)
		{
			random[0] = static_cast<uint8_t>((i / rows_per_block) >> 8);
			random[1] = static_cast<uint8_t>(i / rows_per_block);
		}
		encode_v4(random, keys_many[i].b);
	}
}

// Tally the first n of keys_many.
SampleTally
tally_many(int n)
{
	SampleTally t;

	tally_keys(reinterpret_cast<const uint8_t(*)[uuid_len]>(keys_many), n, now_us, &t);
	return t;
}

// Random keys in key order (a CLUSTERed table) share their first two bytes with their neighbour
// the more often the denser the sample: 7 % of 10,000, 78 % of 300,000; blocks show at both sizes.
void
test_blocks_against_sorted_random()
{
	static const int sizes[] = {10000, many};

	CHECK(std::fabs(sorted_random_same_prefix(10000) - 0.0726) < 0.0005);
	CHECK(std::fabs(sorted_random_same_prefix(many) - 0.7838) < 0.0005);
	CHECK(sorted_random_same_prefix(1) == 0);
	for (int n : sizes)
	{
		random_v4_keys(n, 0);
		std::sort(keys_many, keys_many + n,
				  [](const Key &a, const Key &b) { return std::memcmp(a.b, b.b, uuid_len) < 0; });

		SampleTally t = tally_many(n);
		double      share = static_cast<double>(t.v4_same_prefix) / t.v4_pairs;

		CHECK(std::fabs(share - sorted_random_same_prefix(n)) < 0.01);
		CHECK(!shows_blocks(t));
		CHECK(pick_generator(t, 1.0, 1.0).reason == PickReason::random_sorted);
		if (n == many)
			CHECK(t.v4_same_prefix * 2 > t.v4_pairs); /* over half: the rule of one half alone said blocks */

		/* the same number of block ids, 65,536 rows a block (sequential_uuids' default) */
		random_v4_keys(n, 65536);
		t = tally_many(n);
		CHECK(shows_blocks(t));
		CHECK(pick_generator(t, 0.1, 0.1).reason == PickReason::blocks);
	}
}

// An ordered generator in use (the DEFAULT, or the newest keys), random keys sorted above its keys: keep it.
void
test_pick_ordered_default()
{
	SampleTally t = {};

	t.rows = 10;
	t.by_version[version_4] = 5;
	t.newest_format = static_cast<int>(Format::block);
	CHECK(same(pick_generator(t, 1.0, 1.0, "uuidv7_ordered()").generator, "uuidv7_ordered()"));
	CHECK(pick_generator(t, 1.0, 1.0, "uuidv7_ordered()").reason == PickReason::random_on_top);
	CHECK(pick_generator(t, 1.0, 1.0).reason == PickReason::random_sorted);
	CHECK(pick_generator(t, 0, 0, "uuidv7_ordered()").reason == PickReason::unordered);

	/* The newest keys version 7, all in key order, the largest random: new keys land below it. */
	t.newest_format = static_cast<int>(Format::v7);
	t.largest_v4 = true;
	CHECK(pick_generator(t, 1.0, 1.0).reason == PickReason::random_on_top);
	CHECK(same(pick_generator(t, 1.0, 1.0).generator, "uuidv7_ordered()"));
	CHECK(same(pick_generator(t, 1.0, 1.0, "locality_uuid(true)").generator, "locality_uuid(true)"));
	/* only the newest in order (a switch, not sorted): the switch's reason */
	CHECK(pick_generator(t, 0.2, 1.0).reason == PickReason::newest_ordered);
	t.largest_v4 = false;
	CHECK(pick_generator(t, 1.0, 1.0).reason == PickReason::ordered);
}

// The sample's sizes.
void
test_sizes()
{
	CHECK_EQ(fetch_rows(1000), 1600);
	CHECK_EQ(fetch_rows(2), 103);
	CHECK_EQ(newest_rows(9), 0);
	CHECK_EQ(newest_rows(5000), 500);
	CHECK_EQ(newest_rows(20000), 1000);
	CHECK_EQ(sample_spread(0, 1500, 1000), 0u);
	CHECK_EQ(sample_spread(999, 1500, 1000), 1498u);
}

} // namespace

int
main()
{
	test_shard_key_pick();
	test_locality_not_shard_key();
	test_tally();
	test_correlation();
	test_leaves();
	test_pick();
	test_blocks_against_sorted_random();
	test_pick_ordered_default();
	test_sizes();
	return check::finish("key_sample");
}
