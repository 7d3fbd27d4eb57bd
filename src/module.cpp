// Module entry: settings, per-backend identity, clock, random pool and shared helpers.
#include "glue.hpp"

#include <cstring>
#include <ctime>

extern "C" {
#include "access/xact.h"
#include "access/xlog.h"
#include "commands/sequence.h"
#include "common/md5.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"

PG_MODULE_MAGIC;

void		_PG_init(void);
}

namespace locality_uuid
{

int			setting_counter_mode = static_cast<int>(CounterMode::variable);
int			setting_node_id = -1;
int			setting_process_field = PROCESS_FIELD_BACKEND;
char	   *setting_machine_name = NULL;
bool		machine_name_changed = true;

static const struct config_enum_entry counter_mode_options[] = {
	{"variable", static_cast<int>(CounterMode::variable), false},
	{"sequential", static_cast<int>(CounterMode::sequential), false},
	{NULL, 0, false}
};

static const struct config_enum_entry process_field_options[] = {
	{"backend", PROCESS_FIELD_BACKEND, false},
	{"pid", PROCESS_FIELD_PID, false},
	{NULL, 0, false}
};

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

	int			slot = slot_number();

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
static bool mac_read = false;
static bool mac_found = false;
static uint8_t mac_bytes[6] = {0, 0, 0, 0, 0, 0};
static char mac_ifname[IF_NAMESIZE] = "";

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
	static bool mac_node_set = false;
	static uint32_t mac_node = 0;

	if (setting_node_id >= 0)
		return static_cast<uint32_t>(setting_node_id);
	if (!mac_node_set)
	{
		uint8_t		mac[6];
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

/* Milliseconds from the Unix epoch to PostgreSQL's (2000-01-01). */
static constexpr int64_t pg_epoch_unix_ms =
	(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * INT64CONST(1000);

/*
 * Random pool: one pg_strong_random call per pool, not per id. It is filled lazily, in
 * the process that uses it, and refilled when MyProcPid says we are in another process
 * than the one that filled it, so a forked child never reuses its parent's bytes.
 * Bytes handed out are wiped from the pool.
 */
static uint8_t pool[4096];
static std::size_t pool_pos = sizeof(pool);
static int	pool_pid = 0;

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

int64_t
timestamptz_to_unix_ms(TimestampTz ts, const char *argname)
{
	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("%s must be a finite timestamp", argname)));
	return floor_div(ts, 1000) + pg_epoch_unix_ms;
}

TimestampTz
unix_ms_to_timestamptz(int64_t ms)
{
	return (ms - pg_epoch_unix_ms) * 1000;
}

void
check_range(const char *argname, int64_t v, int64_t lo, int64_t hi, const char *hint)
{
	if (v < lo || v > hi)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("%s %lld is out of range", argname, static_cast<long long>(v)),
				 errdetail("The %s must be between %lld and %lld.", argname,
						   static_cast<long long>(lo), static_cast<long long>(hi)),
				 hint != NULL ? errhint("%s", hint) : 0));
}

void
report_status(Status st)
{
	switch (st)
	{
		case Status::ok:
			return;
		case Status::node_out_of_range:
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("node %u does not fit in 28 bits", node_id())));
			break;
		case Status::time_out_of_range:
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
					 errmsg("system clock is out of the range a locality uuid can carry"),
					 errdetail("A locality uuid carries times from 1970-01-01 UTC to 10889-08-02 UTC "
							   "in variable mode and to 9999-12-31 UTC in sequential mode.")));
			break;
		case Status::sequence_exhausted:
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("sequential counter exhausted for this 10-minute bucket"),
					 errdetail("The cluster made 4294967296 sequential ids in the current run; "
							   "the next run starts with the next bucket.")));
			break;
		case Status::random_failed:
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate random values")));
			break;
		case Status::digest_failed:
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not compute an MD5 digest")));
			break;
	}
}

Oid
extension_sequence(FunctionCallInfo fcinfo, const char *name, const char *user)
{
	Oid			schema = get_func_namespace(fcinfo->flinfo->fn_oid);
	Oid			seq = get_relname_relid(name, schema);

	if (!OidIsValid(seq))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sequence %s.%s does not exist", get_namespace_name(schema), name),
				 errdetail("%s needs that sequence of the extension.", user),
				 errhint("Run ALTER EXTENSION locality_uuid UPDATE.")));
	if (RecoveryInProgress() || XactReadOnly)
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("%s cannot run in a read-only transaction", user),
				 errdetail("It advances a sequence, which a read-only transaction or a standby cannot do."),
				 errhint("Call it on the primary, in a read-write transaction.")));
	return seq;
}

uint64_t
allocation_range_start(FunctionCallInfo fcinfo, const char *sequence, const char *user, uint32_t range)
{
	Oid			seq = extension_sequence(fcinfo, sequence, user);

	return static_cast<uint64_t>(nextval_internal(seq, false)) * range;
}

TupleDesc
result_tupdesc(FunctionCallInfo fcinfo)
{
	TupleDesc	tupdesc;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("function returning record called in context that cannot accept type record")));
	return BlessTupleDesc(tupdesc);
}

pg_uuid_t *
make_uuid(const uint8_t bytes[uuid_len])
{
	pg_uuid_t  *u = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));

	memcpy(u->data, bytes, uuid_len);
	return u;
}

}							// namespace locality_uuid

using namespace locality_uuid;

// Note that hot_uuid's machine hash must be recomputed (runs on SET, RESET and rollback too).
static void
assign_machine_name(const char *, void *)
{
	machine_name_changed = true;
}

/*
 * Settings, and on 15 and 16 under shared_preload_libraries the request for shared memory;
 * per-backend state (counters, random pool, MAC) is made lazily on first use, since with
 * shared_preload_libraries this runs in the postmaster.
 */
void
_PG_init(void)
{
	DefineCustomEnumVariable("locality_uuid.counter_mode",
							 "Counter mode of locality_uuid(): variable or sequential.",
							 "variable spreads consecutive ids over the key space; sequential "
							 "clusters them, starting from a seed shared by every process in the "
							 "same 10-minute UTC bucket.",
							 &setting_counter_mode,
							 static_cast<int>(CounterMode::variable),
							 counter_mode_options,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("locality_uuid.node_id",
							"28-bit node field of locality uuids; -1 takes the low 28 bits of the MAC.",
							"Set a distinct value per cluster where clusters share a MAC: several "
							"clusters on one host, cloned virtual machines, containers.",
							&setting_node_id,
							-1, -1, static_cast<int>(node_max),
							PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomEnumVariable("locality_uuid.process_field",
							 "Source of the 16-bit process field: backend (slot number) or pid.",
							 "backend is unique among the cluster's live processes; pid (OS pid "
							 "mod 65536) matches the reference libraries but repeats when pid_max "
							 "exceeds 65536.",
							 &setting_process_field,
							 PROCESS_FIELD_BACKEND,
							 process_field_options,
							 PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("locality_uuid.machine_name",
							   "Name whose MD5 gives the machine hash of hot_uuid(); empty takes the host name up to its first dot.",
							   "Set a distinct value per cluster where clusters share a host name: several "
							   "clusters on one host, containers with the same host name.",
							   &setting_machine_name,
							   "",
							   PGC_SUSET, 0, NULL, assign_machine_name, NULL);
	state_preload();
#if PG_VERSION_NUM >= 150000
	MarkGUCPrefixReserved("locality_uuid");
#else
	EmitWarningsOnPlaceholders("locality_uuid");
#endif
}
