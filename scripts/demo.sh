#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: from a fresh machine, install what is missing, build, boot
# Debian's kernel in QEMU and show MRC at work (selftests/demo/guest.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
make -s -C kmod W=1 >/dev/null
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc)" --target mrcctl >/dev/null
echo "demo: booting Debian's $(selftests/vm/kver.sh) kernel under QEMU..."
mkdir -p build/demo
selftests/vm/run-vm.sh -t 600 -o build/demo -- selftests/demo/guest.sh |
	grep -v '^\[ *[0-9.]*\] \(sysrq\|reboot\)'
