// What the command-line tool's generators take from the system: identity, clock, random bytes; and how it says they failed.
#include "identity.hpp"
#include "input.hpp"

#include "os/mac.hpp"
#include "md5.hpp"
#include "system.hpp"

#include <cerrno>
#include <cstring>

namespace locality_uuid
{

namespace
{

// Work out the machine hash from --machine-name or the host name.
bool
machine_of(const Options &o, uint8_t machine[hot_machine_len])
{
	std::string host;

	if (hot_machine_from_host(o.machine_name.c_str()) && !host_name(&host))
	{
		complain(std::string("could not read the host name: ") + std::strerror(errno) + " (give --machine-name)");
		return false;
	}

	Status st = hot_machine_hash(o.machine_name.c_str(), host.c_str(), md5_digest, machine);

	complain_status(st);
	return st == Status::ok;
}

} // namespace

bool
identity_of(const Options &o, Identity *id)
{
	id->node = o.node;
	if (!o.node_set && !o.make)
	{
		uint8_t mac[6] = {0, 0, 0, 0, 0, 0};
		char    ifname[IF_NAMESIZE];

		/* The extension's rule for locality_uuid.node_id = -1 (src/os/mac.cpp). */
		first_mac(mac, ifname);
		id->node = node_from_mac(mac);
	}
	id->process = o.process_pid || (!o.process_set && !o.make) ? pid_field() : o.process;
	std::memcpy(id->machine, o.machine, hot_machine_len);
	if (!o.machine_set && (o.machine_name_set || !o.make))
		return machine_of(o, id->machine);
	return true;
}

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

bool
random_or_complain(uint8_t *buf, std::size_t len)
{
	if (random_bytes(buf, len))
		return true;
	complain(std::string("could not read random bytes (getrandom): ") + std::strerror(errno));
	return false;
}

bool
core_random(uint8_t *buf, std::size_t len)
{
	return random_bytes(buf, len);
}

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

int
output_failed(const Output &out)
{
	complain(std::string("could not write the output: ") + std::strerror(out.error()));
	return exit_failure;
}

int
input_failed()
{
	complain(std::string("could not read standard input: ") + std::strerror(errno));
	return exit_failure;
}

int
finish(Output &out, int code)
{
	if (!out.flush())
		return output_failed(out);
	return code;
}

int
ids_of_lines(const Options &o, bool exact, LineToId make, Output &out)
{
	LineReader  lines(exact);
	const char *line;
	std::size_t len;
	uint8_t     id[uuid_len];
	std::string error;
	int         code = exit_ok;

	for (;;)
	{
		LineReader::Got got = lines.next(&line, &len);

		if (got == LineReader::Got::end || got == LineReader::Got::failed)
			return got == LineReader::Got::failed ? input_failed() : finish(out, code);
		if (got == LineReader::Got::too_long)
			error = "longer than " + std::to_string(line_max) + " bytes";
		if (got == LineReader::Got::too_long || !make(o, line, len, id, &error))
		{
			out.flush();
			complain("line " + std::to_string(lines.number()) + ": " + error);
			code = exit_bad_input;
			continue;
		}
		out.put_uuid(id);
		out.end_line();
		if (!out.ok())
			return output_failed(out);
	}
}

} // namespace locality_uuid
