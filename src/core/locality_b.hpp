// Locality UUID version "b": bit layout, counters, the sequential seeding rule and the millisecond hold.
#pragma once

#include "fields.hpp"
#include "state.hpp"

namespace locality_uuid
{

/*
 * Layout, in PostgreSQL's byte order (the order of the hex digits):
 *
 *   bytes 0..3    32-bit counter: nibble-reversed (variable mode) or big-endian (sequential)
 *   bytes 4..5    16-bit process field, big-endian
 *   byte  6       high nibble: version digit 'b'; low nibble: node bits 27..24
 *   bytes 7..9    node bits 23..0 (by default the low 28 bits of the MAC)
 *   bytes 10..15  Unix time in milliseconds, low 48 bits, big-endian
 *
 * No RFC 4122 variant bits: byte 8 carries node data.
 */
constexpr unsigned version_b = 0xB;
constexpr uint32_t variable_step = 198491317;

// Return the inverse of an odd number mod 2^32 (Newton's iteration doubles the correct bits).
constexpr uint32_t
inverse_mod_2_32(uint32_t a) noexcept
{
	uint32_t x = a; /* correct to 3 bits for any odd a */

	for (int i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

constexpr uint32_t variable_step_inverse = inverse_mod_2_32(variable_step);
static_assert(variable_step * variable_step_inverse == 1, "step must be odd");
constexpr uint32_t    node_max = (UINT32_C(1) << 28) - 1;
constexpr uint64_t    time_ms_max = (UINT64_C(1) << 48) - 1;
constexpr int64_t     bucket_ms = 10 * 60 * 1000;
constexpr std::size_t bucket_text_len = 11;

enum class CounterMode
{
	variable,
	sequential
};

// The fields of one id. counter is the counter value itself, before any nibble reversal.
struct LocalityFields
{
	uint32_t counter;
	uint16_t process;
	uint32_t node;
	uint64_t time_ms;
};

// What the glue reads for one generated id: the wall clock, the identity fields, and the marks
// of the backend's slot in the cluster's shared state (null: the generator keeps its own).
struct Environment
{
	int64_t    wall_ms; /* Unix ms; before 1970 or past the format is refused */
	uint16_t   process;
	uint32_t   node;
	SlotMarks *slot;
};

// Where the next sequential id falls: its millisecond (before any move to the next one),
// that millisecond's bucket, whose run it takes a position in, and the bucket's seed.
struct SeqPlace
{
	uint64_t ms;
	int64_t  bucket;
	uint32_t seed;
};

// Fills buf with strong random bytes; false on failure. The glue passes PostgreSQL's.
using RandomFunction = bool (*)(uint8_t *buf, std::size_t len);

// Reverse the order of the eight hex digits of v.
uint32_t reverse_nibbles(uint32_t v) noexcept;

// Write the 16 bytes of a version-b id.
Status encode_b(const LocalityFields &f, CounterMode mode, uint8_t out[uuid_len]) noexcept;

// Read a version-b id; the counter is the variable-mode reading unless mode says otherwise.
bool decode_b(const uint8_t in[uuid_len], LocalityFields *f,
			  CounterMode mode = CounterMode::variable) noexcept;

// Return the 28-bit node of a MAC: octet 2 low nibble, octets 3, 4 and 5.
uint32_t node_from_mac(const uint8_t mac[6]) noexcept;

// Return the 10-minute UTC bucket that a Unix time in milliseconds falls in.
int64_t bucket_of(int64_t unix_ms) noexcept;

// Format a bucket as yyyyMMddHHm (the first 11 characters of yyyyMMddHHmm); false past year 9999.
bool bucket_text(int64_t bucket, char out[bucket_text_len]) noexcept;

// Read the first four digest bytes as a little-endian number.
uint32_t seed_from_digest(const uint8_t digest[digest_len]) noexcept;

/*
 * The generator of one backend, and the rules that keep its ids unique. The sequential run
 * and the marks of the backend's slot are the cluster's when the glue shares them (the
 * word it takes positions from, env.slot); without shared state they are the backend's own,
 * and the rules below hold for one backend only.
 *
 * Time: an id's millisecond is the wall clock, but never earlier than the last one this
 * backend used (a clock that steps back is held there until it catches up), and a backend's
 * first id comes after every id of the earlier backends of its slot (SlotMarks::next_ms).
 * A clock before 1970 or past the format is refused without touching the state, so the
 * backend is healthy again once the clock is back.
 *
 * Variable mode: the counter has period 2^32 (the step is odd), so 2^32 ids in one
 * millisecond are distinct; the 2^32 + 1st moves on to the next millisecond.
 *
 * Sequential mode: the counter is the position in the cluster's run (see seq_advance):
 * unique within a run. When the run changes while the millisecond is held, the id moves on
 * to the next millisecond, so two runs never share a millisecond of one backend. The continued
 * run (seq_continue) is one run per 2^32 positions, whose counter is the position mod 2^32:
 * unique within such a run too, and its runs are numbered apart from the bucket rule's
 * buckets (-2 - position / 2^32 against bucket >= 0), so its wrap to counter 0, and a switch
 * between the two rules, move the id to the next millisecond like any other change of run.
 *
 * Both modes in one millisecond: a variable id writes its counter with the hex digits
 * reversed, so it could equal a sequential id of the same millisecond. The backend knows
 * both sets exactly (the variable counters of a millisecond are start + k * step for
 * k < count; the sequential ones lie in one arc first .. last), so a variable value whose
 * digits fall in the sequential arc is skipped, and a sequential id whose digits are a
 * variable counter of the millisecond moves on to the next millisecond.
 */
class LocalityGenerator
{
  public:
	// Make the next variable-mode id; random gives the counter its start on the first one.
	Status next_variable(const Environment &env, RandomFunction random, uint8_t out[uuid_len]) noexcept;

	/*
	 * A sequential id in two steps, so that its position in the run is taken between them by
	 * whoever holds the run word (seq_advance: atomically on the cluster's word in the glue).
	 * sequential_start says where the id falls, and digests its bucket's seed first, so that
	 * a failing digest takes no position; next_sequential writes the id at the position taken
	 * in place.bucket, with the seed of the run's bucket.
	 */
	Status sequential_start(const Environment &env, Md5Function md5, SeqPlace *place) noexcept;
	Status next_sequential(const Environment &env, const SeqPlace &place, const SeqTake &take,
						   Md5Function md5, uint8_t out[uuid_len]) noexcept;

  private:
	Status start_ms(const Environment &env, uint64_t *ms) const noexcept;
	Status finish(CounterMode mode, const Environment &env, uint64_t ms, uint32_t counter,
				  uint8_t out[uuid_len]) noexcept;
	Status seed(int64_t bucket, Md5Function md5, uint32_t *seed) noexcept;
	bool   variable_used(uint64_t ms, uint32_t value) const noexcept;
	bool   sequential_used(uint64_t ms, uint32_t value) const noexcept;

	bool      started_ = false;
	uint64_t  last_ms_ = 0;
	uint32_t  var_value_ = 0;
	bool      var_seeded_ = false;
	uint64_t  var_ms_ = 0;
	uint64_t  var_in_ms_ = 0;
	uint32_t  var_first_ = 0;
	bool      seq_used_ = false;
	uint64_t  seq_ms_ = 0;
	int64_t   seq_run_ = -1;
	uint32_t  seq_first_ = 0;
	uint32_t  seq_last_ = 0;
	int64_t   seed_bucket_ = -1;
	uint32_t  seed_ = 0;
	SlotMarks own_slot_ = {0, 0};
};

// Return the continued run's first position for an id at place: the bucket rule's first
// counter of place's bucket, seed + 1.
uint64_t seq_start(const SeqPlace &place) noexcept;

// Make the next id of a generator whose sequential run word the caller holds alone (the
// command-line tool, the tests): the steps the module takes on the cluster's word.
Status next_alone(LocalityGenerator &g, CounterMode mode, const Environment &env, RandomFunction random,
				  Md5Function md5, uint64_t *run_word, uint8_t out[uuid_len],
				  SeedRule rule = SeedRule::bucket) noexcept;

} // namespace locality_uuid
