// Core unit tests of the keyed façade: SipHash-2-4's 64 published vectors, uuidv47's façades, the round trip, the version checks and the key's text form.
#include "core/facade.hpp"
#include "check.hpp"

using namespace locality_uuid;

namespace
{

/*
 * SipHash-2-4 of the messages 00, 00 01, ..., 00 01 .. 3e (lengths 0 .. 63) under the key
 * 00 01 .. 0f: the 64-bit results as their 8 little-endian bytes, in hex. The vectors of the
 * SipHash paper (Aumasson and Bernstein, appendix A), as published in the reference
 * implementation's vectors.h (github.com/veorq/SipHash, vectors_sip64, commit 1a7d041).
 */
const char *const sip64_vectors[64] = {
	"310e0edd47db6f72",
	"fd67dc93c539f874",
	"5a4fa9d909806c0d",
	"2d7efbd796666785",
	"b7877127e09427cf",
	"8da699cd64557618",
	"cee3fe586e46c9cb",
	"37d1018bf50002ab",
	"6224939a79f5f593",
	"b0e4a90bdf82009e",
	"f3b9dd94c5bb5d7a",
	"a7ad6b22462fb3f4",
	"fbe50e86bc8f1e75",
	"903d84c02756ea14",
	"eef27a8e90ca23f7",
	"e545be4961ca29a1",
	"db9bc2577fcc2a3f",
	"9447be2cf5e99a69",
	"9cd38d96f0b3c14b",
	"bd6179a71dc96dbb",
	"98eea21af25cd6be",
	"c7673b2eb0cbf2d0",
	"883ea3e395675393",
	"c8ce5ccd8c030ca8",
	"94af49f6c650adb8",
	"eab8858ade92e1bc",
	"f315bb5bb835d817",
	"adcf6b0763612e2f",
	"a5c91da7acaa4dde",
	"716595876650a2a6",
	"28ef495c53a387ad",
	"42c341d8fa92d832",
	"ce7cf2722f512771",
	"e37859f94623f3a7",
	"381205bb1ab0e012",
	"ae97a10fd434e015",
	"b4a31508beff4d31",
	"81396229f0907902",
	"4d0cf49ee5d4dcca",
	"5c73336a76d8bf9a",
	"d0a704536ba93e0e",
	"925958fcd6420cad",
	"a915c29bc8067318",
	"952b79f3bc0aa6d4",
	"f21df2e41d4535f9",
	"87577519048f53a9",
	"10a56cf5dfcd9adb",
	"eb75095ccd986cd0",
	"51a9cb9ecba312e6",
	"96afadfc2ce666c7",
	"72fe52975a4364ee",
	"5a1645b276d592a1",
	"b274cb8ebf87870a",
	"6f9bb4203de7b381",
	"eaecb2a30b22a87f",
	"9924a43cc1315724",
	"bd838d3aafbf8db7",
	"0b1a2a3265d51aea",
	"135079a3231ce660",
	"932b2846e4d70666",
	"e1915f5cb1eca46c",
	"f325965ca16d629f",
	"575ff28e60381be5",
	"724506eb4c328a95"
};

// Parse 2n hex digits into n bytes.
void
hex_bytes(const char *hex, uint8_t *out, std::size_t n)
{
	for (std::size_t i = 0; i < n; i++)
	{
		unsigned	b = 0;

		std::sscanf(hex + 2 * i, "%2x", &b);
		out[i] = static_cast<uint8_t>(b);
	}
}

// Parse a uuid's text form.
void
uuid_bytes(const char *text, uint8_t out[uuid_len])
{
	char		hex[33];
	int			n = 0;

	for (const char *p = text; *p && n < 32; p++)
		if (*p != '-')
			hex[n++] = *p;
	hex[n] = '\0';
	hex_bytes(hex, out, uuid_len);
}

void
test_siphash_vectors()
{
	uint8_t		key_bytes[facade_key_len];
	uint8_t		message[64];
	int			wrong = 0;

	for (int i = 0; i < 16; i++)
		key_bytes[i] = static_cast<uint8_t>(i);
	for (int i = 0; i < 64; i++)
		message[i] = static_cast<uint8_t>(i);

	FacadeKey	key = facade_key(key_bytes);

	CHECK_EQ(key.k0, UINT64_C(0x0706050403020100));
	CHECK_EQ(key.k1, UINT64_C(0x0f0e0d0c0b0a0908));
	for (int len = 0; len < 64; len++)
	{
		uint8_t		want[8];

		hex_bytes(sip64_vectors[len], want, 8);
		if (siphash24(message, len, key) != get_le(want, 8))
		{
			std::printf("# siphash24 of length %d differs\n", len);
			wrong++;
		}
	}
	CHECK_EQ(wrong, 0);
}

/*
 * Façades computed by uuidv47.h (commit 81ba63f, uuidv47_encode_v4facade) for these ids and
 * keys; the version 7 id is the same with version 7.
 */
struct FacadeVector
{
	const char *key;
	const char *id;
	const char *facade;
};

const FacadeVector facade_vectors[] = {
	{"000102030405060708090a0b0c0d0e0f", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "e4b98970-eb53-4cc3-98c4-dc0c0c07398f"},
	{"000102030405060708090a0b0c0d0e0f", "00000000-0000-7000-8000-000000000000", "d2d1776f-12b1-4000-8000-000000000000"},
	{"000102030405060708090a0b0c0d0e0f", "ffffffff-ffff-7fff-bfff-ffffffffffff", "4b879cd9-4b5a-4fff-bfff-ffffffffffff"},
	{"000102030405060708090a0b0c0d0e0f", "01890a5d-ac96-774b-bcce-b302099a8057", "bb555eb6-1d51-474b-bcce-b302099a8057"},
	{"0123456789abcdeffedcba9876543210", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "e6754e90-faa2-4cc3-98c4-dc0c0c07398f"},
	{"0123456789ABCDEFFEDCBA9876543210", "00000000-0000-7000-8000-000000000000", "873562f1-e286-4000-8000-000000000000"},
	{"0123456789abcdeffedcba9876543210", "ffffffff-ffff-7fff-bfff-ffffffffffff", "297161fc-e80a-4fff-bfff-ffffffffffff"},
	{"00000000000000000000000000000000", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "bc2c7c17-2490-4cc3-98c4-dc0c0c07398f"},
};

void
test_facade_vectors()
{
	for (const FacadeVector &v : facade_vectors)
	{
		FacadeKey	key = {0, 0};
		uint8_t		id[uuid_len];
		uint8_t		facade[uuid_len];
		uint8_t		out[uuid_len];

		CHECK(parse_facade_key(v.key, std::strlen(v.key), &key));
		uuid_bytes(v.id, id);
		uuid_bytes(v.facade, facade);
		CHECK(to_facade(id, key, out));
		CHECK_UUID(out, v.facade);
		CHECK(from_facade(facade, key, out));
		CHECK_UUID(out, v.id);
	}
}

void
test_versions()
{
	FacadeKey	key = {UINT64_C(0x0706050403020100), UINT64_C(0x0f0e0d0c0b0a0908)};
	uint8_t		u[uuid_len];
	uint8_t		out[uuid_len];

	for (auto &b : out)
		b = 0xaa;

	/* A façade is no id, an id no façade; other versions and variants are neither: out untouched. */
	uuid_bytes("e4b98970-eb53-4cc3-98c4-dc0c0c07398f", u);
	CHECK(!to_facade(u, key, out));
	uuid_bytes("017f22e2-79b0-7cc3-98c4-dc0c0c07398f", u);
	CHECK(!from_facade(u, key, out));
	uuid_bytes("017f22e2-79b0-7cc3-18c4-dc0c0c07398f", u);	/* NCS variant */
	CHECK(!to_facade(u, key, out));
	uuid_bytes("017f22e2-79b0-7cc3-c8c4-dc0c0c07398f", u);	/* Microsoft's variant */
	CHECK(!to_facade(u, key, out));
	uuid_bytes("e4b98970-eb53-4cc3-e8c4-dc0c0c07398f", u);
	CHECK(!from_facade(u, key, out));
	uuid_bytes("017f22e2-79b0-6cc3-98c4-dc0c0c07398f", u);	/* version 6 */
	CHECK(!to_facade(u, key, out));
	CHECK(!from_facade(u, key, out));
	CHECK_UUID(out, "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa");

	/* Every other bit round-trips: a walk over ids that differ in one bit each. */
	int			wrong = 0;

	for (int bit = 0; bit < 128; bit++)
	{
		uint8_t		id[uuid_len];
		uint8_t		facade[uuid_len];
		uint8_t		back[uuid_len];

		uuid_bytes("017f22e2-79b0-7cc3-98c4-dc0c0c07398f", id);
		id[bit / 8] ^= static_cast<uint8_t>(0x80 >> (bit % 8));
		bool		is_v7 = rfc_version(id, 7);

		if (to_facade(id, key, facade) != is_v7)
			wrong++;
		else if (is_v7 && (!rfc_version(facade, 4) || !from_facade(facade, key, back) ||
						   std::memcmp(back, id, uuid_len) != 0 ||
						   std::memcmp(facade + 7, id + 7, uuid_len - 7) != 0))
			wrong++;
	}
	CHECK_EQ(wrong, 0);
}

void
test_key_text()
{
	FacadeKey	key = {1, 2};
	const char *good = "000102030405060708090a0b0c0d0e0f";

	CHECK(parse_facade_key(good, 32, &key));
	CHECK_EQ(key.k0, UINT64_C(0x0706050403020100));
	CHECK_EQ(key.k1, UINT64_C(0x0f0e0d0c0b0a0908));

	key = FacadeKey{1, 2};
	CHECK(!parse_facade_key(good, 31, &key));
	CHECK(!parse_facade_key("000102030405060708090a0b0c0d0e0f0", 33, &key));
	CHECK(!parse_facade_key("", 0, &key));
	CHECK(!parse_facade_key("000102030405060708090a0b0c0d0e0g", 32, &key));
	CHECK(!parse_facade_key("00010203-0405-0607-0809-0a0b0c0d", 32, &key));
	CHECK(!parse_facade_key("\\x0102030405060708090a0b0c0d0e0f", 32, &key));
	CHECK_EQ(key.k0, UINT64_C(1));
	CHECK_EQ(key.k1, UINT64_C(2));
}

}							// namespace

int
main()
{
	test_siphash_vectors();
	test_facade_vectors();
	test_versions();
	test_key_text();
	return check::finish("facade");
}
