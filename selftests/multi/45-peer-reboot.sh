#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The peer host reboots while A holds an idle and an active connection
# to it, across two kernels (usid, 2 planes, selftests/vm/multi). B's
# power is cut (QEMU quit: a crash or a power cycle, the hard case: no
# RESET, no CM_DREQ reaches A; A's links keep their carrier) and a new
# B boots cold (run.sh: a new kernel, its monotonic clock from zero, a
# fresh mrc.ko that knows none of the old connections), then B's agent
# sets MRC up again. Then:
#  - B really rebooted: its boot id changed (fails when the harness did
#    not boot a new kernel);
#  - A's active sender (SEQPACKET, sending all along) ends with
#    ETIMEDOUT, or ECONNRESET should B come back within its budget,
#    within twice the default policy's retry budget plus 5 s of B's
#    power cut (the bound of 50-peer-poweroff); fails when a sender
#    whose peer vanished is retried for ever;
#  - A's idle connection, silent through the reboot, sends once B is
#    back: B answers with a NO_CONN RESET and the send fails with
#    ECONNRESET before the retry budget is spent; fails when the
#    rebooted peer does not answer for a connection it does not know,
#    or A ignores the RESET (then it ends with ETIMEDOUT, after the
#    budget);
#  - A keeps no connection (fails when a dead one leaks), and a new
#    connection to the rebooted B carries 16 MiB and ~1k SEQPACKET
#    messages, verified byte for byte.
# Named 45, not 60: 50-peer-poweroff powers B off and must come last.
# timeout: 300
. "$(dirname "$0")/lib_multi.sh"

mrc_module_load
multi_setup usid
budget_ms=$("$MRCCTL" -j policy show default | mrc_policy_budget_ms)
bound=$(mrc_time $((2 * budget_ms / 1000 + 5)))
idle_bound_ms=$budget_ms
mrc_info "retry budget of the default policy: $budget_ms ms; bounds: sender $bound s, idle $idle_bound_ms ms"
proto=$(cat /sys/module/mrc/parameters/ipproto)

# The idle connection: connects, sends nothing until $res/idle.go, then a
# byte every 10 ms until a send fails; prints the errno's name and the ms
# it took ("none" if nothing failed within its limit).
cat > "$res/idle.py" <<'EOF'
import errno, os, socket, sys, time
proto, addr, port, res, limit = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, proto)
s.connect((addr, port))
open(os.path.join(res, "idle.connected"), "w").close()
while not os.path.exists(os.path.join(res, "idle.go")):
    time.sleep(0.01)
t0 = time.monotonic()
err = "none"
while time.monotonic() - t0 < limit:
    try:
        s.send(b"\0")
    except OSError as e:
        err = errno.errorcode.get(e.errno, str(e.errno))
        break
    time.sleep(0.01)
print(err, int((time.monotonic() - t0) * 1000))
EOF

multi_server idle -n 0 || mrc_fail "idle server on B"
mrc_bg python3 "$res/idle.py" "$proto" "$MULTI_B_ADDR" "$MULTI_PORT" "$res" "$(mrc_time 30)" \
	> "$res/idle.out" 2> "$res/idle.err"
idle=$MRC_BG_PID
mrc_check "idle connection established" mrc_wait_for 60 test -e "$res/idle.connected" ||
	sed 's/^/# idle: /' "$res/idle.err"
multi_server active -n 0 -t seqpacket --random-sizes 1000 || mrc_fail "active server on B"
before=$(mrc_stat OutPkts)
rm -f "$res/active.end"
mrc_bg sh -c "\"\$0\" \"\$@\" > $res/active.client 2> $res/active.client.log; rc=\$?;
	date +%s%N > $res/active.end; exit \$rc" "$MRC_PERF" client -j -c "$MULTI_B_ADDR" \
	-p "$MULTI_PORT" --duration "$(mrc_time 600)" -t seqpacket --random-sizes 1000
cli=$MRC_BG_PID
mrc_check "data flows A->B" mrc_wait_for 60 mrc_stat_at_least OutPkts $((before + 500))

boot_id() { on_b cat /proc/sys/kernel/random/boot_id; }
id0=$(boot_id)
rm -f /tmp/xchg/ctl/reboot-b.done
touch /tmp/xchg/ctl/reboot-b
t_down=$(date +%s%N)
mrc_check "B's power cut, a new B booting" mrc_wait_for 60 test -e /tmp/xchg/ctl/reboot-b.done
left=$((bound - ($(date +%s%N) - t_down) / 1000000000))
mrc_wait_for "$((left > 0 ? left : 1))" test -s "$res/active.end"
end_ms=$((($(cat "$res/active.end" 2>/dev/null || date +%s%N) - t_down) / 1000000))
mrc_info "A's active sender ended $end_ms ms after B's power cut"
mrc_check "A's active sender fails within $bound s of B's power cut" \
	[ "$end_ms" -le $((bound * 1000)) ]
wait "$cli"
mrc_check_eq "A's active sender exit status is non-zero" 1 "$(($? != 0))"
mrc_check "its error is ETIMEDOUT or ECONNRESET" \
	grep -Eq 'Connection timed out|Connection reset' "$res/active.client" "$res/active.client.log" ||
	sed 's/^/# active: /' "$res/active.client" "$res/active.client.log"

# The new B: up once its agent answers (its boot takes 8-18 s, the
# agent 1-8 s more: testing.md), then MRC as before.
mrc_check "the new B's agent answers" \
	python3 "$MULTI_AGENT" wait 10.99.0.2 7000 "$(mrc_time 180)"
mrc_info "B back $((($(date +%s%N) - t_down) / 1000000)) ms after its power cut"
id1=$(boot_id)
mrc_info "B's boot id: $id0 before, $id1 after"
mrc_check "B booted a new kernel (its boot id changed)" test -n "$id0" -a -n "$id1" -a "$id1" != "$id0"
mrc_check "B's MRC configured again" node_b config usid

touch "$res/idle.go"
wait "$idle"
read -r idle_err idle_ms < "$res/idle.out"
mrc_info "A's idle connection, sending after B's reboot: $idle_err after $idle_ms ms"
mrc_check_eq "the idle connection ends with ECONNRESET (B's NO_CONN RESET)" ECONNRESET "$idle_err"
mrc_check "... within $idle_bound_ms ms" [ "${idle_ms:-999999}" -le "$idle_bound_ms" ]
mrc_check "A keeps no connection" mrc_wait_for 10 sh -c "[ \"\$($MRCCTL -j conn)\" = '[]' ]"

mrc_check "a new connection to the rebooted B: 16 MiB stream verified" \
	multi_transfer reboot-stream -t stream -n $((16 << 20)) --time-limit "$(mrc_time 120)"
mrc_check "... and ~1k SEQPACKET messages verified" \
	multi_transfer reboot-seq -t seqpacket --random-sizes 1000 -n 500500 --time-limit "$(mrc_time 120)"
mrc_done
