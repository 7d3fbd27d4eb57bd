# shellcheck shell=bash
# A throw-away cluster of $PG_CONFIG's server for a benchmark script: sourced, not run. It runs as
# the caller, or as LOCALITY_UUID_TEST_USER (postgres) for root: as COMMAND... runs COMMAND as that
# user, psql_ DATABASE ARGS... runs psql on the cluster.
bin=$("${PG_CONFIG:-pg_config}" --bindir) || exit 1
user=$(id -un) && [ "$user" != root ] || user=${LOCALITY_UUID_TEST_USER:-postgres}
as() { if [ "$(id -un)" = "$user" ]; then "$@"; else runuser -u "$user" -- "$@"; fi; }
psql_() { as "$bin/psql" -X -q -h "$dir" -v ON_ERROR_STOP=1 -d "$@"; }
# cluster - | cluster [SETTING...]: initdb in $dir/data ($dir goes on exit); unless -, start the
# server with SETTINGs, on a socket in $dir only.
cluster() {
	dir=$(mktemp -d "/tmp/locality_uuid-$(basename "$0" .sh).XXXXXX") && chown "$user" "$dir" || exit 1
	trap 'as "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || :; rm -rf "$dir"' EXIT
	as "$bin/initdb" -D "$dir/data" -A trust --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; exit 1; }
	[ "${1:-}" = - ] || { printf '%s\n' "listen_addresses = ''" "unix_socket_directories = '$dir'" "$@" >>"$dir/data/postgresql.conf" &&
		as "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w start >/dev/null; } || { cat "$dir/log"; exit 1; }
}
