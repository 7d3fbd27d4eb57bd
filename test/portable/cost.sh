#!/usr/bin/env bash
# Cost of the portable edition's generators against gen_random_uuid(), for several builds of the
# shipped file side by side on one throw-away cluster, in interleaved rounds; figures, no verdict.
# Usage (as root or a user initdb accepts; PG_CONFIG picks the server):
#   [CALLS=20000] [ROUNDS=5] bash test/portable/cost.sh LABEL=FILE [LABEL=FILE...]
# Each FILE (a locality_uuid_portable.sql) goes into schema lu_sql of a database of its own, so
# that the editions' session state never meets. A round runs, per database, one session that times
# count(f()) over generate_series for the floor (a constant), then for each generator that edition
# has gen_random_uuid() and the generator (the facade with locality_uuid.facade_key: STABLE, so
# called on every row). Printed per generator and edition: the medians over the rounds of ns a
# call (floor subtracted) and of its ratio to the gen_random_uuid() timed just before it.
set -euo pipefail
calls=${CALLS:-20000} rounds=${ROUNDS:-5}
[ $# -gt 0 ] || { sed -n 5p "$0" >&2; exit 2; }
. "$(dirname "$0")/../cluster.sh" && cluster

# The generators: label and expression (in lu_sql).
generators=(
	"gen_random_uuid()|gen_random_uuid()"
	"locality_uuid(false)|lu_sql.locality_uuid(false)"
	"locality_uuid(true)|lu_sql.locality_uuid(true)"
	"uuid_sequence_nextval()|lu_sql.uuid_sequence_nextval('cost_s'::regclass)"
	"uuid_time_nextval()|lu_sql.uuid_time_nextval()"
	"uuid_time_nextval_interval('10 ms')|lu_sql.uuid_time_nextval_interval('10 ms'::interval)"
	"hot_uuid()|lu_sql.hot_uuid(42)"
	"hot_uuid(k, at)|lu_sql.hot_uuid(42, timestamptz '2020-01-01 00:00:00+00')"
	"uuidv7_ordered()|lu_sql.uuidv7_ordered()"
	"uuidv7_ordered(at)|lu_sql.uuidv7_ordered(timestamptz '2020-01-01 00:00:00+00')"
	"uuidv7() (edition's, before 18)|lu_sql.uuidv7()"
	"uuidv7_to_facade(id)|lu_sql.uuidv7_to_facade('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid)"
)
labels=("${@%%=*}")
for spec; do
	echo "CREATE DATABASE \"cost_${spec%%=*}\"" | psql_ postgres
	psql_ "cost_${spec%%=*}" -v schema=lu_sql <"${spec#*=}" >/dev/null
	echo 'CREATE SEQUENCE cost_s' | psql_ "cost_${spec%%=*}"
done

# session LABEL: ns a call of each expression this edition has, floor subtracted, as "label|name|ns
# of the gen_random_uuid() before it|ns" lines.
session() {
	local g q="SELECT count(%s) FROM generate_series(1, $calls)"
	cat <<EOF
SET locality_uuid.facade_key = '000102030405060708090a0b0c0d0e0f';
CREATE FUNCTION pg_temp.ns(q text) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE t0 timestamptz; BEGIN t0 := clock_timestamp(); EXECUTE q; RETURN extract(epoch FROM clock_timestamp() - t0) * 1e9 / $calls; END \$\$;
CREATE FUNCTION pg_temp.has(expr text) RETURNS boolean LANGUAGE plpgsql AS \$\$
BEGIN EXECUTE 'SELECT ' || expr; RETURN true; EXCEPTION WHEN undefined_function THEN RETURN false; END \$\$;
SELECT pg_temp.ns(\$q\$$(printf "$q" 1)\$q\$) AS floor \gset
EOF
	for g in "${generators[@]}"; do
		printf "SELECT CASE WHEN pg_temp.has(\$e\$%s\$e\$) THEN concat_ws('|', \$l\$%s\$l\$, \$n\$%s\$n\$, pg_temp.ns(\$q\$$q\$q\$) - :floor, pg_temp.ns(\$q\$$q\$q\$) - :floor) END;\n" \
			"${g#*|}" "$1" "${g%%|*}" "gen_random_uuid()" "${g#*|}"
	done
}

for _ in $(seq "$rounds"); do
	for label in "${labels[@]}"; do session "$label" | psql_ "cost_$label" -At | grep -v '^$'; done
done >"$dir/raw"

# Medians over the rounds of ns a call and of the ratio to the gen_random_uuid() just before it.
perl -I"$(dirname "$0")/../bench" -MBench -F'\|' -lane 'BEGIN { @L = split / /, shift; *med = \&Bench::median }
	push @g, $F[1] unless $seen{$F[1]}++; push @{ $ns{$F[1]}{$F[0]} }, $F[3]; push @{ $x{$F[1]}{$F[0]} }, $F[3] / $F[2];
	END { printf "%-40s" . "  %22s" x @L . "\n", "generator", map { "$_ ns (x gen)" } @L;
		for $g (@g) { printf "%-40s%s\n", $g, join "", map { $ns{$g}{$_} ? sprintf("  %12.0f (%6.1fx)", med(@{ $ns{$g}{$_} }),
			med(@{ $x{$g}{$_} })) : sprintf("  %22s", "-") } @L } }' "${labels[*]}" "$dir/raw"
