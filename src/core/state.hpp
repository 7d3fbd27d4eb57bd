// Generator state shared by the backends of a cluster: the sequential run word and per-slot high-water marks.
#pragma once

#include "fields.hpp"

namespace locality_uuid
{

/*
 * High-water marks of one backend slot. Only the backend that holds the slot writes them,
 * and a backend that takes the slot later reads them first, so every id it makes comes after
 * every id of its predecessors in the slot, whatever the wall clock did in between. Zero means
 * "no id yet". The glue keeps one per slot in shared memory; without it, each generator keeps
 * its own.
 */
struct SlotMarks
{
	uint64_t next_ms;   /* smallest millisecond a locality id of this slot may use */
	int64_t  next_tick; /* smallest 2^-23 s tick a hot_uuid of this slot may use */
};

/*
 * The cluster's sequential run, one 64-bit word: bits 63..32 the run's bucket + 1 (0: no run
 * yet), bits 31..0 the index of the run's last id. The id with index i carries the counter
 * seed(bucket) + 1 + i. A run starts (index 0, counter seed + 1) when an id is wanted in a
 * later bucket than the run's; an id wanted in an earlier bucket (a clock behind another
 * backend's) continues the current run. So each bucket has at most one run, and within a run
 * no counter repeats: after 2^32 ids the run is exhausted.
 */
constexpr uint64_t seq_word_empty = 0;
constexpr int64_t  seq_bucket_max = (INT64_C(1) << 32) - 2;

/*
 * The continued run (locality_uuid.sequential_seed = continue), one 64-bit word: the position
 * of the next id, 0 when no id was taken yet. The id at position p carries the counter
 * p mod 2^32, so each id is the last one + 1 whatever its bucket: the first run starts as the
 * bucket rule's would (position seed(bucket) + 1), and every later bucket goes on from
 * there, at the right edge of the keys already made. Positions only grow, and a floor (the
 * lease of a restart) only raises them. The run of position p is p / 2^32: at 2^32 the counter
 * wraps to 0 and a new run begins, whose ids a backend never puts in a millisecond of the old
 * run's (LocalityGenerator). Positions stop at seq_position_max, so a lease past the last one
 * still fits a bigint sequence.
 */
constexpr uint64_t seq_position_max = (UINT64_C(1) << 62) - 1;

// The sequential seed rule: one continued run, or a run per bucket from the bucket's seed.
enum class SeedRule
{
	continued,
	bucket
};

// The seed rules by name, as the setting locality_uuid.sequential_seed and the tool's
// --sequential-seed spell them; the default first. The setting's options are made of this table
// (PostgreSQL's enum lookup reads them, ignoring case); the tool reads them by seed_rule_named.
struct SeedRuleName
{
	const char *name;
	SeedRule    rule;
};
constexpr SeedRuleName seed_rule_names[] = {{"continue", SeedRule::continued}, {"bucket", SeedRule::bucket}};

// Read a seed rule by its name, exactly as seed_rule_names spells it; false if text names none.
bool seed_rule_named(const char *text, SeedRule *rule) noexcept;

// The position of one sequential id: the run's bucket and the id's index in the run (bucket
// rule), or its position in the continued run.
struct SeqTake
{
	int64_t  run_bucket;
	uint32_t index;
	bool     continued = false;
	uint64_t position = 0;
};

enum class SeqStatus
{
	ok,
	exhausted, /* 2^32 ids in the run */
	bad_bucket /* bucket outside 0 .. seq_bucket_max */
};

// Return the Status of a take that failed: the run is exhausted, or the clock is outside every run.
constexpr Status
seq_status(SeqStatus st) noexcept
{
	return st == SeqStatus::ok       ? Status::ok
		: st == SeqStatus::exhausted ? Status::sequence_exhausted
									 : Status::time_out_of_range;
}

// Compute the word after one more sequential id wanted at bucket, and that id's position.
SeqStatus seq_advance(uint64_t word, int64_t bucket, uint64_t *next, SeqTake *take) noexcept;

// Compute the continued run's word after one more id, and that id's position: the word's, or
// start when it is empty, raised to floor.
SeqStatus seq_continue(uint64_t word, uint64_t start, uint64_t floor, uint64_t *next, SeqTake *take) noexcept;

} // namespace locality_uuid
