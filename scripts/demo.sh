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
rm -rf build/demo/verdict.txt build/demo/fault_unix build/demo/demo.png build/demo/mrc build/demo/tcp \
	build/demo/mrc-demo.pcapng
rc=0
selftests/vm/run-vm.sh -t 900 -o build/demo -- selftests/demo/guest.sh |
	grep --line-buffered -v '^\[ *[0-9.]*\] \(sysrq\|reboot\)' || rc=$?
plot=
if [ -s build/demo/fault_unix ] && plot=$(/usr/bin/python3 bench/plot_demo.py build/demo 2>&1); then
	plot=$(realpath "$plot")
else
	echo "demo: no plot (${plot:-the guest recorded no fault time})" >&2
	plot=
fi
# One MRC data packet of host A's capture, decoded by the dissector
# (tools/wireshark/mrc.lua): a whole one (the capture keeps 256 bytes of
# each) if there is one, the MRC layers in full, the others one line each.
pcap=$root/build/demo/mrc-demo.pcapng
lua=$root/tools/wireshark/mrc.lua
if [ -s "$pcap" ] && command -v tshark >/dev/null; then
	printf '\n\033[1m## One MRC data packet of the capture on host A'"'"'s plane 0\033[0m\n'
	ts=(tshark -n -r "$pcap" -X lua_script:"$lua" -o udp.try_heuristic_first:TRUE)
	data='mrc.bth.opcode >= 0xc6 && mrc.bth.opcode <= 0xcb'
	frame=
	for filter in "$data && frame.len == frame.cap_len" "$data"; do
		frame=$("${ts[@]}" -Y "$filter" -T fields -e frame.number 2>/dev/null | head -1)
		[ -n "$frame" ] && break
	done
	if [ -n "$frame" ]; then
		echo "\$ tshark -r $pcap -X lua_script:$lua -Y 'frame.number == $frame' -O mrc -V"
		"${ts[@]}" -Y "frame.number == $frame" -O mrc -V 2>&1 |
			sed -n '/^User Datagram Protocol/,$p' | cut -c1-110
	else
		echo "demo: no MRC data packet in the capture"
	fi
fi
printf '\n\033[1m## Verdict\033[0m\n'
echo "$(cat build/demo/verdict.txt 2>/dev/null || echo "demo: no verdict (see $root/build/demo/console.log)")${plot:+ Plot: $plot}"
[ -s "$pcap" ] && echo "Capture of host A's plane 0: $pcap (wireshark -X lua_script:$lua $pcap, or make wireshark-plugin once)"
exit "$rc"
