// The module: its magic block and _PG_init, which defines the settings and asks for shared memory.
#include "glue.hpp"

extern "C" {
PG_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);
}

using namespace locality_uuid;

/*
 * Settings, the planner hook of the time spellings (made.cpp), and on 15 and 16 under
 * shared_preload_libraries the request for shared memory;
 * per-backend state (counters, random pool, MAC) is made lazily on first use, since with
 * shared_preload_libraries this runs in the postmaster.
 */
void
_PG_init(void)
{
	define_settings();
	state_preload();
	made_init();
}
