// Errors the glue raises for argument ranges and for the statuses the core returns.
#include "glue.hpp"

namespace locality_uuid
{

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
report_failed_status(Status st)
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

} // namespace locality_uuid
