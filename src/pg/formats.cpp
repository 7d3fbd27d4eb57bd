// locality_uuid_describe(): which formats could have made an id and the time each reading gives, as the core's rule says.
#include "glue.hpp"

#include <cstring>

extern "C" {
#include "common/int.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

PG_FUNCTION_INFO_V1(locality_uuid_describe);
}

using namespace locality_uuid;

/* Columns of the result, in the order of the SQL declaration. */
enum DescribeColumn
{
	COL_FORMAT,
	COL_VERSION,
	COL_VARIANT,
	COL_KIND,
	COL_MADE_AT,
	COL_TIME_EXACT,
	COL_ORDERS_BY_TIME,
	COL_ID_TIME,
	COL_COUNT
};

// Add the row of one reading, or with f null the row of an id no format fits.
static void
put_reading(ReturnSetInfo *rsinfo, const IdReading &r, int f)
{
	Datum values[COL_COUNT];
	bool  nulls[COL_COUNT];

	memset(nulls, 0, sizeof(nulls));
	values[COL_VERSION] = Int32GetDatum(static_cast<int32>(r.version));
	values[COL_VARIANT] = CStringGetTextDatum(variant_name(r.variant));
	values[COL_KIND] = CStringGetTextDatum(rfc_kind_name(r.kind));
	if (f < 0)
	{
		nulls[COL_FORMAT] = nulls[COL_MADE_AT] = nulls[COL_TIME_EXACT] = true;
		nulls[COL_ORDERS_BY_TIME] = nulls[COL_ID_TIME] = true;
	}
	else
	{
		const FormatReading &reading = r.formats[f];

		values[COL_FORMAT] = CStringGetTextDatum(format_name(static_cast<Format>(f)));
		values[COL_MADE_AT] = TimestampTzGetDatum(reading.unix_us - pg_epoch_unix_us);
		nulls[COL_MADE_AT] = !reading.has_time;
		values[COL_TIME_EXACT] = BoolGetDatum(reading.time_exact);
		values[COL_ORDERS_BY_TIME] = BoolGetDatum(reading.orders_by_time);
		values[COL_ID_TIME] = BoolGetDatum(f == r.time_from);
	}
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

// locality_uuid_describe(id uuid, as_of timestamptz) RETURNS SETOF record
extern "C" Datum
locality_uuid_describe(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);
	TimestampTz as_of = PG_GETARG_TIMESTAMPTZ(1);
	int64       as_of_us;
	IdReading   r;
	bool        any = false;

	if (TIMESTAMP_NOT_FINITE(as_of))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("as_of must be a finite timestamp")));
	if (pg_add_s64_overflow(as_of, pg_epoch_unix_us, &as_of_us)) /* the last 30 years of timestamptz */
		as_of_us = PG_INT64_MAX;
	read_id(id->data, as_of_us, false, &r);
	InitMaterializedSRF(fcinfo, 0);

	ReturnSetInfo *rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);

	for (int f = 0; f < format_count; f++)
		if (r.formats[f].fits)
		{
			put_reading(rsinfo, r, f);
			any = true;
		}
	if (!any)
		put_reading(rsinfo, r, -1);
	return (Datum) 0;
}
