#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# 1% random loss on one plane, both directions (netem on pl0 in each
# guest), across two kernels (usid, 2 planes, selftests/vm/multi): a
# transfer A->B is verified byte for byte (fails when a lost packet is
# never resent, or resent wrongly), A counts retransmissions (fails when
# netem dropped nothing, i.e. the test tested nothing), and B's longest
# stall stays under 2 x rto_max (fails when a loss waits for a backed-off
# timer beyond the policy's bound).
# timeout: 600
. "$(dirname "$0")/lib_multi.sh"

mrc_module_load
multi_setup usid
retx() { # every retransmission of A, whatever its trigger
	awk '$1 ~ /^Retx/ { n += $2 } END { print n }' /proc/net/mrc_stat
}
bound=$(mrc_time $((2 * $(multi_policy_ms rto_max))))
tc qdisc add dev pl0 root netem loss 1% &&
	on_b "tc qdisc add dev pl0 root netem loss 1%" ||
	mrc_fail "netem on pl0 of both hosts"
rtx0=$(retx)
n=$(mrc_size $((32 << 20)))
mrc_check "1% loss on pl0: $((n >> 20)) MiB verified" \
	multi_transfer loss -t stream -n "$n" --time-limit "$(mrc_time 300)"
multi_report loss
mrc_info "A resent $(($(retx) - rtx0)) packets"
mrc_check "1% loss: A resent packets" [ "$(retx)" -gt "$rtx0" ]
mrc_check "1% loss: longest stall under 2 x rto_max = $bound ms" multi_stall_below loss "$bound"
mrc_done
