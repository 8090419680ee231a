#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host side of the multi-guest selftests ("Two kernels",
# Documentation/testing.md): boot two guests of Debian's kernel, each a
# host with its own kernel, linked plane by plane through virtio-net NICs
# (QEMU dgram netdevs over unix sockets) plus a management link; run the
# named tests (selftests/multi/NAME.sh) in guest A, which drives guest B
# through its agent; collect KTAP.
#
#        guest A (tests)                      guest B (agent)
#   fd00:a::1 on lo                       fd00:b::1 on lo
#   pl0  fd01:0::1  <== virtio-net ==>  fd01:0::2  pl0
#   pl1  fd01:1::1  <==   e1000e   ==>  fd01:1::2  pl1
#   mgmt 10.99.0.1  <== virtio-net ==>  10.99.0.2  mgmt (agent :7000)
#
# Usage: selftests/vm/multi/run.sh [-t VM_TIMEOUT] [-q] TEST...
# Run it under the VM lock: flock /tmp/mrc-vm.lock make selftests-multi T=...
# Results: build/selftests-multi/ktap.txt (and a/, b/: each guest's
# console.log, dmesg.txt; b.2/: B after a reboot; xchg/: what the guests
# exchanged), or MRC_SELFTESTS_OUT.
#
# Environment: MRC_MULTI_PLANES (plane links, default 2), MRC_MULTI_MTU
# (plane MTU, default 9000), MRC_MULTI_MEM (MiB per guest, default 1024),
# MRC_MULTI_NIC (QEMU NIC models of the plane links, plane p taking word
# p modulo their number; default "virtio-net-pci e1000e": plane 0 is
# virtio-net, plane 1 an emulated Intel 82574. Over a socket netdev QEMU
# gives virtio-net no transmit offloads (they need a tap's virtio-net
# header), only receive checksums and the guest's GRO; e1000e offers
# transmit checksum offload and TSO, which QEMU's device model carries
# out, so with the default every offload is on on some plane, and MRC
# crosses two different drivers at once. MRC_MULTI_NIC=virtio-net-pci:
# every plane virtio-net.) MRC_MULTI_B_CLOCK_OFFSET: how many seconds
# B's wall clock runs behind A's (default 3600).
#
# Guest B has a monitor socket: a test powers B off (QEMU "quit") by
# creating xchg/ctl/poweroff-b; run.sh does it and answers with
# xchg/ctl/poweroff-b.done. A test reboots B by creating
# xchg/ctl/reboot-b: run.sh cuts B's power the same way, boots a new B
# (a cold boot: a new kernel, its clock from zero, its console in b.2/)
# and answers with xchg/ctl/reboot-b.done; the new B's agent answers
# once it is up. B's kernel log is checked by the last test
# (99-peer-kernel-log), which every run appends; the console of every B
# whose power was cut is scanned here. B's console shows every message
# up to info (loglevel=7): a B powered off leaves no dmesg, and the
# default console level would hide its warnings.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
vm_timeout=1800
quiet=
while getopts "t:q" opt; do
	case $opt in
	t) vm_timeout=$OPTARG ;;
	q) quiet=-q ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "selftests-multi: name the tests (T=...)" >&2; exit 2; }

for f in "$root/kmod/mrc.ko" "$root/build/tools/mrcctl/mrcctl" \
	 "$root/build/tools/mrc-perf/mrc-perf"; do
	[ -e "$f" ] || { echo "selftests-multi: $f is missing: run 'make' first" >&2; exit 2; }
done
tests=()
for t in "$@" 99-peer-kernel-log; do
	[ -f "$t" ] || t=$root/selftests/multi/${t%.sh}.sh
	[ -f "$t" ] || { echo "selftests-multi: no test $t" >&2; exit 2; }
	# One name per test however it was given (make check passes paths):
	# 99-peer-kernel-log, appended to every run, must not run twice.
	t=$(cd "$(dirname "$t")" && pwd)/$(basename "$t")
	case " ${tests[*]} " in *" $t "*) continue ;; esac
	tests+=("$t")
done

out=${MRC_SELFTESTS_OUT:-$root/build/selftests-multi}
rm -rf "$out"
mkdir -p "$out/a" "$out/b" "$out/xchg/ctl"
out=$(cd "$out" && pwd)
sock=$(mktemp -d /tmp/mrc-multi.XXXXXX)	# unix socket paths are short
planes=${MRC_MULTI_PLANES:-2}
read -ra nics <<< "${MRC_MULTI_NIC:-virtio-net-pci e1000e}"
# What the guests see of the environment (they do not inherit it).
genv=(env "MRC_MULTI_PLANES=$planes" "MRC_MULTI_MTU=${MRC_MULTI_MTU:-9000}"
	"MRC_TEST_TIME_SCALE=${MRC_TEST_TIME_SCALE:-1}" "MRC_TEST_SIZE_DIV=${MRC_TEST_SIZE_DIV:-1}"
	"MRC_TEST_OFFLOADS_EACH=${MRC_TEST_OFFLOADS_EACH:-0}")
export MRC_VM_MEM=${MRC_MULTI_MEM:-1024} MRC_VM_SMP=1

# qemu_args ME OTHER: the NICs and shares of guest ME (a or b).
qemu_args() {
	local me=$1 other=$2 l mac model
	for l in ff $(seq -f '%02g' 0 $((planes - 1))); do
		model=virtio-net-pci
		[ "$l" = ff ] || model=${nics[$((10#$l % ${#nics[@]}))]}
		mac=52:54:00:00:0$me:$l
		printf -- '-netdev dgram,id=n%s,local.type=unix,local.path=%s,remote.type=unix,remote.path=%s ' \
			"$l" "$sock/$me-$l" "$sock/$other-$l"
		printf -- '-device %s,netdev=n%s,mac=%s ' "$model" "$l" "$mac"
	done
	printf -- '-fsdev local,id=xchg,path=%s,security_model=none,multidevs=remap ' "$out/xchg"
	printf -- '-device virtio-9p-pci,fsdev=xchg,mount_tag=xchg '
	# B's wall clock runs an hour behind A's (its RTC starts there): the
	# two hosts' clocks are not in step, as between real hosts (each
	# kernel's monotonic clock also starts at its own boot).
	[ "$me" = b ] && printf -- '-rtc base=%s ' \
		"$(date -u -d "-${MRC_MULTI_B_CLOCK_OFFSET:-3600} seconds" +%Y-%m-%dT%H:%M:%S)"
	[ "$me" = b ] &&
		printf -- '-chardev socket,id=mon,path=%s,server=on,wait=off -mon chardev=mon,mode=readline ' \
			"$sock/b-mon"
}

monitor_b() { # COMMAND: one command to guest B's QEMU monitor
	python3 - "$sock/b-mon" "$1" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
s.connect(sys.argv[1])
time.sleep(0.2)
s.sendall(sys.argv[2].encode() + b"\n")
time.sleep(0.5)
PY
}

# Both guests boot the same initramfs: build it once, before either
# would (run-vm.sh), so they do not race writing it.
kver=${MRC_KVER:-$("$root/selftests/vm/kver.sh")}
initrd=${MRC_VM_CACHE:-$root/build/vm}/initramfs-$kver.cpio.gz
if [ ! -s "$initrd" ] || [ "$root/selftests/vm/mkinitramfs.sh" -nt "$initrd" ]; then
	mkdir -p "$(dirname "$initrd")"
	"$root/selftests/vm/mkinitramfs.sh" "$kver" "$initrd" || exit 2
fi

# start_b DIR: boot guest B, its console and results in DIR. A power cut
# leaves B's unix sockets behind: a new QEMU could not bind them.
start_b() {
	rm -f "$sock"/b-*
	mkdir -p "$1"
	MRC_VM_APPEND="loglevel=7" MRC_VM_QEMU_ARGS=$(qemu_args b a) \
		"$root/selftests/vm/run-vm.sh" -q -t "$vm_timeout" -o "$1" -- \
		"${genv[@]}" "$here/guest.sh" b > "$1/run-vm.log" 2>&1 &
	pid_b=$!
}

# cut_b: B's power off (QEMU quit), and its QEMU gone (within 30 s, else
# killed). Its console is scanned at the end.
cut_b() {
	monitor_b quit 2>/dev/null
	for _ in $(seq 1 150); do
		kill -0 "$pid_b" 2>/dev/null || break
		sleep 0.2
	done
	kill -0 "$pid_b" 2>/dev/null && kill "$pid_b"
	wait "$pid_b" 2>/dev/null
	b_cut+=("$b_dir/console.log")
}

t0=$(date +%s%N)
b_cut=()
b_dir=$out/b
start_b "$b_dir"
MRC_VM_QEMU_ARGS=$(qemu_args a b) "$root/selftests/vm/run-vm.sh" $quiet -t "$vm_timeout" \
	-o "$out/a" -- "${genv[@]}" MRC_TEST_KEEP=/tmp/out/keep "$here/guest.sh" a "${tests[@]}" &
pid_a=$!

b_off=0
b_boots=1
while kill -0 "$pid_a" 2>/dev/null; do
	if [ -e "$out/xchg/ctl/poweroff-b" ] && [ "$b_off" = 0 ]; then
		cut_b
		b_off=1
		touch "$out/xchg/ctl/poweroff-b.done"
	fi
	if [ -e "$out/xchg/ctl/reboot-b" ] && [ ! -e "$out/xchg/ctl/reboot-b.done" ] &&
		[ "$b_off" = 0 ]; then
		cut_b
		b_boots=$((b_boots + 1))
		b_dir=$out/b.$b_boots
		start_b "$b_dir"
		touch "$out/xchg/ctl/reboot-b.done"
	fi
	sleep 0.2
done
wait "$pid_a"
rc=$?
# Guest A is done and stopped the agent; B powers off by itself. Should
# it not, its monitor ends it.
touch "$out/xchg/stop"
for _ in $(seq 1 300); do
	kill -0 "$pid_b" 2>/dev/null || break
	sleep 0.2
done
kill -0 "$pid_b" 2>/dev/null && monitor_b quit 2>/dev/null
wait "$pid_b"
rc_b=$?
rm -rf "$sock"
echo "selftests-multi: both guests done after $((($(date +%s%N) - t0) / 1000000)) ms"

cp "$out/a/ktap.txt" "$out/ktap.txt" 2>/dev/null
ktap=$out/ktap.txt
passed=$(grep -cE '^ok [0-9]+ ' "$ktap" 2>/dev/null)
skipped=$(grep -cE '^ok [0-9]+ .*# SKIP' "$ktap" 2>/dev/null)
failed=$(grep -cE '^not ok [0-9]+ ' "$ktap" 2>/dev/null)
passed=$((${passed:-0} - ${skipped:-0}))
ran=$((passed + ${skipped:-0} + ${failed:-0}))
case $rc in
0) ;;
124) echo "selftests-multi: guest A hung and was killed after ${vm_timeout}s" >&2 ;;
125) echo "selftests-multi: guest A crashed or never finished booting (see $out/a/console.log)" >&2 ;;
126) echo "selftests-multi: guest A's kernel logged a warning, BUG or oops (see $out/a/dmesg.txt)" >&2 ;;
*) ;;
esac
# B: every B whose power was cut (no status, no dmesg: its console has
# the kernel's warnings), or the last B's own status.
if [ ${#b_cut[@]} -gt 0 ] && ! "$root/selftests/vm/scan-kernel-log.sh" "${b_cut[@]}"; then
	echo "selftests-multi: guest B's kernel logged a warning, BUG or oops (see ${b_cut[*]})" >&2
	[ "$rc" = 0 ] && rc=1
	failed=$((failed + 1))
fi
if [ "$b_off" = 0 ] && [ "$rc_b" != 0 ]; then
	echo "selftests-multi: guest B ended with status $rc_b (see $b_dir/console.log)" >&2
	[ "$rc" = 0 ] && rc=1
fi
if [ "$ran" -lt "${#tests[@]}" ]; then
	echo "selftests-multi: only $ran of ${#tests[@]} tests reported a result" >&2
	failed=$((failed + ${#tests[@]} - ran))
	[ "$rc" = 0 ] && rc=1
fi
echo "selftests-multi: $passed passed, $failed failed, ${skipped:-0} skipped"
[ "$rc" = 0 ] && [ "$failed" = 0 ]
