// locality_uuid_column_report(): what a sample of a uuid column says about its formats, order and index, and the generator to pick.
#include "glue.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/tableam.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
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
	int             key_rank;
};

/* What the sample says, counted as the rows are read. */
struct Tally
{
	int     rows;
	int     by_format[format_count + 1]; /* the first format that fits; the last: none */
	int     by_version[16];
	int     with_time;
	int64_t first_us;
	int64_t last_us;
	int     v4_pairs;       /* consecutive (heap order) version 4 keys */
	int     v4_same_prefix; /* of them, sharing their first two bytes (one block) */
	int     shard_key;      /* reading as shard-key ids of a plausible second (any id fits the layout) */
};

// Return whether the sample's version 4 keys show blocks: most are, and most neighbours share a prefix.
bool
shows_blocks(const Tally &t)
{
	return t.by_version[version_4] * 2 > t.rows && t.v4_same_prefix * 2 > t.v4_pairs;
}

// Order sampled rows by their place in the heap.
int
by_ctid(const void *a, const void *b)
{
	return ItemPointerCompare(const_cast<ItemPointerData *>(&static_cast<const Sampled *>(a)->ctid),
							  const_cast<ItemPointerData *>(&static_cast<const Sampled *>(b)->ctid));
}

// Order pointers to sampled rows by key, as uuids compare.
int
by_key(const void *a, const void *b)
{
	return memcmp((*static_cast<Sampled *const *>(a))->key.data, (*static_cast<Sampled *const *>(b))->key.data,
				  UUID_LEN);
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

/*
 * Read up to limit rows of the column into rows and return how many: the share of the table
 * that gives about limit rows of the *tuples estimated, by whole pages (TABLESAMPLE SYSTEM,
 * reading only those) when that is 100 pages or more, else by rows (BERNOULLI, reading every page).
 * Where the sample gives more than limit rows, every (got / limit)th is kept, in scan (heap) order:
 * a LIMIT would drop the newest.
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
	*method = *percent < 100 && *percent / 100 * pages >= 100 ? "SYSTEM" : "BERNOULLI";
	initStringInfo(&q);
	appendStringInfo(&q, "SELECT ctid, %s FROM %s TABLESAMPLE %s (%.9g) REPEATABLE (0) WHERE %s IS NOT NULL LIMIT %d",
					 col,
					 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
												RelationGetRelationName(rel)),
					 *method, *percent, col, limit + limit / 2 + 100);
	if (SPI_execute(q.data, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed: %s", q.data);
	got = SPI_processed;
	n = got > static_cast<uint64>(limit) ? limit : static_cast<int>(got);
	for (int i = 0; i < n; i++)
	{
		HeapTuple t = SPI_tuptable->vals[static_cast<uint64>(i) * got / n]; /* evenly spread when more came */
		bool      isnull;

		CHECK_FOR_INTERRUPTS();
		rows[i].ctid = *reinterpret_cast<ItemPointer>(DatumGetPointer(SPI_getbinval(t, SPI_tuptable->tupdesc, 1, &isnull)));
		rows[i].key = *DatumGetUUIDP(SPI_getbinval(t, SPI_tuptable->tupdesc, 2, &isnull));
	}
	return n;
}

// Return the first format that could have made a key (format_count: none), and its reading in *r; with plausible, a shard-key reading only of a plausible second.
int
first_format(const uint8_t *key, int64_t now_us, IdReading *r = nullptr, bool plausible = false)
{
	IdReading  own;
	IdReading *reading = r ? r : &own;

	read_id(key, now_us, false, reading);
	for (int f = 0; f < format_count; f++)
		if (reading->formats[f].fits && (!plausible || f != static_cast<int>(Format::hot) || reading->hot_plausible))
			return f;
	return format_count;
}

// Count formats, versions, times and one-block neighbours, rows in heap order.
void
tally(const Sampled *rows, int n, int64_t now_us, Tally *t)
{
	memset(t, 0, sizeof(*t));
	t->rows = n;
	for (int i = 0; i < n; i++)
	{
		IdReading r;

		CHECK_FOR_INTERRUPTS();
		t->by_format[first_format(rows[i].key.data, now_us, &r)]++;
		t->by_version[r.version]++;
		t->shard_key += r.formats[static_cast<int>(Format::hot)].fits && r.hot_plausible;
		if (r.time_from >= 0)
		{
			int64_t us = r.formats[r.time_from].unix_us;

			t->first_us = t->with_time == 0 || us < t->first_us ? us : t->first_us;
			t->last_us = t->with_time == 0 || us > t->last_us ? us : t->last_us;
			t->with_time++;
		}
		if (i > 0 && r.version == version_4 && version_nibble(rows[i - 1].key.data) == version_4)
		{
			t->v4_pairs++;
			t->v4_same_prefix += memcmp(rows[i - 1].key.data, rows[i].key.data, 2) == 0;
		}
	}
}

// Rank the keys of rows[start..n) (in heap order) among themselves, in key_rank when store; return Spearman's correlation of key rank with heap order.
double
order_correlation(Sampled *rows, int start, int n, bool store)
{
	int       m = n - start;
	Sampled **by = static_cast<Sampled **>(palloc(sizeof(Sampled *) * (m > 0 ? m : 1)));
	int      *rank = static_cast<int *>(palloc(sizeof(int) * (m > 0 ? m : 1)));
	double    d2 = 0;

	for (int i = 0; i < m; i++)
		by[i] = &rows[start + i];
	qsort(by, m, sizeof(Sampled *), by_key);
	for (int i = 0; i < m; i++)
		rank[by[i] - rows - start] = i;
	for (int i = 0; i < m; i++)
	{
		d2 += static_cast<double>(rank[i] - i) * (rank[i] - i);
		if (store)
			rows[start + i].key_rank = rank[i];
	}
	pfree(by);
	pfree(rank);
	return m < 2 ? 0 : 1 - 6 * d2 / (static_cast<double>(m) * (static_cast<double>(m) * m - 1));
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

// Order leaf numbers.
int
by_number(const void *a, const void *b)
{
	int64 x = *static_cast<const int64 *>(a);
	int64 y = *static_cast<const int64 *>(b);

	return x < y ? -1 : x > y;
}

// Return how many of leaf_pages leaves the newest keys (the last of the heap order) fall in, placed by their rank in the sample.
int
leaves_touched(const Sampled *rows, int n, int newest, int64 leaf_pages)
{
	int64 *page = static_cast<int64 *>(palloc(sizeof(int64) * newest));
	int    count = 0;

	for (int i = 0; i < newest; i++)
		page[i] = static_cast<int64>(rows[n - newest + i].key_rank) * leaf_pages / n;
	qsort(page, newest, sizeof(int64), by_number);
	for (int i = 0; i < newest; i++)
		count += i == 0 || page[i] != page[i - 1];
	pfree(page);
	return count;
}

/* The generator docs/choosing.md names for the keys of each format, when they follow insert order. */
const char *const ordered_generator[format_count + 1] = {
	"locality_uuid(true)", "uuid_sequence_nextval(seq) or uuid_time_nextval()", "uuidv7_ordered()", "uuidv7_ordered()", "uuidv7_ordered()",
	"hot_uuid(shard_key)", "uuidv7_ordered()"};

// Return whether a generator of this extension makes ids of the format (version 1 and 6 ids, and those of no format, come from elsewhere).
bool
made_here(int format)
{
	return format != static_cast<int>(Format::v1) && format != static_cast<int>(Format::v6) && format != format_count;
}

// Name the generator docs/choosing.md picks for what the sample shows; *why says why.
const char *
pick(const Tally &t, double rho, double rho_newest, int newest_format, const char **why)
{
	if (t.rows == 0)
	{
		*why = "no rows sampled: report again once the table holds keys";
		return nullptr;
	}
	if (t.shard_key * 2 > t.rows)
		*why = "shard-key ids: keep hot_uuid where services route by the key";
	else if (shows_blocks(t))
	{
		*why = "block ids: keep the block generator where rows are deleted by age, and size its blocks with locality_uuid_block_advice()";
		return ordered_generator[static_cast<int>(Format::block)];
	}
	else if ((rho >= 0.9 || rho_newest >= 0.9) && !made_here(newest_format))
		*why = "keys follow insert order but no generator of this extension made them: set the DEFAULT to uuidv7_ordered() to keep that order across backends";
	else if (rho >= 0.9)
		*why = "keys follow insert order: keep the generator, nothing to do";
	else if (rho_newest >= 0.9)
		*why = "the newest keys follow insert order, the older ones do not (a switch of generator): keep the new one; the old keys stay where they are (docs/choosing.md, \"From random keys to ordered ones\")";
	else
	{
		*why = "keys do not follow insert order: switch the DEFAULT to uuidv7_ordered(), which touches one leaf per insert (docs/choosing.md, \"From random keys to ordered ones\")";
		return "uuidv7_ordered()";
	}
	return ordered_generator[newest_format];
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
	if (get_atttype(relid, *attnum) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" is not of type uuid", col)));
	return rel;
}

/* What a DBA reads in each format's row, and what to do: a version 4 key is random unless its prefixes show blocks. */
const char *const format_item[format_count + 1] = {"format locality", "format block", "format v7", "format v1",
												   "format v6", "format hot", "format none"};
const char *const format_detail[format_count + 1] = {
	"locality_uuid ids: keep locality_uuid(true) where the order rows show 1; locality_uuid(false) spreads them for range-sharded clusters",
	"block ids (uuid_sequence_nextval, uuid_time_nextval): keep where rows are deleted by age; size the blocks with locality_uuid_block_advice()",
	"version 7, ordered by time: keep; uuidv7_ordered() keeps one order across backends",
	"version 1, made elsewhere, not ordered (its time starts with its low bits): make new keys with uuidv7_ordered()",
	"version 6, made elsewhere, ordered by time: keep, or make new keys with uuidv7_ordered()",
	"shard-key ids: keep hot_uuid where services route by the key",
	"no format of this extension: the order rows say whether the keys follow insert order"};
constexpr const char *random_item = "format random (version 4)";
constexpr const char *not_shard_key_detail =
	"any id fits the shard-key layout, and most of these carry no plausible second: not shard-key ids";
constexpr const char *random_detail =
	"random keys (gen_random_uuid(), uuidv4()): each insert touches a random leaf; switch the DEFAULT to uuidv7_ordered()";

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

// Add the rows of what the keys say: formats, versions, blocks, time span.
void
put_key_rows(ReturnSetInfo *rsinfo, const Tally &t)
{
	int  n = t.rows;
	bool blocks = shows_blocks(t);

	for (int f = 0; f <= format_count; f++)
		if (t.by_format[f] > 0)
		{
			bool        random = f == static_cast<int>(Format::block) && !blocks;
			const char *detail = random ? random_detail : format_detail[f];

			if (f == static_cast<int>(Format::hot) && t.shard_key * 2 <= t.rows)
				detail = not_shard_key_detail;
			put_row(rsinfo, random ? random_item : format_item[f], psprintf("%.1f %%", 100.0 * t.by_format[f] / n), detail);
		}
	for (int v = 0; v < 16; v++)
		if (t.by_version[v] > 0)
			put_row(rsinfo, psprintf("version %x", v), psprintf("%.1f %%", 100.0 * t.by_version[v] / n),
					version_detail(v));
	if (t.v4_pairs > 0)
		put_row(rsinfo, "version 4 neighbours in one block", psprintf("%.1f %%", 100.0 * t.v4_same_prefix / t.v4_pairs),
				"consecutive rows whose keys share their first 16 bits: near 0 % for random keys, over half for block ids");
	put_row(rsinfo, "time span",
			t.with_time > 0 ? psprintf("%s .. %s", pstrdup(timestamptz_to_str(t.first_us - pg_epoch_unix_us)),
									   timestamptz_to_str(t.last_us - pg_epoch_unix_us))
							: nullptr,
			psprintf("%d of %d keys carry a time their bits fix; locality_uuid_describe(id) reads one key", t.with_time,
					 n));
}

// Add the rows of the column's B-tree index: its name, leaf density, the leaves the newest keys touch.
void
put_index_rows(ReturnSetInfo *rsinfo, Relation rel, AttrNumber attnum, const Sampled *rows, int n, int newest)
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
				"pgstattuple's pgstatindex: about 90 % after ordered inserts, 70 % after random ones; REINDEX CONCURRENTLY packs the leaves again");
	if (newest > 0 && leaf_pages > 0)
		put_row(rsinfo, "leaves the newest keys touch",
				psprintf("%d of %lld", leaves_touched(rows, n, newest, leaf_pages), static_cast<long long>(leaf_pages)),
				psprintf("the last %d sampled rows in heap order, placed among the leaves as the sample's keys: a few for ordered keys, most of them for random keys", newest));
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
	const char    *why = nullptr;
	Tally          t;
	ReturnSetInfo *rsinfo;

	InitMaterializedSRF(fcinfo, 0);
	rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);
	SPI_connect();

	int n = sample(rel, attnum, limit, rows, &tuples, &percent, &method);

	qsort(rows, n, sizeof(Sampled), by_ctid);
	tally(rows, n, now_us, &t);

	int    newest = n / 10 < 1000 ? n / 10 : 1000;
	double rho_newest = order_correlation(rows, n - newest, n, false);
	double rho = order_correlation(rows, 0, n, true);
	int    newest_format = n > 0 ? first_format(rows[n - 1].key.data, now_us, nullptr, true) : format_count;

	put_row(rsinfo, "sampled rows", psprintf("%d", n),
			psprintf("TABLESAMPLE %s (%.6g %%) of about %.0f rows%s, in heap (ctid) order; a larger sample_rows gives finer figures",
					 method, percent, tuples,
					 rel->rd_rel->reltuples < 0 ? " (not yet analyzed: estimated from its size; ANALYZE for a closer estimate)" : ""));
	put_key_rows(rsinfo, t);
	put_row(rsinfo, "key order follows insert order", n >= 2 ? psprintf("%.3f", rho) : nullptr,
			"Spearman's correlation of key rank with heap order: 1 ordered, near 0 random, below 0 after a switch from random keys; the next row says where inserts go now");
	put_row(rsinfo, "the newest keys' order follows insert order", newest >= 2 ? psprintf("%.3f", rho_newest) : nullptr,
			psprintf("the same over the last %d sampled rows in heap order: 1 while the generator now in use orders its keys", newest));
	put_index_rows(rsinfo, rel, attnum, rows, n, newest);

	const char *generator = pick(t, rho, rho_newest, newest_format, &why);

	put_row(rsinfo, "generator to pick", generator, why);
	SPI_finish();
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}
