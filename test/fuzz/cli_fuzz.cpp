// libFuzzer target over the command-line tool: its parsers (round trips, ranges) and its explanation of any id with any options.
#include "cli/explain.hpp"
#include "cli/text.hpp"

#include "require.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstring>
#include <fcntl.h>
#include <string>

using namespace locality_uuid;

namespace
{

constexpr int64_t time_us_min = INT64_C(-62135596800) * usecs_per_sec;	/* 0001-01-01 */
constexpr int64_t time_us_max = INT64_C(3093527980800) * usecs_per_sec - 1;	/* 99999-12-31 */

// Every text the parsers accept gives a value in range, and a uuid reads back from its canonical form.
void
fuzz_parsers(const std::string &text)
{
	uint8_t		u[uuid_len];
	uint8_t		v[uuid_len];
	char		canonical[36];
	int64_t		x;
	const char *why;

	if (parse_uuid(text.data(), text.size(), u))
	{
		format_uuid(u, canonical);
		REQUIRE(parse_uuid(canonical, sizeof(canonical), v));
		REQUIRE(std::memcmp(u, v, uuid_len) == 0);
		REQUIRE(text.size() >= 32);
	}
	if (parse_time(text.c_str(), 0, &x, &why))
		REQUIRE(x >= time_us_min && x <= time_us_max);
	else
		REQUIRE(why != nullptr && why[0] != '\0');
	if (parse_length(text.c_str(), &x, &why))
		REQUIRE(x >= 0);
	if (parse_integer(text.c_str(), -5, 5, &x))
		REQUIRE(x >= -5 && x <= 5);
}

}							// namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int	devnull = open("/dev/null", O_WRONLY);
	FuzzedDataProvider fdp(data, size);

	fuzz_parsers(fdp.ConsumeRandomLengthString(80));

	/* Any 16 bytes, explained with any options, as text and JSON: no undefined behaviour. */
	uint8_t		id[uuid_len] = {};
	ExplainOptions o;

	fdp.ConsumeData(id, sizeof(id));
	o.json = fdp.ConsumeBool();
	o.all = fdp.ConsumeBool();
	o.block_count = fdp.ConsumeIntegralInRange<int32_t>(1, INT32_MAX);
	o.as_of_us = fdp.ConsumeIntegralInRange<int64_t>(time_us_min, time_us_max);
	o.time_blocks = fdp.ConsumeBool() &&
		time_block_layout(fdp.ConsumeIntegralInRange<int64_t>(time_block_min_us, time_block_max_us),
						  o.block_count, &o.layout) == BlockStatus::ok;

	Output		out(devnull);

	explain(id, o, out);
	return 0;
}
