// Shared glue: PostgreSQL headers, settings, per-backend identity, clock and random pool.
#pragma once

/*
 * Invariant for every file of the glue: when the glue raises an error (ereport longjmps),
 * no C++ object with a destructor is alive. The core has none (plain structs, no heap),
 * and the glue holds only PostgreSQL-allocated memory and plain locals.
 *
 * Core headers come first: they refuse to compile once postgres.h has been seen.
 */
#include "core/blocks.hpp"
#include "core/hot.hpp"
#include "core/locality_b.hpp"

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
}

namespace locality_uuid
{

/* Settings (locality_uuid.*), defined in _PG_init. */
enum ProcessFieldSource
{
	PROCESS_FIELD_BACKEND,
	PROCESS_FIELD_PID
};
extern int	setting_counter_mode;	/* CounterMode as int */
extern int	setting_node_id;		/* -1 = from the MAC */
extern int	setting_process_field;	/* ProcessFieldSource */
extern char *setting_machine_name;	/* "" = the host name up to its first dot */
extern bool machine_name_changed;	/* set when locality_uuid.machine_name is assigned */

// Return this backend's 16-bit process field, as locality_uuid.process_field says.
uint16_t	process_field();

// Return the 28-bit node: locality_uuid.node_id, or the low 28 bits of the MAC.
uint32_t	node_id();

// Return the wall clock as Unix milliseconds.
uint64_t	wall_ms();

// Fill buf from this backend's pool of strong random bytes; false if the source failed.
bool		random_bytes(uint8_t *buf, std::size_t len);

// Compute the MD5 digest of text; false on failure.
bool		md5(const char *text, std::size_t len, uint8_t digest[digest_len]);

// Convert a timestamptz to Unix milliseconds (floor), erroring on infinity.
int64_t		timestamptz_to_unix_ms(TimestampTz ts, const char *argname);

// Convert Unix milliseconds to a timestamptz.
TimestampTz unix_ms_to_timestamptz(int64_t ms);

// Raise 22003 unless lo <= v <= hi, with hint (a full sentence) if given.
void		check_range(const char *argname, int64_t v, int64_t lo, int64_t hi,
						const char *hint = NULL);

// Raise the error that a core Status stands for (Status::ok returns).
void		report_status(Status st);

// Return a new palloc'd uuid holding bytes.
pg_uuid_t  *make_uuid(const uint8_t bytes[uuid_len]);

}							// namespace locality_uuid
