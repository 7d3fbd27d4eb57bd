#!/usr/bin/env bash
# Install Citus for a PostgreSQL major (16 to 18), built once from its source release and cached,
# for test/t/150_citus.pl (which skips without it).
# Usage (as root, where that PostgreSQL is, e.g. in a chroot): bash test/citus.sh [--vendor DIR] [PG_CONFIG]
#
# DIR (or LOCALITY_UUID_VENDOR) holds citus-14.0.1.tar.gz and SHA256SUMS, which it must match.
# The first run for a major builds it (a few minutes on 2 cores) and keeps the installed files as
# one tar in LOCALITY_UUID_CITUS_CACHE (default /var/cache/locality_uuid/citus); later runs only
# unpack that. Without the source, or for a major Citus does not support, it prints a line
# starting with "skip" and exits 0; any other failure exits 1.
set -euo pipefail
version=14.0.1
vendor=${LOCALITY_UUID_VENDOR:-}
[ "${1:-}" != --vendor ] || { vendor=$2; shift 2; }
pg_config=${1:-pg_config}
tarball=$vendor/citus-$version.tar.gz
if [ -z "$vendor" ] || [ ! -f "$tarball" ]; then
	echo "skip citus: no citus-$version.tar.gz (give --vendor DIR or LOCALITY_UUID_VENDOR)"
	exit 0
fi
grep -E " \*?citus-$version.tar.gz$" "$vendor/SHA256SUMS" | (cd "$vendor" && sha256sum --check --strict) ||
	{ echo "citus.sh: $tarball does not match its line in $vendor/SHA256SUMS" >&2; exit 1; }
major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
case $major in
16 | 17 | 18) ;;
*) echo "skip citus: Citus $version does not support PostgreSQL $major (only 16 to 18)"; exit 0 ;;
esac
sum=$(sha256sum "$tarball")
cached=${LOCALITY_UUID_CITUS_CACHE:-/var/cache/locality_uuid/citus}/citus-$version-pg$major-${sum:0:12}.tar

if [ ! -f "$cached" ]; then
	bash "$(dirname "$0")/setup-debian.sh" libcurl4-openssl-dev liblz4-dev libzstd-dev libssl-dev libicu-dev libkrb5-dev
	work=$(mktemp -d /tmp/citus-build.XXXXXX)
	trap 'rm -rf "$work"' EXIT
	echo "citus: building $version for PostgreSQL $major"
	mkdir "$work/src" && tar -C "$work/src" --strip-components=1 -xzf "$tarball"
	# No JIT bitcode (with_llvm=no): the test does not need it and it doubles the build time.
	(cd "$work/src" && ./configure PG_CONFIG="$pg_config" && make -j"$(nproc)" with_llvm=no &&
		make install with_llvm=no DESTDIR="$work/root") >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
	mkdir -p "$(dirname "$cached")" && tar -C "$work/root" -cf "$cached.new" . && mv "$cached.new" "$cached"
fi
tar -C / --no-overwrite-dir -xf "$cached"
test -f "$("$pg_config" --pkglibdir)/citus.so"
echo "citus: $version installed for PostgreSQL $major from $cached"
