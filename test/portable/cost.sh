#!/usr/bin/env bash
# Cost of the portable edition's generators against gen_random_uuid(), for several builds of
# the shipped file side by side on one throw-away cluster, in interleaved rounds.
# Usage (as root or a user initdb accepts; PG_CONFIG picks the server):
#   bash test/portable/cost.sh [--calls N] [--rounds N] LABEL=FILE [LABEL=FILE...]
# Each FILE (a locality_uuid_portable.sql) is installed into schema lu_sql of a database of its
# own, so that the editions' session state never meets. Each round runs, for every database in
# turn, one session that times count(f()) over generate_series for the floor (a constant), then
# for each generator that edition has gen_random_uuid() and the generator, one after the other
# (the facade with the key of locality_uuid.facade_key: STABLE, so called on every row). Prints
# one line per generator and edition: the medians over the rounds of ns per call (floor
# subtracted) and of its ratio to the gen_random_uuid() timed just before it. It prints
# figures; it judges nothing.
set -euo pipefail
calls=20000
rounds=5
while [ $# -gt 0 ]; do
	case $1 in
	--calls) calls=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--calls N] [--rounds N] LABEL=FILE..." >&2; exit 2; }
bindir=$("${PG_CONFIG:-pg_config}" --bindir)
user=${LOCALITY_UUID_TEST_USER:-postgres}
as_user() { if [ "$(id -u)" = 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi; }
dir=$(mktemp -d /tmp/locality_uuid-cost.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown "$user" "$dir"
trap 'as_user "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
as_user "$bindir/initdb" -A trust -D "$dir/data" >/dev/null
as_user "$bindir/pg_ctl" -D "$dir/data" -o "-k $dir -c listen_addresses= -c port=5499" -l "$dir/log" -w start >/dev/null
psql_() { as_user "$bindir/psql" -X -q -h "$dir" -p 5499 -v ON_ERROR_STOP=1 "$@"; }

# The generators: label and expression (in lu_sql).
generators=(
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
labels=()
for spec in "$@"; do
	label=${spec%%=*} file=${spec#*=}
	labels+=("$label")
	cp "$file" "$dir/$label.sql" && chmod 644 "$dir/$label.sql"
	psql_ -d postgres -c "CREATE DATABASE \"cost_$label\""
	psql_ -d "cost_$label" -v schema=lu_sql -f "$dir/$label.sql" >/dev/null
	psql_ -d "cost_$label" -c 'CREATE SEQUENCE cost_s'
done

# One session: ns per call of each expression this edition has, as "label|name|ns" lines.
session() {
	local label=$1 script="$dir/run.sql" g name expr
	{
		cat <<'EOF'
SET locality_uuid.facade_key = '000102030405060708090a0b0c0d0e0f';
CREATE FUNCTION pg_temp.ns(q text, n bigint) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; BEGIN t0 := clock_timestamp(); EXECUTE q; RETURN extract(epoch FROM clock_timestamp() - t0) * 1e9 / n; END $$;
CREATE FUNCTION pg_temp.has(expr text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN EXECUTE 'SELECT ' || expr; RETURN true; EXCEPTION WHEN undefined_function THEN RETURN false; END $$;
EOF
		printf "SELECT pg_temp.ns(\$q\$SELECT count(1) FROM generate_series(1, %s)\$q\$, %s) AS floor \\gset\n" "$calls" "$calls"
		for g in "gen_random_uuid()|gen_random_uuid()" "${generators[@]}"; do
			name=${g%%|*} expr=${g#*|}
			printf "SELECT CASE WHEN pg_temp.has(%s) THEN format('%%s|%%s|%%s|%%s', %s, %s, pg_temp.ns(%s, %s) - :floor, pg_temp.ns(%s, %s) - :floor) END;\n" \
				"\$e\$$expr\$e\$" "\$l\$$label\$l\$" "\$n\$$name\$n\$" \
				"\$q\$SELECT count(gen_random_uuid()) FROM generate_series(1, $calls)\$q\$" "$calls" \
				"\$q\$SELECT count($expr) FROM generate_series(1, $calls)\$q\$" "$calls"
		done
	} >"$script"
	chmod 644 "$script"
	psql_ -d "cost_$label" -At -f "$script" | grep -v '^$'
}

for r in $(seq 1 "$rounds"); do
	for label in "${labels[@]}"; do
		session "$label"
	done
done >"$dir/raw"

# Medians over the rounds of ns per call (floor subtracted) and of the ratio to the
# gen_random_uuid() measured just before, in the same session.
awk -F'|' -v order="$(printf '%s\n' "${labels[@]}" | paste -sd' ')" '
function median(list,    n, i, j, t, v) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{ key = $1 SUBSEP $2; ns[key] = ns[key] " " $4; x[key] = x[key] " " ($4 / $3); if (!seen[$2]++) names[++k] = $2 }
END {
	nl = split(order, L, " ")
	printf "%-40s", "generator"; for (i = 1; i <= nl; i++) printf "  %22s", L[i] " ns (x gen)"; print ""
	for (j = 1; j <= k; j++) {
		printf "%-40s", names[j]
		for (i = 1; i <= nl; i++) {
			if ((L[i] SUBSEP names[j]) in ns) printf "  %12.0f (%6.1fx)", median(ns[L[i] SUBSEP names[j]]), median(x[L[i] SUBSEP names[j]])
			else printf "  %22s", "-"
		}
		print ""
	}
}' "$dir/raw"
