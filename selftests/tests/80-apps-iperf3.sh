#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# iperf3 (Debian's, unmodified) between hosts A and B of the reference
# fabric (4 planes x 2 spines), both directions (-R), over TCP (the
# fabric's ECMP routes) and over MRC (usid paths, the apps policy,
# mrcize). Each run (about 15 s at 100 Mbit/s) has fault-free stretches
# and each fault in turn while data flows, on a link the transfer crosses
# (lib_apps.sh):
#   blackhole  a silent spine blackhole (netem loss 100% on a leaf-spine link)
#   planedown  the sender's own plane link down (ip link set plN down)
#   loss1      1% loss on the sender's plane link
# Goodput and the longest stall (100 ms intervals in which nothing
# arrived), outside and under each fault, come from the receiver's side
# of iperf3's --json output. Over
# MRC each run must go on until the test stops it, each fault must land
# while data flows, and
# the longest stall stays within a bound derived from the policy; over
# TCP (MRC_TEST_APPS_TCP=1: make check-slow) the same figures are
# reported (# info), never asserted. Without mrcize (tools/mrcize) the
# MRC runs are skipped.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../workloads/lib_apps.sh"

mrc_module_load
mrc_fabric_build 4 2 || { mrc_fail "fabric"; mrc_done; }
mrc_check "fabric: A and B reach each other" mrc_fabric_hosts_ping
apps_counters_start
base=$(mrc_tmpdir)
port=5200

# has_socket PID: the process (or a child: a launcher that forks) has a
# socket open; iperf3 -s opens its listening socket first thing, whatever
# the transport (so /proc/net/tcp6 would not do over MRC).
has_socket() {
	local p
	for p in "$1" $(cat "/proc/$1/task/$1/children" 2>/dev/null); do
		ls -l "/proc/$p/fd" 2>/dev/null | grep -q 'socket:' && return 0
	done
	return 1
}
rx_bytes() { # NS: bytes received on the host's plane links
	local p l=()
	for p in $(seq 0 $((FAB_P - 1))); do l+=("$1:pl$p"); done
	apps_query "$APPS_RES/rx.$BASHPID" "${l[@]}"
	awk '{ s += $3 } END { print s + 0 }' "$APPS_RES/rx.$BASHPID"
	rm -f "$APPS_RES/rx.$BASHPID"
}

# The job of apps_phased_job is one iperf3 run; its "steps" are tenths of
# a second since data was seen arriving (4 MB at the receiver). The
# faults' timeline (lib_apps.sh) is 1 s fault-free, then each fault for
# 2 s with 1 s fault-free after it (and the test's own work between the
# phases, seconds in the emulated VM); then the test ends the run with
# SIGINT, as a user would press ^C: iperf3 still writes its JSON, with
# the error "interrupt - the client has terminated". The rate is capped:
# a sender at full speed leaves the two emulated CPUs no time for the
# test.
APPS_HEAD_S=1
APPS_FAULT_S=2
APPS_GAP_S=1
DUR=$(mrc_time 120)	# iperf3 -t: only if the test failed to stop it
RATE=${APPS_IPERF_RATE:-100M}	# iperf3 -b
apps_job_start() {
	port=$((port + 1))
	rflag=""
	rxns=$FAB_B
	[ "$dir" = rev ] && { rflag=-R; rxns=$FAB_A; }
	mrc_bg_in_ns "$FAB_B" "${APPS_WRAP[@]}" iperf3 -s -1 -B "$FAB_B_ADDR" -p "$port" \
		-i 0.1 --json > "$APPS_RES/$1.server.json" 2> "$APPS_RES/$1.server.log"
	srv=$MRC_BG_PID
	mrc_wait_for 30 has_socket "$srv"
	rx0=$(rx_bytes "$rxns")
	rm -f "$APPS_RES/$1.flow"
	mrc_bg_in_ns "$FAB_A" "${APPS_WRAP[@]}" iperf3 -6 -c "$FAB_B_ADDR" -B "$FAB_A_ADDR" \
		-p "$port" -t "$DUR" -b "$RATE" -i 0.1 $rflag --json --get-server-output \
		> "$APPS_RES/$1.json" 2> "$APPS_RES/$1.log"
	cli=$MRC_BG_PID
}
apps_job_progress() {
	local now=${EPOCHREALTIME/./} flow
	if [ ! -e "$APPS_RES/$1.flow" ]; then
		[ "$(rx_bytes "$rxns")" -gt $((rx0 + 4000000)) ] || { echo 0; return; }
		echo "$now" > "$APPS_RES/$1.flow"
	fi
	read -r flow < "$APPS_RES/$1.flow"
	echo $(((now - flow) / 100000))
}
apps_job_over() {
	! kill -0 "$cli" 2>/dev/null
}
apps_job_stop() {
	kill -INT "$cli" 2>/dev/null
}
apps_job_finish() {
	wait "$cli"
	echo $? > "$APPS_RES/$1.rc"
	mrc_wait_for 10 sh -c "! kill -0 $srv 2>/dev/null"
	kill "$srv" 2>/dev/null
	wait "$srv"
}

# judge TR DIR: report (and over MRC assert) the run of direction DIR.
judge() {
	local tr=$1 dir=$2 name=$1-$2 rx rc wins=() i=0 bound flow done=0
	local kind ns dev t0 t1 drops stall mbps after
	rx=$APPS_RES/$name.server.json
	[ "$dir" = rev ] && rx=$APPS_RES/$name.json
	rc=$(cat "$APPS_RES/$name.rc")
	if [ -e "$APPS_RES/$name.flow" ]; then
		read -r flow < "$APPS_RES/$name.flow"
		while read -r _ _ _ t0 t1 _; do
			wins+=("$(echo "$t0 $t1 $flow" | awk '{ printf "%.3f,%.3f", $1 - $3 / 1e6, $2 - $3 / 1e6 }')")
		done < "$APPS_RES/$name.fault"
	fi
	eval "$("${APPS_HELPER[@]}" "$APPS_DIR/iperf3_summary.py" r "$rx" "$APPS_RES/$name.json" ${wins[@]+"${wins[@]}"})"
	mrc_info "$tr $dir: $r_goodput_mbps Mbit/s over the run; fault-free stretches: $r_base_mbps Mbit/s," \
		"longest stall $r_base_stall_ms ms; iperf3 exit $rc, error $r_error"
	# ended by the test's SIGINT (or by -t, which it should not reach)
	case "$rc $r_error" in
	"1 interrupt - the client has terminated" | "0 -") done=1 ;;
	esac
	[ "$tr" = mrc ] && mrc_check "$tr $dir: iperf3 ran until the test stopped it" test "$done" = 1
	# The longest stall under a fault is bounded like a training step
	# (apps_judge, lib_apps.sh): a packet lost to the fault is resent on
	# another path within its RTO, at most rto_max, and a lost
	# retransmission costs at most another rto_max: stall <= the
	# fault-free stretches' longest stall + 2 x rto_max. It fails if MRC
	# keeps using the dead path, backs off past rto_max, or the
	# connection fell back to TCP (a blackholed TCP flow waits 200 ms,
	# then 400, 800...).
	bound=$((r_base_stall_ms + 2 * APPS_RTO_MAX_MS))
	while read -r kind ns dev t0 t1 _ _ drops; do
		i=$((i + 1))
		eval "stall=\$r_w${i}_stall_ms mbps=\$r_w${i}_mbps after=\$r_w${i}_after_bytes"
		mrc_info "$tr $dir $kind on $ns $dev (${wins[i - 1]} s after data began, netem drops $drops):" \
			"$mbps Mbit/s under it, longest stall $stall ms"
		[ "$tr" = mrc ] || continue
		mrc_check "$tr $dir $kind: the fault went in while data flowed, data arrived after it" \
			test "$after" -gt 0
		mrc_check "$tr $dir $kind: longest stall $stall ms <= fault-free $r_base_stall_ms + 2 x rto_max = $bound ms" \
			test "$stall" -le "$bound"
	done < "$APPS_RES/$name.fault"
	for kind in $APPS_FAULTS; do
		grep -q "^$kind " "$APPS_RES/$name.fault" && continue
		mrc_info "$tr $dir $kind: not injected, the run had ended"
		[ "$tr" = mrc ] && mrc_fail "$tr $dir $kind: the fault went in while data flowed"
	done
	return 0
}

run_transport() {
	local tr=$1 t=$SECONDS
	apps_transport "$tr"
	APPS_RES=$base/$tr
	mkdir -p "$APPS_RES"
	for dir in fwd rev; do
		apps_phased_job "$tr-$dir"
	done
	mrc_info "$tr: 2 runs in $((SECONDS - t)) s"
	for dir in fwd rev; do
		judge "$tr" "$dir"
	done
	mrc_check "$tr: both runs reported (iperf3's JSON)" \
		sh -c "for f in $APPS_RES/$tr-fwd.json $APPS_RES/$tr-rev.json; do test -s \$f || { echo \$f missing; exit 1; }; done"
}

if apps_tcp_wanted; then
	run_transport tcp
fi
why=$(apps_mrc_missing)
if [ -n "$why" ]; then
	mrc_skip "mrc: the same runs over MRC" "$why"
else
	mrc_check "mrc: usid paths between A and B, the apps policy" apps_mrc_setup
	run_transport mrc
fi
mrc_done
