# shellcheck shell=bash
# Debian chroots for the other PostgreSQL majors: sourced, not run (as root). One chroot per suite,
# made with debootstrap from this machine's apt mirror, cached outside the clone, made again when
# missing or broken.

CHROOT_CACHE=${LOCALITY_UUID_CHROOT_CACHE:-/var/cache/locality_uuid/chroots}
# chroot_suite MAJOR: the Debian suite that ships that PostgreSQL major.
chroot_suite() {
	case $1 in 15) echo bookworm ;; 17) echo trixie ;; 18) echo sid ;; 19) echo experimental ;; *) return 1 ;; esac
}

# chroot_exec DIR COMMAND: run a shell command inside DIR, one user at a time (flock), with
# /proc, /sys and /dev mounted in a mount namespace of its own, so they vanish when it ends.
# LOCALITY_UUID_CHROOT_CGROUP=1 also binds the host's /sys/fs/cgroup there (the past-memory
# benchmark makes its memory cgroup in it).
chroot_exec() {
	flock "$1.lock" unshare --mount --propagation private bash -c 'cd "$0" &&
		mount -t proc proc proc && mount -t sysfs sysfs sys && mount --bind /dev dev &&
		{ [ "${LOCALITY_UUID_CHROOT_CGROUP:-}" != 1 ] || mount --rbind /sys/fs/cgroup sys/fs/cgroup; } &&
		mount -t devpts -o newinstance,ptmxmode=0666 devpts dev/pts && mount -t tmpfs -o mode=1777 tmpfs dev/shm &&
		exec chroot . /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
			DEBIAN_FRONTEND=noninteractive bash -c "$1"' "$1" "$2"
}

# chroot_major_exec DIR MAJOR TREE VENDOR COMMAND: chroot_exec COMMAND in TREE (a directory of the
# chroot) with MAJOR and that major's PG_CONFIG set, and LOCALITY_UUID_VENDOR=VENDOR unless empty.
chroot_major_exec() {
	chroot_exec "$1" "cd $3 && export MAJOR=$2 PG_CONFIG=/usr/lib/postgresql/$2/bin/pg_config \
		${4:+LOCALITY_UUID_VENDOR=$4} && $5"
}

# chroot_copy_tree DEST...: copy the files git tracks, and the untracked ones it does not ignore,
# of the current directory into each DEST (which must exist).
chroot_copy_tree() {
	local tree d rc=0
	tree=$(mktemp) || return 1
	git ls-files -z -co --exclude-standard | tar --null -T - --ignore-failed-read -cf "$tree" || rc=1
	for d; do [ $rc != 0 ] || tar -C "$d" -xf "$tree" || rc=1; done
	rm -f "$tree"
	return $rc
}

# chroot_ok DIR MAJOR: is DIR a finished chroot with that major's server and headers?
chroot_ok() {
	[ -f "$1/.locality_uuid-ready" ] && [ -x "$1/usr/lib/postgresql/$2/bin/postgres" ] &&
		chroot "$1" "/usr/lib/postgresql/$2/bin/pg_config" --version >/dev/null 2>&1
}

# chroot_failed SUITE STEP: say that STEP of making SUITE's chroot failed, with its log's tail; fail.
chroot_failed() {
	echo "chroot $1: step $2 failed; see $CHROOT_CACHE/$1.$2.log" >&2
	tail -5 "$CHROOT_CACHE/$1.$2.log" >&2
	return 1
}

# chroot_ensure MAJOR: print the chroot directory for MAJOR, making it first if needed.
# Progress and failures go to stderr; a failure names the suite and the step.
chroot_ensure() {
	local suite dir tmp mirror base
	suite=$(chroot_suite "$1") || { echo "chroot: no Debian suite for PostgreSQL $1" >&2; return 1; }
	dir=$CHROOT_CACHE/$suite tmp=$CHROOT_CACHE/$suite.new base=${suite/experimental/sid}
	chroot_ok "$dir" "$1" && { echo "$dir"; return; }
	# This machine's Debian mirror (LOCALITY_UUID_MIRROR overrides it).
	mirror=${LOCALITY_UUID_MIRROR:-$(grep -hoE '^(URIs: |deb )[^ ]*/debian/?( |$)' /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list 2>/dev/null | head -1 | awk '{print $2}')}
	[ -n "$mirror" ] || { echo "chroot $suite: step mirror: no Debian mirror in this machine's apt sources" >&2; return 1; }
	rm -rf --one-file-system "$dir" "$tmp" && mkdir -p "$CHROOT_CACHE" && bash "$(dirname "${BASH_SOURCE[0]}")/setup-debian.sh" debootstrap >&2 || return 1
	echo "chroot $suite: debootstrap $base (a few minutes)" >&2
	debootstrap --variant=minbase --components=main "$base" "$tmp" "$mirror" >"$CHROOT_CACHE/$suite.debootstrap.log" 2>&1 ||
		chroot_failed "$suite" debootstrap || return
	# The archive's Release files may look expired against this machine's clock. No service
	# starts in the chroot, and the packages make no cluster of their own.
	printf 'Acquire::Check-Valid-Until "false";\nAPT::Install-Recommends "false";\n' >"$tmp/etc/apt/apt.conf.d/99locality-uuid"
	[ "$suite" != experimental ] || echo "deb $mirror experimental main" >>"$tmp/etc/apt/sources.list"
	printf '#!/bin/sh\nexit 101\n' >"$tmp/usr/sbin/policy-rc.d" && chmod +x "$tmp/usr/sbin/policy-rc.d"
	echo "chroot $suite: installing PostgreSQL $1 and build tools" >&2
	# Building, packaging, the TAP framework, a fake clock, and what 240_cli.pl compares the tool with.
	chroot_exec "$tmp" "apt-get update -qq && apt-get install -y -qq build-essential debhelper dpkg-dev fakeroot \
			postgresql-common libipc-run-perl faketime ca-certificates procps python3 uuid-runtime &&
		sed -i 's/^#* *create_main_cluster.*/create_main_cluster = false/' /etc/postgresql-common/createcluster.conf &&
		apt-get install -y -qq --target-release=$suite postgresql-$1 postgresql-server-dev-$1" >"$CHROOT_CACHE/$suite.packages.log" 2>&1 ||
		chroot_failed "$suite" packages || return
	touch "$tmp/.locality_uuid-ready" && mv "$tmp" "$dir" && rm -f "$tmp.lock"
	chroot_ok "$dir" "$1" || { echo "chroot $suite: step check failed: no working pg_config for $1" >&2; return 1; }
	echo "$dir"
}
