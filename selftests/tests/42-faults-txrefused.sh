#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host A's own stack refuses the packets of one plane, mid-transfer, with
# no netdev event (issue #14): (a) a tc egress filter drops everything
# leaving A's pl2 (clsact + matchall action drop: NET_XMIT_DROP), (b) the
# route to plane 1's first router is deleted (-ENETUNREACH). The engine
# hears of each refused packet in the same push and resends it on another
# plane at once: the transfer is verified byte for byte, the plane's paths
# go ASSUMED_BAD with reason tx-refused (by plane, in mrcctl -j conn, the
# other paths stay in use), OutRefused and PathTxRefused count, and no
# packet sent on the plane waits for its RTO (the timeouts of its paths in
# mrcctl -j conn). Each fault's transfer follows the same transfer without
# a fault (once, for both faults), whose longest stall (the emulated VM's
# own) bounds the fault's. Shared set-up: selftests/lib_faults.sh.
# timeout: 900
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
# 96 MiB a transfer (three of them): each fault is over within about 2 s
# of its start, while the transfer goes on for 10 s or more on a quiet
# machine (192 MiB took 103 s of make check for the three).
TXR_BYTES=100663296

# refuse_paths_check FILE PLANE ID SPURIOUS: on A's connection ID in FILE
# (mrcctl -j conn show; the one of refuse_conn), the paths of PLANE are
# out by tx-refused, and no other path is: every other plane has a path in
# use, and another path may be out only by timeout, and only if the same
# transfer without the fault timed out SPURIOUS > 0 packets (a loaded
# emulated VM holds a burst past its RTO now and then: CI at 318c833 saw
# one such path in 46 timeouts without the fault).
refuse_paths_check() {
	python3 -c 'import json, sys
conns = [c for c in json.load(open(sys.argv[1])) if c["id"] == int(sys.argv[3])]
plane, spurious = int(sys.argv[2]), int(sys.argv[4]) > 0
paths = [p for c in conns for p in c["paths"]]
print(" ".join("%s:%s:%s:%s" % (p.get("path_id"), p["plane"], p["state"], p["reason"]) for p in paths))
out = [p for p in paths if p["plane"] == plane]
live = [p for p in paths if p["plane"] != plane]
in_use = lambda p: p["state"] in ("good", "skip")
planes = set(p["plane"] for p in live)
sys.exit(0 if out and live and
	 all(p["state"] == "assumed-bad" and p["reason"] == "tx-refused" for p in out) and
	 all(in_use(p) or (spurious and p["reason"] == "timeout") for p in live) and
	 all(any(in_use(p) for p in live if p["plane"] == q) for q in planes) else 1)' "$@"
}

# refuse_conn FILE: the id of the transfer's connection in FILE, taken as
# the fault begins: the established one that sent least (the previous
# transfer's may still be closing).
refuse_conn() {
	python3 -c 'import json, sys
conns = [c for c in json.load(open(sys.argv[1])) if c["state"] == "established"]
print(min(conns, key=lambda c: c["bytes_sent"])["id"] if conns else -1)' "$@"
}

# refuse_timeouts FILE PLANE ID: the RTOs charged to PLANE's paths on A's
# connection ID in FILE.
refuse_timeouts() {
	python3 -c 'import json, sys
conns = [c for c in json.load(open(sys.argv[1])) if c["id"] == int(sys.argv[3])]
print(sum(p.get("timeouts", 0) for c in conns for p in c["paths"] if p["plane"] == int(sys.argv[2])))' "$@"
}

# refuse_inflight FILE PLANE ID: how many packets the connection ID had in
# flight on PLANE's paths in FILE, at most: its bytes in flight over 1000
# (a bulk transfer's packets are larger), the plane's share of its paths
# in use.
refuse_inflight() {
	python3 -c 'import json, sys
c = [c for c in json.load(open(sys.argv[1])) if c["id"] == int(sys.argv[3])][0]
use = [p for p in c["paths"] if p["state"] in ("good", "skip")]
mine = [p for p in use if p["plane"] == int(sys.argv[2])]
print(-(-c["inflight"] * len(mine) // (1000 * max(len(use), 1))))' "$@"
}

# refuse_fault NAME PLANE ON OFF: the fault of a transfer: run ON, wait
# until the plane's paths are out, keep it a while, show the paths, run OFF.
refuse_fault() {
	local name=$1 plane=$2 on=$3 off=$4
	faults_ctl_a -j conn show > "$res/$name.paths-before.json"
	eval "$on"
	mrc_wait_for 20 mrc_mib_at_least "$FAB_A" PathTxRefused $((ptr0 + 2))
	sleep 0.2
	faults_ctl_a -j conn show > "$res/$name.paths.json"
	eval "$off"
}

# refuse_clean: the same transfer as the faults', without a fault: the
# VM's own longest stall, and its own (spurious) timeouts, rto_clean.
refuse_clean() {
	local rto0
	rto0=$(mrc_mib "$FAB_A" RetxRto)
	mrc_check "clean: $(faults_mib $TXR_BYTES 67108864) MiB verified" \
		faults_transfer clean : $TXR_BYTES 67108864
	faults_report clean
	rto_clean=$(($(mrc_mib "$FAB_A" RetxRto) - rto0))
}

# refuse_run NAME PLANE ON OFF: a verified transfer across the fault, and
# the checks on it (after refuse_clean).
refuse_run() {
	local name=$1 plane=$2 rto0 ref0 tmo id
	ptr0=$(mrc_mib "$FAB_A" PathTxRefused)
	ref0=$(mrc_mib "$FAB_A" OutRefused)
	rto0=$(mrc_mib "$FAB_A" RetxRto)
	mrc_check "$name: $(faults_mib $TXR_BYTES 67108864) MiB verified while A's stack refuses plane $plane" \
		faults_transfer "$name" "refuse_fault $name $plane $(printf %q "$3") $(printf %q "$4")" \
		$TXR_BYTES 67108864
	faults_report "$name"
	local refused=$(($(mrc_mib "$FAB_A" OutRefused) - ref0))
	local rto=$(($(mrc_mib "$FAB_A" RetxRto) - rto0))
	local ptr=$(($(mrc_mib "$FAB_A" PathTxRefused) - ptr0))
	mrc_info "$name: OutRefused +$refused, PathTxRefused +$ptr, RetxRto +$rto," \
		"longest stall $(mrc_json "$res/$name.server" longest_stall_ms) ms"
	mrc_check "$name: the transfer was still going once the fault was over" \
		test -e "$res/$name.landed"
	mrc_check "$name: A's stack refused packets (OutRefused)" test "$refused" -gt 0
	mrc_check "$name: both paths of plane $plane out by tx-refused (PathTxRefused)" \
		test "$ptr" -ge 2
	id=$(refuse_conn "$res/$name.paths-before.json")
	mrc_check "$name: plane $plane's paths assumed-bad reason tx-refused, every other plane in use" \
		refuse_paths_check "$res/$name.paths.json" "$plane" "$id" "$rto_clean"
	# No refused packet waited for its RTO: each one was resent in the
	# push that sent it, and the paths were out at once; before issue
	# #14 every packet sprayed into the plane timed out on it. What was
	# in flight on the plane when the fault began was sent and may
	# still time out; and the emulated VM holds packets past their RTO
	# now and then, all of a burst at once on one path: the same
	# transfer without the fault timed out rto_clean packets, a plane's
	# share of them is noise. What was in flight, plus that share, plus
	# 2, is the bound. It still fails when refused packets wait for
	# their RTO: the hundreds the stack refuses (OutRefused) would time
	# out on the plane's paths.
	tmo=$(($(refuse_timeouts "$res/$name.paths.json" "$plane" "$id") -
	       $(refuse_timeouts "$res/$name.paths-before.json" "$plane" "$id")))
	tmo_max=$(($(refuse_inflight "$res/$name.paths-before.json" "$plane" "$id") + 2 +
		   rto_clean / FAB_P))
	mrc_info "$name: RTOs without the fault $rto_clean (all planes), a plane's share $((rto_clean / FAB_P))"
	mrc_check "$name: RTOs on plane $plane's paths during the fault: $tmo <= $tmo_max" \
		test "$tmo" -le "$tmo_max"
	# The stall: a refused packet is resent at once. The emulated VM's
	# own longest stall (the same transfer without the fault: 14-128 ms
	# from run to run) hides the target of 2 ms; reported, and bounded
	# by rto_max (path-state-machine.md section 8): no refused packet
	# waits for a backed-off RTO.
	mrc_info "$name: longest stall $(mrc_json "$res/$name.server" longest_stall_ms) ms," \
		"$(mrc_json "$res/clean.server" longest_stall_ms) ms without the fault"
	stall_ms=$(mrc_time "$(faults_policy_ms rto_max)")
	mrc_check "$name: longest stall under rto_max = $stall_ms ms" \
		faults_stall_below "$name" "$stall_ms"
}

# (a) tc egress drop on A's plane 2 link: NET_XMIT_DROP for every packet.
# The clsact qdisc goes on before any transfer, and stays: the fault is
# the filter alone. The first clsact of the kernel turns on the ingress
# and egress static keys, which rewrites the receive path's code
# (text_poke) on every CPU. Done under a full-speed transfer, that hung
# the guest 1 run in 6 (2026-11-28, and CI at 7eb8725): both CPUs stuck
# in softirq at the patched branch of __netif_receive_skb_core, one of
# them in the int3 handler of the patching, RCU stalled, soft lockups
# for minutes. A kernel's code change under load is not the fault this
# test is about.
modprobe -qa sch_ingress cls_matchall act_gact
mrc_check "clsact on A's pl2 before any transfer" tc -n "$FAB_A" qdisc add dev pl2 clsact
refuse_clean
refuse_run tcdrop 2 \
	"tc -n $FAB_A filter add dev pl2 egress pref 1 matchall action drop" \
	"tc -n $FAB_A filter del dev pl2 egress pref 1"

# (b) no route: A's route to plane 1's first router goes away.
_fab_usid_v usid t0a 1
route=$(ip -n "$FAB_A" -6 route show "fc00:0:$usid::/48" | head -1)
mrc_check "plane 1's route of A found: $route" test -n "$route"
refuse_run noroute 1 \
	"ip -n $FAB_A -6 route del fc00:0:$usid::/48" \
	"ip -n $FAB_A -6 route add $route"

mrc_check "after both: a clean transfer verified" \
	mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$res/after" -t stream -n "$(mrc_size 8388608 1048576)"
mrc_done
