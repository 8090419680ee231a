#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Floods from an off-path namespace (selftests/tools/mrc_inject.py, and
# selftests/progs/reqflood.c for the CM_REQ flood):
#  1. 100k+ CM_REQs from as many spoofed source addresses to a listener
#     (sendmmsg from a raw socket, as fast as the guest sends): every one
#     counted and answered by a stateless CM_REP (HsCookieSent) or, over
#     the namespace's budget of 10,000 CM_REPs a second, dropped unanswered
#     (HsReqDropRateLimit; at most that many answers a second), no
#     connection created for any, kernel memory (slab) flat, while three
#     legitimate clients connect and move 1 MiB each, every byte
#     verified, and a fourth after it; CM_RTUs with made-up cookies, one with a real cookie but
#     a changed MAC bit (HsCookieBad) and one real but 22 s old, past its
#     life of 12-16 s (HsCookieExpired), create nothing;
#  2. data packets to connections that do not exist (closed QPNs): counted,
#     answered with NO_CONN RESETs within the namespace's budget of
#     stateless answers (1000 a second; the rest counted CtlDropRateLimit),
#     never more packets back than came in, no memory kept;
#  3. reliability probes to a live connection from off-path and endpoint
#     EV probes: the former dropped, the latter answered at a bounded rate.
# Nothing may be logged, and everything the flood created is gone after.
#
#   B (client, fd00::2) ---- A (server, fd00::1, fd01::1) ---- X (fd01::2,
#                                             spoofing fd02::/64 sources)
# timeout: 600
. "$(dirname "$0")/../lib.sh"

INJECT=$MRC_ROOT/selftests/tools/mrc_inject.py

mrc_module_load
A=$(mrc_ns_new flda)
B=$(mrc_ns_new fldb)
X=$(mrc_ns_new fldx)
mrc_veth "$A" a-b fd00::1 "$B" b-a fd00::2
mrc_veth "$A" a-x fd01::1 "$X" x-a fd01::2
# Answers to the spoofed sources go to X, which drops them.
ip -n "$A" route add fd02::/64 via fd01::2

res=$(mrc_tmpdir)
REQFLOOD=$MRC_BUILD/progs/mrc_reqflood
# conns NS: connections of a namespace (-1 if they cannot be listed).
conns() {
	local t
	if t=$(in_ns "$1" "$MRCCTL" conn show 2>/dev/null); then
		printf '%s\n' "$t" | grep -c '^ *[0-9]'	# rows start with the id
	else
		echo -1
	fi
}
conns_at_most() { [ "$(conns "$1")" -le "$2" ]; }
slab_kb() { awk '/^Slab:/ { print $2 }' /proc/meminfo; }
# Objects of the module's socket caches (MRC, MRCv6) in use.
mrc_objs() { awk '$1 ~ /^MRC/ { n += $2 } END { print n + 0 }' /proc/slabinfo; }
# CPU time spent by the guest, all CPUs, in clock ticks (user to softirq).
cpu_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $6 + $7 + $8 }' /proc/stat; }
# rx_pkts NS DEV: packets a device received (a veth counts only what it
# could queue to the stack: packets dropped on the way are not in it).
rx_pkts() { ip -n "$1" -s -j link show "$2" |
	python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["stats64"]["rx"]["packets"])'; }
# Packets X received (anything A answers to X's address arrives there).
x_rx() { rx_pkts "$X" x-a; }
# Kernel messages at info level or above that name the module.
mrc_log_lines() { dmesg -l emerg,alert,crit,err,warn,notice,info | grep -ci mrc; }
log_before=$(mrc_log_lines)

# --- 1. A CM_REQ flood against a stateless listener ----------------------------
port=$((20000 + RANDOM % 10000))
# 1 MiB per legitimate connection (less on a slow debug kernel).
legit_bytes=$(mrc_size 1048576 65536)
# Requests the flood sends at least (fewer on a slow debug kernel).
n_min=$(mrc_size 100000 5000)
n_forged=1000
# Three clients during the flood, one after: the listener lives throughout.
mrc_bg_in_ns "$A" "$MRC_PERF" server -j -p "$port" --count 4 -n "$legit_bytes" \
	> "$res/srv.json" 2> "$res/srv.log"
srv=$MRC_BG_PID
mrc_wait_for 30 grep -q listening "$res/srv.log"

req0=$(mrc_mib "$A" HsReqRecv)
sent0=$(mrc_mib "$A" HsCookieSent)
est0=$(mrc_mib "$A" HsEstablished)
bad0=$(mrc_mib "$A" HsCookieBad)
exp0=$(mrc_mib "$A" HsCookieExpired)
rej0=$(mrc_mib "$A" HsRejected)
over_req0=$(mrc_mib "$A" HsReqDropRateLimit)
arx0=$(rx_pkts "$A" a-x)
bl0=$(mrc_softnet_drops)
slab0=$(slab_kb)
objs0=$(mrc_objs)
t_start=$SECONDS

# Forged and expired CM_RTUs (about 23 s: it waits out the cookie's life);
# its CM_REP is captured before the flood's CM_REPs swamp the capture.
mrc_bg python3 "$INJECT" rtu-check --from "$X" --src fd01::2 --to fd01::1 \
	--service-port "$port" --sources fd02::/64 --forged "$n_forged" > "$res/rtu.txt" 2>&1
rtu=$MRC_BG_PID
mrc_wait_for 60 grep -q "forged CM_RTUs sent" "$res/rtu.txt" ||
	mrc_info "rtu-check: $(cat "$res/rtu.txt")"

# The flood, until stopped; slab and connections sampled as it runs.
mrc_bg_in_ns "$X" "$REQFLOOD" --to fd01::1 --service-port "$port" --sources fd02::/64 \
	--count 100000000 --seconds $((120 * MRC_TEST_TIME_SCALE)) > "$res/flood-req.txt" 2>&1
flood=$MRC_BG_PID
ticks0=$(cpu_ticks)
(
	while kill -0 "$flood" 2>/dev/null; do
		echo "$(slab_kb) $(mrc_objs) $(conns "$A")"
		sleep 0.2
	done
) > "$res/mem.txt" &
sampler=$!

legit_ok=0
for i in 1 2 3; do
	mrc_info "at ${SECONDS}s: legitimate connection $i, $(($(mrc_mib "$A" HsReqRecv) - req0)) CM_REQs so far"
	if in_ns "$B" "$MRC_PERF" client -j -c fd00::1 -p "$port" -n "$legit_bytes" \
		> "$res/cli$i.json" 2> "$res/cli$i.log"; then
		legit_ok=$((legit_ok + 1))
	else
		sed 's/^/# client: /' "$res/cli$i.json" "$res/cli$i.log" | head -5
	fi
done
mrc_wait_for 120 mrc_mib_at_least "$A" HsReqRecv $((req0 + n_min))
flood_running=no
kill -0 "$flood" 2>/dev/null && flood_running=yes
kill -TERM "$flood" 2>/dev/null
wait "$flood"
flood_rc=$?
ticks1=$(cpu_ticks)
wait "$sampler"
t_flood=$((SECONDS - t_start))
mrc_info "$(cat "$res/flood-req.txt")"
n_req=$(sed -n 's/^flood-req: \([0-9]*\) requests.*/\1/p' "$res/flood-req.txt")
n_req=${n_req:-0}
# What reached A (a slow guest drops some on the way in, before MRC: in
# its input backlogs, mrc_softnet_drops).
arrived=$(( $(rx_pkts "$A" a-x) - arx0 - n_forged - 20 - ($(mrc_softnet_drops) - bl0) ))
[ "$arrived" -gt "$n_req" ] && arrived=$n_req
mrc_wait_for 60 mrc_mib_at_least "$A" HsReqRecv $((req0 + arrived))
# The expired CM_RTU goes 22 s after its CM_REP: the listener must still be
# there (the server ends after its fourth client).
wait "$rtu"
rtu_rc=$?
# One more client once the flood is over.
if in_ns "$B" "$MRC_PERF" client -j -c fd00::1 -p "$port" -n "$legit_bytes" \
	> "$res/cli4.json" 2> "$res/cli4.log"; then
	legit_after=1
else
	legit_after=0
	sed 's/^/# client: /' "$res/cli4.json" "$res/cli4.log" | head -5
fi
mrc_info "$(cat "$res/rtu.txt")"
req=$(( $(mrc_mib "$A" HsReqRecv) - req0 ))
cookies=$(( $(mrc_mib "$A" HsCookieSent) - sent0 ))
rej=$(( $(mrc_mib "$A" HsRejected) - rej0 ))
over_req=$(( $(mrc_mib "$A" HsReqDropRateLimit) - over_req0 ))
est=$(( $(mrc_mib "$A" HsEstablished) - est0 ))
bad=$(( $(mrc_mib "$A" HsCookieBad) - bad0 ))
expired=$(( $(mrc_mib "$A" HsCookieExpired) - exp0 ))
read -r slab_max objs_max conns_max < <(awk '
	$1 > s { s = $1 } $2 > o { o = $2 } $3 > c { c = $3 }
	END { print s + 0, o + 0, c + 0 }' "$res/mem.txt")
slab1=$(slab_kb)
mrc_info "in ${t_flood}s: CM_REQs sent $n_req, $arrived reached A, counted $req, answered with a cookie $cookies, rejected $rej, over the CM_REP budget $over_req;" \
	"connections created $est; slab $slab0 kB before, at most $slab_max kB during ($(( (slab_max - slab0) / 1024 )) MiB more), $slab1 kB after;" \
	"MRC socket objects $objs0 before, at most $objs_max during; at most $conns_max connections listed at A;" \
	"guest CPU $(awk -v t=$((ticks1 - ticks0)) -v hz="$(getconf CLK_TCK)" -v n="$n_req" \
		'BEGIN { printf "%.1f", n ? t / hz * 1e6 / n : 0 }') us per request (sender, receiver, clients and sampler together)"
# The injectors' own verdicts: mrc_reqflood exits 0 at SIGTERM after its
# report, rtu-check 0 once it captured the CM_REP and sent every RTU. A
# flood that died early, or an rtu-check that never saw its CM_REP, must
# not pass on counters that happen to look right.
mrc_check_eq "the CM_REQ flood ran to its end (mrc_reqflood exit status)" 0 "$flood_rc"
mrc_check_eq "rtu-check sent every CM_RTU (exit status)" 0 "$rtu_rc"
mrc_check "at least $n_min CM_REQs sent ($n_req)" [ "$n_req" -ge "$n_min" ]
mrc_check_eq "the flood ran throughout the legitimate connections" yes "$flood_running"
mrc_check "every CM_REQ that reached A counted (HsReqRecv $req >= $arrived)" [ "$req" -ge "$arrived" ]
mrc_check_eq "every CM_REQ answered by a stateless CM_REP, refused, or over the budget" \
	"$req" "$((cookies + rej + over_req))"
# The budget: 10,000 CM_REPs a second in 100 ms windows; the flood lasted
# t_flood seconds (rounded down), so one more window's worth at most.
# Fails if CM_REPs are not rate-limited on a machine that floods faster.
mrc_check "CM_REPs within the budget ($cookies in ${t_flood}s)" \
	[ "$cookies" -le $(( (t_flood + 1) * 10000 + 1000 )) ]
mrc_check_eq "3 legitimate connections during the flood, every byte verified" 3 "$legit_ok"
mrc_check_eq "a legitimate connection after the flood" 1 "$legit_after"
mrc_check_eq "connections created: the 4 legitimate ones, none for the flood or the forged RTUs" 4 "$est"
mrc_check "forged CM_RTUs refused ($bad >= $((n_forged + 1)), HsCookieBad)" [ "$bad" -ge $((n_forged + 1)) ]
mrc_check_eq "the expired cookie refused (HsCookieExpired)" 1 "$expired"
# A flood keeps no state: what slab grows by is packets in flight, not
# connections (before this design: 40 KB per half-open child, 5 MB for
# 129 of them at 1000/s).
# On the debug kernel KASAN's quarantine holds freed objects (the flood's
# packets) for a while: a looser bound there.
slab_bound=$((MRC_TEST_TIME_SCALE > 1 ? 65536 : 8192))
mrc_check "slab grew by less than $((slab_bound / 1024)) MiB during the flood ($(( (slab_max - slab0) / 1024 )) MiB)" \
	[ $((slab_max - slab0)) -lt "$slab_bound" ]
# SLUB counts objects by slab (freed ones in a CPU's slab count as
# active, sockets are freed after an RCU grace period): a margin, far
# below one socket per request.
mrc_check "no MRC socket for the flood ($objs_max <= $objs0 + 256 objects)" \
	[ "$objs_max" -le $((objs0 + 256)) ]
mrc_check "no connection at A but the legitimate one at a time ($conns_max <= 1)" \
	[ "$conns_max" -le 1 ]
srv_gone() { ! kill -0 "$srv" 2>/dev/null; }
mrc_wait_for 30 srv_gone || kill "$srv"
wait "$srv"
mrc_check_eq "the server verified all 4" "0 4" "$? $(grep -c '"verified":true' "$res/srv.json")"
mrc_check "no connection left at A" mrc_wait_for 30 conns_at_most "$A" 0

# --- 2. Data to connections that do not exist ------------------------------
n_data=2000
noconn0=$(mrc_mib "$A" InDropNoConn)
resets0=$(mrc_mib "$A" OutResetNoConn)
over0=$(mrc_mib "$A" CtlDropRateLimit)
rx0=$(x_rx)
t0=$SECONDS
mrc_check "data flood to closed QPNs sent" \
	python3 "$INJECT" flood-data --from "$X" --src fd01::2 --to fd01::1 --count "$n_data"
mrc_check "every packet counted as InDropNoConn" \
	mrc_wait_for 30 mrc_mib_at_least "$A" InDropNoConn $((noconn0 + n_data))
secs=$((SECONDS - t0 + 1))
rx1=$(x_rx)
resets=$(($(mrc_mib "$A" OutResetNoConn) - resets0))
over=$(($(mrc_mib "$A" CtlDropRateLimit) - over0))
mrc_info "answered $resets with a NO_CONN RESET, $over over the budget, in about $secs s;" \
	"the sender received $((rx1 - rx0)) packets meanwhile"
mrc_check_eq "every packet answered or counted over the budget" "$n_data" "$((resets + over))"
# The budget: 1000 a second, the first second's burst included.
mrc_check "answers within the budget ($resets <= 1000 x ($secs + 1) s)" \
	test "$resets" -le $((1000 * (secs + 1)))
# No reflection beyond the answers (neighbour discovery aside).
mrc_check "no more packets back than answers ($((rx1 - rx0)) <= $resets + 5)" \
	test $((rx1 - rx0)) -le $((resets + 5))

# --- 3. Probes ---------------------------------------------------------------
n_probe=2000
ep0=$(mrc_mib "$A" EpRequestsRecv)
eprl0=$(mrc_mib "$A" EpDropRateLimit)
noconn0=$(mrc_mib "$A" InDropNoConn)
out0=$(mrc_mib "$A" OutPkts)
start=$(date +%s%N)
mrc_check "probe flood sent" \
	python3 "$INJECT" flood-probe --from "$X" --src fd01::2 --to fd01::1 \
	--qpn 0x123456 --count "$n_probe"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
mrc_check "endpoint requests counted (EpRequestsRecv)" \
	mrc_wait_for 30 mrc_mib_at_least "$A" EpRequestsRecv $((ep0 + n_probe / 2))
mrc_check "reliability probes for no connection counted (InDropNoConn)" \
	mrc_wait_for 30 mrc_mib_at_least "$A" InDropNoConn $((noconn0 + n_probe / 2))
answered=$(( $(mrc_mib "$A" OutPkts) - out0 ))
limited=$(( $(mrc_mib "$A" EpDropRateLimit) - eprl0 ))
bound=$(( (ms / 1000 + 2) * 1000 ))
mrc_info "at ${SECONDS}s: probe flood: $n_probe packets in $ms ms; $answered answers, $limited rate-limited"
mrc_check "EV probe answers bounded by the rate limit ($answered <= $bound)" \
	[ "$answered" -le "$bound" ]
mrc_check_eq "answered + rate-limited = endpoint requests" $((n_probe / 2)) \
	$((answered + limited))

log_after=$(mrc_log_lines)
mrc_check_eq "the module logged nothing above debug level" "$log_before" "$log_after"
[ "$log_before" = "$log_after" ] ||
	dmesg -l emerg,alert,crit,err,warn,notice,info | grep -i mrc | tail -5 | sed 's/^/# /'
mrc_done
