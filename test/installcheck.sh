#!/usr/bin/env bash
# Run `make installcheck` (pg_regress, then the TAP tests) against the installed extension.
# Usage (as root, from the repository): bash test/installcheck.sh [make arguments...]
# LOCALITY_UUID_TARGET=installcheck-portable runs the portable edition's suite instead.
#
# initdb refuses root, so the suite runs as $LOCALITY_UUID_TEST_USER (default postgres) on a
# copy of the tree that user owns; pg_regress gets a throw-away cluster from pg_virtualenv
# (postgresql-common), the TAP tests start their own. Logs are copied back to test/out/TARGET.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PG_CONFIG=${PG_CONFIG:-pg_config}
RUN_AS=${LOCALITY_UUID_TEST_USER:-postgres}
MAJOR=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
TARGET=${LOCALITY_UUID_TARGET:-installcheck}
LOGS=$ROOT/test/out/$TARGET
STAGE=$(mktemp -d /tmp/locality_uuid-installcheck.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT

tar -C "$ROOT" --exclude=./.git --exclude=./test/out -cf - . | tar -C "$STAGE" -xf -
chown -R "$RUN_AS" "$STAGE"
runuser -u "$RUN_AS" -- env -C "$STAGE" PG_CONFIG="$PG_CONFIG" \
	pg_virtualenv -v "$MAJOR" sh -c 'make "$0" "$@" >make.log 2>&1' "$TARGET" PG_CONFIG="$PG_CONFIG" "$@"
rc=$?
# The outcome last, after whatever server log pg_virtualenv printed.
cat "$STAGE/make.log"

rm -rf "$LOGS"
mkdir -p "$LOGS"
for f in make.log regression.diffs regression.out tmp_check log test/out/portable/regression.diffs; do
	[ -e "$STAGE/$f" ] && cp -a "$STAGE/$f" "$LOGS/"
done
for f in "$STAGE/regression.diffs" "$STAGE/test/out/portable/regression.diffs"; do
	if [ $rc -ne 0 ] && [ -f "$f" ]; then
		echo "installcheck: ${f#"$STAGE"/} (first 80 lines):"
		head -80 "$f"
	fi
done
exit $rc
