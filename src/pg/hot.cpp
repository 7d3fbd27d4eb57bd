// SQL functions of the shard-key UUID (HotGuid layout): generators, extractors, boundary, composer.
#include "glue.hpp"

#include <cstring>
#include <unistd.h>

extern "C" {
#include "utils/builtins.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

PG_FUNCTION_INFO_V1(hot_uuid_generate);
PG_FUNCTION_INFO_V1(hot_uuid_generate_at);
PG_FUNCTION_INFO_V1(hot_uuid_shard_key);
PG_FUNCTION_INFO_V1(hot_uuid_timestamp);
PG_FUNCTION_INFO_V1(hot_uuid_time_decoder);
PG_FUNCTION_INFO_V1(hot_uuid_boundary);
PG_FUNCTION_INFO_V1(hot_uuid_machine);
PG_FUNCTION_INFO_V1(hot_uuid_process);
PG_FUNCTION_INFO_V1(hot_uuid_counter);
PG_FUNCTION_INFO_V1(hot_uuid_make);
PG_FUNCTION_INFO_V1(hot_uuid_made_since);
PG_FUNCTION_INFO_V1(hot_uuid_made_before);
PG_FUNCTION_INFO_V1(hot_uuid_made_check_support);
PG_FUNCTION_INFO_V1(hot_uuid_made_check);
PG_FUNCTION_INFO_V1(hot_uuid_made_support);
PG_FUNCTION_INFO_V1(hot_uuid_made);
PG_FUNCTION_INFO_V1(hot_uuid_made_after);
PG_FUNCTION_INFO_V1(hot_uuid_made_through);
PG_FUNCTION_INFO_V1(hot_uuid_timestamp_support);
}

using namespace locality_uuid;

/* This backend's generator (its slot's marks are shared when they can be) and machine hash. */
static HotGenerator generator;
static uint8_t      machine[hot_machine_len];

/*
 * Allocation numbers of explicit-time ids (39 bits) come from this sequence of the extension,
 * in ranges (take_allocations). A sequence is WAL-logged, so after a crash or a promotion it
 * never hands out a value again, pg_upgrade keeps it, and pg_dump dumps its value
 * (pg_extension_config_dump); it lives in the schema of the calling function.
 */
static SequenceAllocations allocations = {hot_allocation_sequence, "hot_uuid at an explicit time",
										  Allocator(hot_allocation_bits), 0};

static const char shard_key_hint[] =
	"A shard key is an unsigned 32-bit number, as HotGuid's uint; "
	"pass a signed 32-bit key k as k::bigint & 4294967295.";

/* The part of the host name that the machine hash was made of, when it was made of one. */
static char hashed_host[256 + 1];

// Recompute the machine hash if locality_uuid.machine_name was assigned since the last id.
static void
refresh_machine()
{
	char        host[256 + 1];
	const char *host_name = NULL;

	if (!machine_name_changed)
		return;
	if (hot_machine_from_host(setting_machine_name))
	{
		if (gethostname(host, sizeof(host) - 1) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_SYSTEM_ERROR),
					 errmsg("could not read the host name: %m"),
					 errhint("Set locality_uuid.machine_name.")));
		host[sizeof(host) - 1] = '\0';
		host_name = host;

		std::size_t len = hot_host_name_length(host);

		memcpy(hashed_host, host, len);
		hashed_host[len] = '\0';
	}
	/* The name hashed and the bytes kept: the core's rule (hot_machine_hash). */
	report_status(hot_machine_hash(setting_machine_name, host_name, md5, machine));
	machine_name_changed = false;
}

void
locality_uuid::machine_hash(uint8_t out[hot_machine_len], const char **host_name)
{
	refresh_machine();
	memcpy(out, machine, hot_machine_len);
	*host_name = hot_machine_from_host(setting_machine_name) ? hashed_host : NULL;
}

// Gather the clock, machine hash and process field for one generated id.
static HotEnvironment
environment()
{
	refresh_machine();

	HotEnvironment env{wall_tick(), {machine[0], machine[1], machine[2]}, process_field(), state_slot()};

	return env;
}

// Read argument argno as a shard key, raising 22003 outside 0 .. 2^32 - 1.
static uint32_t
shard_key_arg(FunctionCallInfo fcinfo, int argno)
{
	int64 shard = PG_GETARG_INT64(argno);

	check_range("shard_key", shard, 0, UINT32_MAX, shard_key_hint);
	return static_cast<uint32_t>(shard);
}

// Read a timestamptz argument as whole Unix seconds (floor), raising 22008 on infinity.
static int64_t
seconds_arg(FunctionCallInfo fcinfo, int argno, const char *argname)
{
	return floor_div(timestamptz_to_unix_ms(PG_GETARG_TIMESTAMPTZ(argno), argname), 1000);
}

// Decode the uuid argument; every uuid decodes, since the layout has no version digit.
static HotFields
decode_arg(FunctionCallInfo fcinfo)
{
	HotFields f;

	decode_hot(PG_GETARG_UUID_P(0)->data, &f);
	return f;
}

// hot_uuid(shard_key bigint) RETURNS uuid
extern "C" Datum
hot_uuid_generate(PG_FUNCTION_ARGS)
{
	uint32_t       shard = shard_key_arg(fcinfo, 0);
	HotEnvironment env = environment();
	uint8_t        bytes[uuid_len];

	/* Never waits: a tick already used gives way to the next one (see HotGenerator). */
	generator.next(shard, env, bytes);
	count_call(CALLS_HOT);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// hot_uuid(shard_key bigint, at timestamptz) RETURNS uuid
extern "C" Datum
hot_uuid_generate_at(PG_FUNCTION_ARGS)
{
	uint32_t shard = shard_key_arg(fcinfo, 0);
	int64_t  seconds = seconds_arg(fcinfo, 1, "at");
	uint8_t  bytes[uuid_len];

	/* On every call, also at the clock's own second: the refusal never depends on the time. */
	require_writable(allocations.caller);

	HotEnvironment env = environment();

	allocate(fcinfo, &allocations,
			 [&](Allocator *numbers) { return generator.next_at(shard, seconds, env, numbers, bytes); });
	count_call(CALLS_HOT_AT);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// hot_uuid_shard_key(id uuid) RETURNS bigint
extern "C" Datum
hot_uuid_shard_key(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(hot_shard_key(PG_GETARG_UUID_P(0)->data));
}

// Return the timestamptz of a shard-key uuid's time field.
static Datum
hot_timestamp_datum(const uint8_t *u)
{
	int64_t seconds = hot_time_field(u);

	return TimestampTzGetDatum(unix_ms_to_timestamptz(seconds * 1000));
}

// hot_uuid_timestamp(id uuid) RETURNS timestamptz
extern "C" Datum
hot_uuid_timestamp(PG_FUNCTION_ARGS)
{
	return hot_timestamp_datum(PG_GETARG_UUID_P(0)->data);
}

// hot_uuid_boundary(at timestamptz) RETURNS uuid
extern "C" Datum
hot_uuid_boundary(PG_FUNCTION_ARGS)
{
	uint8_t bytes[uuid_len];

	hot_boundary(hot_seconds(seconds_arg(fcinfo, 0, "at")), bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// hot_uuid_machine(id uuid) RETURNS bytea
extern "C" Datum
hot_uuid_machine(PG_FUNCTION_ARGS)
{
	HotFields f = decode_arg(fcinfo);
	bytea    *result = static_cast<bytea *>(palloc(VARHDRSZ + hot_machine_len));

	SET_VARSIZE(result, VARHDRSZ + hot_machine_len);
	memcpy(VARDATA(result), f.machine, hot_machine_len);
	PG_RETURN_BYTEA_P(result);
}

// hot_uuid_process(id uuid) RETURNS integer
extern "C" Datum
hot_uuid_process(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(decode_arg(fcinfo).process);
}

// hot_uuid_counter(id uuid) RETURNS integer
extern "C" Datum
hot_uuid_counter(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(static_cast<int32>(decode_arg(fcinfo).counter));
}

// hot_uuid_make(shard_key bigint, ts timestamptz, machine bytea DEFAULT E'\\x000000', process integer DEFAULT 0, counter integer DEFAULT 0) RETURNS uuid
extern "C" Datum
hot_uuid_make(PG_FUNCTION_ARGS)
{
	uint32_t shard = shard_key_arg(fcinfo, 0);
	int64_t  seconds = seconds_arg(fcinfo, 1, "ts");
	bytea   *machine_arg = PG_GETARG_BYTEA_PP(2);
	int32    process = PG_GETARG_INT32(3);
	int32    counter = PG_GETARG_INT32(4);
	uint8_t  bytes[uuid_len];

	if (VARSIZE_ANY_EXHDR(machine_arg) != hot_machine_len)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("machine must be 3 bytes, not %d", static_cast<int>(VARSIZE_ANY_EXHDR(machine_arg))),
				 errhint("Pass the first 3 bytes of the MD5 digest of the machine name, "
						 "e.g. substring(decode(md5('host'), 'hex') for 3).")));
	check_range("process", process, 0, UINT16_MAX);
	check_range("counter", counter, 0, hot_counter_max);

	const uint8_t *m = reinterpret_cast<const uint8_t *>(VARDATA_ANY(machine_arg));
	HotFields      f{hot_seconds(seconds), {m[0], m[1], m[2]}, static_cast<uint16_t>(process), static_cast<uint32_t>(counter), shard};

	encode_hot(f, bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// hot_uuid_time_decoder(id text) RETURNS timestamptz
extern "C" Datum
hot_uuid_time_decoder(PG_FUNCTION_ARGS)
{
	return hot_timestamp_datum(uuid_text_arg(fcinfo, 0)->data);
}

// Return the key a core function writes for a bound (argument 0; with next, for the microsecond
// after it), or SQL NULL where it writes none.
static Datum
hot_key_datum(FunctionCallInfo fcinfo, bool (*key)(int64_t us, uint8_t out[uuid_len]), bool next = false)
{
	uint8_t bytes[uuid_len];
	int64_t us;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	us = made_bound_arg(fcinfo, 0, 0);
	if (!key(next ? made_next_us(us) : us, bytes))
		PG_RETURN_NULL();
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// hot_uuid_made_since(since timestamptz) RETURNS uuid
extern "C" Datum
hot_uuid_made_since(PG_FUNCTION_ARGS)
{
	return hot_key_datum(fcinfo, hot_made_since);
}

// hot_uuid_made_before(before timestamptz) RETURNS uuid
extern "C" Datum
hot_uuid_made_before(PG_FUNCTION_ARGS)
{
	return hot_key_datum(fcinfo, hot_made_before);
}

static const MadeSpelling hot_spelling = {"hot_uuid_made_since", "hot_uuid_made_before", "hot_uuid_made_after",
										  "hot_uuid_made_through", "hot_uuid_made_check", true,
										  hot_made_since, hot_made_before, NULL, "hot_uuid_timestamp", 1000000};

// hot_uuid_made_check_support(internal) RETURNS internal
extern "C" Datum
hot_uuid_made_check_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(made_check_support(reinterpret_cast<struct Node *>(PG_GETARG_POINTER(0)), hot_spelling));
}

// hot_uuid_made_check(id uuid, since timestamptz, before timestamptz) RETURNS boolean (and hot_uuid_made_check(id uuid))
extern "C" Datum
hot_uuid_made_check(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!PG_ARGISNULL(0));
}

// hot_uuid_made_support(internal) RETURNS internal
extern "C" Datum
hot_uuid_made_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(made_support(reinterpret_cast<struct Node *>(PG_GETARG_POINTER(0)), hot_spelling));
}

// hot_uuid_made(id uuid, since timestamptz, before timestamptz) RETURNS boolean
extern "C" Datum
hot_uuid_made(PG_FUNCTION_ARGS)
{
	return made_datum(fcinfo, hot_made);
}

// hot_uuid_made_after(after timestamptz) RETURNS uuid
extern "C" Datum
hot_uuid_made_after(PG_FUNCTION_ARGS)
{
	return hot_key_datum(fcinfo, hot_made_since, true);
}

// hot_uuid_made_through(through timestamptz) RETURNS uuid
extern "C" Datum
hot_uuid_made_through(PG_FUNCTION_ARGS)
{
	return hot_key_datum(fcinfo, hot_made_before, true);
}

// hot_uuid_timestamp_support(internal) RETURNS internal
extern "C" Datum
hot_uuid_timestamp_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(extractor_support(reinterpret_cast<struct Node *>(PG_GETARG_POINTER(0)), hot_spelling));
}
