// Unit tests of the command-line tool's digests: MD5 (RFC 1321's suite), SHA-1 (FIPS 180's examples), every padding boundary of both, the digests docs/format.md cites and RFC 9562's name-based examples.
#include "cli/md5.hpp"
#include "cli/rfc.hpp"
#include "cli/sha1.hpp"
#include "check.hpp"

#include <string>

using namespace locality_uuid;

namespace
{

// Check the digest of len bytes of text against hex: MD5 when it has 32 digits, SHA-1 when 40.
void
check_digest(const char *text, std::size_t len, const char *hex, const char *what)
{
	uint8_t		digest[sha1_len];
	char		got[2 * sha1_len + 1];
	std::size_t n = std::strlen(hex) / 2;

	CHECK(n == digest_len || n == sha1_len);
	if (n == digest_len)
		CHECK(md5_digest(text, len, digest));
	else
		sha1_digest(text, len, digest);
	for (std::size_t i = 0; i < n; i++)
		std::snprintf(got + 2 * i, 3, "%02x", digest[i]);
	check::report(std::strcmp(got, hex) == 0, what, __FILE__, __LINE__);
	if (std::strcmp(got, hex) != 0)
		std::printf("#   got %s, want %s\n", got, hex);
}

/* RFC 1321, appendix A.5; FIPS 180 (NIST's "SHA1.pdf" and FIPS 180-2 appendix A) and the empty string. */
void
test_published_suites()
{
	static const struct
	{
		const char *text;
		const char *hex;
	}			suite[] = {
		{"", "d41d8cd98f00b204e9800998ecf8427e"},
		{"a", "0cc175b9c0f1b6a831c399e269772661"},
		{"abc", "900150983cd24fb0d6963f7d28e17f72"},
		{"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
		{"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		"d174ab98d277d9f5a5611c2c9f419d9f"},
		{"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
		"57edf4a22be3c955ac49da2e2107b67a"},
		{"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
		{"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
		{"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		"a49b2446a02c645bf419f995b67091253a04a259"},
	};
	std::string million(1000000, 'a');

	for (const auto &v : suite)
		check_digest(v.text, std::strlen(v.text), v.hex, v.hex);
	check_digest(million.data(), million.size(), "34aa973cd4c4daa4f61eeb2bdbad27316534016f", "a million a");
}

/* Lengths around the padding boundaries (56 and 64 mod 64), of the byte 'x'; digests from md5sum and sha1sum. */
void
test_padding_boundaries()
{
	static const struct
	{
		std::size_t len;
		const char *hex;
	}			lengths[] = {
		{55, "04364420e25c512fd958a70738aa8f72"},
		{56, "668a72d5ba17f08e62dabcafad6db14b"},
		{63, "7dc2ca208106a2f703567bdff99d8981"},
		{64, "c1bb4f81d892b2d57947682aeb252456"},
		{65, "1bc932052302d074bdec39795fe00cf6"},
		{119, "ab347a5f68c8a443cfcddc633f12c24f"},
		{120, "fb98667f98096de92620b64f46e1c5b5"},
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

/* docs/format.md: the seed of bucket 20121015185 (section 1) and the machine hash of db-eu-1 (section 3). */
void
test_format_digests()
{
	check_digest("20121015185", 11, "3f54b8012b0d421bcfecb6203b640d49", "bucket 20121015185");
	check_digest("db-eu-1", 7, "e765017a8108c712a6aba763076a4148", "machine name db-eu-1");
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
	test_published_suites();
	test_padding_boundaries();
	test_format_digests();
	test_name_based_examples();
	return check::finish("digest");
}
