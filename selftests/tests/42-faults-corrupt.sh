#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Corruption (netem corrupt 2%) on one plane link of A (pl2) on the
# reference fabric (usid, 4 planes x 2 spines), mid-transfer: the
# transfer is verified byte for byte and its longest stall stays under 2
# x rto_max. Per EV, from A's mrcctl monitor: plane 2's EVs, which lose
# the corrupted packets, come back no more often than the flap
# hysteresis allows; the 6 others fail at most FAULTS_HEALTHY_MAX times
# each (lib_faults.sh); PathFlaps counts no more flaps than the EVs had
# returns. Shared set-up: selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
faults_netem_check corrupt pl2 corruption corrupt 2%
# The stall, from the policy: a corrupted packet is lost; it is resent on
# another path when its RTO expires (clamped to rto_max) or sooner from a
# SACK, and the copy may go to plane 2's other EV and be corrupted once
# more: 2 x rto_max, as for a blackhole. Measured 11-21 ms in eight runs,
# 57 ms beside another VM. Fails if a lost packet is not resent or its
# copy waits again.
stall_ms=$(mrc_time $((2 * $(faults_policy_ms rto_max))))
mrc_check "corrupt: longest stall under 2 x rto_max = $stall_ms ms" faults_stall_below corrupt "$stall_ms"
# Per EV, by plane (faults_netem_plane_checks). Plane 2's EVs lose the
# packets whose corruption the fabric or B drops (netem flips a bit of
# one packet in 50 it sees, a burst being one); fail_to_bad losses in a
# row take an EV out and its answered probes bring it back. Measured 0
# changes in seven runs, 2 (one return) in two: a path rarely loses 2 in
# a row. PathFlaps: 0 in nine runs.
faults_netem_plane_checks corrupt 2
mrc_info "corrupt: plane 2's EVs' changes: $bad; the others' failures: $live; PathFlaps +$flaps;" \
	"A: $(faults_ctl_a stats | awk '/^Retx/ && $2 { printf "%s %s ", $1, $2 }')" \
	"B: $(in_ns "$FAB_B" "$MRCCTL" stats | awk '/^InDrop/ && $2 { printf "%s %s ", $1, $2 }')"
[ "${_mrc_failed}" = 0 ] || mrc_keep corrupt "$res"/corrupt.*
mrc_done
