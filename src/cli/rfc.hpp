// RFC 9562's own kinds of uuid the command-line tool makes: versions 1 and 6 (time), 3 and 5 (names).
#pragma once

#include "core/formats.hpp"

namespace locality_uuid
{

// Read a namespace: @dns, @url, @oid, @x500 (RFC 9562, section 6.6) or a uuid; false otherwise.
bool parse_namespace(const char *text, std::size_t len, uint8_t out[uuid_len]);

// Make the name-based uuid of version 3 (MD5) or 5 (SHA-1) of name in name_space.
void name_based(int version, const uint8_t name_space[uuid_len], const char *name, std::size_t len,
				uint8_t out[uuid_len]);

/*
 * Versions 1 and 6 of one run: a clock sequence and a node drawn at random when the run starts
 * (RFC 9562, 6.10: the multicast bit set, so the node is no MAC), and timestamps of 100 ns
 * that strictly increase within the run (one more than the last if the clock has not moved).
 */
class TimeUuids
{
  public:
	// Start a run from 8 random bytes: 2 for the clock sequence, 6 for the node.
	void start(const uint8_t random[8]);

	// Make the next id of version 1 or 6 at a clock reading; false past the year 5236.
	bool next(int version, int64_t unix_seconds, int64_t ns, uint8_t out[uuid_len]);

  private:
	uint16_t clock_seq_ = 0;
	uint8_t  node_[6] = {};
	uint64_t last_ = 0;
};

} // namespace locality_uuid
