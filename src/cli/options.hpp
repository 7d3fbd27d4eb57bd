// The command-line tool's options: what the command line (or a line of --make -) says, and how it is read.
#pragma once

#include "core/blocks.hpp"
#include "core/hot.hpp"
#include "core/locality_b.hpp"
#include "facade_key.hpp"

#include <string>
#include <vector>

namespace locality_uuid
{

/* Exit codes, as the manual page lists them. */
constexpr int exit_ok = 0;
constexpr int exit_bad_input = 1; /* some ids or field lines were malformed; the rest were done */
constexpr int exit_usage = 2;     /* bad options: nothing was done */
constexpr int exit_failure = 3;   /* the system failed us: clock, random source, output */

/* The longest line read from standard input, its line end not counted. */
constexpr std::size_t line_max = std::size_t(1) << 20;

enum class Kind
{
	locality,
	hot,
	time_block,
	v7,
	v4,
	v1,
	v6,
	v3,
	v5
};

/* Everything the command line (or, for --make -, one line of fields) says. */
struct Options
{
	bool                     help = false;
	bool                     version = false;
	bool                     make = false;
	bool                     inspect = false;
	std::vector<std::string> ids; /* ids to explain; "-" stands for standard input */

	bool        count_set = false;
	uint64_t    count = 1;
	bool        mode_set = false;
	CounterMode mode = CounterMode::variable;
	bool        seed_rule_set = false;
	SeedRule    seed_rule = SeedRule::continued;
	bool        hot_set = false;
	uint32_t    shard = 0;
	bool        at_set = false;
	int64_t     at_us = 0;
	bool        length_set = false;
	int64_t     length_us = 0;
	bool        block_count_set = false;
	int32_t     block_count = block_default;
	bool        v7 = false;
	bool        ordered = false;
	bool        v4 = false;
	bool        v1 = false;
	bool        v6 = false;
	bool        v3 = false;
	bool        v5 = false;
	bool        upper = false;
	bool        namespace_set = false;
	uint8_t     name_space[uuid_len] = {};
	bool        name_set = false;
	std::string name; /* "-": one name per line of standard input */

	bool        node_set = false;
	uint32_t    node = 0;
	bool        machine_name_set = false;
	std::string machine_name;
	bool        machine_set = false;
	uint8_t     machine[hot_machine_len] = {0, 0, 0};
	bool        process_set = false;
	bool        process_pid = false;
	uint16_t    process = 0;
	bool        counter_set = false;
	int64_t     counter = 0;

	bool        json = false;
	bool        all = false;
	bool        as_of_set = false;
	int64_t     as_of_us = 0;
	std::string fields; /* -o: the fields to print, as given */
	bool        line_buffered = false;

	FacadeOption facade; /* --facade-key, --facade-key-file */
};

/* The clock at start: what "now" means in TIME arguments. */
extern int64_t start_us;

extern const char usage_text[];

// Print "locality-uuid: message" on standard error.
void complain(const std::string &message);

// Quote a piece of input for a message: at most 60 bytes, bytes outside ASCII's printable ones as \xHH.
std::string quoted(const char *text, std::size_t len);

// Read arguments into o; fields_only limits them to the field options of a line of --make -.
bool parse_arguments(const std::vector<std::string> &args, bool fields_only, Options *o, std::string *error);

// Return the generator the options ask for, or set *error if they ask for more than one.
bool choose_kind(const Options &o, Kind *kind, std::string *error);

} // namespace locality_uuid
