// The extension's sequences: found in the calling function's schema, advanced for allocation ranges and leases.
#include "glue.hpp"

extern "C" {
#include "access/relation.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "commands/sequence.h"
#include "miscadmin.h"
#include "storage/lock.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

namespace locality_uuid
{

/* Numbers of explicit-time ids per range drawn: nextval v gives v * 256 .. v * 256 + 255. */
static constexpr uint32_t allocation_range = 256;

void
require_writable(const char *user)
{
	if (RecoveryInProgress() || XactReadOnly)
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("%s cannot run in a read-only transaction", user),
				 errdetail("It advances a sequence, which a read-only transaction or a standby cannot do."),
				 errhint("Call it on the primary, in a read-write transaction.")));
}

Oid
extension_sequence(FunctionCallInfo fcinfo, const char *name, const char *user)
{
	Oid schema = get_func_namespace(fcinfo->flinfo->fn_oid);
	Oid seq = get_relname_relid(name, schema);

	if (!OidIsValid(seq))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sequence %s.%s does not exist", get_namespace_name(schema), name),
				 errdetail("%s needs that sequence of the extension.", user),
				 errhint("Run ALTER EXTENSION locality_uuid UPDATE.")));
	require_writable(user);
	return seq;
}

Oid
extension_sequence_if_writable(FunctionCallInfo fcinfo, const char *name)
{
	if (RecoveryInProgress() || XactReadOnly || IsInParallelMode())
		return InvalidOid;
	return get_relname_relid(name, get_func_namespace(fcinfo->flinfo->fn_oid));
}

void
take_allocations(FunctionCallInfo fcinfo, Allocator *allocations, AllocationStatus st,
				 const char *sequence, const char *user)
{
	if (st == AllocationStatus::needs_allocations)
	{
		Oid seq = extension_sequence(fcinfo, sequence, user);

		allocations->add_range(static_cast<uint64_t>(nextval_internal(seq, false)), allocation_range);
		if (!allocations->used_up())
			return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("%s has used up all %llu allocation numbers of this database",
					user, static_cast<unsigned long long>(allocations->limit())),
			 errdetail("An id at an explicit time carries its allocation number whole, in %d bits; "
					   "the sequence %s hands out each number once, in ranges of %u.",
					   allocations->bits(), sequence, allocation_range)));
}

// Set the extension's sequence seq to value, as its owner: callers have no privilege on it.
static void
set_sequence(Oid seq, int64_t value)
{
	Relation rel = relation_open(seq, AccessShareLock);
	Oid      owner = rel->rd_rel->relowner;
	Oid      save_userid;
	int      save_sec_context;

	relation_close(rel, AccessShareLock);
	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
	DirectFunctionCall3(setval3_oid, ObjectIdGetDatum(seq), Int64GetDatum(value), BoolGetDatum(true));
	SetUserIdAndSecContext(save_userid, save_sec_context);
}

/*
 * Writers take a lock of their own on the sequence (an advisory tag that SQL's advisory locks
 * cannot name), so its value only grows; the lock is the transaction's, released here or by an
 * error's abort.
 */
int64_t
extend_lease(FunctionCallInfo fcinfo, const char *sequence, const char *user, int64_t wanted,
			 int64_t *lease)
{
	Oid     seq = extension_sequence(fcinfo, sequence, user);
	LOCKTAG tag;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, seq, 0, 7);
	(void) LockAcquire(&tag, ExclusiveLock, false, false);

	int64_t floor = nextval_internal(seq, false);

	*lease = Max(floor, wanted);
	if (*lease > floor)
		set_sequence(seq, *lease);
	LockRelease(&tag, ExclusiveLock, false);
	return floor;
}

} // namespace locality_uuid
