// The command-line tool's text: parsing ids, times, lengths and numbers; formatting times; buffered output.
#pragma once

#include "core/blocks.hpp"

#include <cstring>
#include <string>

namespace locality_uuid
{

// Read a uuid as PostgreSQL's uuid input does (32 hex digits, a hyphen allowed after any four,
// optional braces), also after "urn:uuid:"; false if text is not one.
bool parse_uuid(const char *text, std::size_t len, uint8_t out[uuid_len]);

// Write the 36 characters of the uuid's text form (no terminator).
void format_uuid(const uint8_t u[uuid_len], char out[36]);

/*
 * Read a time as Unix microseconds: "now"; "@SECONDS[.FRACTION]" (Unix time, may be negative);
 * or "YYYY-MM-DD[(T| )HH:MM[:SS[.FRACTION]]][ZONE]" with a year of 4 or 5 digits, at most 6
 * fraction digits, and ZONE "Z", "UTC", "+HH", "+HHMM" or "+HH:MM" (or "-"); no zone means UTC.
 * Times from the year 1 to 99999 only. now_us is what "now" stands for. On failure, *error says why.
 */
bool parse_time(const char *text, int64_t now_us, int64_t *unix_us, const char **error);

// Read a length of time as microseconds: a number (seconds) or a number and a unit (us, ms, s,
// min, h, d), with at most 6 fraction digits if the length is whole microseconds; false otherwise.
bool parse_length(const char *text, int64_t *us, const char **error);

// Read a decimal (or 0x-prefixed hexadecimal) integer from lo to hi; false otherwise.
bool parse_integer(const char *text, int64_t lo, int64_t hi, int64_t *out);

// Read 2 * len hex digits as len bytes; false otherwise.
bool parse_hex_bytes(const char *text, uint8_t *out, std::size_t len);

/*
 * Buffered output to a file descriptor, with the few formatters the tool needs. Nothing is
 * formatted through stdio, so a million ids cost a million small appends.
 */
class Output
{
  public:
	explicit Output(int fd, bool line_buffered = false)
		: fd_(fd), line_buffered_(line_buffered) {}
	~Output() { flush(); }

	void
	put(char c)
	{
		if (len_ == sizeof(buf_))
			flush();
		buf_[len_++] = c;
	}
	void
	put(const char *s, std::size_t n)
	{
		if (n <= sizeof(buf_) - len_)
		{
			std::memcpy(buf_ + len_, s, n);
			len_ += n;
		}
		else
			put_long(s, n);
	}

	// Write a string literal: its length is known where it is written.
	template<std::size_t N>
	void
	put(const char (&s)[N])
	{
		put(s, N - 1);
	}

	// Write a NUL-terminated string.
	void
	put_str(const char *s)
	{
		put(s, std::strlen(s));
	}

	// Write v in decimal.
	void put_decimal(uint64_t v);
	void put_signed(int64_t v);

	// Write v as exactly digits lowercase hex digits.
	void put_hex(uint64_t v, int digits);

	// Write len bytes as lowercase hex.
	void put_hex_bytes(const uint8_t *p, std::size_t len);

	// Write the uuid's text form.
	void put_uuid(const uint8_t u[uuid_len]);

	// Write text as a JSON string, quotes included.
	void put_json_string(const char *s, std::size_t n);

	/*
	 * Write Unix microseconds as a UTC time with frac_digits (0, 3 or 6) fraction digits
	 * (truncated): "YYYY-MM-DD HH:MM:SS.fff UTC", or with iso "YYYY-MM-DDTHH:MM:SS.fffZ".
	 */
	void put_time(int64_t unix_us, int frac_digits, bool iso);

	// End a line: with line buffering, write it out at once.
	void
	end_line()
	{
		put('\n');
		if (line_buffered_)
			flush();
	}

	// Write the buffer out; false once any write has failed (and nothing is written after that).
	bool flush();
	bool
	ok() const
	{
		return ok_;
	}

	// Return the errno of the write that failed.
	int
	error() const
	{
		return error_;
	}

  private:
	void put_long(const char *s, std::size_t n);

	int         fd_;
	bool        line_buffered_;
	bool        ok_ = true;
	int         error_ = 0;
	std::size_t len_ = 0;
	char        buf_[1 << 16];
};

} // namespace locality_uuid
