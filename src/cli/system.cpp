// What the command-line tool reads from the system: random bytes, the clock, the MAC, the host name, the pid.
#include "system.hpp"

#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <sys/random.h>
#include <unistd.h>

namespace locality_uuid
{

/* One getrandom call per pool, not per id; bytes handed out are wiped from the pool. */
static uint8_t     pool[4096];
static std::size_t pool_pos = sizeof(pool);

// Fill the whole pool from the kernel, waiting out interruptions.
static bool
fill_pool()
{
	std::size_t done = 0;

	while (done < sizeof(pool))
	{
		ssize_t n = getrandom(pool + done, sizeof(pool) - done, 0);

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
host_name(std::string *name)
{
	char host[HOST_NAME_MAX + 1];

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

} // namespace locality_uuid
