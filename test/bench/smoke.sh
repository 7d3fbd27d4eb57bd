#!/usr/bin/env bash
# Benchmark smoke run: a small test/bench/run.pl completes and writes every table and plot, and
# docs/bench/README.md's tables are what test/bench/page.pl makes of the committed CSV files.
# It checks that figures were produced, never how fast anything was (the benchmark judges nothing).
# Peers (uuidv7(), pg_uuidv7, sequential_uuids) are measured when they can be had and otherwise
# skipped with a reason; their sources come from LOCALITY_UUID_VENDOR, as for run.pl.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PG_CONFIG=${PG_CONFIG:-pg_config}
OUT=test/out/bench-smoke

. test/bench/check.sh

check "docs/bench/README.md's tables match its CSV files" 'perl test/bench/page.pl --check'
mkdir -p "$(dirname "$OUT")"
perl test/bench/run.pl --quick --rows 50000 --batch 25000 --conc-rows 4000 --cost-calls 50000 --cost-runs 1 \
	--cc-calls 10000 --cc-runs 1 --mono-ids 20000 --short-rows 40000 --short-batch 5000 --short-checkpoint 20000 \
	--short-conc-rows 2000 --no-build --out "$OUT" >"$OUT.log" 2>&1
rc=$?
R=$OUT/raw.csv
check "run.pl exits 0" '[ $rc -eq 0 ] || { tail -20 "$OUT.log"; false; }'

# Skips are allowed for peers only, each with a reason.
PEERS='^(pg_uuidv7|su_seq_block|su_time_block|uuid_generate_v7\(\) \(pg_uuidv7\)|.* \(sequential_uuids\))$'
# bad_skips: skip lines of generators that are not peers, or without a reason.
bad_skips() {
	P=$PEERS awk -F, '$1 == "skip" && ($3 !~ ENVIRON["P"] || $4 == "")' "$R"
}
check "only peers are skipped, each with a reason" '[ -z "$(bad_skips | tee -a /dev/stderr)" ]'
# uuidv7() and uuidv4() are core's from 18 and this extension's before: measured on every major.
server=$(awk -F, '$1 == "meta" && $2 == "postgres" { split($3, v, "."); print v[1] + 0 }' "$R")
check "uuidv7(), uuidv4() and uuidv7_ordered() are measured on PostgreSQL $server" '! grep -q "^skip,[a-z]*,uuidv" "$R"'
if [ "${server:-0}" -ge 18 ]; then
	check "uuidv7() is core's on PostgreSQL $server" 'grep -q "^meta,v7_owner,core$" "$R"'
else
	check "uuidv7() is this extension's on PostgreSQL $server" 'grep -q "^meta,v7_owner,ours$" "$R"'
fi

# measured_or_skipped CSV PART N COL: N generators, each with a row (whose column COL is > 0,
# unless COL is 0: cost figures above the floor may come out negative on a loaded machine) or a skip line.
measured_or_skipped() {
	local csv=$1 part=$2 n=$3 col=$4 m s
	m=$(awk -F, -v c="$col" 'NR > 1 && (c == 0 || $c > 0)' "$OUT/$csv" 2>/dev/null | wc -l)
	s=$(grep -c "^skip,$part," "$R")
	[ $((m + s)) -eq "$n" ] || { echo "# $csv: $m measured + $s skipped, expected $n" >&2; false; }
}
check "cost.csv: the floor and 26 generators and façade functions (both ways, in both editions) measured or skipped" 'measured_or_skipped cost.csv cost 27 0'
check "cost_concurrent.csv: 24 generators and façade functions measured or skipped" 'measured_or_skipped cost_concurrent.csv cost 24 0'
check "monotonic.csv: 5 generators measured or skipped" 'measured_or_skipped monotonic.csv monotonic 5 0'
check "locality.csv: 21 generators with WAL per row > 0 or skipped" 'measured_or_skipped locality.csv locality 21 7'
check "concurrent.csv: 20 generators with rows/s > 0 or skipped" 'measured_or_skipped concurrent.csv locality 20 5'
check "short.csv: 15 generators with WAL per row > 0 or skipped" 'measured_or_skipped short.csv short 15 7'
check "short_concurrent.csv: 15 generators with rows/s > 0 or skipped" 'measured_or_skipped short_concurrent.csv short 15 5'
# cost_targets NAME: the number of cost targets of generator NAME in targets.csv.
cost_targets() {
	G="\`$1\`\"," awk -F'","' '$1 ~ /^"cost/ && index($2, ENVIRON["G"]) == 1' "$OUT/targets.csv" | wc -l
}
check "targets.csv: 3 cost targets of uuidv7_ordered() (one backend, 1 and N clients)" '[ "$(cost_targets "uuidv7_ordered()")" -eq 3 ]'
if grep -q "^meta,v7_owner,ours$" "$R"; then
	check "targets.csv: 3 cost targets of this extension's uuidv7()" '[ "$(cost_targets "uuidv7()")" -eq 3 ]'
fi
# The portable SQL edition (schema lu_sql) is never skipped: the rows must be there, by name.
# portable_rows CSV COL PATTERN N: N rows that match PATTERN and whose column COL is > 0 (quoted
# labels, which may hold commas, count as one column).
portable_rows() {
	local m
	m=$(P=$3 awk -F, -v c="$2" 'NR > 1 { l = $0; gsub(/"[^"]*"/, "q"); if (l ~ ENVIRON["P"] && $c > 0) print }' "$OUT/$1" | wc -l)
	[ "$m" -eq "$4" ] || { echo "# $1: $m portable rows with column $2 > 0, expected $4" >&2; false; }
}
check "cost.csv: 8 portable functions (lu_sql.*) with a total ns per call > 0" \
	'portable_rows cost.csv 2 "^\"lu_sql[.]" 8'
check "cost_concurrent.csv: 8 portable functions with 1-client ns per call > 0" 'portable_rows cost_concurrent.csv 2 "^\"lu_sql[.]" 8'
check "locality.csv: 5 portable generators with WAL per row > 0 and leaf density > 0" \
	'portable_rows locality.csv 7 "^portable_" 5 && portable_rows locality.csv 12 "^portable_" 5'
check "concurrent.csv: 5 portable generators with rows/s > 0" 'portable_rows concurrent.csv 5 "^portable_" 5'
check "results.md lists the portable generators in the bulk and concurrent tables" \
	'[ "$(grep -c "^| \`lu_sql[.].*\` | portable |" "$OUT/results.md")" -eq 10 ]'
check "the tuned time generator says how it was chosen" 'grep -q "^meta,time_interval_how,." "$R"'
check "results.md has the short-session tables and the targets" \
	'grep -q "^### Short sessions, bulk load" "$OUT/results.md" && grep -q "^### Short sessions, pgbench -C" "$OUT/results.md" && grep -q "^### Targets" "$OUT/results.md"'
for png in keyspace keyspace-zoom wal short cost; do
	check "$png.png drawn" '[ -s "$OUT/$png.png" ] && ! grep -qi error "$OUT"/*.gp.log'
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
