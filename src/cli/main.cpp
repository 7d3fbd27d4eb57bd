// locality-uuid: make ids of locality_uuid's formats and of RFC 9562's versions outside the database, and explain any id.
#include "identity.hpp"
#include "options.hpp"
#include "run.hpp"

#include <cstdio>
#include <unistd.h>

#ifndef LOCALITY_UUID_VERSION
#error "LOCALITY_UUID_VERSION must be defined (the Makefile takes it from locality_uuid.control)"
#endif

using namespace locality_uuid;

namespace
{

// Return true if any option for making ids was given.
bool
making_options(const Options &o)
{
	return o.count_set || o.mode_set || o.hot_set || o.at_set || o.v7 || o.ordered || o.v4 || o.v1 ||
		o.v6 || o.v3 || o.v5 || o.namespace_set || o.name_set || o.upper || o.node_set ||
		o.machine_name_set || o.machine_set || o.process_set || o.counter_set;
}

// Print the help or the version; return the exit code.
int
show(const Options &o)
{
	if (o.help)
		std::fputs(usage_text, stdout);
	else
		std::printf("locality-uuid (locality_uuid) %s\n", LOCALITY_UUID_VERSION);
	return std::fflush(stdout) == 0 ? exit_ok : exit_failure;
}

// Run what the options ask for once they are read; return the exit code.
int
dispatch(const Options &o)
{
	std::string error;
	Kind        kind;

	if ((!o.ids.empty() || o.inspect) && !o.make)
	{
		if (making_options(o))
			error = "options for making ids were given with ids to explain";
		return error.empty() ? run_explain(o) : (complain(error), exit_usage);
	}
	if (o.json || o.all || o.as_of_set || o.inspect || !o.fields.empty())
		error = "--json, -o, --all, --as-of and --inspect are for explaining ids; give ids, or -i";
	else if (o.make && o.count_set)
		error = "--make makes one id (or one per line with '-'); -n is for the generators";
	if (error.empty() && choose_kind(o, &kind, &error) && o.facade.set && (kind != Kind::v7 || o.make))
		error = "--facade-key and --facade-key-file are for --v7 and for explaining ids";
	if (!error.empty())
	{
		complain(error);
		return exit_usage;
	}
	if (o.make)
		return run_make(o, kind);
	if (kind == Kind::v3 || kind == Kind::v5)
		return run_names(o, kind);
	return run_generate(o, kind);
}

} // namespace

int
main(int argc, char **argv)
{
	Options     o;
	std::string error;
	int64_t     sec;
	int64_t     ns;

	if (!clock_now(&sec, &ns))
		return exit_failure;
	start_us = sec * usecs_per_sec + ns / 1000;
	o.line_buffered = isatty(STDOUT_FILENO) == 1;
	if (!parse_arguments(std::vector<std::string>(argv + 1, argv + argc), false, &o, &error))
	{
		complain(error);
		std::fputs("Try 'locality-uuid --help'.\n", stderr);
		return exit_usage;
	}
	if (o.help || o.version)
		return show(o);
	return dispatch(o);
}
