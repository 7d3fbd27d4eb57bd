# Sourced by the benchmark smoke scripts: check NAME COMMAND evaluates COMMAND, prints a TAP
# line "ok - NAME" or "not ok - NAME" and counts it in passed or failed.
passed=0
failed=0
check() {
	if eval "$2"; then
		passed=$((passed + 1))
		echo "ok - $1"
	else
		failed=$((failed + 1))
		echo "not ok - $1"
	fi
}
