// The MAC the node field falls back on, read from the system: shared by the extension and the command-line tool.
#pragma once

#include <cstdint>
#include <net/if.h>

namespace locality_uuid
{

// Find the MAC of the first interface that is not loopback and not all zeros, preferring those
// that are up; copy that interface's name into ifname. False if there is none.
bool first_mac(uint8_t mac[6], char ifname[IF_NAMESIZE]) noexcept;

} // namespace locality_uuid
