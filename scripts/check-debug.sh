#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-debug: the VM suite on a debug kernel (KASAN, lockdep,
# kmemleak, UBSAN, DEBUG_ATOMIC_SLEEP). Builds the kernel once per machine
# (scripts/debug-kernel.sh, cached), builds mrc.ko against it into
# build/debug/kmod (the stock kmod/mrc.ko is left alone), boots it and runs
# the whole suite (or the named tests), then has kmemleak scan. Fails on
# any failed test and on any KASAN, lockdep, UBSAN, kmemleak or other
# kernel report.
#
# Usage: scripts/check-debug.sh [TEST...]   (make check-debug T="...")
# Results: build/debug/selftests/ (ktap.txt, console.log, dmesg.txt,
# kmemleak.txt), or the directory MRC_SELFTESTS_OUT names.
# Passed to the guest when set: MRC_TEST_TIME_SCALE, MRC_TEST_SIZE_DIV,
# MRC_TEST_MEM_SLACK_KB, MRC_SUITE_BUDGET (selftests/vm/debug-suite.sh).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ ! -e build/tools/mrcctl/mrcctl ]; then
	echo "check-debug: build the tree first (make)" >&2
	exit 2
fi
# MRC_DEBUG_KERNEL_DIR: use another kernel laid out as debug-kernel.sh
# prints it (bzImage, kver, obj/, modroot/, build-seconds).
kdir=${MRC_DEBUG_KERNEL_DIR:-$(scripts/debug-kernel.sh)} || exit 1
kver=$(cat "$kdir/kver")
echo "check-debug: kernel $kver (built in $(cat "$kdir/build-seconds") s, $kdir)"

# mrc.ko for the debug kernel, from a copy of the sources (kbuild writes
# its objects next to them).
dbg=$root/build/debug
mkdir -p "$dbg/kmod"
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='modules.order' \
	--exclude='Module.symvers' --exclude='.tmp_versions' \
	--exclude='core/tests' --exclude='core/sim' --exclude='core/fuzz' \
	kmod/ "$dbg/kmod/src/" 2>/dev/null ||
	{ rm -rf "$dbg/kmod/src"; mkdir -p "$dbg/kmod/src"; cp -a kmod/. "$dbg/kmod/src/"; }
ln -sfn "$root/uapi" "$dbg/kmod/uapi"
ln -sf "$root/VERSION" "$dbg/kmod/VERSION"
if ! make -s -C "$kdir/obj" M="$dbg/kmod/src" W=1 modules > "$dbg/kmod/build.log" 2>&1; then
	cat "$dbg/kmod/build.log" >&2
	echo "check-debug: mrc.ko does not build against $kver" >&2
	exit 1
fi
ko=$dbg/kmod/src/mrc.ko

out=${MRC_SELFTESTS_OUT:-$dbg/selftests}
rm -rf "$out"
mkdir -p "$out"
# The guest mounts tmpfs over /root (where the cache usually is): it gets
# a copy of the kernel's small module directory (no modules, the depmod
# and modules.builtin files).
modroot=$dbg/modules
rm -rf "$modroot"
mkdir -p "$modroot"
cp -a "$kdir/modroot/lib/modules/$kver" "$modroot/"
rm -f "$modroot/$kver/build" "$modroot/$kver/source"
start=$(date +%s)
# no5lvl: QEMU's "max" CPU has LA57, and 6.1's KASAN then computes its
# shadow range from the CPU's feature bits, which identify_cpu() clears
# for a moment at boot: an interrupt in that moment is reported as a wild
# memory access (seen once at 2 s of boot, before any test). Four-level
# paging, as on most hosts, has no such window.
MRC_VM_KERNEL=$kdir/bzImage MRC_KVER=$kver MRC_VM_MODDIR=$modroot/$kver \
MRC_VM_APPEND="mrc_vm_moddir=$modroot kmemleak=on pci=noacpi no5lvl" \
MRC_VM_CACHE=$dbg/vm MRC_VM_MEM=${MRC_VM_MEM:-3072} \
	selftests/vm/run-vm.sh -q -t "${MRC_DEBUG_VM_TIMEOUT:-10800}" -o "$out" -- \
	env MRC_KMOD="$ko" ${MRC_TEST_TIME_SCALE:+MRC_TEST_TIME_SCALE=$MRC_TEST_TIME_SCALE} \
	${MRC_TEST_SIZE_DIV:+MRC_TEST_SIZE_DIV=$MRC_TEST_SIZE_DIV} \
	${MRC_TEST_MEM_SLACK_KB:+MRC_TEST_MEM_SLACK_KB=$MRC_TEST_MEM_SLACK_KB} \
	${MRC_SUITE_BUDGET:+MRC_SUITE_BUDGET=$MRC_SUITE_BUDGET} \
	selftests/vm/debug-suite.sh "$@"
rc=$?
secs=$(($(date +%s) - start))

ktap=$out/ktap.txt
passed=$(grep -cE '^ok [0-9]+ ' "$ktap" 2>/dev/null)
skipped=$(grep -cE '^ok [0-9]+ .*# SKIP' "$ktap" 2>/dev/null)
failed=$(grep -cE '^not ok [0-9]+ ' "$ktap" 2>/dev/null)
passed=$((${passed:-0} - ${skipped:-0}))
case $rc in
0) ;;
124) echo "check-debug: the VM hung and was killed" >&2 ;;
125) echo "check-debug: the guest crashed or never booted (see $out/console.log)" >&2 ;;
126) echo "check-debug: the kernel reported a problem (see $out/dmesg.txt)" >&2 ;;
3) echo "check-debug: kmemleak reports leaks (see $out/kmemleak.txt)" >&2 ;;
*) ;;
esac
echo "check-debug: $passed passed, ${failed:-0} failed, ${skipped:-0} skipped in ${secs} s"
[ "$rc" = 0 ] && [ "${failed:-0}" = 0 ]
