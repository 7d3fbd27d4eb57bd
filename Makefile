# locality_uuid: PGXS build of the C++17 core and its PostgreSQL glue.

EXTENSION = locality_uuid
MODULE_big = locality_uuid
# The 1.0 install script, then the update scripts in version order (sort -V): CREATE EXTENSION of
# the default version runs one script built from them (below), ALTER EXTENSION UPDATE runs them.
SCRIPT_CHAIN = $(EXTENSION)--1.0.sql $(shell ls $(EXTENSION)--*--*.sql | sort -V)
DATA = $(SCRIPT_CHAIN)
EXT_VERSION := $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" locality_uuid.control)
DATA_built = $(EXTENSION)--$(EXT_VERSION).sql
PGFILEDESC = "locality_uuid - UUIDs with chosen B-tree and shard locality"

# Every source file of the core, the glue and what both the module and the command-line tool read
# from the system (src/os, no PostgreSQL in it).
CORE_SRCS = $(sort $(wildcard src/core/*.cpp))
GLUE_SRCS = $(sort $(wildcard src/pg/*.cpp))
OS_SRCS = $(sort $(wildcard src/os/*.cpp))
OBJS = $(CORE_SRCS:.cpp=.o) $(OS_SRCS:.cpp=.o) $(GLUE_SRCS:.cpp=.o)

# Every file of sql/, in name order, the locality version b files first: their checks of the
# bucket rule need a bucket in which no sequential id was made yet, and from 17 on the run is
# shared by every backend of the cluster (test/t/040_labels.pl takes the same order).
REGRESS_FILES = $(sort $(basename $(notdir $(wildcard sql/*.sql))))
REGRESS = $(filter locality_b%,$(REGRESS_FILES)) $(filter-out locality_b%,$(REGRESS_FILES))
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

# The install script of the default version: the checks that only CREATE EXTENSION runs (the
# names of PostgreSQL 18's functions, and of every function the chain creates: src/pg/name_check.sh),
# then the chain as it is (src/pg/install_script.sh).
$(EXTENSION)--$(EXT_VERSION).sql: src/pg/install_script.sh src/pg/install_prologue.sql src/pg/name_check.sh src/pg/name_check.sql $(SCRIPT_CHAIN) $(EXTENSION).control
	sh src/pg/install_script.sh $(EXT_VERSION) src/pg/install_prologue.sql $(SCRIPT_CHAIN) > $@.tmp && mv $@.tmp $@

# The shipped file is assembled from portable/src/ (plain SQL, one file per format); it stays
# committed so that `psql -f` is the install. portable-check fails when it differs from its sources.
PORTABLE_SQL = portable/locality_uuid_portable.sql
PORTABLE_SRCS = portable/assemble.sh $(wildcard portable/src/*.sql portable/src/*.psql)

.PHONY: portable
portable: $(PORTABLE_SQL)

$(PORTABLE_SQL): $(PORTABLE_SRCS)
	sh portable/assemble.sh > $@.tmp && mv $@.tmp $@

# The PGXN archive of the committed tree, locality_uuid-VERSION.zip with one top directory of the
# same name, after META.json passes test/check_meta.pl (PGXN Meta Spec 1.0.0, and the version is
# the control file's). It builds and installs with PGXS alone.
DIST_NAME = $(EXTENSION)-$(shell perl -MJSON::PP -0777 -ne 'print decode_json($$_)->{version}' META.json)

.PHONY: meta-check dist
meta-check:
	@perl test/check_meta.pl META.json

dist: meta-check
	@git diff --quiet HEAD -- || { echo "dist: the tree has changes that are not committed; the archive is made of HEAD"; exit 1; }
	git archive --format zip --prefix=$(DIST_NAME)/ -o $(DIST_NAME).zip HEAD
	@echo "dist: $(DIST_NAME).zip"

# The command-line tool, locality-uuid.
include cli.mk

# The tests' rules: test/test.mk.
include test/test.mk

EXTRA_CLEAN += $(DIST_NAME).zip
