// The command-line tool's standard input, line by line: line ends, the length limit, a byte-order mark.
#pragma once

#include <cstddef>
#include <cstdint>

namespace locality_uuid
{

/*
 * Lines of standard input. A line ends at \n, \r\n or \r (exact: at \n only) and holds at most
 * line_max bytes; a longer line is reported once (too_long) and skipped, and reading goes on
 * with the next. Unless exact, a UTF-8 byte-order mark that starts the first line is dropped,
 * spaces and tabs around a line are trimmed, and empty lines are skipped.
 */
class LineReader
{
  public:
	enum class Got
	{
		line,
		too_long,
		end,
		failed /* read(2) failed: errno says why */
	};

	explicit LineReader(bool exact)
		: exact_(exact) {}

	// Read the next line (a pointer into the reader's buffer, valid until the next call).
	Got next(const char **line, std::size_t *len);

	// Return the number of the line last returned, counting from 1.
	uint64_t
	number() const
	{
		return number_;
	}

  private:
	bool        refill();
	std::size_t find_end() const;
	bool        take(std::size_t end, const char **line, std::size_t *len);

	bool        exact_;
	bool        eof_ = false;
	bool        failed_ = false;
	bool        skipping_ = false; /* in the rest of a line that was too long */
	bool        after_cr_ = false; /* the last line ended in \r: a \n next belongs to it */
	uint64_t    number_ = 0;
	std::size_t start_ = 0;
	std::size_t have_ = 0;
};

} // namespace locality_uuid
