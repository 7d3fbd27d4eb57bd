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
