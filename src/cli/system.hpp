// What the command-line tool reads from the system: random bytes, the clock, the MAC, the host name, the pid.
#pragma once

#include "core/fields.hpp"

#include <string>

namespace locality_uuid
{

// Fill buf from a pool of getrandom(2) bytes; false if the kernel's source failed (errno set).
bool random_bytes(uint8_t *buf, std::size_t len);

// Read the system clock (CLOCK_REALTIME) as Unix seconds and nanoseconds; false on failure.
bool read_clock(int64_t *seconds, int64_t *nanoseconds);

// Read the host name (gethostname); false on failure.
bool host_name(std::string *name);

// Return the pid mod 65536: the extension's process field with locality_uuid.process_field = pid.
uint16_t pid_field();

} // namespace locality_uuid
