#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A path that carries small packets but not data (issue #17): one spine
# link of the reference fabric (usid, 4 planes x 2 spines, 9000-byte
# links) gets an MTU of 1500, below the data packets' size, while a
# connection A->B sends (every byte verified by mrc-perf). Twice: with the
# router's ICMPv6 packet-too-big dropped on its way back to A (a filtering
# operator), then delivered. Per path, by path id: the EV of the small
# link (path 2: plane 1, spine 0) leaves GOOD and stays out, its
# ASSUMED_BAD -> GOOD returns counted in mrcctl monitor's events over a
# measured window; the 7 healthy EVs stay in use. With the error
# delivered, PathPktTooBig counts it and the event names path 2 with
# reason pkt-too-big. Shared set-up: selftests/lib_faults.sh.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"
faults_setup

t0a=$(mrc_fabric_ns t0a 1)	# plane 1's leaf of A; up0 leads to spine 0
small_mtu=1500
# How long the returns are counted, with the small link in place and the
# path already out once: long enough that the flap backoff alone (at most
# about 2 returns a second, path-state-machine.md section 7) would show.
window=$(mrc_time 4)
faults_monitor_a events
mon=$MRC_BG_PID
ptb_count() { local v; v=$(mrc_mib "$FAB_A" PathPktTooBig); echo "${v:-0}"; }

# paths_check FILE EXPR: EXPR over the paths of A's connections in FILE
# (small: those of path 2, live: the others).
paths_check() {
	python3 -c 'import json, sys
conns = json.load(open(sys.argv[1]))
paths = [p for c in conns for p in c["paths"]]
small = [p for p in paths if p.get("path_id") == 2]
live = [p for p in paths if p.get("path_id") != 2]
print(" ".join("%s:%s:%s" % (p.get("path_id"), p["state"], p["reason"]) for p in paths))
sys.exit(0 if small and eval(sys.argv[2]) else 1)' "$@"
}
small_path_out() {
	faults_a_conns 'any(p.get("path_id") == 2 and p["state"] == "assumed-bad" for c in conns for p in c["paths"])'
}
# Returns of path 2's EV from assumed-bad to good in the monitor's lines
# FROM.. (a line per event: "... path 2 plane 1 assumed-bad -> good ...").
returns_since() {
	tail -n +"$1" "$res/events" | grep -c ' path 2 plane 1 assumed-bad -> good ' || true
}
lines() { wc -l < "$res/events"; }

# mtu_fault NAME: the small link under a live transfer; the counts of the
# window go to NAME.*.
mtu_fault() {
	local name=$1 from
	ip -n "$t0a" link set dev up0 mtu "$small_mtu"
	mrc_wait_for 30 small_path_out && touch "$res/$name.out-seen"
	from=$(($(lines) + 1))
	sleep "$window"	# the measured window: the transfer goes on
	faults_ctl_a -j conn > "$res/$name.paths.json"
	returns_since "$from" > "$res/$name.returns"
	ip -n "$t0a" link set dev up0 mtu "$FAB_MTU"
}

variant() { # NAME DESC
	local name=$1 desc=$2 ptb0 returns
	ptb0=$(ptb_count)
	mrc_check "$desc: every byte verified up to the close" \
		faults_transfer_through "$name" "mtu_fault $name"
	mrc_check "$desc: the EV of path 2 (the small link) went ASSUMED_BAD" \
		test -e "$res/$name.out-seen"
	returns=$(cat "$res/$name.returns" 2>/dev/null || echo unknown)
	mrc_info "$desc: path 2 returned to GOOD $returns times in $window s;" \
		"PathPktTooBig +$(($(ptb_count) - ptb0))"
	# The bound, from the policy: a failed path returns only after
	# success_to_good probes in a row are answered, and its probes are as
	# large as its data, so none crosses the small link: 0. Fails if the
	# probes are smaller than the data: the engine before data-size
	# probes, flap backoff and all, returned it 10 and 9 times in this
	# window (about 2 a second, the backoff's pace).
	mrc_check_eq "$desc: path 2's EV stays out (returns to GOOD in $window s)" 0 "$returns"
	mrc_check "$desc: the EV of path 2 is out at the end of the window" \
		paths_check "$res/$name.paths.json" 'all(p["state"] == "assumed-bad" for p in small)'
	# Fails if the engine blames healthy EVs for the small link's losses
	# (one may be out for a spurious timeout on a loaded machine).
	mrc_check "$desc: the 7 healthy EVs stay in use (at most one out)" \
		paths_check "$res/$name.paths.json" 'sum(p["state"] not in ("good", "skip") for p in live) <= 1'
}

# The router's packet-too-big never reaches A: the probes alone decide.
tc -n "$t0a" qdisc add dev host clsact
tc -n "$t0a" filter add dev host egress protocol ipv6 prio 1 u32 \
	match u8 58 0xff at 6 match u8 2 0xff at 40 action drop
ptb_before=$(ptb_count)
variant filtered "packet-too-big filtered"
mrc_check_eq "packet-too-big filtered: PathPktTooBig unchanged (none reached A)" \
	"$ptb_before" "$(ptb_count)"
tc -n "$t0a" qdisc del dev host clsact

# Delivered: A takes the path out at the first error (the quote names it).
ptb_before=$(ptb_count)
variant delivered "packet-too-big delivered"
# Fails if the error does not reach the engine (no tunnel6 handler, a
# quote not matched to its connection or EV). A kernel without tunnel6
# (the debug kernel) has no handler, and says so at load.
if dmesg | grep -q 'mrc: no packet-too-big errors over SRv6 paths'; then
	mrc_skip "packet-too-big delivered: PathPktTooBig counted it" "no tunnel6 in this kernel"
	mrc_skip "packet-too-big delivered: the event names path 2" "no tunnel6 in this kernel"
else
	mrc_check "packet-too-big delivered: PathPktTooBig counted it" \
		mrc_mib_at_least "$FAB_A" PathPktTooBig $((ptb_before + 1))
	mrc_check "packet-too-big delivered: the event names path 2, reason pkt-too-big" \
		grep -q ' path 2 plane 1 good -> assumed-bad reason pkt-too-big' "$res/events"
fi
kill "$mon" 2>/dev/null
mrc_done
