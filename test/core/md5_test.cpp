// Unit tests of the command-line tool's MD5: the RFC 1321 test suite, every padding boundary, and the digests docs/format.md cites.
#include "cli/md5.hpp"
#include "check.hpp"

using namespace locality_uuid;

namespace
{

// Check the digest of len bytes of text against 32 hex digits.
void
check_digest(const char *text, std::size_t len, const char *hex, const char *what)
{
	uint8_t		digest[digest_len];
	char		got[2 * digest_len + 1];

	CHECK(md5_digest(text, len, digest));
	for (std::size_t i = 0; i < digest_len; i++)
		std::snprintf(got + 2 * i, 3, "%02x", digest[i]);
	check::report(std::strcmp(got, hex) == 0, what, __FILE__, __LINE__);
	if (std::strcmp(got, hex) != 0)
		std::printf("#   got %s, want %s\n", got, hex);
}

/* RFC 1321, appendix A.5. */
void
test_rfc1321_suite()
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
	};

	for (const auto &v : suite)
		check_digest(v.text, std::strlen(v.text), v.hex, v.hex);
}

/* Lengths around the padding boundaries (56 and 64 mod 64), of the byte 'x'; digests from md5sum. */
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
	};
	char		text[120];

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

}							// namespace

int
main()
{
	test_rfc1321_suite();
	test_padding_boundaries();
	test_format_digests();
	return check::finish("md5");
}
