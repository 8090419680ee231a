#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the newest installed Debian kernel version that has an image in
# /boot, modules and build headers (never hard-coded: Debian moves it).
set -euo pipefail
for d in $(ls -1 /lib/modules 2>/dev/null | sort -rV); do
	if [ -r "/boot/vmlinuz-$d" ] && [ -d "/lib/modules/$d/kernel" ]; then
		echo "$d"
		exit 0
	fi
done
echo "kver: no Debian kernel installed (apt-get install linux-image-amd64 linux-headers-amd64)" >&2
exit 1
