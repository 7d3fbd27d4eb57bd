// What the generators are doing, for a monitoring role: calls, clock leads, leases and the share used of each finite resource.
#include "glue.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "access/xact.h"
#include "commands/dbcommands.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h" /* get_rel_name(); get_database_name() from 19 on (commands/dbcommands.h before) */
#include "utils/tuplestore.h"

PG_FUNCTION_INFO_V1(locality_uuid_generators);
}

using namespace locality_uuid;

namespace
{

/* The columns of locality_uuid_generators(), in its OUT order. */
enum Column
{
	COL_DATABASE,
	COL_GENERATOR,
	COL_CALLS,
	COL_NEWEST_TIME,
	COL_NEWEST_LEAD,
	COL_LEASE_END_TIME,
	COL_LEASE_END_POSITION,
	COL_RUN_POSITION,
	COL_RUN_COUNTER,
	COL_RUN_POSITION_LIMIT,
	COL_ALLOCATION_USED,
	COL_ALLOCATION_LEFT,
	COL_ALLOCATION_LIMIT,
	COL_RESOURCE,
	COL_SHARE,
	COL_STATUS,
	column_count
};

/* One row under construction: values and nulls by Column, all NULL at first. */
struct Row
{
	Datum values[column_count];
	bool  nulls[column_count];
};

/* The thresholds of the status, and the worst share seen so far with its row's names. */
struct Shares
{
	double      warning;
	double      critical;
	double      worst;
	const char *worst_database; /* NULL: the cluster's */
	const char *worst_resource;
	const char *unknown_database; /* the first row whose share could not be read */
	const char *unknown_resource; /* NULL: none */
};

/* The row names of the counted generators (CountedGenerator order) and the resource each may run out of. */
struct GeneratorName
{
	const char *name;
	const char *resource; /* NULL: none that runs out */
};

constexpr GeneratorName generator_names[counted_generators] = {
	{"uuidv7_ordered()", NULL},
	{"uuidv7_ordered(at)", "allocation numbers"},
	{"hot_uuid(shard_key)", NULL},
	{"hot_uuid(shard_key, at)", "allocation numbers"},
	{"locality_uuid(true)", "continued run positions"},
	{"locality_uuid(false)", NULL},
};

/* The positions of the continued run (seq_position_max + 1) and of a bucket rule's run. */
constexpr int64_t continued_positions = static_cast<int64_t>(seq_position_max) + 1;
constexpr int64_t bucket_run_positions = INT64_C(1) << 32;

} // namespace

// Start a row of database (NULL: the cluster's) and generator, every other column NULL.
static Row
new_row(const char *database, const char *generator)
{
	Row row;

	for (int c = 0; c < column_count; c++)
	{
		row.values[c] = (Datum) 0;
		row.nulls[c] = true;
	}
	row.values[COL_GENERATOR] = CStringGetTextDatum(generator);
	row.nulls[COL_GENERATOR] = false;
	if (database == NULL)
		return row;

	Name name = static_cast<Name>(palloc0(NAMEDATALEN));

	namestrcpy(name, database);
	row.values[COL_DATABASE] = NameGetDatum(name);
	row.nulls[COL_DATABASE] = false;
	return row;
}

// Set column c of row to value.
static void
set(Row *row, Column c, Datum value)
{
	row->values[c] = value;
	row->nulls[c] = false;
}

// Set a row's share used and its status by the thresholds of shares.
static void
set_status(Row *row, const Shares &shares, double share)
{
	const char *status = "ok";

	if (share >= shares.critical)
		status = "critical";
	else if (share >= shares.warning)
		status = "warning";

	set(row, COL_SHARE, Float8GetDatum(share));
	set(row, COL_STATUS, CStringGetTextDatum(status));
}

// Set the newest id's time (Unix microseconds) and its lead over now(): negative when behind.
static void
set_newest(Row *row, int64_t unix_us)
{
	Interval   *lead = static_cast<Interval *>(palloc0(sizeof(Interval)));
	TimestampTz newest = unix_us - pg_epoch_unix_us;

	lead->time = newest - GetCurrentTransactionStartTimestamp();
	set(row, COL_NEWEST_TIME, TimestampTzGetDatum(newest));
	set(row, COL_NEWEST_LEAD, IntervalPGetDatum(lead));
}

// Set the share used of a resource of limit units, used of them, with its status; remember the worst.
static void
set_share(Row *row, Shares *shares, const char *database, const char *generator, const char *resource,
		  int64_t used, int64_t limit)
{
	double share = static_cast<double>(Min(used, limit)) / static_cast<double>(limit);

	set(row, COL_RESOURCE, CStringGetTextDatum(resource));
	set_status(row, *shares, share);
	if (share > shares->worst || shares->worst_resource == NULL)
	{
		shares->worst = share;
		shares->worst_database = database;
		shares->worst_resource = psprintf("%s %s", generator, resource);
	}
}

// Mark a row's share unknown (status 'unknown', share NULL): resource, of generator, could not be
// read, and why; remember the first such row.
static void
set_unknown(Row *row, Shares *shares, const char *database, const char *generator, const char *resource,
			const char *why)
{
	const char *what = psprintf("%s: %s", resource, why);

	set(row, COL_RESOURCE, CStringGetTextDatum(what));
	set(row, COL_STATUS, CStringGetTextDatum("unknown"));
	if (shares->unknown_resource == NULL)
	{
		shares->unknown_database = database;
		shares->unknown_resource = psprintf("%s %s", generator, what);
	}
}

// Set the allocation numbers of this database's sequence (bits wide): used in ranges, left, limit;
// a sequence missing or gone (a concurrent DROP EXTENSION, or RENAME committed while this waited
// for its lock) leaves them NULL, status 'unknown'. A next nextval the generator refuses
// (negative, or none: past a bound) uses them all, and the resource says why.
static void
set_allocations(FunctionCallInfo fcinfo, Row *row, Shares *shares, const char *database, int g,
				const char *sequence, int bits)
{
	const GeneratorName &gen = generator_names[g];
	Oid                  seq = member_sequence(fcinfo, sequence);
	int64_t              limit = INT64_C(1) << bits;
	int64_t              ranges = 0; /* the next nextval: the ranges handed out */
	bool                 past_end = false;

	set(row, COL_ALLOCATION_LIMIT, Int64GetDatum(limit));
	bool read = OidIsValid(seq) && peek_sequence(seq, &ranges, &past_end);
	/* Found by name before its lock was taken: read under the lock, it may have another name now. */
	char *name = read ? get_rel_name(seq) : NULL;

	if (name == NULL || strcmp(name, sequence) != 0)
	{
		set_unknown(row, shares, database, gen.name, gen.resource, psprintf("sequence %s missing", sequence));
		return;
	}

	const char *resource = gen.resource;
	int64_t     used = ranges >= 0 && ranges < limit / allocation_range ? ranges * allocation_range : limit;

	if (past_end)
		resource = psprintf("%s: sequence %s gives no next value", gen.resource, sequence);
	else if (ranges < 0)
		resource = psprintf("%s: sequence %s gives a negative next value, " INT64_FORMAT, gen.resource, sequence, ranges);
	if (past_end)
		used = limit;
	set(row, COL_ALLOCATION_USED, Int64GetDatum(used));
	set(row, COL_ALLOCATION_LEFT, Int64GetDatum(limit - used));
	set_share(row, shares, database, gen.name, resource, used, limit);
}

// Return the end of run r's last lease of this database as its lease sequence (the extension's
// member sequence, read under AccessShareLock) and the server's record hold it: what the next id
// starts at or above even where the shared state holds nothing of it (after a restart); 0: none.
static int64_t
stored_lease_end(FunctionCallInfo fcinfo, LeasedRun r)
{
	Oid     seq = member_sequence(fcinfo, r == RUN_V7_ORDERED ? v7_lease_sequence : continued_lease_sequence);
	int64_t next = 0;
	int64_t from_sequence = OidIsValid(seq) && peek_sequence(seq, &next) ? next - 1 : 0;

	return Max(from_sequence, lease_record_end(r));
}

// Set the lease end of run r (ms of the v7 word, or positions): the larger of the shared state's
// (f NULL: none) and, in this session's database (own), the stored one.
static void
set_lease_end(FunctionCallInfo fcinfo, Row *row, const DatabaseFigures *f, LeasedRun r, bool own)
{
	int64_t lease_end = f != NULL ? static_cast<int64_t>(f->runs[r].lease_next) - 1 : 0; /* the step's until */

	if (own)
		lease_end = Max(lease_end, stored_lease_end(fcinfo, r));
	if (lease_end <= 0)
		return;
	if (r == RUN_V7_ORDERED)
		set(row, COL_LEASE_END_TIME, TimestampTzGetDatum(lease_end * 1000 - pg_epoch_unix_us));
	else
		set(row, COL_LEASE_END_POSITION, Int64GetDatum(lease_end));
}

// Set the figures of the leased run r of a database: the newest id.
static void
set_leased_run(Row *row, Shares *shares, const DatabaseFigures &f, const char *database, LeasedRun r)
{
	uint64_t word = f.runs[r].word;

	if (r == RUN_V7_ORDERED)
	{
		if (word != 0)
			set_newest(row, v7_word_ms(word) * 1000);
		return;
	}
	if (word == seq_word_empty)
		return;

	int64_t newest = static_cast<int64_t>(word) - 1; /* the word is the next id's position */

	set(row, COL_RUN_POSITION, Int64GetDatum(newest));
	set(row, COL_RUN_COUNTER, Int64GetDatum(newest % bucket_run_positions));
	set(row, COL_RUN_POSITION_LIMIT, Int64GetDatum(continued_positions));
	set_share(row, shares, database, generator_names[CALLS_LOCALITY_SEQUENTIAL].name,
			  generator_names[CALLS_LOCALITY_SEQUENTIAL].resource, newest + 1, continued_positions);
}

// Put the rows of one database: one per counted generator. f is NULL where the shared state holds
// nothing of it; shared: there is shared state (calls 0 then, NULL without). The sequences and the
// record of the leases are read for the database of this session only.
static void
put_database(FunctionCallInfo fcinfo, ReturnSetInfo *rsinfo, Shares *shares, const DatabaseFigures *f,
			 const char *database, bool own, bool shared)
{
	for (int g = 0; g < counted_generators; g++)
	{
		Row row = new_row(database, generator_names[g].name);

		if (f != NULL || shared)
			set(&row, COL_CALLS, Int64GetDatum(f != NULL ? static_cast<int64_t>(f->calls[g]) : 0));
		if (f != NULL && g == CALLS_V7_ORDERED)
			set_leased_run(&row, shares, *f, database, RUN_V7_ORDERED);
		if (f != NULL && g == CALLS_LOCALITY_SEQUENTIAL)
			set_leased_run(&row, shares, *f, database, RUN_CONTINUED);
		if (g == CALLS_V7_ORDERED)
			set_lease_end(fcinfo, &row, f, RUN_V7_ORDERED, own);
		if (g == CALLS_LOCALITY_SEQUENTIAL)
			set_lease_end(fcinfo, &row, f, RUN_CONTINUED, own);
		if (own && g == CALLS_V7_ORDERED_AT)
			set_allocations(fcinfo, &row, shares, database, g, v7_allocation_sequence, v7_allocation_bits);
		if (own && g == CALLS_HOT_AT)
			set_allocations(fcinfo, &row, shares, database, g, hot_allocation_sequence, hot_allocation_bits);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, row.values, row.nulls);
	}
}

// Order database figures by OID.
static int
by_database(const void *a, const void *b)
{
	Oid x = static_cast<const DatabaseFigures *>(a)->database;
	Oid y = static_cast<const DatabaseFigures *>(b)->database;

	if (x == y)
		return 0;
	return x < y ? -1 : 1;
}

// Put the rows of every database the shared state holds (of the incarnation that exists) and this session's.
static void
put_databases(FunctionCallInfo fcinfo, ReturnSetInfo *rsinfo, Shares *shares)
{
	int              count;
	DatabaseFigures *figures = state_database_figures(&count);
	bool             own_done = false;

	if (count > 1)
		qsort(figures, count, sizeof(DatabaseFigures), by_database);
	for (int i = 0; i < count; i++)
	{
		const DatabaseFigures *f = &figures[i];
		bool                   own = f->database == MyDatabaseId;
		char                  *name = get_database_name(f->database);

		/*
		 * A dropped database's slot, until another database takes it over: under its name, or a
		 * later database's of its OID (CREATE DATABASE ... OID), whose incarnation is another.
		 */
		if (name == NULL || f->incarnation != database_incarnation_of(f->database))
			continue;
		if (own)
			own_done = true;
		put_database(fcinfo, rsinfo, shares, f, name, own, true);
	}
	if (!own_done)
		put_database(fcinfo, rsinfo, shares, NULL, get_database_name(MyDatabaseId), true, figures != NULL);
}

// Put the rows of the cluster's own state: the newest clock ids of every slot, the bucket rule's run.
static void
put_cluster(ReturnSetInfo *rsinfo, Shares *shares)
{
	ClusterFigures c;

	if (!state_cluster_figures(&c))
		return;
	if (c.locality_next_ms > 0)
	{
		Row row = new_row(NULL, "locality_uuid()");

		set_newest(&row, static_cast<int64_t>(c.locality_next_ms - 1) * 1000);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, row.values, row.nulls);
	}
	if (c.hot_next_tick > 0)
	{
		Row     row = new_row(NULL, "hot_uuid(shard_key)");
		int64_t tick = c.hot_next_tick - 1;
		int64_t seconds = tick / hot_ticks_per_second;
		int64_t us = (tick % hot_ticks_per_second) * 1000000 / hot_ticks_per_second;

		set_newest(&row, seconds * 1000000 + us);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, row.values, row.nulls);
	}
	if (c.bucket_word != seq_word_empty)
	{
		Row     row = new_row(NULL, "locality_uuid(true), bucket rule");
		int64_t index = static_cast<uint32_t>(c.bucket_word);

		set(&row, COL_RUN_POSITION, Int64GetDatum(index));
		set(&row, COL_RUN_POSITION_LIMIT, Int64GetDatum(bucket_run_positions));
		set_share(&row, shares, NULL, "locality_uuid(true), bucket rule", "run positions", index + 1,
				  bucket_run_positions);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, row.values, row.nulls);
	}
}

// Put the worst-share row: the largest share with its status; a share that could not be read makes it
// 'unknown' (that row's names, share NULL) unless the largest is critical, as Nagios ranks them.
static void
put_worst(ReturnSetInfo *rsinfo, const Shares &shares)
{
	bool unknown = shares.unknown_resource != NULL &&
		(shares.worst_resource == NULL || shares.worst < shares.critical);
	Row row = new_row(unknown ? shares.unknown_database : shares.worst_database, "worst share");

	if (unknown)
	{
		set(&row, COL_RESOURCE, CStringGetTextDatum(shares.unknown_resource));
		set(&row, COL_STATUS, CStringGetTextDatum("unknown"));
	}
	else if (shares.worst_resource != NULL)
	{
		set(&row, COL_RESOURCE, CStringGetTextDatum(shares.worst_resource));
		set_status(&row, shares, shares.worst);
	}
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, row.values, row.nulls);
}

// Read a threshold argument: a share from 0 to 1, or raise 22004 / 22023.
static double
threshold_arg(FunctionCallInfo fcinfo, int n, const char *name)
{
	if (PG_ARGISNULL(n))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s must not be null", name)));

	double share = PG_GETARG_FLOAT8(n);

	if (std::isnan(share) || share < 0 || share > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s must be a share from 0 to 1", name),
				 errdetail("%s is %g.", name, share),
				 errhint("check_postgres's thresholds are the defaults: 0.85 for warning, 0.95 for critical.")));
	return share;
}

// locality_uuid_generators(warning double precision, critical double precision) RETURNS SETOF record
extern "C" Datum
locality_uuid_generators(PG_FUNCTION_ARGS)
{
	Shares shares = {threshold_arg(fcinfo, 0, "warning"), threshold_arg(fcinfo, 1, "critical"), 0, NULL, NULL, NULL, NULL};

	if (shares.warning > shares.critical)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("warning must not be above critical"),
				 errdetail("warning is %g and critical is %g.", shares.warning, shares.critical)));
	/* This session's own calls count at once. */
	state_report_calls();
	InitMaterializedSRF(fcinfo, 0);

	ReturnSetInfo *rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);

	put_databases(fcinfo, rsinfo, &shares);
	put_cluster(rsinfo, &shares);

	put_worst(rsinfo, shares);
	return (Datum) 0;
}
