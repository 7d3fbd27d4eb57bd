// The command-line tool's standard input, line by line: line ends, the length limit, a byte-order mark.
#include "input.hpp"

#include "options.hpp"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace locality_uuid
{

namespace
{

/* One line and its end fit; a line that does not is too long. */
char buf[line_max + 1];

constexpr char bom[] = "\xef\xbb\xbf";

} // namespace

// Read more of standard input behind what is kept; false once reading failed.
bool
LineReader::refill()
{
	std::memmove(buf, buf + start_, have_ - start_);
	have_ -= start_;
	start_ = 0;
	for (;;)
	{
		ssize_t n = read(STDIN_FILENO, buf + have_, sizeof(buf) - have_);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return !(failed_ = true);
		eof_ = n == 0;
		have_ += static_cast<std::size_t>(n);
		return true;
	}
}

// Return the offset of the next line end after start_, or have_ if there is none in the buffer.
std::size_t
LineReader::find_end() const
{
	std::size_t n = have_ - start_;
	const char *nl = static_cast<const char *>(std::memchr(buf + start_, '\n', n));
	const char *cr = exact_ ? nullptr : static_cast<const char *>(std::memchr(buf + start_, '\r', nl != nullptr ? static_cast<std::size_t>(nl - (buf + start_)) : n));
	const char *end = cr != nullptr ? cr : nl;

	return end != nullptr ? static_cast<std::size_t>(end - buf) : have_;
}

// Hand out the line from start_ to end (trimmed unless exact); false for an empty line to skip.
bool
LineReader::take(std::size_t end, const char **line, std::size_t *len)
{
	std::size_t b = start_;
	std::size_t e = end;

	after_cr_ = end < have_ && buf[end] == '\r';
	start_ = end < have_ ? end + 1 : end;
	if (skipping_)
		return skipping_ = false;
	number_++;
	if (!exact_)
	{
		if (number_ == 1 && e - b >= 3 && std::memcmp(buf + b, bom, 3) == 0)
			b += 3;
		while (b < e && (buf[b] == ' ' || buf[b] == '\t'))
			b++;
		while (e > b && (buf[e - 1] == ' ' || buf[e - 1] == '\t'))
			e--;
	}
	*line = buf + b;
	*len = e - b;
	return exact_ || e > b;
}

LineReader::Got
LineReader::next(const char **line, std::size_t *len)
{
	for (;;)
	{
		if (failed_)
			return Got::failed;
		if (after_cr_ && start_ < have_)
		{
			after_cr_ = false;
			start_ += buf[start_] == '\n';
		}
		if (after_cr_ && !eof_)
		{
			refill();
			continue;
		}

		std::size_t end = find_end();

		if (end < have_ || (eof_ && start_ < have_))
		{
			if (take(end, line, len))
				return Got::line;
			continue;
		}
		if (eof_)
			return Got::end;
		if (start_ == 0 && have_ == sizeof(buf))
		{
			/* A line too long: counted once, reported, and its rest skipped up to its end. */
			start_ = have_;
			if (skipping_)
				continue;
			skipping_ = true;
			number_++;
			return Got::too_long;
		}
		refill();
	}
}

} // namespace locality_uuid
