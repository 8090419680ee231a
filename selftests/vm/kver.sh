#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the newest installed Debian kernel version that has an image in
# /boot, its modules and its build headers (never hard-coded: Debian moves
# it with every point release).
set -euo pipefail
for d in $(ls -1 /lib/modules 2>/dev/null | sort -rV); do
	if [ -r "/boot/vmlinuz-$d" ] && [ -d "/lib/modules/$d/kernel" ] &&
	   [ -e "/lib/modules/$d/build/Makefile" ]; then
		echo "$d"
		exit 0
	fi
done
echo "kver: no Debian kernel with headers installed (run scripts/install-deps.sh)" >&2
exit 1
