#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage two of the test VM, running from the host's root file system
# (read-only over 9p): make the few writable places the tools need, run
# the job from the shared output directory, record its status, power off.
# Never exit: init exiting panics the kernel.
mount -t proc proc /proc
mount -t sysfs sys /sys
mountpoint -q /dev || mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
# devtmpfs lacks the fd links that bash process substitution needs.
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
# The tree this script belongs to (a clone may live anywhere, /tmp or
# /root included): the tmpfs mounts below would hide it when it lies
# under one of their directories, so the host root is kept at
# /dev/.mrc-hostroot first and the tree is bound back from there.
tree=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p /dev/.mrc-hostroot
mount --bind / /dev/.mrc-hostroot
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /var/tmp 2>/dev/null
mount -t tmpfs tmpfs /root 2>/dev/null
case $tree in
/tmp/* | /run/* | /var/tmp/* | /root/*)
	mkdir -p "$tree" && mount --bind "/dev/.mrc-hostroot$tree" "$tree" ||
		echo "guest-init: cannot show $tree (under a tmpfs) in the guest"
	;;
esac
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /tmp/out /run/netns /run/lock
# Another kernel than the host's Debian one (the debug kernel of make
# check-debug) brings its own module directory (modules.builtin, depmod
# files): shown as /lib/modules so modprobe and the module tests work.
moddir=$(sed -n 's/.*mrc_vm_moddir=\([^ ]*\).*/\1/p' /proc/cmdline)
[ -n "$moddir" ] && mount --bind "$moddir" /lib/modules
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /tmp/out
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TMPDIR=/tmp TERM=dumb MRC_IN_VM=1
hostname mrc-vm 2>/dev/null
ip link set lo up
echo 1 > /proc/sys/kernel/sysrq
# kptr_restrict off so reports name functions; warnings go to the console.
echo 0 > /proc/sys/kernel/kptr_restrict

bash /tmp/out/job.sh
rc=$?
dmesg > /tmp/out/dmesg.txt 2>&1
echo "$rc" > /tmp/out/status.tmp && mv /tmp/out/status.tmp /tmp/out/status
sync
umount /tmp/out 2>/dev/null
echo o > /proc/sysrq-trigger
# Wait for the power-off with builtins only: once it has begun, the root
# file system over 9p may fail to exec anything ("sleep: Input/output
# error"), and init must never exit (the kernel would panic). A fresh
# pseudo-terminal master has nothing to read: read waits out its timeout.
while :; do read -r -t 5 _ < /dev/ptmx; done
