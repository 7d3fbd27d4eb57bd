#!/bin/sh
# Write the install script of the default version to stdout (make): the prologue, then the 1.0
# install script and every update script in order, as CREATE EXTENSION would run them one after
# the other, without their \echo lines. The functions 1.2--1.3 creates in pg_catalog become
# CREATE OR REPLACE, so that the ones the prologue takes back get the definitions of this version.
set -eu
version=$1
prologue=$2
shift 2

out=$(
	printf '/* locality_uuid--%s.sql: built by make from src/pg/install_script.sh; edit its sources */\n\n' "$version"
	printf -- '-- complain if script is sourced in psql, rather than via CREATE EXTENSION\n'
	printf '\\echo Use "CREATE EXTENSION locality_uuid" to load this file. \\quit\n\n'
	cat "$prologue"
	for f in "$@"; do
		printf '\n-- %s ---------------------------------------------------------------\n\n' "$f"
		sed -e '/^\\echo /d' -e 's/CREATE FUNCTION pg_catalog\./CREATE OR REPLACE FUNCTION pg_catalog./' "$f"
	done
)
# The five functions of PostgreSQL 18's names, and nothing else, are replaced.
replaced=$(printf '%s\n' "$out" | grep -c 'CREATE OR REPLACE FUNCTION pg_catalog\.')
if [ "$replaced" -ne 5 ]; then
	echo "install_script.sh: $replaced functions in pg_catalog, not 5" >&2
	exit 1
fi
printf '%s\n' "$out"
