#!/usr/bin/env bash
# Build, package and test locality_uuid on every PostgreSQL major, each in a chroot of the
# Debian suite that ships it; one progress line per step, last line "N passed, N failed".
# Usage (as root, from the repository): bash test/matrix.sh [--majors "15 17 18 19"]
#
# Per major: make (or reuse) the chroot, stage a clean copy of the tree in it, build with
# -Wall -Wextra (any "warning:" fails the step), make install, make installcheck (pg_regress,
# then every TAP test in test/t) and make installcheck-portable as postgres on pg_virtualenv,
# make uninstall; then build the
# Debian package (dpkg-buildpackage, pg_buildext), install it, run the autopkgtest
# (debian/tests/installcheck; here the regression suite only) against the installed package
# on a fresh cluster, and purge it. Logs: test/out/matrix/MAJOR/STEP.log. The deps step also
# installs pg_partman and TimescaleDB where the suite packages them for the major (for the TAP
# tests 230_partman.pl and 231_timescaledb.pl, which skip elsewhere).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/test/out/matrix
MAJORS="15 17 18 19"

while [ $# -gt 0 ]; do
	case $1 in
	--majors) MAJORS=$2; shift 2 ;;
	--majors=*) MAJORS=${1#--majors=}; shift ;;
	-h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "matrix: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "matrix: run as root (chroot, mount)"; echo "0 passed, 1 failed"; exit 1; }

. test/chroot.sh

passed=0
failed=0
summary=()
interrupted=0
trap 'interrupted=1' INT TERM

# step NAME COMMAND...: run one step of the current major with its log and a progress line.
step() {
	local name=$1 start rc
	shift
	start=$(date +%s)
	printf 'matrix %s: %s ... ' "$major" "$name"
	"$@" </dev/null >"$OUT/$major/$name.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok ($(($(date +%s) - start)) s)"
		return 0
	fi
	failed=$((failed + 1))
	bad+=("$name")
	echo "FAILED ($(($(date +%s) - start)) s): $suite, PostgreSQL $major, step $name; log test/out/matrix/$major/$name.log"
	tail -25 "$OUT/$major/$name.log" | sed 's/^/    /'
	return 1
}

# in_chroot COMMAND: run a shell command in the current major's chroot, in /build/src.
# PGPORT: the chroots share the host's network, so pg_virtualenv's clusters get a port that
# is free there rather than 5432.
in_chroot() {
	chroot_exec "$dir" "cd /build/src 2>/dev/null || cd /build; export MAJOR=$major PG_CONFIG=$pgc \
		PGPORT=$(free_port) LOCALITY_UUID_VENDOR=/build/vendor; $1"
}

# free_port: a TCP port nothing listens on.
free_port() {
	local p i
	for i in $(seq 100); do
		p=$((20000 + RANDOM % 30000))
		if command -v ss >/dev/null; then
			ss -ltnH "sport = :$p" | grep -q . && continue
		else
			(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && continue
		fi
		echo "$p"
		return
	done
	echo 5432
}

# no_warnings LOG: fail if the compiler warned.
no_warnings() {
	local w
	w=$(grep -n 'warning:' "$1") || return 0
	echo "$w"
	echo "matrix: the build warned (above)"
	return 1
}

# The tree to test: tracked and untracked-but-not-ignored files, without test/out.
tree_files() {
	if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$ROOT" ls-files -co --exclude-standard | grep -v '^test/out/' | sort -u |
			while IFS= read -r f; do [ -e "$f" ] && printf '%s\0' "$f"; done
	else
		find . -path ./test/out -prune -o -type f -printf '%P\0'
	fi
}

# --- steps (run with $major, $dir, $pgc set) ---

# The chroot: made in the background at the start (make_missing_chroots), or ready in the cache.
do_chroot() {
	local pid=${maker[$major]:-}
	if [ -n "$pid" ]; then
		wait "$pid"
		local rc=$?
		cat "$OUT/$major/chroot-make.log"
		[ $rc -eq 0 ] || return 1
	fi
	dir=$(chroot_ensure "$major") && [ -n "$dir" ]
}

# Missing chroots are all made at once in the background (mostly network and disk), each in a
# session of its own so that an interrupt can end it, while the first majors are tested.
declare -A maker=()
make_missing_chroots() {
	local m suite need=()
	for m in $MAJORS; do
		suite=$(chroot_suite "$m") || continue
		chroot_ok "$CHROOT_CACHE/$suite" "$m" || need+=("$m")
	done
	[ ${#need[@]} -gt 0 ] || return 0
	chroot_debootstrap_installed 2>&1 | sed 's/^/matrix: /'
	for m in "${need[@]}"; do
		echo "matrix $m: making the $(chroot_suite "$m") chroot in the background"
		setsid bash -c '. test/chroot.sh && chroot_ensure "$1"' bash "$m" \
			</dev/null >/dev/null 2>"$OUT/$m/chroot-make.log" &
		maker[$m]=$!
	done
}

# stop_chroot_makers: end the background chroot makers still running (after an interrupt).
stop_chroot_makers() {
	local m
	for m in "${!maker[@]}"; do
		kill -TERM -- "-${maker[$m]}" 2>/dev/null && echo "matrix $m: stopped making its chroot"
	done
	wait 2>/dev/null
}

# Clean slate: nothing of a previous run installed, a fresh copy of the tree in /build.
do_stage() {
	local pkgs
	pkgs=$(chroot "$dir" dpkg-query -W -f '${Package} ${db:Status-Status}\n' 'postgresql-*-locality-uuid' locality-uuid 2>/dev/null |
		awk '$2 != "not-installed" {printf "%s ", $1}')
	if [ -n "$pkgs" ]; then
		in_chroot "apt-get purge -y -q $pkgs" || return 1
	fi
	rm -rf "$dir/build" && mkdir -p "$dir/build/src" "$dir/build/pkg/locality-uuid" || return 1
	tree_files | tar -C "$ROOT" --null -T - -cf "$dir/build/tree.tar" || return 1
	tar -C "$dir/build/src" -xf "$dir/build/tree.tar" &&
		tar -C "$dir/build/pkg/locality-uuid" -xf "$dir/build/tree.tar" || return 1
	if [ -n "${LOCALITY_UUID_VENDOR:-}" ]; then
		cp -a "$LOCALITY_UUID_VENDOR" "$dir/build/vendor" || return 1
	fi
	in_chroot 'rm -f "$($PG_CONFIG --pkglibdir)/locality_uuid.so" "$($PG_CONFIG --sharedir)"/extension/locality_uuid*'
}

# Build dependencies of the package and the test tools, installed when missing.
do_deps() {
	in_chroot 'cd /build/pkg/locality-uuid
		need=""
		dpkg-checkbuilddeps 2>/dev/null || need="build-dep"
		for p in libipc-run-perl make; do
			dpkg-query -W -f "\${db:Status-Status}" $p 2>/dev/null | grep -qx installed || need="$need $p"
		done
		[ -z "$need" ] && { echo "all there"; exit 0; }
		echo "installing: $need"
		apt-get update -q &&
		apt-get install -y -q --no-install-recommends libipc-run-perl make &&
		apt-get build-dep -y -q --no-install-recommends ./ &&
		dpkg-checkbuilddeps' || return 1
	do_partition_tools
}

# pg_partman and TimescaleDB for 230_partman.pl and 231_timescaledb.pl, where the suite packages
# them for this major; elsewhere those tests skip and say why.
do_partition_tools() {
	in_chroot 'want=""
		for p in postgresql-$MAJOR-partman postgresql-$MAJOR-timescaledb; do
			if dpkg-query -W -f "\${db:Status-Status}" $p 2>/dev/null | grep -qx installed; then
				echo "$p: installed"
			elif apt-cache show $p >/dev/null 2>&1; then
				want="$want $p"
			else
				echo "$p: not in this suite"
			fi
		done
		[ -z "$want" ] && exit 0
		echo "installing:$want"
		apt-get install -y -q --no-install-recommends $want ||
			{ apt-get update -q && apt-get install -y -q --no-install-recommends $want; }'
}

do_build() {
	in_chroot 'make -j2 PG_CONFIG=$PG_CONFIG' || return 1
	grep -q -e '-Wall .*-Wextra' "$OUT/$major/build.log" || { echo "matrix: built without -Wall -Wextra"; return 1; }
	no_warnings "$OUT/$major/build.log"
}

do_install() {
	in_chroot 'make install PG_CONFIG=$PG_CONFIG && test -f "$($PG_CONFIG --pkglibdir)/locality_uuid.so"'
}

# make TARGET (installcheck: pg_regress, then the TAP tests; installcheck-portable: the portable
# edition's suite) as postgres on throw-away clusters (test/installcheck.sh).
do_installcheck() {
	local target=$1 rc
	in_chroot "LOCALITY_UUID_TARGET=$target bash test/installcheck.sh"
	rc=$?
	rm -rf "$OUT/$major/$target"
	cp -a "$dir/build/src/test/out/$target" "$OUT/$major/$target" 2>/dev/null
	return $rc
}

do_uninstall() {
	in_chroot 'make uninstall PG_CONFIG=$PG_CONFIG &&
		! ls "$($PG_CONFIG --pkglibdir)/locality_uuid.so" "$($PG_CONFIG --sharedir)"/extension/locality_uuid* \
			"$($PG_CONFIG --bindir)/locality-uuid" 2>/dev/null'
}

# dpkg-buildpackage with pg_buildext, for this chroot's major only.
do_package() {
	in_chroot 'cd /build/pkg/locality-uuid && export PG_SUPPORTED_VERSIONS=$MAJOR &&
		pg_buildext updatecontrol && dpkg-buildpackage -us -uc -b &&
		ls -l /build/pkg/postgresql-$MAJOR-locality-uuid_*.deb /build/pkg/locality-uuid_*.deb' || return 1
	no_warnings "$OUT/$major/package.log"
}

do_pkg_install() {
	in_chroot 'apt-get install -y -q --no-install-recommends /build/pkg/postgresql-$MAJOR-locality-uuid_*.deb \
			/build/pkg/locality-uuid_*.deb &&
		dpkg -L postgresql-$MAJOR-locality-uuid locality-uuid && locality-uuid --version'
}

# The autopkgtest against the installed package, on a fresh cluster: the regression suite
# (the TAP tests ran in installcheck, against the same build; twice would not fit the budget).
do_pkg_test() {
	local rc
	mkdir -p "$dir/build/artifacts"
	in_chroot 'cd /build/pkg/locality-uuid && AUTOPKGTEST_ARTIFACTS=/build/artifacts debian/tests/installcheck TAP_TESTS='
	rc=$?
	rm -rf "$OUT/$major/pkg-test"
	cp -a "$dir/build/artifacts" "$OUT/$major/pkg-test" 2>/dev/null
	return $rc
}

do_pkg_remove() {
	in_chroot 'apt-get purge -y -q postgresql-$MAJOR-locality-uuid locality-uuid &&
		! ls "$($PG_CONFIG --pkglibdir)/locality_uuid.so" /usr/bin/locality-uuid 2>/dev/null'
}

# Steps the lead may add per major, run after make install and before make installcheck:
# "NAME COMMAND" lines, COMMAND run in the chroot in /build/src with PG_CONFIG, MAJOR and
# LOCALITY_UUID_VENDOR (a copy of the host's, in /build/vendor) set.
extra_steps() {
	case $1 in
	18)
		[ -f "$ROOT/test/citus.sh" ] &&
			echo 'citus bash test/citus.sh --vendor "$LOCALITY_UUID_VENDOR" "$PG_CONFIG"'
		echo 'core-upgrade bash test/core_upgrade.sh'
		;;
	esac
}

# --- the matrix ---

for major in $MAJORS; do
	rm -rf "${OUT:?}/$major"
	mkdir -p "$OUT/$major"
done
make_missing_chroots

for major in $MAJORS; do
	if [ $interrupted -ne 0 ]; then
		summary+=("matrix $major: not run (interrupted)")
		continue
	fi
	bad=()
	suite=$(chroot_suite "$major") || suite="no Debian suite"
	pgc=/usr/lib/postgresql/$major/bin/pg_config
	dir=
	if step chroot do_chroot && step stage do_stage && step deps do_deps; then
		if step build do_build && step install do_install; then
			while read -r name cmd; do
				[ -n "$name" ] && [ $interrupted -eq 0 ] && step "$name" in_chroot "$cmd"
			done < <(extra_steps "$major")
			[ $interrupted -eq 0 ] && step installcheck do_installcheck installcheck
			[ $interrupted -eq 0 ] && step installcheck-portable do_installcheck installcheck-portable
			step uninstall do_uninstall
		fi
		if [ $interrupted -eq 0 ] && step package do_package; then
			if step pkg-install do_pkg_install; then
				[ $interrupted -eq 0 ] && step pkg-test do_pkg_test
				step pkg-remove do_pkg_remove
			fi
		fi
	fi
	if [ ${#bad[@]} -eq 0 ] && [ $interrupted -eq 0 ]; then
		summary+=("matrix $major ($suite): passed")
	else
		summary+=("matrix $major ($suite): FAILED (${bad[*]:-interrupted})")
	fi
done

if [ $interrupted -ne 0 ]; then
	stop_chroot_makers
	echo "matrix: interrupted"
	failed=$((failed + 1))
fi
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
