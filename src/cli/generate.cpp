// Making ids from the clock, the identity and random bytes: one function per kind of id, and the loop.
#include "run.hpp"

#include "core/v7.hpp"
#include "identity.hpp"
#include "input.hpp"
#include "md5.hpp"
#include "rfc.hpp"

#include <unistd.h>

namespace locality_uuid
{

namespace
{

/*
 * Explicit-time ids take allocation numbers from a range that starts at a random number, as
 * the tool has no sequence to draw them from: ids of one run never repeat each other, and two
 * runs repeat only if their ranges overlap and their process fields agree. The start is drawn
 * so that all the run's numbers fit below the format's limit, which -n is checked against.
 */
struct Allocations
{
	bool		drawn = false;
	uint64_t	next = 0;
};

/* The state of one run: every generator the tool has, and what they share. */
struct Run
{
	const Options &o;
	Identity	ident = {};
	TimeBlockLayout layout = {};
	LocalityGenerator locality;
	uint64_t	run_word = seq_word_empty;	/* the tool holds its sequential run alone */
	HotGenerator hot;
	HotEnvironment hot_env = {};
	V7Clock		v7_clock;
	uint64_t	v7_previous = 0;
	V7Explicit	v7_explicit;
	Allocations allocations;
	TimeUuids	time_uuids;

	explicit	Run(const Options &options) : o(options) {}
};

// Return how many shard-key ids a run may make at one explicit second.
constexpr uint64_t
hot_explicit_limit()
{
	return hot_explicit_bit;
}

// Return how many version 7 ids a run may make at one explicit millisecond.
constexpr uint64_t
v7_explicit_limit()
{
	return UINT64_C(1) << v7_allocation_bits;
}

// Take the first of the next UINT32_MAX of numbers allocation numbers, drawing the run's start on first use.
bool
take_allocations(Run &run, uint64_t numbers, uint64_t *first)
{
	if (!run.allocations.drawn)
	{
		uint8_t		r[8];

		if (!random_or_complain(r, sizeof(r)))
			return false;
		run.allocations.next = get_be(r, 8) % (numbers - run.o.count + 1);
		run.allocations.drawn = true;
	}
	*first = run.allocations.next;
	run.allocations.next += UINT32_MAX;
	return true;
}

// Check an explicit-time request before any id is made; false with *error if it cannot be done.
bool
check_explicit(const Options &o, Kind kind, std::string *error)
{
	int64_t		second = floor_div(o.at_us, usecs_per_sec);
	int64_t		ms = floor_div(o.at_us, 1000);
	uint64_t	limit = kind == Kind::hot ? hot_explicit_limit() : v7_explicit_limit();

	if (kind == Kind::hot && (second < 0 || second > static_cast<int64_t>(UINT32_MAX)))
		*error = "--at is outside the range of a shard-key uuid (1970-01-01 to 2106-02-07 06:28:15 UTC)";
	else if (kind == Kind::v7 && (ms < 0 || ms > v7_ms_max))
		*error = "--at is outside the range of a version 7 uuid (1970-01-01 to 10889-08-02 05:31:50.655 UTC)";
	else if (o.count > limit)
		*error = "-n: a run makes at most " + std::to_string(limit) + (kind == Kind::hot ?
			" shard-key ids of one explicit second" : " version 7 ids of one explicit millisecond");
	else
		return true;
	return false;
}

// Make a shard-key id at the explicit second of --at.
bool
make_hot_at(Run &run, uint8_t *id)
{
	int64_t		second = floor_div(run.o.at_us, usecs_per_sec);
	HotStatus	st = run.hot.next_at(run.o.shard, second, run.hot_env, id);
	uint64_t	first;

	if (st == HotStatus::needs_allocations)
	{
		if (!take_allocations(run, hot_explicit_limit(), &first))
			return false;
		run.hot.add_allocations(first, UINT32_MAX);
		st = run.hot.next_at(run.o.shard, second, run.hot_env, id);
	}
	if (st == HotStatus::second_full)
	{
		complain("made all " + std::to_string(hot_explicit_limit()) + " shard-key ids of second " +
				 std::to_string(second) + " that an explicit time allows in one run");
		return false;
	}
	return true;
}

// Make a version 7 id at the explicit millisecond of --at.
bool
make_v7_at(Run &run, const uint8_t random[8], uint8_t *id)
{
	int64_t		ms = floor_div(run.o.at_us, 1000);
	uint64_t	allocation;
	uint64_t	first;
	V7Status	st = run.v7_explicit.next(ms, &allocation);

	if (st == V7Status::needs_allocations)
	{
		if (!take_allocations(run, v7_explicit_limit(), &first))
			return false;
		run.v7_explicit.add_allocations(first, UINT32_MAX);
		st = run.v7_explicit.next(ms, &allocation);
	}
	if (st == V7Status::millisecond_full)
	{
		complain("made all the version 7 ids of millisecond " + std::to_string(ms) +
				 " that an explicit time allows in one run");
		return false;
	}
	encode_v7_explicit(ms, allocation, random, id);
	return true;
}

// Make a locality uuid at the clock reading.
bool
make_locality(Run &run, int64_t sec, int64_t ns, uint8_t *id)
{
	Environment env{sec * 1000 + ns / 1000000, run.ident.process, run.ident.node, nullptr};
	Status		st = next_alone(run.locality, run.o.mode, env, core_random, md5_digest, &run.run_word, id);

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
	uint8_t		random[uuid_len];

	if (!random_or_complain(random, uuid_len - static_cast<std::size_t>(run.layout.prefix_bits / 8)))
		return false;
	encode_prefix(time_block_prefix(sec * usecs_per_sec + ns / 1000, run.layout), run.layout.prefix_bits, random, id);
	return true;
}

// Make a version 7 id: as uuidv7(), uuidv7_ordered() or uuidv7_ordered(at).
bool
make_v7(Run &run, int64_t sec, int64_t ns, uint8_t *id)
{
	V7Time		now{sec * 1000 + ns / 1000000, static_cast<int32_t>(ns % 1000000)};
	uint8_t		random[8];

	if (!random_or_complain(random, sizeof(random)))
		return false;
	if (run.o.at_set)
		return make_v7_at(run, random, id);
	if (run.o.ordered)
	{
		uint64_t	word = v7_word_after(run.v7_previous, v7_word(now));

		if (v7_word_ms(word) > v7_ms_max)
		{
			complain("the ordered version 7 ids ran past the last millisecond they can carry");
			return false;
		}
		run.v7_previous = word;
		encode_v7_ordered(word, random, id);
		return true;
	}

	V7Time		t = run.v7_clock.next(now);

	encode_v7(t.ms, v7_subms(t.ns), random, id);
	return true;
}

// Make a version 4 (random) id.
bool
make_v4(Run &, int64_t, int64_t, uint8_t *id)
{
	uint8_t		random[uuid_len];

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

using MakeFunction = bool (*) (Run &run, int64_t sec, int64_t ns, uint8_t *id);

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
	uint8_t		random[8];

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
	run.hot_env = HotEnvironment{0, {run.ident.machine[0], run.ident.machine[1], run.ident.machine[2]},
		run.ident.process, nullptr};
	if ((kind == Kind::v1 || kind == Kind::v6) && !random_or_complain(random, sizeof(random)))
		return exit_failure;
	run.time_uuids.start(random);
	return exit_ok;
}

}							// namespace

int
run_generate(const Options &o, Kind kind)
{
	Run			run(o);
	MakeFunction make = maker_of(kind);
	int			code = start_run(run, kind);
	Output		out(STDOUT_FILENO, o.line_buffered);
	uint8_t		id[uuid_len];
	int64_t		sec;
	int64_t		ns;

	if (code != exit_ok)
		return code;
	for (uint64_t i = 0; i < o.count; i++)
	{
		if (!clock_now(&sec, &ns) || !make(run, sec, ns, id))
			return exit_failure;
		out.put_uuid(id);
		out.end_line();
		if (!out.ok())
			return output_failed(out);
	}
	return finish(out, exit_ok);
}

int
run_names(const Options &o, Kind kind)
{
	int			version = kind == Kind::v3 ? 3 : 5;
	Output		out(STDOUT_FILENO, o.line_buffered);
	uint8_t		id[uuid_len];

	if (o.name != "-")
	{
		name_based(version, o.name_space, o.name.data(), o.name.size(), id);
		out.put_uuid(id);
		out.end_line();
		return finish(out, exit_ok);
	}

	LineReader	lines(true);
	const char *line;
	std::size_t len;
	int			code = exit_ok;

	for (;;)
	{
		LineReader::Got got = lines.next(&line, &len);

		if (got == LineReader::Got::end || got == LineReader::Got::failed)
			return got == LineReader::Got::failed ? input_failed() : finish(out, code);
		if (got == LineReader::Got::too_long)
		{
			out.flush();
			complain("line " + std::to_string(lines.number()) + ": longer than " + std::to_string(line_max) + " bytes");
			code = exit_bad_input;
			continue;
		}
		name_based(version, o.name_space, line, len, id);
		out.put_uuid(id);
		out.end_line();
		if (!out.ok())
			return output_failed(out);
	}
}

}							// namespace locality_uuid
