// SQL functions of the block-wrapped sequential UUIDs: both generators, the layout and the block extractor.
#include "glue.hpp"

extern "C" {
#include "access/htup_details.h"
#include "commands/sequence.h"
#include "funcapi.h"

PG_FUNCTION_INFO_V1(locality_uuid_sequence_nextval);
PG_FUNCTION_INFO_V1(locality_uuid_time_nextval);
PG_FUNCTION_INFO_V1(locality_uuid_block_layout);
PG_FUNCTION_INFO_V1(locality_uuid_block);
}

using namespace locality_uuid;

/* Which generator's words the argument errors use (those of sequential_uuids 1.0.3). */
enum BlockVariant
{
	BLOCKS_SEQUENCE,
	BLOCKS_TIME
};

// Compute the layout of (size, count), raising the reference's error for a bad argument.
static BlockLayout
checked_layout(int32 size, int32 count, BlockVariant variant)
{
	BlockLayout l;

	switch (block_layout(size, count, &l))
	{
		case BlockStatus::ok:
			break;
		case BlockStatus::bad_block_size:
			if (variant == BLOCKS_SEQUENCE)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("block size must be a positive integer")));
			else
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("length of interval must be a positive integer")));
			break;
		case BlockStatus::bad_block_count:
			if (variant == BLOCKS_SEQUENCE)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("number of blocks must be a positive integer")));
			else
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("number of intervals must be a positive integer")));
			break;
	}
	return l;
}

// Make the id of value v: its prefix, then bytes from this backend's random pool.
static Datum
block_uuid(int64 v, const BlockLayout &l)
{
	uint8_t		random[uuid_len];
	uint8_t		bytes[uuid_len];

	if (!random_bytes(random, block_random_len(l)))
		report_status(Status::random_failed);
	encode_block(v, l, random, bytes);
	PG_RETURN_UUID_P(make_uuid(bytes));
}

// Return seconds as an interval of days and time, or NULL past the interval type's days.
static Datum
seconds_interval(int64 secs, bool *isnull)
{
	Interval   *iv = static_cast<Interval *>(palloc(sizeof(Interval)));

	*isnull = secs / SECS_PER_DAY > PG_INT32_MAX;
	iv->month = 0;
	iv->day = static_cast<int32>(secs / SECS_PER_DAY);
	iv->time = (secs % SECS_PER_DAY) * USECS_PER_SEC;
	return IntervalPGetDatum(iv);
}

/*
 * Arguments are checked before nextval is called, so a bad call uses no sequence value;
 * nextval_internal does nextval()'s permission checks (USAGE or UPDATE on the sequence).
 */
extern "C" Datum
locality_uuid_sequence_nextval(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	BlockLayout l = checked_layout(PG_GETARG_INT32(1), PG_GETARG_INT32(2), BLOCKS_SEQUENCE);

	return block_uuid(sequence_input(nextval_internal(relid, true)), l);
}

extern "C" Datum
locality_uuid_time_nextval(PG_FUNCTION_ARGS)
{
	BlockLayout l = checked_layout(PG_GETARG_INT32(0), PG_GETARG_INT32(1), BLOCKS_TIME);

	return block_uuid(floor_div(static_cast<int64>(wall_ms()), 1000), l);
}

extern "C" Datum
locality_uuid_block_layout(PG_FUNCTION_ARGS)
{
	BlockLayout l = checked_layout(PG_GETARG_INT32(0), PG_GETARG_INT32(1), BLOCKS_SEQUENCE);
	TupleDesc	tupdesc;
	Datum		values[6];
	bool		nulls[6] = {false, false, false, false, false, false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("function returning record called in context that cannot accept type record")));
	tupdesc = BlessTupleDesc(tupdesc);

	values[0] = Int32GetDatum(l.prefix_bits);
	values[1] = Int64GetDatum(static_cast<int64>(block_prefixes(l)));
	values[2] = Int64GetDatum(l.block_size);
	values[3] = Int64GetDatum(block_wrap(l));
	values[4] = seconds_interval(l.block_size, &nulls[4]);
	values[5] = seconds_interval(block_wrap(l), &nulls[5]);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

extern "C" Datum
locality_uuid_block(PG_FUNCTION_ARGS)
{
	const uint8_t *id = PG_GETARG_UUID_P(0)->data;
	int32		count = PG_GETARG_INT32(1);

	if (count < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of blocks must be a positive integer")));
	if (version_nibble(id) != version_4)
		PG_RETURN_NULL();
	PG_RETURN_INT64(static_cast<int64>(decode_block(id, count)));
}
