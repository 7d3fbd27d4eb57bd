// The planner's side of the time range spellings (uuidv7_made, hot_uuid_made): their expansion into btree conditions on the id.
#include "glue.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relscan.h"
#include "access/visibilitymap.h"
#include "executor/tuptable.h"
#include "access/itup.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/stratnum.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_class_d.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type_d.h"
#include "commands/defrem.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "storage/bufmgr.h"
#include "nodes/nodeFuncs.h"
#include "catalog/pg_proc_d.h"
#include "catalog/pg_statistic.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "nodes/supportnodes.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/planner.h"
#include "optimizer/prep.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteManip.h"
#if PG_VERSION_NUM >= 190000
#include "optimizer/pathnode.h"
#else
#include "optimizer/plancat.h"
#endif
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/snapmgr.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"
#include "utils/typcache.h"
}

namespace locality_uuid
{

/*
 * Why a simplification and not an index condition of the function itself: the planner prunes
 * partitions, and Citus routes and deparses, only on plain clauses of the partition or index
 * column. Rewritten into id >= key(since) AND id <= key(before) AND a check of the id, the
 * spelling is such clauses wherever it appears, on every major, without a preloaded hook. The
 * expansion has the function's own result: true where the id was made in the range, false
 * elsewhere (never NULL), for every input. It is made only where the id is a column (of type
 * uuid, or of a domain over it, which the call relabels to uuid and an index on it matches
 * alike), which costs nothing to read three times (an expression would be computed in each
 * clause, and one that is stable but not deterministic could take a different value in each),
 * and where no argument is volatile (a key of it could not be an index condition); elsewhere the
 * function filters each row.
 * Nothing is evaluated while the expansion is made: a bound is only copied into its key's call,
 * which the planner folds where the bound is a constant, so a bound that a query never evaluates
 * (a CASE branch no row takes) raises nothing. The check takes the id alone, so that two
 * expansions' checks are equal and a partial index or ON CONFLICT ... WHERE of one range is
 * proved by a narrower range (the keys' comparisons prove each other); its estimate reads the
 * range from the comparisons beside it (made_check_support).
 */

// Return the column under an argument of type uuid: the Var, or the Var of a domain over uuid
// relabelled to it; NULL for any other expression.
static Var *
uuid_column(Node *arg)
{
	if (IsA(arg, RelabelType))
		arg = reinterpret_cast<Node *>(reinterpret_cast<RelabelType *>(arg)->arg);
	if (!IsA(arg, Var) || getBaseType(reinterpret_cast<Var *>(arg)->vartype) != UUIDOID)
		return NULL;
	return reinterpret_cast<Var *>(arg);
}

// Return a copy of a node (copyObject needs typeof, which C++ lacks).
static Node *
copy_of(Node *node)
{
	return static_cast<Node *>(copyObjectImpl(node));
}

/*
 * The executor checks EXECUTE on each function of a plan, as the user who runs it: a rewrite that
 * took the user's function out of the plan, or put another in, would change who may run the
 * query. So a rewrite is made only where the user planning it may execute both the functions it
 * replaces and those it adds, and the plan depends on each of them and on the role: a GRANT or a
 * REVOKE of one, or a cached plan run by another role (SET ROLE, SECURITY DEFINER), plans it
 * again. Elsewhere the functions stay as written and the executor checks them.
 */

// True if the current user may execute each of the functions; record the plan's dependency on
// them and on the role.
static bool
may_execute(PlannerInfo *root, const Oid *fns, int n)
{
	bool allowed = true;

	for (int i = 0; i < n; i++)
	{
		if (root != NULL && root->glob != NULL)
			record_plan_function_dependency(root, fns[i]);
#if PG_VERSION_NUM >= 160000
		if (object_aclcheck(ProcedureRelationId, fns[i], GetUserId(), ACL_EXECUTE) != ACLCHECK_OK)
#else
		if (pg_proc_aclcheck(fns[i], GetUserId(), ACL_EXECUTE) != ACLCHECK_OK)
#endif
			allowed = false;
	}
	if (root != NULL && root->glob != NULL)
		root->glob->dependsOnRole = true;
	return allowed;
}

/* The spellings whose support functions this backend has called (v7's, hot's). */
static const MadeSpelling *spellings_seen[4];
static int                 spellings_seen_count = 0;

// Remember a spelling whose support function was called.
static void
remember_spelling(const MadeSpelling *spelling)
{
	for (int i = 0; i < spellings_seen_count; i++)
		if (spellings_seen[i] == spelling)
			return;
	if (spellings_seen_count < static_cast<int>(lengthof(spellings_seen)))
		spellings_seen[spellings_seen_count++] = spelling;
}

/*
 * Return the function name(argtypes) of namespace schema if it is a member of extension ext;
 * InvalidOid where there is none. Its exact signature only, so a look-alike with other or more
 * (defaulted) arguments, or in another schema, is never taken; and membership, so that neither
 * is a function of that name and signature that another role made where the spelling was moved
 * to (ALTER FUNCTION ... SET SCHEMA). One probe of the catalog cache (the key is pg_proc's
 * unique index), where LookupFuncName would load every function of the name in every schema and
 * check each one's namespace: a fresh session planned uuidv7_made with 104 buffers more than the
 * range written by hand, a warm one with 26 more (the default operator class was read from
 * pg_opclass at each call too, see uuid_comparison).
 */
static Oid
spelling_function(Oid schema, Oid ext, const char *name, int nargs, const Oid *argtypes)
{
	Oid fn = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid, CStringGetDatum(name),
							 PointerGetDatum(buildoidvector(argtypes, nargs)), ObjectIdGetDatum(schema));

	return OidIsValid(fn) && getExtensionOfObject(ProcedureRelationId, fn) == ext ? fn : InvalidOid;
}

// Return fn(arg) as the planner would simplify it: a constant when arg is one.
static Node *
call_of(Oid fn, Oid result_type, Node *arg)
{
	return eval_const_expressions(NULL, reinterpret_cast<Node *>(makeFuncExpr(fn, result_type, list_make1(copy_of(arg)), InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL)));
}

// Return arg IS NOT NULL.
static Node *
is_not_null(Node *arg)
{
	NullTest *test = makeNode(NullTest);

	test->arg = reinterpret_cast<Expr *>(arg);
	test->nulltesttype = IS_NOT_NULL;
	test->argisrow = false;
	test->location = -1;
	return reinterpret_cast<Node *>(test);
}

// Return id OP key for the uuid btree operator of strategy.
static Node *
uuid_comparison(Node *id, Node *key, StrategyNumber strategy)
{
	Oid   op = get_opfamily_member(lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf, UUIDOID,
								   UUIDOID, strategy);
	Expr *clause = make_opclause(op, BOOLOID, false, reinterpret_cast<Expr *>(copy_of(id)),
								 reinterpret_cast<Expr *>(key), InvalidOid, InvalidOid);

	reinterpret_cast<OpExpr *>(clause)->opfuncid = get_opcode(op);
	return reinterpret_cast<Node *>(clause);
}

// True if the uuid is 16 bytes of fill.
static bool
filled(const uint8_t *u, uint8_t fill)
{
	for (std::size_t i = 0; i < uuid_len; i++)
		if (u[i] != fill)
			return false;
	return true;
}

// True if the constant is the uuid of 16 bytes of fill.
static bool
filled_uuid(const Const *c, uint8_t fill)
{
	return filled(DatumGetUUIDP(c->constvalue)->data, fill);
}

/*
 * Add id OP key to *clauses, or nothing where every id meets it (a constant key of fill
 * every_id); false if no id does (a constant NULL key). A key not yet known (now(), $1) that
 * can be NULL adds key IS NOT NULL, a one-time filter, so that the expansion is false there.
 */
static bool
add_bound(List **clauses, Node *id, Node *key, StrategyNumber strategy, uint8_t every_id, bool nullable)
{
	if (IsA(key, Const))
	{
		if (reinterpret_cast<Const *>(key)->constisnull)
			return false;
		if (filled_uuid(reinterpret_cast<Const *>(key), every_id))
			return true;
	}
	else if (nullable)
		*clauses = lappend(*clauses, is_not_null(copy_of(key)));
	*clauses = lappend(*clauses, uuid_comparison(id, key, strategy));
	return true;
}

Datum
made_datum(FunctionCallInfo fcinfo, bool (*made)(const uint8_t *id, int64_t since_us, int64_t before_us))
{
	PG_RETURN_BOOL(!PG_ARGISNULL(0) && !PG_ARGISNULL(1) && !PG_ARGISNULL(2) &&
				   made(PG_GETARG_UUID_P(0)->data, made_bound_arg(fcinfo, 1, 0), made_bound_arg(fcinfo, 2, 0)));
}

/* One bound of a range: the key function and the bound (a timestamptz expression). */
struct RangeBound
{
	Oid   key;
	Node *bound;
	bool  upper; /* id <= key, else id >= key */
};

/*
 * Return the expansion of id in the range of the bounds: check, then the comparisons with the
 * keys. The check comes first so that its estimate is made before theirs (made_check_support).
 * Constant false where no id is in the range.
 */
static Node *
expansion(Node *id, const RangeBound *bounds, int n, Node *check, bool keys_nullable)
{
	List *clauses = list_make1(check);

	for (int i = 0; i < n; i++)
		if (!add_bound(&clauses, id, call_of(bounds[i].key, UUIDOID, bounds[i].bound),
					   bounds[i].upper ? BTLessEqualStrategyNumber : BTGreaterEqualStrategyNumber,
					   bounds[i].upper ? 0xff : 0x00, keys_nullable))
			return makeBoolConst(false, false);
	return list_length(clauses) == 1 ? static_cast<Node *>(linitial(clauses))
									 : reinterpret_cast<Node *>(make_andclause(clauses));
}

// Return id_check(id), the expansion's check.
static Node *
check_of(Oid check, Node *id)
{
	return reinterpret_cast<Node *>(
		makeFuncExpr(check, BOOLOID, list_make1(copy_of(id)), InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL));
}

// Return a bound as the check of a 1.5 database carries it: the constant, or NULL.
static Node *
constant_or_null(Node *bound)
{
	return IsA(bound, Const) ? copy_of(bound)
							 : reinterpret_cast<Node *>(makeNullConst(TIMESTAMPTZOID, -1, InvalidOid));
}

Node *
made_support(Node *request, const MadeSpelling &spelling)
{
	static const Oid        key_args[] = {TIMESTAMPTZOID};
	static const Oid        id_args[] = {UUIDOID};
	static const Oid        check_args[] = {UUIDOID, TIMESTAMPTZOID, TIMESTAMPTZOID};
	SupportRequestSimplify *req;
	List                   *args;
	Oid                     schema;
	Oid                     ext;
	Oid                     since_key;
	Oid                     before_key;
	Oid                     check;
	Node                   *id;
	Node                   *check_call;

	if (!IsA(request, SupportRequestSimplify))
		return NULL;
	remember_spelling(&spelling);
	req = reinterpret_cast<SupportRequestSimplify *>(request);
	args = req->fcall->args;
	if (list_length(args) != 3 || contain_volatile_functions(reinterpret_cast<Node *>(args)) ||
		uuid_column(static_cast<Node *>(linitial(args))) == NULL)
		return NULL;
	/*
	 * The helpers are the spelling's own: members of its extension, in its schema. Without them
	 * (a spelling moved on its own, or not a member) the call is left alone and filters each row.
	 */
	schema = get_func_namespace(req->fcall->funcid);
	ext = getExtensionOfObject(ProcedureRelationId, req->fcall->funcid);
	if (!OidIsValid(ext) || !OidIsValid(since_key = spelling_function(schema, ext, spelling.since_key, 1, key_args)) ||
		!OidIsValid(before_key = spelling_function(schema, ext, spelling.before_key, 1, key_args)))
		return NULL;
	id = static_cast<Node *>(linitial(args));
	if (OidIsValid(check = spelling_function(schema, ext, spelling.id_check, 1, id_args)))
		check_call = check_of(check, id);
	else if (OidIsValid(check = spelling_function(schema, ext, spelling.id_check, 3, check_args)))
		// A database at 1.5 has only the check with bounds, which serve its estimate.
		check_call = reinterpret_cast<Node *>(makeFuncExpr(
			check, BOOLOID,
			list_make3(copy_of(id), constant_or_null(static_cast<Node *>(lsecond(args))),
					   constant_or_null(static_cast<Node *>(lthird(args)))),
			InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL));
	else
		return NULL;
	Oid used[] = {req->fcall->funcid, since_key, before_key, check};
	if (!may_execute(req->root, used, lengthof(used)))
		return NULL;

	RangeBound bounds[] = {{since_key, static_cast<Node *>(lsecond(args)), false},
						   {before_key, static_cast<Node *>(lthird(args)), true}};
	return expansion(id, bounds, 2, check_call, spelling.keys_nullable);
}

/*
 * The selectivity of the check, and through it the estimate of the whole expansion. The
 * planner multiplies the selectivities of a rel's clauses as if independent: the range clauses
 * id >= key(since) AND id <= key(before) give P_planner(range), and the check, true for nearly
 * every id in the range, would give about 1. But P_planner(range) is poor for narrow ranges:
 * the planner cannot place a uuid within a histogram bucket (convert_to_scalar has no uuid case)
 * and takes the bucket's middle, so a range across one bucket boundary is estimated at about
 * half a bucket (1 % of the table at the default statistics target), whatever its width. The
 * check therefore answers the conditional selectivity P(range and check) / P_planner(range),
 * with P(range) the check's own estimate from the same histogram, interpolated inside the
 * bucket on the keys' leading 8 bytes (milliseconds or seconds first, so time is linear there);
 * the planner's product is then P(range). The quotient is a selectivity only up to 1: where
 * P_planner(range) is below P(range) (both keys inside one bucket: the planner's two halves
 * cancel out to its floor of 1e-10), the product stays the planner's.
 * P(range and check) is taken as P(range): ids of other formats inside a format's key range
 * are rare. Without a histogram, or with a bound not known before the query runs, 1.
 */

// Return the leading 8 bytes of a uuid as a number.
static double
leading(const uint8_t *u)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | u[i];
	return static_cast<double>(v);
}

// Return the uuid of a histogram value.
static const uint8_t *
value_of(const AttStatsSlot &hist, int i)
{
	return DatumGetUUIDP(hist.values[i])->data;
}

/*
 * A bucket between formats, from another format's id to the format's least bound (a version 4
 * id to a version 7 one) or from the format's greatest bound to another format's id, holds the
 * format's ids only from the column's least id of the format up (or up to its greatest): its
 * time runs from the edge id, not from the other format's bound. Interpolating by time from a
 * version 4 bound put the oldest hour of a column 30 % of version 4 ids at 1 row (for 485), and
 * counting up to now ranges past the newest version 7 id 27 times over. The format's ids go on
 * at the pace of its bucket beside the edge bucket (as many a millisecond) up to the edge id,
 * at most the whole bucket; the rest of the bucket is the other format's, below the least edge
 * id (above the greatest: version 4 ids sort above 2026's version 7 ids but for 0.6 % of them),
 * where the format's ranges do not reach.
 */
struct FormatEdge
{
	int     bucket; // the bucket's lower bound's index; -1 where not read
	uint8_t id[uuid_len];
	double  share; // the format's share of the bucket's population
};

// Return where x lies between a and b, in [0, 1].
static double
part(double x, double a, double b)
{
	return b > a ? std::min(1.0, std::max(0.0, (x - a) / (b - a))) : (x >= b ? 1.0 : 0.0);
}

// Return the fraction of the histogram's population at or below key, a key in the bucket of edge
// (the lower edge of the format's ids where upper is false).
static double
edge_fraction(const AttStatsSlot &hist, const uint8_t *key, const FormatEdge &edge, bool upper)
{
	double low = leading(value_of(hist, edge.bucket));
	double high = leading(value_of(hist, edge.bucket + 1));
	double at = leading(edge.id);
	double k = leading(key);
	double w = edge.share;
	double in = upper ? w * part(k, low, at) + (1 - w) * part(k, at, high)
					  : (1 - w) * part(k, low, at) + w * part(k, at, high);

	return (edge.bucket + in) / (hist.nvalues - 1);
}

/*
 * Return the fraction of the histogram's population at or below key: the bucket by binary
 * search, the place inside it by linear interpolation on the leading bytes. Ids are made up to
 * now (the key of the transaction's start, or NULL), so the last bucket reaches now where now is
 * less than a bucket past it (ANALYZE's newest sampled id is a little older than the newest id),
 * and in a bucket from an id of the format to one of another (the version 4 ids above a column's
 * version 7 ids, most of that bucket's population) the format's ids go on at the pace of the
 * bucket below, up to now. -1 where no place can be read off: a bucket from another format's id,
 * or between formats with no bucket of the format below or no now.
 */
static double
histogram_fraction(const AttStatsSlot &hist, const uint8_t *key, bool (*of_format)(const uint8_t *id),
				   const uint8_t *now, const FormatEdge *edges = NULL)
{
	int            last = hist.nvalues - 1;
	int            lo = 0;
	int            hi = last;
	const uint8_t *top = value_of(hist, last);
	bool           filling = now != NULL && memcmp(now, top, uuid_len) > 0 &&
		leading(now) - leading(top) < leading(top) - leading(value_of(hist, last - 1));
	double low;
	double high;

	if (memcmp(key, value_of(hist, 0), uuid_len) < 0)
		return 0;
	if (memcmp(key, top, uuid_len) >= 0)
	{
		if (!filling || memcmp(key, now, uuid_len) >= 0)
			return 1;
		lo = last - 1;
	}
	while (hi - lo > 1) // values[lo] <= key < values[hi]
	{
		int mid = lo + (hi - lo) / 2;

		if (memcmp(key, value_of(hist, mid), uuid_len) < 0)
			hi = mid;
		else
			lo = mid;
	}
	for (int e = 0; edges != NULL && e < 2; e++)
		if (edges[e].bucket == lo && hi == lo + 1)
			return edge_fraction(hist, key, edges[e], e == 1);
	low = leading(value_of(hist, lo));
	high = hi == last && filling ? leading(now) : leading(value_of(hist, hi));
	if (of_format != NULL && !of_format(value_of(hist, lo)))
		return -1;
	if (of_format != NULL && !of_format(value_of(hist, hi)))
	{
		// Mostly another format's ids: the format's go on at the pace of the bucket below, up to now,
		// past the bucket's end too where they last longer than that bucket (ANALYZE's last bound of
		// the format can be more than a bucket's time older than its newest ids): only differences
		// of these fractions are used, up to the histogram's end.
		double pace = lo > 0 && of_format(value_of(hist, lo - 1)) ? low - leading(value_of(hist, lo - 1)) : 0;

		if (now == NULL || pace <= 0)
			return -1;
		return (lo + std::min(static_cast<double>(last - lo), std::max(0.0, (std::min(leading(key), leading(now)) - low) / pace))) / last;
	}
	return (lo + (high > low ? std::min(1.0, std::max(0.0, (leading(key) - low) / (high - low))) : 0.5)) / last;
}

/*
 * The histogram's first and last bounds are the least and greatest ids of ANALYZE's sample, not
 * of the column: of 1,000,000 rows ANALYZE samples 30,000 (at the default statistics target),
 * so the first bound is some 33 rows after the least id, and a range of the table's first or last
 * 100 rows read against it missed 2x after 3 to 6 of 20 ANALYZEs. A key in the first
 * or last bucket therefore reads the column's least or greatest id from a B-tree index on it, as
 * PostgreSQL does for a created_at column (get_actual_variable_range).
 */

/*
 * Dead entries at an end of the index (deleted rows not yet vacuumed, a rolled-back batch) are
 * passed as get_actual_variable_range passes them: the snapshot sees the rows not yet removable,
 * an entry whose heap page is all-visible is read without the heap, and index_fetch_heap marks
 * an entry whose row is dead to everyone so that the scan kills it (kill_prior_tuple) and the
 * next probe skips it. The probe gives up after the heap pages of dead entries reach
 * VISITED_PAGES_LIMIT's 100 (selfuncs.c), or 100 live entries of other formats.
 */
enum Probe
{
	probe_none = 0,
	probe_found = 1,
	probe_gave_up = -1
};
static const int probe_pages_limit = 100;
static const int probe_entries_limit = 100;

// Read the first live id of index from its least (or greatest) end into out, from key from on (at
// or above it, or at or below it for the greatest; NULL: the index's end), of the format where
// of_format is given; an ascending or a descending index, scanned in the direction that finds it.
static Probe
index_end(PlannerInfo *root, const IndexOptInfo *index, bool greatest, uint8_t out[uuid_len],
		  const uint8_t *from = NULL, bool (*of_format)(const uint8_t *id) = NULL)
{
	Relation        heap = table_open(planner_rt_fetch(index->rel->relid, root)->relid, NoLock);
	Relation        irel = index_open(index->indexoid, NoLock);
	TupleTableSlot *slot = table_slot_create(heap, NULL);
	ScanDirection   direction = greatest != index->reverse_sort[0] ? BackwardScanDirection : ForwardScanDirection;
	Buffer          vm = InvalidBuffer;
	BlockNumber     last_dead = InvalidBlockNumber;
	SnapshotData    snapshot;
	ScanKeyData     not_null;
	IndexScanDesc   scan;
	ItemPointer     tid;
	Probe           result = probe_none;
	int             dead_pages = 0;
	int             others = 0;

	InitNonVacuumableSnapshot(snapshot, GlobalVisTestFor(heap));
	if (from == NULL)
		ScanKeyEntryInitialize(&not_null, SK_ISNULL | SK_SEARCHNOTNULL, 1, InvalidStrategy, InvalidOid, InvalidOid,
							   InvalidOid, (Datum) 0);
	else
		ScanKeyInit(&not_null, 1, greatest ? BTLessEqualStrategyNumber : BTGreaterEqualStrategyNumber,
					greatest ? F_UUID_LE : F_UUID_GE, UUIDPGetDatum(make_uuid(from)));
#if PG_VERSION_NUM >= 190000
	scan = index_beginscan(heap, irel, &snapshot, NULL, 1, 0, SO_NONE);
#elif PG_VERSION_NUM >= 180000
	scan = index_beginscan(heap, irel, &snapshot, NULL, 1, 0);
#else
	scan = index_beginscan(heap, irel, &snapshot, 1, 0);
#endif
	scan->xs_want_itup = true;
	index_rescan(scan, &not_null, 1, NULL, 0);
	while (result == probe_none && (tid = index_getnext_tid(scan, direction)) != NULL)
	{
		BlockNumber block = ItemPointerGetBlockNumber(tid);
		bool        isnull;
		Datum       id;

		if (!VM_ALL_VISIBLE(heap, block, &vm) && !index_fetch_heap(scan, slot))
		{
			dead_pages += block != last_dead;
			last_dead = block;
			if (dead_pages > probe_pages_limit)
				result = probe_gave_up;
			continue;
		}
		id = index_getattr(scan->xs_itup, 1, scan->xs_itupdesc, &isnull);
		if (!isnull && (of_format == NULL || of_format(DatumGetUUIDP(id)->data)))
		{
			memcpy(out, DatumGetUUIDP(id)->data, uuid_len);
			result = probe_found;
		}
		else if (++others >= probe_entries_limit)
			break;
	}
	if (vm != InvalidBuffer)
		ReleaseBuffer(vm);
	index_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	index_close(irel, NoLock);
	table_close(heap, NoLock);
	return result;
}

// Read the column's least (or greatest) id from a B-tree index whose first key it is, ascending
// or descending: probe_none where there is no such index or no live id. With from, the least id
// at or above it (the greatest at or below it), of the format where of_format is given. Without
// such an index the estimate is the histogram's alone.
static Probe
column_end(PlannerInfo *root, const VariableStatData &vardata, bool greatest, uint8_t out[uuid_len],
		   const uint8_t *from = NULL, bool (*of_format)(const uint8_t *id) = NULL)
{
	Oid       family = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	ListCell *lc;

	if (root == NULL || vardata.rel == NULL || vardata.rel->rtekind != RTE_RELATION)
		return probe_none;
	foreach (lc, vardata.rel->indexlist)
	{
		IndexOptInfo *index = static_cast<IndexOptInfo *>(lfirst(lc));

		if (index->relam == BTREE_AM_OID && index->indpred == NIL && !index->hypothetical &&
			index->sortopfamily != NULL && index->sortopfamily[0] == family &&
			match_index_to_operand(vardata.var, 0, index))
			return index_end(root, index, greatest, out, from, of_format);
	}
	return probe_none;
}

// Put the column's least or greatest id in place of the histogram's first or last bound where a
// key of the range falls in that bucket or beyond it, and the id is of the bound's format.
static void
read_column_ends(PlannerInfo *root, const VariableStatData &vardata, AttStatsSlot &hist, const uint8_t *since,
				 const uint8_t *before, bool (*of_format)(const uint8_t *id))
{
	int            last = hist.nvalues - 1;
	const uint8_t *second = value_of(hist, 1);
	const uint8_t *next_to_last = value_of(hist, last - 1);
	bool           first_bucket = (!filled(since, 0x00) && memcmp(since, second, uuid_len) < 0) ||
		memcmp(before, second, uuid_len) < 0;
	bool last_bucket = memcmp(since, next_to_last, uuid_len) >= 0 ||
		(!filled(before, 0xff) && memcmp(before, next_to_last, uuid_len) >= 0);
	uint8_t id[uuid_len];

	if (first_bucket && column_end(root, vardata, false, id) == probe_found &&
		(of_format == NULL || of_format(id) == of_format(value_of(hist, 0))))
		hist.values[0] = UUIDPGetDatum(make_uuid(id));
	if (last_bucket && column_end(root, vardata, true, id) == probe_found &&
		(of_format == NULL || of_format(id) == of_format(value_of(hist, last))))
		hist.values[last] = UUIDPGetDatum(make_uuid(id));
}

// Return a key whose leading 8 bytes are the number at, the rest fill.
static void
key_at(double at, uint8_t fill, uint8_t out[uuid_len])
{
	uint64_t v = at >= 18446744073709549568.0 ? UINT64_MAX : static_cast<uint64_t>(std::max(0.0, at));

	for (int i = 7; i >= 0; i--, v >>= 8)
		out[i] = static_cast<uint8_t>(v & 0xff);
	memset(out + 8, fill, uuid_len - 8);
}

/*
 * Read the edge id of the format in the bucket between formats below its bound b (above it where
 * upper): the first id of the format from a key twice the time of the format's bucket beside b
 * outside b, and again from 4 and 16 times as far while the id found lies within a quarter of
 * that bucket's time of the key (more of the format's ids beyond the key). False where the
 * format has no bucket beside b, the index no such id among the 100 ids from the key, or none
 * lies apart from the key. Where a probe gives up (dead entries), the format's ids are taken to go
 * on for one bucket's time of the bucket beside b past b, at its pace.
 */
static bool
read_edge(PlannerInfo *root, const VariableStatData &vardata, const AttStatsSlot &hist, int b, bool upper,
		  bool (*of_format)(const uint8_t *id), FormatEdge *edge)
{
	int    beside = upper ? b - 1 : b + 1;
	int    other = upper ? b + 1 : b - 1;
	double bound = leading(value_of(hist, b));
	double end = leading(value_of(hist, other));
	double pace;
	Probe  probe;

	if (beside < 0 || beside >= hist.nvalues || !of_format(value_of(hist, beside)))
		return false;
	pace = std::fabs(bound - leading(value_of(hist, beside)));
	for (double reach = 2 * pace; pace > 0 && reach <= 32 * pace; reach *= 4)
	{
		bool    clamped = reach >= std::fabs(end - bound);
		double  from = clamped ? end : bound + (upper ? reach : -reach);
		uint8_t key[uuid_len];

		key_at(from, upper ? 0xff : 0x00, key);
		probe = column_end(root, vardata, upper, edge->id, key, of_format);
		if (probe == probe_gave_up)
			key_at(bound + (upper ? 1 : -1) * std::min(pace, std::fabs(end - bound)), upper ? 0xff : 0x00, edge->id);
		else if (probe == probe_none || memcmp(edge->id, value_of(hist, b), uuid_len) * (upper ? -1 : 1) > 0)
			return false;
		if (probe == probe_gave_up || clamped || std::fabs(leading(edge->id) - from) > pace / 4)
		{
			edge->bucket = upper ? b : b - 1;
			edge->share = std::min(1.0, std::fabs(leading(edge->id) - bound) / pace);
			return true;
		}
	}
	return false;
}

// Read the edges of the format's ids where a key of the range (or its open end) falls in a bucket
// between formats, with the format's share of that bucket.
static void
read_edges(PlannerInfo *root, const VariableStatData &vardata, const AttStatsSlot &hist, const uint8_t *since,
		   const uint8_t *before, bool (*of_format)(const uint8_t *id), bool open_below, bool open_above,
		   FormatEdge edges[2])
{
	int last = hist.nvalues - 1;
	int first = 0;
	int top = last;

	edges[0].bucket = edges[1].bucket = -1;
	if (of_format == NULL || hist.nvalues < 3)
		return;
	while (first <= last && !of_format(value_of(hist, first)))
		first++;
	while (top > first && !of_format(value_of(hist, top)))
		top--;
	if (first > 0 && first <= last &&
		(open_below || (!filled(since, 0x00) && memcmp(since, value_of(hist, first), uuid_len) < 0) ||
		 memcmp(before, value_of(hist, first), uuid_len) < 0))
		read_edge(root, vardata, hist, first, false, of_format, &edges[0]);
	if (top < last && top >= first &&
		(open_above || memcmp(since, value_of(hist, top), uuid_len) >= 0 ||
		 (!filled(before, 0xff) && memcmp(before, value_of(hist, top), uuid_len) >= 0)))
		read_edge(root, vardata, hist, top, true, of_format, &edges[1]);
}

// True if the uuid datum is in [since, before].
static bool
in_range(Datum id, const uint8_t *since, const uint8_t *before)
{
	const uint8_t *u = DatumGetUUIDP(id)->data;

	return memcmp(u, since, uuid_len) >= 0 && memcmp(u, before, uuid_len) <= 0;
}

/*
 * Return the share of the rows whose id is in [since, before] by the id's statistics, or -1
 * where there are none (no histogram, or not readable by this user) or a key falls in a bucket
 * between formats. With to_format_end, before is the range's open end: the histogram's end (its
 * ids dated after now are in range, as a created_at column's histogram counts its future rows),
 * or now where the histogram ends in other formats' ids (version 4 ids above version 7 ones).
 */
static double
range_share(PlannerInfo *root, Node *id, int var_relid, const uint8_t *since, const uint8_t *before,
			bool (*of_format)(const uint8_t *id), const uint8_t *now, bool to_format_end = false,
			bool from_format_start = false)
{
	VariableStatData vardata;
	AttStatsSlot     hist;
	AttStatsSlot     mcv;
	double           share = -1;

	examine_variable(root, id, var_relid, &vardata);
	if (HeapTupleIsValid(vardata.statsTuple) && vardata.acl_ok &&
		get_attstatsslot(&hist, vardata.statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid, ATTSTATSSLOT_VALUES))
	{
		double nullfrac = reinterpret_cast<Form_pg_statistic>(GETSTRUCT(vardata.statsTuple))->stanullfrac;
		double mcv_all = 0;
		double mcv_in = 0;

		if (get_attstatsslot(&mcv, vardata.statsTuple, STATISTIC_KIND_MCV, InvalidOid,
							 ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
		{
			for (int i = 0; i < mcv.nvalues; i++)
			{
				mcv_all += mcv.numbers[i];
				if (in_range(mcv.values[i], since, before))
					mcv_in += mcv.numbers[i];
			}
			free_attstatsslot(&mcv);
		}
		if (hist.nvalues >= 3)
			read_column_ends(root, vardata, hist, since, before, of_format);
		FormatEdge edges[2];

		read_edges(root, vardata, hist, since, before, of_format, from_format_start, to_format_end, edges);
		if (to_format_end && hist.nvalues >= 2 && of_format != NULL && !of_format(value_of(hist, hist.nvalues - 1)))
		{
			if (edges[1].bucket >= 0)
				before = edges[1].id;
			else if (now != NULL)
				before = now;
		}
		if (from_format_start && edges[0].bucket >= 0 && memcmp(since, edges[0].id, uuid_len) < 0)
			since = edges[0].id;
		if (edges[1].bucket >= 0 && memcmp(before, edges[1].id, uuid_len) > 0 && memcmp(since, edges[1].id, uuid_len) > 0)
			since = before = edges[1].id;
		if (edges[0].bucket >= 0 && memcmp(since, edges[0].id, uuid_len) < 0 && memcmp(before, edges[0].id, uuid_len) < 0)
			since = before = edges[0].id;
		double below_before = hist.nvalues >= 2 ? histogram_fraction(hist, before, of_format, now, edges) : -1;
		double below_since = hist.nvalues >= 2 ? histogram_fraction(hist, since, of_format, now, edges) : -1;

		if (below_before >= 0 && below_since >= 0)
			share = std::max(0.0, below_before - below_since) * std::max(0.0, 1 - nullfrac - mcv_all) + mcv_in;
		free_attstatsslot(&hist);
	}
	ReleaseVariableStats(vardata);
	return share;
}

// Return the selectivity of a spelling's check: P(range and check) / P_planner(range), in [0, 1].
static double
check_selectivity(const SupportRequestSelectivity *req, const MadeSpelling &spelling)
{
	Node   *id = static_cast<Node *>(linitial(req->args));
	uint8_t keys[2][uuid_len];
	uint8_t now[uuid_len];
	List   *clauses = NIL;
	double  planner;
	double  share;

	for (int b = 0; b < 2; b++)
	{
		Node   *hint = estimate_expression_value(req->root, static_cast<Node *>(list_nth(req->args, b + 1)));
		int64_t us;

		if (!IsA(hint, Const) || reinterpret_cast<Const *>(hint)->constisnull)
			return 1;
		us = made_bound(DatumGetTimestampTz(reinterpret_cast<Const *>(hint)->constvalue));
		if (!(b == 0 ? spelling.since_bytes : spelling.before_bytes)(us, keys[b]))
			return 0;
		// The rewrite's clause of this key, unless every id meets it (add_bound).
		Const *key = makeConst(UUIDOID, -1, InvalidOid, uuid_len, UUIDPGetDatum(make_uuid(keys[b])), false, false);
		if (!filled_uuid(key, b == 0 ? 0x00 : 0xff))
			clauses = lappend(clauses, uuid_comparison(id, reinterpret_cast<Node *>(key), b == 0 ? BTGreaterEqualStrategyNumber : BTLessEqualStrategyNumber));
	}
	share = range_share(req->root, id, req->varRelid, keys[0], keys[1], spelling.of_format,
						spelling.before_bytes(made_bound(GetCurrentTransactionStartTimestamp()), now) ? now : NULL);
	if (share < 0)
		return 1;
	planner = clauses == NIL ? 1 : clauselist_selectivity(req->root, clauses, req->varRelid, req->jointype, req->sjinfo);
	return planner > 0 ? std::min(1.0, std::max(0.0, share / planner)) : 1;
}

/*
 * The check of the id alone (1.6) finds its range in the comparisons beside it: the rel's
 * restriction clauses that compare the id with a key known when planning (the planner reads the
 * same values for its own estimate of those clauses). The planner pairs a lower and an upper
 * comparison of one column into a range, hi + lo - 1, and a pair inside one histogram bucket
 * comes to its floor, 1e-10, which no selectivity of the check (at most 1) could raise. So the
 * check, which the expansion puts before its comparisons, estimates first, and gives each
 * comparison not yet estimated its selectivity by the interpolated histogram (the planner keeps
 * a clause's selectivity in its RestrictInfo and reads it there from then on): the planner's
 * pair of them is then the range's share, for the rel's rows and for the index scan's cost
 * alike, and the check answers 1. Where a comparison was estimated before (written before the
 * check by hand), the check answers P(range) / P_planner(range) as above, for the intersection of
 * every comparison; n equal checks each the n-th root, so that their product corrects once.
 * Inside an OR, or without a comparison beside it, 1.
 */

/* A comparison of the id with a key, among the rel's restriction clauses. */
struct Sibling
{
	RestrictInfo *rinfo;
	uint8_t       key[uuid_len];
	int           strategy;
};

// Read a comparison of id (or id relabelled) with a uuid known when planning (estimated: its value
// now, as the estimate takes it; otherwise a constant only): its key and its btree strategy
// (commuted where the id is on the right); false for any other clause.
static bool
key_comparison(PlannerInfo *root, Expr *clause, const Var *id, uint8_t key[uuid_len], int *strategy,
			   bool estimated = true)
{
	OpExpr *op;
	Oid     family = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf;

	if (!IsA(clause, OpExpr) || list_length((op = reinterpret_cast<OpExpr *>(clause))->args) != 2 ||
		(*strategy = get_op_opfamily_strategy(op->opno, family)) == 0)
		return false;
	for (int side = 0; side < 2; side++)
	{
		Node *column = static_cast<Node *>(list_nth(op->args, side));
		Node *other = static_cast<Node *>(list_nth(op->args, 1 - side));

		if (IsA(column, RelabelType))
			column = reinterpret_cast<Node *>(reinterpret_cast<RelabelType *>(column)->arg);
		if (!IsA(column, Var) || reinterpret_cast<Var *>(column)->varno != id->varno ||
			reinterpret_cast<Var *>(column)->varattno != id->varattno ||
			reinterpret_cast<Var *>(column)->varlevelsup != 0 || contain_var_clause(other) ||
			contain_volatile_functions(other))
			continue;
		if (estimated)
			other = estimate_expression_value(root, other);
		if (!IsA(other, Const) || reinterpret_cast<Const *>(other)->constisnull ||
			reinterpret_cast<Const *>(other)->consttype != UUIDOID)
			return false;
		memcpy(key, DatumGetUUIDP(reinterpret_cast<Const *>(other)->constvalue)->data, uuid_len);
		if (side == 1)
			*strategy = BTMaxStrategyNumber + 1 - *strategy;
		return true;
	}
	return false;
}

// True if a btree strategy compares from above: id < key, id <= key.
static bool
upper_strategy(int strategy)
{
	return strategy == BTLessStrategyNumber || strategy == BTLessEqualStrategyNumber;
}

// True if a btree strategy compares from below: id > key, id >= key.
static bool
lower_strategy(int strategy)
{
	return strategy == BTGreaterStrategyNumber || strategy == BTGreaterEqualStrategyNumber;
}

// Return the rel of the column a check takes, setting *id; NULL where the check is not of a
// column of this request's rel.
static RelOptInfo *
checked_rel(const SupportRequestSelectivity *req, const Var **id)
{
	PlannerInfo *root = req->root;
	const Var   *var = uuid_column(static_cast<Node *>(linitial(req->args)));

	if (root == NULL || var == NULL || var->varlevelsup != 0 ||
		(req->varRelid != 0 && req->varRelid != static_cast<int>(var->varno)) || static_cast<int>(var->varno) <= 0 ||
		static_cast<int>(var->varno) >= root->simple_rel_array_size)
		return NULL;
	*id = var;
	return root->simple_rel_array[var->varno];
}

// Read the rel's comparisons of the id with keys into siblings, returning how many, and count the
// checks equal to this one in *checks; *fresh if no comparison has been estimated yet.
static int
read_siblings(const SupportRequestSelectivity *req, const RelOptInfo *rel, const Var *id, Sibling *siblings,
			  int *checks, bool *fresh)
{
	int       n = 0;
	ListCell *lc;

	*checks = 0;
	*fresh = true;
	foreach (lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = static_cast<RestrictInfo *>(lfirst(lc));

		if (IsA(rinfo->clause, FuncExpr) && reinterpret_cast<FuncExpr *>(rinfo->clause)->funcid == req->funcid &&
			equal(reinterpret_cast<FuncExpr *>(rinfo->clause)->args, req->args))
			(*checks)++;
		else if (key_comparison(req->root, rinfo->clause, id, siblings[n].key, &siblings[n].strategy))
		{
			siblings[n].rinfo = rinfo;
			*fresh = *fresh && rinfo->norm_selec < 0;
			n++;
		}
	}
	return n;
}

// Read the range of the intersection of the comparisons into lower and upper.
static void
range_of(const Sibling *siblings, int n, uint8_t lower[uuid_len], uint8_t upper[uuid_len])
{
	uuid_fill(lower, 0x00);
	uuid_fill(upper, 0xff);
	for (int i = 0; i < n; i++)
	{
		if (!upper_strategy(siblings[i].strategy) && memcmp(siblings[i].key, lower, uuid_len) > 0)
			memcpy(lower, siblings[i].key, uuid_len);
		if (!lower_strategy(siblings[i].strategy) && memcmp(siblings[i].key, upper, uuid_len) < 0)
			memcpy(upper, siblings[i].key, uuid_len);
	}
}

/*
 * Give each comparison its own share: at or below its key, or at or above it; and with no upper
 * comparison, up to the open end of the format's ids (range_share). A pair's shares are of the
 * whole column, so that hi + lo - 1 is the share between them. False, and none given, where a
 * share cannot be read.
 */
static bool
estimate_siblings(const SupportRequestSelectivity *req, const MadeSpelling &spelling, Sibling *siblings, int n,
				  const uint8_t *now_key)
{
	Node   *id = static_cast<Node *>(linitial(req->args));
	double *shares = static_cast<double *>(palloc(sizeof(double) * n));
	bool    open = true;
	bool    open_below = true;
	uint8_t lower[uuid_len];
	uint8_t upper[uuid_len];

	for (int i = 0; i < n; i++)
	{
		open = open && !upper_strategy(siblings[i].strategy);
		open_below = open_below && !lower_strategy(siblings[i].strategy);
	}
	// A range wholly outside the format's ids (past its greatest id, before its least): its pair
	// of shares would come to less than 0, which the planner reads as 0.5 %; the check answers 0.
	range_of(siblings, n, lower, upper);
	if (!open && !open_below &&
		range_share(req->root, id, req->varRelid, lower, upper, spelling.of_format, now_key) == 0)
		return false;
	uuid_fill(lower, 0x00);
	uuid_fill(upper, 0xff);
	for (int i = 0; i < n; i++)
	{
		bool up = upper_strategy(siblings[i].strategy);

		shares[i] = siblings[i].strategy == BTEqualStrategyNumber
			? 0
			: range_share(req->root, id, req->varRelid, up ? lower : siblings[i].key, up ? siblings[i].key : upper,
						  spelling.of_format, now_key, open, open_below);
		if (shares[i] < 0)
			return false;
	}
	for (int i = 0; i < n; i++)
		if (siblings[i].strategy != BTEqualStrategyNumber)
			siblings[i].rinfo->norm_selec = std::min(1.0, shares[i]);
	return true;
}

// Return P(range) / P_planner(range) for the intersection of the comparisons, estimated before,
// the n-th root of it for n equal checks; 1 where the range's share cannot be read.
static double
correction(const SupportRequestSelectivity *req, const MadeSpelling &spelling, const Sibling *siblings, int n,
		   const uint8_t *now_key, int checks)
{
	List   *comparisons = NIL;
	uint8_t lower[uuid_len];
	uint8_t upper[uuid_len];
	double  share;
	double  planner;
	double  selectivity;

	range_of(siblings, n, lower, upper);
	for (int i = 0; i < n; i++)
		comparisons = lappend(comparisons, siblings[i].rinfo);
	share = range_share(req->root, static_cast<Node *>(linitial(req->args)), req->varRelid, lower, upper,
						spelling.of_format, now_key);
	if (share < 0)
		return 1;
	planner = clauselist_selectivity(req->root, comparisons, req->varRelid, JOIN_INNER, NULL);
	selectivity = planner > 0 ? std::min(1.0, std::max(0.0, share / planner)) : 1;
	return checks > 1 ? std::pow(selectivity, 1.0 / checks) : selectivity;
}

// True if no restriction clause of the rel but the checks reads the id: the range is every id of
// the format (a bound of -infinity, whose comparison every id meets, makes none).
static bool
check_alone(const SupportRequestSelectivity *req, const RelOptInfo *rel, const Var *id)
{
	ListCell *lc;

	foreach (lc, rel->baserestrictinfo)
	{
		RestrictInfo *rinfo = static_cast<RestrictInfo *>(lfirst(lc));
		Bitmapset    *read = NULL;

		if (IsA(rinfo->clause, FuncExpr) && reinterpret_cast<FuncExpr *>(rinfo->clause)->funcid == req->funcid &&
			equal(reinterpret_cast<FuncExpr *>(rinfo->clause)->args, req->args))
			continue;
		pull_varattnos(reinterpret_cast<Node *>(rinfo->clause), id->varno, &read);
		if (bms_is_member(id->varattno - FirstLowInvalidHeapAttributeNumber, read))
			return false;
	}
	return true;
}

/*
 * An equality of the id's time with a value not known when planning is rewritten into id >=
 * since_key(x) AND id <= through_key(x), which the planner estimates as a range of unknown
 * bounds: 0.5 % of the rows for a generic plan's parameter or a subquery's value, a third of a
 * third for a joined row's column, whatever the join, where created_at = x is estimated at its
 * rows per distinct value. So the pair is given, before the planner estimates it, the share of
 * one unit of the format's ids (a millisecond, a second) at their mean density over the
 * histogram's span, or of one id where the ids are fewer than the span's units: on the table, the
 * lower comparison 1 and the upper that share. A join's pair is given 1 each, and the check with
 * the bounds, id_check(id, x, x), which the rewrite adds to a join's equality, carries the
 * estimate (equality_selectivity): the unit's share of the pairs of rows for an inner or outer
 * join and for the inner side of a nested loop, the share of rows with a match for a semi or anti
 * join (EXISTS, NOT EXISTS). The index scan of that inner side, which PostgreSQL costs at its
 * defaults for a uuid compared with another row's value, is costed again once the rel's paths
 * are made (recost_equality_paths).
 */

// Return x where clause is id OP key(x) (id on the left, as the rewrite makes it) with the
// strategy; NULL for any other clause.
static Node *
key_argument(const Expr *clause, const Var *id, Oid key, int strategy)
{
	const OpExpr   *op = reinterpret_cast<const OpExpr *>(clause);
	const FuncExpr *call;
	const Var      *column;

	if (!IsA(clause, OpExpr) || list_length(op->args) != 2 ||
		get_op_opfamily_strategy(op->opno, lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf) != strategy)
		return NULL;
	column = uuid_column(static_cast<Node *>(linitial(op->args)));
	call = static_cast<const FuncExpr *>(lsecond(op->args));
	if (column == NULL || column->varno != id->varno || column->varattno != id->varattno ||
		column->varlevelsup != 0 || !IsA(call, FuncExpr) || call->funcid != key || list_length(call->args) != 1)
		return NULL;
	return static_cast<Node *>(linitial(call->args));
}

// Return the share of the format's ids of one unit at their mean density over the histogram's
// span, or of one id where they are fewer than the span's units, and the format's share of the
// rows in *format (where that share is not read: of one row of the table, and 1); -1 where the
// table's size is not known either.
static double
unit_share(PlannerInfo *root, Node *id, int var_relid, const MadeSpelling &spelling, double *format)
{
	VariableStatData vardata;
	AttStatsSlot     hist;
	uint8_t          lower[uuid_len];
	uint8_t          upper[uuid_len];
	uint8_t          now[uuid_len];
	double           units = -1;
	double           rows = 0;

	uuid_fill(lower, 0x00);
	uuid_fill(upper, 0xff);
	*format = range_share(root, id, var_relid, lower, upper, spelling.of_format,
						  spelling.before_bytes(made_bound(GetCurrentTransactionStartTimestamp()), now) ? now : NULL,
						  true, true);
	examine_variable(root, id, var_relid, &vardata);
	if (*format > 0 && HeapTupleIsValid(vardata.statsTuple) && vardata.acl_ok && vardata.rel != NULL &&
		get_attstatsslot(&hist, vardata.statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid, ATTSTATSSLOT_VALUES))
	{
		int first = 0;
		int last = hist.nvalues - 1;

		while (first <= last && spelling.of_format != NULL && !spelling.of_format(value_of(hist, first)))
			first++;
		while (last >= first && spelling.of_format != NULL && !spelling.of_format(value_of(hist, last)))
			last--;
		// The leading bytes of a unit: the keys of two times 1000 units apart, in 2023. With fewer
		// than two bounds of the format (its ids inside one bucket of others') the span is not
		// read, and each id is taken for a unit of its own.
		if (first < last && spelling.since_bytes(INT64CONST(1700000000000000), lower) &&
			spelling.since_bytes(INT64CONST(1700000000000000) + 1000 * spelling.unit_us, upper) &&
			leading(upper) > leading(lower))
			units = 1 + (leading(value_of(hist, last)) - leading(value_of(hist, first))) / ((leading(upper) - leading(lower)) / 1000);
		rows = vardata.rel->tuples * *format;
		if (units <= 0)
			units = rows;
		free_attstatsslot(&hist);
	}
	if (rows < 1 && vardata.rel != NULL && vardata.rel->tuples >= 1)
	{
		// The format's share not read (its ids inside a bucket of others'): one id a unit, of all.
		*format = 1;
		units = rows = vardata.rel->tuples;
	}
	ReleaseVariableStats(vardata);
	return units > 0 && rows >= 1 ? 1 / std::min(rows, units) : -1;
}

// Return the fraction of NULL values of an expression with statistics (a column), 0 without.
static double
null_fraction(PlannerInfo *root, Node *expression)
{
	VariableStatData vardata;
	double           fraction = 0;

	examine_variable(root, expression, 0, &vardata);
	if (HeapTupleIsValid(vardata.statsTuple))
		fraction = reinterpret_cast<Form_pg_statistic>(GETSTRUCT(vardata.statsTuple))->stanullfrac;
	ReleaseVariableStats(vardata);
	return fraction;
}

// Return the spelling's key functions beside the check fn in *since_key and *through_key, and its
// check with bounds in *bounded_check; false where one is missing.
static bool
equality_functions(Oid fn, const MadeSpelling &spelling, Oid *since_key, Oid *through_key, Oid *bounded_check)
{
	static const Oid key_args[] = {TIMESTAMPTZOID};
	static const Oid check_args[] = {UUIDOID, TIMESTAMPTZOID, TIMESTAMPTZOID};
	Oid              schema = get_func_namespace(fn);
	Oid              ext = getExtensionOfObject(ProcedureRelationId, fn);

	return OidIsValid(*since_key = spelling_function(schema, ext, spelling.since_key, 1, key_args)) &&
		OidIsValid(*through_key = spelling_function(schema, ext, spelling.through_key, 1, key_args)) &&
		OidIsValid(*bounded_check = spelling_function(schema, ext, spelling.id_check, 3, check_args));
}

// True if the clauses hold the check with bounds id_check(id, x, x).
static bool
has_bounded_check(List *clauses, Oid bounded_check, Node *x)
{
	ListCell *lc;

	foreach (lc, clauses)
	{
		const FuncExpr *call = reinterpret_cast<const FuncExpr *>(static_cast<RestrictInfo *>(lfirst(lc))->clause);

		if (IsA(call, FuncExpr) && call->funcid == bounded_check && list_length(call->args) == 3 &&
			equal(lsecond(call->args), x) && equal(lthird(call->args), x))
			return true;
	}
	return false;
}

// Give the pairs of an equality with a value not known when planning, among the rel's
// restriction and join clauses not estimated yet, their estimates.
static void
estimate_equalities(const SupportRequestSelectivity *req, const MadeSpelling &spelling, const RelOptInfo *rel,
					const Var *id)
{
	List     *clauses = list_concat_copy(rel->baserestrictinfo, rel->joininfo);
	double    share = 0;
	double    format = 0;
	Oid       since_key;
	Oid       through_key;
	Oid       bounded_check;
	ListCell *lc;
	ListCell *uc;

	if (!equality_functions(req->funcid, spelling, &since_key, &through_key, &bounded_check))
		return;
	foreach (lc, clauses)
	{
		RestrictInfo *lower = static_cast<RestrictInfo *>(lfirst(lc));
		Node         *x = key_argument(lower->clause, id, since_key, BTGreaterEqualStrategyNumber);
		bool          join = x != NULL && contain_vars_of_level(x, 0);

		// A value known when planning (now()) makes keys that the siblings' estimate reads.
		if (x == NULL || lower->norm_selec >= 0 || lower->outer_selec >= 0 ||
			(join ? !has_bounded_check(rel->joininfo, bounded_check, x)
				  : IsA(estimate_expression_value(req->root, x), Const)))
			continue;
		foreach (uc, clauses)
		{
			RestrictInfo *upper = static_cast<RestrictInfo *>(lfirst(uc));
			Node         *y = key_argument(upper->clause, id, through_key, BTLessEqualStrategyNumber);

			if (y == NULL || upper->norm_selec >= 0 || upper->outer_selec >= 0 || !equal(x, y))
				continue;
			if (!join && share == 0 &&
				(share = unit_share(req->root, static_cast<Node *>(linitial(req->args)), req->varRelid, spelling,
									&format)) < 0)
				return;
			lower->norm_selec = lower->outer_selec = 1;
			upper->norm_selec = upper->outer_selec = join ? 1 : std::min(1.0, share * format);
			break;
		}
	}
}

// Return the selectivity of id_check(id, x, x) where the rewrite added it to a join's equality
// (x reads another relation), in [0, 1]; -1 for any other check with bounds.
static double
equality_selectivity(const SupportRequestSelectivity *req, const MadeSpelling &spelling)
{
	Node       *id = static_cast<Node *>(linitial(req->args));
	Node       *x = static_cast<Node *>(lsecond(req->args));
	const Var  *column = uuid_column(id);
	Oid         since_key;
	Oid         through_key;
	Oid         bounded_check;
	double      format;
	double      share;
	double      planner;
	RelOptInfo *rel;
	int         other;

	if (column == NULL || req->root == NULL || !equal(x, lthird(req->args)) || !contain_vars_of_level(x, 0) ||
		column->varlevelsup != 0 || static_cast<int>(column->varno) >= req->root->simple_rel_array_size ||
		(rel = req->root->simple_rel_array[column->varno]) == NULL)
		return -1;
	if (!equality_functions(req->funcid, spelling, &since_key, &through_key, &bounded_check) ||
		(share = unit_share(req->root, id, req->varRelid, spelling, &format)) < 0)
		return 1;
	// A NULL value matches nothing (a join's; a nested loop's inner side is asked for one value).
	if (req->varRelid == 0)
		share *= 1 - null_fraction(req->root, x);
	// The inner side of a nested loop: the pair estimated afresh, at PostgreSQL's defaults.
	planner = req->varRelid == 0
		? 1
		: clauselist_selectivity(
			  req->root,
			  list_make2(uuid_comparison(id, call_of(since_key, UUIDOID, x), BTGreaterEqualStrategyNumber),
						 uuid_comparison(id, call_of(through_key, UUIDOID, x), BTLessEqualStrategyNumber)),
			  req->varRelid, JOIN_INNER, NULL);
	if ((req->jointype == JOIN_SEMI || req->jointype == JOIN_ANTI) && req->varRelid == 0 && req->sjinfo != NULL)
	{
		// The share of the outer rows with a match among the inner ones (of one relation).
		if (bms_is_member(column->varno, req->sjinfo->min_righthand))
			share *= rel->rows;
		else if (bms_get_singleton_member(req->sjinfo->min_righthand, &other) &&
				 other < req->root->simple_rel_array_size && req->root->simple_rel_array[other] != NULL)
			share *= req->root->simple_rel_array[other]->rows;
	}
	return planner > 0 ? std::min(1.0, share / planner) : 1;
}

// Return the selectivity of a check of the id alone, in [0, 1], giving its comparisons theirs.
static double
sibling_selectivity(const SupportRequestSelectivity *req, const MadeSpelling &spelling)
{
	const Var     *id = NULL;
	RelOptInfo    *rel = checked_rel(req, &id);
	Sibling       *siblings;
	int            n;
	int            checks;
	bool           fresh;
	uint8_t        now[uuid_len];
	const uint8_t *now_key;

	if (rel == NULL)
		return 1;
	siblings = static_cast<Sibling *>(palloc(sizeof(Sibling) * (list_length(rel->baserestrictinfo) + 1)));
	n = read_siblings(req, rel, id, siblings, &checks, &fresh);
	if (checks == 0)
		return 1;
	estimate_equalities(req, spelling, rel, id);
	if (n == 0 && !check_alone(req, rel, id))
		return 1;
	now_key = spelling.before_bytes(made_bound(GetCurrentTransactionStartTimestamp()), now) ? now : NULL;
	if (n == 0)
	{
		uint8_t lower[uuid_len];
		uint8_t upper[uuid_len];
		double  share;

		uuid_fill(lower, 0x00);
		uuid_fill(upper, 0xff);
		share = range_share(req->root, static_cast<Node *>(linitial(req->args)), req->varRelid, lower, upper,
							spelling.of_format, now_key, true, true);
		return share >= 0 ? std::pow(std::min(1.0, share), 1.0 / checks) : 1;
	}
	if (fresh && estimate_siblings(req, spelling, siblings, n, now_key))
		return 1;
	return correction(req, spelling, siblings, n, now_key, checks);
}

Node *
made_check_support(Node *request, const MadeSpelling &spelling)
{
	SupportRequestSelectivity *req;

	if (!IsA(request, SupportRequestSelectivity))
		return NULL;
	// A check written by hand is known to the planner hook too, from the first statement on.
	remember_spelling(&spelling);
	req = reinterpret_cast<SupportRequestSelectivity *>(request);
	if (list_length(req->args) == 3 && (req->selectivity = equality_selectivity(req, spelling)) >= 0)
		;
	else if (req->is_join)
		req->selectivity = 1;
	else if (list_length(req->args) == 1)
		req->selectivity = sibling_selectivity(req, spelling);
	else if (list_length(req->args) == 3)
		req->selectivity = check_selectivity(req, spelling);
	else
		return NULL;
	return request;
}

/*
 * The user's own words: uuidv7_timestamp(id) OP x and hot_uuid_timestamp(id) OP x (>=, >, <,
 * <=, =; BETWEEN is a pair of them) among a query's AND-ed conditions are rewritten into the
 * spelling's expansion, id >= key(x) and the like AND the check, before the planner distributes
 * the conditions to relations: so the id's B-tree takes them as index conditions, partitions
 * RANGE (id) are pruned and a partial index of either spelling is proved, as for uuidv7_made.
 * Only a WHERE or JOIN ... ON condition at the top of its AND is rewritten, where a NULL
 * comparison and false select the same rows (no comparison inside OR, NOT, CASE or a select
 * list), of a column of type uuid or a domain over it, with a bound of type timestamptz that is not volatile; the
 * comparisons of one column make one expansion, whose check sees the whole range. Each
 * relation's comparisons are rewritten when the planner builds it, unless an index of the
 * relation has the extractor's call as a key: one made for these comparisons, which keeps them.
 *
 * No preload: a comparison cannot be seen by a support function of the extractor (it is handed
 * the call alone), but the extractor's SupportRequestSimplify is called while the planner
 * simplifies the query's expressions, which loads this library, and its _PG_init installs the
 * hook; the planner calls the hook for each relation after that and before it distributes the
 * conditions (get_relation_info_hook, build_simple_rel_hook on 19), in the same planning. The
 * hook rewrites only comparisons of an extractor whose support function it has seen, and the
 * index predicates of the relation, so that they read as the query's conditions do.
 */

/* An extractor seen by its support function in this backend. */
struct Extractor
{
	Oid                 fn;
	const MadeSpelling *spelling;
};

static Extractor extractors[8];
static int       extractor_count = 0;

#if PG_VERSION_NUM >= 190000
static build_simple_rel_hook_type previous_rel_hook = NULL;
#else
static get_relation_info_hook_type previous_rel_hook = NULL;
#endif

Node *
extractor_support(Node *request, const MadeSpelling &spelling)
{
	if (IsA(request, SupportRequestSimplify))
	{
		Oid fn = reinterpret_cast<SupportRequestSimplify *>(request)->fcall->funcid;
		int i = 0;

		while (i < extractor_count && extractors[i].fn != fn)
			i++;
		if (i == extractor_count && i < static_cast<int>(lengthof(extractors)))
			extractors[extractor_count++] = {fn, &spelling};
		remember_spelling(&spelling);
	}
	return NULL;
}

/* A comparison of an extractor of a column with a bound. */
struct Comparison
{
	Node               *clause;
	Var                *id;
	Node               *arg; /* the extractor's argument: id, or id relabelled from a domain */
	Oid                 extractor;
	const MadeSpelling *spelling;
	int                 strategy; /* btree strategy, extractor on the left */
	Node               *bound;
};

// Read clause as extractor(column) OP bound or bound OP extractor(column); false if it is not one.
static bool
time_comparison(Node *clause, Comparison *c)
{
	OpExpr *op;
	Oid     left;
	Oid     right;

	if (!IsA(clause, OpExpr) || list_length((op = reinterpret_cast<OpExpr *>(clause))->args) != 2)
		return false;
	for (int side = 0; side < 2; side++)
	{
		Node     *call = static_cast<Node *>(list_nth(op->args, side));
		Node     *bound = static_cast<Node *>(list_nth(op->args, 1 - side));
		FuncExpr *f;
		int       i = 0;

		if (!IsA(call, FuncExpr) || list_length((f = reinterpret_cast<FuncExpr *>(call))->args) != 1 ||
			(c->id = uuid_column(static_cast<Node *>(linitial(f->args)))) == NULL)
			continue;
		while (i < extractor_count && extractors[i].fn != f->funcid)
			i++;
		c->arg = static_cast<Node *>(linitial(f->args));
		if (i == extractor_count || c->id->varlevelsup != 0 ||
			exprType(bound) != TIMESTAMPTZOID || contain_volatile_functions(bound))
			continue;
		op_input_types(op->opno, &left, &right);
		if (left != TIMESTAMPTZOID || right != TIMESTAMPTZOID ||
			(c->strategy = get_op_opfamily_strategy(
				 op->opno, lookup_type_cache(TIMESTAMPTZOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf)) == 0)
			return false;
		if (side == 1)
			c->strategy = BTMaxStrategyNumber + 1 - c->strategy;
		c->clause = clause;
		c->extractor = f->funcid;
		c->spelling = extractors[i].spelling;
		c->bound = bound;
		return true;
	}
	return false;
}

// Add the expansion of the comparisons of one column to *out; false (nothing added) where the
// spelling's functions are missing beside the extractor, or the user may not execute one it takes.
static bool
add_expansion(PlannerInfo *root, List **out, const Comparison *const *group, int n)
{
	static const Oid  key_args[] = {TIMESTAMPTZOID};
	static const Oid  id_args[] = {UUIDOID};
	static const Oid  bounded_check_args[] = {UUIDOID, TIMESTAMPTZOID, TIMESTAMPTZOID};
	const Comparison *first = group[0];
	Oid               schema = get_func_namespace(first->extractor);
	Oid               ext = getExtensionOfObject(ProcedureRelationId, first->extractor);
	Oid               since_key;
	Oid               before_key;
	Oid               after_key;
	Oid               through_key;
	Oid               check;
	Oid               bounded_check = InvalidOid;
	RangeBound       *bounds = static_cast<RangeBound *>(palloc(sizeof(RangeBound) * 2 * n));
	Oid              *used = static_cast<Oid *>(palloc(sizeof(Oid) * (2 * n + 3)));
	int               nused;
	int               nbounds = 0;
	List             *joined = NIL;
	Node             *expanded;
	ListCell         *lc;

	if (!OidIsValid(ext) ||
		!OidIsValid(since_key = spelling_function(schema, ext, first->spelling->since_key, 1, key_args)) ||
		!OidIsValid(before_key = spelling_function(schema, ext, first->spelling->before_key, 1, key_args)) ||
		!OidIsValid(after_key = spelling_function(schema, ext, first->spelling->after_key, 1, key_args)) ||
		!OidIsValid(through_key = spelling_function(schema, ext, first->spelling->through_key, 1, key_args)) ||
		!OidIsValid(check = spelling_function(schema, ext, first->spelling->id_check, 1, id_args)))
		return false;
	for (int i = 0; i < n; i++)
	{
		Node *bound = group[i]->bound;

		switch (group[i]->strategy)
		{
			case BTLessStrategyNumber:
				bounds[nbounds++] = {before_key, bound, true};
				break;
			case BTLessEqualStrategyNumber:
				bounds[nbounds++] = {through_key, bound, true};
				break;
			case BTEqualStrategyNumber:
				bounds[nbounds++] = {since_key, bound, false};
				bounds[nbounds++] = {through_key, bound, true};
				if (contain_vars_of_level(bound, 0))
					joined = lappend(joined, bound);
				break;
			case BTGreaterEqualStrategyNumber:
				bounds[nbounds++] = {since_key, bound, false};
				break;
			default:
				bounds[nbounds++] = {after_key, bound, false};
				break;
		}
	}
	used[0] = first->extractor;
	used[1] = check;
	for (int i = 0; i < nbounds; i++)
		used[i + 2] = bounds[i].key;
	nused = nbounds + 2;
	// A join's equality: the check with its bounds carries the join's estimate (equality_selectivity).
	if (joined != NIL && OidIsValid(bounded_check = spelling_function(schema, ext, first->spelling->id_check, 3, bounded_check_args)))
		used[nused++] = bounded_check;
	else
		joined = NIL;
	if (!may_execute(root, used, nused))
		return false;
	/* A NULL comparison is false here: no key IS NOT NULL filter is needed. */
	expanded = expansion(first->arg, bounds, nbounds, check_of(check, first->arg), false);
	if (is_andclause(expanded))
		*out = list_concat(*out, reinterpret_cast<BoolExpr *>(expanded)->args);
	else
		*out = lappend(*out, expanded);
	foreach (lc, joined)
		*out = lappend(*out, makeFuncExpr(bounded_check, BOOLOID, list_make3(copy_of(first->arg), copy_of(static_cast<Node *>(lfirst(lc))), copy_of(static_cast<Node *>(lfirst(lc)))), InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL));
	return true;
}

// True if an index of the table has the extractor's call of the column as a key (a partitioned
// table's own index too, which the planner does not list): the comparison is then left to it.
static bool
extractor_indexed(Oid table, const Comparison *c)
{
	Relation  relation = table_open(table, NoLock);
	List     *indexes = RelationGetIndexList(relation);
	bool      found = false;
	ListCell *lc;

	table_close(relation, NoLock);
	foreach (lc, indexes)
	{
		HeapTuple tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(lfirst_oid(lc)));
		bool      isnull;
		Datum     exprs;
		ListCell *e;

		if (!HeapTupleIsValid(tuple))
			continue;
		exprs = SysCacheGetAttr(INDEXRELID, tuple, Anum_pg_index_indexprs, &isnull);
		if (!isnull)
			foreach (e, static_cast<List *>(stringToNode(TextDatumGetCString(exprs))))
			{
				Node *expr = static_cast<Node *>(lfirst(e));

				if (IsA(expr, FuncExpr) && reinterpret_cast<FuncExpr *>(expr)->funcid == c->extractor &&
					list_length(reinterpret_cast<FuncExpr *>(expr)->args) == 1 &&
					IsA(linitial(reinterpret_cast<FuncExpr *>(expr)->args), Var) &&
					static_cast<Var *>(linitial(reinterpret_cast<FuncExpr *>(expr)->args))->varattno == c->id->varattno)
					found = true;
			}
		ReleaseSysCache(tuple);
		if (found)
			break;
	}
	list_free(indexes);
	return found;
}

// Return a list of AND-ed conditions with the comparisons of extractors of rel's columns rewritten.
static List *
rewrite_conditions(PlannerInfo *root, List *conditions, Index relid, Oid table)
{
	Comparison  *found = static_cast<Comparison *>(palloc(sizeof(Comparison) * (list_length(conditions) + 1)));
	Comparison **group = static_cast<Comparison **>(palloc(sizeof(Comparison *) * (list_length(conditions) + 1)));
	bool        *done;
	int          n = 0;
	List        *out = NIL;
	ListCell    *lc;

	foreach (lc, conditions)
	{
		if (time_comparison(static_cast<Node *>(lfirst(lc)), &found[n]) &&
			static_cast<Index>(found[n].id->varno) == relid &&
			!(OidIsValid(table) && extractor_indexed(table, &found[n])))
			n++;
		else
			out = lappend(out, lfirst(lc));
	}
	if (n == 0)
		return conditions;
	done = static_cast<bool *>(palloc0(sizeof(bool) * n));
	for (int i = 0; i < n; i++)
	{
		int members = 0;

		if (done[i])
			continue;
		for (int j = i; j < n; j++)
			if (!done[j] && found[j].spelling == found[i].spelling && found[j].extractor == found[i].extractor &&
				equal(found[j].id, found[i].id))
			{
				group[members++] = &found[j];
				done[j] = true;
			}
		if (!add_expansion(root, &out, group, members))
			for (int k = 0; k < members; k++)
				out = lappend(out, group[k]->clause);
	}
	return out;
}

// Rewrite the conditions of a join tree, its own and those of every join below it.
static void
rewrite_join_tree(PlannerInfo *root, Node *node, const RelOptInfo *rel, Oid table)
{
	ListCell *lc;

	if (node == NULL)
		return;
	if (IsA(node, FromExpr))
	{
		FromExpr *from = reinterpret_cast<FromExpr *>(node);

		if (from->quals != NULL && IsA(from->quals, List))
			from->quals = reinterpret_cast<Node *>(rewrite_conditions(root, reinterpret_cast<List *>(from->quals), rel->relid, table));
		foreach (lc, from->fromlist)
			rewrite_join_tree(root, static_cast<Node *>(lfirst(lc)), rel, table);
	}
	else if (IsA(node, JoinExpr))
	{
		JoinExpr *join = reinterpret_cast<JoinExpr *>(node);

		// A FULL JOIN takes only conditions it can hash or merge: a range of the id is neither.
		if (join->jointype != JOIN_FULL && join->quals != NULL && IsA(join->quals, List))
			join->quals = reinterpret_cast<Node *>(rewrite_conditions(root, reinterpret_cast<List *>(join->quals), rel->relid, table));
		rewrite_join_tree(root, join->larg, rel, table);
		rewrite_join_tree(root, join->rarg, rel, table);
	}
}

/*
 * A UNION ALL (a view of a table and its archive) is planned as an append of its branches below a
 * subquery rel, which is not a table and passes through no relation hook; its conditions are
 * distributed to it before its branches are built, and each branch takes them from it, translated
 * to its own columns, right after the relation hook has run for the branch (build_simple_rel's
 * apply_child_basequals). So the hook rewrites the subquery rel's conditions then, when it runs
 * for a branch: the comparisons of one column become one condition, the AND of their expansion,
 * which each branch takes apart into its own conditions. (Not for an index of a branch on the
 * extractor's call: the branches share the rewrite.)
 */

// Rewrite the conditions of the UNION ALL subquery rel that rel is a branch of, if it is one.
static void
rewrite_union_parent(PlannerInfo *root, const RelOptInfo *rel)
{
	RelOptInfo   *parent;
	List         *clauses = NIL;
	List         *rewritten;
	List         *kept = NIL;
	List         *added = NIL;
	RestrictInfo *first = NULL;
	ListCell     *lc;

	if (rel->reloptkind != RELOPT_OTHER_MEMBER_REL || root->append_rel_array == NULL ||
		root->append_rel_array[rel->relid] == NULL ||
		(parent = root->simple_rel_array[root->append_rel_array[rel->relid]->parent_relid]) == NULL ||
		parent->rtekind != RTE_SUBQUERY)
		return;
	foreach (lc, parent->baserestrictinfo)
		clauses = lappend(clauses, static_cast<RestrictInfo *>(lfirst(lc))->clause);
	rewritten = rewrite_conditions(root, clauses, parent->relid, InvalidOid);
	if (rewritten == clauses)
		return;
	foreach (lc, rewritten)
		if (!list_member_ptr(clauses, lfirst(lc)))
			added = lappend(added, lfirst(lc));
	foreach (lc, parent->baserestrictinfo)
	{
		RestrictInfo *rinfo = static_cast<RestrictInfo *>(lfirst(lc));

		if (list_member_ptr(rewritten, rinfo->clause))
			kept = lappend(kept, rinfo);
		else if (first == NULL)
			first = rinfo;
	}
	// A copy of the first rewritten condition's RestrictInfo carries the AND: an equivalence class
	// may hold the original.
	RestrictInfo *expanded = makeNode(RestrictInfo);

	memcpy(expanded, first, sizeof(RestrictInfo));
	expanded->clause = list_length(added) == 1 ? static_cast<Expr *>(linitial(added)) : make_andclause(added);
	expanded->orclause = NULL;
	expanded->norm_selec = -1;
	expanded->outer_selec = -1;
	expanded->eval_cost.startup = -1;
	parent->baserestrictinfo = lappend(kept, expanded);
}

// Rewrite a relation's index predicates, and the query's conditions before a relation of the
// query's own is first planned (they are not yet distributed to relations then), or those of the
// UNION ALL it is a branch of.
static void
rewrite_for_relation(PlannerInfo *root, RelOptInfo *rel)
{
	ListCell *lc;
	Oid       table;

	if (extractor_count == 0 || rel->rtekind != RTE_RELATION || root->parse == NULL)
		return;
	table = planner_rt_fetch(rel->relid, root)->relid;
	if (rel->reloptkind == RELOPT_BASEREL)
		rewrite_join_tree(root, reinterpret_cast<Node *>(root->parse->jointree), rel, table);
	else
		rewrite_union_parent(root, rel);
	foreach (lc, rel->indexlist)
	{
		IndexOptInfo *index = static_cast<IndexOptInfo *>(lfirst(lc));

		index->indpred = rewrite_conditions(root, index->indpred, rel->relid, table);
	}
}

#if PG_VERSION_NUM >= 190000
// Rewrite the time comparisons before the relation's conditions are distributed; chain on.
static void
made_rel_hook(PlannerInfo *root, RelOptInfo *rel, RangeTblEntry *rte)
{
	if (previous_rel_hook)
		previous_rel_hook(root, rel, rte);
	rewrite_for_relation(root, rel);
}
#else
// Rewrite the time comparisons before the relation's conditions are distributed; chain on.
static void
made_rel_hook(PlannerInfo *root, Oid relation, bool inhparent, RelOptInfo *rel)
{
	if (previous_rel_hook)
		previous_rel_hook(root, relation, inhparent, rel);
	rewrite_for_relation(root, rel);
}
#endif

/*
 * ON CONFLICT ... WHERE infers its arbiter index from the index's predicate as the catalog keeps
 * it, simplified (a _made call expanded into its keys and check, the user's words left as they
 * are), against the clause simplified alike, after the planner has built the query's paths and
 * with no relation of the INSERT's target built: the relation hook never sees either side. So the
 * clause is given both spellings of its ranges, after the last upper path and before the plan is
 * made (create_upper_paths_hook, UPPERREL_FINAL, in the planning that loaded the library too):
 * the expansion of its user's words beside them, and beside an expansion the user's words it
 * implies. Each added condition is implied by the clause, so the rows it selects do not change;
 * an index predicate in either spelling is proved by an equal or a narrower range in either.
 */

static create_upper_paths_hook_type previous_upper_hook = NULL;

// Return the spelling whose check fn is, of the id alone (nargs 1) or with bounds (3), or NULL.
static const MadeSpelling *
spelling_of_check(Oid fn, int nargs = 1)
{
	static const Oid args[] = {UUIDOID, TIMESTAMPTZOID, TIMESTAMPTZOID};
	Oid              schema = get_func_namespace(fn);
	Oid              ext = getExtensionOfObject(ProcedureRelationId, fn);

	for (int i = 0; OidIsValid(ext) && i < spellings_seen_count; i++)
		if (spelling_function(schema, ext, spellings_seen[i]->id_check, nargs, args) == fn)
			return spellings_seen[i];
	return NULL;
}

// Return extractor(arg) OP time for the timestamptz btree operator of strategy.
static Node *
time_bound(Oid extractor, Node *arg, Node *time, StrategyNumber strategy)
{
	Oid   op = get_opfamily_member(lookup_type_cache(TIMESTAMPTZOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf,
								   TIMESTAMPTZOID, TIMESTAMPTZOID, strategy);
	Expr *call = reinterpret_cast<Expr *>(
		makeFuncExpr(extractor, TIMESTAMPTZOID, list_make1(copy_of(arg)), InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL));
	Expr *clause = make_opclause(op, BOOLOID, false, call, reinterpret_cast<Expr *>(time), InvalidOid, InvalidOid);

	reinterpret_cast<OpExpr *>(clause)->opfuncid = get_opcode(op);
	return reinterpret_cast<Node *>(clause);
}

// Add to *out the user's words that the comparisons of the check's id with keys imply beside it:
// extractor(id) >= extractor(key) for id >= key, <= for id <= key (the id's time is its leading
// bytes, so it grows with the id among the ids the check passes).
static void
add_words_of_check(PlannerInfo *root, List **out, List *conditions, FuncExpr *check)
{
	static const Oid    id_args[] = {UUIDOID};
	const MadeSpelling *spelling = spelling_of_check(check->funcid);
	Node               *arg = static_cast<Node *>(linitial(check->args));
	const Var          *id = uuid_column(arg);
	Oid                 extractor;
	ListCell           *lc;

	if (spelling == NULL || id == NULL ||
		!OidIsValid(extractor = spelling_function(get_func_namespace(check->funcid),
												  getExtensionOfObject(ProcedureRelationId, check->funcid),
												  spelling->extractor, 1, id_args)))
		return;
	foreach (lc, conditions)
	{
		uint8_t key[uuid_len];
		int     strategy;
		Node   *time;

		// A constant key only: a key of now() or of a parameter is not the same in every execution
		// of a cached plan, whose arbiter index is inferred once.
		if (!key_comparison(root, static_cast<Expr *>(lfirst(lc)), id, key, &strategy, false))
			continue;
		time = call_of(extractor, TIMESTAMPTZOID,
					   reinterpret_cast<Node *>(makeConst(UUIDOID, -1, InvalidOid, uuid_len,
														  UUIDPGetDatum(make_uuid(key)), false, false)));
		if (!IsA(time, Const) || reinterpret_cast<Const *>(time)->constisnull)
			continue;
		if (!upper_strategy(strategy))
			*out = lappend(*out, time_bound(extractor, arg, time, BTGreaterEqualStrategyNumber));
		if (!lower_strategy(strategy))
			*out = lappend(*out, time_bound(extractor, arg, copy_of(time), BTLessEqualStrategyNumber));
	}
}

// Return an ON CONFLICT clause (AND-ed conditions of the target, varno relid) in both spellings.
static List *
both_spellings(PlannerInfo *root, List *conditions, Index relid, Oid table)
{
	List     *rewritten = rewrite_conditions(root, conditions, relid, table);
	List     *out = list_copy(conditions);
	ListCell *lc;

	if (rewritten != conditions)
		out = list_concat(out, rewritten);
	// The words of the keys, the clause's own and those of the rewrite of its words: a bound inside
	// the index bound's millisecond (second) has the key of the index bound, not its words.
	foreach (lc, rewritten)
		if (IsA(lfirst(lc), FuncExpr) && list_length(static_cast<FuncExpr *>(lfirst(lc))->args) == 1)
			add_words_of_check(root, &out, rewritten, static_cast<FuncExpr *>(lfirst(lc)));
	return out;
}

// Give an ON CONFLICT clause both spellings before its arbiter index is inferred; chain on.
static void
made_upper_hook(PlannerInfo *root, UpperRelationKind stage, RelOptInfo *input_rel, RelOptInfo *output_rel,
				void *extra)
{
	OnConflictExpr *conflict = root->parse->onConflict;

	if (previous_upper_hook)
		previous_upper_hook(root, stage, input_rel, output_rel, extra);
	if (stage != UPPERREL_FINAL || conflict == NULL || conflict->arbiterWhere == NULL ||
		!IsA(conflict->arbiterWhere, List) || root->parse->resultRelation <= 0 || spellings_seen_count == 0)
		return;
	conflict->arbiterWhere = reinterpret_cast<Node *>(
		both_spellings(root, reinterpret_cast<List *>(conflict->arbiterWhere), root->parse->resultRelation,
					   rt_fetch(root->parse->resultRelation, root->parse->rtable)->relid));
}

/*
 * The check in the plan. It keeps out of the rows an id of another version whose bytes fall
 * between the keys (uuidv7_made_check), or a NULL id (hot_uuid_made_check, which every id of
 * the format passes): a call on each row of the range, about a tenth of the range's time where
 * the rows are read from the heap. Where it selects no fewer rows than the conditions beside it,
 * it is taken out of the rel's conditions once the rel's estimate and paths are made
 * (set_rel_pathlist_hook, called in the planning that loaded the library too): the estimate
 * keeps its selectivity, the plan has no filter. That is where a validated (and, on 18, enforced)
 * CHECK constraint of the table implies it, CHECK (uuidv7_made_check(id)): a CHECK is true or
 * NULL on each row, and the check is never NULL. A NULL id check is also implied by any strict
 * comparison of the id beside it. A cached plan depends on the table, whose constraints' changes
 * plan it again.
 */

static set_rel_pathlist_hook_type previous_pathlist_hook = NULL;

// Return the conditions that the validated, enforced CHECK constraints of a table hold on each of
// its rows, their columns of varno; NIL for any relation but a table (a foreign table's are not
// enforced).
static List *
table_checks(PlannerInfo *root, Oid table, Index varno)
{
	Relation     relation = table_open(table, NoLock);
	TupleConstr *constr = RelationGetDescr(relation)->constr;
	List        *out = NIL;

	for (int i = 0; relation->rd_rel->relkind == RELKIND_RELATION && constr != NULL && i < constr->num_check; i++)
	{
		Node *condition;

#if PG_VERSION_NUM >= 180000
		if (!constr->check[i].ccenforced)
			continue;
#endif
		if (!constr->check[i].ccvalid)
			continue;
		condition = eval_const_expressions(root, static_cast<Node *>(stringToNode(constr->check[i].ccbin)));
		condition = reinterpret_cast<Node *>(canonicalize_qual(reinterpret_cast<Expr *>(condition), true));
		if (varno != 1)
			ChangeVarNodes(condition, 1, varno, 0);
		out = list_concat(out, make_ands_implicit(reinterpret_cast<Expr *>(condition)));
	}
	table_close(relation, NoLock);
	return out;
}

// True if a condition is a strict operator's comparison of the column with anything: false or
// NULL for a NULL id.
static bool
strict_comparison_of(const Expr *clause, const Var *id)
{
	const OpExpr *op = reinterpret_cast<const OpExpr *>(clause);
	const Var    *left;
	const Var    *right;

	if (!IsA(clause, OpExpr) || list_length(op->args) != 2 || !op_strict(op->opno))
		return false;
	left = uuid_column(static_cast<Node *>(linitial(op->args)));
	right = uuid_column(static_cast<Node *>(lsecond(op->args)));
	return (left != NULL && equal(left, id)) || (right != NULL && equal(right, id));
}

// True if the conditions of the rel beside the check select no row it would not: a comparison of
// the id where the check keeps NULL out, a constraint of the table implying it otherwise.
static bool
check_implied(PlannerInfo *root, const RelOptInfo *rel, const RangeTblEntry *rte, FuncExpr *check,
			  const MadeSpelling &spelling, List **constraints, bool *constraints_read)
{
	const Var *id = uuid_column(static_cast<Node *>(linitial(check->args)));
	ListCell  *lc;

	// Where the user may not execute the check, it stays for the executor to refuse (and a
	// GRANT plans the query again).
	if (id == NULL || !may_execute(root, &check->funcid, 1))
		return false;
	if (spelling.of_format == NULL)
		foreach (lc, rel->baserestrictinfo)
			if (strict_comparison_of(static_cast<RestrictInfo *>(lfirst(lc))->clause, id))
				return true;
	if (!*constraints_read)
	{
		*constraints = table_checks(root, rte->relid, rel->relid);
		*constraints_read = true;
	}
	return *constraints != NIL && predicate_implied_by(list_make1(check), *constraints, true);
}

/*
 * The inner side of a nested loop on a join's equality: PostgreSQL costs its index scan with its
 * own estimate of the pair for each outer row, a third of the index for each key (a uuid compared
 * with another rel's value, which no support function reaches), some 150 times a created_at
 * index's cost, which passes jit_above_cost on large joins. So each such index path is costed
 * again once the rel's paths are made, before the cheapest are chosen: with copies of the pair
 * that hold their selectivities (1, and the unit's share of the rows) where PostgreSQL reads a
 * clause of the rel alone, and the loops counted as get_loop_count counts them (but semi joins).
 */

// Return a copy of a join's comparison that PostgreSQL estimates at sel, as a clause of relid.
static RestrictInfo *
estimated_copy(const RestrictInfo *rinfo, Index relid, double sel)
{
	RestrictInfo *copy = makeNode(RestrictInfo);

	*copy = *rinfo;
	copy->clause_relids = bms_make_singleton(relid);
#if PG_VERSION_NUM >= 160000
	copy->num_base_rels = 1;
#endif
	copy->norm_selec = copy->outer_selec = sel;
	return copy;
}

// Return the loops of a path parameterized by the outer rels: the fewest rows of one of them.
static double
loops_of(PlannerInfo *root, Relids outer)
{
	double result = 0;
	int    relid = -1;

	while ((relid = bms_next_member(outer, relid)) >= 0)
		if (relid < root->simple_rel_array_size && root->simple_rel_array[relid] != NULL &&
			root->simple_rel_array[relid]->rows > 0 && (result == 0 || root->simple_rel_array[relid]->rows < result))
			result = root->simple_rel_array[relid]->rows;
	return result > 0 ? result : 1;
}

// Cost again the index paths of the rel parameterized by the pair of the join's equality whose
// check with bounds is check, of the id in the rel.
static void
recost_equality_paths(PlannerInfo *root, RelOptInfo *rel, const FuncExpr *check, const MadeSpelling &spelling)
{
	Node      *x = static_cast<Node *>(lsecond(check->args));
	const Var *id = uuid_column(static_cast<Node *>(linitial(check->args)));
	Oid        since_key;
	Oid        through_key;
	Oid        bounded_check;
	double     format;
	double     share;
	ListCell  *pc;
	ListCell  *ic;

	if (id == NULL || static_cast<Index>(id->varno) != rel->relid || !equal(x, lthird(check->args)) ||
		!contain_vars_of_level(x, 0) ||
		!equality_functions(check->funcid, spelling, &since_key, &through_key, &bounded_check) ||
		(share = unit_share(root, static_cast<Node *>(linitial(check->args)), rel->relid, spelling, &format)) < 0)
		return;
	foreach (pc, rel->pathlist)
	{
		IndexPath *path = static_cast<IndexPath *>(lfirst(pc));
		List      *clauses = NIL;
		List      *kept;
		int        found = 0;

		if (!IsA(path, IndexPath) || path->path.param_info == NULL)
			continue;
		foreach (ic, path->indexclauses)
		{
			IndexClause *clause = static_cast<IndexClause *>(lfirst(ic));
			IndexClause *copy;
			Node        *arg;
			double       sel = -1;

			if (list_length(clause->indexquals) == 1 && linitial(clause->indexquals) == clause->rinfo)
			{
				if ((arg = key_argument(clause->rinfo->clause, id, since_key, BTGreaterEqualStrategyNumber)) != NULL &&
					equal(arg, x))
					sel = 1;
				else if ((arg = key_argument(clause->rinfo->clause, id, through_key, BTLessEqualStrategyNumber)) !=
							 NULL &&
						 equal(arg, x))
					sel = std::min(1.0, share * format);
			}
			if (sel < 0)
			{
				clauses = lappend(clauses, clause);
				continue;
			}
			copy = makeNode(IndexClause);
			*copy = *clause;
			copy->rinfo = estimated_copy(clause->rinfo, rel->relid, sel);
			copy->indexquals = list_make1(copy->rinfo);
			clauses = lappend(clauses, copy);
			found++;
		}
		if (found != 2)
			continue;
		kept = path->indexclauses;
		path->indexclauses = clauses;
		cost_index(path, root, loops_of(root, PATH_REQ_OUTER(&path->path)), false);
		path->indexclauses = kept;
	}
}

// Cost again the inner sides of nested loops on a join's equality, and take the checks that select
// no row the other conditions would not out of a table's conditions and its indexes', after its
// paths are made; chain on.
static void
made_pathlist_hook(PlannerInfo *root, RelOptInfo *rel, Index rti, RangeTblEntry *rte)
{
	List     *constraints = NIL;
	bool      constraints_read = false;
	List     *implied = NIL;
	ListCell *lc;

	if (previous_pathlist_hook)
		previous_pathlist_hook(root, rel, rti, rte);
	if (rte->rtekind != RTE_RELATION || rte->inh || spellings_seen_count == 0 ||
		!IS_SIMPLE_REL(rel) || rel->relid != rti)
		return;
	foreach (lc, rel->joininfo)
	{
		const FuncExpr     *check = reinterpret_cast<const FuncExpr *>(static_cast<RestrictInfo *>(lfirst(lc))->clause);
		const MadeSpelling *spelling = IsA(check, FuncExpr) && list_length(check->args) == 3
			? spelling_of_check(check->funcid, 3)
			: NULL;

		if (spelling != NULL)
			recost_equality_paths(root, rel, check, *spelling);
	}
	foreach (lc, rel->baserestrictinfo)
	{
		RestrictInfo       *rinfo = static_cast<RestrictInfo *>(lfirst(lc));
		FuncExpr           *check = reinterpret_cast<FuncExpr *>(rinfo->clause);
		const MadeSpelling *spelling = IsA(check, FuncExpr) && list_length(check->args) == 1
			? spelling_of_check(check->funcid)
			: NULL;

		if (spelling != NULL && check_implied(root, rel, rte, check, *spelling, &constraints, &constraints_read))
			implied = lappend(implied, rinfo);
	}
	if (implied == NIL)
		return;
	// A plain or index-only scan takes its index's conditions (those its predicate does not imply).
	rel->baserestrictinfo = list_difference_ptr(rel->baserestrictinfo, implied);
	foreach (lc, rel->indexlist)
	{
		IndexOptInfo *index = static_cast<IndexOptInfo *>(lfirst(lc));

		index->indrestrictinfo = list_difference_ptr(index->indrestrictinfo, implied);
	}
}

void
made_init()
{
#if PG_VERSION_NUM >= 190000
	previous_rel_hook = build_simple_rel_hook;
	build_simple_rel_hook = made_rel_hook;
#else
	previous_rel_hook = get_relation_info_hook;
	get_relation_info_hook = made_rel_hook;
#endif
	previous_upper_hook = create_upper_paths_hook;
	create_upper_paths_hook = made_upper_hook;
	previous_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = made_pathlist_hook;
}

} // namespace locality_uuid
