// The lease protocol of the ordered runs: leases on the extension's sequences, and the server's record of them.
#include "glue.hpp"

#include <cerrno>
#include <cstring>

extern "C" {
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_database.h"
#include "commands/sequence.h"
#include "common/relpath.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/lock.h"
#include "utils/builtins.h"
#include "utils/syscache.h"
}

namespace locality_uuid
{

/*
 * The server's record of the leases: for each database a file of the data directory,
 * locality_uuid/<database OID>, holding the end of the last lease of each run, written and
 * flushed by the lease step that raises it, before any id of that lease is made. A restore sets
 * the database's sequences but never reaches this file, which a restart or a crash keeps: so a
 * lease sequence set back below the ids the database made (an older dump) is lifted again at the
 * database's next lease step, and the step writes the lifted value to the sequence, which WAL
 * carries to standbys. The file names the database it belongs to (database_incarnation): a
 * database that later gets the OID of a dropped one, a copy (pg_basebackup, CREATE DATABASE ...
 * TEMPLATE) or a move to another tablespace starts a record of its own at its first lease step,
 * and no database reads another's. pg_upgrade starts without any; the sequences carry the floor
 * there.
 */
struct LeaseRecord
{
	uint64_t incarnation; /* database_incarnation() of the database it belongs to */
	int64_t  until[2];    /* by LeasedRun; 0: none */
};

static constexpr const char *record_directory = "locality_uuid";

// Return the path of this database's record, relative to the data directory.
static char *
record_path()
{
	return psprintf("%s/%u", record_directory, MyDatabaseId);
}

// Return the incarnation of database db, whose directory is in tablespace spc; 0 where the
// directory or the catalog row is gone (missing_ok; else an error). Reads, never writes.
static uint64_t
incarnation_at(Oid db, Oid spc, bool missing_ok)
{
	char        *path = GetDatabasePath(db, spc);
	struct statx st;

	/* The system call itself: a library that fakes the clock (libfaketime) fakes statx's times too. */
	if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_INO | STATX_BTIME, &st) != 0)
	{
		if (missing_ok)
			return 0;
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not stat directory \"%s\": %m", path)));
	}
	/*
	 * Where the file system keeps no birth time, an inode number can come back for a later
	 * database: the transaction that wrote the database's catalog row tells them apart (an ALTER
	 * DATABASE that writes the row starts a new record there too).
	 */
	uint64_t born;

	if (st.stx_mask & STATX_BTIME)
		born = static_cast<uint64_t>(st.stx_btime.tv_sec) * 1000000000 + st.stx_btime.tv_nsec;
	else
	{
		HeapTuple row = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(db));

		if (!HeapTupleIsValid(row) && missing_ok)
			return 0;
		if (!HeapTupleIsValid(row))
			elog(ERROR, "cache lookup failed for database %u", db);
		born = HeapTupleHeaderGetRawXmin(row->t_data);
		ReleaseSysCache(row);
	}
	return ((st.stx_ino * UINT64_C(0x9E3779B97F4A7C15)) ^ (born * UINT64_C(0xC2B2AE3D27D4EB4F))) | 1;
}

uint64_t
database_incarnation()
{
	static uint64_t incarnation = 0;

	if (incarnation == 0)
		incarnation = incarnation_at(MyDatabaseId, MyDatabaseTableSpace, false);
	return incarnation;
}

uint64_t
database_incarnation_of(Oid db)
{
	if (db == MyDatabaseId)
		return database_incarnation();

	HeapTuple row = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(db));

	if (!HeapTupleIsValid(row))
		return 0;

	Oid spc = reinterpret_cast<Form_pg_database>(GETSTRUCT(row))->dattablespace;

	ReleaseSysCache(row);
	return incarnation_at(db, spc, true);
}

// Read this database's record: true if it is there and belongs to this database; else record
// holds no lease. A damaged file is an error.
static bool
read_record(LeaseRecord *record)
{
	char   *path = record_path();
	int     fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
	ssize_t got = 0;

	struct stat st;

	if (fd >= 0)
	{
		got = fstat(fd, &st) != 0 ? -1 : st.st_size != sizeof(*record) ? st.st_size
																	   : pg_pread(fd, record, sizeof(*record), 0);
		CloseTransientFile(fd);
	}
	if (fd < 0 ? errno != ENOENT : got < 0)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not read file \"%s\": %m", path)));
	if (got != 0 && got != sizeof(*record))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("the record of the leases \"%s\" has %zd bytes, not %zu", path, got, sizeof(*record)),
				 errhint("With the server stopped, remove the file; ids made after a restore into this "
						 "database can then sort below older ones until its lease sequences are set.")));
	/* Empty: made, but a crash came before its first write was flushed (no id of it was made). */
	if (got == sizeof(*record) && record->incarnation == database_incarnation())
		return true;
	*record = LeaseRecord{database_incarnation(), {0, 0}};
	return false;
}

// Return the end of the run's last lease in this database's record (0: none).
static int64_t
lease_record(LeasedRun run)
{
	LeaseRecord record;

	return read_record(&record) ? record.until[run] : 0;
}

int64_t
lease_record_end(LeasedRun run)
{
	LeaseRecord record;
	char        bytes[sizeof(record) + 1];
	int         fd = OpenTransientFile(record_path(), O_RDONLY | PG_BINARY);

	if (fd < 0)
		return 0;

	ssize_t got = pg_pread(fd, bytes, sizeof(bytes), 0);

	CloseTransientFile(fd);
	if (got != sizeof(record))
		return 0;
	memcpy(&record, bytes, sizeof(record));
	return record.incarnation == database_incarnation() ? record.until[run] : 0;
}

// Raise the run's lease end in this database's record to until, on disk before it returns
// (under the lock of the database's lease steps: the file is written whole).
static void
raise_lease_record(LeasedRun run, int64_t until)
{
	char       *path = record_path();
	LeaseRecord record;
	bool        existed = read_record(&record);

	record.until[run] = until;
	if (MakePGDirectory(record_directory) == 0)
		fsync_fname(".", true);
	else if (errno != EEXIST)
		ereport(ERROR,
				(errcode_for_file_access(), errmsg("could not create directory \"%s\": %m", record_directory)));

	int fd = OpenTransientFile(path, O_RDWR | O_CREAT | PG_BINARY);

	if (fd < 0)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not open file \"%s\": %m", path)));
	if (pg_pwrite(fd, &record, sizeof(record), 0) != sizeof(record) || pg_fsync(fd) != 0)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not write file \"%s\": %m", path)));
	CloseTransientFile(fd);
	/* A new file's name must outlive a crash too. */
	if (!existed)
		fsync_fname(record_directory, true);
}

// Raise the lease's sequence and the server's record of its run to at least wanted and set until
// to the sequence's value after; return the floor (above every value either held before), and
// give whether the sequence was set from outside since this server's last lease step. The steps
// of a database take a lock of their own, so the sequences and the record only grow; it is the
// transaction's, released at the step's end or by an error's abort.
static int64_t
extend_lease(Oid seq, SequenceLease *lease, int64_t wanted, bool *moved)
{
	LOCKTAG tag;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, 0, 0, lease_lock_field);
	(void) LockAcquire(&tag, ExclusiveLock, false, false);

	int64_t next = nextval_internal(seq, false);
	int64_t record = lease_record(lease->run);
	int64_t floor = record > 0 ? Max(next, record + 1) : next;

	lease->until = Max(floor, wanted);
	if (lease->until > next)
		set_extension_sequence(seq, lease->until);

	/* A lease that hands out nothing above its floor needs no record beyond the sequence's value. */
	int64_t covered = lease->until > floor ? lease->until : next - 1;

	if (covered > record)
		raise_lease_record(lease->run, covered);
	*moved = state_lease_moved(lease->shared, seq, next, lease->until + 1);
	LockRelease(&tag, ExclusiveLock, false);
	return floor;
}

// Return the floor extend_lease would give, without advancing the sequence: where a transaction
// cannot (read-only, a standby, a parallel operation).
static int64_t
read_lease(Oid seq, LeasedRun run)
{
	int64_t next = next_sequence_value(seq);
	int64_t record = lease_record(run);

	return record > 0 ? Max(next, record + 1) : next;
}

bool
lease_writable()
{
	return !(RecoveryInProgress() || XactReadOnly || IsInParallelMode());
}

RunFloor
lease_begin(FunctionCallInfo fcinfo, SequenceLease *lease, int64_t first_wanted)
{
	/* A lease of a sequence dropped or replaced since (a restore) is given up before the next id. */
	if (sequences_replaced_since(&lease->generation))
	{
		lease->until = 0;
		lease->floor_read = false;
	}
	if (lease->until != 0)
		return RunFloor{0, false};
	if (!lease->shared_found)
	{
		lease->shared = state_run(lease->run, MyDatabaseId, database_incarnation());
		lease->shared_found = true;
	}
	/* InvalidOid: an extension not yet updated to the version that made the sequence. */
	lease->seq = extension_sequence(fcinfo, lease->sequence, lease->caller, lease->since);
	if (!OidIsValid(lease->seq))
		return RunFloor{0, false};

	bool    moved = false;
	int64_t floor;

	if (lease_writable())
	{
		floor = extend_lease(lease->seq, lease, first_wanted, &moved);
		state_fold_calls();
	}
	else if (!lease->floor_read)
		floor = read_lease(lease->seq, lease->run);
	else
		return RunFloor{0, false};
	lease->floor_read = true;
	return RunFloor{static_cast<uint64_t>(floor), moved || !state_floored(lease->shared, lease->seq)};
}

void
lease_floored(SequenceLease *lease)
{
	if (OidIsValid(lease->seq))
		state_mark_floored(lease->shared, lease->seq);
}

RunFloor
lease_renew(FunctionCallInfo fcinfo, SequenceLease *lease, int64_t wanted)
{
	if (!OidIsValid(lease->seq))
		return RunFloor{0, false};

	/* Looked up again at every step: a sequence taken out of the extension since is 55000 here. */
	bool moved = false;
	Oid  seq = extension_sequence(fcinfo, lease->sequence, lease->caller, lease->since, true);

	lease->seq = seq;
	if (!OidIsValid(seq))
		return RunFloor{0, false};

	int64_t floor = extend_lease(seq, lease, wanted, &moved);

	state_fold_calls();
	return RunFloor{static_cast<uint64_t>(floor), moved};
}

} // namespace locality_uuid
