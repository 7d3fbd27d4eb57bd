// Making ids from the clock, the identity and random bytes: one function per kind of id, and the loop.
#include "run.hpp"

#include "core/v7.hpp"
#include "facade_key.hpp"
#include "identity.hpp"
#include "input.hpp"
#include "md5.hpp"
#include "rfc.hpp"

#include <unistd.h>

namespace locality_uuid
{

namespace
{

/* The state of one run: every generator the tool has, and what they share. */
struct Run
{
	const Options    &o;
	Identity          ident = {};
	TimeBlockLayout   layout = {};
	LocalityGenerator locality;
	uint64_t          run_word = seq_word_empty; /* the tool holds its sequential run alone */
	HotGenerator      hot;
	HotEnvironment    hot_env = {};
	V7Clock           v7_clock;
	uint64_t          v7_previous = 0;
	Allocator         allocations; /* the allocation numbers of explicit-time ids */
	TimeUuids         time_uuids;

	Run(const Options &options, Kind kind)
		: o(options), allocations(kind == Kind::hot ? hot_allocation_bits : v7_allocation_bits) {}
};

// Return how many shard-key ids a run may make at an explicit time: one per 39-bit allocation number.
constexpr uint64_t
hot_explicit_limit()
{
	return hot_allocation_limit;
}

// Return how many version 7 ids a run may make at an explicit time: one per 41-bit allocation number.
constexpr uint64_t
v7_explicit_limit()
{
	return v7_allocation_limit;
}

/*
 * Hand the run its allocation numbers: explicit-time ids take them from a random start, as the
 * tool has no sequence to draw them from, and never reduce them. The start is drawn so that all
 * o.count numbers fit below the format's limit (which -n is checked against up front): ids of
 * one run never repeat each other, and two runs repeat only if their numbers overlap.
 */
bool
take_allocations(Run &run)
{
	uint8_t r[8];

	if (!random_or_complain(r, sizeof(r)))
		return false;
	run.allocations.add(get_be(r, 8) % (run.allocations.limit() - run.o.count + 1), run.o.count);
	return true;
}

// Check an explicit-time request before any id is made; false with *error if it cannot be done.
bool
check_explicit(const Options &o, Kind kind, std::string *error)
{
	uint64_t limit = kind == Kind::hot ? hot_explicit_limit() : v7_explicit_limit();

	if (!at_in_range(o, kind, error))
		return false;
	if (o.count <= limit)
		return true;
	*error = "-n: a run makes at most " + std::to_string(limit) + (kind == Kind::hot ? " shard-key ids at an explicit time (39-bit allocation numbers)" : " version 7 ids at an explicit time (41-bit allocation numbers)");
	return false;
}

// Say that a run has used up its allocation numbers (the up-front check of -n should prevent it).
void
complain_used_up(Kind kind)
{
	complain(kind == Kind::hot ? "made the shard-key ids of the last allocation numbers that an explicit time can carry" : "made the version 7 ids of the last allocation numbers that an explicit time can carry");
}

// Make a shard-key id at the explicit second of --at.
bool
make_hot_at(Run &run, uint8_t *id)
{
	int64_t          second = floor_div(run.o.at_us, usecs_per_sec);
	AllocationStatus st = run.hot.next_at(run.o.shard, second, run.hot_env, &run.allocations, id);

	if (st == AllocationStatus::needs_allocations)
	{
		if (!take_allocations(run))
			return false;
		st = run.hot.next_at(run.o.shard, second, run.hot_env, &run.allocations, id);
	}
	if (st != AllocationStatus::ok)
	{
		complain_used_up(Kind::hot);
		return false;
	}
	return true;
}

// Make a version 7 id at the explicit millisecond of --at.
bool
make_v7_at(Run &run, const uint8_t random[8], uint8_t *id)
{
	int64_t          ms = floor_div(run.o.at_us, 1000);
	uint64_t         allocation = 0;
	AllocationStatus st = run.allocations.next(&allocation);

	if (st == AllocationStatus::needs_allocations)
	{
		if (!take_allocations(run))
			return false;
		st = run.allocations.next(&allocation);
	}
	if (st != AllocationStatus::ok || !encode_v7_explicit(ms, allocation, random, id))
	{
		complain_used_up(Kind::v7);
		return false;
	}
	return true;
}

// Make a locality uuid at the clock reading.
bool
make_locality(Run &run, int64_t sec, int64_t ns, uint8_t *id)
{
	Environment env{sec * 1000 + ns / 1000000, run.ident.process, run.ident.node, nullptr};
	Status      st = next_alone(run.locality, run.o.mode, env, core_random, md5_digest, &run.run_word, id,
								run.o.seed_rule);

	complain_status(st);
	return st == Status::ok;
}

// Make a shard-key id on the clock, or at --at.
bool
make_hot(Run &run, int64_t sec, int64_t ns, uint8_t *id)
{
	run.hot_env.wall_tick = hot_tick_at(sec, ns);
	if (run.o.at_set)
		return make_hot_at(run, id);
	run.hot.next(run.o.shard, run.hot_env, id);
	return true;
}

// Make a block-wrapped id of the current time block.
bool
make_time_block(Run &run, int64_t sec, int64_t ns, uint8_t *id)
{
	uint8_t random[uuid_len];

	if (!random_or_complain(random, uuid_len - static_cast<std::size_t>(run.layout.prefix_bits / 8)))
		return false;
	encode_prefix(time_block_prefix(sec * usecs_per_sec + ns / 1000, run.layout), run.layout.prefix_bits, random, id);
	return true;
}

// Make a version 7 id: as uuidv7(), uuidv7_ordered() or uuidv7_ordered(at).
bool
make_v7(Run &run, int64_t sec, int64_t ns, uint8_t *id)
{
	V7Time  now{sec * 1000 + ns / 1000000, static_cast<int32_t>(ns % 1000000)};
	uint8_t random[8];

	if (!random_or_complain(random, sizeof(random)))
		return false;
	if (run.o.at_set)
		return make_v7_at(run, random, id);
	if (run.o.ordered)
	{
		uint64_t word = v7_word_after(run.v7_previous, v7_word(now));

		if (v7_word_ms(word) > v7_ms_max)
		{
			complain("the ordered version 7 ids ran past the last millisecond they can carry");
			return false;
		}
		run.v7_previous = word;
		encode_v7_ordered(word, random, id);
		return true;
	}

	V7Time t = run.v7_clock.next(now);

	encode_v7(t.ms, v7_subms(t.ns), random, id);
	return true;
}

// Make a version 4 (random) id.
bool
make_v4(Run &, int64_t, int64_t, uint8_t *id)
{
	uint8_t random[uuid_len];

	if (!random_or_complain(random, uuid_len))
		return false;
	encode_v4(random, id);
	return true;
}

// Make a version 1 or 6 id at the clock reading.
template<int Version>
bool
make_time(Run &run, int64_t sec, int64_t ns, uint8_t *id)
{
	if (run.time_uuids.next(Version, sec, ns, id))
		return true;
	complain("the clock is past 5236-03-31, the last time a version 1 or 6 uuid can carry");
	return false;
}

using MakeFunction = bool (*)(Run &run, int64_t sec, int64_t ns, uint8_t *id);

// Return the function that makes ids of kind (nullptr for those made from names).
MakeFunction
maker_of(Kind kind)
{
	switch (kind)
	{
		case Kind::locality:
			return make_locality;
		case Kind::hot:
			return make_hot;
		case Kind::time_block:
			return make_time_block;
		case Kind::v7:
			return make_v7;
		case Kind::v4:
			return make_v4;
		case Kind::v1:
			return make_time<1>;
		case Kind::v6:
			return make_time<6>;
		case Kind::v3:
		case Kind::v5:
			break;
	}
	return nullptr;
}

// Prepare a run: identity, layout, the random start of versions 1 and 6; an exit code if it cannot start.
int
start_run(Run &run, Kind kind)
{
	std::string error;
	uint8_t     random[8];

	if (kind == Kind::time_block && time_block_layout(run.o.length_us, run.o.block_count, &run.layout) != BlockStatus::ok)
		error = "--time-block: the length must be 1 ms to 2147483647 s";
	if (error.empty() && run.o.at_set)
		check_explicit(run.o, kind, &error);
	if (!error.empty())
	{
		complain(error);
		return exit_usage;
	}
	if (!identity_of(run.o, &run.ident))
		return exit_failure;
	run.hot_env = HotEnvironment{0, {run.ident.machine[0], run.ident.machine[1], run.ident.machine[2]}, run.ident.process, nullptr};
	if ((kind == Kind::v1 || kind == Kind::v6) && !random_or_complain(random, sizeof(random)))
		return exit_failure;
	run.time_uuids.start(random);
	return exit_ok;
}

} // namespace

int
run_generate(const Options &o, Kind kind)
{
	Run          run(o, kind);
	MakeFunction make = maker_of(kind);
	int          code = start_run(run, kind);
	Output       out(STDOUT_FILENO, o.line_buffered);
	uint8_t      id[uuid_len];
	int64_t      sec;
	int64_t      ns;

	if (code != exit_ok)
		return code;
	for (uint64_t i = 0; i < o.count; i++)
	{
		if (!clock_now(&sec, &ns) || !make(run, sec, ns, id))
			return exit_failure;
		facade_of_made(o.facade, id);
		out.put_uuid(id);
		out.end_line();
		if (!out.ok())
			return output_failed(out);
	}
	return finish(out, exit_ok);
}

// Make the version 3 id of one line of names in the namespace of o.
static bool
v3_of_line(const Options &o, const char *line, std::size_t len, uint8_t id[uuid_len], std::string *)
{
	name_based(3, o.name_space, line, len, id);
	return true;
}

// Make the version 5 id of one line of names in the namespace of o.
static bool
v5_of_line(const Options &o, const char *line, std::size_t len, uint8_t id[uuid_len], std::string *)
{
	name_based(5, o.name_space, line, len, id);
	return true;
}

int
run_names(const Options &o, Kind kind)
{
	Output  out(STDOUT_FILENO, o.line_buffered);
	uint8_t id[uuid_len];

	if (o.name != "-")
	{
		name_based(kind == Kind::v3 ? 3 : 5, o.name_space, o.name.data(), o.name.size(), id);
		out.put_uuid(id);
		out.end_line();
		return finish(out, exit_ok);
	}
	return ids_of_lines(o, true, kind == Kind::v3 ? v3_of_line : v5_of_line, out);
}

} // namespace locality_uuid
