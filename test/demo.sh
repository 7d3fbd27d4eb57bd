#!/usr/bin/env bash
# Set up, build, install, and show locality_uuid at work on a throw-away cluster.
# Usage (as root, from the repository): bash test/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash test/setup-debian.sh
export PG_CONFIG=${PG_CONFIG:-pg_config}
make -s -j2 >/dev/null
make -s install >/dev/null
MAJOR=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')

# pg_virtualenv (postgresql-common) makes a cluster as postgres, runs the command, drops it.
runuser -u postgres -- pg_virtualenv -v "$MAJOR" \
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -e -f - <test/demo.sql
echo "demo: done; the throw-away cluster is dropped."
