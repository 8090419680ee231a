#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Offload variants across two kernels (usid, 2 planes,
# selftests/vm/multi): each time a STREAM and a SEQPACKET transfer A->B
# verified byte for byte (fails when MRC relies on an offload being on:
# checksums left for a NIC that does not compute them, or packets
# coalesced by GRO that MRC's receive path does not take apart, or a
# packet larger than the plane's MTU):
#   tx-csum-off   transmit checksum offload off on both hosts' planes
#   gro-off       GRO off at the receiver (B)
#   mtu1500       planes at MTU 1500 on both hosts (the default is 9000)
# A variant the NIC cannot switch (ethtool: [fixed]) is reported as such
# and still run.
# timeout: 900
. "$(dirname "$0")/lib_multi.sh"

mrc_module_load
n=$(mrc_size $((32 << 20)))
seq=$(mrc_size 2002000)
mrc_info "A's plane NIC: $(ethtool -i pl0 | head -1); offloads:" \
	"$(ethtool -k pl0 | grep -E '^(tx-checksumming|generic-receive-offload|tcp-segmentation-offload|rx-checksumming):' | tr '\n' ' ')"

variant() { # NAME SETUP-ON-A SETUP-ON-B
	node_a reset
	node_b reset >/dev/null
	eval "$2" && on_b "$3" || { mrc_fail "$1: set-up"; return; }
	mrc_info "$1: A $(ethtool -k pl0 | grep -E '^(tx-checksumming|generic-receive-offload):' | tr '\n' ' ')mtu $(cat /sys/class/net/pl0/mtu)"
	mrc_info "$1: B $(on_b "ethtool -k pl0 | grep -E '^(tx-checksumming|generic-receive-offload):' | tr '\n' ' '; echo mtu \$(cat /sys/class/net/pl0/mtu)")"
	mrc_check "$1: MRC configured" node_both config usid
	mrc_check "$1: $((n >> 20)) MiB stream verified" \
		multi_transfer "$1-stream" -t stream -n "$n" --time-limit "$(mrc_time 300)"
	multi_report "$1-stream"
	mrc_check "$1: about $((seq / 500500))k SEQPACKET messages verified" \
		multi_transfer "$1-seq" -t seqpacket --random-sizes 1000 -n "$seq" \
		--time-limit "$(mrc_time 300)"
}
mrc_on_exit "node_a reset; node_b reset"
tx_off="for p in \$(seq 0 $((MULTI_P - 1))); do ethtool -K pl\$p tx off; done"
gro_off="for p in \$(seq 0 $((MULTI_P - 1))); do ethtool -K pl\$p gro off; done"
mtu="for p in \$(seq 0 $((MULTI_P - 1))); do ip link set pl\$p mtu 1500; done"
variant tx-csum-off "$tx_off" "$tx_off"
variant gro-off : "$gro_off"
variant mtu1500 "$mtu" "$mtu"
mrc_done
