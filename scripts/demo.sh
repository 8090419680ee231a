#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: from a fresh machine, install what is missing, build, boot
# Debian's kernel in QEMU and show MRC at work (selftests/demo/guest.sh):
# a training job over MRC and over TCP while a spine link dies, then plot
# its step times around the cut (bench/plot_demo.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
make -s -C kmod W=1 >/dev/null
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc)" --target mrcctl --target mrcize --target mrcize_preload >/dev/null
echo "demo: booting Debian's $(selftests/vm/kver.sh) kernel under QEMU..."
mkdir -p build/demo
rm -rf build/demo/verdict.txt build/demo/fault_unix build/demo/demo.png build/demo/mrc build/demo/tcp
rc=0
selftests/vm/run-vm.sh -t 900 -o build/demo -- selftests/demo/guest.sh |
	grep --line-buffered -v '^\[ *[0-9.]*\] \(sysrq\|reboot\)' || rc=$?
plot=
if [ -s build/demo/fault_unix ] && plot=$(/usr/bin/python3 bench/plot_demo.py build/demo 2>&1); then
	plot=${plot#"$root"/}
else
	echo "demo: no plot (${plot:-the guest recorded no fault time})" >&2
	plot=
fi
printf '\n\033[1m## Verdict\033[0m\n'
echo "$(cat build/demo/verdict.txt 2>/dev/null || echo 'demo: no verdict (see build/demo/console.log)')${plot:+ Plot: $plot}"
exit "$rc"
