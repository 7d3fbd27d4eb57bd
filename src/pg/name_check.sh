#!/bin/sh
# Write to stdout the check that refuses a script while another function has one of the names it
# creates (src/pg/name_check.sql): ACTION is create (the install script, given the whole chain) or
# update (an update script, given itself); the names are those of every CREATE [OR REPLACE]
# FUNCTION and ALTER FUNCTION ... RENAME TO of the scripts outside pg_catalog.
# Usage: sh src/pg/name_check.sh create|update SCRIPT...
set -eu
action=$1
shift
template=$(dirname "$0")/name_check.sql

fail() {
	echo "name_check.sh: $*" >&2
	exit 1
}

case $action in
create | update) ;;
*) fail "action $action is neither create nor update" ;;
esac
# The check looks at functions only: an operator, aggregate or procedure of the extension would
# need one of its own.
if grep -n -i -E '^[[:space:]]*CREATE (OR REPLACE )?(OPERATOR|AGGREGATE|PROCEDURE)' "$@" >&2; then
	fail "the scripts create objects other than functions that calls resolve by name"
fi
names=$(
	sed -n -E \
		-e 's/^[[:space:]]*CREATE (OR REPLACE )?FUNCTION ([^ (]+)[ (].*/\2/p' \
		-e 's/^[[:space:]]*ALTER FUNCTION .* RENAME TO ([^ ;]+).*/\1/p' "$@" |
		sed -e '/^pg_catalog\./d' -e 's/^@extschema@\.//' | LC_ALL=C sort -u
)
[ -n "$names" ] || fail "no function names in $*"
for n in $names; do
	case $n in
	uuidv7 | uuidv4 | uuid_extract_timestamp | uuid_extract_version)
		fail "$n is one of PostgreSQL 18's names, which src/pg/install_prologue.sql checks" ;;
	esac
	printf '%s\n' "$n" | grep -q -E '^[a-z_][a-z0-9_]*$' || fail "function name $n is not a plain lowercase name"
done
list=$(printf '%s\n' "$names" | paste -s -d, -)
sed -e "s/@ACTION@/$action/g" -e "s/@NAMES@/$list/" "$template"
