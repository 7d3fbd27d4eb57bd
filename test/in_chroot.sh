#!/usr/bin/env bash
# Run one command in the Debian chroot of a PostgreSQL major, on a copy of this tree: one test,
# or a benchmark, on a major this machine does not run (test/matrix.sh runs the whole suite).
# Usage (as root, from the repository): bash test/in_chroot.sh MAJOR 'COMMAND'
#
# The files git tracks, and the untracked ones it does not ignore, go to a directory of this run's
# own in the chroot, /build/run-PID, which the matrix's /build and other runs never touch; COMMAND
# runs there as root with MAJOR, PG_CONFIG and LOCALITY_UUID_VENDOR (a copy of
# $LOCALITY_UUID_VENDOR beside the tree) set, one command in the chroot at a time. Its test/out
# and test/bench/out come back to test/out/chroot/MAJOR/out and .../bench, and the directory is
# removed. A `make install` there installs into the chroot's PostgreSQL, which the matrix uses
# too: do not run both on one major at once. LOCALITY_UUID_CHROOT_CGROUP=1 binds the host's
# /sys/fs/cgroup in the chroot (test/bench/past_memory.pl makes its memory cgroup there).
# Exit: COMMAND's.
set -uo pipefail
cd "$(dirname "$0")/.." || exit
[ $# = 2 ] || { sed -n '4p' "$0" | cut -c3- >&2; exit 2; }
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
