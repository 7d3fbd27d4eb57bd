// Explaining an id: which formats it can be, and its fields in each, as aligned text or JSON Lines.
#pragma once

#include "core/blocks.hpp"
#include "text.hpp"

#include <string>
#include <vector>

namespace locality_uuid
{

/* The fields -o prints, named as the JSON keys: see field_names in explain.cpp. */
enum class Field
{
	id,
	version,
	variant,
	type,
	time,
	unix_us,
	formats,
	facade
};

struct ExplainOptions
{
	std::vector<Field> fields; /* -o: only these, tab-separated */
	bool               json = false;
	bool               all = false; /* every id read as a shard-key id too */
	int32_t            block_count = block_default;
	bool               time_blocks = false; /* block starts, for blocks of layout */
	TimeBlockLayout    layout = {};
	int64_t            as_of_us = 0;          /* block starts and the shard-key window are as of this */
	bool               line_buffered = false; /* each id written out when explained */
	const uint8_t     *facade = nullptr;      /* the façade the id was read from (--facade-key), if any */
};

// Read a comma-separated list of field names (any case); false with *bad the first unknown one.
bool parse_fields(const std::string &list, std::vector<Field> *fields, std::string *bad);

/*
 * An id is named by its RFC 9562 version, variant and kind first (rfc_type), then read as each
 * format that could have made it. Which formats an id can be, from its fixed bits:
 *
 *   locality uuid   version digit b (the format's only fixed part)
 *   block-wrapped   version 4 and RFC 9562's variant (also any random uuid)
 *   version 7       version 7 and RFC 9562's variant
 *   version 1, 6    version 1 or 6 and RFC 9562's variant (read as uuid_extract_timestamp does)
 *   shard-key       no fixed bits, so any id reads as one. Listed when none of the above and no
 *                   other RFC 9562 version claims the id (so whenever the process field is a
 *                   backend slot below 4096), or when its time field falls in the plausible
 *                   window: the hot_window_before seconds before as_of to hot_window_after
 *                   seconds after (a process field that is a pid can make any version and
 *                   variant digits); with all, for every id.
 *
 * The nil and max uuids are read as none (with all, as shard-key ids). An RFC 9562 id of version
 * 2, 3, 5 or 8 whose time field is outside the window is none of them; version 6 is read as
 * version 1 is.
 */
constexpr int64_t hot_window_before = INT64_C(315576000); /* ten years of 365.25 days */
constexpr int64_t hot_window_after = INT64_C(86400);      /* a day: clocks that run ahead */

void explain(const uint8_t id[uuid_len], const ExplainOptions &opts, Output &out);

} // namespace locality_uuid
