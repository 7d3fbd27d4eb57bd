// Explaining an id: which formats it can be, and its fields in each, as aligned text or JSON Lines.
#include "explain.hpp"

#include "core/hot.hpp"
#include "core/locality_b.hpp"
#include "core/v7.hpp"

#include <cstring>

namespace locality_uuid
{

namespace
{

/* Microseconds from 1582-10-15 (version 1's epoch) to 1970-01-01. */
constexpr int64_t v1_epoch_unix_us = INT64_C(12219292800) * usecs_per_sec;

/* The earliest and latest block starts shown: years 1 to 9999. */
constexpr int64_t shown_min_us = INT64_C(-62135596800) * usecs_per_sec;
constexpr int64_t shown_max_us = (clock_seconds_max + 1) * usecs_per_sec - 1;

// Name the variant that byte 8 carries.
const char *
variant_name(const uint8_t *u)
{
	if ((u[8] & 0x80) == 0)
		return "ncs";
	if ((u[8] & 0xc0) == 0x80)
		return "rfc9562";
	if ((u[8] & 0xe0) == 0xc0)
		return "microsoft";
	return "future";
}

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

void
locality(const uint8_t *id, const ExplainOptions &opts, Output &out)
{
	LocalityFields f;
	LocalityFields seq;

	decode_b(id, &f, CounterMode::variable);
	decode_b(id, &seq, CounterMode::sequential);

	int64_t		us = static_cast<int64_t>(f.time_ms) * 1000;

	if (opts.json)
	{
		out.put("{\"format\":\"locality\"");
		json_time(out, "time", us, 3);
		json_decimal(out, "unix_ms", f.time_ms);
		json_decimal(out, "node", f.node);
		json_hex(out, "mac", f.node, 7);
		json_decimal(out, "process", f.process);
		json_decimal(out, "counter_variable", f.counter);
		json_decimal(out, "counter_sequential", seq.counter);
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
	out.put_decimal(seq.counter);
	out.put(" if sequential\n");
}

void
block(const uint8_t *id, const ExplainOptions &opts, Output &out)
{
	uint64_t	number = decode_block(id, opts.block_count);
	int64_t		start = 0;
	bool		shown = false;

	if (opts.time_blocks)
		shown = time_block_start(get_be(id, opts.layout.prefix_bits / 8), opts.as_of_us, opts.layout, &start) &&
			start >= shown_min_us && start <= shown_max_us;

	if (opts.json)
	{
		out.put("{\"format\":\"block\"");
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
		return;
	}
	out.put("  block-wrapped uuid (version 4), or any random uuid\n");
	label(out, "block");
	out.put_decimal(number);
	out.put(" of ");
	out.put_decimal(static_cast<uint64_t>(opts.block_count));
	out.put('\n');
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

void
v7(const uint8_t *id, const ExplainOptions &opts, Output &out)
{
	int64_t		ms = v7_ms(id);
	uint16_t	rand_a = static_cast<uint16_t>(get_be(id + 6, 2) & 0x0fff);
	int64_t		fine_us = ms * 1000 + rand_a * INT64_C(1000) / v7_subms_steps;
	bool		is_explicit = (id[8] & v7_explicit_flag) != 0;
	unsigned	counter = (id[8] >> 2) & ((1u << v7_counter_bits) - 1);
	uint64_t	allocation = (static_cast<uint64_t>(rand_a) << 29) |
		(static_cast<uint64_t>(id[8] & 0x1f) << 24) | get_be(id + 9, 3);

	if (opts.json)
	{
		out.put("{\"format\":\"v7\"");
		json_time(out, "time", ms * 1000, 3);
		key(out, "unix_ms");
		out.put_signed(ms);
		json_decimal(out, "rand_a", rand_a);
		json_time(out, "subms_time", fine_us, 6);
		key(out, "ordered");
		out.put_str(is_explicit ? "\"explicit\"" : "\"clock\"");
		if (is_explicit)
		{
			json_decimal(out, "allocation", allocation);
		}
		else
		{
			json_decimal(out, "counter", counter);
		}
		out.put('}');
		return;
	}
	out.put("  version 7 uuid (RFC 9562)\n");
	text_time(out, ms * 1000, 3);
	label(out, "fraction");
	out.put_decimal(rand_a);
	out.put("/4096 ms: ");
	out.put_time(fine_us, 6, false);
	out.put(", if uuidv7() or uuidv7_ordered() made it\n");
	label(out, "ordered");
	if (is_explicit)
	{
		out.put("allocation ");
		out.put_decimal(allocation);
		out.put(", if uuidv7_ordered(at) made it\n");
	}
	else
	{
		out.put("counter ");
		out.put_decimal(counter);
		out.put(", if uuidv7_ordered() made it\n");
	}
}

void
v1(const uint8_t *id, const ExplainOptions &opts, Output &out)
{
	/* As uuid_extract_timestamp: 100 ns units truncated to microseconds. */
	int64_t		us = static_cast<int64_t>(v1_timestamp(id) / 10) - v1_epoch_unix_us;
	unsigned	clock_seq = static_cast<unsigned>(get_be(id + 8, 2) & 0x3fff);

	if (opts.json)
	{
		out.put("{\"format\":\"v1\"");
		json_time(out, "time", us, 6);
		key(out, "unix_us");
		out.put_signed(us);
		json_decimal(out, "clock_seq", clock_seq);
		key(out, "node");
		out.put('"');
		out.put_hex_bytes(id + 10, 6);
		out.put("\"}");
		return;
	}
	out.put("  version 1 uuid (RFC 9562)\n");
	text_time(out, us, 6);
	label(out, "node");
	for (int i = 0; i < 6; i++)
	{
		if (i > 0)
			out.put(':');
		out.put_hex(id[10 + i], 2);
	}
	out.put('\n');
	text_decimal(out, "clock seq", clock_seq);
}

void
hot(const uint8_t *id, const ExplainOptions &opts, Output &out)
{
	HotFields	f;

	decode_hot(id, &f);

	int64_t		us = static_cast<int64_t>(f.seconds) * usecs_per_sec;
	bool		is_explicit = (f.counter & hot_explicit_bit) != 0;
	int64_t		tick_us = us + static_cast<int64_t>(f.counter) * usecs_per_sec / hot_ticks_per_second;

	if (opts.json)
	{
		out.put("{\"format\":\"hot\"");
		json_time(out, "time", us, 0);
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
			json_time(out, "clock_time", tick_us, 6);
		}
		out.put('}');
		return;
	}
	out.put("  shard-key uuid (hot_uuid)\n");
	text_time(out, us, 0);
	text_decimal(out, "shard key", f.shard);
	label(out, "machine");
	out.put_hex_bytes(f.machine, hot_machine_len);
	out.put('\n');
	text_decimal(out, "process", f.process);
	label(out, "counter");
	out.put_decimal(f.counter);
	if (is_explicit)
	{
		out.put(": explicit time, allocation ");
		out.put_decimal(hot_explicit_allocation(f.counter, f.process));
	}
	else
	{
		out.put(": clock tick at ");
		out.put_time(tick_us, 6, false);
	}
	out.put('\n');
}

}							// namespace

void
explain(const uint8_t id[uuid_len], const ExplainOptions &opts, Output &out)
{
	unsigned	version = version_nibble(id);
	bool		rfc = rfc_variant(id);
	bool		is_locality = version == version_b;
	bool		is_block = version == version_4 && rfc;
	bool		is_v7 = version == 7 && rfc;
	bool		is_v1 = version == 1 && rfc;
	bool		rfc_claimed = rfc && version >= 1 && version <= 8;
	int64_t		hot_us = static_cast<int64_t>(hot_time_field(id)) * usecs_per_sec;
	bool		hot_plausible = hot_us >= opts.as_of_us - hot_window_before * usecs_per_sec &&
		hot_us <= opts.as_of_us + hot_window_after * usecs_per_sec;
	bool		is_hot = opts.all || (!is_locality && !rfc_claimed) || hot_plausible;
	bool		first = true;

	if (opts.json)
	{
		out.put("{\"id\":\"");
		out.put_uuid(id);
		if (opts.facade != nullptr)
		{
			out.put("\",\"facade\":\"");
			out.put_uuid(opts.facade);
		}
		out.put("\",\"version\":\"");
		out.put_hex(version, 1);
		out.put("\",\"variant\":\"");
		out.put_str(variant_name(id));
		out.put("\",\"formats\":[");
	}
	else
	{
		out.put_uuid(id);
		out.put('\n');
		if (opts.facade != nullptr)
		{
			out.put("  the id of the facade ");
			out.put_uuid(opts.facade);
			out.put(" under the key given\n");
		}
	}

	/* Each format that can explain the id, in this order, separated by commas in JSON. */
	struct Format
	{
		bool		applies;
		void		(*explain) (const uint8_t *id, const ExplainOptions &opts, Output &out);
	};
	const Format formats[] = {{is_locality, locality}, {is_block, block}, {is_v7, v7}, {is_v1, v1}, {is_hot, hot}};

	for (const Format &f : formats)
	{
		if (!f.applies)
			continue;
		if (opts.json && !first)
			out.put(',');
		first = false;
		f.explain(id, opts, out);
	}

	if (first)
	{
		/* Only an RFC 9562 id of a version none of the formats has, outside the window, comes here. */
		if (opts.json)
		{
			out.put("],\"note\":\"an RFC 9562 uuid of version ");
			out.put_hex(version, 1);
			out.put(" and no shard-key uuid of the ten years before\"}\n");
		}
		else
		{
			out.put("  none of locality_uuid's formats: an RFC 9562 uuid of version ");
			out.put_hex(version, 1);
			out.put(",\n  and no shard-key uuid of the ten years before (--all reads it as one)\n\n");
		}
		return;
	}
	if (opts.json)
		out.put("]}\n");
	else
		out.put('\n');
}

}							// namespace locality_uuid
