// The command-line tool's options: the usage text, reading the command line, and which generator it asks for.
#include "options.hpp"

#include "rfc.hpp"
#include "text.hpp"

#include <cstdio>
#include <cstring>
#include <type_traits>

namespace locality_uuid
{

int64_t start_us = 0;

const char usage_text[] =
	"Usage: locality-uuid [OPTION]...            make ids (default: one locality uuid, variable mode)\n"
	"       locality-uuid [OPTION]... ID...      explain each ID\n"
	"       locality-uuid [OPTION]... -i | -     explain the ids on standard input, one per line\n"
	"\n"
	"Making ids:\n"
	"  -n N                 make N ids (default 1)\n"
	"  -s, --sequential     locality uuids in sequential mode, as locality_uuid(true)\n"
	"      --variable       locality uuids in variable mode, as locality_uuid(false) (default)\n"
	"      --sequential-seed RULE  where a sequential run starts in each 10-minute bucket, as\n"
	"                       locality_uuid.sequential_seed: continue (default) or bucket\n"
	"      --hot KEY        shard-key uuids carrying KEY (0 to 4294967295), as hot_uuid(KEY)\n"
	"      --at TIME        with --hot: stamped with the second of TIME, as hot_uuid(KEY, TIME);\n"
	"                       with --v7: explicit-time ids, as uuidv7_ordered(TIME)\n"
	"      --time-block LENGTH  block-wrapped uuids of the current time block, as\n"
	"                       uuid_time_nextval_interval(LENGTH, C): 250ms, 60s, 1h, 60 (seconds)\n"
	"      --block-count C  number of blocks C (default 65536), for making and explaining\n"
	"      --v7             version 7 uuids, as PostgreSQL 18's uuidv7()\n"
	"      --ordered        with --v7: strictly increasing ids, as uuidv7_ordered()\n"
	"      --v4             version 4 (random) uuids, as gen_random_uuid()\n"
	"      --v1, --v6       version 1 (time and node) and version 6 (reordered time) uuids, with\n"
	"                       a random node (multicast bit set) and clock sequence per run\n"
	"      --v3, --v5       name-based uuids (MD5, SHA-1) of --name in --namespace, as uuidgen\n"
	"                       --md5/--sha1 and Python's uuid3/uuid5 make them\n"
	"      --namespace NS   @dns, @url, @oid, @x500 (RFC 9562's namespaces) or a uuid\n"
	"      --name NAME      the name; '-': one id per line of standard input, each line a name\n"
	"                       as it is (its \\n not included)\n"
	"      --facade-key HEX  with --v7: each id's facade under the key (32 hex digits), as\n"
	"                       uuidv7_to_facade(id, key); explaining: facades read as their ids\n"
	"      --facade-key-file FILE  the same, the key read from FILE\n"
	"\n"
	"Identity of the ids made (the extension's settings):\n"
	"      --node N         28-bit node field, 0 to 268435455 (default: the low 28 bits of the\n"
	"                       MAC of the first interface that is not loopback)\n"
	"      --machine-name NAME  name whose MD5 gives the shard-key machine hash (default: the\n"
	"                       host name up to its first dot)\n"
	"      --machine HEX    the machine hash itself: 3 bytes in digest order, as 6 hex digits\n"
	"      --process pid|N  16-bit process field (default: pid, the process id mod 65536)\n"
	"\n"
	"Making one id from given fields (as locality_uuid_make, hot_uuid_make, uuidv7_lower):\n"
	"      --make           from --at TIME (required), --counter N, --process N, --node N, and\n"
	"                       --sequential for locality uuids; with --hot KEY, --machine HEX or\n"
	"                       --machine-name NAME, --process N and --counter N for shard-key uuids;\n"
	"                       with --v7, the smallest id of the millisecond (--upper: the largest).\n"
	"                       Fields not given are 0. With '-', one id per line of standard input,\n"
	"                       each line holding field options that add to the command line's.\n"
	"      --counter N      the counter field\n"
	"      --upper          with --make --v7: the largest id of the millisecond\n"
	"\n"
	"Explaining ids (each named by its RFC 9562 version and variant first, then read as the\n"
	"formats of locality_uuid that could have made it):\n"
	"  -i, --inspect        read the ids from standard input (as the argument '-' does), after\n"
	"                       the ids given as arguments\n"
	"  -j, --json           one JSON object per id (JSON Lines) instead of aligned text\n"
	"  -o, --output FIELD,...  only these fields, tab-separated, one id a line (no value: empty):\n"
	"                       id, version, variant, type, time, unix_us, formats (the JSON keys),\n"
	"                       facade (with --facade-key: the facade the id was read from)\n"
	"      --all            read every id as a shard-key uuid too (any id decodes as one; without\n"
	"                       --all, those with other formats' bits only if made in the ten years\n"
	"                       before --as-of or the day after)\n"
	"      --time-block LENGTH  with --block-count: show when each block-wrapped id's block began\n"
	"      --as-of TIME     the time block starts and that window are as of (default now)\n"
	"\n"
	"Output and input:\n"
	"      --line-buffered  write each id out as soon as it is made or explained (the default\n"
	"                       when standard output is a terminal); otherwise in blocks of 64 KB\n"
	"  Lines of standard input end in \\n, \\r\\n or \\r and hold at most 1048576 bytes; a longer\n"
	"  line is one malformed line. A UTF-8 byte-order mark before the first line is skipped.\n"
	"\n"
	"TIME: YYYY-MM-DD[THH:MM[:SS[.FFFFFF]]][Z|+HH:MM] (UTC if no zone), @UNIX_SECONDS, or now.\n"
	"\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show the version and exit\n"
	"\n"
	"Exit status: 0 done; 1 some ids or field lines were malformed (the others were done);\n"
	"2 bad options; 3 the clock, the random source, the input or the output failed (the tool\n"
	"stops at the first failed write). On 2, nothing was done.\n"
	"See locality-uuid(1).\n";

namespace
{

const char program[] = "locality-uuid";

/* The options that take a value. */
const char *const with_value[] = {
	"n", "hot", "at", "time-block", "block-count", "node", "machine-name", "machine",
	"process", "counter", "as-of", "namespace", "name", "o", "output", "sequential-seed"};

/* The switches, and the member of Options each one sets. */
const struct
{
	const char *name;
	bool Options::*flag;
} switches[] = {
	{"v7", &Options::v7},
	{"ordered", &Options::ordered},
	{"v4", &Options::v4},
	{"v1", &Options::v1},
	{"v6", &Options::v6},
	{"v3", &Options::v3},
	{"v5", &Options::v5},
	{"upper", &Options::upper},
	{"make", &Options::make},
	{"inspect", &Options::inspect},
	{"i", &Options::inspect},
	{"json", &Options::json},
	{"j", &Options::json},
	{"all", &Options::all},
	{"line-buffered", &Options::line_buffered},
	{"help", &Options::help},
	{"h", &Options::help},
	{"version", &Options::version},
	{"V", &Options::version},
};

// Write an option's name as the user writes it: "-n", "--hot".
std::string
dashed(const std::string &name)
{
	return (name.size() == 1 ? "-" : "--") + name;
}

// Return true if the option (name without dashes) takes a value.
bool
takes_value(const std::string &name)
{
	for (const char *w : with_value)
		if (name == w)
			return true;
	return is_facade_option(name);
}

// Set *error to say why value is bad for option name; return false.
bool
bad_value(const std::string &name, const char *value, const char *what, std::string *error)
{
	*error = dashed(name) + ": " + what + ", not " + quoted(value, std::strlen(value));
	return false;
}

// Read a whole number from lo to hi into *field and mark it set.
template<typename T>
bool
set_whole(const std::string &name, const char *value, int64_t lo, int64_t hi, T *field, bool *set,
		  const char *what, std::string *error)
{
	int64_t v;

	if (!parse_integer(value, lo, hi, &v))
		return bad_value(name, value, what, error);
	*field = static_cast<T>(v);
	*set = true;
	return true;
}

// Read a time into *field and mark it set.
bool
set_time(const std::string &name, const char *value, int64_t *field, bool *set, std::string *error)
{
	const char *why;

	if (!parse_time(value, start_us, field, &why))
		return bad_value(name, value, why, error);
	*set = true;
	return true;
}

// Apply a field option (one that a line of --make - may hold); false if name is none.
bool
apply_field(const std::string &name, const char *value, Options *o, bool *known, std::string *error)
{
	*known = true;
	if (name == "hot")
		return set_whole(name, value, 0, UINT32_MAX, &o->shard, &o->hot_set,
						 "a shard key is an unsigned 32-bit number (0 to 4294967295)", error);
	if (name == "at")
		return set_time(name, value, &o->at_us, &o->at_set, error);
	if (name == "node")
		return set_whole(name, value, 0, node_max, &o->node, &o->node_set, "the node field is 0 to 268435455", error);
	if (name == "counter")
		return set_whole(name, value, 0, UINT32_MAX, &o->counter, &o->counter_set,
						 "a counter is 0 to 4294967295 (16777215 for shard-key uuids)", error);
	if (name == "machine-name")
	{
		o->machine_name_set = true;
		o->machine_name = value;
		return true;
	}
	if (name == "machine")
	{
		if (!parse_hex_bytes(value, o->machine, hot_machine_len))
			return bad_value(name, value, "the machine hash is 3 bytes, 6 hex digits", error);
		return o->machine_set = true;
	}
	if (name == "process")
	{
		o->process_set = true;
		o->process_pid = std::strcmp(value, "pid") == 0;
		return o->process_pid ||
			set_whole(name, value, 0, UINT16_MAX, &o->process, &o->process_set, "the process field is pid or 0 to 65535", error);
	}
	if (name == "sequential" || name == "s" || name == "variable")
	{
		o->mode_set = true;
		o->mode = name == "variable" ? CounterMode::variable : CounterMode::sequential;
		return true;
	}
	if (name == "upper")
		return o->upper = true;
	return *known = false;
}

// Apply an option that takes a value and is no field option; false if name is none.
bool
apply_setting(const std::string &name, const char *value, Options *o, bool *known, std::string *error)
{
	const char *why;

	*known = true;
	if (name == "n")
		return set_whole(name, value, 1, INT64_MAX, &o->count, &o->count_set, "expected a number of ids, 1 or more", error);
	if (name == "block-count")
		return set_whole(name, value, 1, INT32_MAX, &o->block_count, &o->block_count_set,
						 "a block count is 1 to 2147483647", error);
	if (name == "as-of")
		return set_time(name, value, &o->as_of_us, &o->as_of_set, error);
	if (name == "sequential-seed")
	{
		if (!seed_rule_named(value, &o->seed_rule))
			return bad_value(name, value, "the sequential seed is continue or bucket", error);
		return o->seed_rule_set = true;
	}
	if (name == "time-block")
	{
		if (!parse_length(value, &o->length_us, &why))
			return bad_value(name, value, why, error);
		return o->length_set = true;
	}
	if (name == "namespace")
	{
		if (!parse_namespace(value, std::strlen(value), o->name_space))
			return bad_value(name, value, "a namespace is @dns, @url, @oid, @x500 or a uuid", error);
		return o->namespace_set = true;
	}
	if (name == "name")
	{
		o->name = value;
		return o->name_set = true;
	}
	if (name == "o" || name == "output")
	{
		o->fields = value;
		return true;
	}
	if (is_facade_option(name))
		return apply_facade_option(name, value, &o->facade, error);
	return *known = false;
}

/*
 * Apply one option (name without dashes, and its value if it takes one) to o. fields_only
 * limits it to the field options a line of --make - may hold. False with *error set if the
 * option is unknown, not allowed there, or its value is bad.
 */
bool
apply_option(const std::string &name, const char *value, bool fields_only, Options *o, std::string *error)
{
	bool known;
	bool ok = apply_field(name, value, o, &known, error);

	if (known)
		return ok;
	if (fields_only)
	{
		*error = dashed(name) + " is not a field option (a line of --make - holds only those)";
		return false;
	}
	ok = apply_setting(name, value, o, &known, error);
	if (known)
		return ok;
	for (const auto &s : switches)
		if (name == s.name)
			return o->*s.flag = true;
	*error = "unknown option " + dashed(name);
	return false;
}

/*
 * Split one argument into option name and value: "--name=value" or "--name", "-xVALUE" or
 * "-x" after applying bundled switches ("-ij"). False with *error set on a bad option.
 */
bool
split_option(const std::string &a, bool fields_only, Options *o, std::string *name, std::string *value,
			 bool *has_value, std::string *error)
{
	*has_value = false;
	if (a[1] == '-')
	{
		std::size_t eq = a.find('=');

		*name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
		if (name->size() < 2)
		{
			*error = "unknown option " + quoted(a.data(), a.size());
			return false;
		}
		if (eq != std::string::npos)
		{
			*value = a.substr(eq + 1);
			*has_value = true;
		}
		return true;
	}

	/* Short switches may be bundled (-ij); a short option's value may follow at once (-n5). */
	std::size_t j = 1;

	for (; j + 1 < a.size() && !takes_value(a.substr(j, 1)); j++)
		if (!apply_option(a.substr(j, 1), nullptr, fields_only, o, error))
			return false;
	*name = a.substr(j, 1);
	if (j + 1 < a.size())
	{
		*value = a.substr(j + 1);
		*has_value = true;
	}
	return true;
}

} // namespace

void
complain(const std::string &message)
{
	std::fprintf(stderr, "%s: %s\n", program, message.c_str());
}

std::string
quoted(const char *text, std::size_t len)
{
	static const char digits[] = "0123456789abcdef";
	std::string       q = "\"";

	for (std::size_t i = 0; i < len && i < 60; i++)
	{
		unsigned char c = static_cast<unsigned char>(text[i]);

		if (c < 0x20 || c >= 0x7f || c == '\\' || c == '"')
		{
			q += "\\x";
			q += digits[c >> 4];
			q += digits[c & 0xf];
		}
		else
			q += static_cast<char>(c);
	}
	if (len > 60)
		q += "...";
	return q + "\"";
}

/*
 * Read arguments into o: "--name value", "--name=value", "-x value", "-xVALUE", bundled switches
 * ("-ij"); other words are ids to explain ("-" for standard input); "--" ends the options.
 */
bool
parse_arguments(const std::vector<std::string> &args, bool fields_only, Options *o, std::string *error)
{
	bool options_done = false;

	for (std::size_t i = 0; i < args.size(); i++)
	{
		const std::string &a = args[i];
		std::string        name;
		std::string        value;
		bool               has_value;

		if (options_done || a == "-" || a.size() < 2 || a[0] != '-')
		{
			if (fields_only)
			{
				*error = "unexpected " + quoted(a.data(), a.size()) + " (a line of --make - holds field options)";
				return false;
			}
			o->ids.push_back(a);
			continue;
		}
		if (a == "--")
		{
			options_done = true;
			continue;
		}
		if (!split_option(a, fields_only, o, &name, &value, &has_value, error))
			return false;
		if (takes_value(name) && !has_value)
		{
			if (i + 1 == args.size())
			{
				*error = "option " + dashed(name) + " needs a value";
				return false;
			}
			value = args[++i];
			has_value = true;
		}
		else if (!takes_value(name) && has_value)
		{
			*error = "option " + dashed(name) + " takes no value";
			return false;
		}
		if (!apply_option(name, has_value ? value.c_str() : nullptr, fields_only, o, error))
			return false;
	}
	return true;
}

// Return the generator the options ask for, or set *error if they ask for more than one.
bool
choose_kind(const Options &o, Kind *kind, std::string *error)
{
	int         chosen = o.hot_set + o.length_set + o.v7 + o.v4 + o.v1 + o.v6 + o.v3 + o.v5;
	bool        named = o.v3 || o.v5;
	const char *why = nullptr;

	*kind = o.hot_set ? Kind::hot : o.length_set ? Kind::time_block
		: o.v7                                   ? Kind::v7
		: o.v4                                   ? Kind::v4
		: o.v1                                   ? Kind::v1
		: o.v6                                   ? Kind::v6
		: o.v3                                   ? Kind::v3
		: o.v5                                   ? Kind::v5
												 : Kind::locality;
	if (chosen > 1)
		why = "choose one of --hot, --time-block, --v7, --v4, --v1, --v6, --v3 and --v5";
	else if (o.mode_set && *kind != Kind::locality)
		why = "--sequential and --variable are for locality uuids";
	else if (o.seed_rule_set && (*kind != Kind::locality || o.make))
		why = "--sequential-seed is for making locality uuids from the clock";
	else if (o.ordered && *kind != Kind::v7)
		why = "--ordered is for --v7";
	else if (o.upper && !(o.make && *kind == Kind::v7))
		why = "--upper is for --make --v7";
	else if (o.at_set && !o.make && *kind != Kind::hot && *kind != Kind::v7)
		why = "--at is for --hot, --v7 and --make";
	else if (o.counter_set && !o.make)
		why = "--counter is for --make";
	else if (o.block_count_set && *kind != Kind::time_block)
		why = "--block-count is for --time-block and for explaining ids";
	else if (named != (o.namespace_set && o.name_set) || (!named && (o.namespace_set || o.name_set)))
		why = "--v3 and --v5 need --namespace and --name, which are for them only";
	else if (named && (o.count_set || o.make))
		why = "--v3 and --v5 make one id per name (--name - reads names from standard input): no -n, no --make";
	if (why != nullptr)
		*error = why;
	return why == nullptr;
}

} // namespace locality_uuid
