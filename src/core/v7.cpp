// RFC 9562 version 7 and 4 uuids: encoding, boundaries, ordered and explicit-time ids.
#include "v7.hpp"

namespace locality_uuid
{

void
encode_v7(int64_t ms, uint16_t rand_a, const uint8_t random[8], uint8_t out[uuid_len]) noexcept
{
	put_be(out, static_cast<uint64_t>(ms), 6);
	put_be(out + 6, rand_a & 0x0fff, 2);
	for (int i = 0; i < 8; i++)
		out[8 + i] = random[i];
	set_rfc_version(out, 7);
}

void
encode_v4(const uint8_t random[uuid_len], uint8_t out[uuid_len]) noexcept
{
	for (std::size_t i = 0; i < uuid_len; i++)
		out[i] = random[i];
	set_rfc_version(out, 4);
}

// Write a millisecond's uuid whose other bits are all fill (0x00 or 0xff), but version and variant.
static void
v7_filled(int64_t ms, uint8_t fill, uint8_t out[uuid_len]) noexcept
{
	put_be(out, static_cast<uint64_t>(ms), 6);
	for (std::size_t i = 6; i < uuid_len; i++)
		out[i] = fill;
	set_rfc_version(out, 7);
}

void
v7_lower(int64_t ms, uint8_t out[uuid_len]) noexcept
{
	v7_filled(ms, 0x00, out);
}

void
v7_upper(int64_t ms, uint8_t out[uuid_len]) noexcept
{
	v7_filled(ms, 0xff, out);
}

// Write the key of since (the smallest id of its first millisecond) or of before (the largest of the millisecond before it).
static void
v7_made_key(int64_t us, bool before, uint8_t out[uuid_len]) noexcept
{
	int64_t ms = made_unit(us, 1000, v7_ms_max);

	if (ms == 0 || ms > v7_ms_max)
		uuid_fill(out, ms == 0 ? 0x00 : 0xff);
	else if (before)
		v7_upper(ms - 1, out);
	else
		v7_lower(ms, out);
}

void
v7_made_since(int64_t us, uint8_t out[uuid_len]) noexcept
{
	v7_made_key(us, false, out);
}

void
v7_made_before(int64_t us, uint8_t out[uuid_len]) noexcept
{
	v7_made_key(us, true, out);
}

void
encode_v7_ordered(uint64_t word, const uint8_t random[8], uint8_t out[uuid_len]) noexcept
{
	uint16_t fraction = static_cast<uint16_t>((word >> v7_counter_bits) & 0x0fff);
	uint8_t  counter = static_cast<uint8_t>(word & ((1u << v7_counter_bits) - 1));

	encode_v7(v7_word_ms(word), fraction, random, out);
	/* byte 8: variant, explicit flag 0, counter in bits 4..2, two random bits */
	out[8] = static_cast<uint8_t>(0x80 | (counter << 2) | (random[0] & 0x03));
}

bool
encode_v7_explicit(int64_t ms, uint64_t n, const uint8_t random[4], uint8_t out[uuid_len]) noexcept
{
	uint8_t rest[8] = {0, 0, 0, 0, random[0], random[1], random[2], random[3]};

	if (n >= v7_allocation_limit)
		return false;
	encode_v7(ms, static_cast<uint16_t>(n >> 29), rest, out);
	out[8] = static_cast<uint8_t>(0x80 | v7_explicit_flag | ((n >> 24) & 0x1f));
	put_be(out + 9, n & 0xffffff, 3);
	return true;
}

void
decode_v7(const uint8_t in[uuid_len], V7Fields *f) noexcept
{
	f->ms = v7_ms(in);
	f->rand_a = static_cast<uint16_t>(get_be(in + 6, 2) & 0x0fff);
	f->subms_us = f->ms * 1000 + f->rand_a * INT64_C(1000) / v7_subms_steps;
	f->is_explicit = (in[8] & v7_explicit_flag) != 0;
	f->counter = (in[8] >> 2) & ((1u << v7_counter_bits) - 1);
	f->allocation = (static_cast<uint64_t>(f->rand_a) << 29) | (static_cast<uint64_t>(in[8] & 0x1f) << 24) |
		get_be(in + 9, 3);
}

} // namespace locality_uuid
