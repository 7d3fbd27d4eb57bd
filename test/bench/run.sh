#!/usr/bin/env bash
# Benchmark locality_uuid: generation cost, B-tree locality (bulk and concurrent), plots.
#
# Usage (as root, from anywhere): bash test/bench/run.sh [options]
#   --rows N          rows per generator in the bulk locality run (default 3000000)
#   --batch N         rows between CHECKPOINTs (default 100000)
#   --conc-rows N     rows inserted by pgbench in the concurrent run (default 200000; 0 skips it)
#   --clients N       pgbench clients (default 4); --jobs N pgbench threads (default 2)
#   --cost-calls N    calls per generation-cost measurement (default 1000000)
#   --cost-runs N     measurements per generator; the median is reported (default 7)
#   --seq-block N     block_size of the tuned uuid_sequence_nextval (default 256)
#   --time-interval N interval_length of the tuned uuid_time_nextval (default: the seconds of
#                     loading, at the sequential baseline's rate, whose rows fit in shared_buffers)
#   --only LIST       comma-separated generator names; the baselines always run
#   --skip-cost       skip the generation-cost part
#   --quick           smoke run: --rows 200000 --batch 50000 --conc-rows 20000 --cost-calls 200000 --cost-runs 3
#   --port N          cluster port (default 55430)
#   --no-build        do not build and install the extension (it must already be installed)
#   --publish DIR     also copy the tables and plots to DIR (e.g. docs/bench)
#   --setup-sql FILE  run FILE after CREATE EXTENSION (e.g. other implementations to compare)
#   --out DIR         output directory (default test/bench/out)
#
# Generators (locality part): seq_uuid, bigserial, gen_random_uuid (baselines); locality_variable,
# locality_sequential, hot_uuid, seq_block, seq_block_tuned, time_block, time_block_tuned, and
# time_block_paced: uuid_time_nextval(1) loaded at one batch per second, so that one interval
# holds one batch (what a 1-second interval does when the load is slower than this machine's).
#
# It builds and installs the extension with $PG_CONFIG (default pg_config) unless --no-build,
# starts a throw-away cluster (shared_buffers 16 MB) on the port, and writes into test/bench/out/:
# raw.csv (every measurement), cost.csv, locality.csv, concurrent.csv, results.md, *.png.
# It prints figures and ratios; it passes or fails nothing.
set -euo pipefail
BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH/../.." && pwd)
export PG_CONFIG=${PG_CONFIG:-pg_config}

ROWS=3000000 BATCH=100000 CONC_ROWS=200000 CLIENTS=4 JOBS=2
COST_CALLS=1000000 COST_RUNS=7 SEQ_BLOCK=256 TIME_INTERVAL= ONLY= SKIP_COST=0
PORT=55430 BUILD=1 PUBLISH= SETUP_SQL= OUT=$BENCH/out
while [ $# -gt 0 ]; do
	case $1 in
	--rows) ROWS=$2; shift ;;
	--batch) BATCH=$2; shift ;;
	--conc-rows) CONC_ROWS=$2; shift ;;
	--clients) CLIENTS=$2; shift ;;
	--jobs) JOBS=$2; shift ;;
	--cost-calls) COST_CALLS=$2; shift ;;
	--cost-runs) COST_RUNS=$2; shift ;;
	--seq-block) SEQ_BLOCK=$2; shift ;;
	--time-interval) TIME_INTERVAL=$2; shift ;;
	--only) ONLY=$2; shift ;;
	--skip-cost) SKIP_COST=1 ;;
	--quick) ROWS=200000 BATCH=50000 CONC_ROWS=20000 COST_CALLS=200000 COST_RUNS=3 ;;
	--port) PORT=$2; shift ;;
	--no-build) BUILD=0 ;;
	--publish) PUBLISH=$2; shift ;;
	--setup-sql) SETUP_SQL=$(realpath "$2"); shift ;;
	--out) OUT=$(realpath -m "$2"); shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
	shift
done
[ "$PORT" -ge 55430 ] && [ "$PORT" -le 55439 ] || { echo "run.sh: port must be 55430..55439" >&2; exit 2; }

START=$(date +%s)
# say MESSAGE: one progress line with the elapsed time.
say() {
	local s=$(($(date +%s) - START))
	printf '[%02d:%02d] %s\n' $((s / 60)) $((s % 60)) "$*"
}

mkdir -p "$OUT"
# Remove only what an earlier run wrote.
(cd "$OUT" && rm -f raw.csv cost.csv locality.csv concurrent.csv targets.csv results.md generators.txt \
	batches.dat keys_*.dat keyspace*.png wal.png *.gp *.gp.log cost.sql locality_*.sql build.log pgbench.log server.log)
RAW=$OUT/raw.csv
: >"$RAW"

if [ "$BUILD" = 1 ]; then
	say "building and installing the extension with $PG_CONFIG"
	make -C "$ROOT" -s -j2 >"$OUT/build.log" 2>&1 && make -C "$ROOT" -s install >>"$OUT/build.log" 2>&1 || {
		tail -20 "$OUT/build.log"
		exit 1
	}
fi

. "$ROOT/test/cluster.sh"
SHARED_BUFFERS_MB=16
say "starting a throw-away cluster on port $PORT (shared_buffers ${SHARED_BUFFERS_MB}MB)"
CLUSTER_DIR=
trap '[ -n "$CLUSTER_DIR" ] && cluster_stop "$CLUSTER_DIR"' EXIT
trap 'exit 130' INT TERM
# Only our CHECKPOINTs: no timed or size-triggered ones, no autovacuum; commits need not wait.
cluster_start bench "$PORT" \
	"shared_buffers = ${SHARED_BUFFERS_MB}MB" \
	"autovacuum = off" \
	"synchronous_commit = off" \
	"max_wal_size = 16GB" \
	"checkpoint_timeout = 1h" \
	"work_mem = 64MB" \
	"synchronize_seqscans = off" \
	"max_connections = 20"
DIR=$CLUSTER_DIR
psql_b() { cluster_psql "$DIR" "$PORT" -d postgres -At -F, "$@"; }
psql_b -c 'CREATE EXTENSION locality_uuid; CREATE EXTENSION "uuid-ossp"; CREATE EXTENSION pgstattuple;'
[ -z "$SETUP_SQL" ] || psql_b -f "$SETUP_SQL"

# has_function SIGNATURE: true if the function exists (generators still on other branches may not).
has_function() {
	[ "$(psql_b -c "SELECT to_regprocedure('$1') IS NOT NULL")" = t ]
}

{
	cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
	virt=$(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor: *//p')
	mem=$(awk '/MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
	os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")
	echo "meta,machine,$(nproc) x $cpu ($(uname -m)${virt:+, $virt VM}), $mem GB RAM, ${os:-$(uname -s)}"
	echo "meta,postgres,$(psql_b -c 'SHOW server_version')"
	echo "meta,load_at_start,$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "meta,rows,$ROWS"
	echo "meta,batch,$BATCH"
	echo "meta,conc_rows,$CONC_ROWS"
	echo "meta,clients,$CLIENTS"
	echo "meta,shared_buffers_mb,$SHARED_BUFFERS_MB"
	echo "meta,cost_calls,$COST_CALLS"
	echo "meta,cost_runs,$COST_RUNS"
	echo "meta,date,$(date -u '+%Y-%m-%d %H:%M UTC')"
} >>"$RAW"

# ---------------------------------------------------------------------------------------------
# 1. Generation cost: median ns per call of count(f()) over generate_series, minus the floor.
# ---------------------------------------------------------------------------------------------
# name|expression|function that must exist
COST_GENERATORS=(
	"floor|x|-"
	"gen_random_uuid()|gen_random_uuid()|-"
	"uuid_generate_v4()|uuid_generate_v4()|-"
	"nextval()|nextval('bench_cost_s')|-"
	"locality_uuid()|locality_uuid()|locality_uuid()"
	"locality_uuid(false)|locality_uuid(false)|locality_uuid(boolean)"
	"locality_uuid(true)|locality_uuid(true)|locality_uuid(boolean)"
	"uuid_sequence_nextval()|uuid_sequence_nextval('bench_cost_s2')|uuid_sequence_nextval(regclass,integer,integer)"
	"uuid_time_nextval()|uuid_time_nextval()|uuid_time_nextval(integer,integer)"
	"hot_uuid()|hot_uuid(42)|hot_uuid(bigint)"
)

if [ "$SKIP_COST" = 0 ]; then
	say "generation cost: $COST_RUNS runs x $COST_CALLS calls of each generator"
	script=$OUT/cost.sql
	{
		echo "SET work_mem = '256MB';"
		echo "CREATE SEQUENCE bench_cost_s; CREATE SEQUENCE bench_cost_s2;"
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
		# Warm up every generator once (first call seeds per-backend state).
		for g in "${COST_GENERATORS[@]}"; do
			IFS='|' read -r name expr fn <<<"$g"
			[ "$fn" = - ] || has_function "$fn" || continue
			echo "SELECT count($expr) FROM generate_series(1, 10000) x \\gset warm_"
		done
		# Rounds interleave the generators so that outside load spreads over all of them.
		for r in $(seq 1 "$COST_RUNS"); do
			for g in "${COST_GENERATORS[@]}"; do
				IFS='|' read -r name expr fn <<<"$g"
				[ "$fn" = - ] || has_function "$fn" || continue
				echo "SELECT pg_temp.ns_per_call('SELECT count($(sed "s/'/''/g" <<<"$expr")) FROM generate_series(1, $COST_CALLS) x', $COST_CALLS) AS ns \\gset"
				echo "\\qecho cost,$r,$name,:ns"
			done
			echo "\\warn '  cost round $r/$COST_RUNS done'"
		done
	} >"$script"
	for g in "${COST_GENERATORS[@]}"; do
		IFS='|' read -r name expr fn <<<"$g"
		[ "$fn" = - ] || has_function "$fn" || { say "  $name: skipped ($fn is not installed)"; echo "skip,cost,$name,${fn//,/;}" >>"$RAW"; }
	done
	psql_b -f "$script" >>"$RAW"
fi

# ---------------------------------------------------------------------------------------------
# 2. B-tree locality: bulk insert in batches with a CHECKPOINT between, then pgbench clients.
# ---------------------------------------------------------------------------------------------
# Rows of one interval of the tuned uuid_time_nextval must fit in shared_buffers: a random
# insert pattern leaves leaves ~70 % full, about 40 bytes of leaf per uuid row, and the heap,
# the inner pages and the rest need the other half of the buffers.
FIT_ROWS=$((SHARED_BUFFERS_MB * 1024 * 1024 / 2 / 40))

# gen_spec NAME: "class|column type|bulk expression|DEFAULT expression|function|label".
# In the bulk expression g is the generate_series row number; bench_s is the table's sequence.
gen_spec() {
	case $1 in
	seq_uuid) echo "baseline|uuid|lpad(to_hex(nextval('bench_s')), 32, '0')::uuid|=|-|sequential uuid" ;;
	bigserial) echo "baseline|bigint|nextval('bench_s')|=|-|bigserial" ;;
	gen_random_uuid) echo "baseline|uuid|gen_random_uuid()|=|-|gen_random_uuid()" ;;
	locality_variable) echo "spread|uuid|locality_uuid(false)|=|locality_uuid(boolean)|locality_uuid(false)" ;;
	locality_sequential) echo "ordered|uuid|locality_uuid(true)|=|locality_uuid(boolean)|locality_uuid(true)" ;;
	hot_uuid) echo "ordered|uuid|hot_uuid(g % 1024)|hot_uuid((random() * 1023)::bigint)|hot_uuid(bigint)|hot_uuid(shard_key)" ;;
	seq_block) echo "block|uuid|uuid_sequence_nextval('bench_s')|=|uuid_sequence_nextval(regclass,integer,integer)|uuid_sequence_nextval(s)" ;;
	seq_block_tuned) echo "block|uuid|uuid_sequence_nextval('bench_s', $SEQ_BLOCK)|=|uuid_sequence_nextval(regclass,integer,integer)|uuid_sequence_nextval(s, $SEQ_BLOCK)" ;;
	time_block) echo "block|uuid|uuid_time_nextval()|=|uuid_time_nextval(integer,integer)|uuid_time_nextval()" ;;
	time_block_tuned) echo "block|uuid|uuid_time_nextval(@TI@)|=|uuid_time_nextval(integer,integer)|uuid_time_nextval(@TI@)" ;;
	time_block_paced) echo "block|uuid|uuid_time_nextval(1)|=|uuid_time_nextval(integer,integer)|uuid_time_nextval(1), paced" ;;
	*) return 1 ;;
	esac
}
GENERATORS=(seq_uuid bigserial gen_random_uuid locality_variable locality_sequential hot_uuid
	seq_block seq_block_tuned time_block time_block_tuned time_block_paced)
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

# wait_for_clients: let pgbench's backends exit and flush their statistics.
WAIT_CLIENTS="DO \$\$ BEGIN FOR i IN 1..500 LOOP PERFORM pg_stat_clear_snapshot(); EXIT WHEN (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()) = 0; PERFORM pg_sleep(0.01); END LOOP; END \$\$;"

# locality_script NAME CLASS TYPE BULK DEFAULT: the psql script of one generator's run.
locality_script() {
	local name=$1 type=$3 bulk=$4 def=$5
	local nb=$(((ROWS + BATCH - 1) / BATCH)) k lo hi
	cat <<-EOF
	DROP TABLE IF EXISTS bench_t; DROP SEQUENCE IF EXISTS bench_s;
	CREATE SEQUENCE bench_s;
	CREATE TABLE bench_t (id $type PRIMARY KEY);
	CHECKPOINT;
	EOF
	for ((k = 1; k <= nb; k++)); do
		lo=$(((k - 1) * BATCH + 1))
		hi=$((k * BATCH < ROWS ? k * BATCH : ROWS))
		# Paced: each batch starts on a new second, so one 1-second interval holds one batch.
		[ "$name" = time_block_paced ] && echo "SELECT pg_sleep(1 - extract(epoch FROM clock_timestamp()) % 1) AS ignore \\gset"
		counters a
		echo "INSERT INTO bench_t (id) SELECT $bulk FROM generate_series($lo, $hi) g;"
		echo "SELECT extract(epoch FROM clock_timestamp()) AS b_t \\gset"
		counters c
		cat <<-EOF
		\\qecho batch,$name,$k,$hi,$((hi - lo + 1)),:b_t,:a_t,:a_wal,:c_wal,:a_fpi,:c_fpi,:a_ird,:c_ird,:c_isz,:a_lsn,:c_lsn
		SELECT format('  %s batch %s/%s: %s rows, %s s, WAL %s B/row, FPI %s/1000 rows, index %s MB, %s blocks read',
		  '$name', $k, $nb, $hi, round((:b_t - :a_t)::numeric, 2), round((:c_wal - :a_wal) / $((hi - lo + 1)).0),
		  round((:c_fpi - :a_fpi) * 1000.0 / $((hi - lo + 1)), 2), round(:c_isz / 1048576.0, 1), :c_ird - :a_ird) AS line \\gset
		\\warn :line
		CHECKPOINT;
		EOF
	done
	# Insertion order is the heap's physical order: one backend appended to a fresh table.
	if [ "$type" = uuid ]; then
		# A random sample: a fixed step could alias with a generator's own stride.
		cat <<-EOF
		SELECT setseed(0.5) AS ignore \\gset
		\\o $OUT/keys_$name.dat
		SELECT n, ('x' || substr(id::text, 1, 8))::bit(32)::bigint FROM (SELECT row_number() OVER () AS n, id FROM bench_t) s WHERE random() < 2000.0 / $ROWS;
		\\o
		EOF
	fi
	cat <<-EOF
	SELECT avg_leaf_density AS d, leaf_fragmentation AS f, leaf_pages AS lp FROM pgstatindex('bench_t_pkey') \\gset
	\\qecho final,$name,$ROWS,:c_isz,:d,:f,:lp
	\\warn '  $name: leaf density' :d '%, leaf fragmentation' :f '%'
	EOF
	# The paced run's concurrent phase would repeat uuid_time_nextval(1)'s.
	if [ "$CONC_ROWS" -gt 0 ] && [ "$name" != time_block_paced ]; then
		local rounds=$(((CONC_ROWS + BATCH - 1) / BATCH)) r per
		cat <<-EOF
		ALTER TABLE bench_t ALTER COLUMN id SET DEFAULT $def;
		CHECKPOINT;
		EOF
		# Start on a fresh interval, or the clients would first finish the bulk load's last one.
		[ "$name" = time_block_tuned ] &&
			echo "SELECT pg_sleep($TIME_INTERVAL - extract(epoch FROM clock_timestamp()) % $TIME_INTERVAL) AS ignore \\gset"
		for ((r = 1; r <= rounds; r++)); do
			per=$(((r * BATCH < CONC_ROWS ? BATCH : CONC_ROWS - (r - 1) * BATCH) / CLIENTS))
			counters a
			echo "\\! '$PGBIN/pgbench' -n -h '$DIR' -p $PORT -U postgres -c $CLIENTS -j $JOBS -t $per -f '$BENCH/insert.pgbench' postgres >>'$OUT/pgbench.log' 2>&1 || echo 'pgbench failed, see $OUT/pgbench.log' >&2"
			echo "SELECT extract(epoch FROM clock_timestamp()) AS b_t \\gset"
			echo "$WAIT_CLIENTS"
			counters c
			cat <<-EOF
			\\qecho conc,$name,$r,$((per * CLIENTS)),:b_t,:a_t,:a_wal,:c_wal,:a_fpi,:c_fpi,:a_ird,:c_ird,:a_isz,:c_isz,:a_lsn,:c_lsn
			SELECT format('  %s concurrent round %s/%s: %s rows by $CLIENTS clients, %s tps, WAL %s B/row, FPI %s/1000 rows, %s blocks read',
			  '$name', $r, $rounds, $((per * CLIENTS)), round($((per * CLIENTS)) / (:b_t - :a_t)::numeric), round((:c_wal - :a_wal) / $((per * CLIENTS)).0),
			  round((:c_fpi - :a_fpi) * 1000.0 / $((per * CLIENTS)), 2), :c_ird - :a_ird) AS line \\gset
			\\warn :line
			CHECKPOINT;
			EOF
		done
		cat <<-EOF
		SELECT avg_leaf_density AS d, leaf_fragmentation AS f FROM pgstatindex('bench_t_pkey') \\gset
		\\qecho concfinal,$name,:d,:f
		EOF
	fi
	echo "DROP TABLE bench_t; DROP SEQUENCE bench_s;"
}

say "locality: ${#GENERATORS[@]} generators x $ROWS rows (CHECKPOINT every $BATCH), then $CONC_ROWS rows by $CLIENTS pgbench clients"
for name in "${GENERATORS[@]}"; do
	IFS='|' read -r class type bulk def fn label <<<"$(gen_spec "$name")"
	if [ "$fn" != - ] && ! has_function "$fn"; then
		say "$name: skipped ($fn is not installed)"
		echo "skip,locality,$name,${fn//,/;}" >>"$RAW"
		continue
	fi
	if [ "$name" = time_block_tuned ]; then
		if [ -z "$TIME_INTERVAL" ]; then
			# Seconds of loading (CHECKPOINTs included) at the sequential baseline's rate that fit in shared_buffers.
			rate=$(awk -F, '$1 == "batch" && $2 == "seq_uuid" { if (!t0) t0 = $7; t1 = $6; n += $5 } END { if (t1 > t0) printf "%d", n / (t1 - t0) }' "$RAW")
			TIME_INTERVAL=$(awk -v f="$FIT_ROWS" -v r="${rate:-0}" 'BEGIN { i = (r > 0) ? int(f / r) : 1; print (i < 1) ? 1 : i }')
			say "tuned interval: ${TIME_INTERVAL} s (about $FIT_ROWS rows fit in shared_buffers; measured insert rate ${rate:-?} rows/s)"
			echo "meta,time_interval_rate,${rate:-0}" >>"$RAW"
			echo "meta,time_interval_fit_rows,$FIT_ROWS" >>"$RAW"
		fi
		bulk=${bulk//@TI@/$TIME_INTERVAL}
		label=${label//@TI@/$TIME_INTERVAL}
		echo "meta,time_interval,$TIME_INTERVAL" >>"$RAW"
	fi
	[ "$def" = "=" ] && def=$bulk
	echo "gen,$name,$class,$type,$label" >>"$RAW"
	say "$label: inserting $ROWS rows"
	locality_script "$name" "$class" "$type" "$bulk" "$def" >"$OUT/locality_$name.sql"
	psql_b -f "$OUT/locality_$name.sql" >>"$RAW"
done
echo "meta,load_at_end,$(cut -d' ' -f1-3 /proc/loadavg)" >>"$RAW"
echo "meta,seconds,$(($(date +%s) - START))" >>"$RAW"

# ---------------------------------------------------------------------------------------------
# 3. Tables and plots.
# ---------------------------------------------------------------------------------------------
say "writing tables and plots"
cluster_stop "$DIR"
cp "$DIR/server.log" "$OUT/server.log"
CLUSTER_DIR=
awk -F, -v out="$OUT" -f "$BENCH/report.awk" "$RAW"
if command -v gnuplot >/dev/null; then
	bash "$BENCH/plot.sh" "$OUT" || echo "run.sh: plotting failed" >&2
else
	echo "run.sh: gnuplot not found (apt-get install gnuplot-nox); no plots" >&2
fi
if [ -n "$PUBLISH" ]; then
	mkdir -p "$PUBLISH"
	cp "$OUT"/results.md "$OUT"/cost.csv "$OUT"/locality.csv "$OUT"/targets.csv "$OUT"/*.png "$PUBLISH"/
	[ -f "$OUT/concurrent.csv" ] && cp "$OUT/concurrent.csv" "$PUBLISH"/
	say "copied tables and plots to $PUBLISH"
fi
cat "$OUT/results.md"
say "done in $(($(date +%s) - START)) s; output in $OUT"
