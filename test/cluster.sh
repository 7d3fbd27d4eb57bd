# Throw-away PostgreSQL clusters for tests: sourced, not run.
# Each cluster lives under /tmp, listens on a private port and unix socket, runs as postgres,
# and is stopped by its data directory.

PGBIN=${PGBIN:-$(${PG_CONFIG:-pg_config} --bindir)}
export PGUSER=postgres

# cluster_start NAME PORT [postgresql.conf lines...]: initdb and start; sets CLUSTER_DIR.
cluster_start() {
	local name=$1 port=$2
	shift 2
	CLUSTER_DIR=/tmp/locality_uuid_test.$name.$port
	cluster_stop "$CLUSTER_DIR" 2>/dev/null || true
	rm -rf "$CLUSTER_DIR"
	mkdir -p "$CLUSTER_DIR"
	chown postgres: "$CLUSTER_DIR"
	runuser -u postgres -- "$PGBIN/initdb" -D "$CLUSTER_DIR/data" -U postgres -A trust \
		--no-sync -E UTF8 --locale=C >"$CLUSTER_DIR/initdb.log" 2>&1 || {
		cat "$CLUSTER_DIR/initdb.log"
		return 1
	}
	{
		echo "port = $port"
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$CLUSTER_DIR'"
		echo "fsync = off"
		local line
		for line in "$@"; do echo "$line"; done
	} >>"$CLUSTER_DIR/data/postgresql.conf"
	runuser -u postgres -- "$PGBIN/pg_ctl" -D "$CLUSTER_DIR/data" -l "$CLUSTER_DIR/server.log" \
		-w -t 60 start >/dev/null || {
		tail -20 "$CLUSTER_DIR/server.log"
		return 1
	}
}

# cluster_stop DATADIR_PARENT: fast shutdown of the cluster under that directory.
cluster_stop() {
	local dir=$1
	[ -f "$dir/data/postmaster.pid" ] || return 0
	runuser -u postgres -- "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null
}

# cluster_psql DIR PORT args...: psql against that cluster, quiet, stop on error.
cluster_psql() {
	local dir=$1 port=$2
	shift 2
	"$PGBIN/psql" -h "$dir" -p "$port" -X -q -v ON_ERROR_STOP=1 "$@"
}
