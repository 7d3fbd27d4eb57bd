// Generator state shared by the cluster's backends: DSM registry (17+), preload (15, 16), or per backend.
#include "glue.hpp"

#include <cstring>

extern "C" {
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
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
 * A database set: keys of a database and its lease sequence (the database's OID, then the
 * sequence's, so that a lease replaced by a restore starts again; open addressing, insert only,
 * 0 = free), then a value beside each key.
 */
static constexpr uint32 database_slots = 1024;

// Return the size of a database set.
static Size
database_set_size()
{
	return 2 * database_slots * sizeof(pg_atomic_uint64);
}

static SharedArea runs = {"locality_uuid", runs_size, runs_init, NULL};

/*
 * The words of the leased runs, one per database and lease sequence, beside its key: the last
 * ordered version 7 word taken (uuidv7_ordered), the position of the continued sequential run's
 * next id (locality_uuid.sequential_seed = continue); 0 while no id was taken. No database's
 * sequences, settings or restores move another's word. A database that finds no room keeps a
 * word per backend, each starting at its lease: ordered per backend, up to a lease window ahead.
 */
static SharedArea run_words[] = {{"locality_uuid_v7_words", database_set_size, words_init, NULL},
								 {"locality_uuid_b_words", database_set_size, words_init, NULL}};
static_assert(seq_word_empty == 0, "shared words start at 0, which must be the empty run word");

/*
 * The value the next nextval of each lease sequence gives, as this server's last lease step left
 * it (in the values of a database set). A lease step that finds another value saw the sequence
 * set from outside (a restore's setval after data it copied): every later id of the database
 * starts above it (state_lease_moved).
 */
static SharedArea lease_values = {"locality_uuid_lease_values", database_set_size, words_init, NULL};

static SharedArea *const areas[] = {&runs, &run_words[RUN_V7_ORDERED], &run_words[RUN_CONTINUED], &lease_values};

static bool       attached = false;
static StateKind  kind = STATE_BACKEND;
static SlotMarks *my_slot = NULL;
static uint64_t   seq_own = seq_word_empty;       /* this backend's run word (with shared memory: a guess) */
static uint64_t   v7_own = 0;                     /* this backend's last v7 word (with shared memory: a guess) */
static uint64_t   continued_own = seq_word_empty; /* this backend's continued word (shared: a guess) */

/* A leased run's word of one database and lease sequence: a value of a database set. */
struct RunWord
{
	pg_atomic_uint64 value;
};

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
 * cluster's word by compare-and-swap when the state is shared, else this backend's own. step
 * says no by returning false, and then the word stays as it is.
 *
 * With shared state, *own_word is this backend's last sight of the cluster's word, and the first
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

// Return the floor a take from word applies (RunFloor): its value where forced or where the
// word is still empty, else none.
static uint64_t
floor_of(RunFloor floor, uint64_t word)
{
	return floor.force || word == 0 ? floor.value : 0;
}

/*
 * The shared continued word this backend saw taken: from then on the word is not empty and only
 * grows while the shared memory lives (a restart starts every backend afresh), so a position
 * without a forced floor is the word's value, one fetch-and-add, with no retry under contention.
 */
static RunWord *continued_taken = NULL;

SeqStatus
state_seq_continue(RunWord *word, uint64_t start, RunFloor floor, SeqTake *take)
{
	SeqStatus st = SeqStatus::ok;
	uint64_t  next;

	if (word != NULL && word == continued_taken && !floor.force)
		return seq_continue(pg_atomic_fetch_add_u64(&word->value, 1), start, 0, &next, take);
	advance(word != NULL ? &word->value : NULL, &continued_own,
			[&](uint64_t current, uint64_t *next_word) {
				st = seq_continue(current, start, floor_of(floor, current), next_word, take);
				return st == SeqStatus::ok;
			});
	continued_taken = st == SeqStatus::ok ? word : NULL;
	return st;
}

uint64_t
state_v7_take(RunWord *word, uint64_t clock_word, RunFloor floor)
{
	uint64_t taken = 0;

	advance(word != NULL ? &word->value : NULL, &v7_own,
			[&](uint64_t current, uint64_t *next) {
				taken = *next = v7_word_after(current, Max(clock_word, floor_of(floor, current)));
				return true;
			});
	return taken;
}

// Return the key of a database and its lease sequence in a database set (never 0: db is not).
static uint64
database_key(Oid db, Oid lease)
{
	return (static_cast<uint64>(db) << 32) | lease;
}

// Return the slot of key in a database set, putting it there if add; -1 if it is not there
// (without shared state, or a set without room).
static int
database_slot(const SharedArea &area, uint64 key, bool add)
{
	pg_atomic_uint64 *set = words(area);

	if (set == NULL)
		return -1;
	for (uint32 i = 0, h = static_cast<uint32>((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) % database_slots;
		 i < database_slots; i++, h = (h + 1) % database_slots)
	{
		uint64 entry = pg_atomic_read_u64(&set[h]);

		if (add && entry == 0 && pg_atomic_compare_exchange_u64(&set[h], &entry, key))
			return static_cast<int>(h);
		/* On failure entry holds the key another backend put there first: key, or go on. */
		if (entry == key)
			return static_cast<int>(h);
		if (entry == 0)
			return -1;
	}
	return -1;
}

RunWord *
state_run_word(LeasedRun run, Oid db, Oid lease)
{
	int slot = database_slot(run_words[run], database_key(db, lease), true);

	if (slot < 0)
		return NULL;
	return reinterpret_cast<RunWord *>(&words(run_words[run])[database_slots + slot]);
}

bool
state_lease_moved(Oid db, Oid seq, int64_t floor, int64_t next)
{
	pg_atomic_uint64 *values = words(lease_values);

	if (values == NULL)
		return false;

	int slot = database_slot(lease_values, database_key(db, seq), true);

	/* No room: every lease step counts as moved, which only lifts the ids. */
	if (slot < 0)
		return true;

	pg_atomic_uint64 *value = &values[database_slots + slot];
	uint64            expected = pg_atomic_exchange_u64(value, static_cast<uint64>(next));

	/* 0: the server's first lease step of this sequence, which takes its floor anyway. */
	return expected != 0 && expected != static_cast<uint64>(floor);
}

} // namespace locality_uuid

using namespace locality_uuid;

// locality_uuid_state() RETURNS text
extern "C" Datum
locality_uuid_state(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(state_kind_name()));
}
