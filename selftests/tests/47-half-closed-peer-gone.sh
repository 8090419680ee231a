#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A half-closed connection whose peer forgot it is not waited on for
# ever. A shuts down its sending side (its CM_DREQ answered) and reads
# until B's end of stream. B then forgets the connection without A
# hearing of it: B aborts (SO_LINGER 0) while everything B sends is lost,
# as when every copy of a peer's own CM_DREQ is lost for its whole budget
# or the peer's host restarts. A sends nothing more, so no RESET can
# answer it; A's reader used to wait until its application gave up (as
# TCP's FIN_WAIT2 does without keepalive). Now, once
# per disconnect budget (the default policy: MRC_CM_FIN_WAIT_NS, 10 s)
# A sends its CM_DREQ again; B, with no such connection, answers with a
# stateless CM_DREP flagged GONE, and A's read fails with ECONNRESET (B's
# end of stream never came). Bounds: not before the budget (a live peer
# is not pestered), within the budget plus 2 s after A's CM_DREQ was
# answered. Over socket(AF_INET6, SOCK_STREAM, IPPROTO_MRC) between two
# hosts on one veth link.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mrc_module_load
a=$(mrc_ns_new a)
b=$(mrc_ns_new b)
mrc_veth "$a" vab fd13::1 "$b" vba fd13::2
res=$(mrc_tmpdir)
proto=$(cat /sys/module/mrc/parameters/ipproto)

cat > "$res/peer.py" <<'EOF'
import errno, json, os, socket, struct, sys, time
role, proto, res = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def wait_file(name):
    while not os.path.exists(os.path.join(res, name)):
        time.sleep(0.01)
if role == "b":
    ls = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, proto)
    ls.bind(("fd13::2", 7000))
    ls.listen(1)
    open(os.path.join(res, "listening"), "w").close()
    s, _ = ls.accept()
    got = b""
    while True:
        d = s.recv(100)
        if not d:
            break
        got += d
    # A's end of stream came: its CM_DREQ was answered.
    open(os.path.join(res, "eof-" + got.decode()), "w").close()
    wait_file("abort")
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    ls.close()
else:
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM, proto)
    s.connect(("fd13::2", 7000))
    s.sendall(b"hello")
    # from before the shutdown: its CM_DREP may come before it returns
    t0, err, data = time.monotonic(), None, None
    s.shutdown(socket.SHUT_WR)
    s.settimeout(60)
    try:
        data = s.recv(100)
    except OSError as e:
        err = errno.errorcode.get(e.errno, str(e.errno))
    json.dump({"error": err, "eof": data == b"",
               "ms": round((time.monotonic() - t0) * 1000)},
              open(os.path.join(res, "a.json"), "w"))
EOF

mrc_bg_in_ns "$b" python3 "$res/peer.py" b "$proto" "$res"
pid_b=$MRC_BG_PID
mrc_check "B listens" mrc_wait_for 20 test -e "$res/listening"
mrc_bg_in_ns "$a" python3 "$res/peer.py" a "$proto" "$res"
pid_a=$MRC_BG_PID
mrc_check "B read A's bytes and A's end of stream" mrc_wait_for 20 test -e "$res/eof-hello"
a_state() { in_ns "$a" "$MRCCTL" -j conn show | python3 -c "import json, sys; print(' '.join(c['state'] for c in json.load(sys.stdin)))"; }
mrc_check_eq "A is half-closed, waiting for B's end of stream" closing "$(a_state)"

# B forgets the connection; its RESET is lost on the way.
tc -n "$b" qdisc add dev vba root netem loss 100%
touch "$res/abort"
t_abort=$SECONDS
mrc_check "B aborted its connection" mrc_wait_for 20 sh -c "! kill -0 $pid_b 2>/dev/null"
tc -n "$b" qdisc del dev vba root
mrc_check "A's read ended" mrc_wait_for 40 sh -c "! kill -0 $pid_a 2>/dev/null"
err=$(mrc_json "$res/a.json" error 2>/dev/null)
ms=$(mrc_json "$res/a.json" ms 2>/dev/null)
budget=10000	# the kernel's, not scaled on a debug kernel
mrc_info "A's read failed with ${err:-nothing} after ${ms:-?} ms of waiting ($((SECONDS - t_abort)) s after B's abort); budget $budget ms"
mrc_check_eq "A's read failed with ECONNRESET (not an end of stream B never sent)" ECONNRESET "$err"
mrc_check "not before the disconnect budget ($budget ms)" test "${ms:-0}" -ge "$budget"
mrc_check "within the budget plus 2 s" test "${ms:-999999}" -le $((budget + $(mrc_time 2000)))
mrc_check_eq "A keeps no connection" "" "$(a_state)"
mrc_done
