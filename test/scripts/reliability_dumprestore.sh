#!/usr/bin/env bash
# Dump and restore: tables whose DEFAULTs call every generator, expression indexes, a
# generated column, a CHECK and partitions on extractors survive pg_dump / pg_restore into a
# fresh cluster, with the extension in its own schema; the copy keeps generating without
# duplicates and the shared sequence goes on where it was.
set -uo pipefail
. "$(dirname "$0")/../reliability-lib.sh"

PORT_A=55443
PORT_B=55444
ROWS=2000
# search_path for every session: the extension lives in schema ext, off the default path.
export PGOPTIONS="-c search_path=public,ext"

# Objects on extractors; a new format adds lines here.
EXTRACTOR_DDL=(
	"CREATE TABLE dr_ext (id uuid PRIMARY KEY DEFAULT locality_uuid(true),
		created timestamptz GENERATED ALWAYS AS (locality_uuid_timestamp(id)) STORED,
		CONSTRAINT dr_ext_is_locality CHECK (locality_uuid_version(id) = 'b'))"
	"CREATE INDEX dr_ext_created ON dr_ext (locality_uuid_timestamp(id))"
	"CREATE INDEX dr_ext_pid ON dr_ext (locality_uuid_pid(id)) WHERE locality_uuid_node(id) >= 0"
	"CREATE TABLE dr_part (id uuid NOT NULL DEFAULT locality_uuid()) PARTITION BY RANGE (locality_uuid_timestamp(id))"
	"CREATE TABLE dr_part_old PARTITION OF dr_part FOR VALUES FROM (MINVALUE) TO ('2000-01-01+00')"
	"CREATE TABLE dr_part_new PARTITION OF dr_part FOR VALUES FROM ('2000-01-01+00') TO (MAXVALUE)"
	"CREATE UNIQUE INDEX dr_part_old_id ON dr_part_old (id)"
	"CREATE UNIQUE INDEX dr_part_new_id ON dr_part_new (id)"
	"CREATE SEQUENCE dr_blk_seq"
	"CREATE TABLE dr_blk (id uuid NOT NULL DEFAULT uuid_sequence_nextval('dr_blk_seq', 10, 256),
		CONSTRAINT dr_blk_is_v4 CHECK (locality_uuid_version(id) = '4')) PARTITION BY RANGE (locality_uuid_block(id, 256))"
	"CREATE TABLE dr_blk_lo PARTITION OF dr_blk FOR VALUES FROM (0) TO (128)"
	"CREATE TABLE dr_blk_hi PARTITION OF dr_blk FOR VALUES FROM (128) TO (256)"
	"CREATE UNIQUE INDEX dr_blk_lo_id ON dr_blk_lo (id)"
	"CREATE UNIQUE INDEX dr_blk_hi_id ON dr_blk_hi (id)"
	"CREATE INDEX dr_blk_block ON dr_blk (locality_uuid_block(id, 256))"
	"CREATE TABLE dr_hot (id uuid NOT NULL DEFAULT hot_uuid(floor(random() * 3)::bigint),
		created timestamptz GENERATED ALWAYS AS (hot_uuid_timestamp(id)) STORED) PARTITION BY LIST (hot_uuid_shard_key(id))"
	"CREATE TABLE dr_hot_0 PARTITION OF dr_hot FOR VALUES IN (0)"
	"CREATE TABLE dr_hot_rest PARTITION OF dr_hot DEFAULT"
	"CREATE UNIQUE INDEX dr_hot_0_id ON dr_hot_0 (id)"
	"CREATE UNIQUE INDEX dr_hot_rest_id ON dr_hot_rest (id)"
	"CREATE INDEX dr_hot_created ON dr_hot (hot_uuid_timestamp(id))"
)
# Tables filled with DEFAULT VALUES besides the one per generator.
EXTRA_TABLES=(dr_ext dr_part dr_blk dr_hot)
# Queries whose answers must be the same before and after restore (planner and routing).
SAME_QUERIES=(
	"SELECT tableoid::regclass || ' ' || count(*) FROM dr_part GROUP BY tableoid ORDER BY 1"
	"SELECT tableoid::regclass || ' ' || count(*) || ' ' || min(locality_uuid_block(id, 256)) || '..' || max(locality_uuid_block(id, 256)) FROM dr_blk GROUP BY tableoid ORDER BY 1"
	"SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM dr_blk WHERE locality_uuid_block(id, 256) = 150"
	"SELECT tableoid::regclass || ' ' || count(DISTINCT hot_uuid_shard_key(id)) || ' keys' FROM dr_hot GROUP BY tableoid ORDER BY 1"
	"SELECT count(*) FROM dr_hot WHERE created = hot_uuid_timestamp(id)"
	"SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM dr_hot WHERE hot_uuid_shard_key(id) = 0 AND hot_uuid_timestamp(id) > now() - interval '1 day'"
	"SELECT count(*) FROM dr_ext WHERE created = locality_uuid_timestamp(id)"
	"SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM dr_ext WHERE locality_uuid_timestamp(id) > '2000-01-01+00'"
	"SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM dr_ext WHERE locality_uuid_pid(id) = 1 AND locality_uuid_node(id) >= 0"
	"SELECT indexrelid::regclass || ' ' || indisvalid FROM pg_index WHERE indrelid::regclass::text LIKE 'dr%' ORDER BY 1"
)

rel_start dump $PORT_A
A=$CLUSTER_DIR
rel_start restore $PORT_B
B=$CLUSTER_DIR
qa() { q "$A" $PORT_A "$@" -d rel; }
qb() { q "$B" $PORT_B "$@" -d rel; }

tables=()
for g in "${GENERATORS[@]}"; do tables+=("dr_$(gen_name "$g")"); done
tables+=("${EXTRA_TABLES[@]}")

# fill DIR PORT: insert ROWS rows into every table through its DEFAULT.
fill() {
	local sql="" t
	for t in "${tables[@]}"; do
		sql="$sql INSERT INTO $t SELECT FROM generate_series(1, $ROWS);"
	done
	q "$1" "$2" "$sql" -d rel >/dev/null
}

# snapshot DIR PORT: row count and digest of the ids of every table, and the sequence.
snapshot() {
	local t
	for t in "${tables[@]}"; do
		q "$1" "$2" "SELECT '$t ' || count(*) || ' ' || count(DISTINCT id) || ' '
			|| md5(string_agg(id::text, ',' ORDER BY id)) FROM $t" -d rel
	done
	q "$1" "$2" "SELECT sequencename || ' ' || last_value FROM pg_sequences ORDER BY 1" -d rel
}

setup="CREATE SCHEMA ext; CREATE EXTENSION locality_uuid SCHEMA ext; $GENERATOR_SETUP"
for g in "${GENERATORS[@]}"; do
	setup="$setup CREATE TABLE dr_$(gen_name "$g") (id uuid PRIMARY KEY DEFAULT $(gen_expr "$g"));"
done
for ddl in "${EXTRACTOR_DDL[@]}"; do setup="$setup $ddl;"; done
q "$A" $PORT_A "CREATE DATABASE rel" >/dev/null && qa "$setup" >/dev/null
check "source: extension in schema ext, DEFAULTs on ${#GENERATORS[@]} generators, objects on extractors" [ $? -eq 0 ]
# The partitions get ids from both sides of their bound.
qa "INSERT INTO dr_part SELECT locality_uuid_make(g, 1, 2, '1999-12-31 23:59:59+00'::timestamptz + g * interval '1 ms')
	FROM generate_series(1, 1999) g" >/dev/null
fill "$A" $PORT_A
before=$(snapshot "$A" $PORT_A)
# answers DIR PORT: the answers to SAME_QUERIES; a query that fails is a failure.
answers() {
	local s
	for s in "${SAME_QUERIES[@]}"; do
		q "$1" "$2" "$s" -d rel 2>&1 || echo "QUERY FAILED: $s"
	done
}
answers_a=$(answers "$A" $PORT_A)

# Dump (custom format), restore into a fresh cluster, compare.
dump=$A/rel.dump
runuser -u postgres -- "$PGBIN/pg_dump" -h "$A" -p $PORT_A -Fc -f "$dump" rel 2>"$A/pg_dump.err"
check "pg_dump -Fc" [ $? -eq 0 -a ! -s "$A/pg_dump.err" ]
q "$B" $PORT_B "CREATE DATABASE rel" >/dev/null
"$PGBIN/pg_restore" -h "$B" -p $PORT_B -d rel --exit-on-error "$dump" 2>"$B/pg_restore.err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$B/pg_restore.err" ]; then
	ok "pg_restore into a fresh cluster: no error, no warning"
else
	not_ok "pg_restore into a fresh cluster" "$(head -10 "$B/pg_restore.err")"
fi
after=$(snapshot "$B" $PORT_B)
is "every table: same rows, same ids (digest), sequence state" "$after" "$before"
answers_b=$(answers "$B" $PORT_B)
check "planner and routing queries run on both clusters" \
	bash -c '! grep -q "QUERY FAILED" <<<"$1"' - "$answers_a$answers_b"
is "partition routing, generated column, expression indexes used and valid" "$answers_b" "$answers_a"
echo "$answers_b" | grep -E 'dr_part_|Index' | sed 's/^/# after restore: /'
echo "$before" | sed 's/^/# before: /'

# The copy keeps generating through the restored DEFAULTs: no duplicate, sequence goes on.
seq_before=$(qb "SELECT last_value FROM rel_shared_seq")
fill "$B" $PORT_B
check "restored DEFAULTs generate: $ROWS more rows per table" [ $? -eq 0 ]
for t in "${tables[@]}"; do
	want=$((2 * ROWS))
	[ "$t" == dr_part ] && want=$((2 * ROWS + 1999))
	is "$t after restore: rows exact, no id twice" "$(qb "SELECT count(*) || ' ' || count(DISTINCT id) FROM $t")" "$want $want"
done
seq_users=0
for g in "${GENERATORS[@]}"; do
	case $(gen_expr "$g") in *rel_shared_seq*) seq_users=$((seq_users + 1)) ;; esac
done
is "shared sequence continues from its dumped value" \
	"$(qb "SELECT last_value - $seq_before FROM rel_shared_seq")" "$((seq_users * ROWS))"
is "block table: the restored sequence carries on into the next blocks" \
	"$(qb "SELECT last_value || ' ' || count(DISTINCT locality_uuid_block(id, 256)) FROM dr_blk_seq, dr_blk GROUP BY last_value")" \
	"$((2 * ROWS)) 256"
# And the source, too, goes on without colliding with what it had.
fill "$A" $PORT_A
is "source after the dump: rows exact, no id twice" \
	"$(qa "SELECT count(*) || ' ' || count(DISTINCT id) FROM dr_${GENERATORS[0]%%|*}")" "$((2 * ROWS)) $((2 * ROWS))"

rel_finish
