#!/usr/bin/env bash
# Smoke runs of the benchmarks, as TAP: they check that figures were produced, never how fast
# anything was. Output in test/out/bench-MODE. Usage: bash test/bench/smoke.sh [MODE]
#   run (default): a small run.pl writes every table and plot (peers, from LOCALITY_UUID_VENDOR,
#     measured or skipped with a reason), and docs/bench/README.md's tables are page.pl's of its CSV files;
#   past_memory, time_questions: MODE.pl --short in a memory cgroup (skipped, with the reason, where
#     none can be made) writes every CSV file with the rows expected and the plot;
#   contention: contention.pl, one round of 1 s a call, unpinned and pinned.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
export PG_CONFIG=${PG_CONFIG:-pg_config}
what=${1:-run}
OUT=test/out/bench-$what
mkdir -p "$OUT"
passed=0 failed=0

# check NAME COMMAND: evaluate COMMAND; print "ok - NAME" or "not ok - NAME" and count it.
check() {
	if eval "$2"; then passed=$((passed + 1)) && echo "ok - $1"; else failed=$((failed + 1)) && echo "not ok - $1"; fi
}
# exits COMMAND...: run COMMAND (output in $OUT.log) and check that it exited 0.
exits() {
	local rc
	"$@" >"$OUT.log" 2>&1
	rc=$?
	check "${*:1:2} exits 0" "[ $rc -eq 0 ] || { tail -20 '$OUT.log'; false; }"
}
# rows FILE PATTERN N: N lines of FILE after the first match PATTERN.
rows() {
	local m
	m=$(tail -n +2 "$1" 2>/dev/null | grep -cE "$2")
	[ "$m" -eq "$3" ] || { echo "# $1: $m rows match $2, expected $3" >&2; false; }
}
# drawn PNG...: each plot is written and gnuplot reported no error.
drawn() {
	for png; do check "$png.png drawn" '[ -s "$OUT/$png.png" ] && ! grep -qi error "$OUT"/*.gp.log'; done
}

# cgroup_run NAME: NAME.pl --short in a memory cgroup; the cgroup made and removed, the postmaster
# and a backend in it, its peak use recorded, nothing killed by its OOM killer, no data left.
cgroup_run() {
	local why raw=$OUT/$1_raw.csv cg
	why=$(perl "test/bench/$1.pl" --check-cgroup) || { echo "1..0 # SKIP no memory cgroup: $why"; exit 0; }
	exits perl "test/bench/$1.pl" --short --no-build --out "$OUT"
	cg=$(awk -F, '$1 == "meta" && $2 == "cgroup" { sub(/^v[12] /, "", $3); print $3 }' "$raw" 2>/dev/null)
	check "the cgroup was made (${cg:-none}) and is removed" "[ -n '$cg' ] && [ ! -e '$cg' ]"
	check "the postmaster and a backend were in the cgroup" \
		"grep -q '^meta,member,[0-9]* .*/locality_uuid_bench_[0-9]*$' '$raw' && grep -q '^meta,member_backend,[0-9]* .*/locality_uuid_bench_[0-9]*$' '$raw'"
	check "the cgroup's peak use is recorded" "grep -q '^meta,cgroup_peak_mb,[0-9.]*$' '$raw'"
	check "no process was killed by the cgroup's OOM killer" "! grep -q '^meta,cgroup_oom_kill,[1-9]' '$raw'"
	check "the data directory is gone" '[ -z "$(ls -d "$OUT"/tmp_check/t_*_data/pgdata 2>/dev/null)" ]'
	drawn "$1"
}

# measured_or_skipped CSV PART N COL: N generators, each with a row (whose column COL is > 0,
# unless COL is 0: cost figures above the floor may come out negative on a loaded machine) or a skip line.
measured_or_skipped() {
	local m s
	m=$(awk -F, -v c="$4" 'NR > 1 && (c == 0 || $c > 0)' "$OUT/$1" 2>/dev/null | wc -l)
	s=$(grep -c "^skip,$2," "$R")
	[ $((m + s)) -eq "$3" ] || { echo "# $1: $m measured + $s skipped, expected $3" >&2; false; }
}
# cost_targets NAME: the number of cost targets of generator NAME in targets.csv.
cost_targets() {
	G="\`$1\`\"," awk -F'","' '$1 ~ /^"cost/ && index($2, ENVIRON["G"]) == 1' "$OUT/targets.csv" | wc -l
}
# portable_rows CSV COL PATTERN N: N rows that match PATTERN and whose column COL is > 0 (quoted
# labels, which may hold commas, count as one column).
portable_rows() {
	local m
	m=$(P=$3 awk -F, -v c="$2" 'NR > 1 { l = $0; gsub(/"[^"]*"/, "q"); if (l ~ ENVIRON["P"] && $c > 0) print }' "$OUT/$1" | wc -l)
	[ "$m" -eq "$4" ] || { echo "# $1: $m portable rows with column $2 > 0, expected $4" >&2; false; }
}

# Skips are allowed for peers only, each with a reason.
export PEERS='^(pg_uuidv7|su_seq_block|su_time_block|uuid_generate_v7\(\) \(pg_uuidv7\)|.* \(sequential_uuids\))$'
smoke_run() {
	R=$OUT/raw.csv
	check "docs/bench/README.md's tables match its CSV files" 'perl test/bench/page.pl --check'
	exits perl test/bench/run.pl --quick --rows 20000 --batch 10000 --conc-rows 2000 --cost-calls 20000 --cost-runs 1 \
		--cc-calls 4000 --cc-runs 1 --mono-ids 10000 --short-rows 16000 --short-batch 4000 --short-checkpoint 8000 \
		--short-conc-rows 1000 --no-build --out "$OUT"
	check "only peers are skipped, each with a reason" '[ -z "$(awk -F, "\$1 == \"skip\" && (\$3 !~ ENVIRON[\"PEERS\"] || \$4 == \"\")" "$R" | tee -a /dev/stderr)" ]'
	# uuidv7() and uuidv4() are core's from 18 and this extension's before: measured on every major.
	local server owner=ours
	server=$(awk -F, '$1 == "meta" && $2 == "postgres" { split($3, v, "."); print v[1] + 0 }' "$R")
	check "uuidv7(), uuidv4() and uuidv7_ordered() are measured on PostgreSQL $server" '! grep -q "^skip,[a-z]*,uuidv" "$R"'
	[ "${server:-0}" -lt 18 ] || owner=core
	check "uuidv7() is $owner (core's from 18, ours before) on PostgreSQL $server" 'grep -q "^meta,v7_owner,$owner$" "$R"'
	check "cost.csv: the floor and 26 generators and façade functions (both ways, in both editions) measured or skipped" 'measured_or_skipped cost.csv cost 27 0'
	check "cost_concurrent.csv: 24 generators and façade functions measured or skipped" 'measured_or_skipped cost_concurrent.csv cost 24 0'
	check "monotonic.csv: 5 generators measured or skipped" 'measured_or_skipped monotonic.csv monotonic 5 0'
	check "locality.csv: 21 generators with WAL per row > 0 or skipped" 'measured_or_skipped locality.csv locality 21 7'
	check "concurrent.csv: 20 generators with rows/s > 0 or skipped" 'measured_or_skipped concurrent.csv locality 20 5'
	check "short.csv: 15 generators with WAL per row > 0 or skipped" 'measured_or_skipped short.csv short 15 7'
	check "short_concurrent.csv: 15 generators with rows/s > 0 or skipped" 'measured_or_skipped short_concurrent.csv short 15 5'
	check "targets.csv: 3 cost targets of uuidv7_ordered() (one backend, 1 and N clients)" '[ "$(cost_targets "uuidv7_ordered()")" -eq 3 ]'
	[ $owner = core ] || check "targets.csv: 3 cost targets of this extension's uuidv7()" '[ "$(cost_targets "uuidv7()")" -eq 3 ]'
	# The portable SQL edition (schema lu_sql) is never skipped: the rows must be there, by name.
	check "cost.csv: 8 portable functions (lu_sql.*) with a total ns per call > 0" 'portable_rows cost.csv 2 "^\"lu_sql[.]" 8'
	check "cost_concurrent.csv: 8 portable functions with 1-client ns per call > 0" 'portable_rows cost_concurrent.csv 2 "^\"lu_sql[.]" 8'
	check "locality.csv: 5 portable generators with WAL per row > 0 and leaf density > 0" \
		'portable_rows locality.csv 7 "^portable_" 5 && portable_rows locality.csv 12 "^portable_" 5'
	check "concurrent.csv: 5 portable generators with rows/s > 0" 'portable_rows concurrent.csv 5 "^portable_" 5'
	check "results.md lists the portable generators in the bulk and concurrent tables" \
		'[ "$(grep -c "^| \`lu_sql[.].*\` | portable |" "$OUT/results.md")" -eq 10 ]'
	check "the tuned time generator says how it was chosen" 'grep -q "^meta,time_interval_how,." "$R"'
	check "results.md has the short-session tables and the targets" \
		'grep -q "^### Short sessions, bulk load" "$OUT/results.md" && grep -q "^### Short sessions, pgbench -C" "$OUT/results.md" && grep -q "^### Targets" "$OUT/results.md"'
	drawn keyspace keyspace-zoom wal short cost
}

smoke_past_memory() {
	local g c N='[0-9]+(\.[0-9]+)?' F=$OUT/past_memory
	cgroup_run past_memory
	for g in bigserial gen_random_uuid locality_true; do
		for c in 1 8; do
			check "load.csv: $g with $c client(s), every figure there" \
				"rows ${F}_load.csv '^$g,[^,]+,[a-z]+,$c,$N,$N,$N,($N)?,$N,$N,$N,$N,$N,$N,$N,$N,\$' 1"
			check "reads.csv: $g with $c client(s), recent and all rows" \
				"rows ${F}_reads.csv '^$g,[^,]+,$c,recent,$N,300,$N,$N,$N,$N,$N\$' 1 && rows ${F}_reads.csv '^$g,[^,]+,$c,all,$N,300,$N,$N,$N,$N,$N\$' 1"
			check "progress.csv: $g with $c client(s), samples every 2 s" \
				"[ \"\$(grep -cE '^$g,[^,]+,$c,$N,$N,$N,$N,$N,$N\$' ${F}_progress.csv)\" -ge 2 ]"
		done
	done
	check "the CSV files have nothing else" 'rows ${F}_load.csv "" 6 && rows ${F}_reads.csv "" 12'
	check "past_memory.md has a row per load" '[ "$(grep -c "^| \`" "$F.md")" -eq 6 ]'
}

smoke_time_questions() {
	local q w plain ways="words words_no_check made range created_at" R=$OUT/time_questions_raw.csv Q=$OUT/time_questions_queries.csv
	cgroup_run time_questions
	check "no count differs from the plain predicate's" '! grep -q "^error,count," "$R"'
	check "the plain predicate reads every row, no index" 'grep -q "^meta,plain_plan,.*Seq Scan,no index$" "$R"'
	for q in last_hour day_month_ago month grafana; do
		plain=$(awk -F, -v q=$q '$1 == "count" && $2 == q && $3 == "plain" { split($4, c, " "); print c[1]; exit }' "$R" 2>/dev/null)
		for w in $ways; do
			check "$q, $w: cold and warm measured, each counting the plain predicate's ${plain:-?} rows" \
				"[ \"\$(awk -F, -v q=$q -v w=$w -v n='$plain' '\$2 == q && \$3 == w && \$13 == n && \$13 > 0 && \$6 > 0 && \$10 > 0' $Q | wc -l)\" -eq 2 ]"
		done
	done
	check "the user's words and uuidv7_made are index conditions on tq_pkey (without the CHECK on tq_u_pkey), for the last hour, the day and Grafana's BETWEEN" \
		'[ "$(awk -F, "\$2 != \"month\" && (((\$3 == \"words\" || \$3 == \"made\") && \$14 == \"tq_pkey\") || (\$3 == \"words_no_check\" && \$14 == \"tq_u_pkey\")) && \$16 != \"\"" "$Q" | wc -l)" -eq 18 ]'
	check "the hand-written range and created_at use tq_pkey and tq_c_created_at_idx, for the last hour, the day and Grafana's BETWEEN" \
		'[ "$(awk -F, "\$2 != \"month\" && ((\$3 == \"range\" && \$14 == \"tq_pkey\") || (\$3 == \"created_at\" && \$14 == \"tq_c_created_at_idx\"))" "$Q" | wc -l)" -eq 12 ]'
	check "inserts: a round into each table, rows > 0" \
		'rows "$OUT/time_questions_inserts.csv" "^1,tq(_c)?,(yes|no),2,2,[1-9][0-9]*,[1-9][0-9]*$" 2'
	check "storage.csv: heap and indexes of tq and tq_c, each > 0, and their ratio" \
		'rows "$OUT/time_questions_storage.csv" "^tq(_c)?,30000,[0-9.]*[1-9][0-9.]*,[0-9.]*[1-9][0-9.]*,[0-9.]+,[0-9.]*[1-9][0-9.]*,[0-9.]*[1-9][0-9.]*$" 2 &&
		 rows "$OUT/time_questions_storage.csv" "^tq_c / tq,," 1'
	check "summary.csv: each question, way and state" "rows $OUT/time_questions_summary.csv '' $((4 * 2 * $(wc -w <<<"$ways")))"
	# 72 of time and buffers, 1 of inserts; the estimates' only where created_at's is within 2x.
	check "targets.csv: at least 73 targets, each met or missed" \
		'[ "$(awk -F, "NR > 1 && (\$NF == \"met\" || \$NF == \"missed\")" "$OUT/time_questions_targets.csv" | wc -l)" -ge 73 ]'
}

smoke_contention() {
	exits perl test/bench/contention.pl --rounds 1 --seconds 1 --out "$OUT"
	check "20 measurements (5 calls, 1 and 8 clients, unpinned and pinned), each > 0 ns" \
		'[ "$(awk -F, "NR > 1 && \$5 > 0" "$OUT/contention.csv" | wc -l)" -eq 20 ]'
	check "a median and a ratio for each of the 20" 'rows "$OUT.log" "^(no|yes),[^,]+,(1|8),[0-9.]+,-?[0-9.]+$" 20'
	check "the data directory is gone" '[ -z "$(ls -d "$OUT"/tmp_check/t_*_data/pgdata 2>/dev/null)" ]'
}

"smoke_$what" || exit
echo "1..$((passed + failed))"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
