// Generator state shared by the backends of a cluster: the sequential run rule.
#include "state.hpp"

#include <cstring>

namespace locality_uuid
{

SeqStatus
seq_advance(uint64_t word, int64_t bucket, uint64_t *next, SeqTake *take) noexcept
{
	if (bucket < 0 || bucket > seq_bucket_max)
		return SeqStatus::bad_bucket;

	uint64_t run_plus_1 = word >> 32;
	uint32_t index = static_cast<uint32_t>(word);

	if (run_plus_1 == 0 || static_cast<uint64_t>(bucket) + 1 > run_plus_1)
	{
		/* A later bucket: start its run at index 0. */
		run_plus_1 = static_cast<uint64_t>(bucket) + 1;
		index = 0;
	}
	else if (index == UINT32_MAX)
		return SeqStatus::exhausted;
	else
		index++;
	*next = (run_plus_1 << 32) | index;
	take->run_bucket = static_cast<int64_t>(run_plus_1 - 1);
	take->index = index;
	return SeqStatus::ok;
}

SeqStatus
seq_continue(uint64_t word, uint64_t start, uint64_t floor, uint64_t *next, SeqTake *take) noexcept
{
	uint64_t p = word != seq_word_empty ? word : start;

	if (p < floor)
		p = floor;
	if (p > seq_position_max)
		return SeqStatus::exhausted;
	*next = p + 1;
	take->run_bucket = -1;
	take->index = static_cast<uint32_t>(p);
	take->continued = true;
	take->position = p;
	return SeqStatus::ok;
}

bool
seed_rule_named(const char *text, SeedRule *rule) noexcept
{
	for (const SeedRuleName &r : seed_rule_names)
		if (std::strcmp(text, r.name) == 0)
		{
			*rule = r.rule;
			return true;
		}
	return false;
}

} // namespace locality_uuid
