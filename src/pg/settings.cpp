// Settings (locality_uuid.*): their variables and their definitions.
#include "glue.hpp"

extern "C" {
#include "utils/guc.h"
}

namespace locality_uuid
{

int   setting_counter_mode = static_cast<int>(CounterMode::variable);
int   setting_sequential_seed = static_cast<int>(SeedRule::continued);
int   setting_node_id = -1;
int   setting_process_field = PROCESS_FIELD_BACKEND;
char *setting_machine_name = NULL;
bool  machine_name_changed = true;

// The options of each enum setting, its default first.
static const struct config_enum_entry counter_mode_options[] = {
	{"variable", static_cast<int>(CounterMode::variable), false},
	{"sequential", static_cast<int>(CounterMode::sequential), false},
	{NULL, 0, false}};

/* Made of seed_rule_names by define_settings; the last entry stays empty. */
static struct config_enum_entry sequential_seed_options[lengthof(seed_rule_names) + 1];

static const struct config_enum_entry process_field_options[] = {
	{"backend", PROCESS_FIELD_BACKEND, false},
	{"pid", PROCESS_FIELD_PID, false},
	{NULL, 0, false}};

// Note that hot_uuid's machine hash must be recomputed (runs on SET, RESET and rollback too).
static void
assign_machine_name(const char *, void *)
{
	machine_name_changed = true;
}

// Define the enum setting name over options, whose first entry is its default.
static void
define_enum_setting(const char *name, const char *short_desc, const char *long_desc, int *variable,
					const struct config_enum_entry *options, GucContext context)
{
	DefineCustomEnumVariable(name, short_desc, long_desc, variable, options[0].val, options,
							 context, 0, NULL, NULL, NULL);
}

void
define_settings()
{
	for (size_t i = 0; i < lengthof(seed_rule_names); i++)
		sequential_seed_options[i] = {seed_rule_names[i].name, static_cast<int>(seed_rule_names[i].rule), false};
	define_enum_setting("locality_uuid.counter_mode",
						"Counter mode of locality_uuid(): variable or sequential.",
						"variable spreads consecutive ids over the key space; sequential "
						"clusters them, starting from a seed shared by every process in the "
						"same 10-minute UTC bucket.",
						&setting_counter_mode, counter_mode_options, PGC_USERSET);
	define_enum_setting("locality_uuid.sequential_seed",
						"Where each 10-minute bucket's sequential run starts: continue or bucket.",
						"continue goes on from the cluster's last sequential id, so new ids stay at "
						"the right edge of an index across buckets and restarts, as the reference "
						"libraries do within a process; bucket starts each bucket at a hash of its time.",
						&setting_sequential_seed, sequential_seed_options, PGC_USERSET);
	DefineCustomIntVariable("locality_uuid.node_id",
							"28-bit node field of locality uuids; -1 takes the low 28 bits of the MAC.",
							"Set a distinct value per cluster where clusters share a MAC: several "
							"clusters on one host, cloned virtual machines, containers.",
							&setting_node_id,
							-1, -1, static_cast<int>(node_max),
							PGC_SUSET, 0, NULL, NULL, NULL);
	define_enum_setting("locality_uuid.process_field",
						"Source of the 16-bit process field: backend (slot number) or pid.",
						"backend is unique among the cluster's live processes; pid (OS pid "
						"mod 65536) matches the reference libraries but repeats when pid_max "
						"exceeds 65536.",
						&setting_process_field, process_field_options, PGC_SUSET);
	DefineCustomStringVariable("locality_uuid.machine_name",
							   "Name whose MD5 gives the machine hash of hot_uuid(); empty takes the host name up to its first dot.",
							   "Set a distinct value per cluster where clusters share a host name: several "
							   "clusters on one host, containers with the same host name.",
							   &setting_machine_name,
							   "",
							   PGC_SUSET, 0, NULL, assign_machine_name, NULL);
	define_facade_key_setting();
	MarkGUCPrefixReserved("locality_uuid");
}

} // namespace locality_uuid
