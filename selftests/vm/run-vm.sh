#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot Debian's kernel under QEMU (TCG) with the host root file system
# shared read-only, run one command in the guest, power off.
#
# Usage: run-vm.sh [-t SECONDS] [-o OUTDIR] [-q] -- COMMAND [ARGS...]
#
#   -t  hard limit for the whole VM (default 900 s); the VM is killed after
#   -o  directory shared read-write with the guest (mounted at /tmp/out);
#       receives console.log, dmesg.txt and status (the command's exit code)
#   -q  do not echo the console to stdout (it is still logged)
#
# Exit status: the command's exit code; 124 if the VM timed out; 125 if the
# guest never reported a status (crash, panic, failed boot); 126 if the
# kernel log shows a warning, BUG, oops, panic or sanitizer report.
#
# Environment: MRC_KVER (kernel version, default: newest Debian *-amd64
# under /lib/modules with a matching /boot/vmlinuz), MRC_VM_MEM (MiB,
# default 2048), MRC_VM_SMP (default 2), MRC_VM_KERNEL / MRC_VM_APPEND to
# boot another kernel image (the debug kernel) with extra arguments,
# MRC_VM_QEMU_ARGS: more QEMU options, split at spaces (bench/profile.sh
# loads a TCG plugin with it), MRC_VM_9P_CACHE: the 9p cache mode of the
# shared root (default loose; none reads every file through).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
vm_timeout=900
outdir=
quiet=0
while getopts "t:o:q" opt; do
	case $opt in
	t) vm_timeout=$OPTARG ;;
	o) outdir=$OPTARG ;;
	q) quiet=1 ;;
	*) sed -n '5,12p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "run-vm: no command given" >&2; exit 2; }

kver=${MRC_KVER:-$("$here/kver.sh")}
kernel=${MRC_VM_KERNEL:-/boot/vmlinuz-$kver}
[ -r "$kernel" ] || { echo "run-vm: no kernel image $kernel" >&2; exit 2; }
command -v qemu-system-x86_64 >/dev/null ||
	{ echo "run-vm: qemu-system-x86_64 missing (scripts/install-deps.sh)" >&2; exit 2; }

cache=${MRC_VM_CACHE:-$here/../../build/vm}
mkdir -p "$cache"
initrd=$cache/initramfs-$kver.cpio.gz
if [ ! -s "$initrd" ] || [ "$here/mkinitramfs.sh" -nt "$initrd" ]; then
	"$here/mkinitramfs.sh" "$kver" "$initrd"
fi

if [ -z "$outdir" ]; then
	outdir=$(mktemp -d "$cache/out.XXXXXX")
fi
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
rm -f "$outdir/status" "$outdir/dmesg.txt" "$outdir/console.log"

# The guest runs the command from a job file in the shared directory, so
# quoting survives the trip through the kernel command line.
{
	printf 'cd %q\n' "$PWD"
	printf '%q ' "$@"
	printf '\n'
} > "$outdir/job.sh"

append="console=ttyS0 loglevel=4 panic=-1 oops=panic quiet"
append="$append rdinit=/init mrc_vm_init=$here/guest-init.sh"
# The host root is read-only and nothing changes it while the guest runs:
# the guest may cache it (9p cache=loose), which makes every program start
# several times cheaper (importing torch: 26 s instead of 64). "none"
# reads through, as before.
append="$append mrc_vm_9p_cache=${MRC_VM_9P_CACHE:-loose} ${MRC_VM_APPEND:-}"

log=$outdir/console.log
read -ra qemu_extra <<< "${MRC_VM_QEMU_ARGS:-}"
set +e
timeout --kill-after=10 "$vm_timeout" qemu-system-x86_64 \
	-accel tcg -cpu max -m "${MRC_VM_MEM:-2048}" -smp "${MRC_VM_SMP:-2}" \
	-kernel "$kernel" -initrd "$initrd" -append "$append" \
	-fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
	-fsdev local,id=out,path="$outdir",security_model=none,multidevs=remap \
	-device virtio-9p-pci,fsdev=out,mount_tag=out \
	-nic none -display none -no-reboot -monitor none -serial stdio \
	"${qemu_extra[@]}" \
	< /dev/null 2>&1 | sed -u 's/\r//g; s/\x1b\[[0-9;?]*[a-zA-Z]//g' |
	if [ "$quiet" = 1 ]; then cat > "$log"; else tee "$log"; fi
qemu_rc=${PIPESTATUS[0]}
set -e

if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
	echo "run-vm: VM killed after ${vm_timeout}s (guest hung); log: $log" >&2
	exit 124
fi

# Scan what the kernel said: dmesg as the guest saw it at the end (the
# console also carries the job's own output, which may say anything), or
# the console when the guest died before it could save dmesg.
scan=$outdir/dmesg.txt
[ -s "$scan" ] || scan=$log
if "$here/scan-kernel-log.sh" "$scan"; then
	kernel_ok=1
else
	kernel_ok=0
fi
if [ ! -s "$outdir/status" ]; then
	echo "run-vm: guest reported no status (boot failure, crash or panic); log: $log" >&2
	exit 125
fi
[ "$kernel_ok" = 1 ] || exit 126
exit "$(cat "$outdir/status")"
