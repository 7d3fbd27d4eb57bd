#!/usr/bin/env bash
# Cost of routing rows to time partitions: rows a second into a plain table and into a table
# partitioned by month (docs/partitioning.md's recipes), each id from the column DEFAULT.
#
# Usage (as root, or as the user that owns the cluster directory): bash test/bench/partition_routing.sh [options]
#   --rows N        rows per table (default 1000000)
#   --months N      monthly partitions before and after the current one (default 12: 25 partitions)
#   --repeat N      loads per table, alternating plain and partitioned; the least is shown (default 5)
#   --port N        cluster port (default 55429)
#   --out DIR       cluster and log directory (default test/bench/out/partition_routing)
#   --no-build      do not build and install this extension (it must already be installed)
#
# Per format, a plain table and a partitioned one with the same DEFAULT, the same primary key or
# unique index and nothing else; each load is one INSERT ... SELECT of --rows rows (all of the
# current month) in one backend into the emptied table, timed by the server (clock_timestamp
# before and after) and by the backend's CPU time, after a CHECKPOINT; plain and partitioned
# alternate, --repeat times. One run: the least wall and CPU times of the loads are what this
# machine did once; the ratio is that of rows per CPU second, partitioned to plain.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
PG_CONFIG=${PG_CONFIG:-pg_config}
ROWS=1000000
MONTHS=12
REPEAT=5
PORT=55429
OUT=$ROOT/test/bench/out/partition_routing
BUILD=1
while [ $# -gt 0 ]; do
	case $1 in
	--rows) ROWS=$2; shift 2 ;;
	--months) MONTHS=$2; shift 2 ;;
	--repeat) REPEAT=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--no-build) BUILD=0; shift ;;
	-h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "partition_routing: unknown argument $1" >&2; exit 2 ;;
	esac
done

BIN=$("$PG_CONFIG" --bindir)
if [ $BUILD -eq 1 ]; then
	make -s -j2 PG_CONFIG="$PG_CONFIG" >/dev/null && make -s install PG_CONFIG="$PG_CONFIG" >/dev/null
fi

# as_owner CMD...: run as the user that owns OUT (postgres when run as root).
as_owner() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
rm -rf "$OUT" && mkdir -p "$OUT"
[ "$(id -u)" = 0 ] && chown postgres "$OUT"
as_owner "$BIN/initdb" -D "$OUT/data" -A trust >/dev/null
as_owner "$BIN/pg_ctl" -D "$OUT/data" -l "$OUT/server.log" -w \
	-o "-p $PORT -k $OUT -c timezone=UTC -c shared_buffers=256MB -c max_wal_size=4GB -c synchronous_commit=off" start >/dev/null
trap 'as_owner "$BIN/pg_ctl" -D "$OUT/data" -m fast stop >/dev/null' EXIT
psql_run() {
	as_owner "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$OUT" -p "$PORT" -d postgres "$@"
}
psql_run -c 'CREATE EXTENSION locality_uuid'

# Each format: name, DEFAULT, partition key, bound of a month start (%s), whether the key is an
# expression (then no primary key on the parent: a unique index on id in each partition).
# The backend's CPU time (user and system) in clock ticks, from /proc (Linux); the least of the
# loads is shown, since the wall clock of a shared machine measures its other users as well.
TICKS=$(getconf CLK_TCK)
CPU_TICKS="(SELECT f[14]::bigint + f[15]::bigint FROM string_to_array(pg_read_file('/proc/self/stat'), ' ') f)"
# least N...: the smallest of the numbers.
least() {
	printf '%s\n' "$@" | sort -n | head -1
}

FORMATS=(
	"hot_uuid|hot_uuid(7)|id|hot_uuid_boundary(%s)|0"
	"uuidv7|uuidv7()|id|uuidv7_lower(%s)|0"
	"uuidv7_ordered|uuidv7_ordered()|id|uuidv7_lower(%s)|0"
	"locality|locality_uuid()|locality_uuid_timestamp(id)|%s|1"
)

printf '%-15s %-6s %8s %7s %9s %7s %9s %6s   %s\n' format table rows wall_s rows/s cpu_s rows/cpu_s ratio \
	'(wall s of each load | backend CPU s of each load)'
for f in "${FORMATS[@]}"; do
	IFS='|' read -r name default key bound expr <<<"$f"
	pk="PRIMARY KEY"
	[ "$expr" = 1 ] && pk=""
	psql_run <<-SQL
		CREATE TABLE ${name}_plain (id uuid NOT NULL $pk DEFAULT $default, payload integer);
		CREATE TABLE ${name}_part (id uuid NOT NULL $pk DEFAULT $default, payload integer)
		    PARTITION BY RANGE ($key);
		DO \$\$
		DECLARE
		    m timestamptz;
		BEGIN
		    FOR i IN -$MONTHS..$MONTHS LOOP
		        m := date_trunc('month', now()) + i * interval '1 month';
		        EXECUTE format('CREATE TABLE %I PARTITION OF ${name}_part FOR VALUES FROM (%s) TO (%s)',
		                       '${name}_part_' || to_char(m, 'YYYY_MM'),
		                       format('$bound', quote_literal(m)),
		                       format('$bound', quote_literal(m + interval '1 month')));
		        IF $expr = 1 THEN
		            EXECUTE format('CREATE UNIQUE INDEX ON %I (id)', '${name}_part_' || to_char(m, 'YYYY_MM'));
		        END IF;
		    END LOOP;
		END
		\$\$;
	SQL
	[ "$expr" = 1 ] && psql_run -c "CREATE UNIQUE INDEX ON ${name}_plain (id)"
	declare -A wall=() cpu=()
	for run in $(seq "$REPEAT"); do
		for table in ${name}_plain ${name}_part; do
			read -r w c < <(psql_run -At -F ' ' <<-SQL
				TRUNCATE $table;
				CHECKPOINT;
				SELECT clock_timestamp() AS t0, $CPU_TICKS AS c0 \gset
				INSERT INTO $table (payload) SELECT g FROM generate_series(1, $ROWS) g;
				SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 3),
				       round(($CPU_TICKS - :c0) / $TICKS.0, 2);
			SQL
			)
			wall[$table]+="$w "
			cpu[$table]+="$c "
		done
	done
	plain_cpu_rate=
	for table in ${name}_plain ${name}_part; do
		w=$(least ${wall[$table]})
		c=$(least ${cpu[$table]})
		rate=$(awk -v r="$ROWS" -v s="$w" 'BEGIN { printf "%.0f", r / s }')
		cpu_rate=$(awk -v r="$ROWS" -v s="$c" 'BEGIN { printf "%.0f", r / s }')
		if [ -z "$plain_cpu_rate" ]; then
			plain_cpu_rate=$cpu_rate
			ratio=1.00
		else
			ratio=$(awk -v a="$cpu_rate" -v b="$plain_cpu_rate" 'BEGIN { printf "%.2f", a / b }')
		fi
		printf '%-15s %-6s %8s %7s %9s %7s %9s %6s   %s| %s\n' "$name" "${table#"${name}"_}" "$ROWS" \
			"$w" "$rate" "$c" "$cpu_rate" "$ratio" "${wall[$table]}" "${cpu[$table]% }"
	done
	# Every row of the partitioned table is in the partition of the current month.
	psql_run -At -c "SELECT '  check: ' || count(*) FILTER (WHERE tableoid::regclass::text = '${name}_part_' || to_char(now(), 'YYYY_MM')) || ' of ' || count(*) || ' rows in the current month''s partition' FROM ${name}_part"
done
