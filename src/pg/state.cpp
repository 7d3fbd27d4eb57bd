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
 * The shared state: the sequential run word, then one cache line of marks per PGPROC slot.
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
static const char     state_name[] = "locality_uuid";

static SharedHeader *shared = NULL;
static bool          attached = false;
static StateKind     kind = STATE_BACKEND;
static SlotMarks    *my_slot = NULL;

/*
 * The ordered version 7 word (uuidv7_ordered): the last word taken by any backend of the
 * cluster. It has a shared memory area of its own, so that a server still holding the area
 * of an earlier build is never asked for a different size.
 */
static const char        v7_state_name[] = "locality_uuid_v7";
static pg_atomic_uint64 *v7_shared = NULL;
static uint64_t          v7_own = 0;               /* this backend's last word (with shared memory: a guess) */
static uint64_t          seq_own = seq_word_empty; /* this backend's run word (with shared memory: a guess) */

/*
 * The databases whose first uuidv7_ordered() id since the server started was taken at or above
 * the database's lease (a set of keys: the database's OID, then its lease sequence's, so that a
 * lease replaced by a restore starts again; open addressing, insert only, 0 = free). A database
 * that finds no room is never counted as started: then the first id of each backend starts at
 * its lease, which keeps the order and may run ids up to a lease window ahead of the clock.
 */
static constexpr uint32  v7_database_slots = 1024;
static constexpr uint32  database_set_words = 2 * v7_database_slots; /* keys, then a value per key */
static const char        v7_databases_name[] = "locality_uuid_v7_leases";
static pg_atomic_uint64 *v7_databases = NULL;

/*
 * The continued sequential run (locality_uuid.sequential_seed = continue): the position of its
 * next id, and the databases whose first position since the server started was taken at or
 * above the database's lease, as for uuidv7_ordered. Areas of their own, for the same reason.
 */
static const char b_state_name[] = "locality_uuid_b_continue";
static_assert(seq_word_empty == 0, "shared words start at 0, which must be the empty run word");
static pg_atomic_uint64 *b_shared = NULL;
static uint64_t          b_own = seq_word_empty; /* this backend's word (with shared memory: a guess) */
static const char        b_databases_name[] = "locality_uuid_b_leases";
static pg_atomic_uint64 *b_databases = NULL;

/*
 * The value the next nextval of each lease sequence gives, as this server's last lease step left
 * it (a database set keyed as above, its values beside the keys). A lease step that finds another
 * value saw the sequence set from outside (a restore's setval after data it copied): every later
 * id of the database starts above it (state_lease_moved).
 */
static const char        lease_values_name[] = "locality_uuid_lease_values";
static pg_atomic_uint64 *lease_values = NULL;

// Return the size of the state for nslots slots.
static Size
state_size(uint32 nslots)
{
	return add_size(header_size, mul_size(nslots, sizeof(SharedSlot)));
}

// Initialise a new state for nslots slots.
static void
state_init(SharedHeader *h, uint32 nslots)
{
	memset(static_cast<void *>(h), 0, state_size(nslots));
	pg_atomic_init_u64(&h->seq, seq_word_empty);
	h->nslots = nslots;
}

// Return the marks of slot i.
static SlotMarks *
slot_at(SharedHeader *h, int i)
{
	SharedSlot *slots = reinterpret_cast<SharedSlot *>(reinterpret_cast<char *>(h) + header_size);

	return &slots[i].marks;
}

#if PG_VERSION_NUM >= 170000

/* Every PGPROC of the cluster: known in any backend once shared memory is up. */
static uint32
slot_count()
{
	return ProcGlobal->allProcCount;
}

#if PG_VERSION_NUM >= 190000
static void
init_dsm(void *ptr, void *)
#else
static void
init_dsm(void *ptr)
#endif
{
	state_init(static_cast<SharedHeader *>(ptr), slot_count());
}

#if PG_VERSION_NUM >= 190000
static void
init_word_dsm(void *ptr, void *)
#else
static void
init_word_dsm(void *ptr)
#endif
{
	pg_atomic_init_u64(static_cast<pg_atomic_uint64 *>(ptr), 0);
}

#if PG_VERSION_NUM >= 190000
static void
init_database_set_dsm(void *ptr, void *)
#else
static void
init_database_set_dsm(void *ptr)
#endif
{
	pg_atomic_uint64 *set = static_cast<pg_atomic_uint64 *>(ptr);

	for (uint32 i = 0; i < database_set_words; i++)
		pg_atomic_init_u64(&set[i], 0);
}

// Find or create the named DSM segment of size bytes, which init sets up when it is created.
static void *
named_segment(const char *name, size_t size, decltype(&init_word_dsm) init)
{
	bool found;

	return GetNamedDSMSegment(name, size, init, &found
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
	RequestAddinShmemSpace(state_size(slot_count()));
	RequestAddinShmemSpace(2 * sizeof(pg_atomic_uint64));                      /* v7, b */
	RequestAddinShmemSpace(3 * database_set_words * sizeof(pg_atomic_uint64)); /* database sets */
}

// Create or find a word in shared memory, 0 when created (caller holds AddinShmemInitLock).
static pg_atomic_uint64 *
shmem_word(const char *name)
{
	bool              found;
	pg_atomic_uint64 *word = static_cast<pg_atomic_uint64 *>(ShmemInitStruct(name, sizeof(pg_atomic_uint64), &found));

	if (!found)
		pg_atomic_init_u64(word, 0);
	return word;
}

// Create or find an empty set of database OIDs in shared memory (caller holds AddinShmemInitLock).
static pg_atomic_uint64 *
shmem_database_set(const char *name)
{
	bool              found;
	pg_atomic_uint64 *set = static_cast<pg_atomic_uint64 *>(
		ShmemInitStruct(name, database_set_words * sizeof(pg_atomic_uint64), &found));

	if (!found)
	{
		for (uint32 i = 0; i < database_set_words; i++)
			pg_atomic_init_u64(&set[i], 0);
	}
	return set;
}

// Create or find the state in shared memory (postmaster start and crash restarts).
static void
startup_shmem()
{
	bool found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared = static_cast<SharedHeader *>(ShmemInitStruct(state_name, state_size(slot_count()), &found));
	if (!found)
		state_init(shared, slot_count());
	v7_shared = shmem_word(v7_state_name);
	v7_databases = shmem_database_set(v7_databases_name);
	b_shared = shmem_word(b_state_name);
	b_databases = shmem_database_set(b_databases_name);
	lease_values = shmem_database_set(lease_values_name);
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
#if PG_VERSION_NUM >= 170000
	shared = static_cast<SharedHeader *>(named_segment(state_name, state_size(slot_count()), init_dsm));
	v7_shared = static_cast<pg_atomic_uint64 *>(named_segment(v7_state_name, sizeof(pg_atomic_uint64), init_word_dsm));
	v7_databases = static_cast<pg_atomic_uint64 *>(
		named_segment(v7_databases_name, database_set_words * sizeof(pg_atomic_uint64), init_database_set_dsm));
	b_shared = static_cast<pg_atomic_uint64 *>(named_segment(b_state_name, sizeof(pg_atomic_uint64), init_word_dsm));
	b_databases = static_cast<pg_atomic_uint64 *>(
		named_segment(b_databases_name, database_set_words * sizeof(pg_atomic_uint64), init_database_set_dsm));
	lease_values = static_cast<pg_atomic_uint64 *>(
		named_segment(lease_values_name, database_set_words * sizeof(pg_atomic_uint64), init_database_set_dsm));
	kind = STATE_DSM_REGISTRY;
#else
	if (shared != NULL)
		kind = STATE_PRELOAD;
#endif
	if (shared != NULL)
	{
		int slot = slot_number();

		/* A process without a slot, or outside the slots counted at startup, keeps its own marks. */
		if (slot >= 0 && static_cast<uint32>(slot) < shared->nslots)
			my_slot = slot_at(shared, slot);
	}
	attached = true;
}

StateKind
state_kind()
{
	if (!attached)
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
	if (!attached)
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
	SeqStatus st = SeqStatus::ok;

	if (!attached)
		attach();
	advance(shared != NULL ? &shared->seq : NULL, &seq_own,
			[&](uint64_t word, uint64_t *next) {
				st = seq_advance(word, bucket, next, take);
				return st == SeqStatus::ok;
			});
	return st;
}

/*
 * Whether this backend saw the continued run's word taken: from then on the word is not empty
 * and only grows while the shared memory lives (a restart starts every backend afresh), so a
 * position without a floor is the word's value, one fetch-and-add, with no retry under
 * contention.
 */
static bool b_taken = false;

SeqStatus
state_seq_continue(uint64_t start, uint64_t floor, SeqTake *take)
{
	SeqStatus st = SeqStatus::ok;
	uint64_t  next;

	if (!attached)
		attach();
	if (b_shared != NULL && b_taken && floor == 0)
		return seq_continue(pg_atomic_fetch_add_u64(b_shared, 1), start, 0, &next, take);
	advance(b_shared, &b_own,
			[&](uint64_t word, uint64_t *next_word) {
				st = seq_continue(word, start, floor, next_word, take);
				return st == SeqStatus::ok;
			});
	b_taken = st == SeqStatus::ok;
	return st;
}

// Return the key of a database and its lease sequence in a database set (never 0: db is not).
static uint64
database_key(Oid db, Oid lease)
{
	return (static_cast<uint64>(db) << 32) | lease;
}

// Return the first slot of a database set to probe for key.
static uint32
database_home(uint64 key)
{
	return static_cast<uint32>((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) % v7_database_slots;
}

// True if key is in the database set (none: false).
static bool
database_set_has(pg_atomic_uint64 *set, uint64 key)
{
	if (set == NULL)
		return false;
	for (uint32 i = 0, h = database_home(key); i < v7_database_slots; i++, h = (h + 1) % v7_database_slots)
	{
		uint64 entry = pg_atomic_read_u64(&set[h]);

		if (entry == key)
			return true;
		if (entry == 0)
			return false;
	}
	return false;
}

// Put key in the database set, if there is one and it has room; return its slot (-1: none).
static int
database_set_add(pg_atomic_uint64 *set, uint64 key)
{
	if (set == NULL)
		return -1;
	for (uint32 i = 0, h = database_home(key); i < v7_database_slots; i++, h = (h + 1) % v7_database_slots)
	{
		uint64 entry = pg_atomic_read_u64(&set[h]);

		/* On failure entry holds the key another backend put there first: key, or go on. */
		if ((entry == 0 && pg_atomic_compare_exchange_u64(&set[h], &entry, key)) || entry == key)
			return static_cast<int>(h);
	}
	return -1;
}

bool
state_v7_database_started(Oid db, Oid lease)
{
	if (!attached)
		attach();
	return database_set_has(v7_databases, database_key(db, lease));
}

void
state_v7_mark_database(Oid db, Oid lease)
{
	if (!attached)
		attach();
	(void) database_set_add(v7_databases, database_key(db, lease));
}

bool
state_b_database_started(Oid db, Oid lease)
{
	if (!attached)
		attach();
	return database_set_has(b_databases, database_key(db, lease));
}

void
state_b_mark_database(Oid db, Oid lease)
{
	if (!attached)
		attach();
	(void) database_set_add(b_databases, database_key(db, lease));
}

bool
state_lease_moved(Oid db, Oid seq, int64_t floor, int64_t next)
{
	if (!attached)
		attach();
	if (lease_values == NULL)
		return false;

	int slot = database_set_add(lease_values, database_key(db, seq));

	/* No room: every lease step counts as moved, which only lifts the ids. */
	if (slot < 0)
		return true;

	pg_atomic_uint64 *value = &lease_values[v7_database_slots + slot];
	uint64            expected = pg_atomic_exchange_u64(value, static_cast<uint64>(next));

	/* 0: the server's first lease step of this sequence, which takes its floor anyway. */
	return expected != 0 && expected != static_cast<uint64>(floor);
}

uint64_t
state_v7_take(uint64_t clock_word)
{
	uint64_t taken = 0;

	if (!attached)
		attach();
	advance(v7_shared, &v7_own,
			[&](uint64_t word, uint64_t *next) {
				taken = *next = v7_word_after(word, clock_word);
				return true;
			});
	return taken;
}

} // namespace locality_uuid

using namespace locality_uuid;

// locality_uuid_state() RETURNS text
extern "C" Datum
locality_uuid_state(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(state_kind_name()));
}
