// Core unit tests of the format rule: RFC 9562's reading, which formats fit, each reading's time, the id's time.
#include "core/formats.hpp"
#include "check.hpp"

using namespace locality_uuid;

namespace
{

/* 2024-06-01 12:00:00.123456 UTC, the --as-of of test/t/240_cli.pl. */
constexpr int64_t as_of = INT64_C(1717243200123456);

// Parse 32 hexadecimal digits (dashes skipped) into u.
void
parse(const char *text, uint8_t u[uuid_len])
{
	int n = 0;

	for (const char *p = text; *p != '\0'; p++)
		if (*p != '-')
		{
			u[n / 2] = static_cast<uint8_t>((n % 2 == 0 ? 0 : u[n / 2] << 4) | hex_value(*p));
			n++;
		}
}

// The formats that fit, as a bit mask by Format.
unsigned
fits(const IdReading &r)
{
	unsigned mask = 0;

	for (int i = 0; i < format_count; i++)
		if (r.formats[i].fits)
			mask |= 1u << i;
	return mask;
}

constexpr unsigned m_locality = 1u << static_cast<int>(Format::locality);
constexpr unsigned m_block = 1u << static_cast<int>(Format::block);
constexpr unsigned m_v7 = 1u << static_cast<int>(Format::v7);
constexpr unsigned m_v1 = 1u << static_cast<int>(Format::v1);
constexpr unsigned m_v6 = 1u << static_cast<int>(Format::v6);
constexpr unsigned m_hot = 1u << static_cast<int>(Format::hot);

/* One id as the tool and SQL read it (240_cli.pl's -o test): its version, variant, kind, formats, time. */
struct Vector
{
	const char *id;
	unsigned    version;
	const char *variant;
	const char *kind;
	unsigned    formats;
	int         time_from; /* -1: the bits fix no time */
	int64_t     unix_us;
	int         digits;
};

const Vector vectors[] = {
	{"00000000-0000-0000-0000-000000000000", 0, "ncs", "nil", 0, -1, 0, 0},
	{"ffffffff-ffff-ffff-ffff-ffffffffffff", 15, "future", "max", 0, -1, 0, 0},
	{"c232ab00-9414-11ec-b3c8-9f6bdeced846", 1, "rfc9562", "time", m_v1, 3, INT64_C(1645557742000000), 6},
	{"5df41881-3aed-3515-88a7-2f4a814cf09e", 3, "rfc9562", "md5", m_hot, -1, 0, 0},
	{"919108f7-52d1-4320-9bac-f847db4148a8", 4, "rfc9562", "random", m_block, -1, 0, 0},
	{"2ed6657d-e927-568b-95e1-2665a8aea6a2", 5, "rfc9562", "sha1", 0, -1, 0, 0},
	{"1ec9414c-232a-6b00-b3c8-9f6bdeced846", 6, "rfc9562", "reordered-time", m_v6, 4, INT64_C(1645557742000000), 6},
	{"017f22e2-79b0-7cc3-98c4-dc0c0c07398f", 7, "rfc9562", "unix-time", m_v7, 2, INT64_C(1645557742000000), 3},
	{"2489e9ad-2ee2-8e00-8ec9-32d5f69181c0", 8, "rfc9562", "custom", 0, -1, 0, 0},
	/* locality_uuid_make's example (docs/format.md, section 1): its millisecond is its time */
	{"20be0ffc-314a-bd53-7a50-013a65ca76d2", 11, "ncs", "unknown", m_locality, 0, INT64_C(1350327498450000), 3},
	{"000d0780-0000-0000-0000-000000000000", 0, "ncs", "unknown", m_hot, -1, 0, 0},
	{"000d0780-0000-0000-c000-000000000000", 0, "microsoft", "unknown", m_hot, -1, 0, 0},
	{"000d0780-0000-0000-e000-000000000000", 0, "future", "unknown", m_hot, -1, 0, 0},
	/* a hot_uuid of the day before as_of, process 0x7080: version 7 of 5536-02-11, after as_of, so no time */
	{"6659bbc0-e765-7001-8000-00052a000000", 7, "rfc9562", "unix-time", m_v7 | m_hot, -1, 0, 0},
	/* version 7 of 9999-12-31 23:59:59.999, its second no plausible shard-key time: its time */
	{"e677d21f-dbff-7fff-bfff-ffffffffffff", 7, "rfc9562", "unix-time", m_v7, 2, INT64_C(253402300799999000), 3},
};

// Every vector read as of as_of: RFC 9562's names, the formats that fit, the id's time.
void
test_vectors()
{
	for (const Vector &v : vectors)
	{
		uint8_t   u[uuid_len];
		IdReading r;

		parse(v.id, u);
		read_id(u, as_of, false, &r);
		CHECK_EQ(r.version, v.version);
		CHECK(std::strcmp(variant_name(r.variant), v.variant) == 0);
		CHECK(std::strcmp(rfc_kind_name(r.kind), v.kind) == 0);
		CHECK_EQ(fits(r), v.formats);
		CHECK_EQ(r.time_from, v.time_from);
		if (v.time_from >= 0)
		{
			CHECK_EQ(r.formats[v.time_from].unix_us, v.unix_us);
			CHECK_EQ(r.formats[v.time_from].time_digits, v.digits);
		}
	}
}

// Each reading's own time, exactness and order, whether or not it is the id's time.
void
test_readings()
{
	uint8_t   u[uuid_len];
	IdReading r;

	parse("6659bbc0-e765-7001-8000-00052a000000", u);
	read_id(u, as_of, false, &r);
	const FormatReading &v7 = r.formats[static_cast<int>(Format::v7)];
	const FormatReading &hot = r.formats[static_cast<int>(Format::hot)];
	CHECK(v7.has_time && v7.time_exact && v7.orders_by_time);
	CHECK_EQ(v7.unix_us, INT64_C(112535588104037000)); /* 5536-02-11 05:35:04.037 */
	CHECK(hot.has_time && !hot.time_exact && hot.orders_by_time);
	CHECK_EQ(hot.unix_us, INT64_C(1717156800000000)); /* 2024-05-31 12:00:00, a guess */
	CHECK_EQ(hot.time_digits, 0);
	CHECK(r.hot_plausible);

	/* an id made from an integer: fits only the shard-key layout, of a second in 1970 */
	parse("00000000-0000-0000-0000-000000000001", u);
	read_id(u, as_of, false, &r);
	CHECK_EQ(fits(r), m_hot);
	CHECK(!r.hot_plausible);

	parse("919108f7-52d1-4320-9bac-f847db4148a8", u);
	read_id(u, as_of, true, &r);
	CHECK_EQ(fits(r), m_block | m_hot);
	CHECK(!r.formats[static_cast<int>(Format::block)].has_time);
	CHECK(!r.formats[static_cast<int>(Format::block)].orders_by_time);
	CHECK_EQ(r.formats[static_cast<int>(Format::hot)].unix_us, INT64_C(2442201335000000));

	parse("20be0ffc-314a-bd53-7a50-013a65ca76d2", u);
	read_id(u, as_of, false, &r);
	CHECK(!r.formats[static_cast<int>(Format::locality)].orders_by_time);
	parse("c232ab00-9414-11ec-b3c8-9f6bdeced846", u);
	read_id(u, as_of, false, &r);
	CHECK(!r.formats[static_cast<int>(Format::v1)].orders_by_time);
	parse("1ec9414c-232a-6b00-b3c8-9f6bdeced846", u);
	read_id(u, as_of, false, &r);
	CHECK(r.formats[static_cast<int>(Format::v6)].orders_by_time);

	/* all: the nil and max uuids read as shard-key ids too (of 1970 and of 2106-02-07 06:28:15) */
	parse("00000000-0000-0000-0000-000000000000", u);
	read_id(u, as_of, true, &r);
	CHECK_EQ(fits(r), m_hot);
	CHECK_EQ(r.formats[static_cast<int>(Format::hot)].unix_us, INT64_C(0));
	parse("ffffffff-ffff-ffff-ffff-ffffffffffff", u);
	read_id(u, as_of, true, &r);
	CHECK_EQ(r.formats[static_cast<int>(Format::hot)].unix_us, INT64_C(4294967295000000));
	CHECK_EQ(r.time_from, -1);

	/* as_of at either end of int64 (timestamptz's last 30 years overflow the glue's sum): the
	 * window's bounds do not overflow (UBSan in the _san build), and a 2024 shard-key id is not
	 * plausible at either end */
	parse("6659bbc0-e765-7001-8000-00052a000000", u);
	read_id(u, INT64_MAX, false, &r);
	CHECK(!r.hot_plausible);
	CHECK_EQ(r.time_from, static_cast<int>(Format::v7));
	read_id(u, INT64_MIN, false, &r);
	CHECK(!r.hot_plausible);
	CHECK_EQ(r.time_from, static_cast<int>(Format::v7));
}

// Return whether a version 3 id whose first four bytes are second reads as a shard-key id.
bool
hot_at(int64_t second)
{
	uint8_t   u[uuid_len] = {0, 0, 0, 0, 0, 0, 0x30, 0, 0x80};
	IdReading r;

	put_be(u, static_cast<uint64_t>(second), 4);
	read_id(u, as_of, false, &r);
	return r.formats[static_cast<int>(Format::hot)].fits;
}

// The plausible window: ten years of 365.25 days before as_of to a day after, both ends in.
void
test_window()
{
	CHECK(!hot_at(INT64_C(1401667200))); /* as_of - 315576000 s is 1401667200.123456 */
	CHECK(hot_at(INT64_C(1401667201)));
	CHECK(hot_at(INT64_C(1717329600))); /* as_of + 86400 s is 1717329600.123456 */
	CHECK(!hot_at(INT64_C(1717329601)));

	/*
	 * A version 1 id whose first four bytes read as a shard-key second of 2024-06-01: its exact
	 * time stands up to a day after as_of, a microsecond later it gives way (the bits fix none).
	 */
	uint8_t   u[uuid_len];
	IdReading r;
	int64_t   v1_us = INT64_C(1717329497907539);

	parse("665b0d40-20d7-11ef-8000-000000000000", u);
	read_id(u, v1_us - hot_window_after * 1000000, false, &r);
	CHECK_EQ(fits(r), m_v1 | m_hot);
	CHECK_EQ(r.time_from, static_cast<int>(Format::v1));
	CHECK_EQ(r.formats[r.time_from].unix_us, v1_us);
	read_id(u, v1_us - hot_window_after * 1000000 - 1, false, &r);
	CHECK_EQ(fits(r), m_v1 | m_hot);
	CHECK_EQ(r.time_from, -1);
}

// Versions 1 and 6: one epoch (RFC 9562 A.1 and B.1 read as 2022-02-22 19:22:22 UTC).
void
test_gregorian()
{
	uint8_t v1[uuid_len];
	uint8_t v6[uuid_len];

	parse("c232ab00-9414-11ec-b3c8-9f6bdeced846", v1);
	parse("1ec9414c-232a-6b00-b3c8-9f6bdeced846", v6);
	CHECK_EQ(gregorian_unix_offset, INT64_C(141427) * 86400 * 10000000); /* 1582-10-15 to 1970-01-01: 141427 days */
	CHECK_EQ(v1_timestamp(v1), UINT64_C(138648505420000000));
	CHECK_EQ(v6_timestamp(v6), UINT64_C(138648505420000000));
	CHECK_EQ(gregorian_unix_us(v1), INT64_C(1645557742000000));
	CHECK_EQ(gregorian_unix_us(v6), INT64_C(1645557742000000));

	/* truncated to the microsecond, as uuid_extract_timestamp: 9 steps of 100 ns are 0 us */
	v1[3] = static_cast<uint8_t>(v1[3] + 9);
	CHECK_EQ(gregorian_unix_us(v1), INT64_C(1645557742000000));
	v1[3] = static_cast<uint8_t>(v1[3] + 1);
	CHECK_EQ(gregorian_unix_us(v1), INT64_C(1645557742000001));
}

// Names of every variant, kind and format.
void
test_names()
{
	CHECK(std::strcmp(format_name(Format::locality), "locality") == 0);
	CHECK(std::strcmp(format_name(Format::block), "block") == 0);
	CHECK(std::strcmp(format_name(Format::v7), "v7") == 0);
	CHECK(std::strcmp(format_name(Format::v1), "v1") == 0);
	CHECK(std::strcmp(format_name(Format::v6), "v6") == 0);
	CHECK(std::strcmp(format_name(Format::hot), "hot") == 0);
	CHECK(std::strcmp(rfc_kind_name(RfcKind::dce), "dce") == 0);
	CHECK(std::strcmp(variant_name(Variant::microsoft), "microsoft") == 0);
}

// The reading carries each fitting format's fields, as that format's decoder reads them.
void
test_fields()
{
	uint8_t   u[uuid_len];
	IdReading r;

	parse("20be0ffc-314a-bd53-7a50-013a65ca76d2", u);
	read_id(u, as_of, false, &r);

	LocalityFields sequential;

	decode_b(u, &sequential, CounterMode::sequential);
	CHECK_EQ(r.locality.process, 12618u);
	CHECK_EQ(r.locality.node, 0xd537a50u);
	CHECK_EQ(r.locality.counter, UINT64_C(3488672514));
	CHECK_EQ(r.locality_sequential_counter, sequential.counter);
	CHECK_EQ(r.v7.ms, 0); /* no version 7 reading: zero */

	parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f", u);
	read_id(u, as_of, false, &r);
	CHECK_EQ(r.v7.ms, INT64_C(0x17f22e279b0));
	CHECK_EQ(r.v7.rand_a, 0xcc3u);
	CHECK(!r.v7.is_explicit);
	CHECK_EQ(r.locality.node, 0u);

	parse("1ec9414c-232a-6b00-b3c8-9f6bdeced846", u);
	read_id(u, as_of, false, &r);
	CHECK_EQ(r.gregorian.clock_seq, 0x33c8u);
	CHECK_EQ(r.gregorian.node[0], 0x9f);
	CHECK_EQ(r.gregorian.node[5], 0x46);

	parse("6659bbc0-e765-7001-8000-00052a000000", u);
	read_id(u, as_of, false, &r);
	CHECK_EQ(r.hot.seconds, 0x6659bbc0u);
	CHECK_EQ(r.hot.process, 0x7080u);
	CHECK_EQ(r.hot.counter, 5u);
	CHECK_EQ(r.hot.shard, 42u);
}

} // namespace

int
main()
{
	test_vectors();
	test_readings();
	test_fields();
	test_window();
	test_gregorian();
	test_names();
	return check::finish("formats");
}
