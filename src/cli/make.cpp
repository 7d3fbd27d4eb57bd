// Composing one id from given fields (--make), from the command line or from each line of standard input.
#include "run.hpp"

#include "core/v7.hpp"
#include "identity.hpp"
#include "input.hpp"

#include <unistd.h>

namespace locality_uuid
{

namespace
{

// Compose a locality uuid from the fields, as locality_uuid_make.
bool
compose_locality(const Options &o, const Identity &id, uint8_t out[uuid_len], std::string *error)
{
	if (!at_in_range(o, Kind::locality, error))
		return false;

	LocalityFields f{static_cast<uint32_t>(o.counter), id.process, id.node, static_cast<uint64_t>(floor_div(o.at_us, 1000))};

	return encode_b(f, o.mode, out) == Status::ok;
}

// Compose a shard-key uuid from the fields, as hot_uuid_make (but refusing a second the time field cannot hold).
bool
compose_hot(const Options &o, const Identity &id, uint8_t out[uuid_len], std::string *error)
{
	int64_t second = floor_div(o.at_us, usecs_per_sec);

	if (o.counter > static_cast<int64_t>(hot_counter_max))
		*error = "the counter of a shard-key uuid is 0 to 16777215";
	else if (at_in_range(o, Kind::hot, error))
	{
		HotFields f{hot_seconds(second), {id.machine[0], id.machine[1], id.machine[2]}, id.process, static_cast<uint32_t>(o.counter), o.shard};

		return encode_hot(f, out);
	}
	return false;
}

// Compose the smallest (or with --upper the largest) version 7 uuid of the millisecond, as uuidv7_lower.
bool
compose_v7(const Options &o, uint8_t out[uuid_len], std::string *error)
{
	int64_t ms = floor_div(o.at_us, 1000);

	if (o.counter_set || o.process_set || o.node_set || o.ordered)
		*error = "--make --v7 takes --at and --upper only";
	else if (at_in_range(o, Kind::v7, error))
	{
		if (o.upper)
			v7_upper(ms, out);
		else
			v7_lower(ms, out);
		return true;
	}
	return false;
}

// Compose one id from the fields of o (the composers' rules); false with *error if a field is out of range.
bool
compose(const Options &o, Kind kind, uint8_t out[uuid_len], std::string *error)
{
	Identity id;

	if (!o.at_set)
		*error = "--make needs --at TIME";
	else if (!identity_of(o, &id))
		*error = "no machine hash";
	else if (kind == Kind::locality)
		return compose_locality(o, id, out, error);
	else if (kind == Kind::hot)
		return compose_hot(o, id, out, error);
	else if (kind == Kind::v7)
		return compose_v7(o, out, error);
	else
		*error = "--make makes locality, shard-key (--hot) and version 7 (--v7) uuids";
	return false;
}

// Split a line into words at spaces and tabs.
std::vector<std::string>
words_of(const char *line, std::size_t len)
{
	std::vector<std::string> words;
	std::size_t              i = 0;

	while (i < len)
	{
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;

		std::size_t start = i;

		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		if (i > start)
			words.emplace_back(line + start, i - start);
	}
	return words;
}

// Compose the id of one line of field options added to the command line's; false with *error.
bool
compose_line(const Options &o, const char *line, std::size_t len, uint8_t id[uuid_len], std::string *error)
{
	Options l = o;
	Kind    k;

	l.ids.clear();
	return parse_arguments(words_of(line, len), true, &l, error) && choose_kind(l, &k, error) &&
		compose(l, k, id, error);
}

} // namespace

bool
at_in_range(const Options &o, Kind kind, std::string *error)
{
	int64_t ms = floor_div(o.at_us, 1000);
	int64_t second = floor_div(o.at_us, usecs_per_sec);

	if (kind == Kind::hot && (second < 0 || second > static_cast<int64_t>(UINT32_MAX)))
		*error = "--at is outside the range of a shard-key uuid (1970-01-01 to 2106-02-07 06:28:15 UTC)";
	else if (kind == Kind::locality && (ms < 0 || static_cast<uint64_t>(ms) > time_ms_max))
		*error = "--at is outside the range of a locality uuid (1970-01-01 to 10889-08-02 05:31:50.655 UTC)";
	else if (kind == Kind::v7 && (ms < 0 || ms > v7_ms_max))
		*error = "--at is outside the range of a version 7 uuid (1970-01-01 to 10889-08-02 05:31:50.655 UTC)";
	else
		return true;
	return false;
}

int
run_make(const Options &o, Kind kind)
{
	Output      out(STDOUT_FILENO, o.line_buffered);
	uint8_t     id[uuid_len];
	std::string error;

	if (!o.ids.empty() && (o.ids.size() != 1 || o.ids[0] != "-"))
	{
		complain("--make takes '-' (field lines on standard input) or no argument");
		return exit_usage;
	}
	if (!o.ids.empty())
		return ids_of_lines(o, false, compose_line, out);
	if (!compose(o, kind, id, &error))
	{
		complain(error);
		return exit_usage;
	}
	out.put_uuid(id);
	out.end_line();
	return finish(out, exit_ok);
}

} // namespace locality_uuid
