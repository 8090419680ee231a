#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The peer's MRC restarts while A holds an idle and an active connection
# to it, across two kernels (usid, 2 planes, selftests/vm/multi). What the
# harness can do in bounded time is not a reboot of guest B (its job ends
# with its kernel) but what a reboot does to MRC: B's plane links go
# down first (a dying host sends nothing: no RESET, no CM_DREQ reaches
# A; A's links keep their carrier), its programs are killed, mrc.ko is
# unloaded once its orphaned sockets are gone, loaded again, configured,
# and the links come back up. B's new module knows none of the old
# connections. Then:
#  - A's active sender (SEQPACKET, sending all along) ends with
#    ETIMEDOUT, or ECONNRESET should B come back within its budget,
#    within twice the default policy's retry budget plus 5 s of B's
#    links going down (the bound of 50-peer-poweroff); fails when a
#    sender whose peer vanished is retried for ever;
#  - A's idle connection, silent through the restart, sends once B is
#    back: B answers with a NO_CONN RESET and the send fails with
#    ECONNRESET before the retry budget is spent (2.8 s measured once,
#    against 4.5 s); fails when the restarted peer does not answer for a
#    connection it does not know, or A ignores the RESET (then it ends
#    with ETIMEDOUT, after the budget);
#  - A keeps no connection (fails when a dead one leaks), and a new
#    connection to the restarted B carries 16 MiB and ~1k SEQPACKET
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

# B's restart, as one agent command (the links first).
# Every link up before the routes: the route to A names all of them.
links_down=""
links_up=""
for p in $(seq 0 $((MULTI_P - 1))); do
	links_down="$links_down ip link set pl$p down;"
	links_up="$links_up ip link set pl$p up &&"
done
t_down=$(date +%s%N)
mrc_check "B's MRC restarted (links down, programs killed, mrc.ko unloaded and loaded, links up)" \
	on_b "$links_down xargs -r kill -9 < /tmp/node-pids; rm -f /tmp/node-pids;" \
	"n=0; until rmmod mrc 2>/dev/null; do n=\$((n + 1));" \
	"[ \$n -lt $(mrc_time 200) ] || { echo 'mrc.ko still busy'; exit 1; }; sleep 0.2; done;" \
	"$MULTI_NODE b load && $MULTI_NODE b config usid > /dev/null && $links_up $MULTI_NODE b routes"
mrc_info "B's restart took $((($(date +%s%N) - t_down) / 1000000)) ms"

left=$((bound - ($(date +%s%N) - t_down) / 1000000000))
mrc_wait_for "$((left > 0 ? left : 1))" test -s "$res/active.end"
end_ms=$((($(cat "$res/active.end" 2>/dev/null || date +%s%N) - t_down) / 1000000))
mrc_info "A's active sender ended $end_ms ms after B's links went down"
mrc_check "A's active sender fails within $bound s of B's links going down" \
	[ "$end_ms" -le $((bound * 1000)) ]
wait "$cli"
mrc_check_eq "A's active sender exit status is non-zero" 1 "$(($? != 0))"
mrc_check "its error is ETIMEDOUT or ECONNRESET" \
	grep -Eq 'Connection timed out|Connection reset' "$res/active.client" "$res/active.client.log" ||
	sed 's/^/# active: /' "$res/active.client" "$res/active.client.log"

touch "$res/idle.go"
wait "$idle"
read -r idle_err idle_ms < "$res/idle.out"
mrc_info "A's idle connection, sending after B's restart: $idle_err after $idle_ms ms"
mrc_check_eq "the idle connection ends with ECONNRESET (B's NO_CONN RESET)" ECONNRESET "$idle_err"
mrc_check "... within $idle_bound_ms ms" [ "${idle_ms:-999999}" -le "$idle_bound_ms" ]
mrc_check "A keeps no connection" mrc_wait_for 10 sh -c "[ \"\$($MRCCTL -j conn)\" = '[]' ]"

mrc_check "a new connection to the restarted B: 16 MiB stream verified" \
	multi_transfer reboot-stream -t stream -n $((16 << 20)) --time-limit "$(mrc_time 120)"
mrc_check "... and ~1k SEQPACKET messages verified" \
	multi_transfer reboot-seq -t seqpacket --random-sizes 1000 -n 500500 --time-limit "$(mrc_time 120)"
mrc_done
