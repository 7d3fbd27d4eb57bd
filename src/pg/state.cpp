// Generator state shared by the cluster's backends: DSM registry (17+), preload (15, 16), or per backend.
#include "glue.hpp"

#include <cstring>

extern "C" {
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lock.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/syscache.h"
#if PG_VERSION_NUM >= 170000
#include "storage/dsm_registry.h"
#else
#include "access/twophase.h"
#endif

PG_FUNCTION_INFO_V1(locality_uuid_state);
}

namespace locality_uuid
{

/*
 * A shared memory area of the state, found or created by its name: in the DSM registry at a
 * backend's first use (17+), in the memory the postmaster reserves at startup (15, 16 with
 * shared_preload_libraries). at stays NULL where there is none: then every backend keeps state of
 * its own. Each part of the state has an area of its own, so that a server still holding the
 * areas of an earlier build is never asked for a different size.
 */
struct SharedArea
{
	const char *name;
	Size (*size)();
	void (*init)(void *at, Size size); /* sets up a new area */
	void *at;
};

/*
 * The sequential runs: the run word, then one cache line of marks per PGPROC slot.
 * Locking: the run word changes only by compare-and-swap (no lock, no wait); a slot's marks
 * are written only by the backend that holds the slot, and read by the next holder after
 * PostgreSQL's own locks handed the slot over, so they need none either.
 */
struct SharedHeader
{
	pg_atomic_uint64 seq;
	uint32           nslots;
};

struct alignas(64) SharedSlot
{
	SlotMarks marks;
};

static constexpr Size header_size = TYPEALIGN(64, sizeof(SharedHeader));

static uint32 slot_count();

// Return the size of the runs' area for every slot of the cluster.
static Size
runs_size()
{
	return add_size(header_size, mul_size(slot_count(), sizeof(SharedSlot)));
}

// Initialise a new runs' area of size bytes for every slot of the cluster.
static void
runs_init(void *at, Size size)
{
	SharedHeader *h = static_cast<SharedHeader *>(at);

	memset(at, 0, size);
	pg_atomic_init_u64(&h->seq, seq_word_empty);
	h->nslots = slot_count();
}

// Initialise a new area of words to 0.
static void
words_init(void *at, Size size)
{
	pg_atomic_uint64 *words = static_cast<pg_atomic_uint64 *>(at);

	for (Size i = 0; i < size / sizeof(pg_atomic_uint64); i++)
		pg_atomic_init_u64(&words[i], 0);
}

/*
 * The leased runs of each database: a table of database_slots slots, one per database that took
 * an ordered id since the server started, found by open addressing from a hash of its OID (insert
 * only while there is a free slot; then a slot of a database that no longer exists is taken over).
 * A slot holds the database's key and, for each leased run, its RunState. No database's sequences,
 * settings or restores reach another's slot; DROP EXTENSION or a restore keeps the database's.
 */
static constexpr uint32 database_slots = 4096;
static constexpr uint64 key_claimed = UINT64_C(1) << 32; /* with the OID: a slot being taken over */

/*
 * A leased run of one database. word: the last ordered version 7 word taken (uuidv7_ordered), or
 * the position of the continued sequential run's next id; 0 while none was taken. floored: the
 * lease sequence whose floor the word reached (state_mark_floored). lease and next: the lease
 * sequence of the server's last lease step of the run, and the value its next nextval gives as
 * that step left it (state_lease_moved).
 */
struct RunState
{
	pg_atomic_uint64 word;
	pg_atomic_uint64 floored;
	pg_atomic_uint64 lease;
	pg_atomic_uint64 next;
};

struct DatabaseSlot
{
	pg_atomic_uint64 key;         /* the database's OID; 0: free; with key_claimed: being taken over */
	pg_atomic_uint64 incarnation; /* database_incarnation() of the database whose runs these are */
	RunState         runs[2];
};

// Return the size of the table of databases.
static Size
databases_size()
{
	return mul_size(database_slots, sizeof(DatabaseSlot));
}

/*
 * The calls of each database's generators since the server started: one row of counts per slot
 * of the table of databases, at the same index, in an area of its own (a server holding the
 * table of an earlier build keeps its size). A backend counts its calls in its own memory and
 * adds them here at its lease steps, its draws of allocation ranges, every calls_fold_every
 * calls of one generator and at its exit (state_fold_calls), so no call touches shared memory.
 */
struct DatabaseCalls
{
	pg_atomic_uint64 calls[counted_generators];
};

// Return the size of the calls of the table's databases.
static Size
calls_size()
{
	return mul_size(database_slots, sizeof(DatabaseCalls));
}

static SharedArea runs = {"locality_uuid", runs_size, runs_init, NULL};
static SharedArea databases = {"locality_uuid_databases", databases_size, words_init, NULL};
static SharedArea calls = {"locality_uuid_calls", calls_size, words_init, NULL};
static_assert(seq_word_empty == 0, "shared words start at 0, which must be the empty run word");
static_assert(sizeof(DatabaseSlot) % sizeof(pg_atomic_uint64) == 0, "a slot is made of words, all 0 when free");

static SharedArea *const areas[] = {&runs, &databases, &calls};

static bool       attached = false;
static StateKind  kind = STATE_BACKEND;
static SlotMarks *my_slot = NULL;
static uint64_t   seq_own = seq_word_empty;       /* this backend's run word (with shared memory: a guess) */
static uint64_t   v7_own = 0;                     /* this backend's last v7 word (with shared memory: a guess) */
static uint64_t   continued_own = seq_word_empty; /* this backend's continued word (shared: a guess) */


#if PG_VERSION_NUM >= 170000

/* Every PGPROC of the cluster: known in any backend once shared memory is up. */
static uint32
slot_count()
{
	return ProcGlobal->allProcCount;
}

/* The area GetNamedDSMSegment is asked for: its callback knows no more before 19. */
static SharedArea *creating = NULL;

#if PG_VERSION_NUM >= 190000
static void
init_dsm(void *at, void *)
#else
static void
init_dsm(void *at)
#endif
{
	creating->init(at, creating->size());
}

// Find or create the area in the DSM registry.
static void *
find_or_create(SharedArea *area)
{
	bool found;

	creating = area;
	return GetNamedDSMSegment(area->name, area->size(), init_dsm, &found
#if PG_VERSION_NUM >= 190000
							  ,
							  NULL
#endif
	);
}

void
state_preload()
{
}

#else /* 15, 16 */

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* Every PGPROC of the cluster, as InitProcGlobal counts them. */
static uint32
slot_count()
{
	return MaxBackends + NUM_AUXILIARY_PROCS + max_prepared_xacts;
}

// Ask for the state's shared memory.
static void
request_shmem()
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	for (SharedArea *area : areas)
		RequestAddinShmemSpace(area->size());
}

// Find or create the area in shared memory (caller holds AddinShmemInitLock).
static void *
find_or_create(SharedArea *area)
{
	bool  found;
	Size  size = area->size();
	void *at = ShmemInitStruct(area->name, size, &found);

	if (!found)
		area->init(at, size);
	return at;
}

// Create or find the state in shared memory (postmaster start and crash restarts).
static void
startup_shmem()
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	for (SharedArea *area : areas)
		area->at = find_or_create(area);
	LWLockRelease(AddinShmemInitLock);
}

void
state_preload()
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = request_shmem;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = startup_shmem;
}

#endif

// Attach to the state once per process; keep per-backend state if there is none to share.
static void
attach()
{
	if (attached)
		return;
#if PG_VERSION_NUM >= 170000
	for (SharedArea *area : areas)
		area->at = find_or_create(area);
	kind = STATE_DSM_REGISTRY;
#else
	if (runs.at != NULL)
		kind = STATE_PRELOAD;
#endif
	if (runs.at != NULL)
	{
		SharedHeader *h = static_cast<SharedHeader *>(runs.at);
		SharedSlot   *slots = reinterpret_cast<SharedSlot *>(static_cast<char *>(runs.at) + header_size);
		int           slot = slot_number();

		/* A process without a slot, or outside the slots counted at startup, keeps its own marks. */
		if (slot >= 0 && static_cast<uint32>(slot) < h->nslots)
			my_slot = &slots[slot].marks;
	}
	attached = true;
}

// Return the words of an area, attaching the state first (NULL: none shared).
static pg_atomic_uint64 *
words(const SharedArea &area)
{
	attach();
	return static_cast<pg_atomic_uint64 *>(area.at);
}

// Return the runs' header, attaching the state first (NULL: none shared).
static SharedHeader *
shared_runs()
{
	attach();
	return static_cast<SharedHeader *>(runs.at);
}

StateKind
state_kind()
{
	attach();
	return kind;
}

const char *
state_kind_name()
{
	static const char *const names[] = {"backend", "preload", "dsm_registry"};

	return names[state_kind()];
}

SlotMarks *
state_slot()
{
	attach();
	return my_slot;
}

/*
 * Replace a word of the state by step(word), step's result, and return whether it did: the
 * shared word by compare-and-swap when the state is shared, else this backend's own. step
 * says no by returning false, and then the word stays as it is.
 *
 * With shared state, *own_word is this backend's last sight of the shared word, and the first
 * swap expects it. When another backend moved the word since, that swap fails and hands over the
 * current word with its cache line already held for writing, so the retry stays on this core:
 * one transfer of the line between cores a call, where reading the word first costs two. A no
 * from step counts only for a word read from the cluster, never for the guess.
 */
template<typename Step>
static bool
advance(pg_atomic_uint64 *shared_word, uint64_t *own_word, Step step)
{
	uint64_t next;

	if (shared_word == NULL)
	{
		if (!step(*own_word, &next))
			return false;
		*own_word = next;
		return true;
	}

	uint64 word = *own_word;
	bool   read = false; /* word is the cluster's, not the guess */

	for (;;)
	{
		if (!step(word, &next))
		{
			if (read)
				return false;
			word = pg_atomic_read_u64(shared_word);
			read = true;
			continue;
		}
		/* On failure word holds the current value: the loop retries only while others advance. */
		if (pg_atomic_compare_exchange_u64(shared_word, &word, next))
			break;
		read = true;
	}
	*own_word = next;
	return true;
}

SeqStatus
state_seq_take(int64_t bucket, SeqTake *take)
{
	SeqStatus     st = SeqStatus::ok;
	SharedHeader *h = shared_runs();

	advance(h != NULL ? &h->seq : NULL, &seq_own,
			[&](uint64_t word, uint64_t *next) {
				st = seq_advance(word, bucket, next, take);
				return st == SeqStatus::ok;
			});
	return st;
}

// Return the floor a take applies (RunFloor): its value where forced, else none.
static uint64_t
floor_of(RunFloor floor)
{
	return floor.force ? floor.value : 0;
}

/*
 * The shared continued word this backend saw taken: from then on the word is not empty and only
 * grows while the shared memory lives (a restart starts every backend afresh), so a position
 * without a forced floor is the word's value, one fetch-and-add, with no retry under contention.
 */
static RunState *continued_taken = NULL;

SeqStatus
state_seq_continue(RunState *run, uint64_t start, RunFloor floor, SeqTake *take)
{
	SeqStatus st = SeqStatus::ok;
	uint64_t  next;

	if (run != NULL && run == continued_taken && !floor.force)
		return seq_continue(pg_atomic_fetch_add_u64(&run->word, 1), start, 0, &next, take);
	advance(run != NULL ? &run->word : NULL, &continued_own,
			[&](uint64_t word, uint64_t *next_word) {
				st = seq_continue(word, start, floor_of(floor), next_word, take);
				return st == SeqStatus::ok;
			});
	continued_taken = st == SeqStatus::ok ? run : NULL;
	return st;
}

uint64_t
state_v7_take(RunState *run, uint64_t clock_word, RunFloor floor)
{
	uint64_t taken = 0;

	advance(run != NULL ? &run->word : NULL, &v7_own,
			[&](uint64_t word, uint64_t *next) {
				taken = *next = v7_word_after(word, Max(clock_word, floor_of(floor)));
				return true;
			});
	return taken;
}

// True if no database of the cluster has the OID db (any more).
static bool
database_gone(uint64 db)
{
	return !SearchSysCacheExists1(DATABASEOID, ObjectIdGetDatum(static_cast<Oid>(db)));
}

// Return the calls of the database in slot, at its index in the table of databases.
static DatabaseCalls *
calls_of(const DatabaseSlot *slot)
{
	const DatabaseSlot *slots = static_cast<const DatabaseSlot *>(databases.at);

	return &static_cast<DatabaseCalls *>(calls.at)[slot - slots];
}

// Set a slot's runs and calls to 0 for the database of incarnation, before its key says it is there.
static void
reset_slot(DatabaseSlot *slot, uint64 incarnation)
{
	for (RunState &r : slot->runs)
	{
		pg_atomic_write_u64(&r.word, 0);
		pg_atomic_write_u64(&r.floored, 0);
		pg_atomic_write_u64(&r.lease, 0);
		pg_atomic_write_u64(&r.next, 0);
	}
	for (pg_atomic_uint64 &c : calls_of(slot)->calls)
		pg_atomic_write_u64(&c, 0);
	pg_atomic_write_u64(&slot->incarnation, incarnation);
	pg_write_barrier();
}

// Return the slot of key db in the table: found, or put in a free slot on the way (take_over:
// else in the slot of a database that no longer exists, its runs reset); NULL if none, or while
// another backend takes a slot over for db.
static DatabaseSlot *
find_slot(DatabaseSlot *slots, Oid db, uint64 incarnation, bool take_over)
{
	uint32 start = static_cast<uint32>((db * UINT64_C(0x9E3779B97F4A7C15)) >> 32) % database_slots;

	for (uint32 i = 0, h = start; i < database_slots; i++, h = (h + 1) % database_slots)
	{
		uint64 key = pg_atomic_read_u64(&slots[h].key);

		if (key == 0 && pg_atomic_compare_exchange_u64(&slots[h].key, &key, db))
			return &slots[h];
		/* On failure key holds what another backend put there first: db, or go on. */
		if (key == db)
			return &slots[h];
		if (key == (db | key_claimed))
			return NULL;
	}
	for (uint32 i = 0, h = start; take_over && i < database_slots; i++, h = (h + 1) % database_slots)
	{
		uint64 key = pg_atomic_read_u64(&slots[h].key);

		if ((key & key_claimed) == 0 && database_gone(key) &&
			pg_atomic_compare_exchange_u64(&slots[h].key, &key, db | key_claimed))
		{
			reset_slot(&slots[h], incarnation);
			pg_atomic_write_u64(&slots[h].key, db);
			return &slots[h];
		}
	}
	return NULL;
}

/*
 * Return the slot of database db of incarnation in the table of databases, or NULL (without
 * shared state, or room). A slot found of another incarnation (a dropped database of the same
 * OID; 0: new) has its runs reset, and a full table gives up the slot of a dropped database, both
 * under a lock of the cluster's takeovers, so that a database never has two slots nor two
 * backends reset one.
 */
static DatabaseSlot *
database_slot(Oid db, uint64 incarnation)
{
	DatabaseSlot *slots = static_cast<DatabaseSlot *>(static_cast<void *>(words(databases)));
	DatabaseSlot *slot;

	if (slots == NULL)
		return NULL;
	slot = find_slot(slots, db, incarnation, false);
	if (slot != NULL && pg_atomic_read_u64(&slot->incarnation) == incarnation)
		return slot;

	LOCKTAG tag;

	SET_LOCKTAG_ADVISORY(tag, InvalidOid, 0, 0, lease_lock_field);
	(void) LockAcquire(&tag, ExclusiveLock, false, false);
	slot = find_slot(slots, db, incarnation, true);
	if (slot != NULL && pg_atomic_read_u64(&slot->incarnation) != incarnation)
		reset_slot(slot, incarnation);
	LockRelease(&tag, ExclusiveLock, false);
	return slot;
}

RunState *
state_run(LeasedRun run, Oid db, uint64_t incarnation)
{
	DatabaseSlot *slot = database_slot(db, incarnation);

	return slot != NULL ? &slot->runs[run] : NULL;
}

bool
state_floored(RunState *run, Oid lease)
{
	return run != NULL && pg_atomic_read_u64(&run->floored) == lease;
}

void
state_mark_floored(RunState *run, Oid lease)
{
	if (run != NULL)
		pg_atomic_write_u64(&run->floored, lease);
}

bool
state_lease_moved(RunState *run, Oid seq, int64_t floor, int64_t next)
{
	if (run == NULL)
		return false;

	uint64 expected = pg_atomic_read_u64(&run->next);
	bool   same_lease = pg_atomic_read_u64(&run->lease) == seq;

	pg_atomic_write_u64(&run->lease, seq);
	pg_atomic_write_u64(&run->next, static_cast<uint64>(next));
	/* A first step of this server with the sequence takes its floor anyway. */
	return same_lease && expected != static_cast<uint64>(floor);
}

uint64_t calls_pending[counted_generators];
uint64_t calls_fold_at = 1; /* the first call folds: it finds the database's calls, registers the exit */

static constexpr uint64_t calls_fold_every = 65536;
static DatabaseCalls     *my_calls = NULL; /* this backend's database's (NULL: none shared, or no room) */
static bool               calls_found = false;

// Add this backend's calls counted since its last fold to its database's, and start again at 0.
static void
add_pending_calls()
{
	for (int g = 0; g < counted_generators; g++)
	{
		if (my_calls != NULL && calls_pending[g] != 0)
			pg_atomic_fetch_add_u64(&my_calls->calls[g], calls_pending[g]);
		calls_pending[g] = 0;
	}
}

// Fold the calls of a backend that exits (before_shmem_exit: shared memory is still there).
static void
fold_calls_at_exit(int, Datum)
{
	add_pending_calls();
}

void
state_fold_calls()
{
	calls_fold_at = calls_fold_every;
	if (!calls_found)
	{
		/* Looked up once, in a transaction: the exit has no catalog to read. */
		calls_found = true;
		if (words(calls) != NULL)
		{
			DatabaseSlot *slot = database_slot(MyDatabaseId, database_incarnation());

			my_calls = slot != NULL ? calls_of(slot) : NULL;
		}
		before_shmem_exit(fold_calls_at_exit, 0);
	}
	add_pending_calls();
}

void
state_report_calls()
{
	/* A backend that counted no call has none pending: its database may have no slot to add to. */
	if (calls_found)
		add_pending_calls();
}

DatabaseFigures *
state_database_figures(int *count)
{
	DatabaseSlot    *slots = static_cast<DatabaseSlot *>(static_cast<void *>(words(databases)));
	DatabaseFigures *figures;

	*count = 0;
	if (slots == NULL)
		return NULL;
	figures = static_cast<DatabaseFigures *>(palloc(database_slots * sizeof(DatabaseFigures)));
	for (uint32 i = 0; i < database_slots; i++)
	{
		uint64           key = pg_atomic_read_u64(&slots[i].key);
		DatabaseFigures *f = &figures[*count];

		if (key == 0 || (key & key_claimed) != 0)
			continue;
		f->database = static_cast<Oid>(key);
		f->incarnation = pg_atomic_read_u64(&slots[i].incarnation);
		for (int g = 0; g < counted_generators; g++)
			f->calls[g] = pg_atomic_read_u64(&calls_of(&slots[i])->calls[g]);
		for (int r = 0; r < 2; r++)
		{
			f->runs[r].word = pg_atomic_read_u64(&slots[i].runs[r].word);
			f->runs[r].lease_next = pg_atomic_read_u64(&slots[i].runs[r].next);
		}
		(*count)++;
	}
	return figures;
}

bool
state_cluster_figures(ClusterFigures *out)
{
	SharedHeader *h = shared_runs();

	*out = ClusterFigures{seq_word_empty, 0, 0};
	if (h == NULL)
		return false;

	const SharedSlot *slots = reinterpret_cast<const SharedSlot *>(static_cast<char *>(runs.at) + header_size);

	out->bucket_word = pg_atomic_read_u64(&h->seq);
	/* Each mark is one aligned word its own backend writes: a read sees the old or the new one. */
	for (uint32 i = 0; i < h->nslots; i++)
	{
		const volatile SlotMarks *marks = &slots[i].marks;

		out->locality_next_ms = Max(out->locality_next_ms, marks->next_ms);
		out->hot_next_tick = Max(out->hot_next_tick, marks->next_tick);
	}
	return true;
}

} // namespace locality_uuid

using namespace locality_uuid;

// locality_uuid_state() RETURNS text
extern "C" Datum
locality_uuid_state(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(state_kind_name()));
}
