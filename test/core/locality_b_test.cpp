// Core unit tests of the locality uuid (version b): docs/format.md, section 1 vectors and generator state transitions.
#include "core/locality_b.hpp"
#include "check.hpp"

using namespace locality_uuid;

namespace
{

/* Deterministic environment: random bytes and digests come from these tables. */
uint8_t		fake_random[4];
bool		fake_random_ok = true;
int			md5_calls = 0;
char		md5_last_text[bucket_text_len + 1];
uint8_t		fake_digest[digest_len];
bool		fake_md5_ok = true;

bool
fake_random_bytes(uint8_t *buf, std::size_t len)
{
	for (std::size_t i = 0; i < len; i++)
		buf[i] = fake_random[i % sizeof(fake_random)];
	return fake_random_ok;
}

bool
fake_md5(const char *text, std::size_t len, uint8_t digest[digest_len])
{
	md5_calls++;
	std::memcpy(md5_last_text, text, len);
	md5_last_text[len] = '\0';
	std::memcpy(digest, fake_digest, digest_len);
	return fake_md5_ok;
}

Environment
env_at(int64_t ms, uint16_t process = 12618, uint32_t node = 0xd537a50)
{
	return Environment{ms, process, node, nullptr};
}

/* A run word for generators that stand for several backends of one cluster. */
uint64_t	shared_word = seq_word_empty;

// Return an environment on the given slot's marks.
Environment
shared_env(int64_t ms, SlotMarks *slot, uint16_t process = 12618)
{
	Environment e = env_at(ms, process);

	e.slot = slot;
	return e;
}

/* A backend: its generator, on its own run word or on shared_word (a cluster's). */
struct Backend
{
	LocalityGenerator gen;
	uint64_t	own_word = seq_word_empty;
	bool		shared;
	SeedRule	rule = SeedRule::bucket;

	explicit	Backend(bool on_shared_run = false) : shared(on_shared_run) {}

	// Make the next id from the fake sources.
	Status		next(CounterMode mode, const Environment &env, uint8_t out[uuid_len])
	{
		return next_alone(gen, mode, env, fake_random_bytes, fake_md5, shared ? &shared_word : &own_word, out,
						  rule);
	}
};

void
set_digest(const uint8_t (&d)[digest_len])
{
	std::memcpy(fake_digest, d, digest_len);
}

/* MD5("20121015185"), from md5sum; its first four bytes read little-endian are 0x01B8543F. */
const uint8_t md5_20121015185[digest_len] = {
	0x3f, 0x54, 0xb8, 0x01, 0x2b, 0x0d, 0x42, 0x1b,
	0xcf, 0xec, 0xb6, 0x20, 0x3b, 0x64, 0x0d, 0x49
};

void
test_fields()
{
	uint8_t		b[8] = {0};

	put_be(b, 0x0102030405ULL, 5);
	CHECK_EQ(b[0], 0x01);
	CHECK_EQ(b[4], 0x05);
	CHECK_EQ(get_be(b, 5), 0x0102030405ULL);
	put_le(b, 0x12345678, 4);
	CHECK_EQ(b[0], 0x78);
	CHECK_EQ(get_le(b, 4), 0x12345678ULL);
	const uint8_t v4[uuid_len] = {0, 0, 0, 0, 0, 0, 0x4f};

	CHECK_EQ(version_nibble(v4), 4u);
	CHECK_EQ(floor_div(-1, 600000), -1);
	CHECK_EQ(floor_div(-600000, 600000), -1);
	CHECK_EQ(floor_div(599999, 600000), 0);
}

// Days from 1970 and proleptic Gregorian dates, both ways: exact dates, and a round trip over
// every day of years -1 to 10000.
void
test_civil_days()
{
	CHECK_EQ(days_from_civil(1970, 1, 1), 0);
	CHECK_EQ(days_from_civil(2000, 3, 1), 11017);
	CHECK_EQ(days_from_civil(2024, 2, 29), 19782);
	CHECK_EQ(days_from_civil(1969, 12, 31), -1);
	CHECK_EQ(days_from_civil(1, 1, 1), -719162);
	CHECK_EQ(days_from_civil(9999, 12, 31), 2932896);

	int		wrong = 0;

	for (int64_t days = days_from_civil(-1, 1, 1); days <= days_from_civil(10000, 12, 31); days++)
	{
		int64_t		year;
		int			month;
		int			day;

		civil_from_days(days, &year, &month, &day);
		wrong += days_from_civil(year, month, day) != days;
	}
	CHECK_EQ(wrong, 0);
}

void
test_vectors()
{
	uint8_t		u[uuid_len];
	LocalityFields f;

	CHECK_EQ(reverse_nibbles(0x12345678), 0x87654321u);
	CHECK_EQ(reverse_nibbles(0xCFF0EB02), 0x20BE0FFCu);

	const uint8_t mac1[6] = {0x00, 0x00, 0x0d, 0x53, 0x7a, 0x50};
	const uint8_t mac3[6] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab};
	const uint8_t mac4[6] = {0xa6, 0xc6, 0xad, 0x9e, 0x15, 0x73};

	CHECK_EQ(node_from_mac(mac1), 0xd537a50u);
	CHECK_EQ(node_from_mac(mac3), 0x56789abu);
	CHECK_EQ(node_from_mac(mac4), 0xd9e1573u);

	struct
	{
		LocalityFields f;
		CounterMode mode;
		const char *text;
	}			vectors[] = {
		{{0xCFF0EB02, 12618, 0xd537a50, 1350327498450ULL}, CounterMode::variable,
		"20be0ffc-314a-bd53-7a50-013a65ca76d2"},
		{{0x0BD4BCB5, 0, 0, 1350327498450ULL}, CounterMode::variable,
		"5bcb4db0-0000-b000-0000-013a65ca76d2"},
		{{0x12345678, 1234, 0x56789ab, 1735689599999ULL}, CounterMode::variable,
		"87654321-04d2-b567-89ab-01941f297bff"},
		{{0x80000000, 4660, 0xd9e1573, 1000000000000ULL}, CounterMode::sequential,
		"80000000-1234-bd9e-1573-00e8d4a51000"},
		{{0x01B85440, 12618, 0xd537a50, 1350327498450ULL}, CounterMode::sequential,
		"01b85440-314a-bd53-7a50-013a65ca76d2"},
	};

	for (const auto &v : vectors)
	{
		CHECK(encode_b(v.f, v.mode, u) == Status::ok);
		const char *got = check::uuid_text(u);

		check::report(std::strcmp(got, v.text) == 0, v.text, __FILE__, __LINE__);
		CHECK(decode_b(u, &f, v.mode));
		CHECK_EQ(f.counter, v.f.counter);
		CHECK_EQ(f.process, v.f.process);
		CHECK_EQ(f.node, v.f.node);
		CHECK_EQ(f.time_ms, v.f.time_ms);
	}

	/* The decoding example of docs/format.md, section 1: variable reading of 20be0ffc-... */
	encode_b(vectors[0].f, CounterMode::variable, u);
	decode_b(u, &f);
	CHECK_EQ(f.counter, 3488672514u);

	/* Sequential ids read in variable mode give the nibble-reversed counter. */
	encode_b(vectors[3].f, CounterMode::sequential, u);
	decode_b(u, &f);
	CHECK_EQ(f.counter, 0x00000008u);
}

void
test_encode_limits()
{
	uint8_t		u[uuid_len];
	LocalityFields f{0xFFFFFFFF, 0xFFFF, node_max, time_ms_max};

	CHECK(encode_b(f, CounterMode::variable, u) == Status::ok);
	CHECK_UUID(u, "ffffffff-ffff-bfff-ffff-ffffffffffff");
	f.node = node_max + 1;
	CHECK(encode_b(f, CounterMode::variable, u) == Status::node_out_of_range);
	f.node = 0;
	f.time_ms = time_ms_max + 1;
	CHECK(encode_b(f, CounterMode::variable, u) == Status::time_out_of_range);

	/* Not version b: decoding refuses, whatever the other bytes say. */
	uint8_t		v4[uuid_len] = {0x20, 0xbe, 0x0f, 0xfc, 0x31, 0x4a, 0x4d, 0x53,
	0x7a, 0x50, 0x01, 0x3a, 0x65, 0xca, 0x76, 0xd2};

	CHECK(!decode_b(v4, &f));
	v4[6] = 0xad;
	CHECK(!decode_b(v4, &f));
	v4[6] = 0xbd;
	CHECK(decode_b(v4, &f));
}

void
test_buckets()
{
	char		t[bucket_text_len + 1] = {0};

	CHECK(bucket_text(bucket_of(1350327498450LL), t));
	CHECK(std::strcmp(t, "20121015185") == 0);
	CHECK(bucket_text(bucket_of(0), t));
	CHECK(std::strcmp(t, "19700101000") == 0);
	CHECK(bucket_text(bucket_of(-1), t));
	CHECK(std::strcmp(t, "19691231235") == 0);
	/* 2024-02-29 23:59:59.999 UTC: a leap day, last bucket of the day. */
	CHECK(bucket_text(bucket_of(1709251199999LL), t));
	CHECK(std::strcmp(t, "20240229235") == 0);
	/* 2000-03-01 00:00:00 UTC: the day after a 400-year leap day. */
	CHECK(bucket_text(bucket_of(951868800000LL), t));
	CHECK(std::strcmp(t, "20000301000") == 0);
	/* 2100-03-01 00:09:59.999 UTC: 2100 is not a leap year. */
	CHECK(bucket_text(bucket_of(4107542399999LL + 1 + 599999), t));
	CHECK(std::strcmp(t, "21000301000") == 0);
	/* 9999-12-31 23:59:59.999 is the last formattable bucket; 10000-01-01 is refused. */
	CHECK(bucket_text(bucket_of(253402300799999LL), t));
	CHECK(std::strcmp(t, "99991231235") == 0);
	CHECK(!bucket_text(bucket_of(253402300800000LL), t));
	/* Bucket edges: 18:49:59.999 and 18:50:00.000 on 2012-10-15. */
	CHECK_EQ(bucket_of(1350326999999LL) + 1, bucket_of(1350327000000LL));
	CHECK_EQ(seed_from_digest(md5_20121015185), 0x01B8543Fu);
}

void
test_variable_generator()
{
	Backend g;
	uint8_t		u[uuid_len];
	LocalityFields f;

	/* A counter starting at 0 gives the vector 5bcb4db0-... of docs/format.md, section 1 as its first id. */
	std::memset(fake_random, 0, sizeof(fake_random));
	CHECK(g.next(CounterMode::variable, env_at(1350327498450ULL, 0, 0), u) == Status::ok);
	CHECK_UUID(u, "5bcb4db0-0000-b000-0000-013a65ca76d2");
	CHECK(g.next(CounterMode::variable, env_at(1350327498450ULL, 0, 0), u) == Status::ok);
	decode_b(u, &f);
	CHECK_EQ(f.counter, 2u * variable_step);

	/* The random start is read once; later random values do not matter. */
	Backend w;

	fake_random[0] = 0xFF;
	fake_random[1] = 0xFF;
	fake_random[2] = 0xFF;
	fake_random[3] = 0xF0;
	CHECK(w.next(CounterMode::variable, env_at(1), u) == Status::ok);
	decode_b(u, &f);
	CHECK_EQ(f.counter, 0xFFFFFFF0u + variable_step);	/* wraps mod 2^32 */
	CHECK_EQ(f.counter, 0x0BD4BCA5u);
	std::memset(fake_random, 0x11, sizeof(fake_random));
	w.next(CounterMode::variable, env_at(2), u);
	decode_b(u, &f);
	CHECK_EQ(f.counter, 0x0BD4BCA5u + variable_step);

	/* The first hex digit takes all 16 values in 16 consecutive ids (step is 5 mod 16). */
	unsigned	seen = 0;

	for (int i = 0; i < 16; i++)
	{
		w.next(CounterMode::variable, env_at(3), u);
		seen |= 1u << (u[0] >> 4);
	}
	CHECK_EQ(seen, 0xFFFFu);

	/* A failing random source is reported and leaves the counter unseeded. */
	Backend r;

	fake_random_ok = false;
	CHECK(r.next(CounterMode::variable, env_at(1), u) == Status::random_failed);
	fake_random_ok = true;
	std::memset(fake_random, 0, sizeof(fake_random));
	CHECK(r.next(CounterMode::variable, env_at(1), u) == Status::ok);
	decode_b(u, &f);
	CHECK_EQ(f.counter, variable_step);

	/* A node beyond 28 bits is refused before any state changes. */
	CHECK(r.next(CounterMode::variable, env_at(1, 0, node_max + 1), u) == Status::node_out_of_range);
	r.next(CounterMode::variable, env_at(1), u);
	decode_b(u, &f);
	CHECK_EQ(f.counter, 2u * variable_step);
}

void
test_sequential_generator()
{
	Backend g;
	uint8_t		u[uuid_len];
	LocalityFields f;
	const uint64_t t0 = 1350327498450ULL;	/* 2012-10-15 18:58:18.450 UTC */

	/* First id after seeding shows seed + 1: the vector 01b85440-... of docs/format.md, section 1. */
	set_digest(md5_20121015185);
	md5_calls = 0;
	CHECK(g.next(CounterMode::sequential, env_at(t0), u) == Status::ok);
	CHECK_UUID(u, "01b85440-314a-bd53-7a50-013a65ca76d2");
	CHECK_EQ(md5_calls, 1);
	CHECK(std::strcmp(md5_last_text, "20121015185") == 0);

	/* Same bucket: +1 per id, no new digest. */
	CHECK(g.next(CounterMode::sequential, env_at(t0 + 1000), u) == Status::ok);
	CHECK_UUID(u, "01b85441-314a-bd53-7a50-013a65ca7aba");
	CHECK_EQ(md5_calls, 1);

	/* The clock steps back: time is held at the last millisecond, no re-seed. */
	CHECK(g.next(CounterMode::sequential, env_at(t0 - 5000), u) == Status::ok);
	CHECK_UUID(u, "01b85442-314a-bd53-7a50-013a65ca7aba");
	CHECK_EQ(md5_calls, 1);

	/* Variable ids in between use their own counter and leave this one alone. */
	std::memset(fake_random, 0, sizeof(fake_random));
	g.next(CounterMode::variable, env_at(t0 + 1000), u);
	decode_b(u, &f);
	CHECK_EQ(f.counter, variable_step);

	/* Next bucket (19:08 UTC) re-seeds from its own text. */
	const uint8_t other[digest_len] = {0xff, 0xff, 0xff, 0xff};

	set_digest(other);
	CHECK(g.next(CounterMode::sequential, env_at(t0 + 600000), u) == Status::ok);
	CHECK_EQ(md5_calls, 2);
	CHECK(std::strcmp(md5_last_text, "20121015190") == 0);
	CHECK_UUID(u, "00000000-314a-bd53-7a50-013a65d39e92");	/* seed 0xFFFFFFFF + 1 wraps */
	g.next(CounterMode::sequential, env_at(t0 + 600001), u);
	CHECK_UUID(u, "00000001-314a-bd53-7a50-013a65d39e93");

	/* The variable counter went on where it was. */
	g.next(CounterMode::variable, env_at(t0 + 600002), u);
	decode_b(u, &f);
	CHECK_EQ(f.counter, 2u * variable_step);

	/* A failing digest is reported; the next call tries to seed again. */
	Backend d;

	fake_md5_ok = false;
	CHECK(d.next(CounterMode::sequential, env_at(t0), u) == Status::digest_failed);
	fake_md5_ok = true;
	set_digest(md5_20121015185);
	CHECK(d.next(CounterMode::sequential, env_at(t0), u) == Status::ok);
	CHECK_UUID(u, "01b85440-314a-bd53-7a50-013a65ca76d2");

	/* A clock past year 9999 cannot be bucketed. */
	Backend y;

	CHECK(y.next(CounterMode::sequential, env_at(253402300800000LL), u) == Status::time_out_of_range);
}

void
test_seed_rule_named()
{
	SeedRule	r = SeedRule::bucket;

	CHECK(seed_rule_named("continue", &r));
	CHECK(r == SeedRule::continued);
	CHECK(seed_rule_named("bucket", &r));
	CHECK(r == SeedRule::bucket);

	/* Exact names only; a miss leaves the rule as it was. */
	CHECK(!seed_rule_named("Continue", &r));
	CHECK(!seed_rule_named("continued", &r));
	CHECK(!seed_rule_named("", &r));
	CHECK(r == SeedRule::bucket);

	/* The default first: the setting's default and the tool's. */
	CHECK_EQ(static_cast<int>(sizeof(seed_rule_names) / sizeof(seed_rule_names[0])), 2);
	CHECK(seed_rule_names[0].rule == SeedRule::continued);
}

void
test_seq_advance()
{
	uint64_t	w;
	SeqTake		t;

	/* The first id of a bucket starts its run; later ones step; an earlier bucket continues. */
	CHECK(seq_advance(seq_word_empty, 5, &w, &t) == SeqStatus::ok);
	CHECK_EQ(w, (UINT64_C(6) << 32) | 0);
	CHECK_EQ(t.run_bucket, 5);
	CHECK_EQ(t.index, 0u);
	CHECK(seq_advance(w, 5, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.index, 1u);
	CHECK(seq_advance(w, 4, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.run_bucket, 5);
	CHECK_EQ(t.index, 2u);
	CHECK(seq_advance(w, 6, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.run_bucket, 6);
	CHECK_EQ(t.index, 0u);
	/* Bucket 0 (1970-01-01 00:00) has a run of its own too. */
	CHECK(seq_advance(seq_word_empty, 0, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.run_bucket, 0);
	CHECK_EQ(w, UINT64_C(1) << 32);
	/* 2^32 ids in a run, then exhausted; a later bucket starts again. */
	w = (UINT64_C(8) << 32) | UINT32_MAX;
	CHECK(seq_advance(w, 7, &w, &t) == SeqStatus::exhausted);
	CHECK(seq_advance(w, 8, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.run_bucket, 8);
	CHECK_EQ(t.index, 0u);
	CHECK(seq_advance(w, -1, &w, &t) == SeqStatus::bad_bucket);
	CHECK(seq_advance(w, seq_bucket_max + 1, &w, &t) == SeqStatus::bad_bucket);
	CHECK(seq_advance(seq_word_empty, seq_bucket_max, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.run_bucket, seq_bucket_max);
}

void
test_seq_continue()
{
	uint64_t	w;
	SeqTake		t;

	/* The first id starts at start; later ones step, whatever start they bring. */
	CHECK(seq_continue(seq_word_empty, 0x01B85440, 0, &w, &t) == SeqStatus::ok);
	CHECK(t.continued);
	CHECK_EQ(t.position, UINT64_C(0x01B85440));
	CHECK_EQ(t.index, 0x01B85440u);
	CHECK_EQ(w, UINT64_C(0x01B85441));
	CHECK(seq_continue(w, 5, 0, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.position, UINT64_C(0x01B85441));
	/* A floor raises the position (a start above the word's too); one below it does nothing. */
	CHECK(seq_continue(w, 5, UINT64_C(0x100000007), &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.position, UINT64_C(0x100000007));
	CHECK_EQ(t.index, 7u);
	CHECK(seq_continue(w, 5, 3, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.position, UINT64_C(0x100000008));
	CHECK(seq_continue(seq_word_empty, 9, 3, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.position, UINT64_C(9));
	/* Position 0 (start 0) is taken once: the word after it is not empty. */
	CHECK(seq_continue(seq_word_empty, 0, 0, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.position, UINT64_C(0));
	CHECK(seq_continue(w, 0, 0, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.position, UINT64_C(1));
	/* The last position is given once, then every call is refused and the word stays. */
	w = seq_position_max;
	CHECK(seq_continue(w, 0, 0, &w, &t) == SeqStatus::ok);
	CHECK_EQ(t.position, seq_position_max);
	CHECK(seq_continue(w, 0, 0, &w, &t) == SeqStatus::exhausted);
	CHECK_EQ(w, seq_position_max + 1);
	CHECK(seq_continue(seq_word_empty, 0, seq_position_max + 1, &w, &t) == SeqStatus::exhausted);
}

void
test_continued_run()
{
	uint8_t		u[uuid_len];
	LocalityFields f;
	const int64_t t0 = 1350327498450LL;	/* 2012-10-15 18:58:18.450 UTC */
	const uint8_t other[digest_len] = {0xff, 0xff, 0xff, 0xff};
	Backend		g;

	g.rule = SeedRule::continued;
	set_digest(md5_20121015185);
	/* The first bucket's ids are the bucket rule's: the vectors of docs/format.md. */
	CHECK(g.next(CounterMode::sequential, env_at(t0), u) == Status::ok);
	CHECK_UUID(u, "01b85440-314a-bd53-7a50-013a65ca76d2");
	CHECK(g.next(CounterMode::sequential, env_at(t0 + 1000), u) == Status::ok);
	CHECK_UUID(u, "01b85441-314a-bd53-7a50-013a65ca7aba");
	/* The next bucket goes on from the last id (the bucket rule would start at 00000000). */
	set_digest(other);
	CHECK(g.next(CounterMode::sequential, env_at(t0 + 600000), u) == Status::ok);
	CHECK_UUID(u, "01b85442-314a-bd53-7a50-013a65d39e92");
	/* So do the six buckets after it, one id each, and a clock back in an earlier bucket. */
	for (int b = 2; b <= 7; b++)
	{
		CHECK(g.next(CounterMode::sequential, env_at(t0 + b * 600000), u) == Status::ok);
		decode_b(u, &f, CounterMode::sequential);
		CHECK_EQ(f.counter, 0x01B85441u + static_cast<uint32_t>(b));
	}
	CHECK(g.next(CounterMode::sequential, env_at(t0), u) == Status::ok);
	decode_b(u, &f, CounterMode::sequential);
	CHECK_EQ(f.counter, 0x01B85449u);
	CHECK_EQ(f.time_ms, static_cast<uint64_t>(t0 + 7 * 600000));

	/* The wrap: position 2^32 - 1, then 2^32 (counter 0, a new run): held clock, next ms. */
	Backend		w;
	const int64_t t1 = t0 + 1;

	w.rule = SeedRule::continued;
	w.own_word = (UINT64_C(1) << 32) - 2;
	CHECK(w.next(CounterMode::sequential, env_at(t1), u) == Status::ok);
	CHECK_UUID(u, "fffffffe-314a-bd53-7a50-013a65ca76d3");
	CHECK(w.next(CounterMode::sequential, env_at(t1), u) == Status::ok);
	CHECK_UUID(u, "ffffffff-314a-bd53-7a50-013a65ca76d3");
	CHECK(w.next(CounterMode::sequential, env_at(t1), u) == Status::ok);
	CHECK_UUID(u, "00000000-314a-bd53-7a50-013a65ca76d4");
	CHECK(w.next(CounterMode::sequential, env_at(t1), u) == Status::ok);
	CHECK_UUID(u, "00000001-314a-bd53-7a50-013a65ca76d4");
	CHECK_EQ(w.own_word, (UINT64_C(1) << 32) + 2);

	/* One backend switching rules in a held millisecond: each switch is a new run, a new ms. */
	Backend		m;

	set_digest(md5_20121015185);
	m.rule = SeedRule::continued;
	m.own_word = 0x01B85440;
	CHECK(m.next(CounterMode::sequential, env_at(t0), u) == Status::ok);
	CHECK_UUID(u, "01b85440-314a-bd53-7a50-013a65ca76d2");
	m.rule = SeedRule::bucket;
	m.own_word = seq_word_empty;
	CHECK(m.next(CounterMode::sequential, env_at(t0), u) == Status::ok);
	CHECK_UUID(u, "01b85440-314a-bd53-7a50-013a65ca76d3");

	/* The continued run past its last position is refused, and the state is kept. */
	Backend		x;

	x.rule = SeedRule::continued;
	x.own_word = seq_position_max + 1;
	CHECK(x.next(CounterMode::sequential, env_at(t0), u) == Status::sequence_exhausted);
	CHECK_EQ(x.own_word, seq_position_max + 1);
}

void
test_shared_run()
{
	uint8_t		u[uuid_len];
	LocalityFields f;
	const int64_t t0 = 1350327498450LL;	/* 2012-10-15 18:58:18.450 UTC */
	SlotMarks	s1 = {0, 0};
	SlotMarks	s2 = {0, 0};

	/* Two backends on one run: the cluster's first id is seed + 1, then +1 across both. */
	set_digest(md5_20121015185);
	shared_word = seq_word_empty;
	Backend a(true);
	Backend b(true);

	a.next(CounterMode::sequential, shared_env(t0, &s1, 1), u);
	CHECK_UUID(u, "01b85440-0001-bd53-7a50-013a65ca76d2");
	b.next(CounterMode::sequential, shared_env(t0, &s2, 2), u);
	CHECK_UUID(u, "01b85441-0002-bd53-7a50-013a65ca76d2");
	a.next(CounterMode::sequential, shared_env(t0 + 1, &s1, 1), u);
	CHECK_UUID(u, "01b85442-0001-bd53-7a50-013a65ca76d3");

	/* A backend whose clock is a bucket behind continues the run (no re-seed backwards). */
	b.next(CounterMode::sequential, shared_env(t0 - 600000, &s2, 2), u);
	CHECK_UUID(u, "01b85443-0002-bd53-7a50-013a65ca76d2");

	/* The next bucket re-seeds once, for everyone. */
	const uint8_t other[digest_len] = {0x10, 0, 0, 0};

	set_digest(other);
	a.next(CounterMode::sequential, shared_env(t0 + 600000, &s1, 1), u);
	decode_b(u, &f, CounterMode::sequential);
	CHECK_EQ(f.counter, 0x11u);
	b.next(CounterMode::sequential, shared_env(t0 + 600000, &s2, 2), u);
	decode_b(u, &f, CounterMode::sequential);
	CHECK_EQ(f.counter, 0x12u);

	/* b's clock is still held at t0 and stepped back: a new run in a held millisecond moves on. */
	Backend h(true);
	SlotMarks	s3 = {0, 0};

	set_digest(md5_20121015185);
	shared_word = seq_word_empty;
	h.next(CounterMode::sequential, shared_env(t0, &s3), u);
	set_digest(other);
	shared_word = (static_cast<uint64_t>(bucket_of(t0) + 2) << 32) | 7;	/* another backend ran ahead */
	h.next(CounterMode::sequential, shared_env(t0 - 5, &s3), u);
	decode_b(u, &f, CounterMode::sequential);
	CHECK_EQ(f.time_ms, static_cast<uint64_t>(t0 + 1));
	CHECK_EQ(f.counter, 0x10u + 1 + 8);
}

void
test_slot_marks_and_clock()
{
	uint8_t		u[uuid_len];
	LocalityFields f;
	const int64_t t0 = 1350327498450LL;
	SlotMarks	slot = {0, 0};

	/* Backends of one slot in turn: each starts after the last millisecond of the one before. */
	set_digest(md5_20121015185);
	shared_word = seq_word_empty;
	const int64_t steps[] = {0, 1, 1000, 3600000, 86400000};
	uint64_t	last = 0;
	bool		after = true;

	for (int64_t step : steps)
	{
		Backend g(true);

		for (int i = 0; i < 3; i++)
		{
			g.next(i == 1 ? CounterMode::sequential : CounterMode::variable, shared_env(t0 - step, &slot), u);
			decode_b(u, &f);
			after = after && (last == 0 || (i == 0 ? f.time_ms > last : f.time_ms >= last));
			last = f.time_ms;
		}
	}
	CHECK(after);
	CHECK_EQ(slot.next_ms, last + 1);

	/* A clock before 1970 or past the format is refused, and leaves the backend healthy. */
	Backend c;

	CHECK(c.next(CounterMode::variable, env_at(-1), u) == Status::time_out_of_range);
	CHECK(c.next(CounterMode::sequential, env_at(-86400000LL), u) == Status::time_out_of_range);
	CHECK(c.next(CounterMode::variable, env_at(static_cast<int64_t>(time_ms_max) + 1), u) == Status::time_out_of_range);
	CHECK(c.next(CounterMode::variable, env_at(INT64_MAX), u) == Status::time_out_of_range);
	/* Year 9999 .. 10889: variable mode only (sequential needs a 4-digit year for its seed). */
	CHECK(c.next(CounterMode::variable, env_at(253402300800000LL), u) == Status::ok);
	CHECK(c.next(CounterMode::sequential, env_at(253402300800000LL), u) == Status::time_out_of_range);
	Backend d;

	CHECK(d.next(CounterMode::variable, env_at(-5), u) == Status::time_out_of_range);
	CHECK(d.next(CounterMode::variable, env_at(t0), u) == Status::ok);
	decode_b(u, &f);
	CHECK_EQ(f.time_ms, static_cast<uint64_t>(t0));
}

uint8_t		frozen_ids[200000][uuid_len];

void
test_frozen_mixed_modes()
{
	const int64_t t0 = 1350327498450LL;
	const int	n = 200000;
	Backend g;

	/*
	 * A frozen clock, both modes in one millisecond, with a variable start chosen so that
	 * reversed variable digits walk straight into the sequential arc: nothing repeats.
	 */
	set_digest(md5_20121015185);
	shared_word = seq_word_empty;
	uint32_t	start = reverse_nibbles(0x01B85440u + 50) - variable_step;

	put_be(fake_random, start, 4);
	for (int i = 0; i < n; i++)
		g.next(i % 3 == 0 ? CounterMode::variable : CounterMode::sequential,
			   env_at(t0), frozen_ids[i]);
	CHECK_EQ(check::duplicate_ids(frozen_ids, n), 0);
	std::memset(fake_random, 0, sizeof(fake_random));
}

}							// namespace

int
main()
{
	test_fields();
	test_civil_days();
	test_vectors();
	test_encode_limits();
	test_buckets();
	test_variable_generator();
	test_sequential_generator();
	test_seed_rule_named();
	test_seq_advance();
	test_seq_continue();
	test_continued_run();
	test_shared_run();
	test_slot_marks_and_clock();
	test_frozen_mixed_modes();
	return check::finish("locality_b");
}
