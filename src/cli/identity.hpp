// What the command-line tool's generators take from the system: identity, clock, random bytes; and how it says they failed.
#pragma once

#include "core/fields.hpp"
#include "core/hot.hpp"
#include "options.hpp"
#include "text.hpp"

namespace locality_uuid
{

/* The identity of the ids made: the options, or the defaults the extension has. */
struct Identity
{
	uint32_t node;
	uint8_t  machine[hot_machine_len];
	uint16_t process;
};

// Work out the identity: in make mode a field not given is 0, otherwise it is the system's.
bool identity_of(const Options &o, Identity *id);

// Read the clock as Unix seconds and nanoseconds within 1970 .. 9999, or complain.
bool clock_now(int64_t *seconds, int64_t *ns);

// Fill buf with random bytes, or complain.
bool random_or_complain(uint8_t *buf, std::size_t len);

// Random bytes for the core's generators, which report a failure as a Status.
bool core_random(uint8_t *buf, std::size_t len);

// Say what a core Status means; Status::ok says nothing.
void complain_status(Status st);

// Say that the output failed, and why; return exit_failure.
int output_failed(const Output &out);

// Say that reading standard input failed, and why; return exit_failure.
int input_failed();

// Write out what is left; return exit code code, or exit_failure if the output failed.
int finish(Output &out, int code);

/* Makes the id of one line of input; false with *error for a bad line. */
typedef bool (*LineToId)(const Options &o, const char *line, std::size_t len, uint8_t id[uuid_len],
						 std::string *error);

// Write the id make gives for each line of standard input (exact: lines as LineReader takes them); return the exit code.
int ids_of_lines(const Options &o, bool exact, LineToId make, Output &out);

} // namespace locality_uuid
