// The lease protocol of the ordered runs: leases on the extension's sequences, and the server's record of them.
#include "glue.hpp"

#include <cerrno>

extern "C" {
#include <fcntl.h>
#include <sys/stat.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "commands/sequence.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/lock.h"
}

namespace locality_uuid
{

/*
 * The server's record of the leases: for each database a file of the data directory,
 * locality_uuid/<database OID>, holding the end of the last lease of each run (an int64 at
 * offset run * 8; 0: none), written and flushed by the lease step that raises it, before any id
 * of that lease is made. A restore sets the database's sequences but never reaches this file,
 * which a restart or a crash keeps: so a lease sequence set back below the ids the database made
 * (an older dump) is lifted again at the database's next lease step, and the step writes the
 * lifted value to the sequence, which WAL carries to standbys. pg_basebackup copies the file; a
 * standby never writes it; pg_upgrade starts without it (the sequences carry the floor there).
 * One database's file is read for that database only.
 */
static constexpr const char *record_directory = "locality_uuid";

// Return the path of this database's record, relative to the data directory.
static char *
record_path()
{
	return psprintf("%s/%u", record_directory, MyDatabaseId);
}

// Return the end of the run's last lease in the server's record of this database (0: none).
static int64_t
lease_record(LeasedRun run)
{
	char   *path = record_path();
	int     fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
	int64_t until = 0;

	if (fd < 0)
	{
		if (errno != ENOENT)
			ereport(ERROR, (errcode_for_file_access(), errmsg("could not open file \"%s\": %m", path)));
		return 0;
	}

	ssize_t got = pg_pread(fd, &until, sizeof(until), static_cast<off_t>(run) * sizeof(until));

	if (got < 0)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not read file \"%s\": %m", path)));
	CloseTransientFile(fd);
	return got == sizeof(until) ? until : 0;
}

// Raise the run's lease end in the server's record of this database to until, on disk before it returns.
static void
raise_lease_record(LeasedRun run, int64_t until)
{
	char       *path = record_path();
	struct stat st;

	if (MakePGDirectory(record_directory) == 0)
		fsync_fname(".", true);
	else if (errno != EEXIST)
		ereport(ERROR,
				(errcode_for_file_access(), errmsg("could not create directory \"%s\": %m", record_directory)));

	int fd = OpenTransientFile(path, O_RDWR | O_CREAT | PG_BINARY);

	if (fd < 0 || fstat(fd, &st) != 0)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not open file \"%s\": %m", path)));
	if (pg_pwrite(fd, &until, sizeof(until), static_cast<off_t>(run) * sizeof(until)) != sizeof(until) ||
		pg_fsync(fd) != 0)
		ereport(ERROR, (errcode_for_file_access(), errmsg("could not write file \"%s\": %m", path)));
	CloseTransientFile(fd);
	/* A new file's name must outlive a crash too. */
	if (st.st_size == 0)
		fsync_fname(record_directory, true);
}

/*
 * The lock that orders the lease steps of one run in a database, whatever its sequence: an
 * advisory tag of the database and the run whose fourth field SQL's advisory locks never use (they
 * use 1 and 2), so the sequence and the record only grow. The lock is the transaction's, released
 * at the step's end or by an error's abort.
 */
static constexpr uint16 lease_lock_field = 7;

// Raise the lease's sequence and the server's record of its run to at least wanted and set until
// to the sequence's value after; return the floor (above every value either held before), and
// give whether the sequence was set from outside since this server's last lease step.
static int64_t
extend_lease(Oid seq, SequenceLease *lease, int64_t wanted, bool *moved)
{
	LOCKTAG tag;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, static_cast<uint32>(lease->run), 0, lease_lock_field);
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
	*moved = state_lease_moved(MyDatabaseId, seq, next, lease->until + 1);
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

	/* InvalidOid: an extension not yet updated to the version that made the sequence. */
	Oid seq = extension_sequence(fcinfo, lease->sequence, lease->caller, lease->since);

	if (!lease->word_found || seq != lease->word_sequence)
	{
		lease->word = state_run_word(lease->run, MyDatabaseId, seq);
		lease->word_sequence = seq;
		lease->word_found = true;
	}
	if (!OidIsValid(seq))
		return RunFloor{0, false};

	bool    moved = false;
	int64_t floor;

	if (lease_writable())
		floor = extend_lease(seq, lease, first_wanted, &moved);
	else if (!lease->floor_read)
		floor = read_lease(seq, lease->run);
	else
		return RunFloor{0, false};
	lease->floor_read = true;
	return RunFloor{static_cast<uint64_t>(floor), moved || lease->word == NULL};
}

RunFloor
lease_renew(FunctionCallInfo fcinfo, SequenceLease *lease, int64_t wanted)
{
	Oid  seq = extension_sequence(fcinfo, lease->sequence, lease->caller, lease->since);
	bool moved = false;

	if (!OidIsValid(seq))
		return RunFloor{0, false};

	int64_t floor = extend_lease(seq, lease, wanted, &moved);

	return RunFloor{static_cast<uint64_t>(floor), moved};
}

} // namespace locality_uuid
