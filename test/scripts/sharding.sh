#!/usr/bin/env bash
# Sharding over postgres_fdw: a coordinator and three shard servers, range and shard-key layouts.
#
# Four throw-away clusters (loopback only: unix sockets, listen_addresses = ''), run as postgres:
#   coord  port P (55451)  partitioned tables whose partitions are postgres_fdw foreign tables
#   shard1 P+1  range r0: first byte 00..3f   shard key 1
#   shard2 P+2  range r1: first byte 40..7f   shard key 2
#   shard3 P+3  ranges r2: 80..bf and r3: c0..ff   shard key 3
# The four ranges of the first id byte are four partitions; one server owns two of them, as a
# range-sharded system owns several ranges per server, so moving a range moves one table.
# Every rule is tested per range; per-server counts follow (shard3 expects half the rows).
#
# Usage (as root, after make install): bash test/scripts/sharding.sh
# Settings: SHARDING_PORT (coordinator port, default 55451), SHARDING_ROWS (ids per scenario).
# Ends with "N passed, N failed"; stops every cluster it started on any exit.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PG_CONFIG=${PG_CONFIG:-pg_config}
. test/cluster.sh

N=${SHARDING_ROWS:-3000}		# ids per range-sharding scenario
CHI2_CRIT=16.266				# chi-square, 3 degrees of freedom, 0.1 % upper tail
COORD_PORT=${SHARDING_PORT:-55451}	# the shards take the next three ports
SHARD_PORTS=($((COORD_PORT + 1)) $((COORD_PORT + 2)) $((COORD_PORT + 3)))
COORD=/tmp/locality_uuid_test.coord.$COORD_PORT
SHARDS=()
for i in 1 2 3; do SHARDS+=(/tmp/locality_uuid_test.shard$i.${SHARD_PORTS[$((i - 1))]}); done
ALL_DIRS=("$COORD" "${SHARDS[@]}")
ALL_PORTS=("$COORD_PORT" "${SHARD_PORTS[@]}")

passed=0
failed=0

# ok NAME / nok NAME: record one result.
ok() { passed=$((passed + 1)); echo "ok - $1"; }
nok() { failed=$((failed + 1)); echo "not ok - $1"; }

# check NAME CONDITION...: ok if the test command succeeds.
check() { local name=$1; shift; if "$@"; then ok "$name"; else nok "$name"; fi; }

# Stop every cluster by its data directory, prove none is left, print the totals.
finish() {
	local rc=$? d i alive=0
	trap - EXIT INT TERM HUP
	wait	# a cluster still starting in the background must finish before it can be stopped
	for d in "${ALL_DIRS[@]}"; do cluster_stop "$d" || true; done
	for i in "${!ALL_DIRS[@]}"; do
		d=${ALL_DIRS[$i]}
		if [ -f "$d/data/postmaster.pid" ] ||
			"$PGBIN/pg_isready" -q -h "$d" -p "${ALL_PORTS[$i]}" 2>/dev/null; then
			alive=1
			echo "# still running: $d"
		fi
	done
	if [ $alive -eq 0 ]; then ok "no cluster left running"; else nok "no cluster left running"; fi
	if [ $failed -eq 0 ] && [ $rc -eq 0 ]; then
		rm -rf "${ALL_DIRS[@]}"
	else
		echo "# logs kept in ${ALL_DIRS[*]}"
	fi
	[ $rc -eq 0 ] || [ $failed -gt 0 ] || failed=1
	echo "$passed passed, $failed failed"
	exit $((failed > 0))
}
trap finish EXIT
trap 'exit 130' INT TERM HUP

# bail NAME: a setup step failed; nothing after it can run.
bail() { nok "$1"; exit 1; }

# c SQL... / s I SQL...: run SQL unaligned on the coordinator / on shard I; stop on error.
c() { cluster_psql "$COORD" $COORD_PORT -At -F ' ' "$@"; }
s() { local i=$1; shift; cluster_psql "${SHARDS[$((i - 1))]}" "${SHARD_PORTS[$((i - 1))]}" -At -F ' ' "$@"; }

# ------------------------------------------------------------------------------------------
# Clusters. Each server gets its own node id (locality uuids) and machine name (hot_uuid):
# all four share this host's MAC and host name, which would otherwise give them equal ids.

EXT_SQL=$("$PG_CONFIG" --sharedir)/extension/locality_uuid--1.0.sql
have_sql() { grep -q "FUNCTION $1(" "$EXT_SQL"; }
HAVE_HOT=0
HAVE_BLOCKS=0
have_sql hot_uuid && have_sql hot_uuid_shard_key && HAVE_HOT=1
have_sql uuid_sequence_nextval && have_sql uuid_time_nextval && HAVE_BLOCKS=1

# conf_for NAME NODE: postgresql.conf lines of one server.
conf_for() {
	echo "locality_uuid.node_id = $2"
	[ $HAVE_HOT -eq 0 ] || echo "locality_uuid.machine_name = '$1'"
	echo "cluster_name = '$1'"
	echo "max_connections = 20"
	echo "shared_buffers = 16MB"
}

start_pids=()
(mapfile -t conf < <(conf_for coord 100); cluster_start coord $COORD_PORT "${conf[@]}") &
start_pids+=($!)
for i in 1 2 3; do
	(mapfile -t conf < <(conf_for shard$i $((100 + i)))
	 cluster_start shard$i "${SHARD_PORTS[$((i - 1))]}" "${conf[@]}") &
	start_pids+=($!)
done
start_ok=1
for p in "${start_pids[@]}"; do wait "$p" || start_ok=0; done
[ $start_ok -eq 1 ] || bail "start coordinator and three shard servers"
ok "start coordinator and three shard servers (ports $COORD_PORT ${SHARD_PORTS[*]})"

# Shard servers: the extension, and plain tables that hold their ranges and shard key.
setup_ok=1
for i in 1 2 3; do
	s $i >/dev/null <<-SQL || setup_ok=0
		CREATE EXTENSION locality_uuid;
		CREATE TABLE ids_r$((i - 1)) (id uuid PRIMARY KEY, scenario text NOT NULL);
		$([ $i -eq 3 ] && echo "CREATE TABLE ids_r3 (id uuid PRIMARY KEY, scenario text NOT NULL);")
		CREATE TABLE events (id uuid PRIMARY KEY, payload int NOT NULL, made_on text NOT NULL);
		CREATE TABLE made_here (server text NOT NULL, hot uuid, loc uuid NOT NULL);
	SQL
done

# Coordinator: one postgres_fdw server per shard (unix socket, superuser mapping, the
# extension named so its extractors may be shipped), and the range-partitioned table.
{
	echo "CREATE EXTENSION locality_uuid;"
	echo "CREATE EXTENSION postgres_fdw;"
	for i in 1 2 3; do
		echo "CREATE SERVER shard$i FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '${SHARDS[$((i - 1))]}',"
		echo "  port '${SHARD_PORTS[$((i - 1))]}', dbname 'postgres', extensions 'locality_uuid', batch_size '500');"
		echo "CREATE USER MAPPING FOR postgres SERVER shard$i OPTIONS (user 'postgres');"
	done
	cat <<-'SQL'
		CREATE TABLE ids (id uuid NOT NULL, scenario text NOT NULL) PARTITION BY RANGE (id);
		CREATE FOREIGN TABLE ids_r0 PARTITION OF ids
		  FOR VALUES FROM ('00000000-0000-0000-0000-000000000000') TO ('40000000-0000-0000-0000-000000000000')
		  SERVER shard1 OPTIONS (table_name 'ids_r0');
		CREATE FOREIGN TABLE ids_r1 PARTITION OF ids
		  FOR VALUES FROM ('40000000-0000-0000-0000-000000000000') TO ('80000000-0000-0000-0000-000000000000')
		  SERVER shard2 OPTIONS (table_name 'ids_r1');
		CREATE FOREIGN TABLE ids_r2 PARTITION OF ids
		  FOR VALUES FROM ('80000000-0000-0000-0000-000000000000') TO ('c0000000-0000-0000-0000-000000000000')
		  SERVER shard3 OPTIONS (table_name 'ids_r2');
		CREATE FOREIGN TABLE ids_r3 PARTITION OF ids
		  FOR VALUES FROM ('c0000000-0000-0000-0000-000000000000') TO (MAXVALUE)
		  SERVER shard3 OPTIONS (table_name 'ids_r3');
		CREATE SEQUENCE block_seq;
	SQL
} | c >/dev/null || setup_ok=0
[ $setup_ok -eq 1 ] || bail "install the extension on all four servers, postgres_fdw on the coordinator"
ok "install the extension on all four servers, postgres_fdw on the coordinator"

# ------------------------------------------------------------------------------------------
# Range sharding on the id: where do N ids of each kind land?

# range_counts SCENARIO: the row count of each of the four range partitions, in order.
range_counts() {
	c -v s="$1" <<-'SQL'
		SELECT string_agg(coalesce(n, 0)::text, ' ' ORDER BY i)
		FROM unnest(ARRAY['ids_r0', 'ids_r1', 'ids_r2', 'ids_r3']) WITH ORDINALITY AS p(part, i)
		LEFT JOIN (SELECT tableoid::regclass::text AS part, count(*) AS n
		           FROM ids WHERE scenario = :'s' GROUP BY 1) AS c USING (part);
	SQL
}

# chi2 C0 C1 C2 C3: chi-square of four counts against an even spread.
chi2() { echo "$@" | awk '{ n = $1 + $2 + $3 + $4; e = n / 4; x = 0;
	for (i = 1; i <= 4; i++) x += ($i - e) ^ 2 / e; printf "%.3f", x }'; }

# report SCENARIO: print per-range and per-server counts and chi-square; sets COUNTS, CHI2, USED.
report() {
	COUNTS=$(range_counts "$1")
	set -- "$1" $COUNTS
	CHI2=$(chi2 $2 $3 $4 $5)
	USED=0
	local n
	for n in $2 $3 $4 $5; do [ "$n" -eq 0 ] || USED=$((USED + 1)); done
	printf '# %-16s ranges r0..r3: %5d %5d %5d %5d | servers: %5d %5d %5d | chi2 %9s | ranges used %d\n' \
		"$1" $2 $3 $4 $5 $2 $3 $(($4 + $5)) "$CHI2" $USED
}

# insert_ids SCENARIO EXPR: insert N ids made by EXPR on the coordinator, routed by range.
insert_ids() {
	c -v s="$1" >/dev/null <<<"INSERT INTO ids SELECT $2, :'s' FROM generate_series(1, $N) AS g" || return 1
	[ "$(c -v s="$1" <<<"SELECT count(*) FROM ids WHERE scenario = :'s'")" = "$N" ]
}

echo "# $N ids per scenario, inserted through the coordinator; chi-square 0.1% critical value (3 df) $CHI2_CRIT"

# Baseline: random v4 ids (figures only; a random spread exceeds any fixed bound sometimes).
if insert_ids v4 'gen_random_uuid()'; then
	report v4
else
	nok "insert $N random v4 ids through the coordinator"
fi

# Variable mode: the first hex digit is the counter's low nibble, and the stride 198491317
# is odd, so any 16 consecutive ids of one backend cover all 16 first digits: an even spread.
if insert_ids variable 'locality_uuid(false)'; then
	report variable
	check "variable mode spreads evenly (chi2 $CHI2 < $CHI2_CRIT, every range non-empty)" \
		awk -v x="$CHI2" -v k="$CHI2_CRIT" -v u="$USED" 'BEGIN { exit !(x < k && u == 4) }'
else
	nok "insert $N variable-mode locality uuids"
fi

# Sequential mode: every backend counts up from the seed of the 10-minute UTC bucket, so the
# ids of one bucket are one run of counter values: one range, or two when the run crosses a
# range border (or wraps from ffffffff to 00000000). A bucket change mid-run re-seeds
# anywhere, so the guarantee is at most two ranges per bucket.
if insert_ids sequential 'locality_uuid(true)'; then
	report sequential
	per_bucket=$(c <<-'SQL'
		SELECT max(n) FROM (
		  SELECT count(DISTINCT tableoid) AS n FROM ids WHERE scenario = 'sequential'
		  GROUP BY floor(extract(epoch FROM locality_uuid_timestamp(id)) / 600)) AS b;
	SQL
	)
	check "sequential mode concentrates: $USED range(s) used, at most 2 per 10-minute seed bucket (max $per_bucket)" \
		test "${per_bucket:-9}" -le 2
else
	nok "insert $N sequential-mode locality uuids"
fi

# Block-wrapped: a fresh sequence gives values 0 .. N-1, all in block 0 of 65536 values, so
# the two-byte prefix is 0000 for every id: exactly one range, r0. The time variant's prefix
# is the minute number mod 65536; a range spans 16384 minutes, so a short run uses one range,
# two if it crosses a border.
if [ $HAVE_BLOCKS -eq 1 ]; then
	if insert_ids blocks_sequence "uuid_sequence_nextval('block_seq')"; then
		report blocks_sequence
		check "block-wrapped (sequence) concentrates: all $N ids in r0" test "$COUNTS" = "$N 0 0 0"
	else
		nok "insert $N uuid_sequence_nextval ids"
	fi
	if insert_ids blocks_time "uuid_time_nextval()"; then
		report blocks_time
		check "block-wrapped (time) concentrates: $USED range(s) used" test "$USED" -le 2
	else
		nok "insert $N uuid_time_nextval ids"
	fi
else
	echo "# skip: uuid_sequence_nextval / uuid_time_nextval not in this build"
fi

# Shard-key ids start with the time in seconds: whatever their shard key, all ids made in
# one stretch of 2^24 s (194 days) share the first byte: one range, two across a border.
# A range-sharded cluster sends them all to one server; route by the shard key instead.
if [ $HAVE_HOT -eq 1 ]; then
	if insert_ids hot 'hot_uuid(g % 3 + 1)'; then
		report hot
		check "shard-key ids concentrate on the id range: $USED range(s) used" test "$USED" -le 2
	else
		nok "insert $N hot_uuid ids"
	fi
else
	echo "# skip: hot_uuid not in this build (shard-key range scenario)"
fi

# ------------------------------------------------------------------------------------------
# Shard-key routing: LIST partitions on hot_uuid_shard_key(id); key k lives on shard k.

if [ $HAVE_HOT -eq 1 ]; then
	c >/dev/null <<-'SQL' || bail "create the shard-key partitioned table"
		CREATE TABLE events (id uuid NOT NULL, payload int NOT NULL, made_on text NOT NULL)
		  PARTITION BY LIST (hot_uuid_shard_key(id));
		CREATE FOREIGN TABLE events_s1 PARTITION OF events FOR VALUES IN (1)
		  SERVER shard1 OPTIONS (table_name 'events');
		CREATE FOREIGN TABLE events_s2 PARTITION OF events FOR VALUES IN (2)
		  SERVER shard2 OPTIONS (table_name 'events');
		CREATE FOREIGN TABLE events_s3 PARTITION OF events FOR VALUES IN (3)
		  SERVER shard3 OPTIONS (table_name 'events');
	SQL

	# Through the coordinator: 1200, 700 and 300 rows for keys 1, 2, 3 (ids made there) ...
	c >/dev/null <<-'SQL' || nok "insert through the coordinator, routed by shard key"
		INSERT INTO events SELECT hot_uuid(1), g, 'coord' FROM generate_series(1, 1200) AS g;
		INSERT INTO events SELECT hot_uuid(2), g, 'coord' FROM generate_series(1, 700) AS g;
		INSERT INTO events SELECT hot_uuid(3), g, 'coord' FROM generate_series(1, 300) AS g;
	SQL
	# ... and 100 * k rows written on shard k itself, ids made there.
	for i in 1 2 3; do
		s $i -c "INSERT INTO events SELECT hot_uuid($i), g, 'shard$i' FROM generate_series(1, $((100 * i))) AS g" \
			>/dev/null || nok "insert on shard $i directly"
	done

	# Count on each shard server itself: how many rows, and how many carry another key.
	expect=(0 1300 900 600)
	for i in 1 2 3; do
		got=$(s $i -c "SELECT count(*), count(*) FILTER (WHERE hot_uuid_shard_key(id) IS DISTINCT FROM $i) FROM events")
		check "shard$i holds exactly the ${expect[$i]} rows of shard key $i (rows, other keys: $got)" \
			test "$got" = "${expect[$i]} 0"
	done

	# Lookups by id: name an id stored on shard 2.
	ID=$(s 2 -c "SELECT id FROM events WHERE made_on = 'coord' ORDER BY payload LIMIT 1")
	LOOKUP="SELECT * FROM events WHERE id = '$ID' AND hot_uuid_shard_key(id) = hot_uuid_shard_key('$ID')"
	echo "# lookup of $ID (shard key $(c -c "SELECT hot_uuid_shard_key('$ID')"))"

	plan=$(c -c "EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id = '$ID'")
	n=$(grep -c 'Foreign Scan' <<<"$plan")
	echo "# by id alone: $n foreign scans"
	check "a lookup by id alone scans all three shards" test "$n" -eq 3

	plan=$(c -c "EXPLAIN (VERBOSE, COSTS OFF) $LOOKUP")
	echo "# planning-time pruning, EXPLAIN (VERBOSE, COSTS OFF) with a literal id:"
	sed 's/^/#   /' <<<"$plan"
	check "planning-time pruning: one foreign scan, on events_s2" \
		test "$(grep -c 'Foreign Scan' <<<"$plan")" -eq 1 -a "$(grep -cE 'Foreign Scan on (public\.)?events_s2' <<<"$plan")" -eq 1

	plan=$(c <<-SQL
		SET plan_cache_mode = force_generic_plan;
		PREPARE lookup(uuid) AS
		  SELECT * FROM events WHERE id = \$1 AND hot_uuid_shard_key(id) = hot_uuid_shard_key(\$1);
		EXPLAIN (COSTS OFF) EXECUTE lookup('$ID');
	SQL
	)
	echo "# run-time pruning, generic plan of PREPARE lookup(uuid), EXPLAIN EXECUTE:"
	sed 's/^/#   /' <<<"$plan"
	check "run-time pruning: Subplans Removed: 2, one foreign scan, on events_s2" \
		test "$(grep -c 'Foreign Scan' <<<"$plan")" -eq 1 -a "$(grep -c 'Foreign Scan on events_s2' <<<"$plan")" -eq 1 \
		-a "$(grep -c 'Subplans Removed: 2' <<<"$plan")" -eq 1

	got=$(c <<-SQL
		SET plan_cache_mode = force_generic_plan;
		PREPARE lookup(uuid) AS
		  SELECT made_on FROM events WHERE id = \$1 AND hot_uuid_shard_key(id) = hot_uuid_shard_key(\$1);
		EXECUTE lookup('$ID');
	SQL
	)
	check "the pruned lookup finds the row" test "$got" = "coord"
else
	echo "# skip: hot_uuid not in this build (shard-key routing, pruning)"
fi

# ------------------------------------------------------------------------------------------
# Ids made on different servers at the same time never collide: 1000 sequential-mode
# locality uuids (and shard-key ids for one key) made on each shard at once, collected on
# the coordinator. Sequential counters start from the same seed everywhere and the backend
# slots match too, so only the configured node id (machine name) keeps them apart.

if [ $HAVE_HOT -eq 1 ]; then hot="hot_uuid(42)"; else hot="NULL::uuid"; fi
made_pids=()
for i in 1 2 3; do
	s $i -c "INSERT INTO made_here SELECT 'shard$i', $hot, locality_uuid(true) FROM generate_series(1, 1000)" \
		>/dev/null &
	made_pids+=($!)
done
made_ok=1
for p in "${made_pids[@]}"; do wait "$p" || made_ok=0; done
check "each shard server makes 1000 ids at the same time" test $made_ok -eq 1

c >/dev/null <<-'SQL' || nok "collect the ids on the coordinator"
	CREATE FOREIGN TABLE made_s1 (server text, hot uuid, loc uuid) SERVER shard1 OPTIONS (table_name 'made_here');
	CREATE FOREIGN TABLE made_s2 (server text, hot uuid, loc uuid) SERVER shard2 OPTIONS (table_name 'made_here');
	CREATE FOREIGN TABLE made_s3 (server text, hot uuid, loc uuid) SERVER shard3 OPTIONS (table_name 'made_here');
	CREATE VIEW made AS
	  SELECT * FROM made_s1 UNION ALL SELECT * FROM made_s2 UNION ALL SELECT * FROM made_s3;
SQL

got=$(c -c "SELECT count(*), count(DISTINCT loc), count(DISTINCT locality_uuid_node(loc)) FROM made")
shared=$(c <<-'SQL'
	SELECT coalesce(sum(n), 0) FROM (
	  SELECT count(*) AS n FROM made GROUP BY locality_uuid_counter(loc, true), locality_uuid_pid(loc)
	  HAVING count(DISTINCT server) > 1) AS s;
SQL
)
nodes=$(c -c "SELECT string_agg(DISTINCT server || '=' || locality_uuid_node(loc), ' ') FROM made")
echo "# locality uuids (sequential) made on the shards: (rows, distinct, distinct node ids) = $got; nodes $nodes"
echo "# $shared of them share counter and process field with an id made on another server"
check "sequential locality uuids from three servers: all distinct, one node id per server" test "$got" = "3000 3000 3"

if [ $HAVE_HOT -eq 1 ]; then
	got=$(c <<-'SQL'
		SELECT count(*), count(DISTINCT hot), count(DISTINCT hot_uuid_machine(hot)),
		       count(DISTINCT (server, hot_uuid_machine(hot)))
		FROM made;
	SQL
	)
	hashes=$(c -c "SELECT string_agg(DISTINCT server || '=' || encode(hot_uuid_machine(hot), 'hex'), ' ') FROM made")
	echo "# hot_uuid(42) made on the shards: (rows, distinct, machine hashes, server-hash pairs) = $got; $hashes"
	check "shard-key ids from three servers: all distinct, one machine hash per server" \
		test "$got" = "3000 3000 3 3"
	got=$(c -c "SELECT count(*), count(DISTINCT id) FROM events")
	total=$((expect[1] + expect[2] + expect[3]))
	echo "# events on all shards (ids made on the coordinator and on each shard): (rows, distinct) = $got"
	check "no id of the shard-key table collides across servers" test "$got" = "$total $total"
fi

exit 0
