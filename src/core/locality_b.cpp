// Locality UUID version "b": encoding, decoding, counters and sequential seeding.
#include "locality_b.hpp"

namespace locality_uuid
{

uint32_t
reverse_nibbles(uint32_t v) noexcept
{
	uint32_t	r = 0;

	for (int i = 0; i < 8; i++)
	{
		r = (r << 4) | (v & 0xF);
		v >>= 4;
	}
	return r;
}

Status
encode_b(const LocalityFields &f, CounterMode mode, uint8_t out[uuid_len]) noexcept
{
	if (f.node > node_max)
		return Status::node_out_of_range;
	if (f.time_ms > time_ms_max)
		return Status::time_out_of_range;

	uint32_t	first = mode == CounterMode::variable ? reverse_nibbles(f.counter) : f.counter;

	put_be(out, first, 4);
	put_be(out + 4, f.process, 2);
	put_be(out + 6, (uint32_t{version_b} << 28) | f.node, 4);
	put_be(out + 10, f.time_ms, 6);
	return Status::ok;
}

bool
decode_b(const uint8_t in[uuid_len], LocalityFields *f, CounterMode mode) noexcept
{
	if (version_nibble(in) != version_b)
		return false;

	uint32_t	first = static_cast<uint32_t>(get_be(in, 4));

	f->counter = mode == CounterMode::variable ? reverse_nibbles(first) : first;
	f->process = static_cast<uint16_t>(get_be(in + 4, 2));
	f->node = static_cast<uint32_t>(get_be(in + 6, 4)) & node_max;
	f->time_ms = get_be(in + 10, 6);
	return true;
}

uint32_t
node_from_mac(const uint8_t mac[6]) noexcept
{
	return static_cast<uint32_t>(get_be(mac + 2, 4)) & node_max;
}

int64_t
bucket_of(int64_t unix_ms) noexcept
{
	/* Unix time has no leap seconds, so UTC 10-minute buckets are plain multiples. */
	return floor_div(unix_ms, bucket_ms);
}

// Convert days since 1970-01-01 to a proleptic Gregorian date.
static void
civil_from_days(int64_t days, int64_t *year, int *month, int *day) noexcept
{
	/* Count from 0000-03-01 in 400-year eras so that leap days end each year. */
	int64_t		z = days + 719468;
	int64_t		era = floor_div(z, 146097);
	int64_t		doe = z - era * 146097;
	int64_t		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t		mp = (5 * doy + 2) / 153;

	*day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
	*month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
	*year = yoe + era * 400 + (*month <= 2 ? 1 : 0);
}

// Write v as exactly width decimal digits.
static char *
put_digits(char *p, int64_t v, int width) noexcept
{
	for (int i = width - 1; i >= 0; i--)
	{
		p[i] = static_cast<char>('0' + v % 10);
		v /= 10;
	}
	return p + width;
}

bool
bucket_text(int64_t bucket, char out[bucket_text_len]) noexcept
{
	int64_t		minutes = bucket * 10;
	int64_t		days = floor_div(minutes, 24 * 60);
	int64_t		minute_of_day = minutes - days * 24 * 60;
	int64_t		year;
	int			month;
	int			day;

	civil_from_days(days, &year, &month, &day);
	if (year < 0 || year > 9999)
		return false;

	char	   *p = out;

	p = put_digits(p, year, 4);
	p = put_digits(p, month, 2);
	p = put_digits(p, day, 2);
	p = put_digits(p, minute_of_day / 60, 2);
	put_digits(p, (minute_of_day % 60) / 10, 1);
	return true;
}

uint32_t
seed_from_digest(const uint8_t digest[digest_len]) noexcept
{
	return static_cast<uint32_t>(get_le(digest, 4));
}

Status
LocalityGenerator::next_variable(const Environment &env, uint32_t *counter) noexcept
{
	if (!var_seeded_)
	{
		uint8_t		start[4];

		if (!env.random_bytes(start, sizeof(start)))
			return Status::random_failed;
		var_value_ = static_cast<uint32_t>(get_be(start, 4));
		var_seeded_ = true;
	}
	var_value_ += variable_step;
	*counter = var_value_;
	return Status::ok;
}

Status
LocalityGenerator::next_sequential(const Environment &env, uint64_t ms, uint32_t *counter) noexcept
{
	int64_t		bucket = bucket_of(static_cast<int64_t>(ms));

	if (!seq_seeded_ || bucket != seq_bucket_)
	{
		char		text[bucket_text_len];
		uint8_t		digest[digest_len];

		if (!bucket_text(bucket, text))
			return Status::time_out_of_range;
		if (!env.md5(text, sizeof(text), digest))
			return Status::digest_failed;
		seq_value_ = seed_from_digest(digest);
		seq_bucket_ = bucket;
		seq_seeded_ = true;
	}
	seq_value_ += 1;
	*counter = seq_value_;
	return Status::ok;
}

Status
LocalityGenerator::next(CounterMode mode, const Environment &env, uint8_t out[uuid_len]) noexcept
{
	if (env.node > node_max)
		return Status::node_out_of_range;

	uint64_t	ms = env.wall_ms > last_ms_ ? env.wall_ms : last_ms_;
	LocalityFields f{0, env.process, env.node, ms & time_ms_max};
	Status		st = mode == CounterMode::variable
		? next_variable(env, &f.counter)
		: next_sequential(env, ms, &f.counter);

	if (st != Status::ok)
		return st;
	last_ms_ = ms;
	return encode_b(f, mode, out);
}

}							// namespace locality_uuid
