#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Churn on the reference fabric (usid, 2 planes x 2 spines): for 30 s, 8
# connections at a time open, send 32 KiB, close and are replaced
# (selftests/progs/stress.cpp), next to one long verified stream, while
# the test takes plane 0's link down and up, deletes and re-adds a path,
# changes the policy the connections use, and tries to unload the module.
# Every connection must complete with its bytes verified, every unload
# attempt must fail cleanly ("in use") while sockets exist, and the
# unload must succeed once they are closed. Prints how many connections
# were churned.
# The hosts use a failure policy fit for the emulated VM (as in
# 73-many-conns).
# timeout: 400
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

STRESS=$MRC_BUILD/progs/mrc_stress
SECS=30	# 45 until 2026-12-01: 5 rounds of faults in 45 s on a loaded machine
mrc_module_load
mrc_fabric_build 2 2 || { mrc_fail "fabric"; mrc_done; }
for h in "$FAB_A" "$FAB_B"; do
	in_ns "$h" "$MRCCTL" policy set default rto-min 20ms rto-max 1s retry-limit 30 \
		probe-interval 200ms fail-to-bad 4 >/dev/null
done
mrc_check "configure usid paths (2 planes x 2 spines)" mrc_fabric_mrc_config usid
res=$(mrc_tmpdir)
actl() { in_ns "$FAB_A" "$MRCCTL" "$@"; }
jnum() { # FILE KEY: a number of the one-line JSON the program writes
	grep -o "\"$2\": [0-9.]*" "$1" 2>/dev/null | head -1 | awk '{ print $2 }'
}
conns() { mrcctl_count_rows in_ns "$1" "$MRCCTL" conn; }

mrc_bg_in_ns "$FAB_B" "$STRESS" server -p 7000 --report "$res/server.json" \
	>"$res/server.out" 2>"$res/server.err"
srv=$MRC_BG_PID
mrc_wait_for 30 grep -q listening "$res/server.err"
mrc_bg_in_ns "$FAB_A" "$STRESS" client -c "$FAB_B_ADDR" -p 7000 --until "$res/stop" \
	--rate 20 --deadline "$(mrc_time 300)" >"$res/bulk.out" 2>"$res/bulk.err"
bulk=$MRC_BG_PID
mrc_bg_in_ns "$FAB_A" "$STRESS" client -c "$FAB_B_ADDR" -p 7000 --conns 8 --bytes 32768 \
	--seconds $SECS --deadline "$(mrc_time 300)" --report "$res/churn.json" \
	>"$res/churn.out" 2>"$res/churn.err"
churn=$MRC_BG_PID

plane_oper() { # STATE: plane 0's oper state on A
	mrcctl_plane_is "$FAB_A" 0 oper "$1"
}
usid3=$(mrc_fabric_usid a 1 1)
rounds=0
rmmods=0
rmmod_ok=0
flap_ok=0
nl_ok=0
while kill -0 "$churn" 2>/dev/null; do
	rounds=$((rounds + 1))
	# A plane goes down and comes back.
	ip -n "$FAB_A" link set pl0 down
	mrc_wait_for 20 plane_oper down && flap_ok=$((flap_ok + 1))
	# Netlink changes under traffic.
	actl path del 3 && actl path add 3 dst "$FAB_B_ADDR/128" plane 1 mode usid usid "$usid3" &&
		actl policy set default rto-min $((20 + rounds % 2 * 10))ms &&
		nl_ok=$((nl_ok + 1))
	ip -n "$FAB_A" link set pl0 up
	mrc_wait_for 20 plane_oper up
	# Unloading must be refused while sockets exist.
	rmmods=$((rmmods + 1))
	if msg=$(rmmod mrc 2>&1); then
		rmmod_ok=$((rmmod_ok + 1))
		break
	fi
	case $msg in
	*"in use"*) ;;
	*) mrc_info "rmmod said: $msg"; rmmod_ok=$((rmmod_ok + 1)) ;;
	esac
	sleep 0.5
done
mrc_info "$rounds rounds: plane flaps, path del/add, policy set, rmmod"
mrc_check_eq "every plane flap seen by MRC" "$rounds" "$flap_ok"
mrc_check_eq "every netlink change under traffic succeeded" "$rounds" "$nl_ok"
mrc_check "at least two rounds of faults during the churn" [ "$rounds" -ge 2 ]
mrc_check_eq "every unload attempt refused, module in use ($rmmods attempts)" 0 "$rmmod_ok"
mrc_check "module still loaded" mrc_module_loaded

wait "$churn"
mrc_check_eq "churn: every connection completed" 0 "$?"
opened=$(jnum "$res/churn.json" opened)
completed=$(jnum "$res/churn.json" completed)
mrc_info "churn: $(cat "$res/churn.out")"
mrc_info "connections churned: ${completed} of ${opened} in ${SECS} s"
mrc_check "churn: at least 20 connections churned" [ "${completed:-0}" -ge 20 ]
mrc_check_eq "churn: completed = opened" "$opened" "$completed"
touch "$res/stop"
wait "$bulk"
mrc_check_eq "the long stream completed" 0 "$?"
mrc_info "long stream: $(cat "$res/bulk.out")"
mrc_check "server: every connection verified" \
	mrc_wait_for 60 eval '[ "$(jnum "$res/server.json" completed)" = $((completed + 1)) ]'
mrc_check_eq "server: nothing failed" 0 "$(jnum "$res/server.json" failed)"
kill "$srv"
wait "$srv"
mrc_check "every connection gone" \
	mrc_wait_for 60 eval '[ "$(conns "$FAB_A")" = 0 ] && [ "$(conns "$FAB_B")" = 0 ]'
mrc_check "module unloads once the sockets are closed" mrc_wait_for 30 rmmod mrc
mrc_check "module loads again" mrc_module_load
mrc_done
