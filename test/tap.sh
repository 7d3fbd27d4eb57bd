# shellcheck shell=bash
# TAP for the step scripts that prove runs (test/run-tests.sh, test/matrix.sh): sourced, not run.
# $LOGS: the log directory; $INDENT: put before each line (a subtest's steps are indented).

# step NAME COMMAND...: run COMMAND with its output in $LOGS/NAME.log; "ok" or "not ok" and the
# log's tail; a failed step's NAME is added to $tap_failed.
step() {
	local name=$1 start=$SECONDS rc
	shift
	tap_tests=$((${tap_tests:-0} + 1))
	"$@" </dev/null >"$LOGS/$name.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^1\.\.0 # SKIP' "$LOGS/$name.log"; then
		# A step that could not run here says why on its first line, as TAP's skip_all does.
		echo "${INDENT:-}ok $tap_tests - $name # SKIP $(sed -n 's/^1\.\.0 # SKIP //p' "$LOGS/$name.log" | head -1)"
	elif [ $rc -eq 0 ]; then
		echo "${INDENT:-}ok $tap_tests - $name ($((SECONDS - start)) s)"
	else
		tap_failed="${tap_failed:-} $name"
		echo "${INDENT:-}not ok $tap_tests - $name (exit $rc after $((SECONDS - start)) s; log ${LOGS#"$PWD"/}/$name.log)"
		tail -40 "$LOGS/$name.log" | sed "s/^/${INDENT:-}#   /"
	fi
	return $rc
}

# skip_step NAME REASON: a step not run here, counted as a TAP skip.
skip_step() {
	tap_tests=$((${tap_tests:-0} + 1))
	echo "${INDENT:-}ok $tap_tests - $1 # SKIP $2"
}

# under_prove ARGS...: unless prove already runs this script, have prove run it (verbose, so each
# step shows as it ends) and end with prove's summary. A fresh Debian has no prove: perl brings it.
under_prove() {
	[ -n "${HARNESS_ACTIVE:-}" ] && return
	command -v prove >/dev/null || bash test/setup-debian.sh perl || exit
	exec prove -v --exec bash "$0" :: "$@"
}

# no_warnings LOG: fail if the compiler warned. LOG may be the step's own output, which grep
# refuses to read as a file: it reads a copy taken first.
no_warnings() {
	local log
	log=$(cat "$1") || return
	! grep -n 'warning:' <<<"$log"
}
