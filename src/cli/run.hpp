// The command-line tool's ways to run: make ids, make them from names, compose them from fields, explain them.
#pragma once

#include "options.hpp"

#include <string>

namespace locality_uuid
{

// Check that --at lies in the time field of kind's ids (locality, shard-key, version 7); false with *error naming its range.
bool at_in_range(const Options &o, Kind kind, std::string *error);

// Make o.count ids of the chosen kind from the clock and the identity; return the exit code.
int run_generate(const Options &o, Kind kind);

// Make the version 3 or 5 id of --name (or of each line of standard input); return the exit code.
int run_names(const Options &o, Kind kind);

// Make one id from the command line's fields, or one per line of standard input; return the exit code.
int run_make(const Options &o, Kind kind);

// Explain every id of o.ids (and standard input for "-" or -i); return the exit code.
int run_explain(const Options &o);

} // namespace locality_uuid
