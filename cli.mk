# locality-uuid, the command-line tool: built from src/core and src/cli alone, no PostgreSQL.
# The Makefile includes this file, so `make` builds the tool beside the module and `make install`
# puts it in PostgreSQL's bindir (its manual page in PostgreSQL's mandir); WITH_CLI=no leaves it
# out. On its own, `make -f cli.mk` and `make -f cli.mk install` need no PostgreSQL at all and
# install into /usr/local (bindir, mandir and DESTDIR as usual).

CLI = locality-uuid
CLI_MAN = man/locality-uuid.1
CLI_SRCS = $(wildcard src/cli/*.cpp) $(wildcard src/core/*.cpp) $(wildcard src/os/*.cpp)
CLI_HDRS = $(wildcard src/cli/*.hpp) $(wildcard src/core/*.hpp) $(wildcard src/os/*.hpp)

# The one version source: default_version in the control file.
CLI_VERSION := $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" locality_uuid.control)

# Optimisation and hardening; the Debian build passes dpkg-buildflags' instead.
CLI_CXXFLAGS ?= -O2 -g -fstack-protector-strong -Wformat -Werror=format-security
CLI_CPPFLAGS ?= -D_FORTIFY_SOURCE=2
CLI_LDFLAGS ?= -Wl,-z,relro -Wl,-z,now
# The C++ flags shared with the module (cxx.mk), which the Makefile has read when it includes this file.
ifndef LOCALITY_UUID_CXXFLAGS
include cxx.mk
endif
CLI_FLAGS = $(LOCALITY_UUID_CXXFLAGS) -DLOCALITY_UUID_VERSION='"$(CLI_VERSION)"'

# Standalone defaults; PGXS has set both when the Makefile includes this file.
bindir ?= /usr/local/bin
mandir ?= /usr/local/share/man

$(CLI): $(CLI_SRCS) $(CLI_HDRS) locality_uuid.control
	$(CXX) $(CLI_FLAGS) $(CLI_CPPFLAGS) $(CLI_CXXFLAGS) $(CLI_LDFLAGS) -o $@ $(CLI_SRCS)

.PHONY: install-cli uninstall-cli clean-cli
install-cli: $(CLI)
	install -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(mandir)/man1'
	install -m 755 $(CLI) '$(DESTDIR)$(bindir)/$(CLI)'
	install -m 644 $(CLI_MAN) '$(DESTDIR)$(mandir)/man1/'

uninstall-cli:
	rm -f '$(DESTDIR)$(bindir)/$(CLI)' '$(DESTDIR)$(mandir)/man1/$(notdir $(CLI_MAN))'

clean-cli:
	rm -f $(CLI)

ifneq ($(WITH_CLI),no)
all: $(CLI)
install: install-cli
uninstall: uninstall-cli
endif
clean: clean-cli

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
