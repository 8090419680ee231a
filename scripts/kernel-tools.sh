#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the kernel's own checkers (checkpatch.pl, kernel-doc) from
# Debian's linux-source tarball into build/kernel-tools, once; print the
# directory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/build/kernel-tools
if [ ! -x "$dest/scripts/checkpatch.pl" ]; then
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -1)
	[ -n "$tarball" ] || { echo "kernel-tools: install linux-source-6.1" >&2; exit 1; }
	top=$(basename "$tarball" .tar.xz)
	mkdir -p "$dest"
	tar -xf "$tarball" -C "$dest" --strip-components=1 \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch" "$top/scripts/kernel-doc"
fi
echo "$dest"
