// The MAC the node field falls back on: the first suitable interface of getifaddrs.
#include "mac.hpp"

#include <cstring>
#include <ifaddrs.h>
#include <netpacket/packet.h>

namespace locality_uuid
{

bool
first_mac(uint8_t mac[6], char ifname[IF_NAMESIZE]) noexcept
{
	struct ifaddrs *list;
	bool            found = false;

	if (getifaddrs(&list) != 0)
		return false;
	for (int want_up = 1; want_up >= 0 && !found; want_up--)
	{
		for (struct ifaddrs *ifa = list; ifa != nullptr; ifa = ifa->ifa_next)
		{
			if (ifa->ifa_addr == nullptr || ifa->ifa_addr->sa_family != AF_PACKET)
				continue;
			if ((ifa->ifa_flags & IFF_LOOPBACK) != 0)
				continue;
			if (want_up && (ifa->ifa_flags & IFF_UP) == 0)
				continue;

			const struct sockaddr_ll *ll = reinterpret_cast<const struct sockaddr_ll *>(ifa->ifa_addr);
			static const uint8_t      zeros[6] = {0, 0, 0, 0, 0, 0};

			if (ll->sll_halen != 6 || std::memcmp(ll->sll_addr, zeros, 6) == 0)
				continue;
			std::memcpy(mac, ll->sll_addr, 6);
			std::strncpy(ifname, ifa->ifa_name, IF_NAMESIZE - 1);
			ifname[IF_NAMESIZE - 1] = '\0';
			found = true;
			break;
		}
	}
	freeifaddrs(list);
	return found;
}

} // namespace locality_uuid
