// What the generators read from the server and the system: the backend's process field and
// node, the clock, strong random bytes and MD5 digests.
#include "glue.hpp"

#include <cstring>
#include <ctime>

extern "C" {
#include "common/md5.h"
#include "miscadmin.h"
#include "storage/proc.h"
}

namespace locality_uuid
{

/*
 * Process field. "backend" is the backend's PGPROC slot number: two live processes of
 * one cluster never hold the same slot, so their ids differ in bytes 4..5 whatever their
 * counters and clocks do. "pid" is the OS pid mod 65536, as the reference libraries do;
 * it is unique among live backends only while the kernel's pid_max is at most 65536.
 */
int
slot_number()
{
	if (MyProc == NULL)
		return -1;
#if PG_VERSION_NUM >= 170000
	return MyProcNumber;
#else
	return MyProc->pgprocno;
#endif
}

uint16_t
process_field()
{
	if (setting_process_field == PROCESS_FIELD_PID)
		return static_cast<uint16_t>(MyProcPid & 0xFFFF);

	int slot = slot_number();

	if (slot < 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("this process has no backend slot"),
				 errhint("Set locality_uuid.process_field to \"pid\".")));
	if (slot > 0xFFFF)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("backend slot %d does not fit the 16-bit process field", slot),
				 errhint("Lower max_connections so that the cluster has at most 65536 process slots.")));
	return static_cast<uint16_t>(slot);
}

/* The MAC this backend read (once, on first use), and where from. */
static bool    mac_read = false;
static bool    mac_found = false;
static uint8_t mac_bytes[6] = {0, 0, 0, 0, 0, 0};
static char    mac_ifname[IF_NAMESIZE] = "";

bool
node_mac(uint8_t mac[6], const char **ifname)
{
	if (!mac_read)
	{
		mac_found = first_mac(mac_bytes, mac_ifname);
		mac_read = true;
	}
	memcpy(mac, mac_bytes, 6);
	*ifname = mac_found ? mac_ifname : NULL;
	return mac_found;
}

uint32_t
node_id()
{
	static bool     mac_node_set = false;
	static uint32_t mac_node = 0;

	if (setting_node_id >= 0)
		return static_cast<uint32_t>(setting_node_id);
	if (!mac_node_set)
	{
		uint8_t     mac[6];
		const char *ifname;

		node_mac(mac, &ifname);
		mac_node = node_from_mac(mac);
		mac_node_set = true;
	}
	return mac_node;
}

/*
 * The system clock (CLOCK_REALTIME, the clock gettimeofday reads) at nanosecond resolution,
 * refused outside 1970-01-01 .. 9999-12-31 UTC: every generator reads it here, so a clock that
 * is briefly far off raises 22008 and leaves no mark, and each slot is healthy once it is back.
 */
static struct timespec
read_clock()
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("could not read the system clock: %m")));
	if (ts.tv_sec < 0 || ts.tv_sec > clock_seconds_max)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("system clock is out of the range the generators read"),
				 errdetail("The system clock reads %lld seconds from 1970-01-01 UTC; the generators "
						   "read it from 0 to %lld (1970-01-01 to 9999-12-31 UTC).",
						   static_cast<long long>(ts.tv_sec),
						   static_cast<long long>(clock_seconds_max))));
	return ts;
}

int64_t
wall_ms()
{
	struct timespec ts = read_clock();

	return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

int64_t
wall_us()
{
	struct timespec ts = read_clock();

	return static_cast<int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

V7Time
wall_v7()
{
	struct timespec ts = read_clock();

	return V7Time{static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000,
				  static_cast<int32_t>(ts.tv_nsec % 1000000)};
}

int64_t
wall_tick()
{
	struct timespec ts = read_clock();

	return hot_tick_at(ts.tv_sec, ts.tv_nsec);
}

/*
 * Random pool: one pg_strong_random call per pool, not per id. It is filled lazily, in
 * the process that uses it, and refilled when MyProcPid says we are in another process
 * than the one that filled it, so a forked child never reuses its parent's bytes.
 * Bytes handed out are wiped from the pool.
 */
static uint8_t     pool[4096];
static std::size_t pool_pos = sizeof(pool);
static int         pool_pid = 0;

bool
random_bytes(uint8_t *buf, std::size_t len)
{
	if (pool_pid != MyProcPid)
	{
		pool_pos = sizeof(pool);
		pool_pid = MyProcPid;
	}
	while (len > 0)
	{
		if (pool_pos == sizeof(pool))
		{
			if (!pg_strong_random(pool, sizeof(pool)))
				return false;
			pool_pos = 0;
		}

		std::size_t n = Min(len, sizeof(pool) - pool_pos);

		memcpy(buf, pool + pool_pos, n);
		memset(pool + pool_pos, 0, n);
		pool_pos += n;
		buf += n;
		len -= n;
	}
	return true;
}

bool
md5(const char *text, std::size_t len, uint8_t digest[digest_len])
{
	const char *errstr = NULL;

	return pg_md5_binary(text, len, digest, &errstr);
}

} // namespace locality_uuid
