#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A spine link (plane 2's leaf uplink to spine 0) that flaps every 300 ms
# for the whole transfer on the reference fabric (usid, 4 planes x 2
# spines): the transfer is verified byte for byte. Shared set-up:
# selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
t0a=$(mrc_fabric_ns t0a 2)
flap_loop() {
	while :; do
		ip -n "$t0a" link set up0 down
		sleep 0.3
		mrc_fabric_link_up "$t0a" up0
		sleep 0.3
	done
}
mrc_bg flap_loop
flap=$MRC_BG_PID
mrc_check "flapping spine link: $(faults_mib 25165824) MiB verified" faults_transfer flap :
faults_report flap
kill "$flap"
wait "$flap" 2>/dev/null
mrc_fabric_link_up "$t0a" up0
mrc_done
