// The command-line tool's text: parsing ids, times, lengths and numbers; formatting times; buffered output.
#include "text.hpp"

#include <cerrno>
#include <cstring>
#include <strings.h>
#include <unistd.h>

namespace locality_uuid
{

namespace
{

constexpr int64_t seconds_per_day = 86400;

/* Times the tool reads: 0001-01-01 00:00:00 to 99999-12-31 23:59:59 UTC, in Unix seconds. */
constexpr int64_t time_seconds_min = INT64_C(-62135596800);
constexpr int64_t time_seconds_max = INT64_C(3093527980799);
constexpr char    time_range_error[] = "time out of range (years 1 to 99999)";

bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

// Return the days of a month of a proleptic Gregorian year.
int
days_in_month(int64_t year, int month)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool             leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return month == 2 && leap ? 29 : days[month - 1];
}

// Read exactly n digits at *p as a number, advancing *p; false if there are fewer.
bool
read_digits(const char **p, int n, int64_t *out)
{
	int64_t v = 0;

	for (int i = 0; i < n; i++)
	{
		if (!is_digit((*p)[i]))
			return false;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return true;
}

// Read "." and 1 to 6 digits at *p as microseconds, if there; false for 7 or more digits.
bool
read_fraction(const char **p, int64_t *us)
{
	*us = 0;
	if (**p != '.')
		return true;
	(*p)++;

	int n = 0;

	while (is_digit((*p)[n]))
		n++;
	if (n == 0 || n > 6)
		return false;

	int64_t v = 0;

	for (int i = 0; i < 6; i++)
		v = v * 10 + (i < n ? (*p)[i] - '0' : 0);
	*p += n;
	*us = v;
	return true;
}

} // namespace

bool
parse_uuid(const char *text, std::size_t len, uint8_t out[uuid_len])
{
	const char *p = text;
	const char *end = text + len;
	bool        braces = false;

	if (len >= 9 && (*p == 'u' || *p == 'U') && strncasecmp(p, "urn:uuid:", 9) == 0)
		p += 9;
	if (p < end && *p == '{')
	{
		braces = true;
		p++;
	}
	for (std::size_t i = 0; i < uuid_len; i++)
	{
		if (end - p < 2)
			return false;

		int hi = hex_value(p[0]);
		int lo = hex_value(p[1]);

		if (hi < 0 || lo < 0)
			return false;
		out[i] = static_cast<uint8_t>(hi * 16 + lo);
		p += 2;
		/* As PostgreSQL: a hyphen may follow any group of four digits but the last. */
		if (p < end && *p == '-' && i % 2 == 1 && i < uuid_len - 1)
			p++;
	}
	if (braces)
	{
		if (p == end || *p != '}')
			return false;
		p++;
	}
	return p == end;
}

void
format_uuid(const uint8_t u[uuid_len], char out[36])
{
	static const char digits[] = "0123456789abcdef";
	char             *p = out;

	for (std::size_t i = 0; i < uuid_len; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		*p++ = digits[u[i] >> 4];
		*p++ = digits[u[i] & 0xf];
	}
}

namespace
{

// Read "@SECONDS[.FRACTION]" (Unix time, may be negative) after the '@' at p.
bool
parse_unix_time(const char *p, int64_t *unix_us, const char **error)
{
	bool    negative = *p == '-';
	int64_t seconds = 0;
	int64_t us;

	if (negative)
		p++;
	if (!is_digit(*p))
		return false;
	for (; is_digit(*p); p++)
	{
		if (seconds > time_seconds_max)
		{
			*error = time_range_error;
			return false;
		}
		seconds = seconds * 10 + (*p - '0');
	}
	if (!read_fraction(&p, &us))
	{
		*error = "at most 6 fraction digits (microseconds)";
		return false;
	}
	if (*p != '\0')
		return false;
	if (negative ? -seconds < time_seconds_min : seconds > time_seconds_max)
	{
		*error = time_range_error;
		return false;
	}
	*unix_us = negative ? -(seconds * usecs_per_sec + us) : seconds * usecs_per_sec + us;
	return true;
}

// Read a zone at *p (" Z", "UTC", "+HH", "+HHMM", "+HH:MM", or none) as seconds east of UTC.
bool
parse_zone(const char **p, int64_t *offset_seconds, const char **error)
{
	*offset_seconds = 0;
	if (**p == ' ')
		(*p)++;
	if (**p == 'Z' || **p == 'z')
		(*p)++;
	else if (std::strcmp(*p, "UTC") == 0)
		*p += 3;
	else if (**p == '+' || **p == '-')
	{
		int     sign = *(*p)++ == '-' ? -1 : 1;
		int64_t oh,
			om = 0;

		if (!read_digits(p, 2, &oh))
			return false;
		if (**p == ':')
			(*p)++;
		if (is_digit(**p) && !read_digits(p, 2, &om))
			return false;
		if (oh > 15 || om > 59)
		{
			*error = "time zone offset out of range";
			return false;
		}
		*offset_seconds = sign * (oh * 3600 + om * 60);
	}
	return true;
}

/* The fields of "YYYY-MM-DD[THH:MM[:SS[.FRACTION]]]". */
struct DateTime
{
	int64_t year;
	int64_t month;
	int64_t day;
	int64_t hour = 0;
	int64_t minute = 0;
	int64_t second = 0;
	int64_t us = 0;
};

// Read "YYYY-MM-DD[(T| )HH:MM[:SS[.FRACTION]]]" at *p into d (fields not checked yet).
bool
read_date_time(const char **p, DateTime *d, const char **error)
{
	int year_digits = 0;

	while (is_digit((*p)[year_digits]))
		year_digits++;
	if (year_digits < 4 || year_digits > 5)
		return false;
	read_digits(p, year_digits, &d->year);
	if (*(*p)++ != '-' || !read_digits(p, 2, &d->month) || *(*p)++ != '-' || !read_digits(p, 2, &d->day))
		return false;
	if (**p != 'T' && **p != 't' && **p != ' ')
		return true;
	(*p)++;
	if (!read_digits(p, 2, &d->hour) || *(*p)++ != ':' || !read_digits(p, 2, &d->minute))
		return false;
	if (**p != ':')
		return true;
	(*p)++;
	if (!read_digits(p, 2, &d->second))
		return false;
	if (!read_fraction(p, &d->us))
	{
		*error = "at most 6 fraction digits (microseconds)";
		return false;
	}
	return true;
}

// Read "YYYY-MM-DD[(T| )HH:MM[:SS[.FRACTION]]][ZONE]" as Unix microseconds.
bool
parse_date_time(const char *p, int64_t *unix_us, const char **error)
{
	DateTime d;
	int64_t  offset_seconds;

	if (!read_date_time(&p, &d, error) || !parse_zone(&p, &offset_seconds, error) || *p != '\0')
		return false;
	if (d.month < 1 || d.month > 12 || d.day < 1 || d.day > days_in_month(d.year, static_cast<int>(d.month)) ||
		d.hour > 23 || d.minute > 59 || d.second > 59)
	{
		*error = "date or time field out of range";
		return false;
	}

	int64_t seconds = days_from_civil(d.year, static_cast<int>(d.month), static_cast<int>(d.day)) * seconds_per_day +
		d.hour * 3600 + d.minute * 60 + d.second - offset_seconds;

	if (seconds < time_seconds_min || seconds > time_seconds_max)
	{
		*error = time_range_error;
		return false;
	}
	*unix_us = seconds * usecs_per_sec + d.us;
	return true;
}

} // namespace

bool
parse_time(const char *text, int64_t now_us, int64_t *unix_us, const char **error)
{
	*error = "expected YYYY-MM-DD[THH:MM[:SS[.FFFFFF]]][Z|+HH:MM], @UNIX_SECONDS or now";
	if (std::strcmp(text, "now") == 0)
	{
		*unix_us = now_us;
		return true;
	}
	if (*text == '@')
		return parse_unix_time(text + 1, unix_us, error);
	return parse_date_time(text, unix_us, error);
}

namespace
{

// Read a unit of length (none: seconds) as microseconds; false if text is none of them.
bool
read_unit(const char *text, int64_t *unit)
{
	static const struct
	{
		const char *name;
		int64_t     us;
	} units[] = {
		{"", usecs_per_sec},
		{"us", 1},
		{"ms", 1000},
		{"s", usecs_per_sec},
		{"min", 60 * usecs_per_sec},
		{"h", 3600 * usecs_per_sec},
		{"d", seconds_per_day * usecs_per_sec},
	};

	for (const auto &u : units)
		if (std::strcmp(text, u.name) == 0)
		{
			*unit = u.us;
			return true;
		}
	return false;
}

} // namespace

bool
parse_length(const char *text, int64_t *us, const char **error)
{
	const char *p = text;
	int64_t     whole = 0;
	int64_t     frac = 0;
	int64_t     frac_scale = 1;

	*error = "expected a number and a unit (us, ms, s, min, h, d), such as 250ms; a number alone is seconds";
	if (!is_digit(*p))
		return false;
	for (; is_digit(*p); p++)
	{
		if (whole > INT64_C(100000000000))
			return false;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.')
	{
		p++;
		if (!is_digit(*p))
			return false;
		for (; is_digit(*p); p++)
		{
			if (frac_scale >= INT64_C(1000000))
				return false;
			frac = frac * 10 + (*p - '0');
			frac_scale *= 10;
		}
	}
	if (*p == ' ')
		p++;

	int64_t unit;

	if (!read_unit(p, &unit))
		return false;
	if (whole > INT64_MAX / unit / 2 || (frac * unit) % frac_scale != 0)
	{
		*error = whole > INT64_MAX / unit / 2 ? "length out of range" : "length is not a whole number of microseconds";
		return false;
	}
	*us = whole * unit + frac * unit / frac_scale;
	return true;
}

bool
parse_integer(const char *text, int64_t lo, int64_t hi, int64_t *out)
{
	const char *p = text;
	bool        negative = *p == '-';
	uint64_t    v = 0;

	if (negative)
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
	{
		p += 2;
		if (*p == '\0')
			return false;
		for (; *p != '\0'; p++)
		{
			int d = hex_value(*p);

			if (d < 0 || v > (UINT64_MAX >> 4))
				return false;
			v = v * 16 + static_cast<uint64_t>(d);
		}
	}
	else
	{
		if (*p == '\0')
			return false;
		for (; *p != '\0'; p++)
		{
			if (!is_digit(*p) || v > UINT64_MAX / 10)
				return false;
			v = v * 10 + static_cast<uint64_t>(*p - '0');
		}
	}
	if (v > static_cast<uint64_t>(INT64_MAX))
		return false;

	int64_t s = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);

	if (s < lo || s > hi)
		return false;
	*out = s;
	return true;
}

bool
parse_hex_bytes(const char *text, uint8_t *out, std::size_t len)
{
	if (std::strlen(text) != 2 * len)
		return false;
	for (std::size_t i = 0; i < len; i++)
	{
		int hi = hex_value(text[2 * i]);
		int lo = hex_value(text[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		out[i] = static_cast<uint8_t>(hi * 16 + lo);
	}
	return true;
}

void
Output::put_long(const char *s, std::size_t n)
{
	flush();
	if (n <= sizeof(buf_))
		put(s, n);
	else
		for (std::size_t i = 0; i < n; i++)
			put(s[i]);
}

void
Output::put_decimal(uint64_t v)
{
	char digits[20];
	int  n = 20;

	do
	{
		digits[--n] = static_cast<char>('0' + v % 10);
		v /= 10;
	} while (v != 0);
	put(digits + n, static_cast<std::size_t>(20 - n));
}

void
Output::put_signed(int64_t v)
{
	if (v < 0)
	{
		put('-');
		put_decimal(static_cast<uint64_t>(0) - static_cast<uint64_t>(v));
	}
	else
		put_decimal(static_cast<uint64_t>(v));
}

void
Output::put_hex(uint64_t v, int digits)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = digits - 1; i >= 0; i--)
		put(hex[(v >> (4 * i)) & 0xf]);
}

void
Output::put_hex_bytes(const uint8_t *p, std::size_t len)
{
	for (std::size_t i = 0; i < len; i++)
		put_hex(p[i], 2);
}

void
Output::put_uuid(const uint8_t u[uuid_len])
{
	char text[36];

	format_uuid(u, text);
	put(text, sizeof(text));
}

void
Output::put_json_string(const char *s, std::size_t n)
{
	put('"');
	for (std::size_t i = 0; i < n; i++)
	{
		unsigned char c = static_cast<unsigned char>(s[i]);

		if (c == '"' || c == '\\')
		{
			put('\\');
			put(static_cast<char>(c));
		}
		else if (c < 0x20)
		{
			put("\\u00");
			put_hex(c, 2);
		}
		else
			put(static_cast<char>(c));
	}
	put('"');
}

// Write v (0 or more) as exactly width digits, width at most 20.
static void
put_fixed(Output &out, int64_t v, int width)
{
	char digits[20];

	for (int i = width - 1; i >= 0; i--)
	{
		digits[i] = static_cast<char>('0' + v % 10);
		v /= 10;
	}
	out.put(digits, static_cast<std::size_t>(width));
}

void
Output::put_time(int64_t unix_us, int frac_digits, bool iso)
{
	int64_t seconds = floor_div(unix_us, usecs_per_sec);
	int64_t us = unix_us - seconds * usecs_per_sec;
	int64_t days = floor_div(seconds, seconds_per_day);
	int64_t second_of_day = seconds - days * seconds_per_day;
	int64_t year;
	int     month;
	int     day;

	civil_from_days(days, &year, &month, &day);
	if (year < 0)
	{
		put('-');
		year = -year;
	}
	int year_digits = 4;

	for (int64_t y = year; y > 9999; y /= 10)
		year_digits++;
	put_fixed(*this, year, year_digits);
	put('-');
	put_fixed(*this, month, 2);
	put('-');
	put_fixed(*this, day, 2);
	put(iso ? 'T' : ' ');
	put_fixed(*this, second_of_day / 3600, 2);
	put(':');
	put_fixed(*this, second_of_day / 60 % 60, 2);
	put(':');
	put_fixed(*this, second_of_day % 60, 2);
	if (frac_digits > 0)
	{
		int64_t frac = us;

		for (int i = frac_digits; i < 6; i++)
			frac /= 10;
		put('.');
		put_fixed(*this, frac, frac_digits);
	}
	if (iso)
		put('Z');
	else
		put(" UTC");
}

bool
Output::flush()
{
	std::size_t done = 0;

	while (ok_ && done < len_)
	{
		ssize_t n = write(fd_, buf_ + done, len_ - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
		{
			error_ = n < 0 ? errno : EIO;
			ok_ = false;
			break;
		}
		done += static_cast<std::size_t>(n);
	}
	len_ = 0;
	return ok_;
}

} // namespace locality_uuid
