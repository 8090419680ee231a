#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Duplication (netem duplicate 10%) on one plane link of A (pl1) on the
# reference fabric (usid, 4 planes x 2 spines), mid-transfer: the
# transfer is verified byte for byte and its longest stall stays under
# rto_max. Per EV, from A's mrcctl monitor: a duplicate is no failure, so
# plane 1's EVs, like the 6 others, fail at most FAULTS_HEALTHY_MAX times
# each (lib_faults.sh), and PathFlaps counts no more flaps than returns. Shared set-up: selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
faults_netem_check dup pl1 duplication duplicate 10%
flaps=$(cat "$res/dup.flaps")
mon=$res/dup.monitor
{ read -r dup_n _ _ dup; read -r live_n _ _ live; } <<< "$(faults_ev_changes "$mon" 0 \
	'e.get("plane") == 1' 'failed(e)' 'e.get("plane") != 1' 'failed(e)')"
mrc_info "duplicate: plane 1's EVs' failures: $dup; the others': $live; PathFlaps +$flaps;" \
	"B: $(in_ns "$FAB_B" "$MRCCTL" stats | awk '/^InDrop/ && $2 { printf "%s %s ", $1, $2 }')"

# The stall, from the policy: nothing is lost, so no packet waits for
# more than its RTO, at most rto_max; a duplicate is dropped by the
# receiver (InDropDup: 53-98 a run) and its SACK changes nothing.
# Measured 11-16 ms in eight runs, 58 ms beside another VM. Fails if a
# duplicate confuses the receiver's or the sender's accounting into
# waiting.
stall_ms=$(mrc_time "$(faults_policy_ms rto_max)")
mrc_check "duplicate: longest stall under rto_max = $stall_ms ms" faults_stall_below dup "$stall_ms"
# Per EV, by plane: a duplicated packet or probe proves nothing against
# a path, so plane 1's EVs fail no more than the others: at most one
# spurious failure each (a loaded VM). Measured at most 1 for either in
# nine runs. Fails if duplicates are taken for losses (the SACK of a
# copy, a per-path sequence number seen twice).
mrc_check "duplicate: each EV of plane 1 failed at most $FAULTS_HEALTHY_MAX times ($dup_n)" \
	[ "$dup_n" -le "$FAULTS_HEALTHY_MAX" ]
mrc_check "duplicate: each EV of planes 0, 2, 3 failed at most $FAULTS_HEALTHY_MAX times ($live_n)" \
	[ "$live_n" -le "$FAULTS_HEALTHY_MAX" ]
# A flap is a failure right after a return: only an EV taken out
# spuriously can flap, and no more often than EVs returned. Measured 0
# in nine runs. Fails if PathFlaps counts anything else.
returns=$(grep -c 'assumed-bad -> good' "$mon")
mrc_check "duplicate: PathFlaps +$flaps, at most the $returns returns seen" \
	[ "$flaps" -le "$returns" ]
[ "${_mrc_failed}" = 0 ] || mrc_keep dup "$res"/dup.*
mrc_done
