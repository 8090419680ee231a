#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A peer that stops reading is alive, not gone: a training rank stuck in
# a long step must not lose its connections. B reads a little, then
# sleeps three times the policy's whole retry budget while A keeps
# writing, then reads the rest. Over SOCK_SEQPACKET with 100-byte
# messages (B's receive queue fills by truesize long before the byte
# credit runs out, so B refuses data with NACK NO_PKT_BUFFER) and over
# SOCK_STREAM (the credit closes: a zero window).
# Asserted, each socket type:
# - A's writes all succeed, no ETIMEDOUT: B answered, so A waited;
# - B gets every message, in order, each byte as written;
# - A does not hammer a full B: a refused packet waits an RTO (at least
#   rto_min) before it goes again; a sender that resends on every NACK
#   does so once per round trip (well under a millisecond on veth), tens
#   of thousands of times over the pause. In its second half (from its
#   middle, when A's backoff has long reached rto_max, to half a second
#   before B reads again, by B's own clock) B refuses at most one packet
#   per 4 x rto_min;
# - once B reads again, everything arrives within 30 s (a hang fails).
# Over socket(AF_INET6, type, IPPROTO_MRC) between two hosts on one veth
# link, the default policy. The two socket types run at the same time,
# each between its own two namespaces (every figure below is a
# namespace's: its one connection's).
# MRC_TEST_STALL_PAUSE_S=SECONDS sets the pause instead (make check-slow:
# 180, a reader stopped for minutes); every bound below follows from the
# policy and the pause, and so does the test's timeout: two pauses on top
# of the default run's 240 s (which it needs 40-69 s of, 27 in pauses,
# when the types ran one after the other).
# timeout: 240 + 2 * MRC_TEST_STALL_PAUSE_S
. "$(dirname "$0")/../lib.sh"

mrc_module_load
# A and B of each socket type: seqpacket on fd12::/64, stream on fd13::/64.
declare -A ns_a ns_b addr_b pid_a pid_b
for typ in seqpacket stream; do
	ns_a[$typ]=$(mrc_ns_new "a-$typ")
	ns_b[$typ]=$(mrc_ns_new "b-$typ")
done
mrc_veth "${ns_a[seqpacket]}" vab fd12::1 "${ns_b[seqpacket]}" vba fd12::2
mrc_veth "${ns_a[stream]}" vab fd13::1 "${ns_b[stream]}" vba fd13::2
addr_b=([seqpacket]=fd12::2 [stream]=fd13::2)
a=${ns_a[seqpacket]}
res=$(mrc_tmpdir)
proto=$(cat /sys/module/mrc/parameters/ipproto)

# The retry budget of the default policy: every timeout of an episode,
# backed off from rto_min to rto_max.
read -r rto_min rto_max retries < <(in_ns "$a" "$MRCCTL" -j policy show default |
	python3 -c "import json, sys; p = json.load(sys.stdin)[0]
print(p['rto_min_ns'] // 10**6, p['rto_max_ns'] // 10**6, p['retry_limit'])")
budget=$(python3 -c "print(sum(min($rto_min * 2**k, $rto_max) for k in range($retries + 1)))")
pause_ms=$((${MRC_TEST_STALL_PAUSE_S:-0} * 1000))
[ "$pause_ms" -gt 0 ] || pause_ms=$((3 * budget))
mrc_info "default policy: rto_min $rto_min ms, rto_max $rto_max ms, retry_limit $retries:" \
	"a dead peer is given up after about $budget ms; B pauses $pause_ms ms" \
	"($((pause_ms / budget)) x the budget${MRC_TEST_STALL_PAUSE_S:+, MRC_TEST_STALL_PAUSE_S})"
# What the test is about, whatever the pause it is given: a sender that
# counted B's refusals against its retry budget would give up within the
# first half of the pause, before the second half is measured.
mrc_check "the pause outlasts the retry budget at least twice ($pause_ms ms)" \
	test "$pause_ms" -ge $((2 * budget))

cat > "$res/peer.py" <<'EOF'
import errno, json, os, socket, sys, time
role, proto, res, typ, port, addr = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
st = socket.SOCK_SEQPACKET if typ == "seqpacket" else socket.SOCK_STREAM
N, SZ = 20000, 100
def msg(i):
    return (b"%08d" % i) * (SZ // 8) + b"x" * (SZ % 8)
def mark(name):  # the real time, the clock of date(1) in the test
    open(os.path.join(res, typ + "." + name), "w").write("%.3f" % time.time())
def mib():  # this namespace's counters: its one connection's
    return {k: int(v) for k, v in (l.split() for l in open("/proc/net/mrc_stat"))}
def pause_measured(pause):
    # The pause's second half, measured where B pauses, by its own clock:
    # the window always lies in the pause, however loaded the machine.
    t = time.monotonic()
    time.sleep(pause / 2)
    m0, t0 = mib(), time.monotonic()
    time.sleep(max(t + pause - 0.5 - t0, 0))
    m1, t1 = mib(), time.monotonic()
    time.sleep(max(t + pause - t1, 0))
    d = {k: m1[k] - m0.get(k, 0) for k in m1}
    json.dump({"window_ms": round((t1 - t0) * 1000),
               "refused": d["InDropNomem"] + d["InDropPsnWindow"],
               "in_pkts": d["InPkts"], "nacks": d["NackOut"]},
              open(os.path.join(res, typ + ".window.json"), "w"))
if role == "b":
    pause = float(sys.argv[7])
    ls = socket.socket(socket.AF_INET6, st, proto)
    # a small buffer (inherited by the accepted socket) fills long
    # before the pause's second half
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    ls.bind((addr, port))
    ls.listen(1)
    mark("listening")
    s, _ = ls.accept()
    got, bad, buf, err, paused = 0, 0, b"", None, False
    try:
        while True:
            if not paused and got >= 100:
                mark("paused")
                pause_measured(pause)
                mark("resumed")
                paused = True
            d = s.recv(65536)
            if not d:
                break
            if typ == "seqpacket":
                bad += d != msg(got)
                got += 1
                continue
            buf += d
            while len(buf) >= SZ:
                bad += buf[:SZ] != msg(got)
                buf, got = buf[SZ:], got + 1
    except OSError as e:
        err = errno.errorcode.get(e.errno, str(e.errno))
    mark("done")
    json.dump({"got": got, "bad": bad, "left": len(buf), "error": err},
              open(os.path.join(res, typ + ".b.json"), "w"))
else:
    s = socket.socket(socket.AF_INET6, st, proto)
    s.connect((addr, port))
    err, sent = None, 0
    try:
        for i in range(N):
            s.sendall(msg(i))
            sent += 1
        s.shutdown(socket.SHUT_WR)
        s.recv(1)   # B's close: everything was taken
    except OSError as e:
        err = errno.errorcode.get(e.errno, str(e.errno))
    json.dump({"sent": sent, "error": err}, open(os.path.join(res, typ + ".a.json"), "w"))
EOF

pause_s=$(mrc_time "$pause_ms" | awk '{ print $1 / 1000 }')
port=7000
for typ in seqpacket stream; do
	mrc_bg_in_ns "${ns_b[$typ]}" python3 "$res/peer.py" b "$proto" "$res" $typ $port \
		"${addr_b[$typ]}" "$pause_s"
	pid_b[$typ]=$MRC_BG_PID
done
for typ in seqpacket stream; do
	mrc_check "$typ: B listens" mrc_wait_for 20 test -e "$res/$typ.listening"
	mrc_bg_in_ns "${ns_a[$typ]}" python3 "$res/peer.py" a "$proto" "$res" $typ $port \
		"${addr_b[$typ]}"
	pid_a[$typ]=$MRC_BG_PID
done
for typ in seqpacket stream; do
	mrc_check "$typ: B read its first messages and stopped" \
		mrc_wait_for 20 test -e "$res/$typ.paused"
done
types_done=0
for typ in seqpacket stream; do
	mrc_check "$typ: B resumed reading" \
		mrc_wait_for $((pause_ms / 1000 + 20)) test -e "$res/$typ.resumed"
	mrc_check "$typ: B read to the end within 30 s of resuming" \
		mrc_wait_for 30 test -e "$res/$typ.b.json"
	mrc_check "$typ: A finished" mrc_wait_for 20 test -e "$res/$typ.a.json"
	if [ ! -e "$res/$typ.b.json" ]; then
		in_ns "${ns_a[$typ]}" "$MRCCTL" conn show
		in_ns "${ns_b[$typ]}" "$MRCCTL" conn show
	fi
	kill "${pid_a[$typ]}" "${pid_b[$typ]}" 2>/dev/null
	wait "${pid_a[$typ]}" "${pid_b[$typ]}" 2>/dev/null
	w=$res/$typ.window.json
	window_ms=$(mrc_json "$w" window_ms)
	refusals=$(mrc_json "$w" refused)
	limit=$((${window_ms:-0} / (4 * rto_min) + 2))
	mrc_info "$typ: A $(cat "$res/$typ.a.json" 2>/dev/null), B $(cat "$res/$typ.b.json" 2>/dev/null);" \
		"in $window_ms ms of the pause's second half B received $(mrc_json "$w" in_pkts) packets, refused $refusals ($(awk -v r="$refusals" -v w="$window_ms" 'BEGIN { printf "%.1f", w ? r * 1000 / w : 0 }') a second; bound $limit) and sent $(mrc_json "$w" nacks) NACKs;" \
		"B read the rest in $(awk -v r="$(cat "$res/$typ.resumed")" -v d="$(cat "$res/$typ.done")" 'BEGIN { printf "%.2f", d - r }') s"
	mrc_check "$typ: B measured the pause's second half (at least a quarter of the pause)" \
		test "${window_ms:-0}" -ge $(($(mrc_time "$pause_ms") / 4))
	mrc_check_eq "$typ: A's writes all succeeded" None "$(mrc_json "$res/$typ.a.json" error)"
	mrc_check_eq "$typ: A sent every message" 20000 "$(mrc_json "$res/$typ.a.json" sent)"
	mrc_check_eq "$typ: B got every message" 20000 "$(mrc_json "$res/$typ.b.json" got)"
	mrc_check_eq "$typ: every byte as written" 0 "$(mrc_json "$res/$typ.b.json" bad)"
	mrc_check_eq "$typ: B's reads all succeeded" None "$(mrc_json "$res/$typ.b.json" error)"
	mrc_check "$typ: B refused at most one packet per 4 x rto_min (A waits, it does not hammer)" \
		test "$refusals" -le "$limit"
	types_done=$((types_done + 1))
done
# a shell error ends the loop, not the script: the count says it ran whole
mrc_check_eq "both socket types ran to the end" 2 "$types_done"
for typ in seqpacket stream; do
	mrc_check_eq "$typ: no connection left in A" 0 \
		"$(in_ns "${ns_a[$typ]}" "$MRCCTL" -j conn show | python3 -S -c "import json, sys; print(len(json.load(sys.stdin)))")"
done
mrc_done
