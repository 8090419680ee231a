#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The peer host is powered off mid-transfer (QEMU "quit" on guest B's
# monitor: no RESET, no FIN, its NICs vanish; A's links stay up), across
# two kernels (usid, 2 planes, selftests/vm/multi). A's sender must fail
# with the policy's error, ETIMEDOUT (or ECONNRESET, should a RESET have
# got out), within twice the policy's retry budget plus 5 s (fails when a
# dead peer is retried for ever, or the budget is not what the policy
# says), and A must keep no state of it: mrcctl conn empty within 10 s of
# the sender's end (fails when a timed-out connection leaks). The
# transfer is SEQPACKET of 1..1000 bytes, whose message slots run out
# before the send buffer's bytes: the blocked sender must sleep until the
# peer acknowledges, not spin (system CPU under a fifth of the wall time:
# fails when sendmsg waits on a condition that is already true, as it
# did before mrc_sock_wait_room() in kmod/mrc_sock_io.c: 4.3 s of 8.7,
# and 300 s in 300 with a peer that never acknowledged; now 0.2 s of
# 8.3). Must be the last test of a run but for
# 99-peer-kernel-log: B is gone after it (run.sh checks B's console log
# instead).
# timeout: 300
. "$(dirname "$0")/lib_multi.sh"

mrc_module_load
multi_setup usid
budget_ms=$("$MRCCTL" -j policy show default | mrc_policy_budget_ms)
bound=$(mrc_time $((2 * budget_ms / 1000 + 5)))
mrc_info "retry budget of the default policy: $budget_ms ms; bound $bound s"

multi_server off -n 0 -t seqpacket --random-sizes 1000 || mrc_fail "server on B"
before=$(mrc_stat OutPkts)
t_start=$(date +%s%N)
mrc_bg "$MRC_PERF" client -j -c "$MULTI_B_ADDR" -p "$MULTI_PORT" --duration "$(mrc_time 600)" \
	-t seqpacket --random-sizes 1000 > "$res/off.client" 2> "$res/off.client.log"
cli=$MRC_BG_PID
mrc_check "data flows A->B" mrc_wait_for 60 mrc_stat_at_least OutPkts $((before + 500))
touch /tmp/xchg/ctl/poweroff-b
mrc_check "guest B powered off" mrc_wait_for 30 test -e /tmp/xchg/ctl/poweroff-b.done
t_off=$(date +%s%N)
mrc_check "A's sender fails within $bound s" mrc_wait_for "$bound" sh -c "! kill -0 $cli"
mrc_info "A's sender gave up $((($(date +%s%N) - t_off) / 1000000)) ms after B went"
wait "$cli"
mrc_check_eq "A's sender exit status is non-zero" 1 "$(($? != 0))"
mrc_check "the error is ETIMEDOUT or ECONNRESET" \
	grep -Eq 'Connection timed out|Connection reset' "$res/off.client" "$res/off.client.log" ||
	sed 's/^/# client: /' "$res/off.client" "$res/off.client.log"
wall_ms=$((($(date +%s%N) - t_start) / 1000000))
sys_ms=$(python3 -c "import json; print(int(json.load(open('$res/off.client'))['cpu_sys_s'] * 1000))")
mrc_info "A's sender: ${sys_ms} ms of system CPU in ${wall_ms} ms"
mrc_check "A's sender slept while blocked: system CPU under a fifth of its wall time" \
	[ "$((5 * sys_ms))" -lt "$wall_ms" ]
mrc_check "A keeps no connection" mrc_wait_for 10 sh -c "[ \"\$($MRCCTL -j conn)\" = '[]' ]"
mrc_check "counted (ConnTimeout or ConnReset)" \
	[ $(($(mrc_stat ConnTimeout) + $(mrc_stat ConnReset))) -gt 0 ]
# B is gone: nothing to reset there.
node_b() { :; }
mrc_done
