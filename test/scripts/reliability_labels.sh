#!/usr/bin/env bash
# Labels really hold: the whole pg_regress suite again with force_parallel_mode = regress, so
# every parallel-safe call (generators included) runs in a parallel worker. A function
# labelled PARALLEL SAFE that is not (nextval, set_config, per-backend state) fails here.
set -uo pipefail
. "$(dirname "$0")/../reliability-lib.sh"

PORT=55442
rel_start labels $PORT "max_worker_processes = 16" "max_parallel_workers = 8"
D=$CLUSTER_DIR
OUTDIR=$D/regress
mkdir -p "$OUTDIR"
chown postgres: "$OUTDIR"

# The REGRESS list of the Makefile, continuation lines included.
tests=$(sed -n '/^REGRESS = /,/[^\\]$/p' Makefile | sed 's/^REGRESS = //; s/\\$//' | tr -s ' \t\n' ' ')
PGOPTIONS="-c force_parallel_mode=regress" \
	"$($PG_CONFIG --pkglibdir)/pgxs/src/test/regress/pg_regress" \
	--inputdir=. --outputdir="$OUTDIR" --bindir="$PGBIN" --host="$D" --port=$PORT \
	--load-extension=locality_uuid --dbname=contrib_regression $tests >"$OUTDIR/run.log" 2>&1
for t in $tests; do
	if grep -qE "^(test| ) *$t +\.\.\. ok" "$OUTDIR/run.log"; then
		ok "$t under force_parallel_mode = regress"
	else
		not_ok "$t under force_parallel_mode = regress" \
			"$(grep -A30 "^diff.*/$t.out" "$OUTDIR/regression.diffs" 2>/dev/null | head -30)"
	fi
done
# The setting reaches the generators: under it an id comes from a worker's process slot.
got=$(PGOPTIONS="-c force_parallel_mode=regress" cluster_psql "$D" $PORT -At -d contrib_regression <<'SQL'
CREATE FUNCTION pg_temp.leader_pid() RETURNS int LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$ SELECT locality_uuid_pid(locality_uuid()) $$;
SELECT pg_temp.leader_pid() AS leader \gset
SELECT count(*) FILTER (WHERE locality_uuid_pid(locality_uuid()) <> :leader) FROM generate_series(1, 10);
SQL
)
is "force_parallel_mode = regress runs generators in a worker" "$got" 10
rel_finish
