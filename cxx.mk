# The C++ flags of the module and the tool, written once: the Makefile and cli.mk include this file.
# No exceptions and no RTTI: nothing can throw across ereport's longjmp, and the module needs no
# C++ runtime. Includes name their directory under src/ ("core/hot.hpp", "os/mac.hpp").
LOCALITY_UUID_CXXFLAGS = -std=c++17 -fno-exceptions -fno-rtti -Wall -Wextra -Isrc
