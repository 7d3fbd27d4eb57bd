#!/usr/bin/env bash
# Build Citus once per PostgreSQL major from its source release, cache the installed files, install them.
#
# Usage, as root, where the PostgreSQL to test is, before the TAP suite (test/t/150_citus.pl
# skips without citus.so). Inside a chroot, with the source copied somewhere inside it:
#
#   bash test/citus.sh --vendor DIR [--cache DIR] [PG_CONFIG]
#   e.g. chroot_exec $C "cd /build && bash test/citus.sh --vendor /vendor /usr/lib/postgresql/18/bin/pg_config"
#
# or from the host, outside any chroot_exec of that chroot (it takes the chroot's lock): the
# script copies the source and itself into the chroot and runs there.
#
#   bash test/citus.sh --chroot DIR --vendor DIR [--cache DIR] [PG_CONFIG]
#   e.g. bash test/citus.sh --chroot $C --vendor "$VENDOR" /usr/lib/postgresql/18/bin/pg_config
#
# DIR of --vendor (or LOCALITY_UUID_VENDOR) holds citus-14.0.1.tar.gz and SHA256SUMS; the tarball
# must match its line there. The first run for a major builds (a few minutes on 2 cores) with
# `make install DESTDIR=...` and keeps the result as one tar in the cache (--cache, or
# LOCALITY_UUID_CITUS_CACHE, default /var/cache/locality_uuid/citus; inside a chroot that is the
# chroot's own /var/cache); later runs only unpack it. Build dependencies missing on Debian are
# installed with apt-get. Without the source, or for a major Citus 14 does not support (only 16 to
# 18), it prints a line starting with "skip" and exits 0. Any other failure exits 1.
set -euo pipefail

CITUS_VERSION=14.0.1
CITUS_MAJORS="16 17 18"
CITUS_DEPS="libcurl4-openssl-dev liblz4-dev libzstd-dev libssl-dev libicu-dev libkrb5-dev"

vendor=${LOCALITY_UUID_VENDOR:-}
cache=${LOCALITY_UUID_CITUS_CACHE:-/var/cache/locality_uuid/citus}
chroot_dir=""
pg_config=pg_config

while [ $# -gt 0 ]; do
	case $1 in
	--vendor) vendor=$2; shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--chroot) chroot_dir=$2; shift 2 ;;
	-h | --help) sed -n '2,22p' "$0"; exit 0 ;;
	-*) echo "citus.sh: unknown option $1" >&2; exit 1 ;;
	*) pg_config=$1; shift ;;
	esac
done

tarball=citus-$CITUS_VERSION.tar.gz
if [ -z "$vendor" ] || [ ! -f "$vendor/$tarball" ]; then
	echo "skip citus: no $tarball (give --vendor DIR or LOCALITY_UUID_VENDOR)"
	exit 0
fi
vendor=$(cd "$vendor" && pwd)

# verify: the tarball must match its line in SHA256SUMS.
expected=$(awk -v f="$tarball" '$2 == f || $2 == "*" f { print $1 }' "$vendor/SHA256SUMS" 2>/dev/null || true)
if [ -z "$expected" ]; then
	echo "citus.sh: no line for $tarball in $vendor/SHA256SUMS" >&2
	exit 1
fi
actual=$(sha256sum "$vendor/$tarball" | awk '{ print $1 }')
if [ "$actual" != "$expected" ]; then
	echo "citus.sh: $vendor/$tarball does not match SHA256SUMS ($actual, expected $expected)" >&2
	exit 1
fi

# From the host: copy the source and this script into the chroot and run there.
if [ -n "$chroot_dir" ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	stage=$chroot_dir/tmp/locality_uuid-citus
	rm -rf "$stage"
	mkdir -p "$stage/vendor"
	cp "$vendor/$tarball" "$vendor/SHA256SUMS" "$stage/vendor/"
	cp "$0" "$stage/citus.sh"
	# shellcheck source=test/chroot.sh
	. "$here/chroot.sh"
	rc=0
	chroot_exec "$chroot_dir" "bash /tmp/locality_uuid-citus/citus.sh --vendor /tmp/locality_uuid-citus/vendor \
		--cache '$cache' '$pg_config'" || rc=$?
	rm -rf "$stage"
	exit $rc
fi

if ! command -v "$pg_config" >/dev/null 2>&1; then
	echo "citus.sh: no pg_config at $pg_config" >&2
	exit 1
fi
major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
case " $CITUS_MAJORS " in
*" $major "*) ;;
*)
	echo "skip citus: Citus $CITUS_VERSION does not support PostgreSQL $major (only $CITUS_MAJORS)"
	exit 0
	;;
esac

pkglibdir=$("$pg_config" --pkglibdir)
cached=$cache/citus-$CITUS_VERSION-pg$major-${actual:0:12}.tar

if [ ! -f "$cached" ]; then
	missing=""
	if command -v dpkg-query >/dev/null 2>&1; then
		for p in $CITUS_DEPS; do
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
		done
		if [ -n "$missing" ]; then
			echo "citus: installing build dependencies:$missing"
			apt-get update -qq
			# shellcheck disable=SC2086
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
		fi
	fi

	work=$(mktemp -d /tmp/citus-build.XXXXXX)
	trap 'rm -rf "$work"' EXIT
	echo "citus: building $CITUS_VERSION for PostgreSQL $major (log: $work/build.log until done)"
	tar -C "$work" -xzf "$vendor/$tarball"
	src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
	start=$(date +%s)
	# No JIT bitcode (with_llvm=no): the tests do not need it and it doubles the build time.
	if ! (cd "$src" && ./configure PG_CONFIG="$pg_config" && make -j"$(nproc)" with_llvm=no &&
		make install with_llvm=no DESTDIR="$work/root") >"$work/build.log" 2>&1; then
		tail -40 "$work/build.log" >&2
		echo "citus.sh: building Citus $CITUS_VERSION for PostgreSQL $major failed" >&2
		exit 1
	fi
	mkdir -p "$cache"
	tar -C "$work/root" -cf "$cached.new" .
	mv "$cached.new" "$cached"
	echo "citus: built in $(($(date +%s) - start)) s, cached as $cached"
fi

tar -C / --no-overwrite-dir -xf "$cached"
if [ ! -f "$pkglibdir/citus.so" ]; then
	echo "citus.sh: $cached did not install $pkglibdir/citus.so" >&2
	exit 1
fi
echo "citus: $CITUS_VERSION installed for PostgreSQL $major from $cached"
