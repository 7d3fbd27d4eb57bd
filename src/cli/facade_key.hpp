// The tool's keyed façades: --facade-key HEX and --facade-key-file FILE, façades of the version 7 ids it makes, and the ids of façades it explains.
#pragma once

#include "core/facade.hpp"
#include "explain.hpp"
#include "text.hpp"

#include <string>

namespace locality_uuid
{

// The key the command line gave, if any.
struct FacadeOption
{
	bool      set = false;
	FacadeKey key = {0, 0};
};

// True if the option (name without dashes) is --facade-key or --facade-key-file; both take a value.
bool is_facade_option(const std::string &name);

// Read the key of --facade-key (32 hex digits) or --facade-key-file (a file holding them, then
// at most white space); false with *error set, which never quotes the key or the file's text.
bool apply_facade_option(const std::string &name, const char *value, FacadeOption *f,
						 std::string *error);

// Write the façade of a version 7 id made with --v7 in place, when a key was given.
void facade_of_made(const FacadeOption &f, uint8_t id[uuid_len]);

// Explain an id; with a key, a façade (version 4 of RFC 9562's variant) as the version 7 id it stands for.
void explain_with_facade(const uint8_t id[uuid_len], const FacadeOption &f, const ExplainOptions &opts,
						 Output &out);

} // namespace locality_uuid
