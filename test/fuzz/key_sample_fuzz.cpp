// libFuzzer target over what a sample of keys says: any keys tally to their count, rank as a permutation, correlate within [-1, 1], and pick a generator that agrees with its reason.
#include "core/key_sample.hpp"

#include "require.hpp"

#include <fuzzer/FuzzedDataProvider.h>

using namespace locality_uuid;

namespace
{

constexpr int keys_max = 64;

// Any keys (often sharing prefixes and version digits) and time of asking: the tally, the ranks, the correlation, the leaves, the pick.
void
check_sample(FuzzedDataProvider &fdp)
{
	uint8_t     keys[keys_max][uuid_len] = {};
	int         n = fdp.ConsumeIntegralInRange<int>(0, keys_max);
	int64_t     now_us = fdp.ConsumeIntegralInRange<int64_t>(0, INT64_C(253402300799999999));
	int         rank[keys_max];
	int         order[keys_max];
	int64_t     pages[keys_max];
	SampleTally t;

	for (int i = 0; i < n; i++)
	{
		fdp.ConsumeData(keys[i], fdp.ConsumeIntegralInRange<std::size_t>(0, uuid_len));
		if (i > 0 && fdp.ConsumeBool())
			std::memcpy(keys[i], keys[i - 1], fdp.ConsumeIntegralInRange<std::size_t>(0, uuid_len));
	}
	tally_keys(keys, n, now_us, &t);

	int formats = 0;
	int versions = 0;

	for (int f = 0; f <= no_format; f++)
		formats += t.by_format[f];
	for (int v = 0; v < 16; v++)
		versions += t.by_version[v];
	REQUIRE(t.rows == n && formats == n && versions == n);
	REQUIRE(t.with_time <= n && (t.with_time == 0 || t.first_us <= t.last_us));
	REQUIRE(t.v4_same_prefix <= t.v4_pairs && t.v4_pairs < (n > 0 ? n : 1) && t.shard_key <= n);
	REQUIRE(n > 0 || t.newest_format == no_format);

	double rho = key_order_correlation(keys, n, rank, order);
	bool   seen[keys_max] = {};
	bool   sorted = true;

	for (int i = 0; i < n; i++)
	{
		REQUIRE(rank[i] >= 0 && rank[i] < n && !seen[rank[i]]);
		seen[rank[i]] = true;
		sorted = sorted && rank[i] == i;
		REQUIRE(i == 0 || (std::memcmp(keys[i - 1], keys[i], uuid_len) < 0) == (rank[i - 1] < rank[i]) ||
				std::memcmp(keys[i - 1], keys[i], uuid_len) == 0);
	}
	REQUIRE(rho >= -1 - 1e-9 && rho <= 1 + 1e-9);
	REQUIRE(n < 2 || sorted == (rho > 1 - 1e-9));

	int     newest = fdp.ConsumeIntegralInRange<int>(0, n);
	int64_t leaf_pages = fdp.ConsumeIntegralInRange<int64_t>(1, INT64_C(1) << 40);
	int     touched = leaves_touched(rank, n, newest, leaf_pages, pages);

	REQUIRE(touched <= newest && touched <= leaf_pages && (newest == 0 || touched >= 1));

	GeneratorPick p = pick_generator(t, rho, rho);

	REQUIRE((p.generator == nullptr) == (n == 0) && (p.reason == PickReason::no_rows) == (n == 0));
	REQUIRE(p.reason != PickReason::shard_key || std::strcmp(p.generator, "hot_uuid(shard_key)") == 0);
	REQUIRE(p.reason != PickReason::blocks || shows_blocks(t));
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size)
{
	static const Check checks[] = {check_sample};

	return run_check(data, size, checks);
}
