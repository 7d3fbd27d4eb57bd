#!/usr/bin/env bash
# Benchmark locality_uuid against its peers: generation cost (one backend, then 1 and N pgbench
# clients), monotonicity, B-tree locality (bulk load, concurrent, and short sessions), plots.
# The portable SQL edition (portable/locality_uuid_portable.sql, in schema lu_sql of the same
# database) is measured in the same run: generation cost and the bulk and concurrent loads.
#
# Usage (as root, or as the user that owns the cluster directory): bash test/bench/run.sh [options]
#   --rows N            rows per generator in the bulk locality run (default 3000000)
#   --batch N           rows between CHECKPOINTs (default 100000)
#   --conc-rows N       rows inserted by pgbench in the concurrent run (default 200000; 0 skips it)
#   --clients N         pgbench clients (default 4); --jobs N pgbench threads (default 2)
#   --cost-calls N      calls per generation-cost measurement (default 1000000)
#   --cost-runs N       measurements per generator; the median is reported (default 7)
#   --cc-clients N      clients of the concurrent cost run (default 8; it also runs 1 client)
#   --cc-calls N        calls per client per concurrent cost measurement (default 200000; 0 skips)
#   --cc-runs N         measurements per generator and client count (default 3)
#   --mono-ids N        ids from one backend in the monotonicity check (default 1000000; 0 skips)
#   --short-rows N      rows per generator in the short-session load (default 1000000; 0 skips it)
#   --short-batch N     rows per connection in the short-session load (default 10000)
#   --short-checkpoint N  rows between CHECKPOINTs in the short-session load (default 100000)
#   --short-conc-rows N rows inserted by pgbench -C afterwards (default 100000; 0 skips)
#   --short-conc-per N  rows per connection (one transaction) of pgbench -C (default 100)
#   --seq-block N       block_size of the tuned uuid_sequence_nextval (default 256)
#   --time-interval I   interval of the tuned time generator: an interval ('250 ms') or whole
#                       seconds (default: locality_uuid_block_advice() for the sequential
#                       baseline's measured bulk-load rate)
#   --retention I       retention passed to locality_uuid_block_advice() (default '30 days')
#   --vendor DIR        directory with the peers' source tarballs and their SHA256SUMS (default:
#                       $LOCALITY_UUID_VENDOR); a peer whose source is absent is skipped
#   --only LIST         comma-separated generator names; the baselines always run
#   --no-portable       do not install or measure the portable SQL edition
#   --skip-cost         skip the generation-cost parts (one backend, concurrent, monotonicity)
#   --quick             smoke run: small sizes everywhere (see the script)
#   --port N            cluster port (default 55430; 55430 to 55439)
#   --no-build          do not build and install this extension (it must already be installed)
#   --publish DIR       also copy the CSV files and plots to DIR (e.g. docs/bench/pg15); the
#                       tables (results.md) go into docs/bench/README.md by hand
#   --setup-sql FILE    run FILE after CREATE EXTENSION (e.g. other implementations to compare)
#   --out DIR           output directory (default test/bench/out)
#   --preload WHEN      put locality_uuid in shared_preload_libraries: yes, no, or auto (default:
#                       yes below PostgreSQL 17, where the cluster-wide generator state needs it;
#                       17 and later keep it in the DSM registry without preloading)
#
# Generators (locality parts): seq_uuid, bigserial, gen_random_uuid (baselines); the peers
# uuidv7 (PostgreSQL's uuidv7() on 18 and later; on 15 to 17 it is this extension's, of kind
# ordered, named uuidv7() without a source in brackets), pg_uuidv7 (uuid_generate_v7() of the
# pg_uuidv7 extension), su_seq_block and su_time_block (uuid_sequence_nextval and
# uuid_time_nextval of the original sequential_uuids 1.0.3, in a database of their own since
# they have this extension's function names); and this extension's locality_variable,
# locality_sequential, hot_uuid, uuidv7_ordered, seq_block, seq_block_tuned, time_block,
# time_block_tuned, and time_block_paced: uuid_time_nextval(1) loaded at one batch per second,
# so that one interval holds one batch. The portable SQL edition's portable_sequential,
# portable_seq_block, portable_seq_block_tuned, portable_time_block and portable_time_block_tuned
# are the same calls in schema lu_sql (bulk and concurrent loads only: no short sessions). Its
# generators are slow (several microseconds a call), so their cost runs make 1/PORTABLE_DIV (10)
# as many calls in one backend and 1/PORTABLE_CC_DIV (4) as many a pgbench client.
#
# Peers: uuidv7() and uuidv4() are core's from PostgreSQL 18 (labelled "(PostgreSQL 18)"), this
# extension's on 15 to 17 (from version 1.3); each is measured where the server has it.
# pg_uuidv7 and sequential_uuids are used when installed for $PG_CONFIG; otherwise they are
# built from pg_uuidv7-1.6.0.tar.gz and sequential_uuids-1.0.3.tar.gz in the vendor directory,
# after checking each against the directory's SHA256SUMS, extracted under OUT/src and installed
# with $PG_CONFIG. A peer that cannot be had is skipped with a line that says why.
#
# It builds and installs the extension with $PG_CONFIG (default pg_config) unless --no-build,
# starts a throw-away cluster (shared_buffers 16 MB) in /tmp/locality_uuid_bench.PORT, stops it
# on exit, and writes into OUT: raw.csv (every measurement), cost.csv, cost_concurrent.csv,
# monotonic.csv, locality.csv, concurrent.csv, short.csv, short_concurrent.csv, targets.csv,
# results.md, *.png. It prints figures and ratios; it passes or fails nothing.
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH/../.." && pwd)
export PG_CONFIG=${PG_CONFIG:-pg_config}

ROWS=3000000 BATCH=100000 CONC_ROWS=200000 CLIENTS=4 JOBS=2
COST_CALLS=1000000 COST_RUNS=7 CC_CLIENTS=8 CC_CALLS=200000 CC_RUNS=3 MONO_IDS=1000000
SHORT_ROWS=1000000 SHORT_BATCH=10000 SHORT_CKPT=100000 SHORT_CONC_ROWS=100000 SHORT_CONC_PER=100
SEQ_BLOCK=256 TIME_INTERVAL= RETENTION='30 days' ONLY= SKIP_COST=0 PORTABLE=1
PORTABLE_DIV=10 PORTABLE_CC_DIV=4
PORT=55430 BUILD=1 PUBLISH= SETUP_SQL= OUT=$BENCH/out VENDOR=${LOCALITY_UUID_VENDOR:-} PRELOAD=auto
while [ $# -gt 0 ]; do
	case $1 in
	--rows) ROWS=$2; shift ;;
	--batch) BATCH=$2; shift ;;
	--conc-rows) CONC_ROWS=$2; shift ;;
	--clients) CLIENTS=$2; shift ;;
	--jobs) JOBS=$2; shift ;;
	--cost-calls) COST_CALLS=$2; shift ;;
	--cost-runs) COST_RUNS=$2; shift ;;
	--cc-clients) CC_CLIENTS=$2; shift ;;
	--cc-calls) CC_CALLS=$2; shift ;;
	--cc-runs) CC_RUNS=$2; shift ;;
	--mono-ids) MONO_IDS=$2; shift ;;
	--short-rows) SHORT_ROWS=$2; shift ;;
	--short-batch) SHORT_BATCH=$2; shift ;;
	--short-checkpoint) SHORT_CKPT=$2; shift ;;
	--short-conc-rows) SHORT_CONC_ROWS=$2; shift ;;
	--short-conc-per) SHORT_CONC_PER=$2; shift ;;
	--seq-block) SEQ_BLOCK=$2; shift ;;
	--time-interval) TIME_INTERVAL=$2; shift ;;
	--retention) RETENTION=$2; shift ;;
	--vendor) VENDOR=$2; shift ;;
	--only) ONLY=$2; shift ;;
	--skip-cost) SKIP_COST=1 ;;
	--no-portable) PORTABLE=0 ;;
	--quick)
		ROWS=200000 BATCH=50000 CONC_ROWS=20000 COST_CALLS=200000 COST_RUNS=3
		CC_CALLS=20000 CC_RUNS=1 MONO_IDS=100000 SHORT_ROWS=100000 SHORT_BATCH=5000 SHORT_CKPT=50000
		SHORT_CONC_ROWS=4000
		;;
	--port) PORT=$2; shift ;;
	--no-build) BUILD=0 ;;
	--publish) PUBLISH=$(realpath -m "$2"); shift ;;
	--setup-sql) SETUP_SQL=$(realpath "$2"); shift ;;
	--out) OUT=$(realpath -m "$2"); shift ;;
	--preload) PRELOAD=$2; shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
	shift
done
[ "$PORT" -ge 55430 ] && [ "$PORT" -le 55439 ] || { echo "run.sh: port must be 55430..55439" >&2; exit 2; }
for v in ROWS BATCH CONC_ROWS CLIENTS JOBS COST_CALLS COST_RUNS CC_CLIENTS CC_CALLS CC_RUNS MONO_IDS \
	SHORT_ROWS SHORT_BATCH SHORT_CKPT SHORT_CONC_ROWS SHORT_CONC_PER SEQ_BLOCK; do
	[[ ${!v} =~ ^[0-9]+$ ]] || { echo "run.sh: ${v,,} must be a whole number, not '${!v}'" >&2; exit 2; }
done
[ "$BATCH" -gt 0 ] && [ "$SHORT_BATCH" -gt 0 ] && [ "$SHORT_CKPT" -ge "$SHORT_BATCH" ] && [ "$SHORT_CONC_PER" -gt 0 ] &&
	[ "$CLIENTS" -gt 0 ] && [ "$CC_CLIENTS" -gt 0 ] && [ "$COST_RUNS" -gt 0 ] && [ "$CC_RUNS" -gt 0 ] ||
	{ echo "run.sh: batch sizes, clients and runs must be positive, --short-checkpoint at least --short-batch" >&2; exit 2; }
[ -z "$VENDOR" ] || VENDOR=$(realpath -m "$VENDOR")
case $PRELOAD in yes | no | auto) ;; *) echo "run.sh: --preload is yes, no or auto, not '$PRELOAD'" >&2; exit 2 ;; esac

START=$(date +%s)
# say MESSAGE: one progress line with the elapsed time.
say() {
	local s=$(($(date +%s) - START))
	printf '[%02d:%02d] %s\n' $((s / 60)) $((s % 60)) "$*"
}

mkdir -p "$OUT"
# Remove only what an earlier run wrote.
(cd "$OUT" && rm -rf raw.csv cost.csv cost_concurrent.csv monotonic.csv locality.csv concurrent.csv short.csv \
	short_concurrent.csv targets.csv results.md generators.txt batches.dat short_batches.dat cost_plot.dat \
	keys_*.dat keyspace*.png wal.png short.png cost.png *.gp *.gp.log cost*.sql cc_*.pgbench locality_*.sql short_*.sql \
	short_*.pgbench advice.txt build.log portable.log peer-*.log pgbench.log server.log src)
RAW=$OUT/raw.csv
: >"$RAW"

PGBIN=$("$PG_CONFIG" --bindir)
SHAREDIR=$("$PG_CONFIG" --sharedir)
MAJOR=$("$PG_CONFIG" --version | sed 's/^PostgreSQL \([0-9]*\).*/\1/')
if [ "$PRELOAD" = auto ]; then
	if [ "$MAJOR" -lt 17 ]; then PRELOAD=yes; else PRELOAD=no; fi
fi
if [ "$BUILD" = 1 ]; then
	say "building and installing the extension with $PG_CONFIG"
	make -C "$ROOT" -s -j2 PG_CONFIG="$PG_CONFIG" >"$OUT/build.log" 2>&1 &&
		make -C "$ROOT" -s install PG_CONFIG="$PG_CONFIG" >>"$OUT/build.log" 2>&1 || {
		tail -20 "$OUT/build.log"
		exit 1
	}
fi

# ---------------------------------------------------------------------------------------------
# 0. Peers: installed ones, or built from the vendor directory's checked tarballs.
# ---------------------------------------------------------------------------------------------
declare -A PEER_SKIP=() # peer extension -> why it is not there
# skip PART NAME REASON: a skip line in raw.csv and on the terminal.
skip() {
	say "skip $2 ($1): $3"
	echo "skip,$1,$2,${3//,/;}" >>"$RAW"
}

# peer_source FILE: check FILE of the vendor directory against SHA256SUMS and extract it under
# OUT/src; sets SRC to its directory, or REASON and returns 1.
peer_source() {
	local file=$1 want have top
	if [ -z "$VENDOR" ]; then
		REASON="its source is absent: no vendor directory (--vendor DIR or LOCALITY_UUID_VENDOR)"
		return 1
	fi
	[ -f "$VENDOR/$file" ] || { REASON="its source is absent: no $VENDOR/$file"; return 1; }
	[ -f "$VENDOR/SHA256SUMS" ] || { REASON="no $VENDOR/SHA256SUMS to check $file against"; return 1; }
	want=$(awk -v f="$file" '$2 == f || $2 == "*" f { print $1 }' "$VENDOR/SHA256SUMS")
	[ -n "$want" ] || { REASON="$file is not listed in $VENDOR/SHA256SUMS"; return 1; }
	have=$(sha256sum "$VENDOR/$file" | cut -d' ' -f1)
	[ "$want" = "$have" ] || { REASON="$VENDOR/$file does not match SHA256SUMS (sha256 $have)"; return 1; }
	top=$(tar -tzf "$VENDOR/$file" | head -1 | cut -d/ -f1)
	mkdir -p "$OUT/src"
	rm -rf "${OUT:?}/src/$top"
	tar -C "$OUT/src" -xzf "$VENDOR/$file" || { REASON="cannot extract $VENDOR/$file"; return 1; }
	SRC=$OUT/src/$top
}

# peer_install EXTENSION TARBALL: make EXTENSION available to $PG_CONFIG's server.
peer_install() {
	local ext=$1 file=$2 how
	if [ -f "$SHAREDIR/extension/$ext.control" ]; then
		how=$(dpkg -S "$SHAREDIR/extension/$ext.control" 2>/dev/null | cut -d: -f1 || true)
		if [ -n "$how" ]; then how="Debian package $how"; else how="installed before this run"; fi
		echo "peer,$ext,$how" >>"$RAW"
		say "peer $ext: $how"
		return 0
	fi
	peer_source "$file" || { PEER_SKIP[$ext]=$REASON; say "peer $ext: skipped: $REASON"; return 0; }
	say "peer $ext: building $file (sha256 checked) in $SRC"
	if make -C "$SRC" PG_CONFIG="$PG_CONFIG" >"$OUT/peer-$ext.log" 2>&1 &&
		make -C "$SRC" install PG_CONFIG="$PG_CONFIG" >>"$OUT/peer-$ext.log" 2>&1; then
		echo "peer,$ext,built from $file" >>"$RAW"
	else
		PEER_SKIP[$ext]="building $file failed (see $OUT/peer-$ext.log)"
		say "peer $ext: skipped: ${PEER_SKIP[$ext]}"
	fi
}
peer_install pg_uuidv7 pg_uuidv7-1.6.0.tar.gz
peer_install sequential_uuids sequential_uuids-1.0.3.tar.gz

# ---------------------------------------------------------------------------------------------
# The throw-away cluster: initdb and pg_ctl as postgres, stopped by its data directory on exit.
# ---------------------------------------------------------------------------------------------
CLUSTER=/tmp/locality_uuid_bench.$PORT
SHARED_BUFFERS_MB=16
as_pg() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
bench_stop() {
	[ -f "$CLUSTER/data/postmaster.pid" ] || return 0
	as_pg "$PGBIN/pg_ctl" -D "$CLUSTER/data" -m fast -w -t 60 stop >/dev/null
}
bench_start() {
	bench_stop 2>/dev/null || true
	rm -rf "$CLUSTER"
	mkdir -p "$CLUSTER"
	[ "$(id -u)" = 0 ] && chown postgres: "$CLUSTER"
	as_pg "$PGBIN/initdb" -D "$CLUSTER/data" -U postgres -A trust --no-sync -E UTF8 --locale=C \
		>"$CLUSTER/initdb.log" 2>&1 || { cat "$CLUSTER/initdb.log"; return 1; }
	# Only our CHECKPOINTs: no timed or size-triggered ones, no autovacuum; commits need not wait.
	cat >>"$CLUSTER/data/postgresql.conf" <<-EOF
	port = $PORT
	listen_addresses = ''
	unix_socket_directories = '$CLUSTER'
	fsync = off
	shared_buffers = ${SHARED_BUFFERS_MB}MB
	autovacuum = off
	synchronous_commit = off
	max_wal_size = 16GB
	checkpoint_timeout = 1h
	work_mem = 64MB
	synchronize_seqscans = off
	max_connections = $((CLIENTS > CC_CLIENTS ? CLIENTS + 12 : CC_CLIENTS + 12))
	EOF
	[ "$PRELOAD" = no ] || echo "shared_preload_libraries = 'locality_uuid'" >>"$CLUSTER/data/postgresql.conf"
	as_pg "$PGBIN/pg_ctl" -D "$CLUSTER/data" -l "$CLUSTER/server.log" -w -t 60 start >/dev/null ||
		{ tail -20 "$CLUSTER/server.log"; return 1; }
}
say "starting a throw-away cluster in $CLUSTER (shared_buffers ${SHARED_BUFFERS_MB}MB)"
trap 'bench_stop || true' EXIT
trap 'exit 130' INT TERM
bench_start

# No NOTICEs from DROP ... IF EXISTS and the like.
export PGOPTIONS='-c client_min_messages=warning'
PSQL=("$PGBIN/psql" -h "$CLUSTER" -p "$PORT" -U postgres -X -q -v ON_ERROR_STOP=1 -At -F,)
psql_db() {
	local db=$1
	shift
	"${PSQL[@]}" -d "$db" "$@"
}
psql_b() { psql_db postgres "$@"; }
PGBENCH=("$PGBIN/pgbench" -n -h "$CLUSTER" -p "$PORT" -U postgres)

psql_b -c 'CREATE EXTENSION locality_uuid; CREATE EXTENSION "uuid-ossp"; CREATE EXTENSION pgstattuple;'
[ -z "$SETUP_SQL" ] || psql_b -f "$SETUP_SQL"
# The portable SQL edition, installed as its users do, into a schema of its own; every call to it
# is schema-qualified (lu_sql.f), so nothing resolves to the C extension's function of that name.
PSCHEMA=lu_sql
if [ "$PORTABLE" = 1 ]; then
	psql_b -v schema=$PSCHEMA -f "$ROOT/portable/locality_uuid_portable.sql" >"$OUT/portable.log" 2>&1 ||
		{ cat "$OUT/portable.log"; exit 1; }
fi
# pg_uuidv7 lives with this extension (no name in common); sequential_uuids in a database of its own.
SU_DB=bench_su
if [ -z "${PEER_SKIP[pg_uuidv7]:-}" ]; then
	psql_b -c 'CREATE EXTENSION pg_uuidv7'
	echo "meta,pg_uuidv7_version,$(psql_b -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidv7'")" >>"$RAW"
fi
if [ -z "${PEER_SKIP[sequential_uuids]:-}" ]; then
	psql_b -c "CREATE DATABASE $SU_DB"
	psql_db $SU_DB -c 'CREATE EXTENSION sequential_uuids; CREATE EXTENSION pgstattuple;'
	echo "meta,sequential_uuids_version,$(psql_db $SU_DB -c "SELECT extversion FROM pg_extension WHERE extname = 'sequential_uuids'")" >>"$RAW"
fi
SERVER_NUM=$(psql_b -c 'SHOW server_version_num')

# has_function DB SIGNATURE: true if the function exists there (generators still on other branches may not).
has_function() {
	[ "$(psql_db "$1" -c "SELECT to_regprocedure('$2') IS NOT NULL")" = t ]
}
# why_missing DB SIGNATURE: why a generator's function is not there.
why_missing() {
	case $2 in
	'uuidv7()' | 'uuidv4()') echo "$2 is built in from PostgreSQL 18 and this extension's on 15 to 17 from version 1.3; this server is $(psql_b -c 'SHOW server_version'), the extension $(psql_b -c "SELECT extversion FROM pg_extension WHERE extname = 'locality_uuid'")" ;;
	'uuid_generate_v7()') echo "pg_uuidv7: ${PEER_SKIP[pg_uuidv7]:-its function is not installed}" ;;
	*)
		if [ "$1" = $SU_DB ]; then
			echo "sequential_uuids: ${PEER_SKIP[sequential_uuids]:-$2 is not installed}"
		else
			echo "$2 is not installed (a later version of this extension has it)"
		fi
		;;
	esac
}
# owner SIGNATURE: whose function it is: core (built in), ours (this extension's library), or
# other; nothing when there is none.
owner() {
	psql_b -c "SELECT CASE WHEN l.lanname = 'internal' THEN 'core' WHEN p.probin LIKE '%locality_uuid' THEN 'ours' ELSE 'other' END FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = to_regprocedure('$1')"
}
# uuidv7() and uuidv4(): core's from 18 (named with their source, as peers are), this extension's
# on 15 to 17 (a plain name, as this extension's generators).
V7_OWNER=$(owner 'uuidv7()')
V7_NAME='uuidv7()' V4_NAME='uuidv4()'
if [ "$V7_OWNER" = core ]; then
	V7_NAME="uuidv7() (PostgreSQL ${SERVER_NUM:0:2})" V4_NAME="uuidv4() (PostgreSQL ${SERVER_NUM:0:2})"
fi
# available DB SIGNATURE: has_function, also for a database that was never made.
available() {
	if [ "$1" = $SU_DB ] && [ -n "${PEER_SKIP[sequential_uuids]:-}" ]; then return 1; fi
	[ "$2" = - ] || has_function "$1" "$2"
}

{
	cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
	virt=$(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor: *//p')
	mem=$(awk '/MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
	os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")
	echo "meta,machine,$(nproc) x $cpu ($(uname -m)${virt:+, $virt VM}), $mem GB RAM, ${os:-$(uname -s)}"
	echo "meta,postgres,$(psql_b -c 'SHOW server_version')"
	echo "meta,preload,$PRELOAD"
	# Which generator state the backends use (cluster-wide or per backend), where the extension says.
	if has_function postgres 'locality_uuid_state()'; then
		echo "meta,state,$(psql_b -c 'SELECT locality_uuid_state()')"
	fi
	echo "meta,v7_owner,${V7_OWNER:-none}"
	echo "meta,v7_name,$V7_NAME"
	echo "meta,v4_name,$V4_NAME"
	echo "meta,load_at_start,$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "meta,rows,$ROWS"
	echo "meta,batch,$BATCH"
	echo "meta,conc_rows,$CONC_ROWS"
	echo "meta,clients,$CLIENTS"
	echo "meta,shared_buffers_mb,$SHARED_BUFFERS_MB"
	echo "meta,cost_calls,$COST_CALLS"
	echo "meta,portable_div,$PORTABLE_DIV"
	echo "meta,portable_cc_div,$PORTABLE_CC_DIV"
	echo "meta,portable_schema,$PSCHEMA"
	echo "meta,cost_runs,$COST_RUNS"
	echo "meta,cc_clients,$CC_CLIENTS"
	echo "meta,cc_calls,$CC_CALLS"
	echo "meta,cc_runs,$CC_RUNS"
	echo "meta,mono_ids,$MONO_IDS"
	echo "meta,short_rows,$SHORT_ROWS"
	echo "meta,short_batch,$SHORT_BATCH"
	echo "meta,short_checkpoint,$SHORT_CKPT"
	echo "meta,short_conc_rows,$SHORT_CONC_ROWS"
	echo "meta,short_conc_per,$SHORT_CONC_PER"
	echo "meta,date,$(date -u '+%Y-%m-%d %H:%M UTC')"
} >>"$RAW"

# interval_fn SCHEMA_PREFIX: the interval form of uuid_time_nextval there: uuid_time_nextval_interval
# since 1.2; in 1.1 an overload of uuid_time_nextval (a run against 1.1 keeps the 1.2 labels, so
# that the two compare).
interval_fn() {
	if ! has_function postgres "$1uuid_time_nextval_interval(interval,integer)" &&
		has_function postgres "$1uuid_time_nextval(interval,integer)"; then
		echo "$1uuid_time_nextval"
	else
		echo "$1uuid_time_nextval_interval"
	fi
}
TIF=$(interval_fn '')
PTIF=$(interval_fn "$PSCHEMA.")

# ---------------------------------------------------------------------------------------------
# 1. Generation cost: median ns per call of count(f()) over generate_series, minus the floor.
# ---------------------------------------------------------------------------------------------
# name|database|expression|function that must exist; uuidv7() and uuidv4() go among the peers
# when they are core's, among this extension's generators when they are ours.
V7_COST="$V7_NAME|postgres|uuidv7()|uuidv7()" V4_COST="$V4_NAME|postgres|uuidv4()|uuidv4()"
if [ "$V7_OWNER" != core ]; then
	V7_PEER= V4_PEER= V7_OURS=$V7_COST V4_OURS=$V4_COST
else
	V7_PEER=$V7_COST V4_PEER=$V4_COST V7_OURS= V4_OURS=
fi
COST_GENERATORS=(
	"floor|postgres|x|-"
	"gen_random_uuid()|postgres|gen_random_uuid()|-"
	"uuid_generate_v4()|postgres|uuid_generate_v4()|-"
	"nextval()|postgres|nextval('bench_cost_s')|-"
	"$V7_PEER"
	"$V4_PEER"
	"uuid_generate_v7() (pg_uuidv7)|postgres|uuid_generate_v7()|uuid_generate_v7()"
	"uuid_sequence_nextval() (sequential_uuids)|$SU_DB|uuid_sequence_nextval('bench_cost_s2')|uuid_sequence_nextval(regclass,integer,integer)"
	"uuid_time_nextval() (sequential_uuids)|$SU_DB|uuid_time_nextval()|uuid_time_nextval(integer,integer)"
	"locality_uuid()|postgres|locality_uuid()|locality_uuid()"
	"locality_uuid(false)|postgres|locality_uuid(false)|locality_uuid(boolean)"
	"locality_uuid(true)|postgres|locality_uuid(true)|locality_uuid(boolean)"
	"uuid_sequence_nextval()|postgres|uuid_sequence_nextval('bench_cost_s2')|uuid_sequence_nextval(regclass,integer,integer)"
	"uuid_time_nextval()|postgres|uuid_time_nextval()|uuid_time_nextval(integer,integer)"
	"uuid_time_nextval_interval('10 ms')|postgres|$TIF('10 ms'::interval)|$TIF(interval,integer)"
	"hot_uuid()|postgres|hot_uuid(42)|hot_uuid(bigint)"
	"$V7_OURS"
	"$V4_OURS"
	"uuidv7_ordered()|postgres|uuidv7_ordered()|uuidv7_ordered()"
)
# Drop the empty slots: uuidv7() and uuidv4() are either peers or ours.
for i in "${!COST_GENERATORS[@]}"; do [ -n "${COST_GENERATORS[$i]}" ] || unset "COST_GENERATORS[$i]"; done
COST_GENERATORS=("${COST_GENERATORS[@]}")
if [ "$PORTABLE" = 1 ]; then
	COST_GENERATORS+=(
		"$PSCHEMA.locality_uuid(false)|postgres|$PSCHEMA.locality_uuid(false)|$PSCHEMA.locality_uuid(boolean)"
		"$PSCHEMA.locality_uuid(true)|postgres|$PSCHEMA.locality_uuid(true)|$PSCHEMA.locality_uuid(boolean)"
		"$PSCHEMA.uuid_sequence_nextval()|postgres|$PSCHEMA.uuid_sequence_nextval('bench_cost_s2')|$PSCHEMA.uuid_sequence_nextval(regclass,integer,integer)"
		"$PSCHEMA.uuid_time_nextval()|postgres|$PSCHEMA.uuid_time_nextval()|$PSCHEMA.uuid_time_nextval(integer,integer)"
		"$PSCHEMA.uuid_time_nextval_interval('10 ms')|postgres|$PTIF('10 ms'::interval)|$PTIF(interval,integer)"
		"$PSCHEMA.hot_uuid()|postgres|$PSCHEMA.hot_uuid(42)|$PSCHEMA.hot_uuid(bigint)"
	)
fi
# calls N NAME [DIV]: N calls, or N / DIV (default PORTABLE_DIV; at least 1000) for a generator
# of the portable edition.
calls() {
	local d=${3:-$PORTABLE_DIV}
	case $2 in
	"$PSCHEMA".*) echo $(($1 / d > 1000 ? $1 / d : ($1 < 1000 ? $1 : 1000))) ;;
	*) echo "$1" ;;
	esac
}
# Generators checked for order within one backend: name|database|expression|function.
MONO_GENERATORS=(
	"$V7_COST"
	"uuid_generate_v7() (pg_uuidv7)|postgres|uuid_generate_v7()|uuid_generate_v7()"
	"locality_uuid(true)|postgres|locality_uuid(true)|locality_uuid(boolean)"
	"hot_uuid()|postgres|hot_uuid(42)|hot_uuid(bigint)"
	"uuidv7_ordered()|postgres|uuidv7_ordered()|uuidv7_ordered()"
)
psql_b -c 'CREATE SEQUENCE bench_cost_s; CREATE SEQUENCE bench_cost_s2;'
[ -n "${PEER_SKIP[sequential_uuids]:-}" ] || psql_db $SU_DB -c 'CREATE SEQUENCE bench_cost_s2;'

COST_OK=()
if [ "$SKIP_COST" = 0 ]; then
	for g in "${COST_GENERATORS[@]}"; do
		IFS='|' read -r name db expr fn <<<"$g"
		if available "$db" "$fn"; then
			COST_OK+=("$g")
		else
			skip cost "$name" "$(why_missing "$db" "$fn")"
		fi
	done
	say "generation cost: $COST_RUNS runs x $COST_CALLS calls of each of ${#COST_OK[@]} generators"
	# cost_script DB ROUND: one round of that database's generators in one session.
	cost_script() {
		local db=$1 r=$2 g name gdb expr fn n
		echo "SET work_mem = '256MB';"
		# Server-side wall time of one query, in ns per row.
		cat <<-'EOF'
		CREATE FUNCTION pg_temp.ns_per_call(q text, calls bigint) RETURNS float8 LANGUAGE plpgsql AS $$
		DECLARE t0 timestamptz; t1 timestamptz;
		BEGIN
			t0 := clock_timestamp();
			EXECUTE q;
			t1 := clock_timestamp();
			RETURN extract(epoch FROM t1 - t0) * 1e9 / calls;
		END $$;
		EOF
		for g in "${COST_OK[@]}"; do
			IFS='|' read -r name gdb expr fn <<<"$g"
			[ "$gdb" = "$db" ] || continue
			n=$(calls "$COST_CALLS" "$name")
			# Warm up (the first call seeds per-backend state), then measure.
			echo "SELECT count($expr) FROM generate_series(1, $(calls 10000 "$name")) x \\gset warm_"
			echo "SELECT pg_temp.ns_per_call('SELECT count($(sed "s/'/''/g" <<<"$expr")) FROM generate_series(1, $n) x', $n) AS ns \\gset"
			# The name through a variable: \qecho would take its quotes for psql's own.
			echo "\\set gname '${name//\'/\'\'}'"
			echo "\\qecho cost,$r,:gname,:ns"
		done
	}
	# Rounds interleave the generators (and the databases) so that outside load spreads over all.
	for r in $(seq 1 "$COST_RUNS"); do
		for db in postgres $SU_DB; do
			printf '%s\n' "${COST_OK[@]}" | grep -q "^[^|]*|$db|" || continue
			cost_script $db "$r" >"$OUT/cost_$db.sql"
			psql_db $db -f "$OUT/cost_$db.sql" >>"$RAW"
		done
		say "  cost round $r/$COST_RUNS done"
	done

	# Concurrent cost: pgbench clients each running count(f()) over generate_series; ns per call
	# is 1e9 / (calls per second of all clients together), minus the floor's.
	if [ "$CC_CALLS" -gt 0 ]; then
		say "concurrent cost: 1 and $CC_CLIENTS pgbench clients x $CC_CALLS calls each ($(calls "$CC_CALLS" "$PSCHEMA." $PORTABLE_CC_DIV) for the portable edition), $CC_RUNS runs"
		for r in $(seq 1 "$CC_RUNS"); do
			for c in 1 "$CC_CLIENTS"; do
				i=0
				for g in "${COST_OK[@]}"; do
					IFS='|' read -r name db expr fn <<<"$g"
					case $name in uuid_generate_v4* | nextval*) continue ;; esac
					i=$((i + 1))
					f=$OUT/cc_$i.pgbench
					# Up to 20000 calls a transaction (2000 for the portable edition's slow generators).
					n=$(calls "$CC_CALLS" "$name" $PORTABLE_CC_DIV)
					per_tx=$(calls 20000 "$name")
					per_tx=$((n < per_tx ? n : per_tx))
					tx=$(((n + per_tx - 1) / per_tx))
					echo "SELECT count($expr) FROM generate_series(1, $per_tx) x;" >"$f"
					j=$((c < JOBS ? c : JOBS))
					tps=$("${PGBENCH[@]}" -c "$c" -j "$j" -t "$tx" -f "$f" "$db" 2>>"$OUT/pgbench.log" |
						tee -a "$OUT/pgbench.log" | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -1)
					[ -n "$tps" ] || { echo "run.sh: pgbench failed, see $OUT/pgbench.log" >&2; exit 1; }
					echo "ccost,$c,$r,$name,$(awk -v t="$tps" -v n="$per_tx" 'BEGIN { printf "%.3f", 1e9 / (t * n) }')" >>"$RAW"
				done
			done
			say "  concurrent cost round $r/$CC_RUNS done"
		done
	fi

	# Monotonicity: adjacent pairs out of order (and equal) among ids made by one backend in a row.
	if [ "$MONO_IDS" -gt 0 ]; then
		say "monotonicity: $MONO_IDS ids from one backend per generator"
		for g in "${MONO_GENERATORS[@]}"; do
			IFS='|' read -r name db expr fn <<<"$g"
			if ! available "$db" "$fn"; then
				skip monotonic "$name" "$(why_missing "$db" "$fn")"
				continue
			fi
			psql_db "$db" -c "SET work_mem = '256MB'" -c "SELECT 'mono', '$name', count(*), count(*) FILTER (WHERE id < prev), count(*) FILTER (WHERE id = prev) FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM (SELECT n, $expr AS id FROM generate_series(1, $MONO_IDS) n) s) t" >>"$RAW"
		done
	fi
fi

# ---------------------------------------------------------------------------------------------
# 2. B-tree locality: bulk insert in batches with a CHECKPOINT between, then pgbench clients;
#    then the same with a new connection per batch (short sessions) and pgbench -C.
# ---------------------------------------------------------------------------------------------
# Rows of one interval of the tuned uuid_time_nextval must fit in shared_buffers (the fallback
# rule when locality_uuid_block_advice() is not there): a random insert pattern leaves leaves
# ~70 % full, about 40 bytes of leaf per uuid row, and the heap, the inner pages and the rest
# need the other half of the buffers.
FIT_ROWS=$((SHARED_BUFFERS_MB * 1024 * 1024 / 2 / 40))

# gen_spec NAME: "class|column type|bulk expression|DEFAULT expression|function|label|database".
# In the bulk expression g is the generate_series row number; bench_s is the table's sequence.
gen_spec() {
	case $1 in
	seq_uuid) echo "baseline|uuid|lpad(to_hex(nextval('bench_s')), 32, '0')::uuid|=|-|sequential uuid|postgres" ;;
	bigserial) echo "baseline|bigint|nextval('bench_s')|=|-|bigserial|postgres" ;;
	gen_random_uuid) echo "baseline|uuid|gen_random_uuid()|=|-|gen_random_uuid()|postgres" ;;
	uuidv7)
		if [ "$V7_OWNER" != core ]; then
			echo "ordered|uuid|uuidv7()|=|uuidv7()|uuidv7()|postgres"
		else
			echo "peer|uuid|uuidv7()|=|uuidv7()|$V7_NAME|postgres"
		fi
		;;
	pg_uuidv7) echo "peer|uuid|uuid_generate_v7()|=|uuid_generate_v7()|uuid_generate_v7() (pg_uuidv7)|postgres" ;;
	su_seq_block) echo "peer|uuid|uuid_sequence_nextval('bench_s')|=|uuid_sequence_nextval(regclass,integer,integer)|uuid_sequence_nextval(s) (sequential_uuids)|$SU_DB" ;;
	su_time_block) echo "peer|uuid|uuid_time_nextval()|=|uuid_time_nextval(integer,integer)|uuid_time_nextval() (sequential_uuids)|$SU_DB" ;;
	locality_variable) echo "spread|uuid|locality_uuid(false)|=|locality_uuid(boolean)|locality_uuid(false)|postgres" ;;
	locality_sequential) echo "ordered|uuid|locality_uuid(true)|=|locality_uuid(boolean)|locality_uuid(true)|postgres" ;;
	hot_uuid) echo "ordered|uuid|hot_uuid(g % 1024)|hot_uuid((random() * 1023)::bigint)|hot_uuid(bigint)|hot_uuid(shard_key)|postgres" ;;
	uuidv7_ordered) echo "ordered|uuid|uuidv7_ordered()|=|uuidv7_ordered()|uuidv7_ordered()|postgres" ;;
	seq_block) echo "block|uuid|uuid_sequence_nextval('bench_s')|=|uuid_sequence_nextval(regclass,integer,integer)|uuid_sequence_nextval(s)|postgres" ;;
	seq_block_tuned) echo "block|uuid|uuid_sequence_nextval('bench_s', $SEQ_BLOCK)|=|uuid_sequence_nextval(regclass,integer,integer)|uuid_sequence_nextval(s, $SEQ_BLOCK)|postgres" ;;
	time_block) echo "block|uuid|uuid_time_nextval()|=|uuid_time_nextval(integer,integer)|uuid_time_nextval()|postgres" ;;
	time_block_tuned) echo "block|uuid|@TE@|=|@TF@|@TL@|postgres" ;;
	time_block_paced) echo "block|uuid|uuid_time_nextval(1)|=|uuid_time_nextval(integer,integer)|uuid_time_nextval(1), paced|postgres" ;;
	portable_sequential) echo "portable|uuid|$PSCHEMA.locality_uuid(true)|=|$PSCHEMA.locality_uuid(boolean)|$PSCHEMA.locality_uuid(true)|postgres" ;;
	portable_seq_block) echo "portable|uuid|$PSCHEMA.uuid_sequence_nextval('bench_s')|=|$PSCHEMA.uuid_sequence_nextval(regclass,integer,integer)|$PSCHEMA.uuid_sequence_nextval(s)|postgres" ;;
	portable_seq_block_tuned) echo "portable|uuid|$PSCHEMA.uuid_sequence_nextval('bench_s', $SEQ_BLOCK)|=|$PSCHEMA.uuid_sequence_nextval(regclass,integer,integer)|$PSCHEMA.uuid_sequence_nextval(s, $SEQ_BLOCK)|postgres" ;;
	portable_time_block) echo "portable|uuid|$PSCHEMA.uuid_time_nextval()|=|$PSCHEMA.uuid_time_nextval(integer,integer)|$PSCHEMA.uuid_time_nextval()|postgres" ;;
	portable_time_block_tuned) echo "portable|uuid|$PSCHEMA.@TE@|=|$PSCHEMA.@TF@|$PSCHEMA.@TL@|postgres" ;;
	*) return 1 ;;
	esac
}
# uuidv7 among the peers when it is core's, next to uuidv7_ordered when it is ours.
if [ "$V7_OWNER" != core ]; then V7_PEER_GEN= V7_OUR_GEN=uuidv7; else V7_PEER_GEN=uuidv7 V7_OUR_GEN=; fi
GENERATORS=(seq_uuid bigserial gen_random_uuid $V7_PEER_GEN pg_uuidv7 su_seq_block su_time_block
	locality_variable locality_sequential hot_uuid $V7_OUR_GEN uuidv7_ordered seq_block seq_block_tuned time_block
	time_block_tuned time_block_paced)
[ "$PORTABLE" = 0 ] || GENERATORS+=(portable_sequential portable_seq_block portable_seq_block_tuned
	portable_time_block portable_time_block_tuned)
if [ -n "$ONLY" ]; then
	sel=(seq_uuid bigserial gen_random_uuid)
	for n in ${ONLY//,/ }; do
		gen_spec "$n" >/dev/null || { echo "run.sh: unknown generator $n (one of ${GENERATORS[*]})" >&2; exit 2; }
		case " ${sel[*]} " in *" $n "*) ;; *) sel+=("$n") ;; esac
	done
	GENERATORS=("${sel[@]}")
fi

# counters ALIAS: psql lines that \gset the cumulative counters as :ALIAS_wal etc. This session's
# statistics reach pg_stat_wal when it goes idle, at most once a second unless forced: force it.
counters() {
	cat <<-EOF
	SELECT pg_stat_force_next_flush() AS ignore \gset
	SELECT w.wal_bytes AS ${1}_wal, w.wal_fpi AS ${1}_fpi, pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0') AS ${1}_lsn,
	       coalesce((SELECT idx_blks_read FROM pg_statio_user_indexes WHERE indexrelid = 'bench_t_pkey'::regclass), 0) AS ${1}_ird,
	       pg_relation_size('bench_t_pkey') AS ${1}_isz,
	       extract(epoch FROM clock_timestamp()) AS ${1}_t
	FROM pg_stat_wal w \gset
	EOF
}

# Let pgbench's backends exit and flush their statistics.
WAIT_CLIENTS="DO \$\$ BEGIN FOR i IN 1..1000 LOOP PERFORM pg_stat_clear_snapshot(); EXIT WHEN (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()) = 0; PERFORM pg_sleep(0.01); END LOOP; END \$\$;"

# report_line TAG NAME K NB ROWS: psql lines that print one measured step (between the a and c counters).
report_line() {
	cat <<-EOF
	SELECT format('  %s %s %s/%s: %s rows, %s s, WAL %s B/row, FPI %s/1000 rows, index %s MB, %s blocks read',
	  '$2', '$1', $3, $4, $5, round((:b_t - :a_t)::numeric, 2), round((:c_wal - :a_wal) / $5.0),
	  round((:c_fpi - :a_fpi) * 1000.0 / $5, 2), round(:c_isz / 1048576.0, 1), :c_ird - :a_ird) AS line \\gset
	\\warn :line
	EOF
}

# table_script TYPE: a fresh table and sequence.
table_script() {
	cat <<-EOF
	DROP TABLE IF EXISTS bench_t; DROP SEQUENCE IF EXISTS bench_s;
	CREATE SEQUENCE bench_s;
	CREATE TABLE bench_t (id $1 PRIMARY KEY);
	CHECKPOINT;
	EOF
}

# conc_script TAG NAME DB ROWS PER_ROUND PGBENCH_ARGS SCRIPT: pgbench rounds with a CHECKPOINT between.
conc_script() {
	local tag=$1 name=$2 db=$3 total=$4 per_round=$5 args=$6 script=$7 rounds r n tx
	rounds=$(((total + per_round - 1) / per_round))
	for ((r = 1; r <= rounds; r++)); do
		n=$((r * per_round < total ? per_round : total - (r - 1) * per_round))
		tx=$((n / CLIENTS / ${8:-1}))
		[ "$tx" -gt 0 ] || tx=1
		n=$((tx * CLIENTS * ${8:-1}))
		counters a
		echo "\\! '$PGBIN/pgbench' -n -h '$CLUSTER' -p $PORT -U postgres $args -c $CLIENTS -j $JOBS -t $tx -f '$script' $db >>'$OUT/pgbench.log' 2>&1 || echo 'pgbench failed, see $OUT/pgbench.log' >&2"
		echo "SELECT extract(epoch FROM clock_timestamp()) AS b_t \\gset"
		echo "$WAIT_CLIENTS"
		counters c
		echo "\\qecho $tag,$name,$r,$n,:b_t,:a_t,:a_wal,:c_wal,:a_fpi,:c_fpi,:a_ird,:c_ird,:a_isz,:c_isz,:a_lsn,:c_lsn"
		report_line "$tag round" "$name" $r $rounds $n
		echo "CHECKPOINT;"
	done
	cat <<-EOF
	SELECT avg_leaf_density AS d, leaf_fragmentation AS f FROM pgstatindex('bench_t_pkey') \\gset
	\\qecho ${tag}final,$name,:d,:f
	EOF
}

# key_sample NAME ROWS: a random sample of (row number, first 32 bits) in insertion order (the
# heap's physical order: one backend appended to a fresh table); a fixed step could alias.
key_sample() {
	cat <<-EOF
	SELECT setseed(0.5) AS ignore \\gset
	\\o $OUT/keys_$1.dat
	SELECT n, ('x' || substr(id::text, 1, 8))::bit(32)::bigint FROM (SELECT row_number() OVER () AS n, id FROM bench_t) s WHERE random() < 2000.0 / $2;
	\\o
	EOF
}

# locality_script NAME TYPE BULK DEFAULT DB: the psql script of one generator's main run.
locality_script() {
	local name=$1 type=$2 bulk=$3 def=$4 db=$5
	local nb=$(((ROWS + BATCH - 1) / BATCH)) k lo hi
	table_script "$type"
	for ((k = 1; k <= nb; k++)); do
		lo=$(((k - 1) * BATCH + 1))
		hi=$((k * BATCH < ROWS ? k * BATCH : ROWS))
		# Paced: each batch starts on a new second, so one 1-second interval holds one batch.
		[ "$name" = time_block_paced ] && echo "SELECT pg_sleep(1 - extract(epoch FROM clock_timestamp()) % 1) AS ignore \\gset"
		counters a
		echo "INSERT INTO bench_t (id) SELECT $bulk FROM generate_series($lo, $hi) g;"
		echo "SELECT extract(epoch FROM clock_timestamp()) AS b_t \\gset"
		counters c
		echo "\\qecho batch,$name,$k,$hi,$((hi - lo + 1)),:b_t,:a_t,:a_wal,:c_wal,:a_fpi,:c_fpi,:a_ird,:c_ird,:c_isz,:a_lsn,:c_lsn"
		report_line batch "$name" $k $nb $((hi - lo + 1))
		echo "CHECKPOINT;"
	done
	[ "$type" = uuid ] && key_sample "$name" "$ROWS"
	leaf_final final "$name" "$ROWS" ""
	then_concurrent "$name" "$def" conc "$name" "$db" "$CONC_ROWS" "$BATCH" "" "$BENCH/insert.pgbench"
}

# leaf_final TAG NAME ROWS WHAT: the index's leaf density and fragmentation after a load.
leaf_final() {
	cat <<-EOF
	SELECT avg_leaf_density AS d, leaf_fragmentation AS f, leaf_pages AS lp FROM pgstatindex('bench_t_pkey') \\gset
	\\qecho $1,$2,$3,:c_isz,:d,:f,:lp
	\\warn '  $2$4: leaf density' :d '%, leaf fragmentation' :f '%'
	EOF
}

# then_concurrent NAME DEFAULT CONC_SCRIPT_ARGS...: after a load, the concurrent phase into the
# same table with the generator as the column DEFAULT (none when conc_script would get no rows,
# nor for the paced run, whose concurrent phase would repeat uuid_time_nextval(1)'s); then drop it.
then_concurrent() {
	local name=$1 def=$2
	shift 2
	if [ "$4" -gt 0 ] && [ "$name" != time_block_paced ]; then
		echo "ALTER TABLE bench_t ALTER COLUMN id SET DEFAULT $def;"
		echo "CHECKPOINT;"
		fresh_interval "$name"
		conc_script "$@"
	fi
	echo "DROP TABLE bench_t; DROP SEQUENCE bench_s;"
}

# fresh_interval NAME: for the tuned time generator, wait for a fresh interval before a
# concurrent phase, or its clients would first finish the interval the load before it used.
fresh_interval() {
	case $1 in time_block_tuned | portable_time_block_tuned) ;; *) return 0 ;; esac
	echo "SELECT pg_sleep($TI_SECONDS - extract(epoch FROM clock_timestamp())::numeric % $TI_SECONDS) AS ignore \\gset"
}

# short_script NAME TYPE BULK DEFAULT DB: the short-session run: a new connection (pgbench -C,
# one client) per batch of SHORT_BATCH rows, CHECKPOINT every SHORT_CKPT rows; then pgbench -C.
short_script() {
	local name=$1 type=$2 bulk=$3 def=$4 db=$5
	local ns=$(((SHORT_ROWS + SHORT_CKPT - 1) / SHORT_CKPT)) k n tx sofar=0
	local bscript=$OUT/short_bulk_$name.pgbench cscript=$OUT/short_conc.pgbench
	echo "INSERT INTO bench_t (id) SELECT $bulk FROM generate_series(1, $SHORT_BATCH) g;" >"$bscript"
	table_script "$type"
	for ((k = 1; k <= ns; k++)); do
		n=$((SHORT_ROWS - sofar < SHORT_CKPT ? SHORT_ROWS - sofar : SHORT_CKPT))
		tx=$(((n + SHORT_BATCH - 1) / SHORT_BATCH))
		n=$((tx * SHORT_BATCH))
		sofar=$((sofar + n))
		counters a
		echo "\\! '$PGBIN/pgbench' -n -C -h '$CLUSTER' -p $PORT -U postgres -c 1 -j 1 -t $tx -f '$bscript' $db >>'$OUT/pgbench.log' 2>&1 || echo 'pgbench failed, see $OUT/pgbench.log' >&2"
		echo "SELECT extract(epoch FROM clock_timestamp()) AS b_t \\gset"
		echo "$WAIT_CLIENTS"
		counters c
		echo "\\qecho sbatch,$name,$k,$sofar,$n,:b_t,:a_t,:a_wal,:c_wal,:a_fpi,:c_fpi,:a_ird,:c_ird,:c_isz,:a_lsn,:c_lsn"
		report_line "short-session batch" "$name" $k $ns $n
		echo "CHECKPOINT;"
	done
	leaf_final sfinal "$name" "$sofar" " short sessions"
	then_concurrent "$name" "$def" sconc "$name" "$db" "$SHORT_CONC_ROWS" "$SHORT_CKPT" "-C" "$cscript" "$SHORT_CONC_PER"
}
# One transaction of pgbench -C: SHORT_CONC_PER rows from the column DEFAULT, in a new connection.
{
	echo "-- One pgbench -C transaction of the short-session run: rows from the column DEFAULT."
	printf 'INSERT INTO bench_t (id) VALUES (DEFAULT)'
	for ((k = 2; k <= SHORT_CONC_PER; k++)); do printf ', (DEFAULT)'; done
	echo ';'
} >"$OUT/short_conc.pgbench"

# tune_time: the tuned uuid_time_nextval for the sequential baseline's bulk-load rate. Sets TE
# (the expression), TL (its label), TF (its function), TI_SECONDS (the interval in seconds).
tune_time() {
	local rate ti advice
	rate=$(awk -F, '$1 == "batch" && $2 == "seq_uuid" { if (!t0) t0 = $7; t1 = $6; n += $5 } END { if (t1 > t0) printf "%d", n / (t1 - t0) }' "$RAW")
	echo "meta,time_interval_rate,${rate:-0}" >>"$RAW"
	echo "meta,time_interval_fit_rows,$FIT_ROWS" >>"$RAW"
	if [ -n "$TIME_INTERVAL" ]; then
		if [[ $TIME_INTERVAL =~ ^[0-9]+$ ]]; then
			TE="uuid_time_nextval($TIME_INTERVAL)" TL=$TE TF="uuid_time_nextval(integer,integer)" TI_SECONDS=$TIME_INTERVAL
		else
			TE="$TIF('$TIME_INTERVAL'::interval)" TL="uuid_time_nextval_interval('$TIME_INTERVAL')" TF="$TIF(interval,integer)"
			TI_SECONDS=$(psql_b -c "SELECT extract(epoch FROM '$TIME_INTERVAL'::interval)")
		fi
		echo "meta,time_interval_how,set with --time-interval" >>"$RAW"
	elif has_function postgres 'locality_uuid_block_advice(double precision,interval,bigint)' &&
		has_function postgres "$TIF(interval,integer)"; then
		advice=$(psql_b -c "SELECT interval_length, interval_count, extract(epoch FROM interval_length) FROM locality_uuid_block_advice(insert_rate => ${rate:-1}, retention => '$RETENTION') WHERE interval_length IS NOT NULL LIMIT 1")
		IFS=, read -r ti count TI_SECONDS <<<"$advice"
		[ -n "$ti" ] || { echo "run.sh: locality_uuid_block_advice() recommended no interval" >&2; exit 1; }
		ti="$(awk -v s="$TI_SECONDS" 'BEGIN { printf "%g", s * 1000 }') ms"
		TE="$TIF('$ti'::interval, $count)" TL="uuid_time_nextval_interval('$ti', $count)" TF="$TIF(interval,integer)"
		echo "meta,time_interval_how,locality_uuid_block_advice(insert_rate => ${rate:-1}; retention => '$RETENTION') for the sequential baseline's rate" >>"$RAW"
		psql_b -P format=aligned -P tuples_only=off -P footer=off -x \
			-c "SELECT * FROM locality_uuid_block_advice(insert_rate => ${rate:-1}, retention => '$RETENTION')" >"$OUT/advice.txt"
		say "tuned time generator: $TL from locality_uuid_block_advice(insert_rate => ${rate:-?}, retention => '$RETENTION')"
	elif has_function postgres "$TIF(interval,integer)"; then
		# The interval whose rows, at the measured rate, fit in shared_buffers; at least 1 ms.
		ti=$(awk -v f="$FIT_ROWS" -v r="${rate:-0}" 'BEGIN { i = (r > 0) ? int(f * 1000 / r) : 1000; print (i < 1) ? 1 : i }')
		TE="$TIF('$ti ms'::interval)" TL="uuid_time_nextval_interval('$ti ms')" TF="$TIF(interval,integer)"
		TI_SECONDS=$(awk -v m="$ti" 'BEGIN { print m / 1000 }')
		echo "meta,time_interval_how,locality_uuid_block_advice() is not installed: the interval whose rows fit in shared_buffers" >>"$RAW"
		say "locality_uuid_block_advice() is not installed: tuned time generator $TL (about $FIT_ROWS rows fit in shared_buffers; rate ${rate:-?} rows/s)"
	else
		ti=$(awk -v f="$FIT_ROWS" -v r="${rate:-0}" 'BEGIN { i = (r > 0) ? int(f / r) : 1; print (i < 1) ? 1 : i }')
		TE="uuid_time_nextval($ti)" TL=$TE TF="uuid_time_nextval(integer,integer)" TI_SECONDS=$ti
		echo "meta,time_interval_how,neither locality_uuid_block_advice() nor uuid_time_nextval_interval() is installed: whole seconds whose rows fit in shared_buffers (1 s at least)" >>"$RAW"
		say "locality_uuid_block_advice() and uuid_time_nextval_interval() are not installed: tuned time generator $TE"
	fi
	echo "meta,time_interval,$TL" >>"$RAW"
}

# run_generators MODE: the main (bulk + concurrent) or short-session runs of every generator.
run_generators() {
	local mode=$1 name class type bulk def fn label db
	for name in "${GENERATORS[@]}"; do
		[ "$mode" = short ] && [ "$name" = time_block_paced ] && continue
		IFS='|' read -r class type bulk def fn label db <<<"$(gen_spec "$name")"
		# The portable edition: bulk and concurrent loads only (its short sessions would add minutes).
		[ "$mode" = short ] && [ "$class" = portable ] && continue
		if [ "$name" = time_block_tuned ] || [ "$name" = portable_time_block_tuned ]; then
			[ -n "${TE:-}" ] || tune_time
			bulk=${bulk//@TE@/$TE} fn=${fn//@TF@/$TF} label=${label//@TL@/$TL}
			# The portable edition's own name for the interval form (it may lag behind).
			if [ "$class" = portable ]; then
				bulk=${bulk/#"$PSCHEMA.$TIF("/"$PTIF("} fn=${fn/#"$PSCHEMA.$TIF("/"$PTIF("}
			fi
		fi
		if ! available "$db" "$fn"; then
			skip "$([ "$mode" = main ] && echo locality || echo short)" "$name" "$(why_missing "$db" "$fn")"
			continue
		fi
		[ "$def" = "=" ] && def=$bulk
		if [ "$mode" = main ]; then
			echo "gen,$name,$class,$type,$db,$label" >>"$RAW"
			say "$label: inserting $ROWS rows"
			locality_script "$name" "$type" "$bulk" "$def" "$db" >"$OUT/locality_$name.sql"
			psql_db "$db" -f "$OUT/locality_$name.sql" >>"$RAW"
		else
			echo "sgen,$name,$class,$type,$db,$label" >>"$RAW"
			say "$label: $SHORT_ROWS rows, a new connection per $SHORT_BATCH"
			short_script "$name" "$type" "$bulk" "$def" "$db" >"$OUT/short_$name.sql"
			psql_db "$db" -f "$OUT/short_$name.sql" >>"$RAW"
		fi
	done
}

say "locality: ${#GENERATORS[@]} generators x $ROWS rows (CHECKPOINT every $BATCH), then $CONC_ROWS rows by $CLIENTS pgbench clients"
run_generators main
if [ "$SHORT_ROWS" -gt 0 ]; then
	say "short sessions: $SHORT_ROWS rows, a new connection per $SHORT_BATCH rows, CHECKPOINT every $SHORT_CKPT; then $SHORT_CONC_ROWS rows by $CLIENTS pgbench -C clients, $SHORT_CONC_PER rows a connection"
	run_generators short
fi
echo "meta,load_at_end,$(cut -d' ' -f1-3 /proc/loadavg)" >>"$RAW"
echo "meta,seconds,$(($(date +%s) - START))" >>"$RAW"

# ---------------------------------------------------------------------------------------------
# 3. Tables and plots.
# ---------------------------------------------------------------------------------------------
say "writing tables and plots"
bench_stop
cp "$CLUSTER/server.log" "$OUT/server.log"
awk -F, -v out="$OUT" -f "$BENCH/report.awk" "$RAW"
if command -v gnuplot >/dev/null; then
	bash "$BENCH/plot.sh" "$OUT" || echo "run.sh: plotting failed" >&2
else
	echo "run.sh: gnuplot not found (apt-get install gnuplot-nox); no plots" >&2
fi
if [ -n "$PUBLISH" ]; then
	mkdir -p "$PUBLISH"
	for f in raw.csv cost.csv cost_concurrent.csv monotonic.csv locality.csv concurrent.csv short.csv \
		short_concurrent.csv targets.csv keyspace.png keyspace-zoom.png wal.png short.png cost.png; do
		[ -f "$OUT/$f" ] && cp "$OUT/$f" "$PUBLISH"/
	done
	say "copied the CSV files and plots to $PUBLISH; put results.md under the run's heading in docs/bench/README.md"
fi
cat "$OUT/results.md"
say "done in $(($(date +%s) - START)) s; output in $OUT"
