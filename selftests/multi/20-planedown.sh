#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A plane link goes down mid-transfer and comes back, across two kernels
# (usid, 2 planes, selftests/vm/multi), while A sends to B:
#   local:  A's pl1 down: A's kernel sees its carrier go (PlaneDown) and
#           moves everything to pl0;
#   remote: B's pl1 down: A's NIC keeps its carrier (the virtio-net link
#           is a socket: B's side going down is silent for A), so A must
#           find the dead path itself, from missing acknowledgements
#           (PathToBad: fails when A keeps spraying onto a dead plane,
#           only retransmitting its losses).
# Each time: the transfer goes on over pl0 while the link is down (A
# sends 500 more packets on pl0: fails when the connection stalls for
# good), comes back to pl1 once the link is up (500 packets on A's pl1:
# fails when a plane that came back is never used again), B verifies
# every byte, and B's longest delivery stall stays under 2 x rto_max of
# the policy (fails when the failover waits for a backed-off timer
# beyond the policy's bound, or for the connection's retry budget).
# timeout: 600
. "$(dirname "$0")/lib_multi.sh"

mrc_module_load
multi_setup usid
bound=$(mrc_time $((2 * $(multi_policy_ms rto_max))))

# plane_cycle WHERE: pl1 down on A (local) or B (remote), traffic on pl0,
# pl1 up again, traffic on pl1.
plane_cycle() {
	local tx
	if [ "$1" = local ]; then
		ip link set pl1 down || return 1
		mrc_wait_for 10 mrc_stat_at_least PlaneDown $((down0 + 1)) ||
			{ echo "A did not count its plane down"; return 1; }
	else
		on_b "ip link set pl1 down" || return 1
	fi
	tx=$(dev_tx_packets pl0)
	[ "$1" = remote ] && { mrc_wait_for 30 mrc_stat_at_least PathToBad $((bad0 + 1)) ||
		{ echo "A never found its pl1 path dead"; return 1; }; }
	mrc_wait_for 30 dev_tx_at_least pl0 $((tx + 500)) ||
		{ echo "no traffic on pl0 while pl1 was down"; return 1; }
	if [ "$1" = local ]; then
		node_a up 1
	else
		node_b up 1
	fi
	tx=$(dev_tx_packets pl1)
	mrc_wait_for 30 dev_tx_at_least pl1 $((tx + 500)) ||
		{ echo "no traffic on pl1 after it came back"; return 1; }
}

for where in local remote; do
	down0=$(mrc_stat PlaneDown)
	bad0=$(mrc_stat PathToBad)
	nopath0=$(mrc_stat OutDropNoPath)
	mrc_check "$where plane down and up: every byte verified" \
		multi_through "$where" "plane_cycle $where"
	multi_report "$where"
	mrc_info "$where: $(($(mrc_stat OutDropNoPath) - nopath0)) packets found no route (OutDropNoPath)"
	mrc_check "$where plane down: longest stall under 2 x rto_max = $bound ms" \
		multi_stall_below "$where" "$bound"
done
mrc_done
