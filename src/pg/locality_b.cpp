// SQL functions of the locality UUID, version "b": generators, mode switches, extractors, composer.
#include "glue.hpp"

extern "C" {
#include "miscadmin.h"
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

/*
 * The lease of the continued run (SequenceLease), in positions: so after a restart, a crash, a
 * promotion or pg_upgrade the database's first position is above every position it took before,
 * as uuidv7_ordered's lease does for its words (v7.cpp). A lease reaches continued_window
 * positions past the one that needed it: 256 for a backend's first, twice as many for each next
 * one up to 65536, and beyond that twice as many only while renewals come less than
 * renewal_min_ms apart, up to 2^26 (the sequence runs at most that far ahead of the positions
 * taken). So a short session moves the run on little (without shared state each backend starts
 * at the lease), a seldom used one soon renews seldom, and a busy one writes the sequence about
 * once a second whatever the cluster's rate: a renewal takes a lock, writes WAL and makes its
 * transaction's commit wait for the flush (stopping at 65536 made 8 clients' calls 6 % dearer on
 * 15). A transaction that cannot advance the sequence (read-only, on a standby, in a parallel
 * operation) takes positions without it, above its floor (lease_begin): those ids are unique all
 * the same, but ids made after a later restart can sort below those past the lease. A database
 * whose extension predates the lease sequence (below 1.4, before ALTER EXTENSION UPDATE) has
 * neither.
 */
static SequenceLease     continued_lease = {continued_lease_sequence, "locality_uuid(true)", "1.4", RUN_CONTINUED,
											0, 0, NULL, false, InvalidOid, false};
static constexpr int64_t window_steady = 65536;
static constexpr int64_t window_max = INT64_C(1) << 26;
static constexpr int64_t renewal_min_ms = 1000;
static int64_t           continued_window = 256;
static int64_t           renewed_ms = 0; /* wall clock of this backend's last renewal */

// Return the lease end a renewal past position wants, and lengthen the next one: up to
// window_steady, and past it while renewals come less than renewal_min_ms apart.
static int64_t
continued_wanted(int64_t position)
{
	int64_t now_ms = wall_ms();
	int64_t wanted = position + continued_window;

	if (continued_window < window_steady || now_ms - renewed_ms < renewal_min_ms)
		continued_window = Min(continued_window * 2, window_max);
	renewed_ms = now_ms;
	return wanted;
}

// Take the position of a sequential id in the continued run, under the database's lease.
static void
take_continued(FunctionCallInfo fcinfo, const SeqPlace &place, SeqTake *take)
{
	(void) take_leased(
		fcinfo, &continued_lease, 0,
		[&](RunState *shared, RunFloor floor) {
			if (state_seq_continue(shared, seq_start(place), floor, take) != SeqStatus::ok)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("sequential run exhausted"),
						 errdetail("The continued sequential run has handed out all %llu positions.",
								   static_cast<unsigned long long>(seq_position_max) + 1),
						 errhint("Set locality_uuid.sequential_seed to bucket.")));
			return static_cast<int64_t>(take->position);
		},
		continued_wanted);
}

// Make a sequential id: the core says which bucket it falls in, the glue takes its position
// (the cluster's when shared): in that bucket's run, or in the continued run; the core writes it.
static void
next_sequential(FunctionCallInfo fcinfo, uint8_t out[uuid_len])
{
	Environment env = environment();
	SeqPlace    place;
	SeqTake     take;

	report_status(generator.sequential_start(env, md5, &place));
	if (static_cast<SeedRule>(setting_sequential_seed) == SeedRule::continued)
		take_continued(fcinfo, place, &take);
	else
		report_status(seq_status(state_seq_take(place.bucket, &take)));
	report_status(generator.next_sequential(env, place, take, md5, out));
}

// Make one id in the given mode from this backend's state and environment.
static Datum
generate(FunctionCallInfo fcinfo, CounterMode mode)
{
	uint8_t bytes[uuid_len];

	if (mode == CounterMode::sequential)
	{
		next_sequential(fcinfo, bytes);
		count_call(CALLS_LOCALITY_SEQUENTIAL);
	}
	else
	{
		report_status(generator.next_variable(environment(), random_bytes, bytes));
		count_call(CALLS_LOCALITY_VARIABLE);
	}
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
	return generate(fcinfo, static_cast<CounterMode>(setting_counter_mode));
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
	return generate(fcinfo, PG_GETARG_BOOL(0) ? CounterMode::sequential : CounterMode::variable);
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
	CounterMode    mode = PG_GETARG_BOOL(1) ? CounterMode::sequential : CounterMode::variable;

	if (!decode_arg(fcinfo, &f, mode))
		PG_RETURN_NULL();
	PG_RETURN_INT64(f.counter);
}

// locality_uuid_version(id uuid) RETURNS text
extern "C" Datum
locality_uuid_version(PG_FUNCTION_ARGS)
{
	static const char digits[] = "0123456789abcdef";
	char              version[2] = {digits[version_nibble(PG_GETARG_UUID_P(0)->data)], '\0'};

	PG_RETURN_TEXT_P(cstring_to_text(version));
}

// locality_uuid_make(counter bigint, pid integer, node integer, ts timestamptz, sequential boolean DEFAULT false) RETURNS uuid
extern "C" Datum
locality_uuid_make(PG_FUNCTION_ARGS)
{
	int64   counter = PG_GETARG_INT64(0);
	int32   pid = PG_GETARG_INT32(1);
	int32   node = PG_GETARG_INT32(2);
	int64   ms = timestamptz_to_unix_ms(PG_GETARG_TIMESTAMPTZ(3), "ts");
	bool    sequential = PG_GETARG_BOOL(4);
	uint8_t bytes[uuid_len];

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
