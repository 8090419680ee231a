#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the tiny initramfs that boots Debian's kernel into the host's own
# root file system shared read-only over virtio 9p.
#
# Usage: mkinitramfs.sh KVER OUTPUT
#
# Debian builds virtio and 9p as modules, so the initramfs carries them and
# loads them with busybox's insmod (in dependency order) before mounting.
# MRC_VM_MODDIR names the module directory of another kernel (the debug
# kernel of make check-debug, which builds them in): modules it lacks are
# taken to be built in.
set -euo pipefail

kver=$1
out=$2
modroot=${MRC_VM_MODDIR:-/lib/modules/$kver}
moddir=$modroot/kernel
busybox=$(command -v busybox || true)
[ -x /bin/busybox ] && busybox=/bin/busybox
if [ -z "$busybox" ] || ! file -L "$busybox" 2>/dev/null | grep -q static; then
	echo "mkinitramfs: need a static busybox (apt-get install busybox-static)" >&2
	exit 1
fi

modules="drivers/virtio/virtio_ring drivers/virtio/virtio
drivers/virtio/virtio_pci_modern_dev drivers/virtio/virtio_pci_legacy_dev
drivers/virtio/virtio_pci fs/netfs/netfs fs/fscache/fscache net/9p/9pnet
net/9p/9pnet_virtio fs/9p/9p"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,sys,newroot,modules}
touch "$work/modules/order"	# stays empty when every module is built in
cp "$busybox" "$work/bin/busybox"
for m in $modules; do
	f=$moddir/$m.ko
	if [ ! -f "$f" ]; then
		# Built in on some kernels: nothing to load.
		grep -q "kernel/$m.ko" "$modroot/modules.builtin" 2>/dev/null && continue
		[ -n "${MRC_VM_MODDIR:-}" ] && continue
		echo "mkinitramfs: missing module $f" >&2
		exit 1
	fi
	cp "$f" "$work/modules/"
	echo "$(basename "$f")" >> "$work/modules/order"
done

cat > "$work/init" <<'INIT'
#!/bin/busybox sh
# Stage one: load virtio + 9p, mount the host root read-only, switch to it.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules/order); do
	insmod /modules/$m || echo "initramfs: insmod $m failed"
done
# mrc_vm_9p_cache=MODE on the command line (MRC_VM_APPEND) sets the 9p
# cache mode of the root (default: none, every read goes to the host).
cache=$(sed -n 's/.*mrc_vm_9p_cache=\([^ ]*\).*/\1/p' /proc/cmdline)
if ! mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=262144${cache:+,cache=$cache} hostroot /newroot; then
	echo "initramfs: cannot mount the host root over 9p"
	echo o > /proc/sysrq-trigger
	sleep 10
fi
init=$(sed -n 's/.*mrc_vm_init=\([^ ]*\).*/\1/p' /proc/cmdline)
umount /proc /sys
mount --move /dev /newroot/dev 2>/dev/null || umount /dev
exec switch_root /newroot "$init"
INIT
chmod +x "$work/init"
(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) > "$out.tmp"
mv "$out.tmp" "$out"
