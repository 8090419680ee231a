#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Offload variants across two kernels (usid, 2 planes,
# selftests/vm/multi): each time a STREAM and a SEQPACKET transfer A->B
# verified byte for byte (fails when MRC relies on an offload being on:
# checksums left for a NIC that does not compute them, or packets
# coalesced by GRO that MRC's receive path does not take apart, or a
# packet larger than the plane's MTU):
#   defaults      every offload the NIC has on, MTU 9000 (jumbo)
#   tx-csum-off   transmit checksum offload off on both hosts' planes
#   gro-off       GRO off at the receiver (B)
#   rx-csum-off   receive checksum offload off at the receiver (B): its
#                 stack verifies every UDP checksum in software
#   mtu1500       planes at MTU 1500 on both hosts (the default is 9000)
# make check runs three: defaults, offloads-off (tx-csum-off, gro-off and
# rx-csum-off at once: fails when MRC relies on any one of them) and
# mtu1500; MRC_TEST_OFFLOADS_EACH=1 (make check-slow) runs the five
# above, each offload off on its own (about 35 s a variant).
# A variant the NIC cannot switch (ethtool: [fixed]) is reported as such
# and still run. In each, A sends bursts as segmentation-offload packets
# (OutBursts grows: fails when bursts never form) that the stack cuts in
# software before virtio-net, which on 6.1 takes no UDP segmentation
# offload: the bytes verified at B went through that software path. A
# kprobe on the stack's UDP segmenter (__udp_gso_segment) counts its runs
# on A: it must have cut as many skbs as A sent bursts, less those a
# full queue dropped before they reached it (fails when the device took
# the bursts whole, or when they never went through that code).
# timeout: 900
. "$(dirname "$0")/lib_multi.sh"

mrc_module_load
# Small: what a variant breaks shows in the first packets (the counts of
# bursts cut in software hold at any size); five variants of 32 MiB took
# 209 s of make check, five of 8 MiB 170 s.
n=$(mrc_size $((8 << 20)))
seq=$(mrc_size 1001000)
offloads() { # what each plane NIC of this host offers
	local p
	for p in $(seq 0 $((MULTI_P - 1))); do
		echo "pl$p $(ethtool -i "pl$p" | sed -n 's/^driver: //p') mtu $(cat "/sys/class/net/pl$p/mtu"):" \
			"$(ethtool -k "pl$p" | grep -E '^(rx-checksumming|tx-checksumming|tcp-segmentation-offload|generic-receive-offload):' |
				sed 's/-offload//; s/-checksumming/-csum/' | tr -d '\n')"
	done
}

tr=/sys/kernel/tracing
gso_probe_on() {
	echo 'p:mrc_udp_gso __udp_gso_segment' >> "$tr/kprobe_events" &&
		echo 1 > "$tr/events/kprobes/mrc_udp_gso/enable" &&
		echo 0 > "$tr/tracing_on"	# counted in kprobe_profile, not traced
}
gso_probe_off() {
	echo 0 > "$tr/events/kprobes/mrc_udp_gso/enable" 2>/dev/null
	echo '-:mrc_udp_gso' >> "$tr/kprobe_events" 2>/dev/null
	echo 1 > "$tr/tracing_on"
}
gso_runs() { awk '$1 == "mrc_udp_gso" { print $2 }' "$tr/kprobe_profile"; }

# variant NAME SETUP-ON-A SETUP-ON-B IN-EFFECT: IN-EFFECT (a command
# string) checks that the set-up took (fails when ethtool or ip silently
# left the setting as it was, and the variant tested the default again).
variant() {
	node_a reset
	node_b reset >/dev/null
	{ eval "$2" && on_b "$3"; } >/dev/null 2>&1 || { mrc_fail "$1: set-up"; return; }
	offloads | sed "s/^/# $1: A /"
	on_b "$(declare -f offloads); MULTI_P=$MULTI_P offloads" > "$res/offloads-b"
	sed "s/^/# $1: B /" "$res/offloads-b"
	mrc_check "$1: in effect" eval "$4"
	mrc_check "$1: MRC configured" node_both config usid
	local bursts0 pkts0 refused0 gso0 bursts cut refused
	bursts0=$(mrc_stat OutBursts)
	pkts0=$(mrc_stat OutPkts)
	refused0=$(mrc_stat OutRefused)
	gso0=$(gso_runs)
	mrc_check "$1: $((n >> 20)) MiB stream verified" \
		multi_transfer "$1-stream" -t stream -n "$n" --time-limit "$(mrc_time 300)"
	multi_report "$1-stream"
	bursts=$(($(mrc_stat OutBursts) - bursts0))
	cut=$(($(gso_runs) - gso0))
	refused=$(($(mrc_stat OutRefused) - refused0))
	mrc_info "$1: A sent $(($(mrc_stat OutPkts) - pkts0)) MRC packets," \
		"$bursts of the skbs segmentation-offload bursts; the stack cut $cut" \
		"skbs in software (__udp_gso_segment); $refused transmissions refused"
	mrc_check "$1: A sent bursts (OutBursts)" [ "$bursts" -gt 0 ]
	mrc_check "$1: every burst cut in software ($cut of $bursts, $refused refused)" \
		[ "$cut" -ge $((bursts - refused)) -a "$cut" -le "$bursts" ]
	mrc_check "$1: about $((seq / 500500))k SEQPACKET messages verified" \
		multi_transfer "$1-seq" -t seqpacket --random-sizes 1000 -n "$seq" \
		--time-limit "$(mrc_time 300)"
}
mrc_on_exit "node_a reset; node_b reset; gso_probe_off"
mrc_check "a kprobe counts the stack's UDP segmenter (__udp_gso_segment)" gso_probe_on
tx_off="for p in \$(seq 0 $((MULTI_P - 1))); do ethtool -K pl\$p tx off; done"
gro_off="for p in \$(seq 0 $((MULTI_P - 1))); do ethtool -K pl\$p gro off; done"
rx_off="for p in \$(seq 0 $((MULTI_P - 1))); do ethtool -K pl\$p rx off; done"
mtu="for p in \$(seq 0 $((MULTI_P - 1))); do ip link set pl\$p mtu 1500; done"
variant defaults : : "offloads | grep -q 'mtu 9000' && ! grep -q 'generic-receive: off' $res/offloads-b"
# virtio-net's receive checksum is [fixed] on: off on B's e1000e plane.
tx_in_effect="! offloads | grep -q 'tx-csum: on'"
gro_in_effect="! grep -q 'generic-receive: on' $res/offloads-b"
rx_in_effect="! grep -Eq 'rx-csum: on(tx|\$)' $res/offloads-b"
if [ "${MRC_TEST_OFFLOADS_EACH:-0}" = 1 ]; then
	variant tx-csum-off "$tx_off" "$tx_off" "$tx_in_effect"
	variant gro-off : "$gro_off" "$gro_in_effect"
	variant rx-csum-off : "$rx_off" "$rx_in_effect"
else
	variant offloads-off "$tx_off" "$tx_off; $gro_off; $rx_off" \
		"$tx_in_effect && $gro_in_effect && $rx_in_effect"
fi
variant mtu1500 "$mtu" "$mtu" "! offloads | grep -q 'mtu 9000' && ! grep -q 'mtu 9000' $res/offloads-b"
mrc_done
