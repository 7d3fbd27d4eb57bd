// SQL functions of the block-wrapped sequential UUIDs: generators, layouts, extractors and advice.
#include "glue.hpp"

extern "C" {
#include "access/htup_details.h"
#include "commands/sequence.h"
#include "common/int.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/tuplestore.h"

PG_FUNCTION_INFO_V1(locality_uuid_sequence_nextval);
PG_FUNCTION_INFO_V1(locality_uuid_time_nextval);
PG_FUNCTION_INFO_V1(locality_uuid_block_layout);
PG_FUNCTION_INFO_V1(locality_uuid_block);
PG_FUNCTION_INFO_V1(locality_uuid_time_nextval_interval);
PG_FUNCTION_INFO_V1(locality_uuid_block_layout_interval);
PG_FUNCTION_INFO_V1(locality_uuid_time_block_start);
PG_FUNCTION_INFO_V1(locality_uuid_time_block_start_interval);
PG_FUNCTION_INFO_V1(locality_uuid_block_advice);
}

using namespace locality_uuid;

/* Which generator's words the argument errors use (those of sequential_uuids 1.0.3). */
enum BlockVariant
{
	BLOCKS_SEQUENCE,
	BLOCKS_TIME
};

#define INTERVAL_LENGTH_HINT \
	"Give a fixed length from 1 millisecond to 2147483647 seconds in days, hours, minutes, " \
	"seconds and fractions of a second, such as interval '250 ms'."

// Raise the error a BlockStatus stands for, in variant's words (BlockStatus::ok returns).
static void
report_block_status(BlockStatus st, BlockVariant variant)
{
	switch (st)
	{
		case BlockStatus::ok:
			break;
		case BlockStatus::bad_block_size:
		case BlockStatus::bad_block_count:
			{
				/* The size and the count of blocks, as the sequence and the time variants name them. */
				static const char *const names[2][2] = {{"block size", "number of blocks"},
														{"length of interval", "number of intervals"}};

				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("%s must be a positive integer",
								names[variant == BLOCKS_SEQUENCE ? 0 : 1][st == BlockStatus::bad_block_count])));
			}
			break;
		case BlockStatus::interval_not_finite:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("interval_length must be finite"),
					 errhint(INTERVAL_LENGTH_HINT)));
			break;
		case BlockStatus::interval_has_months:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("interval_length must not contain months or years"),
					 errdetail("Months and years have no fixed length."),
					 errhint(INTERVAL_LENGTH_HINT)));
			break;
		case BlockStatus::interval_too_short:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("interval_length must be at least 1 millisecond"),
					 errhint(INTERVAL_LENGTH_HINT)));
			break;
		case BlockStatus::interval_too_long:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("interval_length must be at most 2147483647 seconds"),
					 errhint(INTERVAL_LENGTH_HINT)));
			break;
	}
}

// Compute the layout of (size, count), raising the reference's error for a bad argument.
static BlockLayout
checked_layout(int32 size, int32 count, BlockVariant variant)
{
	BlockLayout l;

	report_block_status(block_layout(size, count, &l), variant);
	return l;
}

// Return the fixed length of interval_length in microseconds, or raise 22023.
static int64
checked_interval_us(const Interval *iv)
{
	int64 us = 0;

#if PG_VERSION_NUM >= 170000
	if (INTERVAL_NOT_FINITE(iv))
		report_block_status(BlockStatus::interval_not_finite, BLOCKS_TIME);
#endif
	report_block_status(interval_length_us(iv->month, iv->day, iv->time, &us), BLOCKS_TIME);
	return us;
}

// Compute the time layout of (interval_length, interval_count), raising 22023 for a bad argument.
static TimeBlockLayout
checked_time_layout(const Interval *iv, int32 count)
{
	TimeBlockLayout l;

	report_block_status(time_block_layout(checked_interval_us(iv), count, &l), BLOCKS_TIME);
	return l;
}

// Compute the time layout of the integer form (seconds, count), raising 22023 for a bad argument.
static TimeBlockLayout
checked_seconds_layout(int32 seconds, int32 count)
{
	TimeBlockLayout l;

	report_block_status(time_block_layout_seconds(seconds, count, &l), BLOCKS_TIME);
	return l;
}

// Make the id of value v: its prefix, then bytes from this backend's random pool.
static Datum
block_uuid(int64 v, const BlockLayout &l)
{
	uint8_t random[uuid_len];
	uint8_t bytes[uuid_len];

	if (!random_bytes(random, block_random_len(l)))
		report_status(Status::random_failed);
	encode_block(v, l, random, bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// Return microseconds (at least 0) as an interval of days and time.
static Datum
microseconds_interval(int64 us)
{
	Interval *iv = static_cast<Interval *>(palloc(sizeof(Interval)));

	iv->month = 0;
	iv->day = static_cast<int32>(us / USECS_PER_DAY);
	iv->time = us % USECS_PER_DAY;
	return IntervalPGetDatum(iv);
}

// Return seconds as an interval of days and time, or NULL past the interval type's days.
static Datum
seconds_interval(int64 secs, bool *isnull)
{
	Interval *iv = static_cast<Interval *>(palloc(sizeof(Interval)));

	*isnull = secs / SECS_PER_DAY > PG_INT32_MAX;
	iv->month = 0;
	iv->day = static_cast<int32>(secs / SECS_PER_DAY);
	iv->time = (secs % SECS_PER_DAY) * USECS_PER_SEC;
	return IntervalPGetDatum(iv);
}

// uuid_sequence_nextval(regclass, block_size integer DEFAULT 65536, block_count integer DEFAULT 65536) RETURNS uuid
/*
 * Arguments are checked before nextval is called, so a bad call uses no sequence value;
 * nextval_internal does nextval()'s permission checks (USAGE or UPDATE on the sequence).
 */
extern "C" Datum
locality_uuid_sequence_nextval(PG_FUNCTION_ARGS)
{
	Oid         relid = PG_GETARG_OID(0);
	BlockLayout l = checked_layout(PG_GETARG_INT32(1), PG_GETARG_INT32(2), BLOCKS_SEQUENCE);

	return block_uuid(sequence_input(nextval_internal(relid, true)), l);
}

// uuid_time_nextval(interval_length integer DEFAULT 60, interval_count integer DEFAULT 65536) RETURNS uuid
extern "C" Datum
locality_uuid_time_nextval(PG_FUNCTION_ARGS)
{
	BlockLayout l = checked_layout(PG_GETARG_INT32(0), PG_GETARG_INT32(1), BLOCKS_TIME);

	return block_uuid(floor_div(static_cast<int64>(wall_ms()), 1000), l);
}

// locality_uuid_block_layout(block_size integer DEFAULT 65536, block_count integer DEFAULT 65536, OUT prefix_bits integer, OUT prefixes bigint, OUT effective_block_size bigint, OUT wrap_values bigint, OUT block_interval interval, OUT wrap_interval interval) RETURNS record
extern "C" Datum
locality_uuid_block_layout(PG_FUNCTION_ARGS)
{
	BlockLayout l = checked_layout(PG_GETARG_INT32(0), PG_GETARG_INT32(1), BLOCKS_SEQUENCE);
	TupleDesc   tupdesc = result_tupdesc(fcinfo);
	Datum       values[6];
	bool        nulls[6] = {false, false, false, false, false, false};

	values[0] = Int32GetDatum(l.prefix_bits);
	values[1] = Int64GetDatum(static_cast<int64>(block_prefixes(l)));
	values[2] = Int64GetDatum(l.block_size);
	values[3] = Int64GetDatum(block_wrap(l));
	values[4] = seconds_interval(l.block_size, &nulls[4]);
	values[5] = seconds_interval(block_wrap(l), &nulls[5]);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

// locality_uuid_block(id uuid, block_count integer DEFAULT 65536) RETURNS bigint
extern "C" Datum
locality_uuid_block(PG_FUNCTION_ARGS)
{
	const uint8_t *id = PG_GETARG_UUID_P(0)->data;
	int32          count = PG_GETARG_INT32(1);

	if (count < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of blocks must be a positive integer")));
	if (version_nibble(id) != version_4)
		PG_RETURN_NULL();
	PG_RETURN_INT64(static_cast<int64>(decode_block(id, count)));
}

// uuid_time_nextval(interval_length interval, interval_count integer DEFAULT 65536) RETURNS uuid
// Blocks of any length from 1 ms, on the clock in microseconds.
extern "C" Datum
locality_uuid_time_nextval_interval(PG_FUNCTION_ARGS)
{
	TimeBlockLayout l = checked_time_layout(PG_GETARG_INTERVAL_P(0), PG_GETARG_INT32(1));
	uint8_t         random[uuid_len];
	uint8_t         bytes[uuid_len];

	if (!random_bytes(random, uuid_len - static_cast<std::size_t>(l.prefix_bits / 8)))
		report_status(Status::random_failed);
	encode_prefix(time_block_prefix(wall_us(), l), l.prefix_bits,
				  random, bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// locality_uuid_block_layout(interval_length interval, interval_count integer DEFAULT 65536, OUT prefix_bits integer, OUT prefixes bigint, OUT effective_block_size bigint, OUT wrap_values bigint, OUT block_interval interval, OUT wrap_interval interval) RETURNS record
// Counts and wrap in microseconds; the wrap is NULL past 2^63 microseconds (292,000 years).
extern "C" Datum
locality_uuid_block_layout_interval(PG_FUNCTION_ARGS)
{
	TimeBlockLayout l = checked_time_layout(PG_GETARG_INTERVAL_P(0), PG_GETARG_INT32(1));
	TupleDesc       tupdesc = result_tupdesc(fcinfo);
	Datum           values[6];
	bool            nulls[6] = {false, false, false, false, false, false};
	int64           wrap = 0;

	nulls[3] = nulls[5] = !time_block_wrap_us(l, &wrap);
	values[0] = Int32GetDatum(l.prefix_bits);
	values[1] = Int64GetDatum(static_cast<int64>(INT64CONST(1) << l.prefix_bits));
	values[2] = Int64GetDatum(l.block_us);
	values[3] = Int64GetDatum(wrap);
	values[4] = microseconds_interval(l.block_us);
	values[5] = nulls[5] ? (Datum) 0 : microseconds_interval(wrap);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

// Return the start of the latest block at or before as_of whose prefix id carries; NULL unless version 4.
static Datum
block_start(FunctionCallInfo fcinfo, const TimeBlockLayout &l)
{
	const uint8_t *id = PG_GETARG_UUID_P(0)->data;
	TimestampTz    as_of = PG_GETARG_TIMESTAMPTZ(3);
	int64          as_of_us;
	int64          start_us;
	TimestampTz    start;

	if (TIMESTAMP_NOT_FINITE(as_of))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("as_of must be a finite timestamp")));
	if (version_nibble(id) != version_4)
		PG_RETURN_NULL();
	if (pg_add_s64_overflow(as_of, pg_epoch_unix_us, &as_of_us) ||
		!time_block_start(decode_prefix(id, l.prefix_bits), as_of_us, l, &start_us) ||
		pg_sub_s64_overflow(start_us, pg_epoch_unix_us, &start) ||
		!IS_VALID_TIMESTAMP(start))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range"),
				 errdetail("The block starts outside the range of timestamp with time zone.")));
	PG_RETURN_TIMESTAMPTZ(start);
}

// uuid_time_block_start(id uuid, interval_length integer, interval_count integer DEFAULT 65536, as_of timestamptz DEFAULT now()) RETURNS timestamptz
extern "C" Datum
locality_uuid_time_block_start(PG_FUNCTION_ARGS)
{
	return block_start(fcinfo, checked_seconds_layout(PG_GETARG_INT32(1), PG_GETARG_INT32(2)));
}

// uuid_time_block_start(id uuid, interval_length interval, interval_count integer DEFAULT 65536, as_of timestamptz DEFAULT now()) RETURNS timestamptz
extern "C" Datum
locality_uuid_time_block_start_interval(PG_FUNCTION_ARGS)
{
	return block_start(fcinfo, checked_time_layout(PG_GETARG_INTERVAL_P(1), PG_GETARG_INT32(2)));
}

/* Microseconds in a month of a retention: 365.25 / 12 days, as extract(epoch FROM interval). */
static constexpr double retention_month_us = 365.25 / 12 * SECS_PER_DAY * USECS_PER_SEC;

// Return a duration in microseconds as an interval, or NULL past what int64 microseconds hold.
static Datum
advice_interval(double us, bool *isnull)
{
	*isnull = !(us < 9.2e18);
	return *isnull ? (Datum) 0 : microseconds_interval(static_cast<int64>(us));
}

// Return the interval argument of the advised time call as SQL text ('250 ms', '2 s').
static const char *
interval_literal(int64 us)
{
	if (us % USECS_PER_SEC == 0)
		return psprintf("'%lld s'", static_cast<long long>(us / USECS_PER_SEC));
	return psprintf("'%lld ms'", static_cast<long long>(us / 1000));
}

/* Columns of locality_uuid_block_advice's rows, in the order of the SQL declaration. */
enum AdviceColumn
{
	ADVICE_GENERATOR,
	ADVICE_CALL,
	ADVICE_BLOCK_SIZE,
	ADVICE_BLOCK_COUNT,
	ADVICE_INTERVAL_LENGTH,
	ADVICE_INTERVAL_COUNT,
	ADVICE_ROWS_PER_BLOCK,
	ADVICE_HOT_SET_BYTES,
	ADVICE_WRAP_PERIOD,
	ADVICE_RETENTION,
	ADVICE_PREFIX_BYTES,
	ADVICE_EFFECTIVE_BLOCK_SIZE,
	ADVICE_BLOCK_INTERVAL,
	ADVICE_HOT_SET_PAGES,
	ADVICE_INDEX_MEMORY,
	ADVICE_HOT_SET_FITS,
	ADVICE_WRAP_COVERS_RETENTION,
	ADVICE_COLUMNS
};

// Return the retention in microseconds (a month is 365.25 / 12 days); an error unless
// positive and finite.
static double
advice_retention_us(const Interval *retention)
{
	double us;

#if PG_VERSION_NUM >= 170000
	if (INTERVAL_NOT_FINITE(retention))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("retention must be finite"),
				 errhint("Block generators reuse their key space; for rows kept forever use an ordered generator such as locality_uuid(true).")));
#endif
	us = retention->month * retention_month_us + static_cast<double>(retention->day) * USECS_PER_DAY +
		static_cast<double>(retention->time);
	if (!(us > 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("retention must be positive")));
	return us;
}

// Fill one row of locality_uuid_block_advice: the sequence generator's columns or the time generator's.
static void
advice_row(const BlockAdvice &a, bool seq, Interval *retention, int64 memory, Datum *values, bool *nulls)
{
	memset(nulls, 0, sizeof(bool) * ADVICE_COLUMNS);
	values[ADVICE_GENERATOR] = CStringGetTextDatum(seq ? "uuid_sequence_nextval" : "uuid_time_nextval_interval");
	values[ADVICE_CALL] = CStringGetTextDatum(
		seq ? psprintf("uuid_sequence_nextval('id_seq', %d, %d)", a.block_size, a.count)
			: psprintf("uuid_time_nextval_interval(%s::interval, %d)", interval_literal(a.interval_us), a.count));
	/* The sequence generator's parameters, or the time generator's. */
	nulls[ADVICE_BLOCK_SIZE] = nulls[ADVICE_BLOCK_COUNT] = nulls[ADVICE_EFFECTIVE_BLOCK_SIZE] = !seq;
	nulls[ADVICE_INTERVAL_LENGTH] = nulls[ADVICE_INTERVAL_COUNT] = nulls[ADVICE_BLOCK_INTERVAL] = seq;
	values[ADVICE_BLOCK_SIZE] = Int32GetDatum(a.block_size);
	values[ADVICE_BLOCK_COUNT] = Int32GetDatum(a.count);
	values[ADVICE_EFFECTIVE_BLOCK_SIZE] = Int64GetDatum(a.effective);
	values[ADVICE_INTERVAL_LENGTH] = seq ? (Datum) 0 : microseconds_interval(a.interval_us);
	values[ADVICE_INTERVAL_COUNT] = Int32GetDatum(a.count);
	values[ADVICE_BLOCK_INTERVAL] = seq ? (Datum) 0 : microseconds_interval(a.effective);
	/* What both share. */
	values[ADVICE_ROWS_PER_BLOCK] = Float8GetDatum(a.rows_per_block);
	values[ADVICE_HOT_SET_BYTES] = Int64GetDatum(a.hot_set_bytes);
	values[ADVICE_WRAP_PERIOD] = advice_interval(a.wrap_us, &nulls[ADVICE_WRAP_PERIOD]);
	values[ADVICE_RETENTION] = IntervalPGetDatum(retention);
	values[ADVICE_PREFIX_BYTES] = Int32GetDatum(a.prefix_bits / 8);
	values[ADVICE_HOT_SET_PAGES] = Int64GetDatum(a.hot_set_bytes / BLCKSZ + (a.hot_set_bytes % BLCKSZ != 0));
	values[ADVICE_INDEX_MEMORY] = Int64GetDatum(memory);
	values[ADVICE_HOT_SET_FITS] = BoolGetDatum(a.hot_set_fits);
	values[ADVICE_WRAP_COVERS_RETENTION] = BoolGetDatum(a.wrap_covers);
}

// locality_uuid_block_advice(insert_rate double precision, retention interval, index_memory bigint
//   DEFAULT NULL, OUT generator text, OUT call text, OUT block_size integer, OUT block_count
//   integer, OUT interval_length interval, OUT interval_count integer, OUT rows_per_block double
//   precision, OUT hot_set_bytes bigint, OUT wrap_period interval, OUT retention interval, OUT
//   prefix_bytes integer, OUT effective_block_size bigint, OUT block_interval interval, OUT
//   hot_set_pages bigint, OUT index_memory bigint, OUT hot_set_fits boolean, OUT
//   wrap_covers_retention boolean) RETURNS SETOF record
/*
 * One row per block generator; the rule is in core/blocks.hpp and, with its reasons, in
 * docs/choosing.md. index_memory NULL means shared_buffers.
 */
extern "C" Datum
locality_uuid_block_advice(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);
	double         rate;
	Interval      *retention;
	double         retention_us;
	int64          memory;
	BlockAdvice    advice[2];

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", PG_ARGISNULL(0) ? "insert_rate" : "retention")));
	rate = PG_GETARG_FLOAT8(0);
	retention = PG_GETARG_INTERVAL_P(1);
	if (!(rate > 0) || isinf(rate))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("insert_rate must be a positive finite number of rows per second")));
	retention_us = advice_retention_us(retention);
	if (PG_ARGISNULL(2))
		memory = static_cast<int64>(NBuffers) * BLCKSZ;
	else
	{
		memory = PG_GETARG_INT64(2);
		if (memory <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("index_memory must be a positive number of bytes"),
					 errhint("Leave it NULL to use shared_buffers.")));
	}

	advise_sequence(rate, retention_us, memory, &advice[0]);
	advise_time(rate, retention_us, memory, &advice[1]);

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < 2; i++)
	{
		Datum values[ADVICE_COLUMNS];
		bool  nulls[ADVICE_COLUMNS];

		advice_row(advice[i], i == 0, retention, memory, values, nulls);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
