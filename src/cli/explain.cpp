// Explaining an id: which formats it can be, and its fields in each, as aligned text or JSON Lines.
#include "explain.hpp"

#include "core/formats.hpp"
#include "core/hot.hpp"
#include "core/locality_b.hpp"
#include "core/v7.hpp"

#include <strings.h>
#include <cstring>

namespace locality_uuid
{

namespace
{

/* The earliest and latest block starts shown: years 1 to 9999. */
constexpr int64_t shown_min_us = INT64_C(-62135596800) * usecs_per_sec;
constexpr int64_t shown_max_us = (clock_seconds_max + 1) * usecs_per_sec - 1;

// Start a text line for a field: its label, padded so that the values line up.
template<std::size_t N>
void
label(Output &out, const char (&name)[N])
{
	static_assert(N - 1 < 12, "labels are narrower than the column");
	static const char spaces[] = "            ";

	out.put("    ");
	out.put(name);
	out.put(spaces, 12 - (N - 1));
}

// Write a JSON key, the comma before it included.
void
key(Output &out, const char *name)
{
	out.put(",\"");
	out.put_str(name);
	out.put("\":");
}

// Write ,"name":number in JSON.
void
json_decimal(Output &out, const char *name, uint64_t v)
{
	key(out, name);
	out.put_decimal(v);
}

// Write ,"name":"hex digits" and ,"name":"ISO time" in JSON.
void
json_hex(Output &out, const char *name, uint64_t v, int digits)
{
	key(out, name);
	out.put('"');
	out.put_hex(v, digits);
	out.put('"');
}

void
json_time(Output &out, const char *name, int64_t unix_us, int frac_digits)
{
	key(out, name);
	out.put('"');
	out.put_time(unix_us, frac_digits, true);
	out.put('"');
}

// Write a line of the text form that holds a number.
template<std::size_t N>
void
text_decimal(Output &out, const char (&name)[N], uint64_t v)
{
	label(out, name);
	out.put_decimal(v);
	out.put('\n');
}

// Write the "time" line of the text form.
void
text_time(Output &out, int64_t unix_us, int frac_digits)
{
	label(out, "time");
	out.put_time(unix_us, frac_digits, false);
	out.put('\n');
}

// Write a length in microseconds in the largest unit that keeps it whole: "15 ms".
void
put_length(Output &out, int64_t us)
{
	if (us % usecs_per_sec == 0)
	{
		out.put_signed(us / usecs_per_sec);
		out.put(" s");
	}
	else if (us % 1000 == 0)
	{
		out.put_signed(us / 1000);
		out.put(" ms");
	}
	else
	{
		out.put_signed(us);
		out.put(" us");
	}
}

// Explain a locality uuid: time, node, process, and the counter read in both modes.
void
locality(const IdReading &r, const ExplainOptions &opts, Output &out)
{
	const LocalityFields &f = r.locality;
	int64_t               us = static_cast<int64_t>(f.time_ms) * 1000;

	if (opts.json)
	{
		out.put("{\"format\":\"locality\"");
		json_time(out, "time", us, 3);
		json_decimal(out, "unix_ms", f.time_ms);
		json_decimal(out, "node", f.node);
		json_hex(out, "mac", f.node, 7);
		json_decimal(out, "process", f.process);
		json_decimal(out, "counter_variable", f.counter);
		json_decimal(out, "counter_sequential", r.locality_sequential_counter);
		out.put('}');
		return;
	}
	out.put("  locality uuid (version b)\n");
	text_time(out, us, 3);
	label(out, "node");
	out.put_hex(f.node, 7);
	out.put(" (");
	out.put_decimal(f.node);
	out.put(")\n");
	text_decimal(out, "process", f.process);
	label(out, "counter");
	out.put_decimal(f.counter);
	out.put(" if made in variable mode, ");
	out.put_decimal(r.locality_sequential_counter);
	out.put(" if sequential\n");
}

// Write a block-wrapped reading in JSON: the block, and with --time-block when it began (shown: in years 1 to 9999).
void
block_json(uint64_t number, bool shown, int64_t start, const ExplainOptions &opts, Output &out)
{
	out.put("{\"format\":\"block\",\"guess\":true");
	json_decimal(out, "block_count", static_cast<uint64_t>(opts.block_count));
	json_decimal(out, "block", number);
	if (opts.time_blocks)
	{
		key(out, "block_us");
		out.put_signed(opts.layout.block_us);
		json_time(out, "as_of", opts.as_of_us, 6);
		key(out, "block_start");
		if (shown)
		{
			out.put('"');
			out.put_time(start, 6, true);
			out.put('"');
			key(out, "block_start_unix_us");
			out.put_signed(start);
		}
		else
			out.put("null");
	}
	out.put('}');
}

// Explain a block-wrapped reading: the block, and with --time-block when it began.
void
block(const uint8_t *id, const ExplainOptions &opts, Output &out)
{
	uint64_t number = decode_block(id, opts.block_count);
	int64_t  start = 0;
	bool     shown = false;

	if (opts.time_blocks)
		shown = time_block_start(decode_prefix(id, opts.layout.prefix_bits), opts.as_of_us, opts.layout, &start) &&
			start >= shown_min_us && start <= shown_max_us;

	if (opts.json)
		return block_json(number, shown, start, opts, out);
	out.put("  block-wrapped uuid, if uuid_sequence_nextval or uuid_time_nextval made it (a guess:\n"
			"  any random uuid reads as one)\n");
	label(out, "block");
	out.put_decimal(number);
	out.put(" (the first ");
	out.put_decimal(static_cast<uint64_t>(prefix_bits_for(opts.block_count)));
	out.put(" bits, for a block count of ");
	out.put_decimal(static_cast<uint64_t>(opts.block_count));
	out.put(")\n");
	if (opts.time_blocks)
	{
		label(out, "block start");
		if (shown)
			out.put_time(start, 6, false);
		else
			out.put("outside the years 1 to 9999");
		out.put(", the latest at or before ");
		out.put_time(opts.as_of_us, 6, false);
		out.put(" (blocks of ");
		put_length(out, opts.layout.block_us);
		out.put(")\n");
	}
}

// Write a version 7 reading in JSON.
void
v7_json(const V7Fields &f, Output &out)
{
	out.put("{\"format\":\"v7\"");
	json_time(out, "time", f.ms * 1000, 3);
	key(out, "unix_ms");
	out.put_signed(f.ms);
	json_decimal(out, "rand_a", f.rand_a);
	json_time(out, "subms_time", f.subms_us, 6);
	key(out, "ordered");
	out.put_str(f.is_explicit ? "\"explicit\"" : "\"clock\"");
	if (f.is_explicit)
		json_decimal(out, "allocation", f.allocation);
	else
		json_decimal(out, "counter", f.counter);
	out.put('}');
}

// Explain a version 7 uuid: its time, fraction, and what uuidv7_ordered would have put in it.
void
v7(const IdReading &r, const ExplainOptions &opts, Output &out)
{
	const V7Fields &f = r.v7;

	if (opts.json)
		return v7_json(f, out);
	out.put("  version 7 uuid (RFC 9562)\n");
	text_time(out, f.ms * 1000, 3);
	label(out, "fraction");
	out.put_decimal(f.rand_a);
	out.put("/4096 ms: ");
	out.put_time(f.subms_us, 6, false);
	out.put(", if uuidv7() or uuidv7_ordered() made it\n");
	label(out, "ordered");
	if (f.is_explicit)
	{
		out.put("allocation ");
		out.put_decimal(f.allocation);
		out.put(", if uuidv7_ordered(at) made it\n");
	}
	else
	{
		out.put("counter ");
		out.put_decimal(f.counter);
		out.put(", if uuidv7_ordered() made it\n");
	}
}

// Explain a version 1 or 6 uuid: time, clock sequence, node.
void
v1(const IdReading &r, const ExplainOptions &opts, Output &out)
{
	bool                   v6 = r.version == 6;
	int64_t                us = r.formats[static_cast<int>(v6 ? Format::v6 : Format::v1)].unix_us;
	const GregorianFields &f = r.gregorian;

	if (opts.json)
	{
		out.put(v6 ? "{\"format\":\"v6\"" : "{\"format\":\"v1\"");
		json_time(out, "time", us, 6);
		key(out, "unix_us");
		out.put_signed(us);
		json_decimal(out, "clock_seq", f.clock_seq);
		key(out, "node");
		out.put('"');
		out.put_hex_bytes(f.node, 6);
		out.put("\"}");
		return;
	}
	out.put(v6 ? "  version 6 uuid (RFC 9562)\n" : "  version 1 uuid (RFC 9562)\n");
	text_time(out, us, 6);
	label(out, "node");
	for (int i = 0; i < 6; i++)
	{
		if (i > 0)
			out.put(':');
		out.put_hex(f.node[i], 2);
	}
	out.put('\n');
	text_decimal(out, "clock seq", f.clock_seq);
}

// Write a shard-key reading in JSON.
void
hot_json(const HotFields &f, Output &out)
{
	bool is_explicit = hot_counter_explicit(f.counter);

	out.put("{\"format\":\"hot\",\"guess\":true");
	json_time(out, "time", static_cast<int64_t>(f.seconds) * usecs_per_sec, 0);
	json_decimal(out, "unix_seconds", f.seconds);
	json_decimal(out, "shard_key", f.shard);
	key(out, "machine");
	out.put('"');
	out.put_hex_bytes(f.machine, hot_machine_len);
	out.put('"');
	json_decimal(out, "process", f.process);
	json_decimal(out, "counter", f.counter);
	key(out, "counter_kind");
	if (is_explicit)
	{
		out.put("\"explicit\"");
		json_decimal(out, "allocation", hot_explicit_allocation(f.counter, f.process));
	}
	else
	{
		out.put("\"clock\"");
		json_time(out, "clock_time", hot_clock_us(f), 6);
	}
	out.put('}');
}

// Explain a shard-key reading: time, shard key, machine, process and counter.
void
hot(const IdReading &r, const ExplainOptions &opts, Output &out)
{
	const HotFields &f = r.hot;
	int64_t          us = static_cast<int64_t>(f.seconds) * usecs_per_sec;

	if (opts.json)
		return hot_json(f, out);
	out.put("  shard-key uuid, if hot_uuid made it (a guess: any uuid reads as one)\n");
	text_time(out, us, 0);
	text_decimal(out, "shard key", f.shard);
	label(out, "machine");
	out.put_hex_bytes(f.machine, hot_machine_len);
	out.put('\n');
	text_decimal(out, "process", f.process);
	label(out, "counter");
	out.put_decimal(f.counter);
	if (hot_counter_explicit(f.counter))
	{
		out.put(": explicit time, allocation ");
		out.put_decimal(hot_explicit_allocation(f.counter, f.process));
	}
	else
	{
		out.put(": clock tick at ");
		out.put_time(hot_clock_us(f), 6, false);
	}
	out.put('\n');
}

/* What RFC 9562 calls each kind of id, after its type name (rfc_type). */
const struct
{
	const char *type;
	const char *text;
} type_texts[] = {
	{"nil", "the nil uuid"},
	{"max", "the max uuid"},
	{"time", "time-based"},
	{"dce", "DCE security"},
	{"md5", "name-based, MD5"},
	{"random", "random"},
	{"sha1", "name-based, SHA-1"},
	{"reordered-time", "reordered time-based"},
	{"unix-time", "Unix time-based"},
	{"custom", "custom"},
	{"unknown", "no RFC 9562 kind"},
};

/* The names of the fields -o prints, in the order of Field. */
const char *const field_names[] = {"id", "version", "variant", "type", "time", "unix_us", "formats", "facade"};
static_assert(sizeof(field_names) / sizeof(field_names[0]) == static_cast<int>(Field::facade) + 1,
			  "one name for each Field, in its order");

// Explain an id as one format, from the core's reading (the block reading needs the id and the
// tool's block count). A switch on Format: a format without an explainer is a warning (-Wswitch).
void
explain_as(Format f, const uint8_t *id, const IdReading &r, const ExplainOptions &opts, Output &out)
{
	switch (f)
	{
		case Format::locality:
			return locality(r, opts, out);
		case Format::block:
			return block(id, opts, out);
		case Format::v7:
			return v7(r, opts, out);
		case Format::v1:
		case Format::v6:
			return v1(r, opts, out);
		case Format::hot:
			return hot(r, opts, out);
	}
}

/* What the bits of an id say (the core's reading), its time if they fix one, and the façade. */
struct Reading
{
	IdReading      id;
	const char    *variant;
	const char    *type;
	bool           has_time;
	int64_t        unix_us;
	int            time_digits;
	const uint8_t *facade; /* the façade the id was read from, or nullptr */
};

// Read an id as the core does: RFC 9562 first, then each format of ours that could have made it.
Reading
read_id(const uint8_t *id, const ExplainOptions &opts)
{
	Reading r;

	locality_uuid::read_id(id, opts.as_of_us, opts.all, &r.id);
	r.variant = variant_name(r.id.variant);
	r.type = rfc_kind_name(r.id.kind);
	r.has_time = r.id.time_from >= 0;
	r.unix_us = r.has_time ? r.id.formats[r.id.time_from].unix_us : 0;
	r.time_digits = r.has_time ? r.id.formats[r.id.time_from].time_digits : 0;
	r.facade = opts.facade;
	return r;
}

// Write the text that names an id's RFC 9562 kind.
void
put_type_text(Output &out, const char *type)
{
	for (const auto &t : type_texts)
		if (std::strcmp(t.type, type) == 0)
		{
			out.put_str(t.text);
			return;
		}
}

// Write one field of -o (empty where the id has no such value).
void
put_field(Output &out, Field f, const uint8_t *id, const Reading &r)
{
	bool first = true;

	switch (f)
	{
		case Field::id:
			out.put_uuid(id);
			break;
		case Field::version:
			out.put_hex(r.id.version, 1);
			break;
		case Field::variant:
			out.put_str(r.variant);
			break;
		case Field::type:
			out.put_str(r.type);
			break;
		case Field::time:
			if (r.has_time)
				out.put_time(r.unix_us, r.time_digits, true);
			break;
		case Field::unix_us:
			if (r.has_time)
				out.put_signed(r.unix_us);
			break;
		case Field::formats:
			for (int i = 0; i < format_count; i++)
				if (r.id.formats[i].fits)
				{
					if (!first)
						out.put(',');
					out.put_str(format_name(static_cast<Format>(i)));
					first = false;
				}
			break;
		case Field::facade:
			if (r.facade != nullptr)
				out.put_uuid(r.facade);
			break;
	}
}

// Write the chosen fields of an id, tab-separated, and a line end.
void
explain_fields(const uint8_t *id, const Reading &r, const ExplainOptions &opts, Output &out)
{
	for (std::size_t i = 0; i < opts.fields.size(); i++)
	{
		if (i > 0)
			out.put('\t');
		put_field(out, opts.fields[i], id, r);
	}
	out.put('\n');
}

// Start an id's JSON object: its RFC 9562 reading (and the façade it was read from), up to the formats array.
void
json_head(const uint8_t *id, const Reading &r, Output &out)
{
	out.put("{\"id\":\"");
	out.put_uuid(id);
	if (r.facade != nullptr)
	{
		out.put("\",\"facade\":\"");
		out.put_uuid(r.facade);
	}
	out.put("\",\"version\":\"");
	out.put_hex(r.id.version, 1);
	out.put("\",\"variant\":\"");
	out.put_str(r.variant);
	out.put("\",\"type\":\"");
	out.put_str(r.type);
	out.put("\",\"time\":");
	if (r.has_time)
	{
		out.put('"');
		out.put_time(r.unix_us, r.time_digits, true);
		out.put("\",\"unix_us\":");
		out.put_signed(r.unix_us);
	}
	else
		out.put("null,\"unix_us\":null");
	out.put(",\"formats\":[");
}

// Write an id's first text line (the id, its version and variant, what RFC 9562 calls it), then its façade's.
void
text_head(const uint8_t *id, const Reading &r, Output &out)
{
	out.put_uuid(id);
	out.put("  version ");
	out.put_hex(r.id.version, 1);
	out.put(", variant ");
	out.put_str(r.variant);
	out.put(": ");
	put_type_text(out, r.type);
	out.put('\n');
	if (r.facade != nullptr)
	{
		out.put("  the id of the facade ");
		out.put_uuid(r.facade);
		out.put(" under the key given\n");
	}
}

} // namespace

bool
parse_fields(const std::string &list, std::vector<Field> *fields, std::string *bad)
{
	std::size_t start = 0;

	fields->clear();
	for (;;)
	{
		std::size_t comma = list.find(',', start);
		std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
		int         found = -1;

		for (int i = 0; i < static_cast<int>(sizeof(field_names) / sizeof(field_names[0])); i++)
			if (strcasecmp(name.c_str(), field_names[i]) == 0)
				found = i;
		if (found < 0)
		{
			*bad = name;
			return false;
		}
		fields->push_back(static_cast<Field>(found));
		if (comma == std::string::npos)
			return true;
		start = comma + 1;
	}
}

void
explain(const uint8_t id[uuid_len], const ExplainOptions &opts, Output &out)
{
	Reading r = read_id(id, opts);
	bool    first = true;

	if (!opts.fields.empty())
		return explain_fields(id, r, opts, out);
	if (opts.json)
		json_head(id, r, out);
	else
		text_head(id, r, out);
	for (int i = 0; i < format_count; i++)
	{
		if (!r.id.formats[i].fits)
			continue;
		if (opts.json && !first)
			out.put(',');
		first = false;
		explain_as(static_cast<Format>(i), id, r.id, opts, out);
	}
	if (first && opts.json)
		out.put("],\"note\":\"none of locality_uuid's formats could have made it (--all reads it as a shard-key uuid)\"}\n");
	else if (first)
		out.put("  none of locality_uuid's formats could have made it (--all reads it as a shard-key uuid)\n\n");
	else
		out.put_str(opts.json ? "]}\n" : "\n");
}

} // namespace locality_uuid
