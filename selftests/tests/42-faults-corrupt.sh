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
secs=$(cat "$res/corrupt.secs")
flaps=$(cat "$res/corrupt.flaps")
mon=$res/corrupt.monitor
{ read -r bad_n _ _ bad; read -r back_n _ _ _
  read -r live_n _ _ live; read -r _ _ returns _; } <<< \
	"$(faults_ev_changes "$mon" 0 \
		'e.get("plane") == 2' 'changed(e)' \
		'e.get("plane") == 2' 'returned(e)' \
		'e.get("plane") != 2' 'failed(e)' \
		True 'returned(e)')"
mrc_info "corrupt: plane 2's EVs' changes: $bad; the others' failures: $live; PathFlaps +$flaps;" \
	"A: $(faults_ctl_a stats | awk '/^Retx/ && $2 { printf "%s %s ", $1, $2 }')" \
	"B: $(in_ns "$FAB_B" "$MRCCTL" stats | awk '/^InDrop/ && $2 { printf "%s %s ", $1, $2 }')"

# The stall, from the policy: a corrupted packet is lost; it is resent on
# another path when its RTO expires (clamped to rto_max) or sooner from a
# SACK, and the copy may go to plane 2's other EV and be corrupted once
# more: 2 x rto_max, as for a blackhole. Measured 11-21 ms in eight runs,
# 57 ms beside another VM. Fails if a lost packet is not resent or its
# copy waits again.
stall_ms=$(mrc_time $((2 * $(faults_policy_ms rto_max))))
mrc_check "corrupt: longest stall under 2 x rto_max = $stall_ms ms" faults_stall_below corrupt "$stall_ms"
# Per EV, by plane. Plane 2's EVs lose the packets whose corruption the
# fabric or B drops (netem flips a bit of one packet in 50 it sees, a
# burst being one); fail_to_bad losses in a row take an EV out and its
# answered probes bring it back: at most faults_max_returns returns in
# the transfer's time (its whole seconds plus one), twice that plus one
# changes. Measured 0 changes in seven runs, 2 (one return) in two: a
# path rarely loses 2 in a row. Fails if an EV that keeps failing comes
# back after every probe round.
max_back=$(faults_max_returns $((secs + 1)))
mrc_check "corrupt: plane 2's EVs came back at most $max_back times each ($back_n)" \
	[ "$back_n" -le "$max_back" ]
mrc_check "corrupt: plane 2's EVs changed state at most $((2 * max_back + 1)) times each ($bad_n)" \
	[ "$bad_n" -le $((2 * max_back + 1)) ]
# The other planes' EVs: at most one spurious failure each (a loaded VM).
# Fails if plane 2's losses are blamed on other paths.
mrc_check "corrupt: each EV of planes 0, 1, 3 failed at most $FAULTS_HEALTHY_MAX times ($live_n)" \
	[ "$live_n" -le "$FAULTS_HEALTHY_MAX" ]
# A flap is a failure within 16 probe intervals of a return: no more
# flaps than the monitor saw returns (of any EV). Measured 0 in nine
# runs.
# Fails if PathFlaps counts failures that no return preceded.
mrc_check "corrupt: PathFlaps +$flaps, at most the EVs' returns ($returns)" \
	[ "$flaps" -le "$returns" ]
[ "${_mrc_failed}" = 0 ] || mrc_keep corrupt "$res"/corrupt.*
mrc_done
