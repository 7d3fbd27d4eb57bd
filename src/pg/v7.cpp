// SQL functions of version 7 and 4: PostgreSQL 18's names (for 15..17), ordered and explicit-time ids, boundaries.
#include "glue.hpp"

extern "C" {
#include "miscadmin.h"
#include "utils/fmgrprotos.h"

PG_FUNCTION_INFO_V1(locality_uuid_uuidv7);
PG_FUNCTION_INFO_V1(locality_uuid_uuidv7_shift);
PG_FUNCTION_INFO_V1(locality_uuid_uuidv4);
PG_FUNCTION_INFO_V1(locality_uuid_extract_timestamp);
PG_FUNCTION_INFO_V1(locality_uuid_extract_version);
PG_FUNCTION_INFO_V1(uuidv7_timestamp);
PG_FUNCTION_INFO_V1(uuidv7_time_decoder);
PG_FUNCTION_INFO_V1(uuidv7_ordered_generate);
PG_FUNCTION_INFO_V1(uuidv7_ordered_generate_at);
PG_FUNCTION_INFO_V1(uuidv7_lower_bound);
PG_FUNCTION_INFO_V1(uuidv7_upper_bound);
PG_FUNCTION_INFO_V1(uuidv7_made_since);
PG_FUNCTION_INFO_V1(uuidv7_made_before);
PG_FUNCTION_INFO_V1(uuidv7_made_check_support);
PG_FUNCTION_INFO_V1(uuidv7_made_check);
PG_FUNCTION_INFO_V1(uuidv7_made_support);
PG_FUNCTION_INFO_V1(uuidv7_made);
PG_FUNCTION_INFO_V1(uuidv7_made_after);
PG_FUNCTION_INFO_V1(uuidv7_made_through);
PG_FUNCTION_INFO_V1(uuidv7_timestamp_support);
}

using namespace locality_uuid;

/* PostgreSQL 18's per-backend clock rule, for uuidv7() and uuidv7(interval). */
static V7Clock backend_clock;

/*
 * The lease of ordered ids (SequenceLease), in milliseconds: this backend makes clock ids only of
 * milliseconds below its end, so the first ordered id of the database after a restart, a crash,
 * a promotion or pg_upgrade starts after every id made before in the database, whatever the clock
 * does. A lease reaches lease_window_ms past the clock (and past the millisecond that needed it),
 * so a backend that makes ids all the time extends it once per lease_window_ms, and the ids made
 * after a restart are at most that far ahead of a clock that is right; a clock that was ahead
 * and came back leaves them ahead until it catches up, across restarts too.
 */
static SequenceLease     lease = {v7_lease_sequence, "uuidv7_ordered", "1.3", RUN_V7_ORDERED,
								  0, 0, NULL, false, InvalidOid, false};
static constexpr int64_t lease_window_ms = 1000;

/* Allocation numbers of explicit-time ids (41 bits), in ranges, as hot_uuid's (src/pg/hot.cpp). */
static SequenceAllocations allocations = {v7_allocation_sequence, "uuidv7_ordered at an explicit time",
										  Allocator(v7_allocation_bits), 0};

// Return the time of a version 7 uuid's millisecond field.
static TimestampTz
v7_time(const uint8_t *u)
{
	return unix_ms_to_timestamptz(v7_ms(u));
}

// Raise 22008: a time version 7 cannot carry.
static void
v7_out_of_range()
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for UUID version 7"),
			 errdetail("Version 7 carries Unix milliseconds in 48 bits: "
					   "from 1970-01-01 00:00:00 to 10889-08-02 05:31:50.655 UTC.")));
}

// Read a timestamptz argument as the Unix millisecond version 7 gives it (floor), or raise 22008.
static int64_t
v7_ms_arg(FunctionCallInfo fcinfo, int argno, const char *argname)
{
	int64_t ms = timestamptz_to_unix_ms(PG_GETARG_TIMESTAMPTZ(argno), argname);

	if (ms < 0 || ms > v7_ms_max)
		v7_out_of_range();
	return ms;
}

// Fill buf with len bytes of the backend's strong random pool, or raise an error.
static void
random_or_error(uint8_t *buf, std::size_t len)
{
	if (!random_bytes(buf, len))
		report_status(Status::random_failed);
}

// Return the version 7 uuid of a time, as PostgreSQL 18 makes it.
static Datum
v7_of(V7Time t)
{
	uint8_t random[8];
	uint8_t bytes[uuid_len];

	random_or_error(random, sizeof(random));
	encode_v7(t.ms, v7_subms(t.ns), random, bytes);
	return UUIDPGetDatum(make_uuid(bytes));
}

// pg_catalog.uuidv7() RETURNS uuid
extern "C" Datum
locality_uuid_uuidv7(PG_FUNCTION_ARGS)
{
	return v7_of(backend_clock.next(wall_v7()));
}

// pg_catalog.uuidv7(shift interval) RETURNS uuid
extern "C" Datum
locality_uuid_uuidv7_shift(PG_FUNCTION_ARGS)
{
	Interval   *shift = PG_GETARG_INTERVAL_P(0);
	V7Time      t = backend_clock.next(wall_v7());
	TimestampTz ts = t.ms * 1000 + t.ns / 1000 - pg_epoch_unix_us;

#if PG_VERSION_NUM >= 170000
	if (INTERVAL_NOT_FINITE(shift))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("interval out of range for UUID version 7"),
				 errdetail("An infinite shift gives no time to carry.")));
#endif
	/* Shift in microseconds as timestamptz + interval does; the nanoseconds below stay. */
	ts = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_pl_interval, TimestampTzGetDatum(ts),
												 IntervalPGetDatum(shift)));
	/* As core 18: refused from the first microsecond past the last millisecond of 48 bits. */
	if (TIMESTAMP_NOT_FINITE(ts) || ts < -pg_epoch_unix_us || ts + pg_epoch_unix_us > v7_ms_max * 1000)
		v7_out_of_range();

	int64_t us = ts + pg_epoch_unix_us;

	return v7_of(V7Time{us / 1000, static_cast<int32_t>(us % 1000 * 1000 + t.ns % 1000)});
}

// pg_catalog.uuidv4() RETURNS uuid
extern "C" Datum
locality_uuid_uuidv4(PG_FUNCTION_ARGS)
{
	uint8_t random[uuid_len];
	uint8_t bytes[uuid_len];

	random_or_error(random, sizeof(random));
	encode_v4(random, bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// Return the bytes of the uuid argument if it has the RFC 9562 variant, else NULL.
static const uint8_t *
rfc_arg(FunctionCallInfo fcinfo)
{
	const uint8_t *u = PG_GETARG_UUID_P(0)->data;

	return rfc_variant(u) ? u : NULL;
}

// pg_catalog.uuid_extract_timestamp(uuid) RETURNS timestamptz
extern "C" Datum
locality_uuid_extract_timestamp(PG_FUNCTION_ARGS)
{
	const uint8_t *u = rfc_arg(fcinfo);

	if (u == NULL)
		PG_RETURN_NULL();
	switch (version_nibble(u))
	{
		case 1:
			PG_RETURN_TIMESTAMPTZ(gregorian_unix_us(u) - pg_epoch_unix_us);
		case 7:
			PG_RETURN_TIMESTAMPTZ(v7_time(u));
		default:
			PG_RETURN_NULL();
	}
}

// pg_catalog.uuid_extract_version(uuid) RETURNS smallint
extern "C" Datum
locality_uuid_extract_version(PG_FUNCTION_ARGS)
{
	const uint8_t *u = rfc_arg(fcinfo);

	if (u == NULL)
		PG_RETURN_NULL();
	PG_RETURN_INT16(static_cast<int16>(version_nibble(u)));
}

// uuidv7_ordered() RETURNS uuid
extern "C" Datum
uuidv7_ordered_generate(PG_FUNCTION_ARGS)
{
	uint8_t random[8];
	uint8_t bytes[uuid_len];

	/* On every call, not only when the lease runs out: the refusal never depends on the time. */
	require_writable(lease.caller);

	uint64_t clock_word = v7_word(wall_v7());
	int64_t  clock_ms = v7_word_ms(clock_word);
	uint64_t word = 0;

	(void) take_leased(
		fcinfo, &lease, clock_ms + lease_window_ms,
		[&](RunState *shared, RunFloor floor) {
			word = state_v7_take(shared, clock_word, RunFloor{v7_word(V7Time{static_cast<int64_t>(floor.value), 0}), floor.force});
			return v7_word_ms(word);
		},
		[&](int64_t ms) { return Max(ms + 1, clock_ms + lease_window_ms); });
	if (v7_word_ms(word) > v7_ms_max)
		v7_out_of_range();
	random_or_error(random, sizeof(random));
	encode_v7_ordered(word, random, bytes);
	count_call(CALLS_V7_ORDERED);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// uuidv7_ordered(at timestamptz) RETURNS uuid
extern "C" Datum
uuidv7_ordered_generate_at(PG_FUNCTION_ARGS)
{
	int64_t  ms = v7_ms_arg(fcinfo, 0, "at");
	uint64_t allocation;
	uint8_t  random[4];
	uint8_t  bytes[uuid_len];

	require_writable(allocations.caller);
	allocate(fcinfo, &allocations, [&](Allocator *numbers) { return numbers->next(&allocation); });
	random_or_error(random, sizeof(random));
	encode_v7_explicit(ms, allocation, random, bytes);
	count_call(CALLS_V7_ORDERED_AT);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// Return the time of a version 7 uuid, or SQL NULL for any other uuid.
static Datum
v7_timestamp_datum(FunctionCallInfo fcinfo, const uint8_t *u)
{
	if (!v7_id(u))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(v7_time(u));
}

// uuidv7_timestamp(id uuid) RETURNS timestamptz
extern "C" Datum
uuidv7_timestamp(PG_FUNCTION_ARGS)
{
	return v7_timestamp_datum(fcinfo, PG_GETARG_UUID_P(0)->data);
}

// uuidv7_lower(at timestamptz) RETURNS uuid
extern "C" Datum
uuidv7_lower_bound(PG_FUNCTION_ARGS)
{
	uint8_t bytes[uuid_len];

	v7_lower(v7_ms_arg(fcinfo, 0, "at"), bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// uuidv7_upper(at timestamptz) RETURNS uuid
extern "C" Datum
uuidv7_upper_bound(PG_FUNCTION_ARGS)
{
	uint8_t bytes[uuid_len];

	v7_upper(v7_ms_arg(fcinfo, 0, "at"), bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// uuidv7_time_decoder(id text) RETURNS timestamptz
extern "C" Datum
uuidv7_time_decoder(PG_FUNCTION_ARGS)
{
	return v7_timestamp_datum(fcinfo, uuid_text_arg(fcinfo, 0)->data);
}

// Return the key a core function writes for a bound (argument 0; SQL NULL reads as if_null).
static Datum
v7_key_datum(FunctionCallInfo fcinfo, void (*key)(int64_t us, uint8_t out[uuid_len]), int64_t if_null)
{
	uint8_t bytes[uuid_len];

	key(made_bound_arg(fcinfo, 0, if_null), bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// uuidv7_made_since(since timestamptz) RETURNS uuid
extern "C" Datum
uuidv7_made_since(PG_FUNCTION_ARGS)
{
	return v7_key_datum(fcinfo, v7_made_since, INT64_MAX);
}

// uuidv7_made_before(before timestamptz) RETURNS uuid
extern "C" Datum
uuidv7_made_before(PG_FUNCTION_ARGS)
{
	return v7_key_datum(fcinfo, v7_made_before, INT64_MIN);
}

// The keys of uuidv7_made_since and uuidv7_made_before, as MadeSpelling takes them.
static bool
v7_since_bytes(int64_t us, uint8_t out[uuid_len])
{
	v7_made_since(us, out);
	return true;
}

static bool
v7_before_bytes(int64_t us, uint8_t out[uuid_len])
{
	v7_made_before(us, out);
	return true;
}

static bool
v7_of_format(const uint8_t *id)
{
	return v7_id(id);
}

static const MadeSpelling v7_spelling = {"uuidv7_made_since", "uuidv7_made_before", "uuidv7_made_after",
										 "uuidv7_made_through", "uuidv7_made_check", false,
										 v7_since_bytes, v7_before_bytes, v7_of_format, "uuidv7_timestamp", 1000};

// uuidv7_made_check_support(internal) RETURNS internal
extern "C" Datum
uuidv7_made_check_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(made_check_support(reinterpret_cast<struct Node *>(PG_GETARG_POINTER(0)), v7_spelling));
}

// uuidv7_made_check(id uuid, since timestamptz, before timestamptz) RETURNS boolean (and uuidv7_made_check(id uuid))
extern "C" Datum
uuidv7_made_check(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!PG_ARGISNULL(0) && v7_of_format(PG_GETARG_UUID_P(0)->data));
}

// uuidv7_made_support(internal) RETURNS internal
extern "C" Datum
uuidv7_made_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(made_support(reinterpret_cast<struct Node *>(PG_GETARG_POINTER(0)), v7_spelling));
}

// uuidv7_made(id uuid, since timestamptz, before timestamptz) RETURNS boolean
extern "C" Datum
uuidv7_made(PG_FUNCTION_ARGS)
{
	return made_datum(fcinfo, v7_made);
}

// uuidv7_made_after(after timestamptz) RETURNS uuid
extern "C" Datum
uuidv7_made_after(PG_FUNCTION_ARGS)
{
	uint8_t bytes[uuid_len];

	v7_made_since(made_next_us(made_bound_arg(fcinfo, 0, INT64_MAX)), bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// uuidv7_made_through(through timestamptz) RETURNS uuid
extern "C" Datum
uuidv7_made_through(PG_FUNCTION_ARGS)
{
	uint8_t bytes[uuid_len];

	v7_made_before(made_next_us(made_bound_arg(fcinfo, 0, INT64_MIN)), bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// uuidv7_timestamp_support(internal) RETURNS internal
extern "C" Datum
uuidv7_timestamp_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(extractor_support(reinterpret_cast<struct Node *>(PG_GETARG_POINTER(0)), v7_spelling));
}
