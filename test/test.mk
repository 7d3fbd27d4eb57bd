# The tests' rules, included by the Makefile after PGXS and cli.mk: the portable suite, the core
# unit tests (the digest test links the tool's digests), fuzzing, the entry-order and layout checks.
# Lists are derived: a new test file needs no edit here.

# After PGXS, which sets it empty: TAP tests share helpers from test/t.
# `override +=` keeps it when the command line sets PROVE_FLAGS (pg_buildext installcheck does).
override PROVE_FLAGS += -I test/t

# The portable SQL edition (portable/): a step of its own after `make installcheck`, so that a
# failure in one suite never hides the other. The regression tests again, on a database where the
# SQL file is installed instead of the extension. Expected output is the C suite's, except the
# files in test/portable/expected (behaviour SQL cannot match; see docs/portable.md).
# Its tests: portable_setup (the install) first, then in name order every file of sql/ but those
# whose first line says "C edition only", and test/portable/sql/.
PORTABLE_REGRESS = portable_setup $(filter-out portable_setup,$(sort $(basename $(notdir \
	$(shell grep -L -m1 '^-- C edition only' sql/*.sql) $(wildcard test/portable/sql/*.sql)))))
PORTABLE_DIR = test/out/portable
# pg_regress reads expected files from --inputdir up to 15, from --expecteddir (default .) since 16.
PORTABLE_EXPECTED = $(if $(filter-out 15,$(MAJORVERSION)),--expecteddir=$(PORTABLE_DIR))

.PHONY: portable-check installcheck-portable
portable-check:
	@sh portable/assemble.sh | cmp -s - $(PORTABLE_SQL) \
		|| { echo "$(PORTABLE_SQL) differs from portable/src/: run make portable"; exit 1; }

installcheck-portable: portable-check
	rm -rf $(PORTABLE_DIR) && mkdir -p $(PORTABLE_DIR)/sql $(PORTABLE_DIR)/expected
	cp sql/*.sql test/portable/sql/*.sql $(PORTABLE_DIR)/sql/
	cp expected/*.out $(PORTABLE_DIR)/expected/
	cp test/portable/expected/*.out $(PORTABLE_DIR)/expected/
	$(pg_regress_installcheck) --inputdir=$(PORTABLE_DIR) $(PORTABLE_EXPECTED) --outputdir=$(PORTABLE_DIR) \
		--dbname=portable_regression $(PORTABLE_REGRESS)

# PGXS tracks no header dependencies: rebuild every object when a header changes.
$(OBJS): $(wildcard src/pg/*.hpp src/core/*.hpp src/os/*.hpp)

# Core unit tests: one TAP binary per test/core/*_test.cpp, linked with the whole core,
# built plain and under ASan/UBSan. No PostgreSQL involved.
CORE_TESTS = $(patsubst %.cpp,%,$(wildcard test/core/*_test.cpp))
CORE_TEST_CXXFLAGS = $(LOCALITY_UUID_CXXFLAGS) -Werror -g
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CORE_HDRS = $(wildcard src/core/*.hpp)
# The core is compiled once for each kind of binary (plain, ASan/UBSan, libFuzzer), then linked
# into each test and fuzz target.
core_objs = $(patsubst src/core/%.cpp,$(1)/%.o,$(CORE_SRCS))
CORE_PLAIN_OBJS = $(call core_objs,test/core/obj/plain)
CORE_SAN_OBJS = $(call core_objs,test/core/obj/san)
CORE_FUZZ_OBJS = $(call core_objs,test/fuzz/obj)

test/core/obj/plain/%.o: src/core/%.cpp $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CXX) $(CORE_TEST_CXXFLAGS) -O2 -c -o $@ $<

test/core/obj/san/%.o: src/core/%.cpp $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CXX) $(CORE_TEST_CXXFLAGS) -O1 $(SANITIZE) -c -o $@ $<

test/core/%_test: test/core/%_test.cpp test/core/check.hpp $(CORE_HDRS) $(CORE_PLAIN_OBJS)
	$(CXX) $(CORE_TEST_CXXFLAGS) -O2 -o $@ $< $(CORE_PLAIN_OBJS)

test/core/%_test_san: test/core/%_test.cpp test/core/check.hpp $(CORE_HDRS) $(CORE_SAN_OBJS)
	$(CXX) $(CORE_TEST_CXXFLAGS) -O1 $(SANITIZE) -o $@ $< $(CORE_SAN_OBJS)

.PHONY: core-test-bin core-test
core-test-bin: $(CORE_TESTS) $(addsuffix _san,$(CORE_TESTS))

core-test: core-test-bin
	@for t in $(CORE_TESTS) $(addsuffix _san,$(CORE_TESTS)); do echo "# $$t"; $$t || exit 1; done

EXTRA_CLEAN = $(CORE_TESTS) $(addsuffix _san,$(CORE_TESTS)) test/core/obj results regression.diffs regression.out

# The SQL entry points of each src/pg/*.cpp in the order the scripts declare them, each under
# its SQL signature (no server needed).
.PHONY: entry-order-check
entry-order-check:
	perl test/check_entry_order.pl $(SCRIPT_CHAIN)

# The layout of src/ is .clang-format's: `make format` applies it, `make format-check` fails
# where a file differs (skipped, saying so, where clang-format is missing). Its output varies
# between versions of clang-format: the layout is Debian 12's (14), which run-tests.sh uses.
CLANG_FORMAT ?= clang-format
FORMAT_SRCS = $(sort $(wildcard src/*/*.cpp src/*/*.hpp))
.PHONY: format format-check
format:
	$(CLANG_FORMAT) -i $(FORMAT_SRCS)

format-check:
	@if ! command -v $(CLANG_FORMAT) >/dev/null; then \
		echo "format-check: skipped, $(CLANG_FORMAT) is missing (apt-get install clang-format)"; \
	else \
		$(CLANG_FORMAT) --version; \
		if out=$$($(CLANG_FORMAT) --dry-run --Werror $(FORMAT_SRCS) 2>&1); then \
			echo "format-check: $(words $(FORMAT_SRCS)) files as .clang-format lays them out"; \
		else \
			echo "$$out" | grep -o '^[^:]*:[0-9]*:[0-9]*: error' | cut -d: -f1 | uniq -c; \
			echo "format-check: lines laid out otherwise than .clang-format says, in the files above (make format)"; \
			exit 1; \
		fi; \
	fi

# Fuzzing: one libFuzzer binary per test/fuzz/*_fuzz.cpp, linked with the whole core under
# ASan/UBSan. `make fuzz` runs them two at a time for FUZZ_SECONDS in all, failing on any finding;
# `make fuzz-soak` is the long run (FUZZ_SOAK_SECONDS). Corpora grow in test/out/fuzz/.
FUZZ_CXX ?= clang++-14
FUZZ_SECONDS ?= 14
FUZZ_SOAK_SECONDS ?= 3600
FUZZ_TARGETS = $(patsubst %.cpp,%,$(wildcard test/fuzz/*_fuzz.cpp))
FUZZ_CXXFLAGS = $(LOCALITY_UUID_CXXFLAGS) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

test/fuzz/obj/%.o: src/core/%.cpp $(CORE_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -c -o $@ $<

test/fuzz/%_fuzz: test/fuzz/%_fuzz.cpp test/fuzz/require.hpp $(CORE_HDRS) $(CORE_FUZZ_OBJS)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -o $@ $< $(CORE_FUZZ_OBJS)

.PHONY: fuzz-bin fuzz fuzz-soak
fuzz-bin: $(FUZZ_TARGETS)

fuzz: fuzz-bin
	@bash test/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-soak: fuzz-bin
	@bash test/fuzz/run.sh $(FUZZ_SOAK_SECONDS) $(FUZZ_TARGETS)

EXTRA_CLEAN += $(FUZZ_TARGETS) test/fuzz/obj

# The digest unit test links the tool's MD5, SHA-1 and name-based ids (RFC 9562's examples); `make core-test` runs it.
DIGEST_TEST_SRCS = src/cli/sha1.cpp src/cli/md5.cpp src/cli/rfc.cpp src/cli/text.cpp
test/core/digest_test: test/core/digest_test.cpp $(DIGEST_TEST_SRCS) src/cli/md5.hpp src/cli/sha1.hpp src/cli/rfc.hpp test/core/check.hpp
	$(CXX) $(CORE_TEST_CXXFLAGS) -O2 -o $@ $< $(DIGEST_TEST_SRCS)

test/core/digest_test_san: test/core/digest_test.cpp $(DIGEST_TEST_SRCS) src/cli/md5.hpp src/cli/sha1.hpp src/cli/rfc.hpp test/core/check.hpp
	$(CXX) $(CORE_TEST_CXXFLAGS) -O1 $(SANITIZE) -o $@ $< $(DIGEST_TEST_SRCS)

# The fuzz target links the tool's sources but its main; `make fuzz` runs it with the others.
CLI_FUZZ_SRCS = $(filter-out src/cli/main.cpp,$(CLI_SRCS))
test/fuzz/cli_fuzz: test/fuzz/cli_fuzz.cpp test/fuzz/require.hpp $(CLI_FUZZ_SRCS) $(CLI_HDRS)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -o $@ $< $(CLI_FUZZ_SRCS)
