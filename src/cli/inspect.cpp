// Explaining ids given as arguments or read from standard input, as text, JSON Lines or chosen fields.
#include "run.hpp"

#include "explain.hpp"
#include "facade_key.hpp"
#include "identity.hpp"
#include "input.hpp"

#include <unistd.h>

#include <algorithm>

namespace locality_uuid
{

namespace
{

// Set up how ids are explained from the options; an exit code if they are bad.
int
explain_options(const Options &o, ExplainOptions *eo)
{
	std::string bad;

	eo->json = o.json;
	eo->all = o.all;
	eo->block_count = o.block_count;
	eo->as_of_us = o.as_of_set ? o.as_of_us : start_us;
	if (!o.fields.empty() && !parse_fields(o.fields, &eo->fields, &bad))
	{
		complain("-o: unknown field " + quoted(bad.data(), bad.size()) +
				 " (id, version, variant, type, time, unix_us, formats, facade)");
		return exit_usage;
	}
	if (!o.fields.empty() && o.json)
	{
		complain("-o and --json are two ways to print: choose one");
		return exit_usage;
	}
	if (o.length_set)
	{
		if (time_block_layout(o.length_us, o.block_count, &eo->layout) != BlockStatus::ok)
		{
			complain("--time-block: the length must be 1 ms to 2147483647 s");
			return exit_usage;
		}
		eo->time_blocks = true;
	}
	return exit_ok;
}

// Explain the ids on standard input; false if it could not be read or the output failed.
bool
explain_input(const ExplainOptions &eo, const FacadeOption &facade, Output &out, bool *malformed)
{
	LineReader  lines(false);
	const char *line;
	std::size_t len;
	uint8_t     id[uuid_len];

	for (;;)
	{
		LineReader::Got got = lines.next(&line, &len);

		if (got == LineReader::Got::end)
			return true;
		if (got == LineReader::Got::failed)
		{
			input_failed();
			return false;
		}
		if (got == LineReader::Got::line && parse_uuid(line, len, id))
			explain_with_facade(id, facade, eo, out);
		else
		{
			out.flush();
			complain("line " + std::to_string(lines.number()) + ": " +
					 (got == LineReader::Got::too_long ? "longer than " + std::to_string(line_max) + " bytes" : "not a uuid: " + quoted(line, len)));
			*malformed = true;
		}
		if (out.ok() && eo.line_buffered)
			out.flush();
		if (!out.ok())
		{
			output_failed(out);
			return false;
		}
	}
}

} // namespace

int
run_explain(const Options &o)
{
	ExplainOptions           eo;
	int                      code = explain_options(o, &eo);
	bool                     malformed = false;
	uint8_t                  id[uuid_len];
	std::vector<std::string> ids = o.ids;
	Output                   out(STDOUT_FILENO);

	if (code != exit_ok)
		return code;
	eo.line_buffered = o.line_buffered;
	/* -i reads standard input after the ids given, unless '-' says where. */
	if (o.inspect && std::find(ids.begin(), ids.end(), "-") == ids.end())
		ids.push_back("-");
	for (std::size_t i = 0; i < ids.size(); i++)
	{
		const std::string &a = ids[i];

		if (a == "-")
		{
			if (!explain_input(eo, o.facade, out, &malformed))
				return exit_failure;
			continue;
		}
		if (parse_uuid(a.data(), a.size(), id))
			explain_with_facade(id, o.facade, eo, out);
		else
		{
			out.flush();
			complain("argument " + std::to_string(i + 1) + ": not a uuid: " + quoted(a.data(), a.size()));
			malformed = true;
		}
		if (o.line_buffered)
			out.flush();
		if (!out.ok())
			return output_failed(out);
	}
	return finish(out, malformed ? exit_bad_input : exit_ok);
}

} // namespace locality_uuid
