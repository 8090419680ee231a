#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A local plane link (A's plane 2) goes down mid-transfer on the reference
# fabric (usid, 4 planes x 2 spines): the transfer is verified byte for
# byte, the plane's going down is counted, and once the link is back a
# transfer is verified again. Shared set-up: selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
down0=$(mrc_mib "$FAB_A" PlaneDown)
mrc_check "local plane down: $(faults_mib 25165824) MiB verified across a local link down" \
	faults_transfer planedown "ip -n $FAB_A link set pl2 down"
faults_report planedown
mrc_check "local plane down counted" mrc_mib_at_least "$FAB_A" PlaneDown $((down0 + 1))
mrc_fabric_link_up "$FAB_A" pl2
mrc_check "local plane up again: verified transfer" \
	mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$res/planeup" -t stream -n "$(mrc_size 8388608 1048576)"
mrc_done
