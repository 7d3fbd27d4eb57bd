#!/usr/bin/env bash
# Smoke run of the time-questions benchmark: test/bench/time_questions.pl --short (30,000 rows, 32
# MB, one round, 2 s inserts, seconds) asks every question every way with no error, every way
# counts the plain predicate's rows, the new spelling is there when the build has it and plans
# on the primary key, and every CSV file and the plot are written; the cgroup is removed. It
# judges no figure. Skips, with the reason, where no memory cgroup can be made.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit
export PG_CONFIG=${PG_CONFIG:-pg_config}
OUT=test/out/bench-time-questions

. test/bench/check.sh
short_run_in_cgroup test/bench/time_questions.pl "$OUT"
R=$OUT/time_questions_raw.csv
Q=$OUT/time_questions_queries.csv
cgroup_checks "$R"
check "no count differs from the plain predicate's" '! grep -q "^error,count," "$R"'
# The new spelling is measured wherever the build defines it.
spellings="plain range expression_index"
if grep -q 'FUNCTION uuidv7_made' locality_uuid--*.sql; then
	spellings="plain made range expression_index"
	check "uuidv7_made is in the build, and measured" '! grep -q "^skip,spelling,made," "$R"'
	check "uuidv7_made plans as an index condition on tq_pkey, for the last hour and the day" \
		'[ "$(awk -F, "\$2 != \"month\" && \$3 == \"made\" && \$14 == \"tq_pkey\" && \$16 != \"\"" "$Q" | wc -l)" -eq 4 ]'
fi
for q in last_hour day_month_ago month; do
	plain=$(awk -F, -v q=$q '$2 == q && $3 == "plain" { print $13; exit }' "$Q" 2>/dev/null)
	for s in $spellings; do
		check "$q, $s: cold and warm measured, each counting the plain predicate's ${plain:-?} rows" \
			"[ \"\$(awk -F, -v q=$q -v s=$s -v n='$plain' '\$2 == q && \$3 == s && \$13 == n && \$13 > 0 && \$6 > 0 && \$10 > 0' $Q | wc -l)\" -eq 2 ]"
	done
done
check "the hand-written range and the expression index use tq_pkey and tq_x_ts, for the last hour and the day" \
	'[ "$(awk -F, "\$2 != \"month\" && ((\$3 == \"range\" && \$14 == \"tq_pkey\") || (\$3 == \"expression_index\" && \$14 == \"tq_x_ts\"))" "$Q" | wc -l)" -eq 8 ]'
check "inserts: a round into each table, rows > 0" \
	'[ "$(grep -cE "^1,tq(_x)?,(yes|no),2,2,[1-9][0-9]*,[1-9][0-9]*$" "$OUT/time_questions_inserts.csv")" -eq 2 ]'
check "summary.csv: each question, spelling and state" \
	"[ \"\$(tail -n +2 $OUT/time_questions_summary.csv | wc -l)\" -eq $((3 * 2 * $(wc -w <<<"$spellings"))) ]"
check "time_questions.png drawn" '[ -s "$OUT/time_questions.png" ] && ! grep -qi error "$OUT/time_questions.gp.log"'
check "the data directory is gone" '[ -z "$(ls -d "$OUT"/tmp_check/t_*_data/pgdata 2>/dev/null)" ]'

echo "1..$((passed + failed))"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
