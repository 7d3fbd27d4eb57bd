# Debian chroots for the other PostgreSQL majors: sourced, not run (as root).
# One chroot per suite, made with debootstrap and cached outside the clone; made again when
# missing or broken. The mirror is the one this machine's apt already uses.

CHROOT_CACHE=${LOCALITY_UUID_CHROOT_CACHE:-/var/cache/locality_uuid/chroots}

# What every chroot needs: building, packaging, the TAP framework and a fake clock.
CHROOT_PACKAGES="build-essential debhelper dpkg-dev fakeroot postgresql-common libipc-run-perl faketime ca-certificates procps"

# chroot_suite MAJOR: the Debian suite that ships that PostgreSQL major.
chroot_suite() {
	case $1 in
	15) echo bookworm ;;
	17) echo trixie ;;
	18) echo sid ;;
	19) echo experimental ;;
	*) return 1 ;;
	esac
}

# chroot_mirror: the Debian mirror of this machine's apt sources (override: LOCALITY_UUID_MIRROR).
chroot_mirror() {
	if [ -n "${LOCALITY_UUID_MIRROR:-}" ]; then
		echo "$LOCALITY_UUID_MIRROR"
		return
	fi
	local uri
	uri=$(grep -hE '^URIs:.*/debian/?$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | awk '{print $2}')
	[ -n "$uri" ] || uri=$(grep -hE '^deb .*/debian/? ' /etc/apt/sources.list 2>/dev/null | head -1 | awk '{print $2}')
	[ -n "$uri" ] || return 1
	echo "$uri"
}

# chroot_mount DIR: mount what a build and a running server need.
chroot_mount() {
	local dir=$1 m
	for m in proc sys dev dev/pts dev/shm; do
		mountpoint -q "$dir/$m" && continue
		mkdir -p "$dir/$m"
		case $m in
		proc) mount -t proc proc "$dir/proc" ;;
		sys) mount -t sysfs sysfs "$dir/sys" ;;
		dev) mount --bind /dev "$dir/dev" ;;
		dev/pts) mount -t devpts -o newinstance,ptmxmode=0666 devpts "$dir/dev/pts" ;;
		dev/shm) mount -t tmpfs -o mode=1777 tmpfs "$dir/dev/shm" ;;
		esac || return 1
	done
}

# chroot_umount DIR: unmount everything below DIR, deepest first.
chroot_umount() {
	local dir=$1 m
	for m in dev/shm dev/pts dev sys proc; do
		if mountpoint -q "$dir/$m"; then
			umount "$dir/$m" 2>/dev/null || umount -l "$dir/$m"
		fi
	done
}

# chroot_exec DIR COMMAND: run a shell command inside DIR with its mounts, unmounting after
# (also on failure). One user of a chroot at a time: the mounts are not shared.
chroot_exec() {
	local dir=$1
	shift
	(
		flock 9
		trap 'chroot_umount "$dir"' EXIT
		trap 'exit 130' INT TERM HUP
		chroot_mount "$dir" || exit 1
		chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
			DEBIAN_FRONTEND=noninteractive bash -c "$1"
	) 9>"$dir.lock"
}

# chroot_debootstrap_installed: install debootstrap on this machine when it is missing.
chroot_debootstrap_installed() {
	command -v debootstrap >/dev/null && return 0
	echo "chroot: installing debootstrap" >&2
	{ apt-get install -y -qq debootstrap || { apt-get update -qq && apt-get install -y -qq debootstrap; }; } \
		>&2 </dev/null
}

# chroot_ok DIR MAJOR: is DIR a finished chroot with that major's server and headers?
chroot_ok() {
	[ -f "$1/.locality_uuid-ready" ] &&
		[ -x "$1/usr/lib/postgresql/$2/bin/pg_config" ] &&
		[ -x "$1/usr/lib/postgresql/$2/bin/postgres" ] &&
		chroot "$1" /usr/lib/postgresql/$2/bin/pg_config --version >/dev/null 2>&1
}

# chroot_ensure MAJOR: print the chroot directory for MAJOR, making it first if needed.
# Progress and failures go to stderr; a failure names the suite and the step.
chroot_ensure() {
	local major=$1 suite dir mirror base tmp
	suite=$(chroot_suite "$major") || {
		echo "chroot: no Debian suite for PostgreSQL $major" >&2
		return 1
	}
	dir=$CHROOT_CACHE/$suite
	if chroot_ok "$dir" "$major"; then
		echo "$dir"
		return 0
	fi
	mirror=$(chroot_mirror) || {
		echo "chroot $suite: step mirror: no Debian mirror in this machine's apt sources" >&2
		return 1
	}
	base=$suite
	[ "$suite" = experimental ] && base=sid
	tmp=$dir.new
	chroot_umount "$dir" 2>/dev/null
	chroot_umount "$tmp" 2>/dev/null
	rm -rf "$dir" "$tmp"
	mkdir -p "$CHROOT_CACHE"
	chroot_debootstrap_installed || {
		echo "chroot $suite: step debootstrap failed: cannot install debootstrap" >&2
		return 1
	}
	echo "chroot $suite: debootstrap $base (a few minutes)" >&2
	if ! debootstrap --variant=minbase --components=main "$base" "$tmp" "$mirror" \
		>"$CHROOT_CACHE/$suite.debootstrap.log" 2>&1; then
		echo "chroot $suite: step debootstrap failed; see $CHROOT_CACHE/$suite.debootstrap.log" >&2
		tail -5 "$CHROOT_CACHE/$suite.debootstrap.log" >&2
		rm -rf "$tmp"
		return 1
	fi
	# The archive's Release files may look expired against this machine's clock.
	echo 'Acquire::Check-Valid-Until "false";' >"$tmp/etc/apt/apt.conf.d/99locality-uuid"
	echo 'APT::Install-Recommends "false";' >>"$tmp/etc/apt/apt.conf.d/99locality-uuid"
	[ "$suite" = experimental ] && echo "deb $mirror experimental main" >>"$tmp/etc/apt/sources.list"
	local target=""
	[ "$suite" = experimental ] && target="-t experimental"
	echo "chroot $suite: installing PostgreSQL $major and build tools" >&2
	# No service starts in the chroot, and the packages make no cluster of their own.
	printf '#!/bin/sh\nexit 101\n' >"$tmp/usr/sbin/policy-rc.d"
	chmod +x "$tmp/usr/sbin/policy-rc.d"
	if ! chroot_exec "$tmp" "apt-get update -qq && apt-get install -y -qq $CHROOT_PACKAGES &&
		sed -i 's/^#* *create_main_cluster.*/create_main_cluster = false/' /etc/postgresql-common/createcluster.conf &&
		apt-get install -y -qq $target postgresql-$major postgresql-server-dev-$major" \
		>"$CHROOT_CACHE/$suite.packages.log" 2>&1; then
		echo "chroot $suite: step packages failed; see $CHROOT_CACHE/$suite.packages.log" >&2
		tail -5 "$CHROOT_CACHE/$suite.packages.log" >&2
		rm -rf "$tmp" "$tmp.lock"
		return 1
	fi
	touch "$tmp/.locality_uuid-ready"
	mv "$tmp" "$dir"
	rm -f "$tmp.lock"
	chroot_ok "$dir" "$major" || {
		echo "chroot $suite: step check failed: no working pg_config for $major" >&2
		return 1
	}
	echo "$dir"
}
