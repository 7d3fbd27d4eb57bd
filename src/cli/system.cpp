// What the command-line tool reads from the system: random bytes, the clock, the MAC, the host name, the pid.
#include "system.hpp"

#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <ifaddrs.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <sys/random.h>
#include <unistd.h>

namespace locality_uuid
{

/* One getrandom call per pool, not per id; bytes handed out are wiped from the pool. */
static uint8_t pool[4096];
static std::size_t pool_pos = sizeof(pool);

// Fill the whole pool from the kernel, waiting out interruptions.
static bool
fill_pool()
{
	std::size_t done = 0;

	while (done < sizeof(pool))
	{
		ssize_t		n = getrandom(pool + done, sizeof(pool) - done, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += static_cast<std::size_t>(n);
	}
	pool_pos = 0;
	return true;
}

bool
random_bytes(uint8_t *buf, std::size_t len)
{
	while (len > 0)
	{
		if (pool_pos == sizeof(pool) && !fill_pool())
			return false;

		std::size_t n = len < sizeof(pool) - pool_pos ? len : sizeof(pool) - pool_pos;

		std::memcpy(buf, pool + pool_pos, n);
		std::memset(pool + pool_pos, 0, n);
		pool_pos += n;
		buf += n;
		len -= n;
	}
	return true;
}

bool
read_clock(int64_t *seconds, int64_t *nanoseconds)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return false;
	*seconds = ts.tv_sec;
	*nanoseconds = ts.tv_nsec;
	return true;
}

bool
first_mac(uint8_t mac[6], std::string *ifname)
{
	struct ifaddrs *list;
	bool		found = false;

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
			static const uint8_t zeros[6] = {0, 0, 0, 0, 0, 0};

			if (ll->sll_halen != 6 || std::memcmp(ll->sll_addr, zeros, 6) == 0)
				continue;
			std::memcpy(mac, ll->sll_addr, 6);
			*ifname = ifa->ifa_name;
			found = true;
			break;
		}
	}
	freeifaddrs(list);
	return found;
}

bool
host_name(std::string *name)
{
	char		host[HOST_NAME_MAX + 1];

	if (gethostname(host, sizeof(host)) != 0)
		return false;
	host[sizeof(host) - 1] = '\0';
	*name = host;
	return true;
}

uint16_t
pid_field()
{
	return static_cast<uint16_t>(getpid() & 0xFFFF);
}

}							// namespace locality_uuid
