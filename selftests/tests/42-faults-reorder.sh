#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Reordering (netem delay 2 ms, 25% of the packets sent at once,
# correlation 50%) on one plane link of A (pl0) on the reference fabric
# (usid, 4 planes x 2 spines), mid-transfer: the transfer is verified
# byte for byte and its longest stall stays under rto_max. Per EV, from
# A's mrcctl monitor: plane 0's EVs, whose late packets time out, come
# back no more often than the flap hysteresis allows; the 6 others fail
# at most FAULTS_HEALTHY_MAX times each (lib_faults.sh); PathFlaps
# counts no more flaps than the EVs had returns. Shared set-up:
# selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
faults_netem_check reorder pl0 reordering delay 2ms reorder 25% 50%
# The stall, from the policy: nothing is lost. A packet held back 2 ms
# may outlive its RTO (rto_min is 2 ms) and be sent again on another
# path, which only delivers it sooner; no packet waits for more than its
# RTO, at most rto_max. Measured 9-19 ms in eight runs, 49 ms beside
# another VM. Fails if a reordered packet is taken for lost and its copy
# waits for another timeout, or the receiver waits for the reordered
# packets' SACK gap.
stall_ms=$(mrc_time "$(faults_policy_ms rto_max)")
mrc_check "reorder: longest stall under rto_max = $stall_ms ms" faults_stall_below reorder "$stall_ms"
# Per EV, by plane (faults_netem_plane_checks). Plane 0's EVs lose no
# packet, but packets held back 2 ms time out (reason timeout: later
# packets were acknowledged on other paths) or leave gaps in the path's
# sequence (reason loss), and their probes are answered: they go out and
# come back, 22 times at most for a transfer of 1 s. Measured 5-8
# returns (10-17 changes) per EV in 1-2 s in eight runs, 10 in 4 s
# beside another VM; PathFlaps 9-12 for 10-13 returns: nearly every
# return of plane 0's EVs ends in a flap.
faults_netem_plane_checks reorder 0
mrc_info "reorder: plane 0's EVs' changes: $bad; returns: $back; the others' failures: $live;" \
	"PathFlaps +$flaps"
[ "${_mrc_failed}" = 0 ] || mrc_keep reorder "$res"/reorder.*
mrc_done
