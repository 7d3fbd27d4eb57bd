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

// Explain an id: its RFC 9562 version, variant and kind, then its reading as each format that
// could have made it (read_id in src/core/formats.hpp: which formats fit, and the id's time).
void explain(const uint8_t id[uuid_len], const ExplainOptions &opts, Output &out);

} // namespace locality_uuid
