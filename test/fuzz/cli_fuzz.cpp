// libFuzzer target over the command-line tool: its parsers (round trips, ranges), its options, and its explanation of any id with any options.
#include "cli/explain.hpp"
#include "cli/options.hpp"
#include "cli/rfc.hpp"
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
	if (parse_namespace(text.data(), text.size(), u))
	{
		name_based(5, u, text.data(), text.size(), v);
		REQUIRE(version_nibble(v) == 5 && (v[8] & 0xc0) == 0x80);
	}
}

// Any command line is read or refused with a reason, and its choice of generator is one or a reason.
void
fuzz_options(FuzzedDataProvider &fdp)
{
	std::vector<std::string> args;
	Options		o;
	std::string error;
	Kind		kind;
	std::vector<Field> fields;

	for (int i = fdp.ConsumeIntegralInRange(0, 6); i > 0; i--)
		args.push_back(fdp.ConsumeRandomLengthString(24));
	if (!parse_arguments(args, fdp.ConsumeBool(), &o, &error))
		REQUIRE(!error.empty());
	else if (!choose_kind(o, &kind, &error))
		REQUIRE(!error.empty());
	if (parse_fields(o.fields, &fields, &error))
		REQUIRE(!fields.empty());
	quoted(o.fields.data(), o.fields.size());
}

}							// namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int	devnull = open("/dev/null", O_WRONLY);
	FuzzedDataProvider fdp(data, size);

	fuzz_parsers(fdp.ConsumeRandomLengthString(80));
	fuzz_options(fdp);

	/* Any 16 bytes, explained with any options, as text and JSON: no undefined behaviour. */
	uint8_t		id[uuid_len] = {};
	ExplainOptions o;

	fdp.ConsumeData(id, sizeof(id));
	o.json = fdp.ConsumeBool();
	if (fdp.ConsumeBool())
		o.fields = {Field::id, Field::version, Field::variant, Field::type, Field::time, Field::unix_us, Field::formats,
			Field::facade};
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
