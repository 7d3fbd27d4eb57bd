#!/usr/bin/env bash
# Uniqueness under load: pgbench with 8 clients inserts ids from every generator into
# unique keys, on kept and on per-transaction connections; zero errors, exact counts.
# Prints ids per second per generator. Then: a long statement stops on cancel.
set -uo pipefail
. "$(dirname "$0")/../reliability-lib.sh"

PORT=55441
CLIENTS=8
GEN_TX=25 GEN_IDS=10000       # generate only: 8 x 25 x 10000 = 2000000 ids per generator
INS_TX=200 INS_IDS=100        # insert: 8 x 200 x 100 = 160000 rows per generator
MIX_TX=400 MIX_C_TX=150 MIX_IDS=10 # per generator: 8 x (400 + 150) x 10 = 44000 rows

rel_start load $PORT "max_connections = 50"
D=$CLUSTER_DIR
WORK=$D/pgbench
mkdir -p "$WORK"

psql_q() { q "$D" $PORT "$@"; }
psql_q "CREATE EXTENSION locality_uuid; $GENERATOR_SETUP" >/dev/null || { not_ok "create extension"; rel_finish; }
for g in "${GENERATORS[@]}"; do
	n=$(gen_name "$g")
	psql_q "CREATE TABLE load_$n (id uuid PRIMARY KEY); CREATE TABLE mix_$n (id uuid PRIMARY KEY);" >/dev/null
done

# bench NAME EXPECTED_TX SCRIPT [pgbench args...]: run pgbench; pass when every transaction
# commits and none fails; sets TPS (without connection time where pgbench reports it).
bench() {
	local name=$1 want=$2 script=$3
	shift 3
	local log=$WORK/$name.log
	"$PGBIN/pgbench" -h "$D" -p $PORT -n -c $CLIENTS -j 2 -f "$script" "$@" postgres >"$log" 2>&1
	local rc=$?
	local done failed
	done=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$log")
	failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$log")
	TPS=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$log" | tail -1)
	if [ $rc -eq 0 ] && [ "$done" == "$want" ] && [ "${failed:-0}" == 0 ] && [ -n "$TPS" ]; then
		ok "$name: $done/$want transactions, 0 failed"
	else
		TPS=0
		not_ok "$name: pgbench rc $rc, $done/$want transactions, ${failed:-?} failed" "$(grep -iE 'error|abort|fail' "$log" | head -5)"
	fi
}

# rate TPS IDS_PER_TX: ids per second, rounded.
rate() { awk -v t="$1" -v n="$2" 'BEGIN { printf "%d", t * n }'; }

# 1. Each generator alone: generation rate, then inserts into a unique key. Inserts skip a
# duplicate (ON CONFLICT DO NOTHING) so that the run goes on and the count shows how many.
declare -A seq_calls=()
echo "# ids per second, $CLIENTS clients ($(nproc) cores): generate only | insert into a primary key"
for g in "${GENERATORS[@]}"; do
	n=$(gen_name "$g")
	e=$(gen_expr "$g")
	echo "SELECT count($e) FROM generate_series(1, $GEN_IDS);" >"$WORK/gen_$n.sql"
	bench "generate $n" $((CLIENTS * GEN_TX)) "$WORK/gen_$n.sql" -t $GEN_TX
	gen_rate=$(rate "$TPS" $GEN_IDS)
	echo "INSERT INTO load_$n SELECT $e FROM generate_series(1, $INS_IDS) ON CONFLICT DO NOTHING;" >"$WORK/ins_$n.sql"
	bench "insert $n" $((CLIENTS * INS_TX)) "$WORK/ins_$n.sql" -t $INS_TX
	ins_rate=$(rate "$TPS" $INS_IDS)
	echo "# rate $n: $gen_rate ids/s generated, $ins_rate ids/s inserted"
	want=$((CLIENTS * INS_TX * INS_IDS))
	is "insert $n: $want rows, 0 duplicates" \
		"$(psql_q "SELECT count(*) || ' rows, ' || $want - count(*) || ' duplicates' FROM load_$n")" \
		"$want rows, 0 duplicates"
	case $e in *rel_shared_seq*)
		seq_calls[$n]=$((CLIENTS * GEN_TX * GEN_IDS + CLIENTS * INS_TX * INS_IDS)) ;;
	esac
done

# 2. Every generator in one transaction, first on kept connections, then with a new
# connection per transaction (-C) so that backend slots and pids are reused.
{
	echo "BEGIN;"
	for g in "${GENERATORS[@]}"; do
		echo "INSERT INTO mix_$(gen_name "$g") SELECT $(gen_expr "$g") FROM generate_series(1, $MIX_IDS) ON CONFLICT DO NOTHING;"
	done
	echo "COMMIT;"
} >"$WORK/mix.sql"
bench "all generators per transaction" $((CLIENTS * MIX_TX)) "$WORK/mix.sql" -t $MIX_TX
bench "all generators per transaction, new connection each (-C)" $((CLIENTS * MIX_C_TX)) "$WORK/mix.sql" -t $MIX_C_TX -C
echo "# rate all generators, -C: $(rate "$TPS" $((MIX_IDS * ${#GENERATORS[@]}))) ids/s"
mix_rows=$((CLIENTS * (MIX_TX + MIX_C_TX) * MIX_IDS))
union=""
for g in "${GENERATORS[@]}"; do
	n=$(gen_name "$g")
	is "mix $n: $mix_rows rows, 0 duplicates" \
		"$(psql_q "SELECT count(*) || ' rows, ' || $mix_rows - count(*) || ' duplicates' FROM mix_$n")" \
		"$mix_rows rows, 0 duplicates"
	union="$union${union:+ UNION ALL }SELECT id, 'load_$n' AS t FROM load_$n UNION ALL SELECT id, 'mix_$n' FROM mix_$n"
	case $(gen_expr "$g") in *rel_shared_seq*)
		seq_calls[$n]=$((${seq_calls[$n]} + mix_rows)) ;;
	esac
done
total=$(((CLIENTS * INS_TX * INS_IDS + mix_rows) * ${#GENERATORS[@]}))
is "all generators together: $total ids, no id twice" \
	"$(psql_q "SELECT count(*) || ' ' || count(DISTINCT id) FROM ($union) s")" "$total $total"
# Where ids repeat across tables, say which.
psql_q "SELECT '# id in ' || tables || ': ' || count(*) FROM (SELECT string_agg(t, ' and ' ORDER BY t) AS tables
	FROM ($union) s GROUP BY id HAVING count(*) > 1) d GROUP BY tables ORDER BY 1"

# Slots are reused, process fields stay few: the 16-bit field is the backend slot.
echo "# -C run: $((CLIENTS * MIX_C_TX)) connections; distinct process fields in locality ids:" \
	"$(psql_q "SELECT count(DISTINCT locality_uuid_pid(id)) FROM mix_locality_variable")"

# The shared sequence was called exactly once per id of the generators that use it.
if [ ${#seq_calls[@]} -gt 0 ]; then
	want=0
	for n in "${!seq_calls[@]}"; do want=$((want + ${seq_calls[$n]})); done
	is "shared sequence: one nextval per id" "$(psql_q "SELECT last_value FROM rel_shared_seq")" "$want"
fi

errors=$(grep -cE '(ERROR|FATAL|PANIC):' "$D/server.log")
is "server log: no errors during the load" "$errors" 0

# 3. A long statement stops on cancel and on statement_timeout, and the backend goes on.
start=$(date +%s%N)
cluster_psql "$D" $PORT -At -c "SET application_name = 'rel_cancel'" \
	-c "SELECT count(locality_uuid()) FROM generate_series(1, 100000) a, generate_series(1, 100000) b" >"$WORK/cancel.out" 2>&1 &
bg=$!
cancelled=f
for _ in $(seq 1 100); do
	sleep 0.1
	cancelled=$(psql_q "SELECT coalesce(bool_or(pg_cancel_backend(pid)), false) FROM pg_stat_activity
		WHERE application_name = 'rel_cancel' AND state = 'active'")
	[ "$cancelled" == t ] && break
done
wait $bg
ms=$((($(date +%s%N) - start) / 1000000))
if [ "$cancelled" == t ] && grep -q 'canceling statement due to user request' "$WORK/cancel.out"; then
	ok "pg_cancel_backend stops a long generate (${ms} ms)"
else
	not_ok "pg_cancel_backend stops a long generate" "$(cat "$WORK/cancel.out")"
fi
is "statement_timeout stops a long generate with 57014" \
	"$(cluster_psql "$D" $PORT -At -v VERBOSITY=sqlstate -c "SET statement_timeout = '300ms'" \
		-c "SELECT count(locality_uuid(true)) FROM generate_series(1, 100000) a, generate_series(1, 100000) b" 2>&1)" \
	"ERROR:  57014"
is "server still answers" "$(psql_q "SELECT locality_uuid_version(locality_uuid())")" b

rel_finish
