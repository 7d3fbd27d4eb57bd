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

# short_run_in_cgroup SCRIPT OUT: the smoke run of a benchmark in a memory cgroup (past_memory.pl,
# time_questions.pl): skips the whole test, with the reason, where no cgroup can be made; runs
# SCRIPT --short --no-build --out OUT (its output in OUT.log) and checks it exited 0.
short_run_in_cgroup() {
	local why rc
	if ! why=$(perl "$1" --check-cgroup); then
		echo "1..0 # SKIP no memory cgroup: $why"
		exit 0
	fi
	mkdir -p "$(dirname "$2")"
	perl "$1" --short --no-build --out "$2" >"$2.log" 2>&1
	rc=$?
	check "$(basename "$1") --short exits 0" "[ $rc -eq 0 ] || { tail -20 '$2.log'; false; }"
}

# cgroup_checks RAW: of the run whose raw CSV file is RAW: its cgroup was made and is removed,
# the postmaster and a backend were in it, its peak use is recorded and its OOM killer killed
# nothing.
cgroup_checks() {
	local cg
	cg=$(awk -F, '$1 == "meta" && $2 == "cgroup" { sub(/^v[12] /, "", $3); print $3 }' "$1" 2>/dev/null)
	check "the cgroup was made (${cg:-none}) and is removed" "[ -n '$cg' ] && [ ! -e '$cg' ]"
	check "the postmaster and a backend were in the cgroup" \
		"grep -q '^meta,member,[0-9]* .*/locality_uuid_bench_[0-9]*$' '$1' && grep -q '^meta,member_backend,[0-9]* .*/locality_uuid_bench_[0-9]*$' '$1'"
	check "the cgroup's peak use is recorded" "grep -q '^meta,cgroup_peak_mb,[0-9.]*$' '$1'"
	check "no process was killed by the cgroup's OOM killer" "! grep -q '^meta,cgroup_oom_kill,[1-9]' '$1'"
}
