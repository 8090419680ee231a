#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Verified transfers over the reference fabric (4 planes x 2 spines) in
# each forwarding mode: usid, srh, entropy. Every byte is checked at its
# offset (mrc-perf), SEQPACKET message boundaries too, and the traffic
# must spread over every spine: each spine link carries within +-25% of
# the mean (configured modes: one EV per path, no backups, so every path
# is in the rotation) or some traffic (entropy: the fabric's ECMP hash
# picks).
# timeout: 1200
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"

mrc_module_load
mrc_fabric_build 4 2 || { mrc_fail "fabric"; mrc_done; }
mrc_check "fabric: A reaches B" mrc_fabric_host_ping
for h in "$FAB_A" "$FAB_B"; do
	ip netns exec "$h" "$MRCCTL" policy set default backups 0 >/dev/null
done
out=$(mrc_tmpdir)

spread_ok() { # MIN_FRACTION: every spine got >= MIN of the mean
	python3 - "$1" "$before" "$(mrc_fabric_spine_rx_bytes)" <<'PY'
import sys
lo = float(sys.argv[1])
b = {tuple(l.split()[:2]): int(l.split()[2]) for l in sys.argv[2].splitlines()}
a = {tuple(l.split()[:2]): int(l.split()[2]) for l in sys.argv[3].splitlines()}
d = {k: a[k] - b[k] for k in a}
mean = sum(d.values()) / len(d)
print("# spine bytes:", " ".join(f"{k[0]}/{k[1]}={v}" for k, v in sorted(d.items())))
bad = [k for k, v in d.items() if v < lo * mean or (lo > 0.5 and v > (2 - lo) * mean)]
sys.exit(1 if bad or mean == 0 else 0)
PY
}

for mode in usid srh entropy; do
	for p in $(seq 0 $((FAB_P - 1))); do	# deleting a plane deletes its paths
		ip netns exec "$FAB_A" "$MRCCTL" plane del "$p" >/dev/null 2>&1
		ip netns exec "$FAB_B" "$MRCCTL" plane del "$p" >/dev/null 2>&1
	done
	mrc_check "$mode: configure planes and paths" mrc_fabric_mrc_config "$mode"
	before=$(mrc_fabric_spine_rx_bytes)
	mrc_check "$mode: 16 MiB stream A->B verified" \
		mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$out/$mode-stream" \
		-t stream -n 16777216
	mrc_info "$mode stream: $(mrc_json "$out/$mode-stream.server" goodput_mbps) Mbit/s"
	if [ "$mode" = entropy ]; then
		mrc_check "$mode: every spine carried traffic" spread_ok 0.05
	else
		mrc_check "$mode: spines within +-25% of the mean" spread_ok 0.75
	fi
	mrc_check "$mode: 2000 SEQPACKET messages of random sizes verified" \
		mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$out/$mode-seq" \
		-t seqpacket --random-sizes 4000 -n 4000000
done
mrc_done
