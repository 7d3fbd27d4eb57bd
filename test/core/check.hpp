// Minimal TAP test harness for the core unit tests (no exceptions, no heap).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

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

// Record that u reads as text.
inline void
uuid_is(const uint8_t *u, const char *text, const char *file, int line)
{
	char		what[64];
	const char *got = uuid_text(u);
	bool		ok = std::strcmp(got, text) == 0;

	std::snprintf(what, sizeof(what), "uuid %s", text);
	report(ok, what, file, line);
	if (!ok)
		std::printf("#   got %s\n", got);
}

// One row of a table of a function's values.
struct Row
{
	long long	in;
	long long	want;
};

// Record fn(in) == want for every row, one TAP line each, named "name(in) == want".
template<typename Fn, std::size_t N>
inline void
table(const char *name, Fn fn, const Row (&rows)[N], const char *file, int line)
{
	for (const Row &r : rows)
	{
		char		what[128];
		long long	got = static_cast<long long>(fn(r.in));

		std::snprintf(what, sizeof(what), "%s(%lld) == %lld", name, r.in, r.want);
		report(got == r.want, what, file, line);
		if (got != r.want)
			std::printf("#   got %lld\n", got);
	}
}

// One row of a table of a function that writes the id of a time: the id's text, or nullptr where it writes none.
struct IdRow
{
	long long	in;
	const char *want;
};

// Record, for every row, that fn(in, id) writes an id reading as want (a void fn always writes
// one; a bool fn returns whether it wrote one); one TAP line each, named "name(in) == want".
template<typename Fn, std::size_t N>
inline void
id_table(const char *name, Fn fn, const IdRow (&rows)[N], const char *file, int line)
{
	for (const IdRow &r : rows)
	{
		uint8_t		id[16];
		char		what[128];
		bool		made = true;

		if constexpr (std::is_void_v<decltype(fn(r.in, id))>)
			fn(r.in, id);
		else
			made = fn(r.in, id);

		const char *got = made ? uuid_text(id) : "none";
		const char *want = r.want ? r.want : "none";
		bool		ok = std::strcmp(got, want) == 0;

		std::snprintf(what, sizeof(what), "%s(%lld) == %s", name, r.in, want);
		report(ok, what, file, line);
		if (!ok)
			std::printf("#   got %s\n", got);
	}
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

#define CHECK_UUID(bytes, text) check::uuid_is((bytes), (text), __FILE__, __LINE__)
#define CHECK_TABLE(fn, ...) check::table(#fn, [](long long x) { return fn(x); }, __VA_ARGS__, __FILE__, __LINE__)
#define CHECK_IDS(fn, ...) \
	check::id_table(#fn, [](long long x, uint8_t *id) { return fn(x, id); }, __VA_ARGS__, __FILE__, __LINE__)
