// The extension's sequences: found by the extension's membership, advanced for allocation ranges, set for leases.
#include "glue.hpp"

#include <cstring>

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/pg_class.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_sequence.h"
#include "common/int.h"
#include "commands/extension.h"
#include "commands/sequence.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"
#include "utils/syscache.h"
}

namespace locality_uuid
{

void
require_writable(const char *caller)
{
	if (RecoveryInProgress() || XactReadOnly)
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("%s cannot run in a read-only transaction", caller),
				 errdetail("It advances a sequence, which a read-only transaction or a standby cannot do."),
				 errhint("Call it on the primary, in a read-write transaction.")));
}

/*
 * The extension's sequences this backend has looked up, by name (InvalidOid: none). They are
 * found by membership of the extension that holds the calling function (pg_depend), never by
 * name in a schema: a relation another role made there under that name is not the extension's.
 * An invalidation of a sequence found (dropped, replaced by a restore, altered) or of every
 * relation forgets them all and moves generation on, so that a lease held against a
 * sequence that is gone is given up before the next id; a name found missing is looked up
 * again after any relation's invalidation, so that an update that creates it is seen.
 */
struct KnownSequence
{
	const char *name;
	Oid         oid;
};

static constexpr int known_max = 8;
static KnownSequence known[known_max];
static int           known_count = 0;
static uint64_t      generation = 1;
static uint64_t      invalidations = 0; /* calls of forget_sequences */
static bool          callback_registered = false;

// Forget the sequences looked up when relid (InvalidOid: every relation) is invalidated.
static void
forget_sequences(Datum, Oid relid)
{
	int kept = 0;

	invalidations++;
	for (int i = 0; i < known_count; i++)
	{
		if (!OidIsValid(relid) || (OidIsValid(known[i].oid) && known[i].oid == relid))
		{
			known_count = 0;
			generation++;
			return;
		}
	}
	for (int i = 0; i < known_count; i++)
		if (OidIsValid(known[i].oid))
			known[kept++] = known[i];
	known_count = kept;
}

bool
sequences_replaced_since(uint64_t *seen)
{
	if (*seen == generation)
		return false;
	*seen = generation;
	return true;
}

// Find the sequence name among the members of the extension ext.
static Oid
find_member_sequence(Oid ext, const char *name)
{
	Oid         found = InvalidOid;
	ScanKeyData key[2];
	HeapTuple   tup;

	if (!OidIsValid(ext))
		return InvalidOid;

	Relation    depend = table_open(DependRelationId, AccessShareLock);
	SysScanDesc scan;

	ScanKeyInit(&key[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(ExtensionRelationId));
	ScanKeyInit(&key[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(ext));
	scan = systable_beginscan(depend, DependReferenceIndexId, true, NULL, 2, key);
	while (!OidIsValid(found) && HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_depend dep = reinterpret_cast<Form_pg_depend>(GETSTRUCT(tup));

		if (dep->classid == RelationRelationId && dep->objsubid == 0 && dep->deptype == DEPENDENCY_EXTENSION &&
			get_rel_relkind(dep->objid) == RELKIND_SEQUENCE)
		{
			char *relname = get_rel_name(dep->objid);

			if (relname != NULL && strcmp(relname, name) == 0)
				found = dep->objid;
		}
	}
	systable_endscan(scan);
	table_close(depend, AccessShareLock);
	return found;
}

// True if the extension ext is at version since or later (versions are major.minor).
static bool
extension_at_least(Oid ext, const char *since)
{
	Relation    rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple   tup;
	int         have[2] = {0, 0};
	int         want[2] = {0, 0};

	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(ext));
	scan = systable_beginscan(rel, ExtensionOidIndexId, true, NULL, 1, &key);
	if (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		bool  isnull;
		Datum version = heap_getattr(tup, Anum_pg_extension_extversion, RelationGetDescr(rel), &isnull);

		if (!isnull)
			(void) sscanf(TextDatumGetCString(version), "%d.%d", &have[0], &have[1]);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	(void) sscanf(since, "%d.%d", &want[0], &want[1]);
	return have[0] != want[0] ? have[0] > want[0] : have[1] >= want[1];
}

// Return the cached lookup of name in *seq: true if there is one.
static bool
known_sequence(const char *name, Oid *seq)
{
	for (int i = 0; i < known_count; i++)
		if (strcmp(known[i].name, name) == 0)
		{
			*seq = known[i].oid;
			return true;
		}
	return false;
}

// Look up the sequence name among the members of the extension that holds the calling function,
// giving that extension in *ext, and whether no invalidation came during the search in *stable
// (what it found may be kept then): InvalidOid where either is missing.
static Oid
lookup_sequence(FunctionCallInfo fcinfo, const char *name, Oid *ext, bool *stable)
{
	if (!callback_registered)
	{
		CacheRegisterRelcacheCallback(forget_sequences, PointerGetDatum(NULL));
		callback_registered = true;
	}

	uint64_t before = invalidations;

	*ext = getExtensionOfObject(ProcedureRelationId, fcinfo->flinfo->fn_oid);

	Oid seq = find_member_sequence(*ext, name);

	*stable = invalidations == before && known_count < known_max;
	return seq;
}

Oid
member_sequence(FunctionCallInfo fcinfo, const char *name)
{
	Oid  seq;
	Oid  ext;
	bool stable;

	bool had = known_sequence(name, &seq);

	if (had && OidIsValid(seq))
		return seq;
	seq = lookup_sequence(fcinfo, name, &ext, &stable);
	/* A missing one is not kept: extension_sequence raises for it where no version excuses it. */
	if (stable && OidIsValid(seq) && !had)
		known[known_count++] = KnownSequence{name, seq};
	return seq;
}

Oid
extension_sequence(FunctionCallInfo fcinfo, const char *name, const char *caller, const char *since, bool again)
{
	Oid  seq;
	Oid  ext;
	bool stable;

	if (!again && known_sequence(name, &seq))
		return seq;
	seq = lookup_sequence(fcinfo, name, &ext, &stable);
	if (!OidIsValid(seq) && (since == NULL || !OidIsValid(ext) || extension_at_least(ext, since)))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sequence %s of extension locality_uuid is missing", name),
				 errdetail("%s needs that sequence, a member of the extension under that name; a relation "
						   "that is not a member, or has another name, is never used.",
						   caller),
				 errhint("Run ALTER EXTENSION locality_uuid UPDATE. Where the extension is up to date, rename "
						 "the sequence back and run ALTER EXTENSION locality_uuid ADD SEQUENCE %s.",
						 name)));
	/* An invalidation read during the search may concern what it found: keep nothing then. */
	if (!again && stable)
		known[known_count++] = KnownSequence{name, seq};
	return seq;
}

void
forget_stale_allocations(SequenceAllocations *allocations)
{
	if (sequences_replaced_since(&allocations->generation))
		allocations->numbers = Allocator(allocations->numbers.bits());
}

void
take_allocations(FunctionCallInfo fcinfo, SequenceAllocations *allocations, AllocationStatus st)
{
	Allocator *numbers = &allocations->numbers;

	if (st == AllocationStatus::needs_allocations)
	{
		Oid seq = extension_sequence(fcinfo, allocations->sequence, allocations->caller);

		require_writable(allocations->caller);

		int64_t range = nextval_internal(seq, false);

		/* Not a range that ran out: refused before the allocator, which would keep it used up. */
		if (range < 0)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s cannot take allocation numbers: sequence %s gave a negative value, %lld",
							allocations->caller, allocations->sequence, static_cast<long long>(range)),
					 errdetail("Each value of the sequence is a range of %u allocation numbers, counted from 0; "
							   "a negative value is none of them.",
							   allocation_range),
					 errhint("The sequence was set or altered below 0. Set it back above every value it gave "
							 "before, and its increment to 1.")));
		numbers->add_range(static_cast<uint64_t>(range), allocation_range);
		state_fold_calls();
		if (!numbers->used_up())
			return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("%s has used up all %llu allocation numbers of this database",
					allocations->caller, static_cast<unsigned long long>(numbers->limit())),
			 errdetail("An id at an explicit time carries its allocation number whole, in %d bits; "
					   "the sequence %s hands out each number once, in ranges of %u.",
					   numbers->bits(), allocations->sequence, allocation_range)));
}

// Call fn(seq) as the owner of the extension's sequence seq: callers have no privilege on it.
template<typename Fn>
static void
as_sequence_owner(Oid seq, Fn fn)
{
	Relation rel = relation_open(seq, AccessShareLock);
	Oid      owner = rel->rd_rel->relowner;
	Oid      save_userid;
	int      save_sec_context;

	relation_close(rel, AccessShareLock);
	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
	fn(seq);
	SetUserIdAndSecContext(save_userid, save_sec_context);
}

void
set_extension_sequence(Oid seq, int64_t value)
{
	as_sequence_owner(seq, [&](Oid s) {
		DirectFunctionCall3(setval3_oid, ObjectIdGetDatum(s), Int64GetDatum(value), BoolGetDatum(true));
	});
}

/* The special space of a sequence's page (sequence.c's sequence_magic). */
constexpr uint32 sequence_page_magic = 0x1717;

bool
peek_sequence(Oid seq, int64_t *next, bool *past_end)
{
	bool called = false;

	if (past_end != NULL)
		*past_end = false;
	/* NULL: dropped, even while this waited for the lock of a DROP (no "could not open relation"). */
	Relation rel = try_relation_open(seq, AccessShareLock);

	if (rel == NULL)
		return false;

	bool ok = rel->rd_rel->relkind == RELKIND_SEQUENCE;

	if (ok)
	{
		Buffer buf = ReadBuffer(rel, 0);
		Page   page = BufferGetPage(buf);

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		ok = PageGetSpecialSize(page) >= sizeof(uint32) &&
			*reinterpret_cast<uint32 *>(PageGetSpecialPointer(page)) == sequence_page_magic &&
			PageGetMaxOffsetNumber(page) >= FirstOffsetNumber && ItemIdIsNormal(PageGetItemId(page, FirstOffsetNumber));
		if (ok)
		{
			HeapTupleHeader       tuple = reinterpret_cast<HeapTupleHeader>(PageGetItem(page, PageGetItemId(page, FirstOffsetNumber)));
			Form_pg_sequence_data data = reinterpret_cast<Form_pg_sequence_data>(reinterpret_cast<char *>(tuple) + tuple->t_hoff);

			*next = data->last_value;
			called = data->is_called;
		}
		UnlockReleaseBuffer(buf);
	}
	/* The increment and bounds from the syscache: under the AccessShareLock held, no other lock. */
	HeapTuple params = ok ? SearchSysCache1(SEQRELID, ObjectIdGetDatum(seq)) : NULL;

	ok = ok && HeapTupleIsValid(params);
	/* is_called false (a new sequence, setval(..., false)): last_value is the next nextval's. */
	if (ok && called)
	{
		Form_pg_sequence p = reinterpret_cast<Form_pg_sequence>(GETSTRUCT(params));
		int64_t          stepped;
		bool             beyond = pg_add_s64_overflow(*next, p->seqincrement, &stepped) ||
			(p->seqincrement > 0 ? stepped > p->seqmax : stepped < p->seqmin);

		/* As nextval_internal: past a bound it cycles, or raises and gives nothing. */
		if (!beyond)
			*next = stepped;
		else if (p->seqcycle)
			*next = p->seqincrement > 0 ? p->seqmin : p->seqmax;
		else if (past_end != NULL)
			*past_end = true;
	}
	if (HeapTupleIsValid(params))
		ReleaseSysCache(params);
	relation_close(rel, AccessShareLock);
	return ok;
}

int64_t
next_sequence_value(Oid seq)
{
	int64_t next = 0;

	if (!peek_sequence(seq, &next))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sequence %u of extension locality_uuid could not be read", seq),
				 errdetail("It was dropped, or is not a sequence.")));
	return next;
}

} // namespace locality_uuid
