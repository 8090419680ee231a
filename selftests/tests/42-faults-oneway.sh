#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Failures in one direction only (issue #17), on the reference fabric
# (usid, 4 planes x 2 spines), during one A->B transfer that mrc-perf
# verifies byte for byte: a plane's link loses everything one host sends
# on it (netem loss 100% on that host's plN: the link stays up, nothing
# tells either end) while the other direction of the plane works.
#  (a) B->A of plane 1: B, the receiver, sends its SACKs into the hole.
#      Nothing comes back for a SACK, so B's reverse-liveness probes find
#      it: B's paths of plane 1 (path ids 2, 3) go ASSUMED_BAD (probe-fail)
#      by path id in mrcctl -j conn and in B's mrcctl monitor, B's other
#      paths and A's forward paths stay in use.
#  (b) A->B of plane 1: A's paths of plane 1 go ASSUMED_BAD; B's reverse
#      view of plane 1 stays GOOD (its probes there are answered on A's
#      working planes).
#  (c) both at once on different planes: B->A of plane 1, A->B of plane 3.
# Each fault is repaired before the next, and its paths come back. The
# loss spares ICMPv6: with neighbour discovery lost too, the leaf would
# soon fail to resolve the host and the other direction would die as well.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"
faults_setup

mrc_bg_in_ns "$FAB_B" "$MRCCTL" -j monitor > "$res/mon-b" 2> "$res/mon-b.err"
mrc_check "B's monitor is listening" mrc_wait_for 30 grep -q monitoring "$res/mon-b.err"

mrc_check "the one-way fault's qdiscs are ready (B pl1, A pl1, A pl3)" \
	eval 'faults_oneway_prepare "$FAB_B" pl1 && faults_oneway_prepare "$FAB_A" pl1 &&
		faults_oneway_prepare "$FAB_A" pl3'

# side_check a|b EXPR [FILE]: EXPR over the paths of that host's
# connections (from FILE, else live): paths (all), p1 (path ids 2, 3:
# plane 1), p3 (ids 6, 7: plane 3), rest(ids...) (the others). Prints them.
side_check() {
	local side=$1 expr=$2 file=${3:-}
	if [ -z "$file" ]; then
		file=$res/live-$side.json
		if [ "$side" = a ]; then
			faults_ctl_a -j conn > "$file"
		else
			in_ns "$FAB_B" "$MRCCTL" -j conn > "$file"
		fi
	fi
	python3 -c 'import json, sys
conns = json.load(open(sys.argv[1]))
paths = [p for c in conns for p in c["paths"]]
p1 = [p for p in paths if p.get("path_id") in (2, 3)]
p3 = [p for p in paths if p.get("path_id") in (6, 7)]
def rest(*ids):
    return [p for p in paths if p.get("path_id") not in ids]
def out(ps):
    return sum(p["state"] not in ("good", "skip") for p in ps)
print(" ".join("%s:%s:%s:%sus" % (p.get("path_id"), p["state"], p["reason"], p["srtt_us"]) for p in paths))
sys.exit(0 if conns and p1 and eval(sys.argv[2]) else 1)' "$file" "$expr"
}
bad() { echo "all(p[\"state\"] == \"assumed-bad\" for p in $1)"; }
good() { echo "all(p[\"state\"] == \"good\" for p in $1)"; }

# monitor_count FROM_LINE EXPR: events of B's monitor after line FROM_LINE
# for which EXPR (over e) holds.
monitor_count() {
	tail -n +"$(($1 + 1))" "$res/mon-b" | python3 -c 'import json, sys
n = 0
for line in sys.stdin:
    try:
        e = json.loads(line)
    except ValueError:
        continue
    n += bool(eval(sys.argv[1]))
print(n)' "$2"
}
lines() { wc -l < "$res/mon-b"; }

# Detection bound, from the policy: B waits 4 probe intervals of silence
# on a path that carries its SACKs (MRC_PATH_REV_MULT), then fail_to_bad
# (2) probes go unanswered, one interval each: 6 intervals (30 ms with the
# defaults). A waits one RTO per dead path. Waited for with a margin of
# seconds (a loaded VM), reported in ms.
ivl=$(faults_policy_ms probe_interval)
now_ms() { date +%s%3N; }

oneway_faults() {
	# ---- (a) B->A of plane 1 ----
	l0=$(lines)
	sout0=$(mrc_mib "$FAB_B" SackOut)
	sin0=$(mrc_mib "$FAB_A" SackIn)
	t0=$(now_ms)
	echo "$t0" > "$res/a.fault-at-ms"	# wall clock, as the monitor's timestamp_ns
	faults_oneway_on "$FAB_B" pl1
	mrc_wait_for 10 side_check b "$(bad p1)" >/dev/null &&
		echo $(($(now_ms) - t0)) > "$res/a.detect-ms"
	sleep 0.5	# the fault lasts: whatever else it does shows now
	side_check b true > /dev/null; cp "$res/live-b.json" "$res/a-b.json"
	side_check a true > /dev/null; cp "$res/live-a.json" "$res/a-a.json"
	echo $(($(mrc_mib "$FAB_B" SackOut) - sout0 - $(mrc_mib "$FAB_A" SackIn) + sin0)) \
		> "$res/a.sacks-lost"
	faults_ev_changes "$res/mon-b" "$l0" 'e.get("path") in (2, 3)' 'changed(e)' > "$res/a.dead-transitions"
	faults_ev_changes "$res/mon-b" "$l0" 'e.get("path") not in (2, 3)' 'changed(e)' > "$res/a.live-transitions"
	monitor_count "$l0" 'e.get("path") in (2, 3) and e.get("new_state") == "assumed-bad" and e.get("reason") == "probe-fail"' \
		> "$res/a.events"
	faults_oneway_off "$FAB_B" pl1
	mrc_wait_for 20 side_check b "$(good p1)" >/dev/null && touch "$res/a.back"

	# ---- (b) A->B of plane 1 ----
	l0=$(lines)
	faults_oneway_on "$FAB_A" pl1
	mrc_wait_for 10 side_check a "$(bad p1)" >/dev/null
	sleep 0.5	# B has had time (> 6 probe intervals) to blame its paths
	side_check b true > /dev/null; cp "$res/live-b.json" "$res/b-b.json"
	side_check a true > /dev/null; cp "$res/live-a.json" "$res/b-a.json"
	monitor_count "$l0" 'e.get("path") in (2, 3) and e.get("old_state") != e.get("new_state")' \
		> "$res/b.events"
	faults_oneway_off "$FAB_A" pl1
	mrc_wait_for 20 side_check a "$(good p1)" >/dev/null && touch "$res/b.back"

	# ---- (c) B->A of plane 1 and A->B of plane 3 ----
	l0=$(lines)
	faults_oneway_on "$FAB_B" pl1
	faults_oneway_on "$FAB_A" pl3
	mrc_wait_for 10 side_check b "$(bad p1)" >/dev/null
	mrc_wait_for 10 side_check a "$(bad p3)" >/dev/null
	side_check b true > /dev/null; cp "$res/live-b.json" "$res/c-b.json"
	side_check a true > /dev/null; cp "$res/live-a.json" "$res/c-a.json"
	faults_ev_changes "$res/mon-b" "$l0" 'e.get("path") in (2, 3)' 'changed(e)' > "$res/c.dead-transitions"
	faults_ev_changes "$res/mon-b" "$l0" 'e.get("path") not in (2, 3)' 'changed(e)' > "$res/c.live-transitions"
	faults_oneway_off "$FAB_B" pl1
	faults_oneway_off "$FAB_A" pl3
	mrc_wait_for 20 side_check b "$(good p1)" >/dev/null &&
		mrc_wait_for 20 side_check a "$(good p3)" >/dev/null && touch "$res/c.back"
}

rp0=$(mrc_mib "$FAB_B" ProbesSent)
rv0=$(mrc_mib "$FAB_B" PathReverseProbes)
ra0=$(mrc_mib "$FAB_A" PathReverseProbes)
mrc_check "one-way faults: every byte verified up to the close" \
	faults_transfer_through oneway oneway_faults
mrc_info "oneway: $(($(mrc_json "$res/oneway.server" bytes 2>/dev/null) >> 20)) MiB," \
	"longest stall $(mrc_json "$res/oneway.server" longest_stall_ms) ms;" \
	"B sent $(($(mrc_mib "$FAB_B" ProbesSent) - rp0)) probes," \
	"$(($(mrc_mib "$FAB_B" PathReverseProbes) - rv0)) of them reverse-liveness" \
	"(A: $(($(mrc_mib "$FAB_A" PathReverseProbes) - ra0)))"
mrc_info "(a) B->A plane 1: found in $(cat "$res/a.detect-ms" 2>/dev/null) ms" \
	"(bound 6 x $ivl ms + polling); SACKs lost meanwhile (B SackOut - A SackIn):" \
	"$(cat "$res/a.sacks-lost")"

# (a) By path id: B's paths of plane 1 out, with an event each in the
# monitor; no other of B's paths out (at most one, for a spurious
# failure on a loaded machine), A's forward paths in use. Fails if the
# receiver has no view of its reverse paths (they stay GOOD) or blames
# all alike.
mrc_check "(a) B->A plane 1: B's paths 2, 3 are ASSUMED_BAD (probe-fail)" \
	side_check b "$(bad p1) and all(p['reason'] == 'probe-fail' for p in p1)" "$res/a-b.json"
mrc_check "(a) B's 6 other paths stay in use (at most one out)" \
	side_check b 'out(rest(2, 3)) <= 1' "$res/a-b.json"
mrc_check "(a) A's 8 forward paths stay in use (at most one out)" \
	side_check a 'out(paths) <= 1' "$res/a-a.json"
mrc_check "(a) B's monitor showed paths 2 and 3 going ASSUMED_BAD" \
	test "$(cat "$res/a.events")" -ge 2
# Bounds on state changes per path while the fault lasts (a few seconds
# here, for the slow mrcctl polling). A dead path cannot come back across
# the blackhole (its probes go unanswered, and the floor takes back only
# a path whose probes are answered): exactly one change, GOOD ->
# ASSUMED_BAD. A healthy path may be taken out spuriously on a loaded
# machine (a probe answer queued behind the data for two probe intervals
# in a row, before its RTT is learnt): it returns after success_to_good
# answers, and failing again soon after is a flap, which backs its probes
# off (x2, x4...); 4 changes allow one spurious failure and one flap.
# Fails if a dead path is brought back and failed again (flapping with
# the fault), or if healthy paths keep failing.
transitions() { read -r n rest < "$res/$1"; echo "$n"; }
mrc_check "(a) B's paths 2, 3: one state change each ($(cat "$res/a.dead-transitions"))" \
	test "$(transitions a.dead-transitions)" -le 1
mrc_check "(a) B's other paths: at most 4 state changes each ($(cat "$res/a.live-transitions"))" \
	test "$(transitions a.live-transitions)" -le 4
mrc_check "(a) repaired: B's paths 2, 3 GOOD again" test -e "$res/a.back"

# (b) The forward direction's failure is A's to find; B's reverse view of
# the plane stays GOOD and changes no state. Fails if B blames its
# reverse paths for a dead forward plane.
mrc_check "(b) A->B plane 1: A's paths 2, 3 are ASSUMED_BAD" \
	side_check a "$(bad p1)" "$res/b-a.json"
mrc_check "(b) A's 6 other paths stay in use (at most one out)" \
	side_check a 'out(rest(2, 3)) <= 1' "$res/b-a.json"
mrc_check "(b) B's reverse paths of plane 1 stay GOOD" \
	side_check b "$(good p1)" "$res/b-b.json"
mrc_check_eq "(b) B's monitor: no state change of paths 2, 3" 0 "$(cat "$res/b.events")"
mrc_check "(b) repaired: A's paths 2, 3 GOOD again" test -e "$res/b.back"

# (c) Both at once: each side takes out exactly its own dead direction.
mrc_check "(c) B's paths 2, 3 out, the others in use (at most one out)" \
	side_check b "$(bad p1) and out(rest(2, 3)) <= 1" "$res/c-b.json"
mrc_check "(c) A's paths 6, 7 out, the others in use (at most one out)" \
	side_check a "$(bad p3) and out(rest(6, 7)) <= 1" "$res/c-a.json"
mrc_check "(c) B's reverse paths of plane 3 stay GOOD" \
	side_check b "$(good p3)" "$res/c-b.json"
# As in (a), one change each: the returns once seen here (out, back by
# probe-ok, out again) came from the qdisc built piece by piece while the
# plane still worked (see faults_oneway_prepare in lib_faults.sh),
# counted twice by the connection's own remembered probe answers.
mrc_check "(c) B's paths 2, 3: one state change each ($(cat "$res/c.dead-transitions"))" \
	test "$(transitions c.dead-transitions)" -le 1
mrc_check "(c) B's other paths: at most 4 state changes each ($(cat "$res/c.live-transitions"))" \
	test "$(transitions c.live-transitions)" -le 4
mrc_check "(c) repaired: every path back" test -e "$res/c.back"

# The stall: a SACK lost in the hole costs at most the RTO of what it
# acknowledged, and a resent packet goes on another path; bounded like
# 42-faults-blackhole by 2 x rto_max. Fails if the transfer waits for
# something that never comes (a SACK that keeps going into the hole).
stall_ms=$(mrc_time $((2 * $(faults_policy_ms rto_max))))
mrc_check "longest stall under 2 x rto_max = $stall_ms ms" faults_stall_below oneway "$stall_ms"
# A failure's evidence: B's events (with their wall-clock timestamps, to
# set against a.fault-at-ms), the path tables and the counts above.
[ "${_mrc_failed}" = 0 ] || mrc_keep oneway "$res/mon-b" "$res"/*.json "$res"/*transitions \
	"$res"/*-ms "$res"/*.events
mrc_done
