// SQL values the glue makes and reads: timestamps as Unix milliseconds, uuids, result rows.
#include "glue.hpp"

#include <cstring>

extern "C" {
#include "funcapi.h"
#include "utils/builtins.h"
}

namespace locality_uuid
{

int64_t
timestamptz_to_unix_ms(TimestampTz ts, const char *argname)
{
	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("%s must be a finite timestamp", argname)));
	return floor_div(ts, 1000) + pg_epoch_unix_ms;
}

int64_t
made_bound_arg(FunctionCallInfo fcinfo, int n, int64_t if_null)
{
	return PG_ARGISNULL(n) ? if_null : made_bound(PG_GETARG_TIMESTAMPTZ(n));
}

int64_t
made_bound(TimestampTz ts)
{
	if (TIMESTAMP_IS_NOBEGIN(ts))
		return INT64_MIN;
	if (ts > INT64_MAX - pg_epoch_unix_us)
		return INT64_MAX;
	return ts + pg_epoch_unix_us;
}

TimestampTz
unix_ms_to_timestamptz(int64_t ms)
{
	return (ms - pg_epoch_unix_ms) * 1000;
}

TupleDesc
result_tupdesc(FunctionCallInfo fcinfo)
{
	TupleDesc tupdesc;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("function returning record called in context that cannot accept type record")));
	return BlessTupleDesc(tupdesc);
}

pg_uuid_t *
make_uuid(const uint8_t bytes[uuid_len])
{
	pg_uuid_t *u = static_cast<pg_uuid_t *>(palloc(sizeof(pg_uuid_t)));

	memcpy(u->data, bytes, uuid_len);
	return u;
}

const pg_uuid_t *
uuid_text_arg(FunctionCallInfo fcinfo, int n)
{
	char *chars = text_to_cstring(PG_GETARG_TEXT_PP(n));

	return DatumGetUUIDP(DirectFunctionCall1(uuid_in, CStringGetDatum(chars)));
}

} // namespace locality_uuid
