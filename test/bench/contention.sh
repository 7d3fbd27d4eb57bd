#!/usr/bin/env bash
# Where the generators with one shared word pay under concurrency: wall-clock ns a call with 1 and
# 8 pgbench clients (statements of 20,000 calls) of a floor (1::int), gen_random_uuid(),
# locality_uuid() (no shared word), locality_uuid(true) and uuidv7_ordered() (one shared word
# each), in interleaved rounds; then the same with the server's processes pinned to one CPU, where
# no cache line moves between cores. Ratio: (median - floor) / (gen_random_uuid()'s median - floor).
# Usage (as root or as a user initdb accepts; the extension installed for $PG_CONFIG):
#   [ROUNDS=3] [SECONDS_EACH=8] [PRELOAD=1] [PINS="no yes"] [CSV=FILE] bash test/bench/contention.sh
# Prints CSV lines pinned,round,call,clients,ns_per_call (also to FILE), then medians and ratios.
set -uo pipefail
rounds=${ROUNDS:-3} secs=${SECONDS_EACH:-8} calls=20000
. "$(dirname "$0")/../cluster.sh" && cluster "max_connections = 30" "${PRELOAD:+shared_preload_libraries = 'locality_uuid'}"
psql_ postgres -c 'CREATE EXTENSION locality_uuid' || exit 1
echo "contention.sh: PostgreSQL $(psql_ postgres -Atc "SELECT current_setting('server_version') || ', state ' || locality_uuid_state()"); $(nproc) CPUs; rounds $rounds of ${secs}s"
postmaster=$(head -1 "$dir/data/postmaster.pid")

# ns CALL CLIENTS: wall-clock ns a call, from pgbench's transactions a second.
ns() {
	echo "SELECT count($1) FROM generate_series(1, $calls)" >"$dir/q.sql"
	as "$bin/pgbench" -h "$dir" -n -f "$dir/q.sql" -c "$2" -j 2 -T "$secs" postgres 2>/dev/null |
		awk -v n=$calls '/^tps/ { printf "%.1f", 1e9 / ($3 * n) }'
}
# pin CPUS: the postmaster and every process it has forked on CPUS (backends forked later inherit it).
pin() {
	local p
	# A process that exited since ps listed it needs no pinning; any other failure is said.
	for p in "$postmaster" $(ps -o pid= --ppid "$postmaster"); do
		taskset -p -c "$1" "$p" >/dev/null 2>&1 || ! kill -0 "$p" 2>/dev/null || echo "contention.sh: could not pin process $p" >&2
	done
}
echo "pinned,round,call,clients,ns_per_call" >"$dir/out.csv"
for p in ${PINS:-no yes}; do
	if [ "$p" = yes ]; then pin 0; else pin "0-$(($(nproc) - 1))"; fi
	for r in $(seq "$rounds"); do
		for c in "1::int" "gen_random_uuid()" "locality_uuid()" "locality_uuid(true)" "uuidv7_ordered()"; do
			for n in 1 8; do echo "$p,$r,$c,$n,$(ns "$c" $n)"; done
		done
	done
done | tee -a "$dir/out.csv" || exit 1
[ -z "${CSV:-}" ] || cp "$dir/out.csv" "$CSV"
echo "pinned,call,clients,median ns,ratio to gen_random_uuid() above the floor"
perl -F, -lane 'next if $. == 1; push @{ $v{"$F[0],$F[2],$F[3]"} }, $F[4];
	END { for (keys %v) { my @s = sort { $a <=> $b } @{ $v{$_} }; $m{$_} = $s[ $#s / 2 ] }
		for my $k (sort keys %m) { my ($p, $c, $n) = split /,/, $k;
			my ($f, $g) = map { $m{"$p,$_,$n"} } "1::int", "gen_random_uuid()";
			printf "%s,%.1f,%.3f\n", $k, $m{$k}, ($m{$k} - $f) / ($g - $f) } }' "$dir/out.csv"
