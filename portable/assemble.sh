#!/bin/sh
# Write the installable portable/locality_uuid_portable.sql from portable/src/ to stdout
# (`make portable`): setup.psql as it is, then each SQL source run through psql's \gexec with
# @extschema@ replaced by the quoted install schema and @internal@ by the quoted schema of the
# helpers; core's names only where the server lacks them; finish.psql as it is.
set -e
src=$(dirname "$0")/src

run() {
	printf '\n-- portable/src/%s\nSELECT replace(replace($locality_uuid_portable$\n' "$1"
	cat "$src/$1"
	printf '%s\n' "\$locality_uuid_portable\$, '@extschema@', quote_ident(:'schema')), '@internal@', quote_ident(:'locality_uuid_internal')) \\gexec"
}

cat "$src/setup.psql"
for f in state.sql locality_b.sql blocks.sql hot.sql v7.sql facade.sql; do
	run $f
done
printf '\n\\if :locality_uuid_core_generators\n'
run core18.sql
printf '\\endif\n\\if :locality_uuid_core_extractors\n'
run core17.sql
printf '\\endif\n'
cat "$src/finish.psql"
