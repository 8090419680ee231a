#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The namespace's probe budget when many connections lose the same paths
# at once (issue #17; path-state-machine.md section 7, "the namespace's
# budget"). 200 connections A->B on the reference fabric (usid, 4 planes
# x 2 spines: each connection has the same 8 routes) send, 100 kbit/s
# each, while A's links
# of planes 1 and 3 lose everything A sends on them (netem, the links stay
# up, ICMPv6 spared as in 42-faults-oneway): 4 paths of every connection
# fail together, 800 dead paths, each probed every probe interval (5 ms,
# backed off to 40): they ask for 20,000 to 160,000 probes a second, and
# the namespace may send 1000 (module parameter probe_budget, 4000 by
# default; in 100 ms windows; a probe over it waits and counts in
# PathProbeDeferred). A's MIB is sampled every 250 ms from
# before the fault to after its repair. Asserted:
# - the budget: between any two samples, A sent no more probes than the
#   budget's windows in that span allow, plus the probes outside the
#   budget (persist probes; keepalive is off), while somewhere the probes
#   asked for (sent and held back) exceeded that bound;
# - PathProbeDeferred moved during the fault (demand exceeded the
#   budget), PathProbeShared after the repair (one connection's answer
#   stood for the others' probes of the same route);
# - per connection and path id, from A's mrcctl monitor: a dead path
#   goes out at most once while the fault is in place and never returns
#   (GOOD <-> SKIP is not a return), a healthy one changes state at most
#   4 times; PathFlaps counts no flap that no return preceded; after the
#   repair every dead path is back, and changes state at most 5 times
#   (its return, then as a live path);
# - every byte of every connection verified.
# The failure policy is 73's (fit for 200 senders in the emulated VM)
# with rto-min 200ms and rto-max 2s. rto_min: persist probes, outside the
# budget, come at most one per connection per rto_min, and a bound that
# allows 200 of them every 20 ms could not tell a budget from none.
# rto_max: a connection that moved no data for rto_max stops probing,
# and 200 senders sharing the emulated VM's CPUs may each wait over a
# second between writes. The probe interval is the default's: it makes
# the demand.
# Not in make check: make check-slow runs it. The emulated fabric does
# not carry this load reliably (see CONN_RATE and RATE below): on
# 2026-11-29, alone on the 2-core machine, 5 runs of 5 failed: the
# connections' live paths went out by timeout and came back by the floor
# over and over, the spurious path timeouts issue #14 is about (the
# best, at a budget of 1000, failed one bound: a live path changed state
# 5 times after the repair, against 4). CI at 318c833 failed on it.
# suite: slow
# timeout: 400
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

STRESS=$MRC_BUILD/progs/mrc_stress
# A debug kernel could not carry 200 senders and their probes (74 opens
# 40 there for the same reason).
N=$((MRC_TEST_TIME_SCALE > 1 ? 40 : 200))
DEAD_IDS=2,3,6,7	# planes 1 and 3 (path id p x 2 + s)
FAULT_S=5		# the fault holds this long once every dead path is out
PERIOD=0.25		# the sampler's period, seconds
# The namespaces' probe budget (module parameter probe_budget), per
# second, in 100 ms windows. Not the default 4000: probes and their
# answers at 4000 a second are most of what the emulated fabric carries
# (2026-11-29: 72% of A's packets), and then the live paths' data waits
# past its RTO, the live paths go out by timeout and come back by the
# floor over and over (RetxRto 41,000-78,000 where 7,000-9,000 passed),
# 3 runs of 3 that day; CI at 318c833 ran 370 s of the 400. At 1000 the
# demand of 800 dead paths is still 20 to 160 times the budget.
RATE=1000
CONN_RATE=0.1		# Mbit/s each connection sends: 20 Mbit/s in all
mrc_module_load
# The budget of the namespaces this test creates (the module parameter is
# read when a namespace is made; restored at exit for the tests after).
budget_param=/sys/module/mrc/parameters/probe_budget
budget_default=$(cat "$budget_param")
mrc_on_exit "echo $budget_default > $budget_param"
echo "$RATE" > "$budget_param"
mrc_check_eq "probe_budget set for this test's namespaces" "$RATE" "$(cat "$budget_param")"
mrc_fabric_build 4 2 || { mrc_fail "fabric"; mrc_done; }
mrc_check "configure usid paths" mrc_fabric_mrc_config usid
A=$FAB_A
B=$FAB_B
for ns in "$A" "$B"; do
	in_ns "$ns" "$MRCCTL" policy set default rto-min "$(mrc_time 200)ms" \
		rto-max "$(mrc_time 2)s" retry-limit 30 fail-to-bad 4
done
dir=$(mrc_tmpdir)
read -r rto_min_ms ivl_ms < <(in_ns "$A" "$MRCCTL" -j policy show default |
	python3 -c "import json, sys; p = json.load(sys.stdin)[0]
print(p['rto_min_ns'] // 10**6, p['probe_interval_ns'] // 10**6)")
PER_WINDOW=$((RATE / 10))
ivl=$((ivl_ms > 0 ? ivl_ms : 1))
mrc_info "policy: rto_min $rto_min_ms ms, probe interval $ivl_ms ms: $((4 * N)) dead paths" \
	"ask for $((4 * N * 1000 / (8 * ivl))) to $((4 * N * 1000 / ivl)) probes a second" \
	"(backed off to 8 intervals, or not), against a budget of $RATE"

jnum() { # FILE KEY: a number of the one-line JSON the program writes
	grep -o "\"$2\": [0-9.]*" "$1" 2>/dev/null | head -1 | awk '{ print $2 }'
}
established() { # NS: connections in state established
	mrcctl_count_rows in_ns "$1" "$MRCCTL" conn show state established
}
# conns_check EXPR: EXPR over A's connections now (dead: the paths of
# planes 1 and 3 of each connection, live: the others); the connections
# go to $dir/conns.json.
conns_check() {
	in_ns "$A" "$MRCCTL" -j conn show > "$dir/conns.json" || return 1
	python3 -c 'import json, sys
conns = [c for c in json.load(open(sys.argv[1])) if c.get("paths")]
ids = [int(x) for x in sys.argv[3].split(",")]
dead = [[p for p in c["paths"] if p.get("path_id") in ids] for c in conns]
live = [[p for p in c["paths"] if p.get("path_id") not in ids] for c in conns]
sys.exit(0 if len(conns) == int(sys.argv[4]) and eval(sys.argv[2]) else 1)' \
		"$dir/conns.json" "$1" "$DEAD_IDS" "$N"
}
all_dead_out='all(len(d) == 4 and all(p["state"] == "assumed-bad" for p in d) for d in dead)'
# conns_summary: what the last conns_check saw, for a failure: A's
# connections by state, and their dead and live paths by state, reason and
# whether they carried data.
conns_summary() {
	python3 -c 'import json, sys, collections
conns = json.load(open(sys.argv[1]))
ids = [int(x) for x in sys.argv[2].split(",")]
cs = collections.Counter(c["state"] for c in conns)
d, l = collections.Counter(), collections.Counter()
for c in conns:
    for p in c.get("paths", []):
        k = "%s/%s/%s" % (p["state"], p["reason"], "tx" if p["tx_pkts"] else "no-tx")
        (d if p.get("path_id") in ids else l)[k] += 1
print("A: %d connections %s; dead paths %s; live paths %s" % (len(conns), dict(cs), dict(d), dict(l)))' \
		"$dir/conns.json" "$DEAD_IDS"
}
all_back='all(p["state"] in ("good", "skip") for c in dead + live for p in c)'

# A loses what it sends on DEV, ICMPv6 spared (neighbour discovery: with
# it lost, the leaf would soon stop resolving A, and B->A would die too).
oneway_on() {
	tc -n "$A" qdisc add dev "$1" root handle 1: prio bands 3 \
		priomap 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 &&
	tc -n "$A" qdisc add dev "$1" parent 1:3 handle 30: netem loss 100% &&
	tc -n "$A" filter add dev "$1" parent 1: protocol ipv6 prio 1 \
		u32 match ip6 protocol 58 0xff flowid 1:1
}

mrc_bg_in_ns "$A" "$MRCCTL" -j monitor > "$dir/mon" 2> "$dir/mon.err"
mrc_check "A's monitor is listening" mrc_wait_for 30 grep -q monitoring "$dir/mon.err"
lines() { wc -l < "$dir/mon"; }

# The sampler: A's counters every PERIOD, each line the monotonic time
# before and after the read, then the counters, until $dir/stop-sampler.
cat > "$dir/sampler.py" <<'EOF'
import os, sys, time
out, stop, period = sys.argv[1], sys.argv[2], float(sys.argv[3])
keys = ("ProbesSent", "PathProbeDeferred", "PathProbeShared", "PathFlaps")
with open(out, "w") as f:
    while not os.path.exists(stop):
        t0 = time.monotonic()
        with open("/proc/net/mrc_stat") as s:
            mib = dict(l.split()[:2] for l in s if len(l.split()) >= 2)
        t1 = time.monotonic()
        f.write("%.6f %.6f %s\n" % (t0, t1, " ".join(mib.get(k, "0") for k in keys)))
        f.flush()
        time.sleep(max(0.0, period - (time.monotonic() - t0)))
EOF
# mark NAME: the sampler's clock now, for the spans below.
mark() { python3 -c 'import time; print("%.6f" % time.monotonic())' > "$dir/$1.t"; }

mrc_bg_in_ns "$B" "$STRESS" server -p 7000 >"$dir/server.out" 2>"$dir/server.err"
srv=$MRC_BG_PID
mrc_wait_for 30 grep -q listening "$dir/server.err"
# Every connection sends until $dir/stop, at CONN_RATE (verified to its
# end by the server). The probes make the demand, not the data: each
# connection only needs data on all its paths (a dead path is found by
# its losses) and data moving (probing pauses after rto_max without). At
# full speed, 200 senders overran the emulated fabric now and then even
# on a quiet machine (2026-11-29: RetxRto 78,254, live paths out by
# timeout and back by the floor over and over, 293 s), and CI at
# 318c833, 2 to 3 times slower, ran 370 s of the 400.
mrc_bg_in_ns "$A" "$STRESS" client -c "$FAB_B_ADDR" -p 7000 --conns $N \
	--until "$dir/stop" --hold "$dir/go" --deadline "$(mrc_time 300)" \
	--conn-rate "$CONN_RATE" \
	>"$dir/client.out" 2>"$dir/client.err"
cli=$MRC_BG_PID
mrc_check "$N connections established" \
	mrc_wait_for 120 grep -q "^established $N\$" "$dir/client.err"
mrc_wait_for 60 eval '[ "$(established "$B")" = "$N" ]'
touch "$dir/go"
in0=$(mrc_mib "$B" InBytes)
mrc_check "data flows on every connection's 8 paths" \
	mrc_wait_for 60 conns_check 'all(len(d) + len(l) == 8 for d, l in zip(dead, live)) and all(p["tx_pkts"] > 0 for c in dead + live for p in c)' || mrc_info "$(conns_summary)"

mrc_bg_in_ns "$A" python3 "$dir/sampler.py" "$dir/samples" "$dir/stop-sampler" "$PERIOD"
mrc_check "the sampler runs" mrc_wait_for 30 test -s "$dir/samples"

# ---- the fault ----
# the dead paths in use as it begins: each must show its failure
in_use=$(conns_check True && python3 -c 'import json, sys
ids = [int(x) for x in sys.argv[2].split(",")]
print(sum(p["state"] in ("good", "skip") for c in json.load(open(sys.argv[1]))
          for p in c.get("paths", []) if p.get("path_id") in ids))' "$dir/conns.json" "$DEAD_IDS")
flaps0=$(mrc_mib "$A" PathFlaps)
mark fault
t_fault=$(date +%s%N)
oneway_on pl1
oneway_on pl3
# The fault is in place from here: on a loaded machine the six tc
# commands above take seconds, and until the last a path of plane 3 still
# works (it may leave and return, as any live path may).
t_on=$(date +%s%N)
mrc_check "every connection's 4 paths of planes 1 and 3 go ASSUMED_BAD" \
	mrc_wait_for 120 conns_check "$all_dead_out" || mrc_info "$(conns_summary)"
detect_ms=$((($(date +%s%N) - t_fault) / 1000000))
# The fault holds: the dead paths' probes go on, unanswered.
sleep "$FAULT_S"
mrc_check "the 4 dead paths of every connection still ASSUMED_BAD at the end of the fault" \
	conns_check "$all_dead_out" || mrc_info "$(conns_summary)"
cp "$dir/conns.json" "$dir/conns-fault.json"
flaps1=$(mrc_mib "$A" PathFlaps)
mark repair
t_repair=$(date +%s%N)
tc -n "$A" qdisc del dev pl1 root
tc -n "$A" qdisc del dev pl3 root
mrc_check "after the repair every path of every connection is back in use" \
	mrc_wait_for 120 conns_check "$all_back" || mrc_info "$(conns_summary)"
back_ms=$((($(date +%s%N) - t_repair) / 1000000))
mark back
touch "$dir/stop-sampler"
in1=$(mrc_mib "$B" InBytes)

# ---- the senders finish; every byte verified ----
touch "$dir/stop"
wait "$cli"
mrc_check_eq "client: every connection completed" 0 "$?"
mrc_info "client: $(cat "$dir/client.out") $(tail -2 "$dir/client.err")"
mrc_check_eq "client: $N completed" $N "$(jnum "$dir/client.out" completed)"
kill "$srv"
wait "$srv"
mrc_info "server: $(cat "$dir/server.out")"
mrc_check_eq "server: $N verified to their end" $N "$(jnum "$dir/server.out" completed)"
mrc_check_eq "server: nothing failed" 0 "$(jnum "$dir/server.out" failed)"

# ---- the budget ----
# The sampler's spans: any two of its samples from the one before the
# fault to the one after every path was back. A span of D ms holds at
# most ceil(D / 100) + 1 of the budget's windows (each lasts over 100 ms:
# kernel ratelimit, a new window begins at the first probe after the
# last one ended), plus one for a probe let through just before the span
# and counted just after: PER_WINDOW x (ceil(D / 100) + 2). Outside the
# budget: the persist probe, one per connection at a time and at most one
# per RTO (at least rto_min) each: N x (floor(D / rto_min) + 1);
# keepalive is off. Fails if the budget is not enforced (the dead paths
# ask for several times the budget, above), or counts per connection, or
# lets a window through twice.
python3 - "$dir/samples" "$(cat "$dir/fault.t")" "$(cat "$dir/back.t")" \
	"$PER_WINDOW" "$N" "$rto_min_ms" > "$dir/budget" <<'EOF'
import math, sys
path, t_fault, t_back = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
per_window, n, rto_min = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
rows = [[float(x) for x in l.split()] for l in open(path) if len(l.split()) == 6]
# from the last sample before the fault to the first after the repair
first = max([i for i, r in enumerate(rows) if r[1] <= t_fault] or [0])
last = min([i for i, r in enumerate(rows) if r[0] >= t_back] or [len(rows) - 1])
rows = rows[first:last + 1]
worst, over, rate1s, asked = None, 0, 0.0, 0.0
for i in range(len(rows)):
    for j in range(i + 1, len(rows)):
        d = (rows[j][1] - rows[i][0]) * 1000
        sent = rows[j][2] - rows[i][2]
        bound = per_window * (math.ceil(d / 100) + 2) + n * (math.floor(d / rto_min) + 1)
        over += sent > bound
        if worst is None or sent / bound > worst[0]:
            worst = (sent / bound, d, sent, bound)
        if d >= 1000:
            rate1s = max(rate1s, sent * 1000 / d)
        # what was asked for: sent, and held back by the budget
        asked = max(asked, (sent + rows[j][3] - rows[i][3]) / bound)
span = (rows[-1][1] - rows[0][0]) if rows else 0
print(len(rows), over, "%.2f %.0f %d %d" % worst if worst else "0 0 0 0",
      "%.0f" % rate1s, "%.1f" % span, "%.2f" % asked,
      int(rows[-1][2] - rows[0][2]) if rows else 0,	# probes sent
      int(rows[-1][3] - rows[0][3]) if rows else 0)	# deferred
EOF
read -r n_samples over w_ratio w_ms w_sent w_bound rate1s span asked sent deferred < "$dir/budget"
mrc_info "A's probes from the fault to the repair's end (${span} s, $n_samples samples):" \
	"sent $sent, held back by the budget $deferred (PathProbeDeferred);" \
	"at most ${rate1s} a second over any span of 1 s or more; closest to its bound:" \
	"$w_sent in $w_ms ms against $w_bound (ratio $w_ratio); asked for (sent and held back)" \
	"up to $asked x the bound"
mrc_check "enough samples to judge ($n_samples, one per ${PERIOD} s)" \
	test "$n_samples" -ge 8
mrc_check_eq "A never sent more probes than the budget allows (spans over the bound)" 0 "$over"
# That the check above can fail: somewhere the probes asked for (sent,
# and held back by the budget) exceeded the bound. A held-back probe
# retries 100 to 200 ms later where a sent one that fails backs off to
# 8 probe intervals (40 ms): without the budget more would have gone out
# than were asked for here. Fails if the fault asks for too few probes
# for the budget to matter (too few dead paths, connections idle).
if [ "$MRC_TEST_TIME_SCALE" -gt 1 ]; then
	mrc_skip "probes asked for exceeded the bound ($asked x)" \
		"a debug kernel sends too slowly to reach the budget"
else
	mrc_check "probes asked for exceeded the bound ($asked x): the budget held them" \
		python3 -c "import sys; sys.exit(0 if $asked > 1 else 1)"
fi
# Fails if the probes of 800 dead paths never met the budget: the fault
# did not fail the paths together, or the connections stopped probing.
if [ "$MRC_TEST_TIME_SCALE" -gt 1 ]; then
	mrc_skip "demand exceeded the budget (PathProbeDeferred +$deferred)" \
		"a debug kernel sends too slowly to reach the budget"
else
	mrc_check "demand exceeded the budget (PathProbeDeferred +$deferred)" \
		test "$deferred" -gt 0
fi
shared=$(python3 -c 'import sys
rows = [[float(x) for x in l.split()] for l in open(sys.argv[1]) if len(l.split()) == 6]
t = float(sys.argv[2])
before = [r for r in rows if r[1] <= t]
print(int(rows[-1][4] - (before[-1][4] if before else rows[0][4])))' "$dir/samples" "$(cat "$dir/repair.t")")
# After the repair the 800 paths' probes are answered, and an answer
# for one connection stands for the others' due within the path's probe
# interval (usid: one route per path id). Fails if answers are not
# shared across connections.
mrc_check "after the repair, answers shared (PathProbeShared +$shared)" test "$shared" -gt 0

# ---- per path: state changes and flaps ----
# changes FROM:TO...: for each window, a line: per connection and path
# id, the state changes of A's monitor events stamped FROM <= t < TO (ns,
# the kernel's real time, the clock of date(1) here): the most changes of a dead path and of a live
# one, a dead path's returns (ASSUMED_BAD to GOOD or SKIP) other than
# last-resort ones, the most times a dead path went out beyond its
# last-resort returns, dead paths that went out, all returns, last-resort
# returns of dead paths; then the worst paths' changes. GOOD <-> SKIP is
# not a return: a path whose packet was lost is skipped for skip_time,
# then sent on again until fail_to_bad losses take it out. A last-resort
# return (path-state-machine.md section 4) is the floor's (min-active)
# when the connection has no other path in use: then the least bad
# ASSUMED_BAD path carries the data, dead or not. Every event, from the
# monitor's start, keeps each connection's path states (a connection's
# paths start GOOD: 8 paths, none over max-paths) to tell. The monitor
# file is read once for all the windows.
changes() {
	python3 -c 'import json, sys, collections
ids = [int(x) for x in sys.argv[1].split(",")]
wins = [tuple(int(t) for t in w.split(":")) for w in sys.argv[3:]]
ns = [collections.defaultdict(list) for w in wins]
state = collections.defaultdict(dict)
for line in open(sys.argv[2]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if "path" not in e or "conn" not in e or e.get("old_state") == e.get("new_state"):
        continue
    paths = state[e["conn"]]
    others = [paths.get(k, "good") for k in range(8) if k != e["path"]]
    e["resort"] = (e["old_state"] == "assumed-bad" and e.get("reason") == "min-active" and
                   not any(s in ("good", "skip") for s in others))
    paths[e["path"]] = e["new_state"]
    for (t0, t1), n in zip(wins, ns):
        if t0 <= e.get("timestamp_ns", 0) < t1:
            n[(e["conn"], e["path"])].append(e)
def ret(e): return e["old_state"] == "assumed-bad" and e["new_state"] in ("good", "skip")
def out(e): return e["new_state"] == "assumed-bad"
def worst(n, dead):
    v = [x for k, x in n.items() if (k[1] in ids) == dead]
    return max(v, key=len) if v else []
def show(v):
    return "|".join("%s:%s>%s:%s%s" % (e["path"], e["old_state"], e["new_state"], e.get("reason"),
                                       "(last-resort)" if e["resort"] else "") for e in v) or "-"
for n in ns:
    dead = [x for k, x in n.items() if k[1] in ids]
    dead_ret = sum(1 for x in dead for e in x if ret(e) and not e["resort"])
    dead_resort = sum(1 for x in dead for e in x if e["resort"])
    dead_outs = max([sum(1 for e in x if out(e)) - sum(1 for e in x if e["resort"]) for x in dead] or [0])
    dead_out = sum(1 for x in dead if any(out(e) for e in x))
    returns = sum(1 for x in n.values() for e in x if ret(e))
    print(len(worst(n, True)), len(worst(n, False)), dead_ret, dead_outs, dead_out, returns,
          dead_resort, show(worst(n, True)), show(worst(n, False)))' \
		"$DEAD_IDS" "$dir/mon" "$@"
}
l_end=$(lines)
t_end=$(($(date +%s%N) + 1000000000))
mapfile -t win < <(changes "$t_fault:$t_repair" "$t_on:$t_repair" "0:$t_repair" "$t_repair:$t_end")
read -r _ _ _ _ f_dead_out _ _ _ _ <<< "${win[0]}"
read -r _ f_live f_dead_ret f_dead_outs _ _ f_resort f_dead_w f_live_w <<< "${win[1]}"
read -r _ _ _ _ _ returns_before _ _ _ <<< "${win[2]}"
read -r r_dead r_live _ _ _ r_returns _ r_dead_w r_live_w <<< "${win[3]}"
mrc_info "A's monitor: $l_end events; during the fault $f_dead_out dead paths went out" \
	"(found in $detect_ms ms), worst dead path $f_dead_w, worst live path $f_live_w," \
	"last-resort returns of dead paths $f_resort;" \
	"after the repair (all back in $back_ms ms) $r_returns returns, worst dead path $r_dead_w," \
	"worst live path $r_live_w; EventsDropped $(mrc_mib "$A" EventsDropped);" \
	"B received $(((in1 - in0) >> 20)) MiB from the first data to the repair's end"
# Fails if the monitor lost events, which would make every bound below
# pass on missing data: each dead path in use when the fault began has
# its event.
mrc_check "the monitor saw every dead path in use go out ($f_dead_out of $in_use; $((4 * N)) dead)" \
	test "$f_dead_out" -ge "$in_use"
# A dead path cannot come back while the fault lasts: its probes go
# unanswered, a probe held back by the budget is not an answer, no other
# connection gets an answer over a dead route (one from just before the
# fault stands for one probe at most, and a return takes success_to_good
# answers in a row), and the floor takes back only a path whose probes
# are answered. So, once the fault is in place, a dead path goes out at
# most once (it may already be out) and never returns, but as the last
# resort of a connection whose every path is out (on a machine too slow
# for the senders the live paths time out too; reported). Fails
# if a deferred probe or a shared answer is credited as an answer (the
# path returns, fails again: a flap, backed off to about 2 returns a
# second).
mrc_check "dead paths: out at most once each while the fault is in place, but after a last resort ($f_dead_w)" \
	test "$f_dead_outs" -le 1
mrc_check_eq "dead paths: no return from ASSUMED_BAD while the fault is in place, but as a last resort" 0 "$f_dead_ret"
# A healthy path may be taken out spuriously on a loaded machine: it
# returns after success_to_good answers, and failing again within 16
# probe intervals of its return is a flap, which backs its probes off:
# 4 changes allow one spurious failure and one flap (42-faults-oneway's
# bound). Fails if the dead paths' probes and their budget crowd out
# the healthy paths (their losses blamed on them).
mrc_check "live paths: at most 4 state changes each during the fault ($f_live_w)" \
	test "$f_live" -le 4
# A flap is a failure of a path within 16 probe intervals of its return
# (MRC_PATH_FLAP_WINDOW): no flap without a return before it. Fails if
# PathFlaps counts dead paths that never came back.
mrc_check "PathFlaps during the fault (+$((flaps1 - flaps0))) within the returns before it ($returns_before)" \
	test $((flaps1 - flaps0)) -le "$returns_before"
# After the repair each dead path returns once (PROBE_OK: its probes
# answered success_to_good times in a row); from then on it is a live
# path, which on a loaded machine may be taken out spuriously once and
# flap once (4 changes, as above; 200 senders in the emulated VM). Fails
# if returning paths keep flapping (about 2 returns a second with the flap
# backoff).
mrc_check "after the repair: at most 1 + 4 changes per dead path ($r_dead_w)" \
	test "$r_dead" -le 5
mrc_check "after the repair: live paths at most 4 changes each ($r_live_w)" \
	test "$r_live" -le 4
mrc_info "PathFlaps: +$((flaps1 - flaps0)) during the fault, $(mrc_mib "$A" PathFlaps) in all;" \
	"A: $(mrc_mib_nonzero "$A")"
mrc_done
