// locality-uuid: make ids of locality_uuid's formats outside the database, and explain any id.
#include "core/blocks.hpp"
#include "core/hot.hpp"
#include "core/locality_b.hpp"
#include "core/v7.hpp"
#include "os/mac.hpp"
#include "explain.hpp"
#include "facade_key.hpp"
#include "md5.hpp"
#include "system.hpp"
#include "text.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

#ifndef LOCALITY_UUID_VERSION
#error "LOCALITY_UUID_VERSION must be defined (the Makefile takes it from locality_uuid.control)"
#endif

using namespace locality_uuid;

namespace
{

const char	program[] = "locality-uuid";

/* Exit codes, as the manual page lists them. */
constexpr int exit_ok = 0;
constexpr int exit_bad_input = 1;	/* some ids or field lines were malformed; the rest were done */
constexpr int exit_usage = 2;		/* bad options: nothing was done */
constexpr int exit_failure = 3;		/* the system failed us: clock, random source, output */

const char	usage_text[] =
	"Usage: locality-uuid [OPTION]...            make ids (default: one locality uuid, variable mode)\n"
	"       locality-uuid [OPTION]... ID...      explain each ID\n"
	"       locality-uuid [OPTION]... -i | -     explain the ids on standard input, one per line\n"
	"\n"
	"Making ids:\n"
	"  -n N                 make N ids (default 1)\n"
	"  -s, --sequential     locality uuids in sequential mode, as locality_uuid(true)\n"
	"      --variable       locality uuids in variable mode, as locality_uuid(false) (default)\n"
	"      --hot KEY        shard-key uuids carrying KEY (0 to 4294967295), as hot_uuid(KEY)\n"
	"      --at TIME        with --hot: stamped with the second of TIME, as hot_uuid(KEY, TIME);\n"
	"                       with --v7: explicit-time ids, as uuidv7_ordered(TIME)\n"
	"      --time-block LENGTH  block-wrapped uuids of the current time block, as\n"
	"                       uuid_time_nextval_interval(LENGTH, C): 250ms, 60s, 1h, 60 (seconds)\n"
	"      --block-count C  number of blocks C (default 65536), for making and explaining\n"
	"      --v7             version 7 uuids, as PostgreSQL 18's uuidv7()\n"
	"      --ordered        with --v7: strictly increasing ids, as uuidv7_ordered()\n"
	"      --v4             version 4 (random) uuids, as gen_random_uuid()\n"
	"      --facade-key HEX, --facade-key-file FILE  with --v7: their facades under the key (32 hex\n"
	"                       digits), as uuidv7_to_facade(id, key); explaining: facades as their ids\n"
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
	"Explaining ids:\n"
	"  -i, --inspect        read the ids from standard input (as the argument '-' does)\n"
	"  -j, --json           one JSON object per id (JSON Lines) instead of aligned text\n"
	"      --all            read every id as a shard-key uuid too (any id decodes as one; without\n"
	"                       --all, those with other formats' bits only if made in the ten years\n"
	"                       before --as-of or the day after)\n"
	"      --time-block LENGTH  with --block-count: show when each block-wrapped id's block began\n"
	"      --as-of TIME     the time block starts and that window are as of (default now)\n"
	"\n"
	"TIME: YYYY-MM-DD[THH:MM[:SS[.FFFFFF]]][Z|+HH:MM] (UTC if no zone), @UNIX_SECONDS, or now.\n"
	"\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show the version and exit\n"
	"\n"
	"Exit status: 0 done; 1 some ids or field lines were malformed (the others were done);\n"
	"2 bad options; 3 the clock, the random source or the output failed.\n"
	"See locality-uuid(1).\n";

enum class Kind
{
	locality,
	hot,
	time_block,
	v7,
	v4
};

/* Everything the command line (or, for --make -, one line of fields) says. */
struct Options
{
	bool		help = false;
	bool		version = false;
	bool		make = false;
	bool		inspect = false;
	std::vector<std::string> ids;	/* ids to explain; "-" stands for standard input */

	bool		count_set = false;
	uint64_t	count = 1;
	bool		mode_set = false;
	CounterMode mode = CounterMode::variable;
	bool		hot_set = false;
	uint32_t	shard = 0;
	bool		at_set = false;
	int64_t		at_us = 0;
	bool		length_set = false;
	int64_t		length_us = 0;
	bool		block_count_set = false;
	int32_t		block_count = block_default;
	bool		v7 = false;
	bool		ordered = false;
	bool		v4 = false;
	bool		upper = false;

	bool		node_set = false;
	uint32_t	node = 0;
	bool		machine_name_set = false;
	std::string machine_name;
	bool		machine_set = false;
	uint8_t		machine[hot_machine_len] = {0, 0, 0};
	bool		process_set = false;
	bool		process_pid = false;
	uint16_t	process = 0;
	bool		counter_set = false;
	int64_t		counter = 0;

	bool		json = false;
	bool		all = false;
	bool		as_of_set = false;
	int64_t		as_of_us = 0;

	FacadeOption facade;
};

/* The clock at start: what "now" means in TIME arguments. */
int64_t		start_us = 0;

// Print "locality-uuid: message" on standard error.
void
complain(const std::string &message)
{
	std::fprintf(stderr, "%s: %s\n", program, message.c_str());
}

// Quote a piece of input for a message: at most 60 characters, control characters as '?'.
std::string
quoted(const char *text, std::size_t len)
{
	std::string q = "\"";

	for (std::size_t i = 0; i < len && i < 60; i++)
		q += static_cast<unsigned char>(text[i]) < 0x20 ? '?' : text[i];
	if (len > 60)
		q += "...";
	return q + "\"";
}

/*
 * Apply one option (name without dashes, and its value if it takes one) to o. fields_only
 * limits it to the field options a line of --make - may hold. False with *error set if the
 * option is unknown, not allowed there, or its value is bad.
 */
bool
apply_option(const std::string &name, const char *value, bool fields_only, Options *o, std::string *error)
{
	int64_t		v;
	const char *why;

	auto		bad_value = [&](const char *what) {
		*error = "--" + name + ": " + what + ", not " + quoted(value, std::strlen(value));
		return false;
	};
	/* Options that take a whole number from lo to hi, a time, or a length: the value and its mark. */
	auto		whole = [&](auto *field, int64_t lo, int64_t hi, bool *set, const char *what) {
		if (!parse_integer(value, lo, hi, &v))
			return bad_value(what);
		*field = static_cast<std::remove_pointer_t<decltype(field)>>(v);
		*set = true;
		return true;
	};
	auto		when = [&](int64_t *field, bool *set) {
		if (!parse_time(value, start_us, field, &why))
			return bad_value(why);
		*set = true;
		return true;
	};
	auto		length = [&](int64_t *field, bool *set) {
		if (!parse_length(value, field, &why))
			return bad_value(why);
		*set = true;
		return true;
	};

	if (name == "sequential" || name == "s")
	{
		o->mode_set = true;
		o->mode = CounterMode::sequential;
		return true;
	}
	if (name == "variable")
	{
		o->mode_set = true;
		o->mode = CounterMode::variable;
		return true;
	}
	if (name == "hot")
		return whole(&o->shard, 0, UINT32_MAX, &o->hot_set, "a shard key is an unsigned 32-bit number (0 to 4294967295)");
	if (name == "at")
		return when(&o->at_us, &o->at_set);
	if (name == "upper")
	{
		o->upper = true;
		return true;
	}
	if (name == "node")
		return whole(&o->node, 0, node_max, &o->node_set, "the node field is 0 to 268435455");
	if (name == "machine-name")
	{
		o->machine_name_set = true;
		o->machine_name = value;
		return true;
	}
	if (name == "machine")
	{
		if (!parse_hex_bytes(value, o->machine, hot_machine_len))
			return bad_value("the machine hash is 3 bytes, 6 hex digits");
		o->machine_set = true;
		return true;
	}
	if (name == "process")
	{
		o->process_set = true;
		o->process_pid = std::strcmp(value, "pid") == 0;
		if (o->process_pid)
			return true;
		if (!parse_integer(value, 0, UINT16_MAX, &v))
			return bad_value("the process field is pid or 0 to 65535");
		o->process = static_cast<uint16_t>(v);
		return true;
	}
	if (name == "counter")
		return whole(&o->counter, 0, UINT32_MAX, &o->counter_set, "a counter is 0 to 4294967295 (16777215 for shard-key uuids)");
	if (fields_only)
	{
		*error = "--" + name + " is not a field option (a line of --make - holds only those)";
		return false;
	}
	if (name == "n")
		return whole(&o->count, 1, INT64_MAX, &o->count_set, "expected a number of ids, 1 or more");
	if (name == "time-block")
		return length(&o->length_us, &o->length_set);
	if (name == "block-count")
		return whole(&o->block_count, 1, INT32_MAX, &o->block_count_set, "a block count is 1 to 2147483647");
	if (name == "as-of")
		return when(&o->as_of_us, &o->as_of_set);
	if (is_facade_option(name))
		return apply_facade_option(name, value, &o->facade, error);

	/* Switches. */
	bool	   *flag = name == "v7" ? &o->v7 : name == "ordered" ? &o->ordered : name == "v4" ? &o->v4 :
		name == "make" ? &o->make : name == "inspect" || name == "i" ? &o->inspect :
		name == "json" || name == "j" ? &o->json : name == "all" ? &o->all :
		name == "help" || name == "h" ? &o->help : name == "version" || name == "V" ? &o->version : nullptr;

	if (flag == nullptr)
	{
		*error = "unknown option " + std::string(name.size() == 1 ? "-" : "--") + name;
		return false;
	}
	*flag = true;
	return true;
}

// Return true if the option (name without dashes) takes a value.
bool
takes_value(const std::string &name)
{
	static const char *const with_value[] = {
		"n", "hot", "at", "time-block", "block-count", "node", "machine-name", "machine",
		"process", "counter", "as-of"
	};

	for (const char *w : with_value)
		if (name == w)
			return true;
	return is_facade_option(name);
}

/*
 * Read arguments into o: "--name value", "--name=value", "-x value", "-xVALUE", bundled switches
 * ("-ij"); other words are ids to explain ("-" for standard input); "--" ends the options.
 */
bool
parse_arguments(const std::vector<std::string> &args, bool fields_only, Options *o, std::string *error)
{
	bool		options_done = false;

	for (std::size_t i = 0; i < args.size(); i++)
	{
		const std::string &a = args[i];
		std::string name;
		std::string value;
		bool		has_value = false;

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
		if (a[1] == '-')
		{
			std::size_t eq = a.find('=');

			name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
			if (name.size() < 2)
			{
				*error = "unknown option " + a;
				return false;
			}
			if (eq != std::string::npos)
			{
				value = a.substr(eq + 1);
				has_value = true;
			}
		}
		else
		{
			/* Short switches may be bundled (-ij); a short option's value may follow at once (-n5). */
			std::size_t j = 1;

			for (; j + 1 < a.size() && !takes_value(a.substr(j, 1)); j++)
				if (!apply_option(a.substr(j, 1), nullptr, fields_only, o, error))
					return false;
			name = a.substr(j, 1);
			if (j + 1 < a.size())
			{
				value = a.substr(j + 1);
				has_value = true;
			}
		}
		if (takes_value(name) && !has_value)
		{
			if (i + 1 == args.size())
			{
				*error = "option " + a + " needs a value";
				return false;
			}
			value = args[++i];
			has_value = true;
		}
		else if (!takes_value(name) && has_value)
		{
			*error = "option --" + name + " takes no value";
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
	int			chosen = o.hot_set + o.length_set + o.v7 + o.v4;

	if (chosen > 1)
	{
		*error = "choose one of --hot, --time-block, --v7 and --v4";
		return false;
	}
	*kind = o.hot_set ? Kind::hot : o.length_set ? Kind::time_block : o.v7 ? Kind::v7 :
		o.v4 ? Kind::v4 : Kind::locality;
	if (o.mode_set && *kind != Kind::locality)
	{
		*error = "--sequential and --variable are for locality uuids";
		return false;
	}
	if (o.ordered && *kind != Kind::v7)
	{
		*error = "--ordered is for --v7";
		return false;
	}
	if (o.upper && !(o.make && *kind == Kind::v7))
	{
		*error = "--upper is for --make --v7";
		return false;
	}
	if (o.at_set && !o.make && *kind != Kind::hot && *kind != Kind::v7)
	{
		*error = "--at is for --hot, --v7 and --make";
		return false;
	}
	if (o.counter_set && !o.make)
	{
		*error = "--counter is for --make";
		return false;
	}
	if (o.block_count_set && *kind != Kind::time_block)
	{
		*error = "--block-count is for --time-block and for explaining ids";
		return false;
	}
	return true;
}

// Read the clock as Unix seconds and nanoseconds within 1970 .. 9999, or complain.
bool
clock_now(int64_t *seconds, int64_t *ns)
{
	if (!read_clock(seconds, ns))
	{
		complain(std::string("could not read the system clock: ") + std::strerror(errno));
		return false;
	}
	if (*seconds < 0 || *seconds > clock_seconds_max)
	{
		complain("the system clock is outside 1970-01-01 .. 9999-12-31 UTC, the range the generators read");
		return false;
	}
	return true;
}

// Fill buf with random bytes, or complain.
bool
random_or_complain(uint8_t *buf, std::size_t len)
{
	if (random_bytes(buf, len))
		return true;
	complain(std::string("could not read random bytes (getrandom): ") + std::strerror(errno));
	return false;
}

// Random bytes for the core's generators, which report a failure as a Status.
bool
core_random(uint8_t *buf, std::size_t len)
{
	return random_bytes(buf, len);
}

// Say what a core Status means; Status::ok says nothing.
void
complain_status(Status st)
{
	switch (st)
	{
		case Status::ok:
			break;
		case Status::node_out_of_range:
			complain("the node does not fit in 28 bits");
			break;
		case Status::time_out_of_range:
			complain("the time is outside the range a locality uuid can carry");
			break;
		case Status::random_failed:
			complain(std::string("could not read random bytes (getrandom): ") + std::strerror(errno));
			break;
		case Status::digest_failed:
			complain("could not compute an MD5 digest");
			break;
		case Status::sequence_exhausted:
			complain("made 4294967296 sequential ids in this 10-minute bucket; the next run starts with the next bucket");
			break;
	}
}

/* The identity of the ids made: the options, or the defaults the extension has. */
struct Identity
{
	uint32_t	node;
	uint8_t		machine[hot_machine_len];
	uint16_t	process;
};

// Work out the identity: in make mode a field not given is 0, otherwise it is the system's.
bool
identity_of(const Options &o, Identity *id)
{
	id->node = o.node;
	if (!o.node_set && !o.make)
	{
		uint8_t		mac[6] = {0, 0, 0, 0, 0, 0};
		char		ifname[IF_NAMESIZE];

		/* The extension's rule for locality_uuid.node_id = -1 (src/os/mac.cpp). */
		first_mac(mac, ifname);
		id->node = node_from_mac(mac);
	}

	id->process = o.process_pid ? pid_field() : o.process;
	if (!o.process_set && !o.make)
		id->process = pid_field();

	std::memcpy(id->machine, o.machine, hot_machine_len);
	if (!o.machine_set && (o.machine_name_set || !o.make))
	{
		std::string host;

		if (hot_machine_from_host(o.machine_name.c_str()) && !host_name(&host))
		{
			complain(std::string("could not read the host name: ") + std::strerror(errno) +
					 " (give --machine-name)");
			return false;
		}

		Status		st = hot_machine_hash(o.machine_name.c_str(), host.c_str(), md5_digest, id->machine);

		if (st != Status::ok)
		{
			complain_status(st);
			return false;
		}
	}
	return true;
}

// Compose one id from the fields of o (the composers' rules); false with *error if a field is out of range.
bool
compose(const Options &o, Kind kind, uint8_t out[uuid_len], std::string *error)
{
	Identity	id;

	if (!o.at_set)
	{
		*error = "--make needs --at TIME";
		return false;
	}
	if (!identity_of(o, &id))
	{
		*error = "no machine hash";
		return false;
	}
	switch (kind)
	{
		case Kind::locality:
			{
				int64_t		ms = floor_div(o.at_us, 1000);

				if (ms < 0 || static_cast<uint64_t>(ms) > time_ms_max)
				{
					*error = "--at is outside the range of a locality uuid (1970-01-01 to 10889-08-02 05:31:50.655 UTC)";
					return false;
				}

				LocalityFields f{static_cast<uint32_t>(o.counter), id.process, id.node, static_cast<uint64_t>(ms)};

				return encode_b(f, o.mode, out) == Status::ok;
			}
		case Kind::hot:
			{
				if (o.counter > static_cast<int64_t>(hot_counter_max))
				{
					*error = "the counter of a shard-key uuid is 0 to 16777215";
					return false;
				}

				HotFields	f{hot_seconds(floor_div(o.at_us, usecs_per_sec)),
					{id.machine[0], id.machine[1], id.machine[2]}, id.process,
					static_cast<uint32_t>(o.counter), o.shard};

				return encode_hot(f, out);
			}
		case Kind::v7:
			{
				int64_t		ms = floor_div(o.at_us, 1000);

				if (o.counter_set || o.process_set || o.node_set || o.ordered)
				{
					*error = "--make --v7 takes --at and --upper only";
					return false;
				}
				if (ms < 0 || ms > v7_ms_max)
				{
					*error = "--at is outside the range of a version 7 uuid (1970-01-01 to 10889-08-02 05:31:50.655 UTC)";
					return false;
				}
				if (o.upper)
					v7_upper(ms, out);
				else
					v7_lower(ms, out);
				return true;
			}
		case Kind::time_block:
		case Kind::v4:
			break;
	}
	*error = "--make makes locality, shard-key (--hot) and version 7 (--v7) uuids";
	return false;
}

// Split a line into words at spaces and tabs.
std::vector<std::string>
words_of(const char *line, std::size_t len)
{
	std::vector<std::string> words;
	std::size_t i = 0;

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

/*
 * Call each(line, len, number) for every line of standard input without its line end and the
 * spaces around it, skipping empty lines; false if reading failed.
 */
template<typename Each>
bool
for_each_line(Each each)
{
	static char buf[1 << 20];
	std::size_t have = 0;
	uint64_t	number = 0;
	bool		eof = false;

	while (!eof)
	{
		ssize_t		n = read(STDIN_FILENO, buf + have, sizeof(buf) - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
		{
			complain(std::string("could not read standard input: ") + std::strerror(errno));
			return false;
		}
		eof = n == 0;
		have += static_cast<std::size_t>(n);

		std::size_t start = 0;

		for (;;)
		{
			char	   *nl = static_cast<char *>(std::memchr(buf + start, '\n', have - start));
			std::size_t end;

			if (nl != nullptr)
				end = static_cast<std::size_t>(nl - buf);
			else if (eof && start < have)
				end = have;
			else if (!eof && start == 0 && have == sizeof(buf))
			{
				complain("line " + std::to_string(number + 1) + " of standard input is longer than 1 MB");
				return false;
			}
			else
				break;
			number++;

			std::size_t b = start;
			std::size_t e = end;

			while (b < e && (buf[b] == ' ' || buf[b] == '\t' || buf[b] == '\r'))
				b++;
			while (e > b && (buf[e - 1] == ' ' || buf[e - 1] == '\t' || buf[e - 1] == '\r'))
				e--;
			if (e > b)
				each(buf + b, e - b, number);
			start = end + 1;
			if (start > have)
				start = have;
		}
		std::memmove(buf, buf + start, have - start);
		have -= start;
	}
	return true;
}

// Explain every id of o.ids (and standard input for "-"); return the exit code.
int
run_explain(const Options &o)
{
	ExplainOptions eo;

	eo.json = o.json;
	eo.all = o.all;
	eo.block_count = o.block_count;
	eo.as_of_us = o.as_of_set ? o.as_of_us : start_us;
	if (o.length_set)
	{
		BlockStatus st = time_block_layout(o.length_us, o.block_count, &eo.layout);

		if (st != BlockStatus::ok)
		{
			complain("--time-block: the length must be 1 ms to 2147483647 s");
			return exit_usage;
		}
		eo.time_blocks = true;
	}

	Output		out(STDOUT_FILENO);
	bool		malformed = false;
	uint8_t		id[uuid_len];
	std::vector<std::string> ids = o.ids;

	if (o.inspect && ids.empty())
		ids.push_back("-");
	for (std::size_t i = 0; i < ids.size(); i++)
	{
		const std::string &a = ids[i];

		if (a == "-")
		{
			bool		read_ok = for_each_line([&](const char *line, std::size_t len, uint64_t number) {
				if (parse_uuid(line, len, id))
					explain_with_facade(id, o.facade, eo, out);
				else
				{
					out.flush();
					complain("line " + std::to_string(number) + ": not a uuid: " + quoted(line, len));
					malformed = true;
				}
			});

			if (!read_ok)
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
	}
	if (!out.flush())
	{
		complain(std::string("could not write the output: ") + std::strerror(errno));
		return exit_failure;
	}
	return malformed ? exit_bad_input : exit_ok;
}

// Make one id from the command line's fields, or one per line of standard input; return the exit code.
int
run_make(const Options &o, Kind kind)
{
	Output		out(STDOUT_FILENO);
	uint8_t		id[uuid_len];
	std::string error;
	bool		from_input = !o.ids.empty();

	if (from_input && (o.ids.size() != 1 || o.ids[0] != "-"))
	{
		complain("--make takes '-' (field lines on standard input) or no argument");
		return exit_usage;
	}
	if (!from_input)
	{
		if (!compose(o, kind, id, &error))
		{
			complain(error);
			return exit_usage;
		}
		out.put_uuid(id);
		out.put('\n');
	}
	else
	{
		bool		malformed = false;
		bool		read_ok = for_each_line([&](const char *line, std::size_t len, uint64_t number) {
			Options		l = o;
			Kind		k;

			l.ids.clear();
			if (!parse_arguments(words_of(line, len), true, &l, &error) || !choose_kind(l, &k, &error) ||
				!compose(l, k, id, &error))
			{
				out.flush();
				complain("line " + std::to_string(number) + ": " + error);
				malformed = true;
				return;
			}
			out.put_uuid(id);
			out.put('\n');
		});

		if (!read_ok)
			return exit_failure;
		if (malformed)
		{
			out.flush();
			return exit_bad_input;
		}
	}
	if (!out.flush())
	{
		complain(std::string("could not write the output: ") + std::strerror(errno));
		return exit_failure;
	}
	return exit_ok;
}

// Make o.count ids of the chosen kind from the clock and the identity; return the exit code.
int
run_generate(const Options &o, Kind kind)
{
	Identity	ident;
	TimeBlockLayout layout = {};

	if (!identity_of(o, &ident))
		return exit_failure;
	if (kind == Kind::time_block && time_block_layout(o.length_us, o.block_count, &layout) != BlockStatus::ok)
	{
		complain("--time-block: the length must be 1 ms to 2147483647 s");
		return exit_usage;
	}
	if (kind == Kind::v7 && o.at_set && (floor_div(o.at_us, 1000) < 0 || floor_div(o.at_us, 1000) > v7_ms_max))
	{
		complain("--at is outside the range of a version 7 uuid (1970-01-01 to 10889-08-02 05:31:50.655 UTC)");
		return exit_usage;
	}

	Output		out(STDOUT_FILENO);
	LocalityGenerator locality;
	uint64_t	run_word = seq_word_empty;	/* the tool holds its sequential run alone */
	HotGenerator hot;
	HotEnvironment hot_env{0, {ident.machine[0], ident.machine[1], ident.machine[2]}, ident.process, nullptr};
	V7Clock		v7_clock;
	V7Time		v7_now;
	uint64_t	v7_previous = 0;
	Allocator	allocations(kind == Kind::hot ? hot_allocation_bits : v7_allocation_bits);
	AllocationStatus allocation_status;
	uint8_t		id[uuid_len];
	uint8_t		random[uuid_len];

	/*
	 * Explicit-time ids take allocation numbers on from a random number within their bits, as
	 * the tool has no sequence to draw them from: ids of one run never repeat each other, two
	 * runs repeat only if their numbers overlap, and a run that reaches the last number stops.
	 */
	auto		draw_allocations = [&]() -> bool {
		uint8_t		r[8];

		if (!random_or_complain(r, sizeof(r)))
			return false;

		uint64_t	first = get_be(r, 8) & (allocations.limit() - 1);

		allocations.add(first, allocations.limit() - first);
		return true;
	};

	for (uint64_t i = 0; i < o.count; i++)
	{
		int64_t		sec;
		int64_t		ns;

		if (!clock_now(&sec, &ns))
			return exit_failure;
		switch (kind)
		{
			case Kind::locality:
				{
					Environment env{sec * 1000 + ns / 1000000, ident.process, ident.node, nullptr};
					Status		st = next_alone(locality, o.mode, env, core_random, md5_digest, &run_word, id);

					if (st != Status::ok)
					{
						complain_status(st);
						return exit_failure;
					}
					break;
				}
			case Kind::hot:
				{
					hot_env.wall_tick = hot_tick_at(sec, ns);
					if (!o.at_set)
					{
						hot.next(o.shard, hot_env, id);
						break;
					}

					int64_t		second = floor_div(o.at_us, usecs_per_sec);
					while ((allocation_status = hot.next_at(o.shard, second, hot_env, &allocations, id)) !=
						   AllocationStatus::ok)
					{
						if (allocation_status == AllocationStatus::exhausted)
						{
							complain("made the shard-key ids of the last allocation numbers that an explicit time can carry");
							return exit_failure;
						}
						if (!draw_allocations())
							return exit_failure;
					}
					break;
				}
			case Kind::time_block:
				if (!random_or_complain(random, uuid_len - static_cast<std::size_t>(layout.prefix_bits / 8)))
					return exit_failure;
				encode_prefix(time_block_prefix(sec * usecs_per_sec + ns / 1000, layout), layout.prefix_bits,
							  random, id);
				break;
			case Kind::v7:
				v7_now = V7Time{sec * 1000 + ns / 1000000, static_cast<int32_t>(ns % 1000000)};
				if (!random_or_complain(random, 8))
					return exit_failure;
				if (o.at_set)
				{
					int64_t		ms = floor_div(o.at_us, 1000);
					uint64_t	allocation;
					while ((allocation_status = allocations.next(&allocation)) != AllocationStatus::ok)
					{
						if (allocation_status == AllocationStatus::exhausted)
						{
							complain("made the version 7 ids of the last allocation numbers that an explicit time can carry");
							return exit_failure;
						}
						if (!draw_allocations())
							return exit_failure;
					}
					encode_v7_explicit(ms, allocation, random, id);
				}
				else if (o.ordered)
				{
					uint64_t	word = v7_word_after(v7_previous, v7_word(v7_now));

					if (v7_word_ms(word) > v7_ms_max)
					{
						complain("the ordered version 7 ids ran past the last millisecond they can carry");
						return exit_failure;
					}
					v7_previous = word;
					encode_v7_ordered(word, random, id);
				}
				else
				{
					V7Time		t = v7_clock.next(v7_now);

					encode_v7(t.ms, v7_subms(t.ns), random, id);
				}
				break;
			case Kind::v4:
				if (!random_or_complain(random, uuid_len))
					return exit_failure;
				encode_v4(random, id);
				break;
		}
		facade_of_made(o.facade, id);
		out.put_uuid(id);
		out.put('\n');
	}
	if (!out.flush())
	{
		complain(std::string("could not write the output: ") + std::strerror(errno));
		return exit_failure;
	}
	return exit_ok;
}

}							// namespace

int
main(int argc, char **argv)
{
	Options		o;
	std::string error;
	Kind		kind;
	int64_t		sec;
	int64_t		ns;

	if (!clock_now(&sec, &ns))
		return exit_failure;
	start_us = sec * usecs_per_sec + ns / 1000;

	if (!parse_arguments(std::vector<std::string>(argv + 1, argv + argc), false, &o, &error))
	{
		complain(error);
		std::fprintf(stderr, "Try '%s --help'.\n", program);
		return exit_usage;
	}
	if (o.help)
	{
		std::fputs(usage_text, stdout);
		return std::fflush(stdout) == 0 ? exit_ok : exit_failure;
	}
	if (o.version)
	{
		std::printf("%s (locality_uuid) %s\n", program, LOCALITY_UUID_VERSION);
		return std::fflush(stdout) == 0 ? exit_ok : exit_failure;
	}

	bool		explaining = (!o.ids.empty() || o.inspect) && !o.make;

	if (explaining)
	{
		if (o.count_set || o.mode_set || o.hot_set || o.at_set || o.v7 || o.ordered || o.v4 ||
			o.upper || o.node_set || o.machine_name_set || o.machine_set || o.process_set || o.counter_set)
		{
			complain("options for making ids were given with ids to explain");
			return exit_usage;
		}
		return run_explain(o);
	}
	if (o.json || o.all || o.as_of_set || o.inspect)
	{
		complain("--json, --all, --as-of and --inspect are for explaining ids; give ids, or -i");
		return exit_usage;
	}
	if (!choose_kind(o, &kind, &error))
	{
		complain(error);
		return exit_usage;
	}
	if (o.facade.set && (kind != Kind::v7 || o.make))
	{
		complain("--facade-key and --facade-key-file are for --v7 and for explaining ids");
		return exit_usage;
	}
	if (o.make)
	{
		if (o.count_set)
		{
			complain("--make makes one id (or one per line with '-'); -n is for the generators");
			return exit_usage;
		}
		return run_make(o, kind);
	}
	return run_generate(o, kind);
}
