#!/usr/bin/env bash
# Build, package and test locality_uuid on every PostgreSQL major, each in a chroot of the Debian
# suite that ships it (test/chroot.sh); run by prove: one TAP subtest a major, one test a step, prove's
# summary last. The majors in $LOCALITY_UUID_TESTED_MAJORS (.ci/run names this machine's, which
# test/run-tests.sh tests) skip the suites. Logs: test/out/matrix/MAJOR/STEP.log, the suites' beside.
# Usage (as root, from the repository): bash test/matrix.sh [--majors "15 17 18 19"]
set -uo pipefail
cd "$(dirname "$0")/.." || exit
MAJORS="15 17 18 19"
[ "${1:-}" != --majors ] || MAJORS=$2
. test/tap.sh
. test/chroot.sh
under_prove "$@"
[ "$(id -u)" = 0 ] || { echo "Bail out! run as root (chroot, mount)"; exit 1; }

# in_chroot COMMAND: run a shell command in this major's chroot, in /build/src, with MAJOR,
# PG_CONFIG and LOCALITY_UUID_VENDOR (a copy of the host's) set.
in_chroot() { chroot_major_exec "$dir" "$major" /build/src /build/vendor "$1"; }
find_chroot() { dir=$(chroot_ensure "$major") && echo "$dir"; }

# A clean slate: a fresh copy of the tree (the files git tracks, and the untracked ones it does
# not ignore) in /build/src for make and /build/pkg/locality-uuid for the package; nothing of a
# previous run installed.
stage() {
	local pkgs
	rm -rf --one-file-system "$dir/build" && mkdir -p "$dir/build/src" "$dir/build/pkg/locality-uuid" &&
		chroot_copy_tree "$dir/build/src" "$dir/build/pkg/locality-uuid" &&
		{ [ -z "${LOCALITY_UUID_VENDOR:-}" ] || cp -a "$LOCALITY_UUID_VENDOR" "$dir/build/vendor"; } || return 1
	pkgs=$(chroot "$dir" dpkg-query -W -f '${db:Status-Status} ${Package}\n' 'postgresql-*-locality-uuid' locality-uuid 2>/dev/null |
		awk '$1 != "not-installed" {printf "%s ", $2}')
	in_chroot "${pkgs:+apt-get purge -y -q $pkgs && }"'rm -f "$($PG_CONFIG --pkglibdir)/locality_uuid.so" "$($PG_CONFIG --sharedir)"/extension/locality_uuid*'
}

# Build dependencies of the package and the test tools, and pg_partman and TimescaleDB where the
# suite packages them for this major (elsewhere their tests skip and say why).
deps() {
	in_chroot 'bash test/setup-debian.sh libipc-run-perl make &&
		{ dpkg-checkbuilddeps /build/pkg/locality-uuid/debian/control ||
			{ apt-get update -q && apt-get build-dep -y -q /build/pkg/locality-uuid; }; } &&
		want=$(for p in postgresql-$MAJOR-partman postgresql-$MAJOR-timescaledb; do
			apt-cache show $p >/dev/null 2>&1 && echo $p || echo "$p: not in this suite" >&2; done) &&
		{ [ -z "$want" ] || bash test/setup-debian.sh $want; }'
}

build() {
	in_chroot 'make -j2' || return 1
	grep -q -e '-Wall .*-Wextra' "$LOGS/build.log" || { echo "matrix: built without -Wall -Wextra"; return 1; }
	no_warnings "$LOGS/build.log"
}

# dpkg-buildpackage with pg_buildext, for this chroot's major only.
package() {
	in_chroot 'cd /build/pkg/locality-uuid && export PG_SUPPORTED_VERSIONS=$MAJOR && pg_buildext updatecontrol &&
		dpkg-buildpackage -us -uc -b && ls -l /build/pkg/postgresql-$MAJOR-locality-uuid_*.deb /build/pkg/locality-uuid_*.deb' &&
		no_warnings "$LOGS/package.log"
}

# The steps of one major; a step that later ones need ends the major when it fails.
test_major() {
	step chroot find_chroot && step stage stage && step deps deps || return
	if step build build && step install in_chroot 'make install && test -f "$($PG_CONFIG --pkglibdir)/locality_uuid.so"'; then
		if [ "$major" = 18 ]; then
			step citus in_chroot 'bash test/citus.sh'
			step core-upgrade in_chroot 'bash test/core_upgrade.sh'
		fi
		if [[ " ${LOCALITY_UUID_TESTED_MAJORS:-} " == *" $major "* ]]; then
			for s in installcheck installcheck-portable; do skip_step $s "ran on this machine's PostgreSQL $major (test/run-tests.sh)"; done
		else
			step installcheck in_chroot 'bash test/installcheck.sh PROVE_FLAGS=-j3'
			step installcheck-portable in_chroot 'LOCALITY_UUID_TARGET=installcheck-portable bash test/installcheck.sh'
		fi
		step uninstall in_chroot 'make uninstall && ! ls "$($PG_CONFIG --pkglibdir)/locality_uuid.so" \
			"$($PG_CONFIG --sharedir)"/extension/locality_uuid* "$($PG_CONFIG --bindir)/locality-uuid" 2>/dev/null'
	fi
	step package package && step pkg-install in_chroot 'apt-get install -y -q /build/pkg/postgresql-$MAJOR-locality-uuid_*.deb \
		/build/pkg/locality-uuid_*.deb && dpkg -L postgresql-$MAJOR-locality-uuid locality-uuid && locality-uuid --version' || return
	# The regression suite against the installed package (the TAP tests ran in installcheck, on the same build).
	step pkg-test in_chroot 'mkdir -p test/out/pkg-test && cd /build/pkg/locality-uuid &&
		AUTOPKGTEST_ARTIFACTS=/build/src/test/out/pkg-test debian/tests/installcheck TAP_TESTS='
	step pkg-remove in_chroot 'apt-get purge -y -q postgresql-$MAJOR-locality-uuid locality-uuid &&
		! ls "$($PG_CONFIG --pkglibdir)/locality_uuid.so" /usr/bin/locality-uuid 2>/dev/null'
}

n=0
for major in $MAJORS; do
	n=$((n + 1)) dir="" LOGS=$PWD/test/out/matrix/$major INDENT="    " tap_tests=0 tap_failed=""
	rm -rf "$LOGS" && mkdir -p "$LOGS"
	echo "    # Subtest: PostgreSQL $major"
	test_major
	echo "    1..$tap_tests"
	[ -z "$dir" ] || cp -a "$dir/build/src/test/out/." "$LOGS/" 2>/dev/null
	echo "${tap_failed:+not }ok $n - PostgreSQL $major ($(chroot_suite "$major" || echo "no Debian suite"))${tap_failed:+: failed$tap_failed}"
done
echo "1..$n"
