#!/usr/bin/env bash
# Install the Debian packages named, or without names what building and testing locality_uuid
# needs on Debian 12, when missing (idempotent; as root). Leading options go to apt-get install.
# Usage: bash test/setup-debian.sh [--target-release=SUITE] [PACKAGE...]
set -euo pipefail
opts=()
while [[ ${1:-} == -* ]]; do opts+=("$1"); shift; done
[ $# -gt 0 ] || set -- make g++ git postgresql-15 postgresql-server-dev-15 postgresql-contrib \
	clang-14 libclang-rt-14-dev libfuzzer-14-dev clang-format gnuplot-nox libipc-run-perl faketime python3 uuid-runtime
missing=()
for p; do
	dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${opts[@]}" "${missing[@]}" >/dev/null
