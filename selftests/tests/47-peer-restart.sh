#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A peer that forgets a connection without telling (its host restarted,
# or it aborted and its RESET was lost) makes the other end fail at once
# with ECONNRESET, not retry into the void until its budget runs out: B
# aborts (SO_LINGER 0) while everything B sends to A is lost, so A never
# hears of it; once the link heals, A's next packet reaches a B that knows
# no such connection, B answers with a NO_CONN RESET (OutResetNoConn),
# and A's send fails with ECONNRESET. The bound: well under the policy's
# retry budget (ETIMEDOUT would take seconds), one round trip plus an RTO
# at most (the first packet after the heal may still be lost to the
# netem qdisc being removed). Over socket(AF_INET6, SOCK_STREAM,
# IPPROTO_MRC) between two hosts on one veth link.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mrc_module_load
a=$(mrc_ns_new a)
b=$(mrc_ns_new b)
mrc_veth "$a" vab fd12::1 "$b" vba fd12::2
res=$(mrc_tmpdir)
proto=$(cat /sys/module/mrc/parameters/ipproto)

# The two ends: B accepts, reads, aborts when told; A sends, then when
# told sends every 10 ms until an error, and reports it with the time it
# took.
cat > "$res/peer.py" <<'EOF'
import errno, json, os, socket, struct, sys, time
role, proto, res = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def wait_file(name):
    while not os.path.exists(os.path.join(res, name)):
        time.sleep(0.01)
if role == "b":
    ls = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, proto)
    ls.bind(("fd12::2", 7000))
    ls.listen(1)
    open(os.path.join(res, "listening"), "w").close()
    s, _ = ls.accept()
    s.recv(5)
    open(os.path.join(res, "accepted"), "w").close()
    wait_file("abort")
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    ls.close()
else:
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, proto)
    s.connect(("fd12::2", 7000))
    s.sendall(b"hello")
    wait_file("send")
    t0, err = time.monotonic(), None
    while time.monotonic() - t0 < 30:
        try:
            s.send(b"x" * 1000)
        except OSError as e:
            err = errno.errorcode.get(e.errno, str(e.errno))
            break
        time.sleep(0.01)
    json.dump({"error": err, "ms": round((time.monotonic() - t0) * 1000)},
              open(os.path.join(res, "a.json"), "w"))
EOF

mrc_bg_in_ns "$b" python3 "$res/peer.py" b "$proto" "$res"
pid_b=$MRC_BG_PID
mrc_check "B listens" mrc_wait_for 20 test -e "$res/listening"
mrc_bg_in_ns "$a" python3 "$res/peer.py" a "$proto" "$res"
pid_a=$MRC_BG_PID
mrc_check "A connected and B read its first bytes" mrc_wait_for 20 test -e "$res/accepted"

# B forgets the connection; its RESET is lost on the way.
resets0=$(mrc_mib "$b" OutResetNoConn)
tc -n "$b" qdisc add dev vba root netem loss 100%
touch "$res/abort"
mrc_check "B aborted its connection" mrc_wait_for 20 sh -c "! kill -0 $pid_b 2>/dev/null"
b_conns() { in_ns "$b" "$MRCCTL" -j conn show | python3 -c "import json, sys; print(len(json.load(sys.stdin)))"; }
mrc_check_eq "B keeps no connection" 0 "$(b_conns)"
tc -n "$b" qdisc del dev vba root
touch "$res/send"
mrc_check "A's send ended" mrc_wait_for 40 sh -c "! kill -0 $pid_a 2>/dev/null"
err=$(mrc_json "$res/a.json" error 2>/dev/null)
ms=$(mrc_json "$res/a.json" ms 2>/dev/null)
rto_max=$(in_ns "$a" "$MRCCTL" -j policy show default |
	python3 -c "import json, sys; print(json.load(sys.stdin)[0]['rto_max_ns'] // 1000000)")
bound=$(mrc_time "$rto_max")
mrc_info "A's send failed with ${err:-nothing} after ${ms:-?} ms (bound: rto_max = $bound ms);" \
	"B sent $(($(mrc_mib "$b" OutResetNoConn) - resets0)) NO_CONN RESETs"
mrc_check_eq "A's send failed with ECONNRESET (not ETIMEDOUT)" ECONNRESET "$err"
mrc_check "within rto_max ($bound ms), not the retry budget" test "${ms:-999999}" -le "$bound"
mrc_check "B answered with a NO_CONN RESET (OutResetNoConn)" \
	test "$(mrc_mib "$b" OutResetNoConn)" -gt "$resets0"
mrc_done
