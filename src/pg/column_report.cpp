// locality_uuid_column_report(): what a sample of a uuid column says about its formats, order and index, and the generator to pick.
#include "glue.hpp"

#include <cstdlib>
#include <cstring>

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/tableam.h"
#include "catalog/dependency.h"
#include "catalog/partition.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/primnodes.h"
#include "rewrite/rewriteHandler.h"
#include "storage/bufmgr.h"
#include "storage/itemptr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/tuplestore.h"
#include "utils/uuid.h"

PG_FUNCTION_INFO_V1(locality_uuid_column_report);
}

using namespace locality_uuid;

namespace
{

/* One sampled row: where it lies in the heap and its key. */
struct Sampled
{
	ItemPointerData ctid;
	pg_uuid_t       key;
};

// Order sampled rows by their place in the heap.
int
by_ctid(const void *a, const void *b)
{
	return ItemPointerCompare(const_cast<ItemPointerData *>(&static_cast<const Sampled *>(a)->ctid),
							  const_cast<ItemPointerData *>(&static_cast<const Sampled *>(b)->ctid));
}

/* The sample's keys in heap order, ranked, and how their order follows it (src/core/key_sample.hpp). */
struct OrderedKeys
{
	int n;
	uint8_t (*keys)[UUID_LEN];
	int   *rank;   /* each key's place in uuid order among all n */
	int    newest; /* the last rows that count as the newest */
	double rho;
	double rho_newest;
};

// Put the sampled rows in heap order, and rank their keys among all of them and among the newest.
OrderedKeys
order_keys(Sampled *rows, int n)
{
	OrderedKeys k;
	int         slots = Max(n, 1);
	int        *order = static_cast<int *>(palloc(sizeof(int) * slots));

	qsort(rows, n, sizeof(Sampled), by_ctid);
	k.n = n;
	k.keys = static_cast<uint8_t(*)[UUID_LEN]>(palloc(UUID_LEN * slots));
	k.rank = static_cast<int *>(palloc(sizeof(int) * slots));
	for (int i = 0; i < n; i++)
		memcpy(k.keys[i], rows[i].key.data, UUID_LEN);
	k.newest = newest_rows(n);
	k.rho_newest = key_order_correlation(k.keys + n - k.newest, k.newest, k.rank, order);
	k.rho = key_order_correlation(k.keys, n, k.rank, order);
	pfree(order);
	return k;
}

// Add one row of the report.
void
put_row(ReturnSetInfo *rsinfo, const char *item, const char *value, const char *detail)
{
	Datum values[3];
	bool  nulls[3] = {false, value == NULL, detail == NULL};

	values[0] = CStringGetTextDatum(item);
	values[1] = value ? CStringGetTextDatum(value) : (Datum) 0;
	values[2] = detail ? CStringGetTextDatum(detail) : (Datum) 0;
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * Estimate the rows of the table as the planner does: the rows a page held when it was last
 * analyzed (or, never analyzed, the rows its width fits in a page) times its pages now, so that
 * a sample of a table that grew reaches its newest rows.
 */
double
estimated_tuples(Relation rel, BlockNumber pages_now)
{
	int32      *widths = static_cast<int32 *>(palloc0(sizeof(int32) * (RelationGetNumberOfAttributes(rel) + 1)));
	BlockNumber pages;
	double      tuples;
	double      all_visible;

	table_relation_estimate_size(rel, widths, &pages, &tuples, &all_visible);
	pfree(widths);
	return pages > 0 ? tuples / pages * pages_now : 0; /* pages: at least 10 for a small table never analyzed */
}

/* The fewest pages a sample by pages reads: fewer would take the keys of a few runs of inserts. */
constexpr double system_sample_pages = 100;

/*
 * Read up to limit rows of the column into rows and return how many: the share of the table
 * that gives about limit rows of the *tuples estimated, by whole pages (TABLESAMPLE SYSTEM,
 * reading only those) when that is system_sample_pages pages or more, else by rows (BERNOULLI,
 * reading every page). Where the sample gives more than limit rows (up to fetch_rows), limit of
 * them are kept, spread evenly in scan (heap) order: a LIMIT would drop the newest.
 */
int
sample(Relation rel, AttrNumber attnum, int limit, Sampled *rows, double *tuples, double *percent, const char **method)
{
	StringInfoData q;
	const char    *col = quote_identifier(get_attname(RelationGetRelid(rel), attnum, false));
	uint64         got;
	int            n;
	BlockNumber    pages = RelationGetNumberOfBlocks(rel);

	*tuples = estimated_tuples(rel, pages);
	*percent = *tuples > limit ? 100.0 * limit / *tuples : 100.0;
	*method = *percent < 100 && *percent / 100 * pages >= system_sample_pages ? "SYSTEM" : "BERNOULLI";
	initStringInfo(&q);
	appendStringInfo(&q, "SELECT ctid, %s FROM %s TABLESAMPLE %s (%.9g) REPEATABLE (0) WHERE %s IS NOT NULL LIMIT %d",
					 col,
					 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
												RelationGetRelationName(rel)),
					 *method, *percent, col, fetch_rows(limit));
	if (SPI_execute(q.data, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed: %s", q.data);
	got = SPI_processed;
	n = got > static_cast<uint64>(limit) ? limit : static_cast<int>(got);
	for (int i = 0; i < n; i++)
	{
		HeapTuple t = SPI_tuptable->vals[sample_spread(i, got, n)];
		bool      isnull;

		CHECK_FOR_INTERRUPTS();
		rows[i].ctid = *reinterpret_cast<ItemPointer>(DatumGetPointer(SPI_getbinval(t, SPI_tuptable->tupdesc, 1, &isnull)));
		rows[i].key = *DatumGetUUIDP(SPI_getbinval(t, SPI_tuptable->tupdesc, 2, &isnull));
	}
	return n;
}

// Return the first valid, whole (not partial) B-tree index whose first column is attnum (primary key, then unique, then by name), or InvalidOid.
Oid
btree_index(Relation rel, AttrNumber attnum)
{
	List     *indexes = RelationGetIndexList(rel);
	Oid       best = InvalidOid;
	int       best_score = 0;
	ListCell *lc;

	foreach (lc, indexes)
	{
		Oid      index = lfirst_oid(lc);
		Relation ir = index_open(index, AccessShareLock);
		int      score = ir->rd_rel->relam == BTREE_AM_OID && ir->rd_index->indkey.values[0] == attnum &&
                ir->rd_index->indisvalid && heap_attisnull(ir->rd_indextuple, Anum_pg_index_indpred, NULL)
				 ? 1 + ir->rd_index->indisunique + 2 * ir->rd_index->indisprimary
				 : 0;

		if (score > best_score ||
			(score > 0 && score == best_score && strcmp(get_rel_name(index), get_rel_name(best)) < 0))
		{
			best = index;
			best_score = score;
		}
		index_close(ir, AccessShareLock);
	}
	list_free(indexes);
	return best;
}

// Find pgstattuple's pgstatindex(regclass) where it is installed and the caller may run it; InvalidOid otherwise, with why.
Oid
pgstatindex_function(const char **why)
{
	bool isnull;
	Oid  fn;

	if (SPI_execute("SELECT p.oid, pg_catalog.has_function_privilege(p.oid, 'EXECUTE') FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_proc p"
					" ON p.pronamespace OPERATOR(pg_catalog.=) e.extnamespace"
					" WHERE e.extname OPERATOR(pg_catalog.=) 'pgstattuple'"
					" AND p.proname OPERATOR(pg_catalog.=) 'pgstatindex'"
					" AND p.proargtypes OPERATOR(pg_catalog.=) '2205'::pg_catalog.oidvector",
					true, 1) != SPI_OK_SELECT ||
		SPI_processed == 0)
	{
		*why = "pgstattuple is not installed in this database";
		return InvalidOid;
	}
	fn = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	if (!DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull)))
	{
		*why = "pgstattuple's pgstatindex is not granted to this role";
		return InvalidOid;
	}
	return fn;
}

// Read leaf pages and leaf density of an index from pgstatindex; false (with why) where it cannot be asked.
bool
index_stats(Oid index, int64 *leaf_pages, double *density, const char **why)
{
	Oid fn = pgstatindex_function(why);

	if (!OidIsValid(fn))
		return false;

	HeapTupleHeader t = DatumGetHeapTupleHeader(OidFunctionCall1(fn, ObjectIdGetDatum(index)));
	bool            isnull;

	*leaf_pages = DatumGetInt64(GetAttributeByName(t, "leaf_pages", &isnull));
	*density = DatumGetFloat8(GetAttributeByName(t, "avg_leaf_density", &isnull));
	return true;
}

// Say why the report picks its generator (a switch on the core's PickReason: a reason without words is a warning).
const char *
pick_why(PickReason reason)
{
	switch (reason)
	{
		case PickReason::no_rows:
			return "no rows sampled: report again once the table holds keys";
		case PickReason::shard_key:
			return "shard-key ids: keep hot_uuid where services route by the key";
		case PickReason::blocks:
			return "block ids: keep the block generator where rows are deleted by age, and size its blocks with "
				   "locality_uuid_block_advice()";
		case PickReason::blocks_by_default:
			return "block ids of the DEFAULT's block generator, in blocks smaller than the spacing of the sampled rows "
				   "(a larger sample_rows shows them): keep it where rows are deleted by age, and size its blocks with "
				   "locality_uuid_block_advice()";
		case PickReason::random_sorted:
			return "random version 4 keys, in key order only because the table was sorted (CLUSTER, a sorted load): new "
				   "keys still land anywhere; switch the DEFAULT to uuidv7_ordered()";
		case PickReason::random_on_top:
			return "an ordered generator makes the new keys (the DEFAULT, or the newest keys show it), but they sort "
				   "below the older random ones, in key order only because the table was sorted (CLUSTER): inserts land "
				   "inside the index, not at its right edge, until those rows go; keep the generator";
		case PickReason::ordered_elsewhere:
			return "keys follow insert order but no generator of this extension made them: set the DEFAULT to "
				   "uuidv7_ordered() to keep that order across backends";
		case PickReason::ordered:
			return "keys follow insert order: keep the generator, nothing to do";
		case PickReason::newest_ordered:
			return "the newest keys follow insert order, the older ones do not (a switch of generator): keep the new one; "
				   "the old keys stay where they are (docs/choosing.md, \"From random keys to ordered ones\")";
		case PickReason::unordered:
			return "keys do not follow insert order: switch the DEFAULT to uuidv7_ordered(), which touches one leaf per "
				   "insert (docs/choosing.md, \"From random keys to ordered ones\")";
	}
	return nullptr;
}

/*
 * Return the SQL call of the ordered or block generator that the DEFAULT inserts use names, and in
 * *blocks whether it is a block generator; nullptr where it names neither: the survey's reading
 * (locality_uuid--1.5--1.6.sql), by the function's oid and its extension. A partition's inserts
 * through its root take the root's DEFAULT (the column of the same name: attnums may differ); a
 * column without one, its domain's.
 */
const char *
default_generator(Relation rel, AttrNumber attnum, bool *blocks)
{
	Relation    from = rel;
	AttrNumber  col = attnum;
	Node       *expr;
	const char *call = nullptr;

	if (rel->rd_rel->relispartition)
	{
		from = relation_open(llast_oid(get_partition_ancestors(RelationGetRelid(rel))), AccessShareLock);
		col = get_attnum(RelationGetRelid(from), get_attname(RelationGetRelid(rel), attnum, false));
	}
	expr = col != InvalidAttrNumber ? build_column_default(from, col) : nullptr;
	while (expr != nullptr && (IsA(expr, CoerceToDomain) || IsA(expr, RelabelType)))
		expr = IsA(expr, CoerceToDomain) ? reinterpret_cast<Node *>(castNode(CoerceToDomain, expr)->arg)
										 : reinterpret_cast<Node *>(castNode(RelabelType, expr)->arg);
	if (expr != nullptr && IsA(expr, FuncExpr))
	{
		FuncExpr   *f = castNode(FuncExpr, expr);
		Oid         ext = getExtensionOfObject(ProcedureRelationId, f->funcid);
		const char *ext_name = OidIsValid(ext) ? get_extension_name(ext) : nullptr;
		const char *name = get_func_name(f->funcid);
		bool        ours = ext_name != nullptr && strcmp(ext_name, "locality_uuid") == 0;
		bool        core = get_func_namespace(f->funcid) == PG_CATALOG_NAMESPACE;
		Node       *arg = list_length(f->args) == 1 ? static_cast<Node *>(linitial(f->args)) : nullptr;

		if (!ours && !core)
			call = nullptr;
		else if (strcmp(name, "uuidv7_ordered") == 0)
			call = "uuidv7_ordered()";
		else if (strcmp(name, "uuidv7") == 0)
			call = "uuidv7()";
		else if (strcmp(name, "locality_uuid") == 0 && arg != nullptr && IsA(arg, Const) &&
				 !castNode(Const, arg)->constisnull && DatumGetBool(castNode(Const, arg)->constvalue))
			call = "locality_uuid(true)";
		else if (ours && (strcmp(name, "uuid_sequence_nextval") == 0 || strcmp(name, "uuid_time_nextval") == 0 || strcmp(name, "uuid_time_nextval_interval") == 0))
		{
			call = psprintf("%s()", name);
			*blocks = true;
		}
	}
	if (from != rel)
		relation_close(from, AccessShareLock);
	return call;
}

// Open the table and find the column, refusing what cannot be reported on.
Relation
open_column(Oid relid, const char *col, int32 limit, AttrNumber *attnum)
{
	Relation rel;

	if (limit < 2 || limit > 1000000)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sample_rows must be between 2 and 1000000")));
	rel = try_relation_open(relid, AccessShareLock);
	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if (rel->rd_rel->relkind != RELKIND_RELATION && rel->rd_rel->relkind != RELKIND_MATVIEW)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table", RelationGetRelationName(rel)),
				 rel->rd_rel->relkind == RELKIND_PARTITIONED_TABLE
					 ? errhint("Report on each partition of a partitioned table.")
					 : 0));
	*attnum = get_attnum(relid, col);
	if (*attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist", col, RelationGetRelationName(rel))));
	if (getBaseType(get_atttype(relid, *attnum)) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" is not of type uuid", col),
				 errdetail("A column of uuid or of a domain over uuid can be reported on.")));
	return rel;
}

// Say what a format's row means to a DBA, and what to do (a switch on Format: a format without words is a warning).
const char *
format_detail(int f)
{
	if (f == no_format)
		return "no format of this extension: the order rows say whether the keys follow insert order";
	switch (static_cast<Format>(f))
	{
		case Format::locality:
			return "locality_uuid ids: keep locality_uuid(true) where the order rows show 1; locality_uuid(false) spreads "
				   "them for range-sharded clusters";
		case Format::block:
			return "block ids (uuid_sequence_nextval, uuid_time_nextval): keep where rows are deleted by age; size the "
				   "blocks with locality_uuid_block_advice()";
		case Format::v7:
			return "version 7, ordered by time: keep; uuidv7_ordered() keeps one order across backends";
		case Format::v1:
			return "version 1, made elsewhere, not ordered (its time starts with its low bits): make new keys with "
				   "uuidv7_ordered()";
		case Format::v6:
			return "version 6, made elsewhere, ordered by time: keep, or make new keys with uuidv7_ordered()";
		case Format::hot:
			return "shard-key ids: keep hot_uuid where services route by the key";
	}
	return nullptr;
}

/* A version 4 key is random unless its prefixes show blocks; most "shard-key ids" carry no plausible second. */
constexpr const char *random_item = "format random (version 4)";
constexpr const char *not_shard_key_detail =
	"any id fits the shard-key layout, and most of these carry no plausible second: not shard-key ids";
constexpr const char *random_detail =
	"random keys (gen_random_uuid(), uuidv4()): each insert touches a random leaf; switch the DEFAULT to uuidv7_ordered()";
constexpr const char *random_switched_detail =
	"random keys (gen_random_uuid(), uuidv4()), made before the DEFAULT became the ordered generator: they stay "
	"where they are, and new keys sort below them";

/* What each version says, for the version rows. */
const char *
version_detail(int v)
{
	switch (v)
	{
		case 0:
			return "no RFC 9562 version: shard-key ids, or ids made from integers; the format rows say which";
		case 1:
			return "time-based with its low bits first: not ordered by time";
		case 4:
			return "random bits, or blocks where the neighbours row shows them";
		case 6:
		case 7:
			return "time-based, time first: ordered by time";
		case 0xb:
			return "locality_uuid's version";
		default:
			return "RFC 9562's meaning of this version: the format rows say which generator";
	}
}

// Add the rows of what the keys say: formats, versions, blocks, time span; ordered: the ordered generator the DEFAULT names, or nullptr.
void
put_key_rows(ReturnSetInfo *rsinfo, const SampleTally &t, const char *ordered)
{
	int  n = t.rows;
	bool blocks = shows_blocks(t);

	for (int f = 0; f <= no_format; f++)
		if (t.by_format[f] > 0)
		{
			bool        random = f == static_cast<int>(Format::block) && !blocks;
			const char *random_words = ordered != nullptr ? random_switched_detail : random_detail;
			const char *detail = random ? random_words : format_detail(f);

			if (f == static_cast<int>(Format::hot) && t.shard_key * 2 <= t.rows)
				detail = not_shard_key_detail;
			put_row(rsinfo, random ? random_item : psprintf("format %s", f < no_format ? format_name(static_cast<Format>(f)) : "none"),
					psprintf("%.1f %%", 100.0 * t.by_format[f] / n), detail);
		}
	for (int v = 0; v < 16; v++)
		if (t.by_version[v] > 0)
			put_row(rsinfo, psprintf("version %x", v), psprintf("%.1f %%", 100.0 * t.by_version[v] / n),
					version_detail(v));
	if (t.v4_pairs > 0)
		put_row(rsinfo, "version 4 neighbours in one block", psprintf("%.1f %%", 100.0 * t.v4_same_prefix / t.v4_pairs),
				psprintf("consecutive rows whose keys share their first 16 bits: near 0 %% for random keys, %.1f %% for "
						 "random keys in key order (a sorted table) at this sample's size, near 100 %% for block ids",
						 100.0 * sorted_random_same_prefix(t.by_version[version_4])));
	/* timestamptz_to_str writes into one static buffer: each reading copied before the next. */
	char *first = t.with_time > 0 ? pstrdup(timestamptz_to_str(t.first_us - pg_epoch_unix_us)) : nullptr;
	char *last = t.with_time > 0 ? pstrdup(timestamptz_to_str(t.last_us - pg_epoch_unix_us)) : nullptr;

	put_row(rsinfo, "time span", t.with_time > 0 ? psprintf("%s .. %s", first, last) : nullptr,
			psprintf("%d of %d keys carry a time their bits fix; locality_uuid_describe(id) reads one key", t.with_time,
					 n));
}

// Add the rows of the column's B-tree index: its name, leaf density, the leaves the newest keys touch.
void
put_index_rows(ReturnSetInfo *rsinfo, Relation rel, AttrNumber attnum, const OrderedKeys &k)
{
	Oid         index = btree_index(rel, attnum);
	int64       leaf_pages;
	double      density;
	const char *why = nullptr;

	if (!OidIsValid(index))
	{
		put_row(rsinfo, "index", nullptr, "no B-tree index leads with the column: no leaves to keep hot, nothing to tune");
		return;
	}
	put_row(rsinfo, "index", quote_identifier(get_rel_name(index)),
			"B-tree, leading with the column: the index inserts touch; the rows below are about it");
	if (!index_stats(index, &leaf_pages, &density, &why))
	{
		Relation ir = index_open(index, AccessShareLock);

		leaf_pages = RelationGetNumberOfBlocks(ir) - 1; /* less the metapage: leaves and inner pages */
		index_close(ir, AccessShareLock);
		put_row(rsinfo, "leaf density", nullptr,
				psprintf("%s: CREATE EXTENSION pgstattuple, or GRANT pg_stat_scan_tables, for this row", why));
	}
	else
		put_row(rsinfo, "leaf density", psprintf("%.1f %%", density),
				"pgstattuple's pgstatindex: about 90 % after ordered inserts, 70 % after random ones; REINDEX CONCURRENTLY "
				"packs the leaves again");
	if (k.newest > 0 && leaf_pages > 0)
	{
		int64_t *pages = static_cast<int64_t *>(palloc(sizeof(int64_t) * k.newest));

		put_row(rsinfo, "leaves the newest keys touch",
				psprintf("%d of %lld", leaves_touched(k.rank, k.n, k.newest, leaf_pages, pages), static_cast<long long>(leaf_pages)),
				psprintf("the last %d sampled rows in heap order, placed among the leaves as the sample's keys: a few for "
						 "ordered keys, most of them for random keys",
						 k.newest));
		pfree(pages);
	}
}

} // namespace

// locality_uuid_column_report(tab regclass, col name, sample_rows integer) RETURNS SETOF record
extern "C" Datum
locality_uuid_column_report(PG_FUNCTION_ARGS)
{
	int32          limit = PG_GETARG_INT32(2);
	AttrNumber     attnum;
	Relation       rel = open_column(PG_GETARG_OID(0), NameStr(*PG_GETARG_NAME(1)), limit, &attnum);
	Sampled       *rows = static_cast<Sampled *>(palloc(sizeof(Sampled) * limit));
	int64_t        now_us = GetCurrentTimestamp() + pg_epoch_unix_us;
	double         tuples;
	double         percent;
	const char    *method;
	SampleTally    t;
	ReturnSetInfo *rsinfo;

	InitMaterializedSRF(fcinfo, 0);
	rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);
	SPI_connect();

	int         n = sample(rel, attnum, limit, rows, &tuples, &percent, &method);
	OrderedKeys k = order_keys(rows, n);

	tally_keys(k.keys, n, now_us, &t);
	put_row(rsinfo, "sampled rows", psprintf("%d", n),
			psprintf("TABLESAMPLE %s (%.6g %%) of about %.0f rows%s, in heap (ctid) order; a larger sample_rows gives finer figures",
					 method, percent, tuples,
					 rel->rd_rel->reltuples < 0 ? " (not yet analyzed: estimated from its size; ANALYZE for a closer estimate)" : ""));
	bool        blocks = false;
	const char *by_default = default_generator(rel, attnum, &blocks);
	const char *ordered = blocks ? nullptr : by_default;

	put_key_rows(rsinfo, t, ordered);
	put_row(rsinfo, "key order follows insert order", n >= 2 ? psprintf("%.3f", k.rho) : nullptr,
			"Spearman's correlation of key rank with heap order: 1 ordered, near 0 random, below 0 after a switch from "
			"random keys; the next row says where inserts go now");
	put_row(rsinfo, "the newest keys' order follows insert order", k.newest >= 2 ? psprintf("%.3f", k.rho_newest) : nullptr,
			psprintf("the same over the last %d sampled rows in heap order: 1 while the generator now in use orders its keys",
					 k.newest));
	put_index_rows(rsinfo, rel, attnum, k);

	GeneratorPick pick = pick_generator(t, k.rho, k.rho_newest, ordered, blocks ? by_default : nullptr);

	put_row(rsinfo, "generator to pick", pick.generator, pick_why(pick.reason));
	SPI_finish();
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}
