#!/usr/bin/env bash
# Run one command in the Debian chroot of a PostgreSQL major (one test, or a benchmark, on a major
# this machine does not run), on a copy of this tree in /build/run-PID there (what chroot_copy_tree
# copies), as root with MAJOR, PG_CONFIG and LOCALITY_UUID_VENDOR (a copy of the host's) set. Its
# test/out and test/bench/out come back to test/out/chroot/MAJOR/out and .../bench. A `make install`
# there installs into the chroot's PostgreSQL, which the matrix uses too: not both on one major at
# once. LOCALITY_UUID_CHROOT_CGROUP=1 binds the host's /sys/fs/cgroup there (for past_memory.pl).
# Usage (as root, from the repository): bash test/in_chroot.sh MAJOR 'COMMAND'; exits with COMMAND's status.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
[ $# = 2 ] || { sed -n '8p' "$0" | cut -c3- >&2; exit 2; }
major=$1
. test/chroot.sh
dir=$(chroot_ensure "$major") || exit 1
run=/build/run-$$
trap 'rm -rf --one-file-system "${dir:?}$run"' EXIT
mkdir -p "$dir$run/src" && chroot_copy_tree "$dir$run/src" || exit 1
if [ -n "${LOCALITY_UUID_VENDOR:-}" ]; then cp -a "$LOCALITY_UUID_VENDOR" "$dir$run/vendor" || exit 1; fi
chroot_major_exec "$dir" "$major" "$run/src" "${LOCALITY_UUID_VENDOR:+$run/vendor}" "$2"
rc=$?
back=test/out/chroot/$major
rm -rf "$back" && mkdir -p "$back"
[ ! -d "$dir$run/src/test/out" ] || cp -a "$dir$run/src/test/out" "$back/out"
[ ! -d "$dir$run/src/test/bench/out" ] || cp -a "$dir$run/src/test/bench/out" "$back/bench"
exit $rc
