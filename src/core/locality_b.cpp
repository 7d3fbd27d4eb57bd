// Locality UUID version "b": encoding, decoding, counters and sequential seeding.
#include "locality_b.hpp"

namespace locality_uuid
{

uint32_t
reverse_nibbles(uint32_t v) noexcept
{
	uint32_t r = 0;

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

	uint32_t first = mode == CounterMode::variable ? reverse_nibbles(f.counter) : f.counter;

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

	uint32_t first = static_cast<uint32_t>(get_be(in, 4));

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
	int64_t minutes = bucket * 10;
	int64_t days = floor_div(minutes, 24 * 60);
	int64_t minute_of_day = minutes - days * 24 * 60;
	int64_t year;
	int     month;
	int     day;

	civil_from_days(days, &year, &month, &day);
	if (year < 0 || year > 9999)
		return false;

	char *p = out;

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

bool
LocalityGenerator::variable_used(uint64_t ms, uint32_t value) const noexcept
{
	if (!var_seeded_ || ms != var_ms_ || var_in_ms_ == 0)
		return false;
	/* value = first + k * step for the k that this multiplication finds. */
	return static_cast<uint32_t>(value - var_first_) * variable_step_inverse < var_in_ms_;
}

bool
LocalityGenerator::sequential_used(uint64_t ms, uint32_t value) const noexcept
{
	if (!seq_used_ || ms != seq_ms_)
		return false;
	return static_cast<uint32_t>(value - seq_first_) <= static_cast<uint32_t>(seq_last_ - seq_first_);
}

/* Variable values skipped in a row before the id moves on to the next millisecond. */
static constexpr int variable_skips_max = 64;

Status
LocalityGenerator::start_ms(const Environment &env, uint64_t *ms) const noexcept
{
	if (env.node > node_max)
		return Status::node_out_of_range;
	if (env.wall_ms < 0 || static_cast<uint64_t>(env.wall_ms) > time_ms_max)
		return Status::time_out_of_range;

	const SlotMarks *slot = env.slot != nullptr ? env.slot : &own_slot_;
	uint64_t         floor = started_ ? last_ms_ : slot->next_ms;

	*ms = static_cast<uint64_t>(env.wall_ms) > floor ? static_cast<uint64_t>(env.wall_ms) : floor;
	if (*ms > time_ms_max)
		return Status::time_out_of_range;
	return Status::ok;
}

Status
LocalityGenerator::finish(CounterMode mode, const Environment &env, uint64_t ms, uint32_t counter,
						  uint8_t out[uuid_len]) noexcept
{
	SlotMarks *slot = env.slot != nullptr ? env.slot : &own_slot_;

	started_ = true;
	last_ms_ = ms;
	slot->next_ms = ms + 1;

	LocalityFields f{counter, env.process, env.node, ms};

	return encode_b(f, mode, out);
}

Status
LocalityGenerator::next_variable(const Environment &env, RandomFunction random, uint8_t out[uuid_len]) noexcept
{
	uint64_t ms;
	Status   st = start_ms(env, &ms);

	if (st != Status::ok)
		return st;
	if (!var_seeded_)
	{
		uint8_t start[4];

		if (!random(start, sizeof(start)))
			return Status::random_failed;
		var_value_ = static_cast<uint32_t>(get_be(start, 4));
		var_seeded_ = true;
		var_ms_ = ms;
		var_first_ = var_value_ + variable_step;
		var_in_ms_ = 0;
	}
	for (int skips = 0;; skips++)
	{
		if (ms != var_ms_ || var_in_ms_ > UINT32_MAX || skips == variable_skips_max)
		{
			/* Past every value of this millisecond (or a crowded one): start the next. */
			if (ms == var_ms_)
				ms += 1;
			if (ms > time_ms_max)
				return Status::time_out_of_range;
			var_ms_ = ms;
			var_first_ = var_value_ + variable_step;
			var_in_ms_ = 0;
			skips = 0;
		}
		var_value_ += variable_step;
		var_in_ms_++;
		if (!sequential_used(ms, reverse_nibbles(var_value_)))
			break;
	}
	return finish(CounterMode::variable, env, ms, var_value_, out);
}

Status
LocalityGenerator::sequential_start(const Environment &env, Md5Function md5, SeqPlace *place) noexcept
{
	Status st = start_ms(env, &place->ms);

	if (st != Status::ok)
		return st;

	/* The last seed's bucket while the millisecond is in it: no division on every call. */
	int64_t into = static_cast<int64_t>(place->ms) - seed_bucket_ * bucket_ms;

	place->bucket = seed_bucket_ >= 0 && into >= 0 && into < bucket_ms
		? seed_bucket_
		: bucket_of(static_cast<int64_t>(place->ms));
	return seed(place->bucket, md5, &place->seed);
}

uint64_t
seq_start(const SeqPlace &place) noexcept
{
	return static_cast<uint32_t>(place.seed + 1);
}

// Give the seed of a bucket's run: the first four bytes, little-endian, of the MD5 of the
// bucket's text. The last bucket's is kept, so MD5 runs once per bucket.
Status
LocalityGenerator::seed(int64_t bucket, Md5Function md5, uint32_t *seed) noexcept
{
	if (bucket != seed_bucket_)
	{
		char    text[bucket_text_len];
		uint8_t digest[digest_len];

		if (!bucket_text(bucket, text))
			return Status::time_out_of_range;
		if (!md5(text, sizeof(text), digest))
			return Status::digest_failed;
		seed_ = seed_from_digest(digest);
		seed_bucket_ = bucket;
	}
	*seed = seed_;
	return Status::ok;
}

Status
LocalityGenerator::next_sequential(const Environment &env, const SeqPlace &place, const SeqTake &take,
								   Md5Function md5, uint8_t out[uuid_len]) noexcept
{
	uint64_t ms = place.ms;
	uint32_t c;
	int64_t  run;

	if (take.continued)
	{
		/* The continued run's counter is its position; its runs are told apart from buckets. */
		c = static_cast<uint32_t>(take.position);
		run = -2 - static_cast<int64_t>(take.position >> 32);
	}
	else
	{
		uint32_t run_seed = place.seed;

		/* A clock behind the run's bucket continues that run, with that run's seed. */
		if (take.run_bucket != place.bucket)
		{
			Status st = seed(take.run_bucket, md5, &run_seed);

			if (st != Status::ok)
				return st;
		}
		c = run_seed + 1 + take.index;
		run = take.run_bucket;
	}

	/*
	 * A new run while the millisecond is held (its counters may meet the old run's), or a
	 * counter whose digits are a variable counter of this millisecond: the next millisecond.
	 */
	if ((seq_used_ && run != seq_run_ && ms == seq_ms_) ||
		(var_seeded_ && ms == var_ms_ && variable_used(ms, reverse_nibbles(c))))
	{
		ms += 1;
		if (ms > time_ms_max)
			return Status::time_out_of_range;
	}
	if (!seq_used_ || ms != seq_ms_)
		seq_first_ = c;
	seq_used_ = true;
	seq_ms_ = ms;
	seq_run_ = run;
	seq_last_ = c;
	return finish(CounterMode::sequential, env, ms, c, out);
}

Status
next_alone(LocalityGenerator &g, CounterMode mode, const Environment &env, RandomFunction random,
		   Md5Function md5, uint64_t *run_word, uint8_t out[uuid_len], SeedRule rule) noexcept
{
	if (mode == CounterMode::variable)
		return g.next_variable(env, random, out);

	SeqPlace place;
	SeqTake  take;
	uint64_t next;
	Status   st = g.sequential_start(env, md5, &place);

	if (st == Status::ok)
		st = seq_status(rule == SeedRule::continued
							? seq_continue(*run_word, seq_start(place), 0, &next, &take)
							: seq_advance(*run_word, place.bucket, &next, &take));
	if (st != Status::ok)
		return st;
	*run_word = next;
	return g.next_sequential(env, place, take, md5, out);
}

} // namespace locality_uuid
