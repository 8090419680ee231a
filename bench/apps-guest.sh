#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-apps, inside the VM (bench/apps-run.sh boots it): an
# unmodified PyTorch training job over MRC, TCP and MPTCP, fault-free and
# under each fault of the brief, all in the same boot. The workloads are
# those of the apps tests (selftests/workloads/torch_ddp.py, one rank per
# host of a 4-host, 4-plane x 2-spine fabric):
#   ddp        DistributedDataParallel over gloo (test 81's job): step time
#   allreduce  a loop of dist.all_reduce of a BENCH_APPS_MIB MiB float32
#              tensor, every result checked: all-reduce bandwidth
# Each job goes through every fault of lib_apps.sh's apps_phased_job, mid-
# job, on the link its traffic crosses (a silent spine blackhole, a host's
# plane link down, 1% loss on a host's plane link), with fault-free
# stretches between: its steps outside the fault windows are the
# fault-free yardstick of the same job. Raw results (jobs' JSON, fault
# windows, counters) go to $BENCH_OUT/raw; the host turns them into the
# table (bench/apps_report.py). This script reports; it asserts nothing
# about the figures.
#
# Transports (one torch launcher each, lib_apps.sh's apps_transport)
#   mrc    mrcize run --policy apps: usid paths between every pair of
#          hosts and the apps policy on every host (apps_mrc_setup)
#   tcp    the job as it is: TCP over the fabric's ECMP routes
#   mptcp  mptcpize run (Debian's): every host announces its 4 plane
#          addresses (`signal` endpoints with a port), routed across
#          their own planes, and each end of a connection opens a
#          subflow to each address the other announced: 2 subflows per
#          plane beside the first one (mptcp_setup says why not 1)
#
# Environment (defaults in brackets)
#   BENCH_OUT [/tmp/out]  BENCH_APPS_TRANSPORTS ["mrc tcp mptcp"]
#   BENCH_APPS_WORKLOADS ["ddp allreduce"]  BENCH_APPS_MIB [4]
#   BENCH_APPS_FAULTS ["blackhole planedown loss1"]
#   BENCH_APPS_HEAD_S [3]  BENCH_APPS_FAULT_S [5]  BENCH_APPS_GAP_S [3]
#   (the phased job's timeline, seconds)  BENCH_APPS_GLOO_TIMEOUT [60]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../selftests/lib.sh"
. "$here/../selftests/lib_fabric.sh"
. "$here/../selftests/workloads/lib_apps.sh"
. "$here/lib_guest.sh"

OUT=${BENCH_OUT:-/tmp/out}
RAW=$OUT/raw
TRANSPORTS=${BENCH_APPS_TRANSPORTS:-mrc tcp mptcp}
WORKLOADS=${BENCH_APPS_WORKLOADS:-ddp allreduce}
MIB=${BENCH_APPS_MIB:-4}
GLOO_TIMEOUT=${BENCH_APPS_GLOO_TIMEOUT:-60}
APPS_FAULTS=${BENCH_APPS_FAULTS:-blackhole planedown loss1}
APPS_HEAD_S=${BENCH_APPS_HEAD_S:-3}
APPS_FAULT_S=${BENCH_APPS_FAULT_S:-5}
APPS_GAP_S=${BENCH_APPS_GAP_S:-3}
STEPS=100000	# at most: a job ends when its timeline does
P=4
S=2
H=4
WORK=/tmp/bench-apps	# the launchers' files (tmpfs: progress every step)
mkdir -p "$RAW/ctr" "$WORK"

fail() {
	echo "bench: FAILED: $*"
	write_status "$*"
	exit 1
}
# The guest's own verdict on its harness (not on the figures): the host
# reads it (bench/apps_report.py).
write_status() {
	printf '%s\n' "$1" > "$RAW/guest-error.txt"
}

# --- the fabric -------------------------------------------------------------

t0=$SECONDS
log "loading mrc.ko, building the $P x $S fabric with $H hosts"
mrc_module_load
mrc_fabric_build "$P" "$S" "$H" || fail "fabric build"
mrc_fabric_hosts_ping > "$RAW/ping.txt" 2>&1 || fail "fabric: $(cat "$RAW/ping.txt")"
FABRIC_S=$((SECONDS - t0))
log "fabric built in $FABRIC_S s"
apps_counters_start

# --- MPTCP: subflows on every plane ----------------------------------------

# The kernel's path manager opens a subflow either to the connection's
# own remote address and port (`subflow` endpoints: what bench/guest.sh
# uses between two hosts) or to an address the peer announces (`signal`
# endpoints). gloo listens on a socket of its own for each pair of ranks
# and closes it once the connection is accepted, so joins to that port
# are refused: here every host announces each of its 4 plane addresses
# with a port of its own (`signal port`: the kernel listens there for
# joins), and each end of a connection opens a subflow to each address
# the other announced. A subflow to a host's plane-p address crosses
# plane p both ways (routes to every plane address across its plane, on
# the other hosts, the leaves and the spines). So every connection has
# its first subflow, between the hosts' own addresses (over the ECMP
# routes), and 8 more: 2 per plane, one opened by each end. Every route
# is kept in a batch file per namespace under $MPTCP_CMDS (`ip -6`
# commands); a plane link that went down gets its routes back from there
# (apps_fault_repair below).
# An ADD_ADDR of an IPv6 address with a port takes 30 bytes of TCP
# options, and 6.1 sends it only where it fits: beside TCP timestamps (12)
# it never does, the peers learn no address and no subflow joins. So the
# MPTCP jobs run with net.ipv4.tcp_timestamps=0 (it covers IPv6) in the
# hosts, and the other transports' jobs with the default (hosts_tcp_timestamps).
MPTCP_CMDS=$WORK/mptcp
MPTCP_JOIN_PORT=10100
mptcp_setup() {
	local i j x y p s ns aa t1 r f
	declare -A nh
	mkdir -p "$MPTCP_CMDS"
	rm -f "$MPTCP_CMDS"/*
	# nh[x p]: host x's next hop on plane p (its leaf T0x[p])
	for x in "${FAB_HOSTS[@]}"; do
		for p in $(seq 0 $((P - 1))); do
			nh[$x $p]=$(echo "${_fab_host_nh[$x]}" | grep -o "via [^ ]* dev pl$p\( \|\$\)" | awk '{ print $2 }')
			[ -n "${nh[$x $p]}" ] || { echo "no next hop of host $x on plane $p"; return 1; }
		done
	done
	for i in "${!FAB_HOSTS[@]}"; do
		x=${FAB_HOSTS[i]}
		ns=${FAB_HOST_NS[i]}
		echo "mptcp limits set subflow $((2 * P)) add_addr_accepted $P" >> "$MPTCP_CMDS/$ns.mptcp"
		for p in $(seq 0 $((P - 1))); do
			aa=$(mrc_fabric_plane_addr "$x" "$p")
			echo "mptcp endpoint add $aa dev pl$p port $MPTCP_JOIN_PORT signal" >> "$MPTCP_CMDS/$ns.mptcp"
			# every other host reaches it across plane p
			for j in "${!FAB_HOSTS[@]}"; do
				y=${FAB_HOSTS[j]}
				[ "$y" = "$x" ] && continue
				echo "route add $aa/128 via ${nh[$y $p]} dev pl$p" >> "$MPTCP_CMDS/${FAB_HOST_NS[j]}"
				echo "route add $aa/128${_fab_up_nh[$y $p]}" >> "$MPTCP_CMDS/$(mrc_fabric_ns "t0$y" "$p")"
			done
			for s in $(seq 0 $((S - 1))); do
				t1=$(mrc_fabric_ns t1 "$p" "$s")
				r=$(ip -n "$t1" -6 route show "$(mrc_fabric_host_addr "$x")/128" | sed 's/^[^ ]*//')
				[ -n "$r" ] || { echo "no route of $t1 to host $x"; return 1; }
				echo "route add $aa/128 $r" >> "$MPTCP_CMDS/$t1"
			done
		done
	done
	for f in "$MPTCP_CMDS"/*; do
		case $f in
		*.mptcp) ip -n "$(basename "$f" .mptcp)" -batch "$f" || return 1 ;;
		*) ip -6 -n "$(basename "$f")" -batch "$f" || return 1 ;;
		esac
	done
}

# hosts_tcp_timestamps VALUE: net.ipv4.tcp_timestamps in every host.
hosts_tcp_timestamps() {
	local ns
	for ns in "${FAB_HOST_NS[@]}"; do
		in_ns "$ns" sysctl -qw net.ipv4.tcp_timestamps="$1" || return 1
	done
}

# A plane link brought back up (lib_apps.sh's repair replays the fabric's
# commands for the device) also gets back MPTCP's routes through it.
eval "$(declare -f apps_fault_repair | sed '1s/apps_fault_repair/_apps_fault_repair_lib/')"
apps_fault_repair() {
	_apps_fault_repair_lib "$@"
	if [ "$1" = planedown ] && [ -s "$MPTCP_CMDS/$2" ]; then
		grep -E " dev $3( |\$)" "$MPTCP_CMDS/$2" | ip -6 -n "$2" -force -batch - > /dev/null 2>&1
	fi
	return 0
}

if has "$TRANSPORTS" mptcp; then
	log "configuring MPTCP: every host announces its plane addresses"
	mptcp_setup > "$RAW/mptcp-setup.log" 2>&1 || fail "MPTCP setup: $(tail -3 "$RAW/mptcp-setup.log")"
	for i in "${!FAB_HOSTS[@]}"; do
		{
			echo "## host ${FAB_HOSTS[i]} (${FAB_HOST_NS[i]})"
			ip -n "${FAB_HOST_NS[i]}" mptcp limits show
			ip -n "${FAB_HOST_NS[i]}" mptcp endpoint show
			ip -n "${FAB_HOST_NS[i]}" -6 rule show
		} >> "$RAW/mptcp-endpoints.txt" 2>&1
	done
	cp -r "$MPTCP_CMDS" "$RAW/mptcp-cmds"
fi
if has "$TRANSPORTS" mrc; then
	why=$(apps_mrc_missing)
	[ -z "$why" ] || fail "MRC: $why"
	log "configuring MRC: usid paths between every pair of hosts, policy $APPS_POLICY"
	apps_mrc_setup > "$RAW/mrc-setup.log" 2>&1 || fail "MRC setup: $(tail -3 "$RAW/mrc-setup.log")"
	in_ns "$FAB_A" "$MRCCTL" path show > "$RAW/mrc-paths-a.txt" 2>&1
	in_ns "$FAB_A" "$MRCCTL" policy show "$APPS_POLICY" > "$RAW/mrc-policy.txt" 2>&1
fi

# --- the launchers ------------------------------------------------------------

port=29500

# One torch launcher per transport (lib_apps.sh), all importing torch at
# once before any job runs (nothing else runs while jobs are measured).
t0=$SECONDS
for tr in $TRANSPORTS; do
	apps_launcher_start "$tr" "$WORK/$tr" "$GLOO_TIMEOUT"
done
log "importing torch in $(echo $TRANSPORTS | wc -w) launchers ($TRANSPORTS)"
for tr in $TRANSPORTS; do
	mrc_wait_for 600 test -e "$WORK/$tr/ready" ||
		fail "$tr: the launcher did not import torch: $(tail -5 "$WORK/$tr/log")"
done
IMPORT_S=$((SECONDS - t0))
log "torch imported in $IMPORT_S s; $(awk '/MemAvailable/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo) available"

# The job functions of lib_apps.sh's apps_phased_job are the torch
# launcher's; the job is the current workload (WORKLOAD).
apps_job_start() {
	port=$((port + 1))
	case $WORKLOAD in
	ddp) apps_launcher_send "$APPS_TRANSPORT" "run $1 $STEPS $port" ;;
	allreduce) apps_launcher_send "$APPS_TRANSPORT" "allreduce $1 $STEPS $port $MIB" ;;
	esac
}

# snap NAME: every host's MRC, MPTCP and TCP counters, RAW/ctr/NAME.X.*
snap() {
	local i
	for i in "${!FAB_HOSTS[@]}"; do
		in_ns "${FAB_HOST_NS[i]}" sh -c "cat /proc/net/mrc_stat > $RAW/ctr/$1.${FAB_HOSTS[i]}.mrcstat;
			cat /proc/net/netstat > $RAW/ctr/$1.${FAB_HOSTS[i]}.netstat;
			cat /proc/net/snmp > $RAW/ctr/$1.${FAB_HOSTS[i]}.snmp" 2>/dev/null
	done
}

# warmup TR: the launcher's first job pays for the code its ranks touch
# for the first time (gloo, DDP: read over 9p); it also shows what the
# transport's connections look like while a job runs (after 5 steps):
# every host's sockets (ss; MPTCP: every subflow and the MPTCP sockets),
# MRC's connections on host A.
warmup() {
	local tr=$1 name=$1-warmup i x t=$SECONDS
	port=$((port + 1))
	apps_launcher_send "$tr" "run $name $STEPS $port"
	if mrc_wait_for 300 _apps_progress_at_least "$name" 5 && ! apps_job_over "$name"; then
		for i in "${!FAB_HOSTS[@]}"; do
			x=${FAB_HOSTS[i]}
			in_ns "${FAB_HOST_NS[i]}" ss -tniHO state established > "$RAW/$tr-ss-tcp.$x.txt" 2>&1
			[ "$tr" = mptcp ] &&
				in_ns "${FAB_HOST_NS[i]}" ss -MniHO > "$RAW/$tr-ss-mptcp.$x.txt" 2>&1
		done
		[ "$tr" = mrc ] && in_ns "$FAB_A" "$MRCCTL" conn show > "$RAW/mrc-conns-a.txt" 2>&1
	fi
	apps_job_stop "$name"
	mrc_wait_for 300 apps_job_over "$name" || fail "$tr: the warm-up job did not end"
	log "$tr: warm-up job in $((SECONDS - t)) s"
}

write_meta() { # NAME key=value...: a flat JSON object (values JSON already)
	local name=$1 kv sep=""
	shift
	{
		printf '{'
		for kv in "$@"; do
			printf '%s"%s": %s' "$sep" "${kv%%=*}" "${kv#*=}"
			sep=", "
		done
		printf '}\n'
	} > "$RAW/$name.meta.json"
}

write_meta run kernel="\"$(uname -r)\"" planes="$P" spines="$S" hosts="$H" \
	transports="\"$TRANSPORTS\"" workloads="\"$WORKLOADS\"" faults="\"$APPS_FAULTS\"" \
	mib="$MIB" head_s="$APPS_HEAD_S" fault_s="$APPS_FAULT_S" gap_s="$APPS_GAP_S" \
	warm_steps=5 gloo_timeout_s="$GLOO_TIMEOUT" policy="\"$APPS_POLICY\"" \
	rto_min_ms="$APPS_RTO_MIN_MS" rto_max_ms="$APPS_RTO_MAX_MS" retry_limit="$APPS_RETRY_LIMIT" \
	fabric_s="$FABRIC_S" import_s="$IMPORT_S" vcpus="$(nproc)" \
	mem_kb="$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"

# --- the jobs -----------------------------------------------------------------

for tr in $TRANSPORTS; do
	apps_transport "$tr"
	APPS_RES=$WORK/$tr
	ts=1
	[ "$tr" = mptcp ] && ts=0
	hosts_tcp_timestamps "$ts" || fail "$tr: net.ipv4.tcp_timestamps=$ts in the hosts"
	warmup "$tr"
	for WORKLOAD in $WORKLOADS; do
		name=$tr-$WORKLOAD
		APPS_WARM=5
		t=$SECONDS
		log "$name: the job through $APPS_FAULTS"
		snap "$name.before"
		cpu0=$(cpu_busy)
		apps_phased_job "$name"
		prc=$?
		cpu1=$(cpu_busy)
		snap "$name.after"
		write_meta "$name" name="\"$name\"" transport="\"$tr\"" workload="\"$WORKLOAD\"" \
			phased_rc="$prc" seconds="$((SECONDS - t))" \
			cpu_busy_s="$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { printf "%.2f", b - a }')"
		cp "$APPS_RES/$name.json" "$APPS_RES/$name.fault" "$RAW/" 2>/dev/null
		cp "$APPS_RES/$name".ctr* "$RAW/ctr/" 2>/dev/null
		eval "$(apps_steps s "$name")"
		log "$name: $s_n steps in $((SECONDS - t)) s, fault-free p50 $s_base_p50_ms ms," \
			"p99 $s_base_p99_ms ms; $([ "$s_ok" = 1 ] && echo "results verified" || echo "FAILED: $s_error")"
	done
	apps_launcher_quit "$tr" 120 || log "$tr: the launcher did not exit"
	cp "$WORK/$tr/log" "$RAW/$tr-launcher.log"
	cp "$WORK/$tr/$tr-warmup.json" "$RAW/" 2>/dev/null
done
A cat /proc/net/mrc_stat > "$RAW/mrc_stat.final" 2>/dev/null
log "done"
exit 0
