// RFC 9562's own kinds of uuid in the command-line tool: their names, versions 1 and 6 (time), 3 and 5 (names).
#include "rfc.hpp"

#include "md5.hpp"
#include "sha1.hpp"
#include "text.hpp"

#include <cstring>
#include <string>

namespace locality_uuid
{

namespace
{

/* RFC 9562, section 6.6: the namespaces by name, as 6ba7b81X-9dad-11d1-80b4-00c04fd430c8. */
const struct
{
	const char *name;
	uint8_t     fourth;
} namespaces[] = {{"@dns", 0x10}, {"@url", 0x11}, {"@oid", 0x12}, {"@x500", 0x14}};

constexpr uint8_t namespace_base[uuid_len] = {
	0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};

constexpr uint64_t timestamp_max = (UINT64_C(1) << 60) - 1;

} // namespace

bool
parse_namespace(const char *text, std::size_t len, uint8_t out[uuid_len])
{
	for (const auto &n : namespaces)
		if (len == std::strlen(n.name) && std::memcmp(text, n.name, len) == 0)
		{
			std::memcpy(out, namespace_base, uuid_len);
			out[3] = n.fourth;
			return true;
		}
	return parse_uuid(text, len, out);
}

void
name_based(int version, const uint8_t name_space[uuid_len], const char *name, std::size_t len,
		   uint8_t out[uuid_len])
{
	std::string text(reinterpret_cast<const char *>(name_space), uuid_len);
	uint8_t     digest[sha1_len];

	text.append(name, len);
	if (version == 3)
		md5_digest(text.data(), text.size(), digest);
	else
		sha1_digest(text.data(), text.size(), digest);
	std::memcpy(out, digest, uuid_len);
	set_rfc_version(out, static_cast<unsigned>(version));
}

void
TimeUuids::start(const uint8_t random[8])
{
	clock_seq_ = static_cast<uint16_t>(get_be(random, 2) & 0x3fff);
	std::memcpy(node_, random + 2, 6);
	node_[0] |= 0x01;
}

bool
TimeUuids::next(int version, int64_t unix_seconds, int64_t ns, uint8_t out[uuid_len])
{
	uint64_t t = static_cast<uint64_t>(unix_seconds * 10000000 + ns / 100 + gregorian_unix_offset);

	if (t <= last_)
		t = last_ + 1;
	if (t > timestamp_max)
		return false;
	last_ = t;
	if (version == 1)
	{
		put_be(out, t & 0xffffffff, 4);
		put_be(out + 4, (t >> 32) & 0xffff, 2);
		put_be(out + 6, t >> 48, 2);
	}
	else
	{
		put_be(out, t >> 28, 4);
		put_be(out + 4, (t >> 12) & 0xffff, 2);
		put_be(out + 6, t & 0x0fff, 2);
	}
	put_be(out + 8, clock_seq_, 2);
	std::memcpy(out + 10, node_, 6);
	set_rfc_version(out, static_cast<unsigned>(version));
	return true;
}

} // namespace locality_uuid
