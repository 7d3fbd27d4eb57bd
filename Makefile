# locality_uuid: PGXS build of the C++17 core and its PostgreSQL glue.

EXTENSION = locality_uuid
MODULE_big = locality_uuid
DATA = locality_uuid--1.0.sql
PGFILEDESC = "locality_uuid - UUIDs with chosen B-tree and shard locality"

CORE_SRCS = src/core/locality_b.cpp
GLUE_SRCS = src/module.cpp src/locality_b.cpp
OBJS = $(CORE_SRCS:.cpp=.o) $(GLUE_SRCS:.cpp=.o)

REGRESS = layout extract generate labels guc errors
REGRESS_OPTS = --inputdir=. --load-extension=$(EXTENSION)

# The core has no exceptions and no RTTI, so nothing can throw across ereport's longjmp
# and the module needs no C++ runtime. PostgreSQL's headers are system headers to us.
PG_CXXFLAGS = -std=c++17 -fno-exceptions -fno-rtti -fno-threadsafe-statics -Wall -Wextra
PG_CPPFLAGS = -isystem $(shell $(PG_CONFIG) --includedir-server)

# PGXS would compile .cpp to JIT bitcode without our flags; the functions are too small
# to gain from inlining into JIT-compiled expressions.
override with_llvm = no

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# Core unit tests: the core alone, no PostgreSQL, plain and under ASan/UBSan.
CORE_TEST_CXXFLAGS = -std=c++17 -fno-exceptions -fno-rtti -Wall -Wextra -Werror -g -Isrc
SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

test/core/core_test: test/core/core_test.cpp test/core/check.hpp $(CORE_SRCS) $(wildcard src/core/*.hpp)
	$(CXX) $(CORE_TEST_CXXFLAGS) -O2 -o $@ test/core/core_test.cpp $(CORE_SRCS)

test/core/core_test_san: test/core/core_test.cpp test/core/check.hpp $(CORE_SRCS) $(wildcard src/core/*.hpp)
	$(CXX) $(CORE_TEST_CXXFLAGS) -O1 $(SANITIZE) -o $@ test/core/core_test.cpp $(CORE_SRCS)

.PHONY: core-test
core-test: test/core/core_test test/core/core_test_san
	test/core/core_test
	test/core/core_test_san

EXTRA_CLEAN = test/core/core_test test/core/core_test_san results regression.diffs regression.out
