#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A remote plane link (B's plane 3) goes down and back during a 96 MiB
# transfer on the reference fabric (usid, 4 planes x 2 spines): the
# transfer is verified byte for byte; A hears of both at once through
# PORT_STATUS_UPDATE (sent by B, applied by A), and A's mrcctl monitor
# shows the paths leave with reason peer-port-down and come back with
# peer-port-up. Shared set-up: selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
faults_monitor_a monitor-a
mon=$MRC_BG_PID
sent0=$(mrc_mib "$FAB_B" PortStatusSent)
recv0=$(mrc_mib "$FAB_A" PortStatusRecv)
port_status_or_over() { # N: A applied N updates, or the transfer ended
	mrc_mib_at_least "$FAB_A" PortStatusRecv $((recv0 + $1)) || faults_xfer_over
}
# The connection must live through both updates: 96 MiB, never scaled
# down (the checks below fail if it did not).
remote_flap() {
	ip -n "$FAB_B" link set pl3 down
	mrc_wait_for 30 port_status_or_over 1
	mrc_fabric_link_up "$FAB_B" pl3
	mrc_wait_for 30 port_status_or_over 2
}
mrc_check "remote plane down and up: transfer verified" \
	faults_transfer remote remote_flap 100663296 100663296
faults_report remote
mrc_check "remote plane: B sent port-status updates" \
	mrc_mib_at_least "$FAB_B" PortStatusSent $((sent0 + 2))
mrc_check "remote plane: A applied both (down, then up)" \
	mrc_mib_at_least "$FAB_A" PortStatusRecv $((recv0 + 2))
# monitor_saw WHAT: A's monitor printed WHAT; if not, what it printed.
monitor_saw() {
	mrc_wait_for 10 grep -q "$1" "$res/monitor-a" && return 0
	echo "$(wc -l < "$res/monitor-a") events, the last of plane 3:"
	grep 'plane 3 ' "$res/monitor-a" | tail -4
	cat "$res/monitor-a.err"
	return 1
}
mrc_check "remote plane: A's monitor saw paths leave (peer-port-down)" \
	monitor_saw peer-port-down
mrc_check "remote plane: and come back (peer-port-up)" monitor_saw peer-port-up
kill "$mon" 2>/dev/null
mrc_done
