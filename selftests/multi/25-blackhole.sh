#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A silent blackhole of one source route, one direction, across two
# kernels (usid, 2 planes, selftests/vm/multi), mid-transfer A->B.
# A has two routes to B on each plane: node.sh's paths 0 and 1 (uSID
# container fc00:0:e0bP::, B's End.DT6 SID of plane P) and paths 2 and 3
# (fc00:0:e0bP:1::, another container inside the same /48, which B's
# End.DT6 takes alike). Path 1's route dies; path 3 shares its plane and
# link. Guest B drops at its pl1 ingress (tc flower, action drop) every
# packet whose outer destination is path 1's container and whose hop
# limit is 7; the fault begins when A's pl1 egress starts setting that
# hop limit on the route's packets (tc pedit, after MRC has sent them),
# so it begins and ends on A's clock, with one local tc command, while B,
# busy receiving, would take seconds to run one. Both links keep their
# carrier, no route changes, no ICMP: nothing tells either kernel, and
# everything else crosses the plane, B->A included. Bounds come from the
# default policy, scaled with mrc_time; times are measured on A's clock
# (the monitor's events carry the kernel's real time) from just before
# the tc command that starts or ends the fault.
#  - B's filter dropped packets: fails when the match misses the route
#    (the test would test nothing);
#  - A finds the dead route: PathToBad counts it, and path 1's EV is
#    ASSUMED_BAD by path id in mrcctl -j conn (fails when A keeps
#    spraying onto a route that delivers nothing, only retransmitting
#    its losses), within rto_max of A's tc command returning (the rule
#    went in during the command; a lost packet's RTO is at most rto_max,
#    and when it expires while later packets are acknowledged on other
#    paths the path is out at once: MRC_LOSS_PATH_SILENT; its SACK gaps
#    usually find it sooner). Fails when the path is found only by the
#    retry budget, or by some slower rule;
#  - its probes go unanswered (ProbesTimeout), and it stays out for the
#    whole fault, except when no other path was in use at all (only then
#    does min-active take a path whose probes go unanswered): fails when
#    an answer is credited across the blackhole or the floor revives it;
#  - paths 0, 2 and 3 stay in use: each sends 500 packets while path 1 is
#    out (fails when the connection stalls or drops a live route with the
#    dead one: path 3 shares its plane), and each is out of use for at
#    most a tenth of the fault (fails when the blackhole is blamed on
#    them; they do leave GOOD now and then, as every path does in this
#    harness: see the report);
#  - every byte is verified by B, and B's longest delivery stall is under
#    2 x rto_max (a packet lost in the blackhole waits at most rto_max
#    for its RTO, and its copy may be lost once more, sent before the
#    path was known bad); fails when a loss waits for a probe, a
#    backed-off timer beyond the policy, or stays on the dead path;
#  - after the fault, path 1 returns to GOOD within 8 x probe_interval
#    (the probe backoff's cap), doubled for each time it came back and
#    failed during the fault (a flap; at most 32 x), plus rto_max for the
#    answers and scheduling, counted from A's tc command returning (the
#    rule went out during it, and on A, busy sending, one tc command takes
#    up to 700 ms); fails when its probes stop or their answers are not
#    counted. Then it carries 500 packets, still GOOD (fails when
#    a path that came back is not used, or fails again on a working
#    route).
# B's own paths (B->A, untouched) are reported, not asserted.
# timeout: 300
. "$(dirname "$0")/lib_multi.sh"

DEAD=1
LIVE="0 2 3"
DST=fc00:0:e0b$DEAD::	# path 1's container: the blackholed route
MARK=7			# the hop limit A's egress gives the route's packets

mrc_module_load
multi_setup usid
mrc_check "A: a second route on each plane (paths 2, 3)" "$MRCCTL" -batch - <<-EOF
	path add 2 dst $MULTI_B_ADDR/128 plane 0 mode usid usid fc00:0:e0b0:1::
	path add 3 dst $MULTI_B_ADDR/128 plane 1 mode usid usid fc00:0:e0b1:1::
EOF
read -r rto_max probe_ivl s2g <<< "$("$MRCCTL" -j policy show default | python3 -c 'import json, sys
p = json.load(sys.stdin)[0]
print(p["rto_max_ns"] // 1000000, p["probe_interval_ns"] // 1000000, p["success_to_good"])')"
rto_max=$(mrc_time "$rto_max")
probe_ivl=$(mrc_time "$probe_ivl")
stall_bound=$((2 * rto_max))
mrc_info "default policy: rto_max $rto_max ms, probe_interval $probe_ivl ms (scaled)," \
	"success_to_good $s2g; stall bound $stall_bound ms"

# a_paths EXPR: EXPR (python) over the paths of A's connections, live
# (also kept in $res/paths-live.json). of(i): path id i's EVs; tx(i):
# their packets sent; is_(i, STATES...): every EV of i in one of STATES.
# A bool sets the exit status, anything else is printed.
a_paths() {
	"$MRCCTL" -j conn > "$res/paths-live.json" || return 1
	python3 -c 'import json, sys
conns = json.load(open(sys.argv[1]))
paths = [p for c in conns for p in c["paths"]]
def of(i):
    return [p for p in paths if p.get("path_id") == i]
def tx(i):
    return sum(p["tx_pkts"] for p in of(i))
def is_(i, *states):
    return bool(of(i)) and all(p["state"] in states for p in of(i))
r = eval(sys.argv[2])
if not isinstance(r, bool):
    print(r)
sys.exit(1 if r is False else 0)' "$res/paths-live.json" "$1"
}
now_ns() { local t=${EPOCHREALTIME/[.,]/}; echo "${t}000"; }	# no fork
live_list() { echo "$LIVE" | tr ' ' ,; }

# B drops the marked packets of the route for the whole test; A marks
# them only during the fault.
mrc_on_exit "on_b 'tc qdisc del dev pl$DEAD clsact'"
mrc_on_exit "tc qdisc del dev pl$DEAD clsact"
mrc_check "B: a drop rule for $DST with hop limit $MARK at pl$DEAD's ingress" \
	on_b "tc qdisc add dev pl$DEAD clsact &&" \
	"tc filter add dev pl$DEAD ingress protocol ipv6 pref 1" \
	"flower dst_ip $DST ip_ttl $MARK action drop"
# A's tc starts the fault at once: its modules loaded, its binary cached.
modprobe -qa sch_ingress cls_flower act_pedit
tc qdisc add dev "pl$DEAD" clsact || mrc_fail "A: clsact on pl$DEAD"
# Real-time priority: A's one CPU is busy sending, and a plain tc took
# 0.7-1.2 s to run there.
bh_on() {
	chrt -f 50 tc filter add dev "pl$DEAD" egress protocol ipv6 pref 1 \
		flower dst_ip "$DST" action pedit ex munge ip6 hoplimit set "$MARK" pass
}
bh_off() { chrt -f 50 tc filter del dev "pl$DEAD" egress pref 1; }

# Both monitors: A's for the times and states, B's for its paths.
mrc_bg "$MRCCTL" -j monitor > "$res/mon-a" 2> "$res/mon-a.err"
mon_a=$MRC_BG_PID
mrc_check "A's monitor is listening" mrc_wait_for 30 grep -q monitoring "$res/mon-a.err"
rm -f "$xres/mon-b" "$xres/mon-b.err"
on_b "$MRCCTL -j monitor > $xres/mon-b 2> $xres/mon-b.err < /dev/null &" \
	"echo \$! >> /tmp/node-pids"
mrc_check "B's monitor is listening" mrc_wait_for 30 grep -q monitoring "$xres/mon-b.err"

bad0=$(mrc_stat PathToBad)
good0=$(mrc_stat PathToGood)
ptmo0=$(mrc_stat ProbesTimeout)
# The fault, run by multi_through once data flows (in a subshell: it
# leaves its findings in files).
blackhole_cycle() {
	local tx p
	now_ns > "$res/on.t0"
	bh_on || { echo "A's marking rule did not go in"; return 1; }
	now_ns > "$res/on.t1"
	mrc_wait_for 30 mrc_stat_at_least PathToBad $((bad0 + 1)) && touch "$res/bad-seen"
	mrc_wait_for 30 a_paths "is_($DEAD, 'assumed-bad')" &&
		cp "$res/paths-live.json" "$res/paths-found.json"
	for p in $LIVE; do
		tx=$(a_paths "tx($p)")
		mrc_wait_for 30 a_paths "tx($p) >= $((tx + 500))" && touch "$res/live-carried-$p"
	done
	mrc_wait_for 30 mrc_stat_at_least ProbesTimeout $((ptmo0 + 1)) &&
		touch "$res/probe-timeout-seen"
	now_ns > "$res/off.t0"
	bh_off || { echo "A's marking rule did not go away"; return 1; }
	now_ns > "$res/off.t1"
	mrc_wait_for 30 a_paths "is_($DEAD, 'good', 'skip')" &&
		mrc_stat_at_least PathToGood $((good0 + 1)) && touch "$res/back"
	tx=$(a_paths "tx($DEAD)")
	mrc_wait_for 30 a_paths "tx($DEAD) >= $((tx + 500)) and is_($DEAD, 'good', 'skip')" &&
		touch "$res/carried-again"
	return 0
}
mrc_check "blackhole of path $DEAD's route ($DST) and repair: every byte verified" \
	multi_through bh blackhole_cycle
multi_report bh
kill "$mon_a" 2>/dev/null
wait "$mon_a" 2>/dev/null
cp "$res/mon-a" "$res"/*.t[01] "$xres/" 2>/dev/null	# for whoever reads a failure

drops=$(on_b "tc -s filter show dev pl$DEAD ingress" | awk '/Sent/ { n += $4 } END { print n + 0 }')
mrc_check "B's filter dropped the route's packets (${drops:-0})" [ "${drops:-0}" -gt 0 ]
mrc_check "A counted the dead path (PathToBad +$(($(mrc_stat PathToBad) - bad0)))" \
	test -e "$res/bad-seen"
mrc_check "path $DEAD's EV is ASSUMED_BAD by path id in mrcctl -j conn" \
	test -e "$res/paths-found.json"
mrc_check "probes of the dead path went unanswered (ProbesTimeout +$(($(mrc_stat ProbesTimeout) - ptmo0)))" \
	test -e "$res/probe-timeout-seen"
for p in $LIVE; do
	mrc_check "path $p sent 500 packets while path $DEAD was out" test -e "$res/live-carried-$p"
done

# From A's monitor, on A's clock: when path 1 went out after the fault
# began; its returns during the fault, and how many came while no live
# path was in use (the floor's only case for it); each live path's time
# out of use during the fault; path 1's first return after the fault.
read -r det_ms det_lo det_reason ret_all ret_alone live_out_ms live_out_n fault_ms on_ms off_ms \
	back_ms back_lo back_reason <<< "$(python3 - "$res/mon-a" "$(cat "$res/on.t0" 2>/dev/null)" \
	"$(cat "$res/on.t1" 2>/dev/null)" "$(cat "$res/off.t0" 2>/dev/null)" \
	"$(cat "$res/off.t1" 2>/dev/null)" "$DEAD" \
	"$(live_list)" <<'PY'
import json, sys
f, on0, on1, off0, off1 = sys.argv[1], *(int(x or 0) for x in sys.argv[2:6])
dead, live = int(sys.argv[6]), [int(x) for x in sys.argv[7].split(",")]
ev = []
for line in open(f):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("type") == "path-state" and e.get("old_state") != e.get("new_state"):
        ev.append(e)
use = ("good", "skip")
state = {}          # (path, ev) -> state; every path starts GOOD
out_since = {}      # live path -> when it went out of use during the fault
out_ns = {p: 0 for p in live}
out_n = {p: 0 for p in live}
left = det = back = None
ret_all = ret_alone = 0
def in_use(p):
    return any(s in use for (q, _), s in state.items() if q == p) or \
        not any(q == p for (q, _) in state)
for e in ev:
    t, p = e["timestamp_ns"], e.get("path")
    was = in_use(p)
    if p == dead and e["old_state"] == "assumed-bad" and e["new_state"] in use:
        alone = not any(in_use(q) for q in live)
        if on0 <= t < off0 and left is not None and left >= on1:
            ret_all += 1        # out after the rule was surely in: a return
            ret_alone += alone  # is only for a connection with nothing else
        if on0 <= t < off0 and not alone:
            det = None          # that departure was not the blackhole's
        if t >= off0 and back is None:
            back = e
    state[(p, e.get("ev"))] = e["new_state"]
    if p == dead and was and not in_use(p):
        left = t
        if det is None and on0 <= t < off0:
            det = e
    if p in live and on0 <= t < off0:
        if was and not in_use(p):
            out_since[p] = t
            out_n[p] += 1
        elif not was and in_use(p) and p in out_since:
            out_ns[p] += t - out_since.pop(p)
for p, t in out_since.items():
    out_ns[p] += off0 - t
ms = lambda ns: "%.1f" % (ns / 1e6)
print(ms(det["timestamp_ns"] - on0) if det else "none", ms(det["timestamp_ns"] - on1) if det else "none",
      det.get("reason") if det else "none",
      ret_all, ret_alone, ",".join(ms(out_ns[p]) for p in live),
      ",".join(str(out_n[p]) for p in live), ms(off0 - on0), ms(on1 - on0), ms(off1 - off0),
      ms(back["timestamp_ns"] - off0) if back else "none",
      ms(back["timestamp_ns"] - off1) if back else "none", back.get("reason") if back else "none")
PY
)"
mrc_info "path $DEAD out $det_ms ms after the fault began (reason $det_reason; A's tc took" \
	"$on_ms ms), back $back_ms ms after it ended (reason $back_reason; A's tc took $off_ms ms);" \
	"the fault lasted $fault_ms ms"
mrc_info "during the fault: path $DEAD came back $ret_all times ($ret_alone with no live path in use);" \
	"paths $(live_list) went out $live_out_n times, for $live_out_ms ms"
below() { python3 -c "import sys; sys.exit(0 if float('$1') < float('$2') else 1)" 2>/dev/null; }
mrc_check "path $DEAD out within rto_max = $rto_max ms of the rule ($det_lo ms after A's tc returned)" \
	below "$det_lo" "$rto_max"
mrc_check "path $DEAD came back during the fault only with no live path in use ($ret_all, $ret_alone)" \
	[ "$ret_all" = "$ret_alone" ]
i=0
for p in $LIVE; do
	i=$((i + 1))
	t=$(echo "$live_out_ms" | cut -d, -f$i)
	mrc_check "path $p out of use at most a tenth of the fault ($t of $fault_ms ms)" \
		python3 -c "import sys; sys.exit(0 if 10 * float('$t') <= float('$fault_ms') else 1)"
done
mrc_check "longest stall under 2 x rto_max = $stall_bound ms" multi_stall_below bh "$stall_bound"
mrc_check "fault over: path $DEAD GOOD again (PathToGood +$(($(mrc_stat PathToGood) - good0)))" \
	test -e "$res/back"
flaps=$((ret_all > 5 ? 5 : ret_all))
back_bound=$((8 * probe_ivl * (1 << flaps) + rto_max))
mrc_check "fault over: path $DEAD GOOD within $back_bound ms of A's tc returning ($back_lo ms)" \
	below "$back_lo" "$back_bound"
mrc_check "fault over: path $DEAD carried 500 packets again, still GOOD" \
	test -e "$res/carried-again"

# B's view of its own paths, B->A, which the fault does not touch.
mrc_info "B's path state changes: $(python3 -c 'import json, sys
n = {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") == "path-state":
        n[e.get("path")] = n.get(e.get("path"), 0) + 1
print(" ".join("path %s: %d" % kv for kv in sorted(n.items())) or "none")' "$xres/mon-b" 2>&1)"
mrc_done
