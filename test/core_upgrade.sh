#!/usr/bin/env bash
# PostgreSQL 17 beside 18 with the extension built for both, then the TAP tests that need both
# majors: 210 (core's names, dump/restore and pg_upgrade from 17 to 18, ids read across the two)
# and 211 (ids read by Python's uuid module and the npm uuid package). Logs: test/out/core-upgrade.
# Usage (as root, in the sid chroot, from a copy of the tree; test/matrix.sh runs it on 18):
#   PG_CONFIG=/usr/lib/postgresql/18/bin/pg_config bash test/core_upgrade.sh
# 17 comes from trixie (its release dates not checked: an archive may look expired against this
# machine's clock), built in a copy of the tree and uninstalled at the end, so that make
# installcheck on 18 skips 210 rather than running it twice.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=/usr/lib/postgresql/17
echo "deb $(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list) trixie main" >/etc/apt/sources.list.d/trixie.list
echo 'Acquire::Check-Valid-Until "false";' >/etc/apt/apt.conf.d/99trixie-valid-until
bash test/setup-debian.sh --target-release=trixie postgresql-17 postgresql-server-dev-17
bash test/setup-debian.sh python3 nodejs node-uuid

stage=$(mktemp -d /tmp/locality_uuid-17.XXXXXX)
trap 'make -s -C "$stage" uninstall PG_CONFIG=$OLD/bin/pg_config; rm -rf "$stage"' EXIT
tar --exclude=./.git --exclude=./test/out -cf - . | tar -C "$stage" -xf -
make -s -C "$stage" clean PG_CONFIG=$OLD/bin/pg_config
make -s -j2 -C "$stage" install PG_CONFIG=$OLD/bin/pg_config

rc=0
LOCALITY_UUID_OLD_INSTALL=$OLD bash test/installcheck.sh REGRESS= PROVE_FLAGS=-v \
	PROVE_TESTS="test/t/210_core_names.pl test/t/211_interop.pl" || rc=$?
rm -rf test/out/core-upgrade && mv test/out/installcheck test/out/core-upgrade
exit $rc
