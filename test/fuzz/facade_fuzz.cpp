// libFuzzer target over the keyed façade: any id and key round-trip exactly, and only the time field and version nibble change.
#include "core/facade.hpp"

#include "require.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstring>
#include <string>

using namespace locality_uuid;

namespace
{

// Any 16 bytes and key: a version 7 id maps to a version 4 façade and back to itself; anything else is refused.
void
check_round_trip(FuzzedDataProvider &fdp)
{
	uint8_t		key_bytes[facade_key_len];
	uint8_t		id[uuid_len];
	uint8_t		facade[uuid_len];
	uint8_t		back[uuid_len];

	fdp.ConsumeData(key_bytes, sizeof(key_bytes));
	fdp.ConsumeData(id, sizeof(id));
	if (fdp.ConsumeBool())
	{
		/* Most inputs should be ids: force version 7 and the variant. */
		id[6] = static_cast<uint8_t>((id[6] & 0x0f) | 0x70);
		id[8] = static_cast<uint8_t>((id[8] & 0x3f) | 0x80);
	}

	FacadeKey	key = facade_key(key_bytes);
	bool		is_v7 = (id[8] & 0xc0) == 0x80 && (id[6] >> 4) == 7;

	REQUIRE(to_facade(id, key, facade) == is_v7);
	if (!is_v7)
		return;
	REQUIRE((facade[6] >> 4) == 4 && (facade[8] & 0xc0) == 0x80);
	REQUIRE((facade[6] & 0x0f) == (id[6] & 0x0f));
	REQUIRE(std::memcmp(facade + 7, id + 7, uuid_len - 7) == 0);
	REQUIRE(!to_facade(facade, key, back));
	REQUIRE(from_facade(facade, key, back));
	REQUIRE(std::memcmp(back, id, uuid_len) == 0);
}

// Any text: a key parses only from exactly 32 hex digits, and then reads as those 16 bytes.
void
check_key_text(FuzzedDataProvider &fdp)
{
	std::string text = fdp.ConsumeRandomLengthString(40);
	FacadeKey	key = {0, 0};
	bool		hex = text.size() == facade_key_hex_len;

	for (char c : text)
		hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
	REQUIRE(parse_facade_key(text.data(), text.size(), &key) == hex);
	if (!hex)
		return;

	uint8_t		bytes[facade_key_len];

	for (std::size_t i = 0; i < facade_key_len; i++)
	{
		unsigned	b = 0;

		std::sscanf(text.c_str() + 2 * i, "%2x", &b);
		bytes[i] = static_cast<uint8_t>(b);
	}
	REQUIRE(key.k0 == get_le(bytes, 8) && key.k1 == get_le(bytes + 8, 8));
}

}							// namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size)
{
	static const Check checks[] = {check_round_trip, check_key_text};

	return run_check(data, size, checks);
}
