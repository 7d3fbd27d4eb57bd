// The extension's sequences: found in the calling function's schema, advanced for allocation ranges.
#include "glue.hpp"

extern "C" {
#include "access/xact.h"
#include "access/xlog.h"
#include "commands/sequence.h"
#include "utils/lsyscache.h"
}

namespace locality_uuid
{

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

}							// namespace locality_uuid
