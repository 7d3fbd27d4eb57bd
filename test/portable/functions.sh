#!/bin/sh
# Print how many functions the portable edition makes in its schema (functions.sh extschema) or in
# its helpers' schema (functions.sh internal): the CREATE FUNCTION statements of its sources,
# without core's names (core17.sql, core18.sql), which it makes only where the server lacks them.
set -e
cd "$(dirname "$0")/../.."
for f in portable/src/*.sql; do
	case $f in
		*/core[0-9]*.sql) ;;
		*) cat "$f" ;;
	esac
done | grep -c "^CREATE OR REPLACE FUNCTION @$1@\."
