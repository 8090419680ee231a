#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every path down (netem loss 100% on every plane link of both hosts) past
# a short retry budget, mid-transfer, on the reference fabric (usid, 4
# planes x 2 spines): the sender gets ETIMEDOUT promptly, no hang; it is
# counted in ConnTimeout and A's mrcctl monitor shows conn-established
# then conn-failed with error 110; once the paths are back a transfer is
# verified byte for byte. Shared set-up: selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
faults_monitor_a monitor-dead
mon=$MRC_BG_PID
mrc_check "a policy with a short retry budget" \
	faults_ctl_a policy add fast rto-min 2ms rto-max 50ms retry-limit 5
port=$((20000 + RANDOM % 10000))
mrc_bg_in_ns "$FAB_B" "$MRC_PERF" server -j -p "$port" > "$res/dead.server" \
	2> "$res/dead.server.log"
srv=$MRC_BG_PID
mrc_wait_for 30 grep -q listening "$res/dead.server.log"
mrc_bg_in_ns "$FAB_A" "$MRC_PERF" client -j -c "$FAB_B_ADDR" -p "$port" \
	--policy fast -n 1073741824 > "$res/dead.client" 2> "$res/dead.client.log"
cli=$MRC_BG_PID
before=$(mrc_mib "$FAB_B" InPkts)
mrc_wait_for 60 mrc_mib_at_least "$FAB_B" InPkts $((before + 500))
faults_netem_all add netem loss 100%
t_down=$SECONDS
mrc_check "all paths down: the sender fails within 60 s" mrc_wait_for 60 faults_xfer_done "$cli"
mrc_info "all paths down: the sender gave up after $((SECONDS - t_down)) s"
wait "$cli"
mrc_check_eq "all paths down: the sender's exit status is non-zero" 1 "$(( $? != 0 ))"
mrc_check "all paths down: the error is ETIMEDOUT" \
	sh -c "cat $res/dead.client $res/dead.client.log; grep -q 'Connection timed out' $res/dead.client $res/dead.client.log"
mrc_check "all paths down: counted (ConnTimeout)" mrc_mib_at_least "$FAB_A" ConnTimeout 1
mrc_check "all paths down: mrcctl monitor saw the connection established" \
	grep -q conn-established "$res/monitor-dead"
mrc_check "all paths down: and failed with ETIMEDOUT (error 110)" \
	mrc_wait_for 10 grep -q "conn-failed.* error 110" "$res/monitor-dead"
kill "$mon" 2>/dev/null
faults_netem_all del
kill "$srv" 2>/dev/null
wait "$srv" 2>/dev/null
mrc_check "after all paths came back: verified transfer" \
	mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$res/revived" -t stream -n "$(mrc_size 8388608 1048576)"
mrc_done
