// The planner's side of the time range spellings (uuidv7_made, hot_uuid_made): their expansion into btree conditions on the id.
#include "glue.hpp"

extern "C" {
#include "access/stratnum.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_type_d.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "utils/lsyscache.h"
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

// Return the function name(argtype) in schema: its exact signature only, so a look-alike with
// other or more (defaulted) arguments is never taken.
static Oid
spelling_function(const char *schema, const char *name, Oid argtype)
{
	return LookupFuncName(list_make2(makeString(pstrdup(schema)), makeString(pstrdup(name))), 1, &argtype,
						  false);
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
	Oid   family = get_opclass_family(GetDefaultOpClass(UUIDOID, BTREE_AM_OID));
	Oid   op = get_opfamily_member(family, UUIDOID, UUIDOID, strategy);
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

Node *
made_support(Node *request, const MadeSpelling &spelling)
{
	SupportRequestSimplify *req;
	List                   *args;
	const char             *schema;
	Node                   *id;
	Node                   *check;
	List                   *clauses = NIL;

	if (!IsA(request, SupportRequestSimplify))
		return NULL;
	req = reinterpret_cast<SupportRequestSimplify *>(request);
	args = req->fcall->args;
	if (list_length(args) != 3 || contain_volatile_functions(reinterpret_cast<Node *>(args)))
		return NULL;
	schema = get_namespace_name(get_func_namespace(req->fcall->funcid));
	id = static_cast<Node *>(linitial(args));
	if (!add_bound(&clauses, id,
				   call_of(spelling_function(schema, spelling.since_key, TIMESTAMPTZOID), UUIDOID,
						   static_cast<Node *>(lsecond(args))),
				   BTGreaterEqualStrategyNumber, 0x00, spelling.keys_nullable) ||
		!add_bound(&clauses, id,
				   call_of(spelling_function(schema, spelling.before_key, TIMESTAMPTZOID), UUIDOID,
						   static_cast<Node *>(lthird(args))),
				   BTLessEqualStrategyNumber, 0xff, spelling.keys_nullable))
		return makeBoolConst(false, false);
	check = spelling.id_check == NULL
		? copy_of(id)
		: reinterpret_cast<Node *>(makeFuncExpr(spelling_function(schema, spelling.id_check, UUIDOID),
												TIMESTAMPTZOID, list_make1(copy_of(id)), InvalidOid,
												InvalidOid, COERCE_EXPLICIT_CALL));
	clauses = lappend(clauses, is_not_null(check));
	return list_length(clauses) == 1 ? static_cast<Node *>(linitial(clauses))
									 : reinterpret_cast<Node *>(make_andclause(clauses));
}

} // namespace locality_uuid
