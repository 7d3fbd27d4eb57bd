#!/usr/bin/env bash
# Run `make installcheck` (LOCALITY_UUID_TARGET=installcheck-portable: the portable suite) against
# the installed extension, as $LOCALITY_UUID_TEST_USER (default postgres: initdb refuses root) on a
# copy of the tree that user owns, pg_regress on a throw-away server. Logs: test/out/TARGET.
# Usage (as root, from the repository): bash test/installcheck.sh [make arguments...]
set -uo pipefail
cd "$(dirname "$0")/.." || exit
TARGET=${LOCALITY_UUID_TARGET:-installcheck}
LOGS=$PWD/test/out/$TARGET
STAGE=$(mktemp -d /tmp/locality_uuid-installcheck.XXXXXX)
trap 'rm -rf "$STAGE"' EXIT

tar --exclude=./.git --exclude=./test/out -cf - . | tar -C "$STAGE" -xf -
chown -R "${LOCALITY_UUID_TEST_USER:-postgres}" "$STAGE"
runuser -u "${LOCALITY_UUID_TEST_USER:-postgres}" -- make -C "$STAGE" "$TARGET" \
	PG_CONFIG="${PG_CONFIG:-pg_config}" EXTRA_REGRESS_OPTS="--temp-instance=$STAGE/tmp_check_regress" "$@"
rc=$?
rm -rf "$LOGS" && mkdir -p "$LOGS"
for f in regression.diffs regression.out tmp_check test/out/portable/regression.diffs; do
	[ -e "$STAGE/$f" ] && cp -a "$STAGE/$f" "$LOGS/"
done
[ -d "$STAGE/tmp_check_regress/log" ] && cp -a "$STAGE/tmp_check_regress/log" "$LOGS/regress-server"
if [ $rc -ne 0 ] && [ -f "$LOGS/regression.diffs" ]; then
	echo "installcheck: regression.diffs (first 80 lines):"
	head -80 "$LOGS/regression.diffs"
fi
exit $rc
