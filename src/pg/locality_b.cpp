// SQL functions of the locality UUID, version "b": generators, mode switches, extractors, composer.
#include "glue.hpp"

extern "C" {
#include "utils/builtins.h"
#include "utils/guc.h"

PG_FUNCTION_INFO_V1(locality_uuid_generate);
PG_FUNCTION_INFO_V1(locality_uuid_generate_mode);
PG_FUNCTION_INFO_V1(locality_uuid_use_sequential_ids);
PG_FUNCTION_INFO_V1(locality_uuid_use_variable_ids);
PG_FUNCTION_INFO_V1(locality_uuid_timestamp);
PG_FUNCTION_INFO_V1(locality_uuid_pid);
PG_FUNCTION_INFO_V1(locality_uuid_mac);
PG_FUNCTION_INFO_V1(locality_uuid_node);
PG_FUNCTION_INFO_V1(locality_uuid_counter);
PG_FUNCTION_INFO_V1(locality_uuid_version);
PG_FUNCTION_INFO_V1(locality_uuid_make);
}

using namespace locality_uuid;

/* This backend's counters and clock; the run and its slot's marks are shared when they can be. */
static LocalityGenerator generator;

// Read what one id needs from the server: clock, process field, node, the slot's marks.
static Environment
environment()
{
	return Environment{wall_ms(), process_field(), node_id(), state_slot()};
}

// Make a sequential id: the core says which bucket it falls in, the glue takes its position
// in that bucket's run (the cluster's when shared), and the core writes it.
static void
next_sequential(uint8_t out[uuid_len])
{
	Environment env = environment();
	SeqPlace	place;
	SeqTake		take;

	report_status(generator.sequential_start(env, md5, &place));
	report_status(seq_status(state_seq_take(place.bucket, &take)));
	report_status(generator.next_sequential(env, place, take, md5, out));
}

// Make one id in the given mode from this backend's state and environment.
static Datum
generate(CounterMode mode)
{
	uint8_t		bytes[uuid_len];

	if (mode == CounterMode::sequential)
		next_sequential(bytes);
	else
		report_status(generator.next_variable(environment(), random_bytes, bytes));
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// Decode a version-b argument, or return false for any other version.
static bool
decode_arg(FunctionCallInfo fcinfo, LocalityFields *f, CounterMode mode = CounterMode::variable)
{
	return decode_b(PG_GETARG_UUID_P(0)->data, f, mode);
}

// Set the session's counter mode, as SET would.
static void
set_session_mode(const char *value)
{
	(void) set_config_option("locality_uuid.counter_mode", value,
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SET, true, 0, false);
}

// locality_uuid() RETURNS uuid
extern "C" Datum
locality_uuid_generate(PG_FUNCTION_ARGS)
{
	return generate(static_cast<CounterMode>(setting_counter_mode));
}

// locality_uuid(sequential boolean) RETURNS uuid
extern "C" Datum
locality_uuid_generate_mode(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("sequential must not be null"),
				 errhint("Call locality_uuid() to follow locality_uuid.counter_mode.")));
	return generate(PG_GETARG_BOOL(0) ? CounterMode::sequential : CounterMode::variable);
}

// locality_uuid_use_sequential_ids() RETURNS void
extern "C" Datum
locality_uuid_use_sequential_ids(PG_FUNCTION_ARGS)
{
	set_session_mode("sequential");
	PG_RETURN_VOID();
}

// locality_uuid_use_variable_ids() RETURNS void
extern "C" Datum
locality_uuid_use_variable_ids(PG_FUNCTION_ARGS)
{
	set_session_mode("variable");
	PG_RETURN_VOID();
}

// locality_uuid_timestamp(id uuid) RETURNS timestamptz
extern "C" Datum
locality_uuid_timestamp(PG_FUNCTION_ARGS)
{
	LocalityFields f;

	if (!decode_arg(fcinfo, &f))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(unix_ms_to_timestamptz(static_cast<int64_t>(f.time_ms)));
}

// locality_uuid_pid(id uuid) RETURNS integer
extern "C" Datum
locality_uuid_pid(PG_FUNCTION_ARGS)
{
	LocalityFields f;

	if (!decode_arg(fcinfo, &f))
		PG_RETURN_NULL();
	PG_RETURN_INT32(f.process);
}

// locality_uuid_mac(id uuid) RETURNS text
extern "C" Datum
locality_uuid_mac(PG_FUNCTION_ARGS)
{
	LocalityFields f;

	if (!decode_arg(fcinfo, &f))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(psprintf("%07x", f.node)));
}

// locality_uuid_node(id uuid) RETURNS integer
extern "C" Datum
locality_uuid_node(PG_FUNCTION_ARGS)
{
	LocalityFields f;

	if (!decode_arg(fcinfo, &f))
		PG_RETURN_NULL();
	PG_RETURN_INT32(static_cast<int32>(f.node));
}

// locality_uuid_counter(id uuid, sequential boolean DEFAULT false) RETURNS bigint
extern "C" Datum
locality_uuid_counter(PG_FUNCTION_ARGS)
{
	LocalityFields f;
	CounterMode mode = PG_GETARG_BOOL(1) ? CounterMode::sequential : CounterMode::variable;

	if (!decode_arg(fcinfo, &f, mode))
		PG_RETURN_NULL();
	PG_RETURN_INT64(f.counter);
}

// locality_uuid_version(id uuid) RETURNS text
extern "C" Datum
locality_uuid_version(PG_FUNCTION_ARGS)
{
	static const char digits[] = "0123456789abcdef";
	char		version[2] = {digits[version_nibble(PG_GETARG_UUID_P(0)->data)], '\0'};

	PG_RETURN_TEXT_P(cstring_to_text(version));
}

// locality_uuid_make(counter bigint, pid integer, node integer, ts timestamptz, sequential boolean DEFAULT false) RETURNS uuid
extern "C" Datum
locality_uuid_make(PG_FUNCTION_ARGS)
{
	int64		counter = PG_GETARG_INT64(0);
	int32		pid = PG_GETARG_INT32(1);
	int32		node = PG_GETARG_INT32(2);
	int64		ms = timestamptz_to_unix_ms(PG_GETARG_TIMESTAMPTZ(3), "ts");
	bool		sequential = PG_GETARG_BOOL(4);
	uint8_t		bytes[uuid_len];

	check_range("counter", counter, 0, UINT32_MAX);
	check_range("pid", pid, 0, UINT16_MAX);
	check_range("node", node, 0, node_max);
	if (ms < 0 || static_cast<uint64_t>(ms) > time_ms_max)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("ts is out of range for a locality uuid"),
				 errdetail("A locality uuid carries Unix milliseconds from 0 to %lld "
						   "(1970-01-01 to 10889-08-02 UTC).",
						   static_cast<long long>(time_ms_max))));

	LocalityFields f{static_cast<uint32_t>(counter), static_cast<uint16_t>(pid),
		static_cast<uint32_t>(node), static_cast<uint64_t>(ms)};

	report_status(encode_b(f, sequential ? CounterMode::sequential : CounterMode::variable, bytes));
	PG_RETURN_UUID_P(make_uuid(bytes));
}
