// libFuzzer target over the format rule: any 16 bytes and time of asking read consistently, as each format's own decoder does.
#include "core/formats.hpp"
#include "core/hot.hpp"
#include "core/locality_b.hpp"
#include "core/v7.hpp"

#include "require.hpp"

#include <fuzzer/FuzzedDataProvider.h>

using namespace locality_uuid;

namespace
{

// Any id read as of any time the tool or SQL may ask (years 1 to 9999): one exact reading at most, and it is the id's time or gives way.
void
check_read(FuzzedDataProvider &fdp)
{
	uint8_t   u[uuid_len] = {};
	int64_t   as_of = fdp.ConsumeIntegralInRange<int64_t>(INT64_C(-62135596800000000), INT64_C(253402300799999999));
	bool      all = fdp.ConsumeBool();
	IdReading r;
	int       exact = 0;

	fdp.ConsumeData(u, sizeof(u));
	read_id(u, as_of, all, &r);
	for (int i = 0; i < format_count; i++)
	{
		const FormatReading &f = r.formats[i];

		REQUIRE(f.fits || (!f.has_time && !f.time_exact));
		REQUIRE(!f.time_exact || f.has_time);
		exact += f.time_exact;
	}
	REQUIRE(exact <= 1);
	REQUIRE(r.time_from == -1 || r.formats[r.time_from].time_exact);
	REQUIRE(r.time_from >= 0 || exact == 0 || r.formats[static_cast<int>(Format::hot)].fits);
	REQUIRE(r.version == version_nibble(u));
	REQUIRE(!all || r.formats[static_cast<int>(Format::hot)].fits);
	REQUIRE((r.kind == RfcKind::nil) == (get_be(u, 8) == 0 && get_be(u + 8, 8) == 0));
	REQUIRE((r.variant == Variant::rfc9562) == rfc_variant(u));

	LocalityFields lf;
	bool           locality = decode_b(u, &lf, CounterMode::sequential);
	const auto    &l = r.formats[static_cast<int>(Format::locality)];

	REQUIRE(l.fits == locality);
	REQUIRE(!locality || l.unix_us == static_cast<int64_t>(lf.time_ms) * 1000);
	REQUIRE(!r.formats[static_cast<int>(Format::v7)].fits || r.formats[static_cast<int>(Format::v7)].unix_us == v7_ms(u) * 1000);
	REQUIRE(!r.formats[static_cast<int>(Format::hot)].fits ||
			r.formats[static_cast<int>(Format::hot)].unix_us == static_cast<int64_t>(hot_time_field(u)) * 1000000);

	/* the fields the reading carries are its format's decoder's */
	LocalityFields variable;
	V7Fields       v7;
	HotFields      hot;

	REQUIRE(!locality || (decode_b(u, &variable, CounterMode::variable) && variable.counter == r.locality.counter &&
						  variable.node == r.locality.node && variable.process == r.locality.process &&
						  lf.counter == r.locality_sequential_counter));
	decode_v7(u, &v7);
	REQUIRE(!r.formats[static_cast<int>(Format::v7)].fits ||
			(v7.ms == r.v7.ms && v7.rand_a == r.v7.rand_a && v7.allocation == r.v7.allocation && v7.counter == r.v7.counter));
	decode_hot(u, &hot);
	REQUIRE(!r.formats[static_cast<int>(Format::hot)].fits ||
			(hot.seconds == r.hot.seconds && hot.shard == r.hot.shard && hot.counter == r.hot.counter &&
			 hot.process == r.hot.process && std::memcmp(hot.machine, r.hot.machine, hot_machine_len) == 0));
	REQUIRE(!(r.formats[static_cast<int>(Format::v1)].fits || r.formats[static_cast<int>(Format::v6)].fits) ||
			(r.gregorian.clock_seq == (get_be(u + 8, 2) & 0x3fff) && std::memcmp(r.gregorian.node, u + 10, 6) == 0));
}

// Any 60-bit timestamp written as version 1 and as version 6: both read back the same microsecond.
void
check_gregorian(FuzzedDataProvider &fdp)
{
	uint64_t t = fdp.ConsumeIntegralInRange<uint64_t>(0, (UINT64_C(1) << 60) - 1);
	uint8_t  v1[uuid_len] = {};
	uint8_t  v6[uuid_len] = {};

	put_be(v1, t & 0xffffffff, 4);
	put_be(v1 + 4, (t >> 32) & 0xffff, 2);
	put_be(v1 + 6, 0x1000 | (t >> 48), 2);
	put_be(v6, t >> 28, 4);
	put_be(v6 + 4, (t >> 12) & 0xffff, 2);
	put_be(v6 + 6, 0x6000 | (t & 0x0fff), 2);
	REQUIRE(v1_timestamp(v1) == t && v6_timestamp(v6) == t);
	REQUIRE(gregorian_unix_us(v1) == gregorian_unix_us(v6));
	REQUIRE(gregorian_unix_us(v1) == static_cast<int64_t>(t / 10) - gregorian_unix_offset / 10);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size)
{
	static const Check checks[] = {check_read, check_gregorian};

	return run_check(data, size, checks);
}
