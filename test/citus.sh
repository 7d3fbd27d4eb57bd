#!/usr/bin/env bash
# Install Citus for this PostgreSQL (16 to 18; PG_CONFIG picks it), for test/t/150_citus.pl (which
# skips without it), from citus-14.0.1.tar.gz in LOCALITY_UUID_VENDOR, which must match its line in
# SHA256SUMS there. The first run for a major builds it (a few minutes on 2 cores) and keeps the
# installed files as one tar in LOCALITY_UUID_CITUS_CACHE (default /var/cache/locality_uuid/citus);
# later runs unpack that. Without the source, or for another major, it says "skip ..." and exits 0.
# Usage (as root, where that PostgreSQL is, e.g. in a chroot): bash test/citus.sh
set -euo pipefail
version=14.0.1 vendor=${LOCALITY_UUID_VENDOR:-} pg_config=${PG_CONFIG:-pg_config}
tarball=$vendor/citus-$version.tar.gz
[ -n "$vendor" ] && [ -f "$tarball" ] || { echo "skip citus: no citus-$version.tar.gz in LOCALITY_UUID_VENDOR"; exit 0; }
grep -E " \*?citus-$version.tar.gz$" "$vendor/SHA256SUMS" | (cd "$vendor" && sha256sum --check --strict) ||
	{ echo "citus.sh: $tarball does not match its line in $vendor/SHA256SUMS" >&2; exit 1; }
major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
[[ $major == 1[678] ]] || { echo "skip citus: Citus $version does not support PostgreSQL $major (only 16 to 18)"; exit 0; }
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
