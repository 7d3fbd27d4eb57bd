// The tool's keyed façades: reading the key, façades of made ids, version 7 ids of explained façades.
#include "facade_key.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace locality_uuid
{

bool
is_facade_option(const std::string &name)
{
	return name == "facade-key" || name == "facade-key-file";
}

// Read the key from the file at path: 32 hex digits, then nothing but white space.
static bool
read_key_file(const char *path, FacadeKey *key, std::string *error)
{
	std::FILE  *f = std::fopen(path, "r");
	char        buf[facade_key_hex_len + 64];
	std::size_t len;

	if (f == nullptr)
	{
		*error = std::string("--facade-key-file: cannot read ") + path + ": " + std::strerror(errno);
		return false;
	}
	len = std::fread(buf, 1, sizeof(buf), f);
	bool failed = std::ferror(f) != 0;

	std::fclose(f);
	if (failed)
	{
		*error = std::string("--facade-key-file: cannot read ") + path;
		return false;
	}
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		len--;
	if (!parse_facade_key(buf, len, key))
	{
		*error = std::string("--facade-key-file: ") + path +
			" must hold the key as 32 hexadecimal digits (a final newline allowed); its text is not shown";
		return false;
	}
	return true;
}

bool
apply_facade_option(const std::string &name, const char *value, FacadeOption *f, std::string *error)
{
	if (f->set)
	{
		*error = "give one --facade-key or --facade-key-file";
		return false;
	}
	if (name == "facade-key-file")
		f->set = read_key_file(value, &f->key, error);
	else if (!(f->set = parse_facade_key(value, std::strlen(value), &f->key)))
		*error = "--facade-key: the key is 32 hexadecimal digits, the 16 bytes k0 then k1, each "
				 "little-endian (the value is not shown)";
	return f->set;
}

void
facade_of_made(const FacadeOption &f, uint8_t id[uuid_len])
{
	if (f.set)
		to_facade(id, f.key, id);
}

void
explain_with_facade(const uint8_t id[uuid_len], const FacadeOption &f, const ExplainOptions &opts, Output &out)
{
	uint8_t v7[uuid_len];

	if (!f.set || !from_facade(id, f.key, v7))
	{
		explain(id, opts, out);
		return;
	}

	ExplainOptions with = opts;

	with.facade = id;
	explain(v7, with, out);
}

} // namespace locality_uuid
