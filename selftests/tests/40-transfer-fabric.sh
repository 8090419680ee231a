#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Verified bulk transfers over the reference fabric (4 planes x 2 spines)
# in each forwarding mode: usid, srh, entropy. mrc-perf checks every byte
# at its offset and, for SEQPACKET, every message's size.
#   usid:    256 MiB STREAM, then about 100k SEQPACKET messages of 1..1000 B
#   srh:     256 MiB STREAM, about 20k SEQPACKET messages
#   entropy: 1 GiB STREAM, about 20k SEQPACKET messages
# These are the long form (make check-slow: MRC_TEST_FABRIC_FULL=1, about
# 4 minutes). make check moves a quarter of each (64, 64, 256 MiB; 25k,
# 5k, 5k messages, about a minute): every check below holds at that size
# too, each plane and spine still carrying thousands of packets.
# Spread: MRC picks the plane and the EV of every packet, so each plane
# carries within +-25% of the mean. In usid and srh mode it also picks
# the spine (one path per spine), so each spine link carries within +-25%
# of the mean; in entropy mode the fabric's ECMP hash picks the spine, so
# each spine must only carry some traffic. In usid and srh mode the
# sender looks a path's route up once, not per packet (OutRouteLookups).
# Bursts: the sender puts runs of full packets on one path and sends each
# as one segmentation-offload packet that the fabric forwards whole and
# the receiver cuts (OutBursts grows in every mode; fails when bursts
# never form, e.g. an encapsulation that refuses them).
# A transfer still running after
# 15 minutes fails (mrc-perf --time-limit) instead of hanging the suite.
# timeout: 2400
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"

mrc_module_load
mrc_fabric_build 4 2 || { mrc_fail "fabric"; mrc_done; }
mrc_check "fabric: A reaches B" mrc_fabric_host_ping
for h in "$FAB_A" "$FAB_B"; do
	ip netns exec "$h" "$MRCCTL" policy set default backups 0 >/dev/null
done
res=$(mrc_tmpdir)	# not "out": mrc_check has a local of that name

# run_mode MODE STREAM_BYTES SEQPACKET_BYTES
run_mode() {
	local mode=$1 stream=$2 seq=$3 p spines0 planes0 pkts0 lookups0 pkts lookups bursts0
	for p in $(seq 0 $((FAB_P - 1))); do	# deleting a plane deletes its paths
		ip netns exec "$FAB_A" "$MRCCTL" plane del "$p" >/dev/null 2>&1
		ip netns exec "$FAB_B" "$MRCCTL" plane del "$p" >/dev/null 2>&1
	done
	mrc_check "$mode: configure planes and paths" mrc_fabric_mrc_config "$mode"
	spines0=$(mrc_fabric_spine_rx_bytes)
	planes0=$(mrc_fabric_plane_tx_bytes)
	pkts0=$(mrc_mib "$FAB_A" OutPkts)
	lookups0=$(mrc_mib "$FAB_A" OutRouteLookups)
	bursts0=$(mrc_mib "$FAB_A" OutBursts)
	mrc_check "$mode: $((stream >> 20)) MiB stream A->B verified" \
		mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$res/$mode-stream" \
		-t stream -n "$stream" --time-limit "$(mrc_time 900)"
	mrc_info "$mode stream: $(mrc_json "$res/$mode-stream.server" goodput_mbps) Mbit/s," \
		"longest stall $(mrc_json "$res/$mode-stream.server" longest_stall_ms) ms"
	pkts=$(($(mrc_mib "$FAB_A" OutPkts) - pkts0))
	lookups=$(($(mrc_mib "$FAB_A" OutRouteLookups) - lookups0))
	mrc_info "$mode: $lookups route lookups for $pkts packets sent," \
		"$(($(mrc_mib "$FAB_A" OutBursts) - bursts0)) segmentation-offload bursts"
	mrc_check "$mode: bursts left as segmentation-offload packets (OutBursts)" \
		[ "$(mrc_mib "$FAB_A" OutBursts)" -gt "$bursts0" ]
	# An entropy path's route depends on the flow (ECMP): looked up each time.
	[ "$mode" = entropy ] ||
		mrc_check "$mode: the paths' routes are cached (under 1 lookup per 100 packets)" \
			[ "$((lookups * 100))" -lt "$pkts" ]
	mrc_check "$mode: planes within +-25% of the mean" \
		mrc_fabric_spread 0.75 "$planes0" "$(mrc_fabric_plane_tx_bytes)"
	if [ "$mode" = entropy ]; then
		mrc_check "$mode: every spine carried traffic" \
			mrc_fabric_spread 0.02 "$spines0" "$(mrc_fabric_spine_rx_bytes)"
	else
		mrc_check "$mode: spines within +-25% of the mean" \
			mrc_fabric_spread 0.75 "$spines0" "$(mrc_fabric_spine_rx_bytes)"
	fi
	# Sizes are uniform in 1..1000: SEQ bytes / 500.5 messages expected.
	mrc_check "$mode: about $((seq / 500500))k SEQPACKET messages of 1..1000 bytes verified" \
		mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$res/$mode-seq" \
		-t seqpacket --random-sizes 1000 -n "$seq" --time-limit "$(mrc_time 900)"
	mrc_info "$mode seqpacket: $(mrc_json "$res/$mode-seq.server" goodput_mbps) Mbit/s"
}

# A slow debug kernel moves less (MRC_TEST_SIZE_DIV, lib.sh), but each
# stream at least 8 MiB: a quarter of 256 MiB divided by 32 is 2 MiB,
# about 370 packets, where the 9 route lookups of the paths' first
# packets are over 1 in 100 and bursts of a few packets over 8 spines are
# not within +-25% (make check-debug, 2026-12-02); 8 MiB passed both
# there on 2026-11-29.
div=4
[ "${MRC_TEST_FABRIC_FULL:-0}" = 1 ] && div=1
min=$((8 << 20))
run_mode usid "$(mrc_size $(((256 << 20) / div)) $min)" "$(mrc_size $((51000000 / div)))"
run_mode srh "$(mrc_size $(((256 << 20) / div)) $min)" "$(mrc_size $((10500000 / div)))"
run_mode entropy "$(mrc_size $(((1024 << 20) / div)) $min)" "$(mrc_size $((10500000 / div)))"
mrc_done
