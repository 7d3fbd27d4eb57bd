#!/bin/sh
# Write the install script of the default version to stdout (make): the prologue, the check of
# the names of every function the chain creates (src/pg/name_check.sh create), then the 1.0
# install script and every update script in order, as CREATE EXTENSION would run them one after
# the other, without their \echo lines and their own name checks. The functions 1.2--1.3 creates
# in pg_catalog become CREATE OR REPLACE, so that the ones the prologue takes back get the
# definitions of this version. An update script's name check must be the one name_check.sh
# writes for it, between the two lines below.
set -eu
version=$1
prologue=$2
shift 2
dir=$(dirname "$0")
begin='-- name check, written by src/pg/name_check.sh: edit src/pg/name_check.sql'
end='-- end of name check'

for f in "$@"; do
	grep -q -x -F -e "$begin" "$f" || continue
	have=$(sed -n "\|^$begin\$|,\|^$end\$|p" "$f" | sed -e '1d' -e '$d')
	want=$(sh "$dir/name_check.sh" update "$f")
	if [ "$have" != "$want" ]; then
		echo "install_script.sh: the name check of $f is not the one src/pg/name_check.sh writes for it" >&2
		exit 1
	fi
done
check=$(sh "$dir/name_check.sh" create "$@")

out=$(
	printf '/* locality_uuid--%s.sql: built by make from src/pg/install_script.sh; edit its sources */\n\n' "$version"
	printf -- '-- complain if script is sourced in psql, rather than via CREATE EXTENSION\n'
	printf '\\echo Use "CREATE EXTENSION locality_uuid" to load this file. \\quit\n\n'
	cat "$prologue"
	printf '\n'
	printf '%s\n' "$check"
	for f in "$@"; do
		printf '\n-- %s ---------------------------------------------------------------\n\n' "$f"
		sed -e '/^\\echo /d' -e "\\|^$begin\$|,\\|^$end\$|d" \
			-e 's/CREATE FUNCTION pg_catalog\./CREATE OR REPLACE FUNCTION pg_catalog./' "$f"
	done
)
# The five functions of PostgreSQL 18's names, and nothing else, are replaced.
replaced=$(printf '%s\n' "$out" | grep -c 'CREATE OR REPLACE FUNCTION pg_catalog\.')
if [ "$replaced" -ne 5 ]; then
	echo "install_script.sh: $replaced functions in pg_catalog, not 5" >&2
	exit 1
fi
printf '%s\n' "$out"
