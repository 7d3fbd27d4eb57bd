#!/usr/bin/env bash
# Install what building and testing locality_uuid needs on Debian 12 (idempotent; run as root).
set -euo pipefail

PACKAGES=(
	make g++ git
	postgresql-15 postgresql-server-dev-15 postgresql-contrib
	clang-14 libclang-rt-14-dev libfuzzer-14-dev
	gnuplot-nox
	libipc-run-perl faketime
)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian's postgresql package starts a default cluster; the tests never use it.
id postgres >/dev/null 2>&1 || { echo "setup: no postgres user" >&2; exit 1; }
