// Minimal TAP test harness for the core unit tests (no exceptions, no heap).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace check
{

inline int	passed = 0;
inline int	failed = 0;

// Record one assertion and print it as a TAP line.
inline void
report(bool ok, const char *what, const char *file, int line)
{
	if (ok)
		passed++;
	else
		failed++;
	std::printf("%s %d - %s\n", ok ? "ok" : "not ok", passed + failed, what);
	if (!ok)
		std::printf("#   at %s:%d\n", file, line);
}

// Sort n 16-byte ids in place (shell sort: no heap) and return how many equal their neighbour.
inline int
duplicate_ids(uint8_t (*ids)[16], int n)
{
	for (int gap = n / 2; gap > 0; gap /= 2)
		for (int i = gap; i < n; i++)
			for (int j = i; j >= gap && std::memcmp(ids[j - gap], ids[j], 16) > 0; j -= gap)
			{
				uint8_t		t[16];

				std::memcpy(t, ids[j], 16);
				std::memcpy(ids[j], ids[j - gap], 16);
				std::memcpy(ids[j - gap], t, 16);
			}

	int			dups = 0;

	for (int i = 1; i < n; i++)
		dups += std::memcmp(ids[i - 1], ids[i], 16) == 0;
	return dups;
}

// Format 16 bytes in PostgreSQL's uuid text form.
inline const char *
uuid_text(const uint8_t *u)
{
	static char buf[37];
	char	   *p = buf;

	for (int i = 0; i < 16; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		std::snprintf(p, 3, "%02x", u[i]);
		p += 2;
	}
	return buf;
}

// Print the plan line and the summary; return the process exit code.
inline int
finish(const char *suite)
{
	std::printf("1..%d\n# %s: %d passed, %d failed\n", passed + failed, suite, passed, failed);
	return failed == 0 ? 0 : 1;
}

}							// namespace check

#define CHECK(cond) check::report((cond), #cond, __FILE__, __LINE__)

#define CHECK_EQ(a, b) \
	do { \
		auto		check_a_ = (a); \
		auto		check_b_ = (b); \
		bool		check_ok_ = check_a_ == check_b_; \
		check::report(check_ok_, #a " == " #b, __FILE__, __LINE__); \
		if (!check_ok_) \
			std::printf("#   got %llx, want %llx\n", (unsigned long long) check_a_, \
						(unsigned long long) check_b_); \
	} while (0)

#define CHECK_UUID(bytes, text) \
	do { \
		const char *check_got_ = check::uuid_text(bytes); \
		bool		check_ok_ = std::strcmp(check_got_, (text)) == 0; \
		check::report(check_ok_, "uuid " text, __FILE__, __LINE__); \
		if (!check_ok_) \
			std::printf("#   got %s\n", check_got_); \
	} while (0)
