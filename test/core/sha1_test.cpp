// Unit tests of the command-line tool's SHA-1: the FIPS 180 examples, every padding boundary, and RFC 9562's version 5 example.
#include "cli/rfc.hpp"
#include "cli/sha1.hpp"
#include "check.hpp"

#include <string>

using namespace locality_uuid;

namespace
{

// Check the digest of len bytes of text against 40 hex digits.
void
check_digest(const char *text, std::size_t len, const char *hex, const char *what)
{
	uint8_t		digest[sha1_len];
	char		got[2 * sha1_len + 1];

	sha1_digest(text, len, digest);
	for (std::size_t i = 0; i < sha1_len; i++)
		std::snprintf(got + 2 * i, 3, "%02x", digest[i]);
	check::report(std::strcmp(got, hex) == 0, what, __FILE__, __LINE__);
	if (std::strcmp(got, hex) != 0)
		std::printf("#   got %s, want %s\n", got, hex);
}

/* The examples of FIPS 180 (NIST's "SHA1.pdf" and FIPS 180-2 appendix A), and the empty string. */
void
test_fips_examples()
{
	static const struct
	{
		const char *text;
		const char *hex;
	}			examples[] = {
		{"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
		{"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
		{"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		"a49b2446a02c645bf419f995b67091253a04a259"},
	};
	std::string million(1000000, 'a');

	for (const auto &v : examples)
		check_digest(v.text, std::strlen(v.text), v.hex, v.hex);
	check_digest(million.data(), million.size(), "34aa973cd4c4daa4f61eeb2bdbad27316534016f", "a million a");
}

/* Lengths around the padding boundaries (56 and 64 mod 64), of the byte 'x'; digests from sha1sum. */
void
test_padding_boundaries()
{
	static const struct
	{
		std::size_t len;
		const char *hex;
	}			lengths[] = {
		{55, "cef734ba81a024479e09eb5a75b6ddae62e6abf1"},
		{56, "901305367c259952f4e7af8323f480d59f81335b"},
		{57, "025ecbd5d70f8fb3c5457cd96bab13fda305dc59"},
		{63, "0ddc4e0cccd9a12850deb5abb0853a4425559fec"},
		{64, "bb2fa3ee7afb9f54c6dfb5d021f14b1ffe40c163"},
		{65, "78c741ddc482e4cdf8c474a0876347a0905b6233"},
		{119, "4300320394f7ee239bcdce7d3b8bcee173a0cd5c"},
		{120, "ceb2821639c4b6dcb10bce0e522ca2e608ce056d"},
		{128, "150fa3fbdc899bd0b8f95a9fb6027f564d953762"},
	};
	char		text[128];

	std::memset(text, 'x', sizeof(text));
	for (const auto &v : lengths)
		check_digest(text, v.len, v.hex, v.hex);
}

/* RFC 9562, appendix A.4 and A.2: the version 5 and 3 examples (www.example.com in the DNS namespace). */
void
test_name_based_examples()
{
	uint8_t		ns[uuid_len];
	uint8_t		u[uuid_len];
	static const uint8_t v5[uuid_len] = {
		0x2e, 0xd6, 0x65, 0x7d, 0xe9, 0x27, 0x56, 0x8b, 0x95, 0xe1, 0x26, 0x65, 0xa8, 0xae, 0xa6, 0xa2
	};
	static const uint8_t v3[uuid_len] = {
		0x5d, 0xf4, 0x18, 0x81, 0x3a, 0xed, 0x35, 0x15, 0x88, 0xa7, 0x2f, 0x4a, 0x81, 0x4c, 0xf0, 0x9e
	};

	CHECK(parse_namespace("@dns", 4, ns));
	name_based(5, ns, "www.example.com", 15, u);
	CHECK(std::memcmp(u, v5, uuid_len) == 0);
	name_based(3, ns, "www.example.com", 15, u);
	CHECK(std::memcmp(u, v3, uuid_len) == 0);
	CHECK(!parse_namespace("@dn", 3, ns));
}

}							// namespace

int
main()
{
	test_fips_examples();
	test_padding_boundaries();
	test_name_based_examples();
	return check::finish("sha1");
}
