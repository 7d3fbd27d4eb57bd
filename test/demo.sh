#!/usr/bin/env bash
# Set up, build, install, and show locality_uuid at work on a throw-away cluster.
# Usage (as root, from the repository): bash test/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash test/setup-debian.sh
export PG_CONFIG=${PG_CONFIG:-pg_config}
make -s -j2 >/dev/null
make -s install >/dev/null

. test/cluster.sh
PORT=${DEMO_PORT:-55399}
cluster_start demo "$PORT"
DIR=$CLUSTER_DIR
trap 'cluster_stop "$DIR"' EXIT

cluster_psql "$DIR" "$PORT" -d postgres -e -f test/demo.sql
echo "demo: done; the throw-away cluster under $DIR is stopped."
