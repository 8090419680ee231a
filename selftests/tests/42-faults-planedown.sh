#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A local plane link (A's plane 2) goes down mid-transfer on the reference
# fabric (usid, 4 planes x 2 spines): the transfer is verified byte for
# byte, its longest stall stays under rto_max, the plane's going down is
# counted; per EV, from A's mrcctl monitor, plane 2's two EVs go out and
# are held out by the link (a plane-down event each) for as long as it is
# down, the 6 others fail at most FAULTS_HEALTHY_MAX times each
# (lib_faults.sh), and PathFlaps counts no more flaps than returns. Once the link is back a transfer is verified again. Shared
# set-up: selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
faults_monitor_a monitor-planedown
mon=$MRC_BG_PID
down0=$(mrc_mib "$FAB_A" PlaneDown)
flaps0=$(mrc_mib "$FAB_A" PathFlaps)
# plane_down: the link down, held until A's live connection has shown
# both of plane 2's EVs held out by it (the transfer runs through the
# fault, however fast the kernel: a 4 MiB transfer on the debug kernel
# ended before the link went down, and the monitor saw nothing).
plane2_held() {
	local n
	n=$(faults_ev_changes "$res/monitor-planedown" 0 'e.get("plane") == 2' \
		'e["new_state"] == "assumed-bad" and e.get("reason") == "plane-down"' | awk '{ print $2 }')
	[ "${n:-0}" -ge 2 ]
}
plane_down() {
	# when the fault began, in the monitor's clock and format (a file:
	# mrc_check runs this in a subshell)
	date -u +%Y-%m-%dT%H:%M:%S.%6NZ > "$res/planedown.t0"
	ip -n "$FAB_A" link set pl2 down
	mrc_wait_for 30 plane2_held
}
mrc_check "local plane down: every byte verified up to the close, across a local link down" \
	faults_transfer_through planedown plane_down
mrc_info "planedown: $(($(mrc_json "$res/planedown.server" bytes 2>/dev/null) >> 20)) MiB," \
	"goodput $(mrc_json "$res/planedown.server" goodput_mbps) Mbit/s," \
	"longest stall $(mrc_json "$res/planedown.server" longest_stall_ms) ms"
mrc_check "local plane down counted" mrc_mib_at_least "$FAB_A" PlaneDown $((down0 + 1))
faults_monitor_stop "$mon" monitor-planedown
flaps=$(($(mrc_mib "$FAB_A" PathFlaps) - flaps0))
# Plane 2's events from the fault's start on (the monitor's lines carry
# the kernel's real time, ISO 8601 in UTC, which sorts as text); before
# it, plane 2's EVs were as healthy as the others: a fault-free spurious
# timeout (issue #14) 45 ms before the link went down took one out and
# a probe brought it back, which a count from the transfer's start
# charged to the fault (make check, 2026-12-01).
t0=$(cat "$res/planedown.t0" 2>/dev/null)
awk -v t="${t0:-0}" -v f="$res/monitor-planedown.fault" -v b="$res/monitor-planedown.before" \
	'{ print > ($1 >= t ? f : b) }' "$res/monitor-planedown"
: >> "$res/monitor-planedown.fault"
: >> "$res/monitor-planedown.before"
{ read -r plane_n _ _ plane; read -r _ plane_down _; } <<< \
	"$(faults_ev_changes "$res/monitor-planedown.fault" 0 \
		'e.get("plane") == 2' 'changed(e)' \
		'e.get("plane") == 2' 'e["new_state"] == "assumed-bad" and e.get("reason") == "plane-down"')"
read -r live_n _ _ live <<< "$(faults_ev_changes "$res/monitor-planedown" 0 \
	'e.get("plane") != 2' 'failed(e)')"
read -r pre_n _ _ pre <<< "$(faults_ev_changes "$res/monitor-planedown.before" 0 \
	'e.get("plane") == 2' 'failed(e)')"
mrc_info "planedown (from $t0): plane 2's EVs: $plane; before the fault: $pre;" \
	"the others' failures: $live; PathFlaps +$flaps"

# The stall, from the policy: what plane 2's paths had in flight when the
# link went down is resent on the other planes at once (MRC_LOSS_LINK, a
# round trip); only a packet lost before the report waits for its RTO,
# at most rto_max, and its copy goes on a live plane. Measured 9-23 ms in
# eight runs, 43 ms beside another VM. Fails if the plane's packets wait
# for their RTOs in turn, or are resent into the dead plane.
stall_ms=$(mrc_time "$(faults_policy_ms rto_max)")
mrc_check "planedown: longest stall under rto_max = $stall_ms ms" faults_stall_below planedown "$stall_ms"
# Per EV, by plane: both of plane 2's EVs are taken out, by the first
# packet the device refuses (reason tx-refused) or by the link's report
# (plane-down; both happen), which holds them out by the link either
# way (for a path out already: an assumed-bad -> assumed-bad event with
# reason plane-down, counted here too). They stay out while it is down:
# a path held out by its link is not probed and the floor never takes
# it, so one change each at most. The other planes' EVs: at most one
# spurious failure each (a loaded VM). Measured 1 change each and at
# most 1 other failure in eight runs; beside another VM one other EV
# failed twice (reason timeout). Fails if the link's report is missed or
# takes out the wrong paths, or if the plane's paths come back while it
# is down.
mrc_check "planedown: plane 2's 2 EVs are held out by the link (plane-down) ($plane)" \
	[ "$plane_down" -eq 2 ]
mrc_check "planedown: plane 2's EVs changed state once at most from the link's going down ($plane_n)" \
	[ "$plane_n" -le 1 ]
mrc_check "planedown: each other EV failed at most $FAULTS_HEALTHY_MAX times ($live_n)" \
	[ "$live_n" -le "$FAULTS_HEALTHY_MAX" ]
mrc_check "planedown: plane 2's EVs failed at most $FAULTS_HEALTHY_MAX times each before it (${pre_n:-0})" \
	[ "${pre_n:-0}" -le "$FAULTS_HEALTHY_MAX" ]
# A flap is a failure right after a return: plane 2's EVs do not return,
# so only a healthy EV taken out spuriously can flap, and no more often
# than EVs returned. Measured 0 in eight runs (1 beside another VM, with
# the EV that failed twice). Fails if a path is counted as a flap without
# returning and failing again.
returns=$(grep -c 'assumed-bad -> good' "$res/monitor-planedown")
mrc_check "planedown: PathFlaps +$flaps, at most the $returns returns seen" \
	[ "$flaps" -le "$returns" ]
[ "${_mrc_failed}" = 0 ] || mrc_keep planedown "$res/monitor-planedown" "$res"/planedown.server "$res/planedown.t0"
# The link up first, then its addresses and routes (mrc_fabric_link_up
# replays them before it brings the link up, and IPv6 refuses a route
# through a device that is down: plane 2 would stay unroutable).
ip -n "$FAB_A" link set pl2 up
mrc_fabric_link_up "$FAB_A" pl2
mrc_check "local plane up again: verified transfer" \
	mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$res/planeup" -t stream -n "$(mrc_size 8388608 1048576)"
mrc_done
