// locality_uuid_identity(): this server's identity fields and where each came from, as one row.
#include "glue.hpp"

#include <cstring>

extern "C" {
#include "access/htup_details.h"
#include "access/xlog.h"
#include "access/xlogrecovery.h"
#include "catalog/pg_authid.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc_tables.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

PG_FUNCTION_INFO_V1(locality_uuid_identity);
}

using namespace locality_uuid;

/* Columns of the result, in the order of the SQL declaration. */
enum IdentityColumn
{
	COL_NODE,
	COL_NODE_SOURCE,
	COL_NODE_FILE,
	COL_NODE_LINE,
	COL_MAC,
	COL_MAC_INTERFACE,
	COL_MACHINE_HASH,
	COL_MACHINE_NAME,
	COL_MACHINE_SOURCE,
	COL_MACHINE_FILE,
	COL_MACHINE_LINE,
	COL_PROCESS_FIELD,
	COL_SYSTEM_IDENTIFIER,
	COL_TIMELINE,
	COL_IN_RECOVERY,
	COL_STATE,
	COL_COUNT
};

// Find a setting's record in PostgreSQL's table of settings; NULL if it is not there.
static struct config_generic *
find_setting(const char *name)
{
#if PG_VERSION_NUM >= 160000
	int                     count;
	struct config_generic **vars = get_guc_variables(&count);
#else
	struct config_generic **vars = get_guc_variables();
	int                     count = GetNumConfigOptions();
#endif

	for (int i = 0; i < count; i++)
		if (strcmp(vars[i]->name, name) == 0)
			return vars[i];
	return NULL;
}

/*
 * Fill the source, file and line columns of a setting as pg_settings shows them: the source
 * to everyone, the file and line only for a value from a file and to roles with the
 * privileges of pg_read_all_settings.
 */
static void
setting_source(const char *name, bool may_read, Datum *values, bool *nulls,
			   int source_col, int file_col, int line_col)
{
	struct config_generic *var = find_setting(name);

	nulls[file_col] = nulls[line_col] = true;
	if (var == NULL)
	{
		nulls[source_col] = true;
		return;
	}
	values[source_col] = CStringGetTextDatum(GucSource_Names[var->source]);
	nulls[source_col] = false;
	if (var->source == PGC_S_FILE && var->sourcefile != NULL && may_read)
	{
		values[file_col] = CStringGetTextDatum(var->sourcefile);
		values[line_col] = Int32GetDatum(var->sourceline);
		nulls[file_col] = nulls[line_col] = false;
	}
}

// Set column col to text, or to NULL when text is NULL.
static void
text_or_null(Datum *values, bool *nulls, int col, const char *text)
{
	nulls[col] = text == NULL;
	if (text != NULL)
		values[col] = CStringGetTextDatum(text);
}

// locality_uuid_identity(OUT node integer, OUT node_source text, OUT node_file text, OUT node_line integer, OUT mac text, OUT mac_interface text, OUT machine_hash bytea, OUT machine_name text, OUT machine_source text, OUT machine_file text, OUT machine_line integer, OUT process_field text, OUT system_identifier bigint, OUT timeline bigint, OUT in_recovery boolean, OUT state text) RETURNS record
extern "C" Datum
locality_uuid_identity(PG_FUNCTION_ARGS)
{
	TupleDesc tupdesc = result_tupdesc(fcinfo);
	Datum     values[COL_COUNT];
	bool      nulls[COL_COUNT];
	bool      may_read = has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_SETTINGS);

	memset(nulls, 0, sizeof(nulls));

	/* Node field: the setting when it is 0 or more, else the MAC. */
	uint8_t     mac[6];
	const char *ifname;
	bool        have_mac = node_mac(mac, &ifname);

	values[COL_NODE] = Int32GetDatum(static_cast<int32>(node_id()));
	setting_source("locality_uuid.node_id", may_read, values, nulls,
				   COL_NODE_SOURCE, COL_NODE_FILE, COL_NODE_LINE);
	if (setting_node_id < 0)
		values[COL_NODE_SOURCE] = CStringGetTextDatum(have_mac ? "mac" : "no mac");
	nulls[COL_NODE_SOURCE] = false;
	if (have_mac && may_read)
		values[COL_MAC] = CStringGetTextDatum(psprintf("%02x:%02x:%02x:%02x:%02x:%02x",
													   mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]));
	nulls[COL_MAC] = !(have_mac && may_read);
	text_or_null(values, nulls, COL_MAC_INTERFACE, may_read ? ifname : NULL);

	/* Machine hash of hot_uuid: the setting when it is not empty, else the host name. */
	bytea      *hash = static_cast<bytea *>(palloc(VARHDRSZ + hot_machine_len));
	const char *host;

	SET_VARSIZE(hash, VARHDRSZ + hot_machine_len);
	machine_hash(reinterpret_cast<uint8_t *>(VARDATA(hash)), &host);
	values[COL_MACHINE_HASH] = PointerGetDatum(hash);
	setting_source("locality_uuid.machine_name", may_read, values, nulls,
				   COL_MACHINE_SOURCE, COL_MACHINE_FILE, COL_MACHINE_LINE);
	if (host != NULL)
	{
		text_or_null(values, nulls, COL_MACHINE_NAME, may_read ? host : NULL);
		values[COL_MACHINE_SOURCE] = CStringGetTextDatum("host name");
		nulls[COL_MACHINE_SOURCE] = false;
	}
	else
		values[COL_MACHINE_NAME] = CStringGetTextDatum(setting_machine_name);

	values[COL_PROCESS_FIELD] =
		CStringGetTextDatum(setting_process_field == PROCESS_FIELD_PID ? "pid" : "backend");

	/* The cluster: made by initdb (a copy keeps it), and its timeline (a promotion moves it). */
	TimeLineID timeline;
	bool       in_recovery = RecoveryInProgress();

	if (in_recovery)
		(void) GetXLogReplayRecPtr(&timeline);
	else
		timeline = GetWALInsertionTimeLine();
	values[COL_SYSTEM_IDENTIFIER] = Int64GetDatum(static_cast<int64>(GetSystemIdentifier()));
	values[COL_TIMELINE] = Int64GetDatum(static_cast<int64>(timeline));
	values[COL_IN_RECOVERY] = BoolGetDatum(in_recovery);
	values[COL_STATE] = CStringGetTextDatum(state_kind_name());

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
