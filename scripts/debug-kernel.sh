#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once per machine) the debug kernel `make check-debug` boots:
# Debian's linux-source-6.1 with KASAN, lockdep, kmemleak, UBSAN and
# DEBUG_ATOMIC_SLEEP, configured from x86_64_defconfig + kvm_guest.config +
# scripts/debug-kernel.config, everything the suite needs built in.
#
# Usage: scripts/debug-kernel.sh [-q]
# Prints the directory of the finished build:
#   bzImage    the kernel image          kver      its `uname -r`
#   obj/       the build tree (KDIR for mrc.ko)
#   modroot/   modules.builtin & co (the guest mounts it as /lib/modules)
#   build-seconds, build.log
#
# Cached under ${XDG_CACHE_HOME:-~/.cache}/mrc/debug-kernel/, keyed by the
# linux-source package version and a hash of the configuration; a changed
# configuration builds a new kernel next to the old one. The build runs
# under `nice -n 19` (other jobs share the machine).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
quiet=0
[ "${1:-}" = "-q" ] && quiet=1
say() { [ "$quiet" = 1 ] || echo "debug-kernel: $*" >&2; }

tarball=/usr/src/linux-source-6.1.tar.xz
if [ ! -r "$tarball" ]; then
	echo "debug-kernel: $tarball missing (apt-get install linux-source-6.1)" >&2
	exit 2
fi
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || stat -c %Y "$tarball")
frag=$root/scripts/debug-kernel.config
key=$( { echo "$srcver"; cat "$frag"; sed -n '/^# --- key start/,/^# --- key end/p' "$0"; } |
	sha256sum | cut -c1-12)

cache=${XDG_CACHE_HOME:-$HOME/.cache}/mrc/debug-kernel
dir=$cache/$srcver-$key
mkdir -p "$cache"
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi

# One build at a time per machine; a second caller waits and reuses it.
exec 9> "$cache/.lock"
if ! flock -n 9; then
	say "another build is running; waiting for it"
	flock 9
fi
if [ -f "$dir/done" ]; then
	echo "$dir"
	exit 0
fi

start=$(date +%s)
src=$cache/src-$srcver
if [ ! -f "$src/.extracted" ]; then
	say "extracting $tarball"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	nice -n 19 tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
	touch "$src.tmp/.extracted"
	mv "$src.tmp" "$src"
fi

rm -rf "$dir"
mkdir -p "$dir/obj"
log=$dir/build.log
jobs=${MRC_DEBUG_KERNEL_JOBS:-$(nproc)}
kmake() { nice -n 19 make -C "$src" O="$dir/obj" -j"$jobs" "$@"; }

# --- key start (the configuration steps: part of the cache key)
say "configuring (log: $log)"
{
	kmake x86_64_defconfig
	kmake kvm_guest.config
	"$src/scripts/kconfig/merge_config.sh" -m -O "$dir/obj" \
		"$dir/obj/.config" "$frag"
	kmake olddefconfig
} > "$log" 2>&1
# --- key end

# Every option the fragment asks for must have survived olddefconfig.
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$dir/obj/.config" ||
			{ echo "debug-kernel: $line did not stick" >&2; bad=1; } ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		! grep -q "^$opt=" "$dir/obj/.config" ||
			{ echo "debug-kernel: $opt is still set" >&2; bad=1; } ;;
	esac
done < "$frag"
[ "$bad" = 0 ] || exit 1

say "building with $jobs jobs under nice -n 19 (log: $log); this takes a while"
if ! kmake all >> "$log" 2>&1; then
	tail -30 "$log" >&2
	echo "debug-kernel: build failed (log: $log)" >&2
	exit 1
fi
kmake INSTALL_MOD_PATH="$dir/modroot" modules_install >> "$log" 2>&1
cp "$dir/obj/arch/x86/boot/bzImage" "$dir/bzImage"
kmake -s kernelrelease > "$dir/kver" 2>> "$log"
echo $(($(date +%s) - start)) > "$dir/build-seconds"
touch "$dir/done"
say "built $(cat "$dir/kver") in $(cat "$dir/build-seconds") s"
echo "$dir"
