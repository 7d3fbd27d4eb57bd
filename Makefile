# locality_uuid: PGXS build of the C++17 core and its PostgreSQL glue.

EXTENSION = locality_uuid
MODULE_big = locality_uuid
# The 1.0 install script and the update scripts, in order; CREATE EXTENSION of the default version
# runs one script built from them (below), ALTER EXTENSION UPDATE runs them.
SCRIPT_CHAIN = locality_uuid--1.0.sql locality_uuid--1.0--1.1.sql locality_uuid--1.1--1.2.sql locality_uuid--1.2--1.3.sql locality_uuid--1.3--1.4.sql locality_uuid--1.4--1.5.sql
DATA = $(SCRIPT_CHAIN)
EXT_VERSION := $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" locality_uuid.control)
DATA_built = $(EXTENSION)--$(EXT_VERSION).sql
PGFILEDESC = "locality_uuid - UUIDs with chosen B-tree and shard locality"

CORE_SRCS = src/core/locality_b.cpp src/core/blocks.cpp src/core/hot.cpp src/core/state.cpp src/core/v7.cpp src/core/facade.cpp
GLUE_SRCS = src/pg/module.cpp src/pg/settings.cpp src/pg/environment.cpp src/pg/values.cpp src/pg/errors.cpp \
	src/pg/sequences.cpp src/pg/state.cpp src/pg/locality_b.cpp src/pg/blocks.cpp src/pg/hot.cpp src/pg/identity.cpp \
	src/pg/v7.cpp src/pg/facade.cpp src/pg/made.cpp
# What both the module and the command-line tool read from the system (no PostgreSQL in it).
OS_SRCS = src/os/mac.cpp
OBJS = $(CORE_SRCS:.cpp=.o) $(OS_SRCS:.cpp=.o) $(GLUE_SRCS:.cpp=.o)

REGRESS = locality_b_layout locality_b_extract locality_b labels guc locality_b_errors blocks blocks_compat blocks_errors blocks_interval blocks_advice \
	hot hot_recipes hot_errors badinput parallel state identity settings_parser v7_extension v7 partitioning facade time_ranges
REGRESS_OPTS = --inputdir=. --load-extension=$(EXTENSION)

# TAP tests on PostgreSQL::Test::Cluster: everything that needs clusters of its own.
# `make installcheck` runs them after the regression suite; run it as a user initdb accepts.
TAP_TESTS = 1
PROVE_TESTS = $(sort $(wildcard test/t/*.pl))

# The flags shared with the tool (cxx.mk); the module adds no thread-safe statics (no C++ runtime)
# and hidden symbols: it exports only what PG_FUNCTION_INFO_V1, PG_MODULE_MAGIC and PGDLLEXPORT
# mark (the SQL entry points and their pg_finfo_ records, Pg_magic_func, _PG_init; src/pg/glue.hpp).
# PostgreSQL's headers are system headers to us.
include cxx.mk
PG_CXXFLAGS = $(LOCALITY_UUID_CXXFLAGS) -fno-threadsafe-statics -fvisibility=hidden -fvisibility-inlines-hidden
PG_CPPFLAGS = -isystem $(shell $(PG_CONFIG) --includedir-server)

# PGXS would compile .cpp to JIT bitcode without our flags; the functions are too small
# to gain from inlining into JIT-compiled expressions.
override with_llvm = no

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# The install script of the default version: a check that only CREATE EXTENSION runs, then the
# chain as it is (src/pg/install_script.sh).
$(EXTENSION)--$(EXT_VERSION).sql: src/pg/install_script.sh src/pg/install_prologue.sql $(SCRIPT_CHAIN) $(EXTENSION).control
	sh src/pg/install_script.sh $(EXT_VERSION) src/pg/install_prologue.sql $(SCRIPT_CHAIN) > $@.tmp && mv $@.tmp $@

# After PGXS, which sets it empty: TAP tests share helpers from test/t.
# `override +=` keeps it when the command line sets PROVE_FLAGS (pg_buildext installcheck does).
override PROVE_FLAGS += -I test/t

# The portable SQL edition (portable/): a step of its own after `make installcheck`, so that a
# failure in one suite never hides the other. The regression tests again, on a database where the
# SQL file is installed instead of the extension. Expected output is the C suite's, except the
# files in test/portable/expected (behaviour SQL cannot match; see docs/portable.md).
PORTABLE_REGRESS = portable_setup locality_b_layout locality_b_extract locality_b locality_b_errors \
	blocks blocks_compat blocks_errors hot hot_recipes hot_errors badinput settings_parser v7 portable_labels portable_generators \
	portable_v7 portable_explicit facade portable_made
PORTABLE_DIR = test/out/portable
# pg_regress reads expected files from --inputdir up to 15, from --expecteddir (default .) since 16.
PORTABLE_EXPECTED = $(if $(filter-out 15,$(MAJORVERSION)),--expecteddir=$(PORTABLE_DIR))

# The shipped file is assembled from portable/src/ (plain SQL, one file per format); it stays
# committed so that `psql -f` is the install. portable-check fails when it differs from its sources.
PORTABLE_SQL = portable/locality_uuid_portable.sql
PORTABLE_SRCS = portable/assemble.sh $(wildcard portable/src/*.sql portable/src/*.psql)

.PHONY: portable portable-check installcheck-portable
portable: $(PORTABLE_SQL)

$(PORTABLE_SQL): $(PORTABLE_SRCS)
	sh portable/assemble.sh > $@.tmp && mv $@.tmp $@

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
CORE_DEPS = $(CORE_SRCS) $(wildcard src/core/*.hpp) test/core/check.hpp

test/core/%_test: test/core/%_test.cpp $(CORE_DEPS)
	$(CXX) $(CORE_TEST_CXXFLAGS) -O2 -o $@ $< $(CORE_SRCS)

test/core/%_test_san: test/core/%_test.cpp $(CORE_DEPS)
	$(CXX) $(CORE_TEST_CXXFLAGS) -O1 $(SANITIZE) -o $@ $< $(CORE_SRCS)

.PHONY: core-test-bin core-test
core-test-bin: $(CORE_TESTS) $(addsuffix _san,$(CORE_TESTS))

core-test: core-test-bin
	@for t in $(CORE_TESTS) $(addsuffix _san,$(CORE_TESTS)); do echo "# $$t"; $$t || exit 1; done

EXTRA_CLEAN = $(CORE_TESTS) $(addsuffix _san,$(CORE_TESTS)) results regression.diffs regression.out

# The SQL entry points of each src/pg/*.cpp in the order the scripts declare them, each under
# its SQL signature (no server needed).
.PHONY: entry-order-check
entry-order-check:
	perl test/check_entry_order.pl

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
# ASan/UBSan. `make fuzz` splits FUZZ_SECONDS among the targets and fails on any finding;
# `make fuzz-soak` is the long run (FUZZ_SOAK_SECONDS). Corpora grow in test/out/fuzz/.
FUZZ_CXX ?= clang++-14
FUZZ_SECONDS ?= 24
FUZZ_SOAK_SECONDS ?= 3600
FUZZ_TARGETS = $(patsubst %.cpp,%,$(wildcard test/fuzz/*_fuzz.cpp))
FUZZ_CXXFLAGS = -std=c++17 -fno-exceptions -fno-rtti -g -O1 -Isrc \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

test/fuzz/%_fuzz: test/fuzz/%_fuzz.cpp test/fuzz/require.hpp $(CORE_DEPS)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -o $@ $< $(CORE_SRCS)

.PHONY: fuzz-bin fuzz fuzz-soak
fuzz-bin: $(FUZZ_TARGETS)

fuzz: fuzz-bin
	@bash test/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-soak: fuzz-bin
	@bash test/fuzz/run.sh $(FUZZ_SOAK_SECONDS) $(FUZZ_TARGETS)

EXTRA_CLEAN += $(FUZZ_TARGETS)

# The command-line tool, locality-uuid.
include cli.mk
