// The planner's side of the time range spellings (uuidv7_made, hot_uuid_made): their expansion into btree conditions on the id.
#include "glue.hpp"

#include <algorithm>
#include <cstring>

extern "C" {
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_type_d.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "catalog/pg_proc_d.h"
#include "catalog/pg_statistic.h"
#include "utils/builtins.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
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
 * elsewhere (never NULL), for every input. A volatile argument is left alone (the function
 * itself then filters each row): a key of it could not be an index condition.
 */

// Return a copy of a node (copyObject needs typeof, which C++ lacks).
static Node *
copy_of(Node *node)
{
	return static_cast<Node *>(copyObjectImpl(node));
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

// True if the constant is the uuid of 16 bytes of fill.
static bool
filled_uuid(const Const *c, uint8_t fill)
{
	const uint8_t *u = DatumGetUUIDP(c->constvalue)->data;

	for (std::size_t i = 0; i < uuid_len; i++)
		if (u[i] != fill)
			return false;
	return true;
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

// Return the bound as the planner estimates it (now(), a stable expression, a parameter of a
// custom plan: their value now), or NULL where it is known only when the query runs.
static Node *
bound_hint(PlannerInfo *root, Node *bound)
{
	Node *value = root != NULL ? estimate_expression_value(root, bound) : bound;

	return IsA(value, Const) ? copy_of(value)
							 : reinterpret_cast<Node *>(makeNullConst(TIMESTAMPTZOID, -1, InvalidOid));
}

Node *
made_support(Node *request, const MadeSpelling &spelling)
{
	static const Oid        key_args[] = {TIMESTAMPTZOID};
	static const Oid        check_args[] = {UUIDOID, TIMESTAMPTZOID, TIMESTAMPTZOID};
	SupportRequestSimplify *req;
	List                   *args;
	Oid                     schema;
	Oid                     ext;
	Oid                     since_key;
	Oid                     before_key;
	Oid                     check;
	Node                   *id;
	List                   *clauses = NIL;

	if (!IsA(request, SupportRequestSimplify))
		return NULL;
	req = reinterpret_cast<SupportRequestSimplify *>(request);
	args = req->fcall->args;
	if (list_length(args) != 3 || contain_volatile_functions(reinterpret_cast<Node *>(args)))
		return NULL;
	/*
	 * The helpers are the spelling's own: members of its extension, in its schema. Without them
	 * (a spelling moved on its own, or not a member) the call is left alone and filters each row.
	 */
	schema = get_func_namespace(req->fcall->funcid);
	ext = getExtensionOfObject(ProcedureRelationId, req->fcall->funcid);
	if (!OidIsValid(ext) || !OidIsValid(since_key = spelling_function(schema, ext, spelling.since_key, 1, key_args)) ||
		!OidIsValid(before_key = spelling_function(schema, ext, spelling.before_key, 1, key_args)) ||
		!OidIsValid(check = spelling_function(schema, ext, spelling.id_check, 3, check_args)))
		return NULL;
	id = static_cast<Node *>(linitial(args));
	if (!add_bound(&clauses, id, call_of(since_key, UUIDOID, static_cast<Node *>(lsecond(args))),
				   BTGreaterEqualStrategyNumber, 0x00, spelling.keys_nullable) ||
		!add_bound(&clauses, id, call_of(before_key, UUIDOID, static_cast<Node *>(lthird(args))),
				   BTLessEqualStrategyNumber, 0xff, spelling.keys_nullable))
		return makeBoolConst(false, false);
	/*
	 * The check carries the bounds only for its selectivity (made_check_support), folded now so
	 * that no row computes them: its answer reads the id alone.
	 */
	clauses = lappend(clauses, makeFuncExpr(check, BOOLOID, list_make3(copy_of(id), bound_hint(req->root, static_cast<Node *>(lsecond(args))), bound_hint(req->root, static_cast<Node *>(lthird(args)))), InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL));
	return list_length(clauses) == 1 ? static_cast<Node *>(linitial(clauses))
									 : reinterpret_cast<Node *>(make_andclause(clauses));
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
				   const uint8_t *now)
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
	low = leading(value_of(hist, lo));
	high = hi == last && filling ? leading(now) : leading(value_of(hist, hi));
	if (of_format != NULL && !of_format(value_of(hist, lo)))
		return -1;
	if (of_format != NULL && !of_format(value_of(hist, hi)))
	{
		// Mostly another format's ids: the format's go on at the pace of the bucket below, up to now.
		double pace = lo > 0 && of_format(value_of(hist, lo - 1)) ? low - leading(value_of(hist, lo - 1)) : 0;

		if (now == NULL || pace <= 0)
			return -1;
		return (lo + std::min(1.0, std::max(0.0, (std::min(leading(key), leading(now)) - low) / pace))) / last;
	}
	return (lo + (high > low ? std::min(1.0, std::max(0.0, (leading(key) - low) / (high - low))) : 0.5)) / last;
}

// True if the uuid datum is in [since, before].
static bool
in_range(Datum id, const uint8_t *since, const uint8_t *before)
{
	const uint8_t *u = DatumGetUUIDP(id)->data;

	return memcmp(u, since, uuid_len) >= 0 && memcmp(u, before, uuid_len) <= 0;
}

// Return the share of the rows whose id is in [since, before] by the id's statistics, or -1
// where there are none (no histogram, or not readable by this user) or a key falls in a bucket
// between formats.
static double
range_share(PlannerInfo *root, Node *id, int var_relid, const uint8_t *since, const uint8_t *before,
			bool (*of_format)(const uint8_t *id), const uint8_t *now)
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
		double below_before = hist.nvalues >= 2 ? histogram_fraction(hist, before, of_format, now) : -1;
		double below_since = hist.nvalues >= 2 ? histogram_fraction(hist, since, of_format, now) : -1;

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

Node *
made_check_support(Node *request, const MadeSpelling &spelling)
{
	SupportRequestSelectivity *req;

	if (!IsA(request, SupportRequestSelectivity))
		return NULL;
	req = reinterpret_cast<SupportRequestSelectivity *>(request);
	if (list_length(req->args) != 3)
		return NULL;
	req->selectivity = req->is_join ? 1 : check_selectivity(req, spelling);
	return request;
}

} // namespace locality_uuid
