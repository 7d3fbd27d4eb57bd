// What crosses the C++/PostgreSQL line: the glue's shared declarations (settings, environment, state, values, errors).
#pragma once

/*
 * Invariant for every file of the glue: when the glue raises an error (ereport longjmps),
 * no C++ object with a destructor is alive. The core has none (plain structs, no heap),
 * and the glue holds only PostgreSQL-allocated memory and plain locals.
 *
 * Core headers come first: they refuse to compile once postgres.h has been seen.
 */
#include "core/allocation.hpp"
#include "core/fields.hpp"
#include "core/blocks.hpp"
#include "core/formats.hpp"
#include "core/hot.hpp"
#include "core/key_sample.hpp"
#include "core/locality_b.hpp"
#include "core/state.hpp"
#include "core/v7.hpp"
#include "os/mac.hpp"

extern "C" {
#include "postgres.h"

#include "access/tupdesc.h"
#include "fmgr.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
}

#if PG_VERSION_NUM < 150000
#error "locality_uuid needs PostgreSQL 15 or later (it uses shmem_request_hook and MarkGUCPrefixReserved)"
#endif

/*
 * The module is built with hidden visibility (Makefile). 16 and later mark the entry points, their
 * info records, the magic block and _PG_init for export; 15 marks nothing on this platform, so here
 * it marks the same ones.
 */
#if PG_VERSION_NUM < 160000 && defined(__GNUC__)
#undef PGDLLEXPORT
#define PGDLLEXPORT __attribute__((visibility("default")))
#undef PG_FUNCTION_INFO_V1
#define PG_FUNCTION_INFO_V1(funcname) \
	extern PGDLLEXPORT Datum                  funcname(PG_FUNCTION_ARGS); \
	extern PGDLLEXPORT const Pg_finfo_record *CppConcat(pg_finfo_, funcname)(void); \
	const Pg_finfo_record                    *CppConcat(pg_finfo_, funcname)(void) \
	{ \
		static const Pg_finfo_record finfo = {1}; \
		return &finfo; \
	} \
	extern int no_such_variable
#endif

/*
 * The entry points keep the C names the released scripts bind (AS 'MODULE_PATHNAME', 'name'): a
 * database left at an older version runs on this library, so none is renamed. A C name differs
 * from its SQL name where one SQL name has several signatures (_generate, _generate_at, _mode,
 * _interval, _shift, _key, _setting), where the SQL name is core's or sequential_uuids' (uuidv7,
 * uuidv4, uuid_extract_*, uuid_sequence_nextval, uuid_time_*: prefixed locality_uuid_, apart from
 * the server's own C functions), and for uuidv7_lower and uuidv7_upper (_bound). The comment line
 * above each entry point gives its SQL signature (make entry-order-check).
 */

namespace locality_uuid
{

/* Settings (locality_uuid.*, settings.cpp), defined by _PG_init. */
enum ProcessFieldSource
{
	PROCESS_FIELD_BACKEND,
	PROCESS_FIELD_PID
};
extern int   setting_counter_mode;    /* CounterMode as int */
extern int   setting_sequential_seed; /* SeedRule as int */
extern int   setting_node_id;         /* -1 = from the MAC */
extern int   setting_process_field;   /* ProcessFieldSource */
extern char *setting_machine_name;    /* "" = the host name up to its first dot */
extern bool  machine_name_changed;    /* set when locality_uuid.machine_name is assigned */

// Define the settings and reserve their prefix; called by _PG_init (settings.cpp).
void define_settings();

// Define locality_uuid.facade_key, the key of the façade functions; called by define_settings (facade.cpp).
void define_facade_key_setting();

/* Microseconds and milliseconds from the Unix epoch to PostgreSQL's (2000-01-01). */
constexpr int64_t pg_epoch_unix_us = (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC;
constexpr int64_t pg_epoch_unix_ms = pg_epoch_unix_us / 1000;

/* What the generators read from the server and the system (environment.cpp). */

// Return this backend's 16-bit process field, as locality_uuid.process_field says.
uint16_t process_field();

// Return the 28-bit node: locality_uuid.node_id, or the low 28 bits of the MAC.
uint32_t node_id();

// Give the MAC the node falls back on (zeros if none) and its interface (NULL if none); false if none.
bool node_mac(uint8_t mac[6], const char **ifname);

// Return the backend's PGPROC slot number, or -1 if this process has none.
int slot_number();

// Return the wall clock as Unix milliseconds, microseconds, version 7's reading, or hot_uuid
// ticks of 2^-23 s, raising 22008 outside 1970-01-01 .. 9999-12-31 UTC (the range every
// generator reads).
int64_t wall_ms();
int64_t wall_us();
V7Time  wall_v7();
int64_t wall_tick();

// Fill buf from this backend's pool of strong random bytes; false if the source failed.
bool random_bytes(uint8_t *buf, std::size_t len);

// Compute the MD5 digest of text; false on failure.
bool md5(const char *text, std::size_t len, uint8_t digest[digest_len]);

// Give the machine hash hot_uuid() uses now, in digest order, and the part of the host name
// it was made of (NULL when locality_uuid.machine_name names the machine) (hot.cpp).
void machine_hash(uint8_t out[hot_machine_len], const char **host_name);

/* Values (values.cpp). */

// Convert a timestamptz to Unix milliseconds (floor), erroring on infinity.
int64_t timestamptz_to_unix_ms(TimestampTz ts, const char *argname);

// Read argument n, a timestamptz, as Unix microseconds saturated at the ends of int64
// (-infinity INT64_MIN, infinity INT64_MAX: made_unit's input); SQL NULL reads as if_null.
int64_t made_bound_arg(FunctionCallInfo fcinfo, int n, int64_t if_null);

// Read a timestamptz as Unix microseconds saturated at the ends of int64 (made_bound_arg's).
int64_t made_bound(TimestampTz ts);

// Convert Unix milliseconds to a timestamptz.
TimestampTz unix_ms_to_timestamptz(int64_t ms);

// Return this function's blessed result row type, raising an error outside a record context.
TupleDesc result_tupdesc(FunctionCallInfo fcinfo);

// Return a new palloc'd uuid holding bytes.
pg_uuid_t *make_uuid(const uint8_t bytes[uuid_len]);

// Read argument n, a text, as a uuid (uuid's own input function and errors).
const pg_uuid_t *uuid_text_arg(FunctionCallInfo fcinfo, int n);

/* The extension's sequences (sequences.cpp). */

// Raise 25006 in a read-only transaction or on a standby: caller (the function's name, in
// messages) advances one of the extension's sequences, if not on this call then on a later one.
void require_writable(const char *caller);

// Return the sequence name of the extension that holds the calling function (a member, looked
// up once and then when a relation's invalidation says it may have changed; on every call if
// again). Where it is missing, raise 55000 for caller, unless the extension's version is below
// since (NULL: none is), which predates the sequence: then InvalidOid.
Oid extension_sequence(FunctionCallInfo fcinfo, const char *name, const char *caller, const char *since = NULL,
					   bool again = false);

// Return the sequence name of the extension that holds the calling function, as
// extension_sequence does, or InvalidOid where it is missing: never an error.
Oid member_sequence(FunctionCallInfo fcinfo, const char *name);

/*
 * Allocation numbers of explicit-time ids, drawn in ranges from one of the extension's sequences
 * (nextval v: v * 256 .. v * 256 + 255, none of them handed out before in the database).
 */
constexpr uint32_t allocation_range = 256;

/* The extension's sequences of the generators, by name: their generators and the monitor read them. */
constexpr const char *v7_allocation_sequence = "locality_uuid_v7_allocation";
constexpr const char *hot_allocation_sequence = "locality_uuid_hot_allocation";
constexpr const char *v7_lease_sequence = "locality_uuid_v7_lease";
constexpr const char *continued_lease_sequence = "locality_uuid_b_lease";

struct SequenceAllocations
{
	const char *sequence;   /* the extension's sequence */
	const char *caller;     /* the function's name, in messages */
	Allocator   numbers;    /* the range held */
	uint64_t    generation; /* of the sequences looked up, when the range was drawn */
};

// Give up the range held if its sequence may have been dropped or replaced since (a restore may
// have handed it out again); called before the numbers are asked for.
void forget_stale_allocations(SequenceAllocations *allocations);

// Act on what the numbers answered (st, not ok): hand them the next range of the sequence, or
// raise 54000 when st or the new range says the numbers are used up.
void take_allocations(FunctionCallInfo fcinfo, SequenceAllocations *allocations, AllocationStatus st);

// Run attempt(&allocations->numbers) until it answers ok, with a fresh range whenever it asks.
template<typename Attempt>
void
allocate(FunctionCallInfo fcinfo, SequenceAllocations *allocations, Attempt attempt)
{
	AllocationStatus st;

	forget_stale_allocations(allocations);
	while ((st = attempt(&allocations->numbers)) != AllocationStatus::ok)
		take_allocations(fcinfo, allocations, st);
}

// True if a sequence looked up may have been dropped or replaced since *seen was taken, which
// then moves on to now: what was drawn from a sequence before (a lease, a range) is given up.
bool sequences_replaced_since(uint64_t *seen);

// Set the extension's sequence seq to value, as its owner.
void set_extension_sequence(Oid seq, int64_t value);

// Give in *next the value the next nextval of sequence seq gives (its increment, bounds and CYCLE
// as nextval applies them), read from its page under AccessShareLock (no privilege, nothing DDL
// waits on, a standby too); in *past_end (if given) whether that nextval raises instead, past a
// bound without CYCLE. False where seq is gone or its page is not a sequence's.
bool peek_sequence(Oid seq, int64_t *next, bool *past_end = NULL);

// Return the value the next nextval of the extension's sequence seq gives, without advancing it.
int64_t next_sequence_value(Oid seq);

/* The leases of the ordered runs (lease.cpp): one protocol for uuidv7_ordered() and locality_uuid(true). */

/* The runs of ids that a lease sequence of the database keeps above every id made before. */
enum LeasedRun
{
	RUN_V7_ORDERED, /* uuidv7_ordered()'s words, leased in milliseconds */
	RUN_CONTINUED   /* the continued sequential run's positions, leased in positions */
};

/*
 * A floor of a take from a run's word: the take lands at or above value where force is set (the
 * database's first take since the server started or since a restore replaced its lease sequence,
 * a sequence set from outside since this server's last lease step, a backend keeping a word of
 * its own).
 */
struct RunFloor
{
	uint64_t value;
	bool     force;
};

/*
 * The lock tag's fourth field of the extension's advisory locks (the lease steps of a database,
 * the takeover of a dropped database's state): a value SQL's advisory locks never use (1 and 2).
 */
constexpr uint16 lease_lock_field = 7;

struct RunState; /* a leased run of one database, in shared memory (state.cpp) */

/*
 * A backend's lease on one of the extension's sequences: it makes ids of the run only below until
 * (0: none yet), and until is never above the sequence's value, nor the server's record of the
 * run (lease.cpp) below it; both only grow. The sequence is WAL-logged and the record is a file of
 * the data directory, so after a restart, a crash, a promotion or pg_upgrade the database's first
 * id starts at or above both, and a restore that sets the sequence back lowers neither floor.
 */
struct SequenceLease
{
	const char *sequence;     /* the extension's sequence */
	const char *caller;       /* the function's name, in messages */
	const char *since;        /* the extension's version that created the sequence */
	LeasedRun   run;          /* which run it leases */
	int64_t     until;        /* ids below it are this backend's (0: no lease) */
	uint64_t    generation;   /* of the sequences looked up, when until was taken */
	RunState   *shared;       /* the run's shared state (NULL: this backend keeps its own word) */
	bool        shared_found; /* shared was looked up */
	Oid         seq;          /* the lease sequence of until (InvalidOid: none, or none yet) */
	bool        floor_read;   /* a transaction that cannot advance the sequence read its floor */
};

// Return a number that tells this database apart from any database of its OID dropped before
// (its directory's inode and birth time, or where the file system keeps none, its catalog row's
// transaction; never 0): the shared state and the record of the leases of an earlier database
// are not this one's.
uint64_t database_incarnation();

// Return the incarnation of database db (database_incarnation() of a session there), read without
// writing; 0 where it is gone.
uint64_t database_incarnation_of(Oid db);

// Return the end of the run's last lease in the server's record of this session's database, read
// only (lease.cpp): 0 where there is none, it is another database's, or it is damaged.
int64_t lease_record_end(LeasedRun run);

// Begin a take of the run under the lease (lease.cpp): give up a stale lease, take a new one
// where there is none (first_wanted: the lease end the first id wants), and return the floor
// of the take.
RunFloor lease_begin(FunctionCallInfo fcinfo, SequenceLease *lease, int64_t first_wanted);

// Extend the lease past a value taken, to wanted; return the floor a take made again must keep
// (force set where the sequence was set from outside since this server's last lease step).
RunFloor lease_renew(FunctionCallInfo fcinfo, SequenceLease *lease, int64_t wanted);

// True if this transaction can advance a lease's sequence (writable, no parallel operation).
bool lease_writable();

// Record that the run's shared word reached the floor of the lease's sequence (state_mark_floored).
void lease_floored(SequenceLease *lease);

/*
 * The lease protocol, the same for both ordered runs: take the run's next value (a millisecond
 * of uuidv7_ordered's word, a position of the continued run) at or above the lease's floor;
 * when it reaches the lease's end, extend the lease to wanted(value); when the extension finds
 * its sequence set from outside since (a restore's setval after its data), take again above
 * that floor. take(word, floor) takes from the run's word and returns the value in the lease's
 * unit; wanted(value) is the lease end a value needs.
 */
template<typename Take, typename Wanted>
int64_t
take_leased(FunctionCallInfo fcinfo, SequenceLease *lease, int64_t first_wanted, Take take, Wanted wanted)
{
	RunFloor floor = lease_begin(fcinfo, lease, first_wanted);
	int64_t  value = take(lease->shared, floor);

	/* Only once the shared word is at the floor may others skip it. */
	if (floor.force)
		lease_floored(lease);
	if (value >= lease->until && lease_writable())
	{
		floor = lease_renew(fcinfo, lease, wanted(value));
		if (floor.force)
		{
			value = take(lease->shared, floor);
			if (value >= lease->until)
				(void) lease_renew(fcinfo, lease, wanted(value));
		}
	}
	return value;
}

/* Generator state (state.cpp): shared by the cluster's backends, or this backend's own. */
enum StateKind
{
	STATE_BACKEND,     /* per backend: 15 and 16 without shared_preload_libraries */
	STATE_PRELOAD,     /* shared memory reserved at startup (15, 16, preloaded) */
	STATE_DSM_REGISTRY /* shared memory from the DSM registry (17 and later) */
};

// Reserve the shared state when loaded by shared_preload_libraries (15, 16); called by _PG_init.
void state_preload();

// Attach to the state if not yet done in this process and return its kind.
StateKind state_kind();

// Attach as state_kind() does and name the kind: "backend", "preload" or "dsm_registry".
const char *state_kind_name();

// Return the marks of this backend's slot in the shared state, or NULL for per-backend state.
SlotMarks *state_slot();

// Take the next position in the sequential run of bucket (seq_advance): the cluster's run
// when there is shared state, else this backend's.
SeqStatus state_seq_take(int64_t bucket, SeqTake *take);

// Return the shared state of run for database db of that incarnation (database_incarnation),
// found or added, or taking over a dropped database's: NULL without shared state or room, where
// each backend keeps a word of its own. No database's sequences, settings or restores reach
// another's, nor a dropped database's a later one of the same OID.
RunState *state_run(LeasedRun run, Oid db, uint64_t incarnation);

// Take the next position of the continued run (seq_continue) from run's word (NULL: this
// backend's own), at or above floor where forced.
SeqStatus state_seq_continue(RunState *run, uint64_t start, RunFloor floor, SeqTake *take);

// Take the next ordered version 7 word from run's word (NULL: this backend's own): the larger of
// clock_word, floor (where forced) and the last word taken + 1.
uint64_t state_v7_take(RunState *run, uint64_t clock_word, RunFloor floor);

// True if run's word reached the floor of lease sequence lease since the server started (false
// without shared state, where each backend's first take starts at its floor).
bool state_floored(RunState *run, Oid lease);

// Remember that run's word reached the floor of lease sequence lease.
void state_mark_floored(RunState *run, Oid lease);

// Record that the lease sequence seq of run gives next at its next nextval, under the lock of the
// database's lease steps; true if this step's nextval gave not floor but what the server's last
// step with seq left (a restore's setval, any setval from outside): every later id starts above
// floor. False without shared state, where every backend's first id starts at its floor anyway.
bool state_lease_moved(RunState *run, Oid seq, int64_t floor, int64_t next);

/*
 * The generators whose calls the cluster counts for each database (state_fold_calls), in the order
 * of locality_uuid_generators()'s rows.
 */
enum CountedGenerator
{
	CALLS_V7_ORDERED,          /* uuidv7_ordered() */
	CALLS_V7_ORDERED_AT,       /* uuidv7_ordered(at) */
	CALLS_HOT,                 /* hot_uuid(shard_key) */
	CALLS_HOT_AT,              /* hot_uuid(shard_key, at) */
	CALLS_LOCALITY_SEQUENTIAL, /* locality_uuid in sequential mode */
	CALLS_LOCALITY_VARIABLE,   /* locality_uuid in variable mode */
	counted_generators
};

/* This backend's calls not yet added to its database's, and the count of one that adds them. */
extern uint64_t calls_pending[counted_generators];
extern uint64_t calls_fold_at;

// Add this backend's counted calls to its database's in the shared state (none without it); the
// first fold finds the database's counts and registers the fold at the backend's exit. Called at
// lease steps, draws of allocation ranges, and by count_call.
void state_fold_calls();

// Add this backend's pending calls, if it counted any, to its database's (no slot is made).
void state_report_calls();

// Count a call of generator g in this backend's memory: no shared memory on the way of an id.
inline void
count_call(CountedGenerator g)
{
	if (unlikely(++calls_pending[g] >= calls_fold_at))
		state_fold_calls();
}

/* What the shared state holds of one database (state_database_figures). */
struct DatabaseFigures
{
	Oid      database;
	uint64_t incarnation; /* database_incarnation() of the database whose figures these are */
	uint64_t calls[counted_generators];
	struct
	{
		uint64_t word;       /* RunState's word: the last v7 word, or the continued run's next position */
		uint64_t lease_next; /* what the run's last lease step left the sequence's next nextval at */
	} runs[2];               /* by LeasedRun */
};

/* What the shared state holds of the cluster (state_cluster_figures). */
struct ClusterFigures
{
	uint64_t bucket_word;      /* the bucket rule's run word (seq_word_empty: none yet) */
	uint64_t locality_next_ms; /* the largest mark of any slot: the newest locality id's millisecond + 1 */
	int64_t  hot_next_tick;    /* the same of shard-key clock ids, in ticks of 2^-23 s */
};

// Return the figures of every database in the table of databases, palloc'd, and their count
// (NULL, 0 without shared state). Read without a lock, each word as it is at its read.
DatabaseFigures *state_database_figures(int *count);

// Give the cluster's figures; false (all 0) without shared state.
bool state_cluster_figures(ClusterFigures *out);

/* The time range spellings (made.cpp). */

// The functions a spelling expands to, named in its own schema: the keys of since and before
// (C functions of one timestamptz), the check of the id (id_check(id uuid, since timestamptz,
// before timestamptz) RETURNS boolean, true where the id is of the format), and whether a key
// can be NULL (no id in the range).
struct MadeSpelling
{
	const char *since_key;
	const char *before_key;
	const char *after_key;   /* the key of "made after", since_key's of the next microsecond */
	const char *through_key; /* the key of "made at or before", before_key's of the next microsecond */
	const char *id_check;    /* also id_check(id uuid), the expansion's check without bounds */
	bool        keys_nullable;
	// The keys of since_key and before_key in C: false (nothing written) where no id is in range.
	bool (*since_bytes)(int64_t us, uint8_t out[uuid_len]);
	bool (*before_bytes)(int64_t us, uint8_t out[uuid_len]);
	// True if a uuid is of the format (id_check's answer); NULL where every uuid is.
	bool (*of_format)(const uint8_t *id);
	const char *extractor; /* extractor(id uuid) RETURNS timestamptz, whose comparisons are the user's words */
	int64_t     unit_us;   /* the time an id holds: 1000 (a millisecond), 1000000 (a second) */
};

// Return a spelling's own answer, false where an argument is NULL: made(id, since_us, before_us).
Datum made_datum(FunctionCallInfo fcinfo, bool (*made)(const uint8_t *id, int64_t since_us, int64_t before_us));

// Answer a planner support request of a spelling: SupportRequestSimplify with its expansion.
struct Node *made_support(struct Node *request, const MadeSpelling &spelling);

// Answer a planner support request of a spelling's check of the id: SupportRequestSelectivity.
struct Node *made_check_support(struct Node *request, const MadeSpelling &spelling);

// Answer a planner support request of a spelling's extractor (uuidv7_timestamp,
// hot_uuid_timestamp): SupportRequestSimplify leaves the call as it is and remembers the
// extractor, whose comparisons the planner hook then rewrites into the spelling's expansion.
struct Node *extractor_support(struct Node *request, const MadeSpelling &spelling);

// Install the planner hook that serves comparisons of the extractors; called by _PG_init.
void made_init();

/* Errors (errors.cpp). */

// Raise 22003 unless lo <= v <= hi, with hint (a full sentence) if given.
void check_range(const char *argname, int64_t v, int64_t lo, int64_t hi,
				 const char *hint = NULL);

// Raise the error that a core Status stands for (Status::ok returns, inline: the common case).
void report_failed_status(Status st);

inline void
report_status(Status st)
{
	if (st != Status::ok)
		report_failed_status(st);
}

} // namespace locality_uuid
