#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mrcize runs unmodified programs over MRC (tools/mrcize, mrcize(8)), with
# the real module: iperf3 from Debian, unchanged.
# - server and client under mrcize: the transfer crosses MRC (the
#   namespace's MRC byte counters carry it, iperf3's JSON agrees);
# - a peer host without MRC: the client falls back to TCP per connection,
#   at once (ECONNREFUSED from the ICMPv6 port unreachable), says so with
#   -v, and the transfer still works; --strict refuses instead;
# - a peer with MRC but a plain TCP server: ECONNREFUSED at the MRC level
#   (nobody listens on that MRC port), fallback to TCP;
# - --ports keeps other ports on TCP; IPv4 sockets are left alone (-v);
# - one clear line for a statically linked program, an unknown policy
#   and a missing module.
# Hosts a, b (MRC in use) and c (no MRC socket ever) on veth links.
# timeout: 300
. "$(dirname "$0")/../lib.sh"

MRCIZE=$MRC_BUILD/tools/mrcize/mrcize
mrc_module_load
a=$(mrc_ns_new a)
b=$(mrc_ns_new b)
c=$(mrc_ns_new c)
mrc_veth "$a" vab fd10::1 "$b" vba fd10::2
mrc_veth "$a" vac fd11::1 "$c" vca fd11::2
ip -n "$a" addr add 10.0.11.1/24 dev vac
ip -n "$c" addr add 10.0.11.2/24 dev vca
for ns in "$a" "$b"; do
	in_ns "$ns" "$MRCCTL" policy set default backups 0
done
res=$(mrc_tmpdir)
# iperf3 JSON: bytes the client sent (what the server counts may miss
# the last packets: iperf3 ends the test over its control connection)
tx_bytes() { python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["end"]["sum_sent"]["bytes"]))' "$1"; }
# listening FILE: the iperf3 server writing FILE is up
listening() { mrc_wait_for 30 grep -q "listening" "$1"; }

# ---- both ends under mrcize ----
mrc_bg_in_ns "$b" "$MRCIZE" run -v -- iperf3 --forceflush -s -1 -p 5201 > "$res/s1.out" 2>&1
mrc_check "iperf3 -s under mrcize listens" listening "$res/s1.out"
inb0=$(mrc_mib "$b" InBytes)
in_ns "$a" "$MRCIZE" run -v -- iperf3 -6 -c fd10::2 -p 5201 -n 8M -J \
	> "$res/c1.json" 2> "$res/c1.err"
rc=$?
mrc_check_eq "iperf3 -c under mrcize completes" 0 "$rc"
got=$(tx_bytes "$res/c1.json" 2>/dev/null || echo 0)
inb=$(($(mrc_mib "$b" InBytes) - inb0))
# iperf3 counts 8 MiB received; MRC carried at least that many bytes into
# b (plus its headers and the control connection). Fails if either end
# stayed on TCP.
mrc_check "iperf3 sent 8 MiB ($got bytes)" test "$got" -ge 8388608
mrc_check "... carried by MRC ($inb bytes into b's MRC)" test "$inb" -ge 8388608
mrc_check "the client's summary counts MRC connections and no fallback" \
	grep -qE "summary.*mrc_connects=[1-9].*fallbacks=0" "$res/c1.err"
sed 's/^/# client: /' "$res/c1.err"

# ---- a peer host without MRC: fallback to TCP ----
mrc_bg_in_ns "$c" iperf3 --forceflush -s -1 -p 5202 > "$res/s2.out" 2>&1
mrc_check "a plain iperf3 -s on c (no MRC there)" listening "$res/s2.out"
unreach0=$(mrc_mib "$a" HsUnreachable)
t0=$(date +%s%N)
in_ns "$a" "$MRCIZE" run -v -- iperf3 -6 -c fd11::2 -p 5202 -n 2M -J \
	> "$res/c2.json" 2> "$res/c2.err"
rc=$?
t=$((($(date +%s%N) - t0) / 1000000))
mrc_check_eq "iperf3 -c to a host without MRC completes over TCP" 0 "$rc"
mrc_check "... all of it ($(tx_bytes "$res/c2.json" 2>/dev/null) bytes)" \
	test "$(tx_bytes "$res/c2.json" 2>/dev/null || echo 0)" -ge 2097152
mrc_check "... -v says which connection fell back, and why" \
	grep -q "mrcize: \[fd11::2\]:5202 over TCP: ECONNREFUSED at the MRC level" "$res/c2.err"
mrc_check "... the host's ICMPv6 error decided it (HsUnreachable)" \
	test "$(mrc_mib "$a" HsUnreachable)" -gt "$unreach0"
mrc_info "whole run with fallbacks: $t ms"
sed 's/^/# client: /' "$res/c2.err"

mrc_bg_in_ns "$c" iperf3 --forceflush -s -1 -p 5203 > "$res/s3.out" 2>&1
listening "$res/s3.out"
in_ns "$a" "$MRCIZE" run --strict -- iperf3 -6 -c fd11::2 -p 5203 -n 1M \
	> "$res/c3.out" 2>&1
mrc_check "--strict: no fallback, iperf3 fails to connect" test $? -ne 0
mrc_check "... with 'Connection refused'" grep -q "Connection refused" "$res/c3.out"

# ---- MRC on the peer, but its server is plain TCP ----
mrc_bg_in_ns "$b" iperf3 --forceflush -s -1 -p 5204 > "$res/s4.out" 2>&1
listening "$res/s4.out"
rej0=$(mrc_mib "$b" HsRejected)
in_ns "$a" "$MRCIZE" run -v -- iperf3 -6 -c fd10::2 -p 5204 -n 1M -J \
	> "$res/c4.json" 2> "$res/c4.err"
mrc_check_eq "a plain TCP server behind MRC: iperf3 completes over TCP" 0 "$?"
mrc_check "... after b refused at the MRC level (HsRejected)" \
	test "$(mrc_mib "$b" HsRejected)" -gt "$rej0"

# ---- a server under mrcize, a client without MRC ----
tcpacc0=$(mrc_mib "$b" TcpAccepted)
mrc_bg_in_ns "$b" "$MRCIZE" run -- iperf3 --forceflush -s -1 -p 5208 > "$res/s7.out" 2>&1
listening "$res/s7.out"
in_ns "$a" iperf3 -6 -c fd10::2 -p 5208 -n 1M -J > "$res/c7.json" 2>&1
mrc_check_eq "a plain iperf3 client reaches an iperf3 server under mrcize" 0 "$?"
# iperf3's control and data connections: both plain TCP, both accepted by
# the MRC listener (MRC_SO_ACCEPT_TCP). Fails if mrcize's listener takes
# MRC only.
mrc_check "... whose MRC listener accepted both its TCP connections" \
	test "$(($(mrc_mib "$b" TcpAccepted) - tcpacc0))" -eq 2
mrc_bg_in_ns "$b" "$MRCIZE" run --strict -- iperf3 --forceflush -s -1 -p 5209 > "$res/s8.out" 2>&1
listening "$res/s8.out"
in_ns "$a" iperf3 -6 -c fd10::2 -p 5209 -n 1M > "$res/c8.out" 2>&1
mrc_check "--strict on the server: MRC only, a plain client is refused" \
	grep -q "Connection refused" "$res/c8.out"

# ---- filters ----
mrc_bg_in_ns "$b" "$MRCIZE" run --ports 5206 -- iperf3 --forceflush -s -1 -p 5205 > "$res/s5.out" 2>&1
listening "$res/s5.out"
inb0=$(mrc_mib "$b" InBytes)
in_ns "$a" "$MRCIZE" run -v --ports 5206 -- iperf3 -6 -c fd10::2 -p 5205 -n 2M -J \
	> "$res/c5.json" 2> "$res/c5.err"
mrc_check_eq "--ports elsewhere: iperf3 completes" 0 "$?"
inb=$(($(mrc_mib "$b" InBytes) - inb0))
mrc_check "... over TCP: b's MRC carried none of it ($inb bytes)" test "$inb" -lt 100000
mrc_check "... and nothing fell back (filtered)" grep -qE "summary.*fallbacks=0.*filtered=[1-9]" "$res/c5.err"

# A listener bound to port 0 is decided at listen(): outside --ports it
# becomes TCP on the port MRC had given it (MRC gives the TCP port back).
out=$(in_ns "$b" "$MRCIZE" run --ports 5206 -- python3 -c 'import socket
s = socket.socket(socket.AF_INET6)
s.bind(("::", 0))
p = s.getsockname()[1]
s.listen()
print(s.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL), p == s.getsockname()[1])' 2>&1)
mrc_check_eq "an ephemeral listener outside --ports: TCP, on the port it had" "6 True" "$out"

mrc_bg_in_ns "$c" iperf3 --forceflush -s -1 -p 5207 > "$res/s6.out" 2>&1
listening "$res/s6.out"
in_ns "$a" "$MRCIZE" run -v -- iperf3 -4 -c 10.0.11.2 -p 5207 -n 1M -J \
	> "$res/c6.json" 2> "$res/c6.err"
mrc_check_eq "an IPv4 program runs unchanged" 0 "$?"
mrc_check "... its sockets left alone, and said so" grep -qE "summary.*mrc_sockets=0.*ipv4=[1-9]" "$res/c6.err"

# ---- clear errors ----
out=$(in_ns "$a" "$MRCIZE" run -- /bin/busybox true 2>&1)
mrc_check_eq "a statically linked program: exit 1" 1 "$?"
mrc_check_match "... one line saying LD_PRELOAD cannot act" "statically linked" "$out"
mrc_check_eq "... exactly one line" 1 "$(printf '%s\n' "$out" | wc -l)"
out=$(in_ns "$a" "$MRCIZE" run --policy no-such -- true 2>&1)
mrc_check_eq "an unknown policy: exit 1" 1 "$?"
mrc_check_match "... named" "no-such" "$out"
out=$(in_ns "$a" "$MRCIZE" run -- no-such-program 2>&1)
mrc_check "a missing program fails with one line" test "$(printf '%s\n' "$out" | wc -l)" -eq 1
unit=$res/units
mkdir -p "$unit"
in_ns "$a" "$MRCIZE" enable --unit-dir "$unit" --policy default iperf3.service
mrc_check "enable writes a systemd drop-in" \
	grep -q "LD_PRELOAD=.*libmrcize.so" "$unit/iperf3.service.d/mrcize.conf"
in_ns "$a" "$MRCIZE" disable --unit-dir "$unit" iperf3.service
mrc_check "disable removes it" test ! -e "$unit/iperf3.service.d/mrcize.conf"

# Last: without the module (it is not installed, so nothing autoloads).
for ns in "$a" "$b" "$c"; do	# servers still waiting (the --strict one)
	ip netns pids "$ns" | xargs -r kill -9
	ip netns del "$ns"
done
_mrc_namespaces=()
mrc_wait_for 60 rmmod mrc
out=$("$MRCIZE" run -- true 2>&1)
mrc_check_eq "without the module: exit 3" 3 "$?"
mrc_check_match "... one line saying so" "module is not loaded" "$out"
mrc_done
