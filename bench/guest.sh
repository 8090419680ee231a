#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench, inside the VM (bench/run.sh boots it): the scenarios of the
# brief's section 11 for MRC, TCP and MPTCP on the reference fabric, one
# protocol at a time, all in the same boot. Raw results (mrc-perf JSON,
# one meta.json per run, events, counters) go to $BENCH_OUT/raw; the host
# turns them into the table and plots (bench/report.py).
#
# Protocols
#   mrc       AF_MRC over the P x S uSID paths (mrcctl configured)
#   tcp       TCP over one static path (plane 1, spine 0: FAB_B_PINNED)
#   tcp-ecmp  TCP to the plane-independent address: the hosts' and T0s'
#             ECMP routes pick one plane and spine per flow (the IPv6
#             hash covers the flow label, which TCP changes after an RTO)
#   mptcp     MPTCP, one subflow per plane: the client binds plane 0's
#             address, a `subflow` endpoint on each other plane's
#             address adds one subflow there (fullmesh endpoints in 6.1
#             opened 8 subflows, 4 of them on the last plane)
#
# Environment (defaults in brackets)
#   BENCH_OUT [/tmp/out]  BENCH_P [4]  BENCH_S [2]  BENCH_RATE_MBIT [25]
#   BENCH_DURATION [10]   BENCH_FAULT_AT [3]  BENCH_CONNS [1000]
#   BENCH_QUEUE [40 ms at the rate, >= 64 KiB: the shaper's tbf limit]
#   BENCH_PROTOS ["mrc tcp tcp-ecmp mptcp"]
#   BENCH_SCENARIOS ["aggregate loss blackhole planedown congested rr cpu profile many"]
#   BENCH_CONGEST_MBIT [RATE / 5: the congested spine's rate]
#   BENCH_TX_BURST [the module's: mrc.ko's tx_burst parameter, 1 = per-packet spraying]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../selftests/lib.sh"
. "$here/../selftests/lib_fabric.sh"
. "$here/lib_guest.sh"

OUT=${BENCH_OUT:-/tmp/out}
RAW=$OUT/raw
P=${BENCH_P:-4}
S=${BENCH_S:-2}
RATE=${BENCH_RATE_MBIT:-25}
DUR=${BENCH_DURATION:-10}
FAULT_AT=${BENCH_FAULT_AT:-3}
CONNS=${BENCH_CONNS:-1000}
# the shaper's queue: about 40 ms at the plane's rate (a switch port's
# buffer, not a bufferbloated one), at least 64 KiB
QUEUE=${BENCH_QUEUE:-$(awk -v r="$RATE" 'BEGIN { q = r * 1e6 / 8 * 0.04; printf "%db\n", (q < 65536 ? 65536 : q) }')}
PROTOS=${BENCH_PROTOS:-mrc tcp tcp-ecmp mptcp}
SCENARIOS=${BENCH_SCENARIOS:-aggregate loss blackhole planedown congested rr cpu profile many}
# The congested spine: plane 1, spine 0's link down to T0b at a fifth of
# the plane's rate (a slow or oversubscribed spine port). The plane loses
# nothing: its other spine can carry the plane's whole rate, so a
# transport whose load follows capacity still fills P x R.
CONGEST=${BENCH_CONGEST_MBIT:-$(awk -v r="$RATE" 'BEGIN { print r / 5 }')}
mkdir -p "$RAW"

# Kernel memory in kB: slab + vmalloc (what sockets allocate).
kmem_kb() {
	awk '/^(Slab|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo
}

# fsub A B: A - B for decimals
fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a - b }'; }

# Commands for a namespace go through a FIFO to a long-running
# `tc -batch` or `ip -batch` in it: no process start when a fault must
# happen on time (starting one costs seconds in a contended VM).
FIFOS=/tmp/bench-fifo
declare -A _ctl_fd
ctl_start() { # NS tc|ip
	local f=$FIFOS/$1.$2 fd
	mkfifo "$f"
	$2 -n "$1" -force -batch "$f" >> "$RAW/ctl.log" 2>&1 &
	_mrc_pids+=("$!")
	exec {fd}>"$f"
	_ctl_fd[$1.$2]=$fd
}
ctl() { # NS tc|ip COMMAND...
	local fd=${_ctl_fd[$1.$2]}
	local ns=$1 kind=$2
	shift 2
	echo "$*" >&"$fd"
	echo "$ns $kind: $*" >> "$RAW/ctl.log"
}

# --- the fabric -----------------------------------------------------------

bench_fabric_up
# The local-plane-down fault takes host A's device down: keep its
# addresses (IPv6 flushes them by default) and save its routes to restore.
# shellcheck disable=SC2046
A sysctl -qw $(for p in $(seq 0 $((P - 1))); do echo "net.ipv6.conf.pl$p.keep_addr_on_down=1"; done)

mkdir -p "$FIFOS"
T0A_LIST=""
for p in $(seq 0 $((P - 1))); do
	ctl_start "$(mrc_fabric_ns t0a "$p")" tc
	ctl_start "$(mrc_fabric_ns t0b "$p")" tc
	T0A_LIST="$T0A_LIST${T0A_LIST:+,}$(mrc_fabric_ns t0a "$p")"
done
ctl_start "$FAB_A" ip
# The fault agent (bench/fault.py), one python for the whole bench.
mkfifo "$FIFOS/agent"
python3 "$here/fault.py" --a "$FAB_A" --t0a "$T0A_LIST" --fifo-dir "$FIFOS" \
	--requests "$FIFOS/agent" >> "$RAW/agent.log" 2>&1 &
_mrc_pids+=("$!")
exec {AGENT_FD}>"$FIFOS/agent"

# MPTCP: one subflow per plane. Host A's plane addresses become reachable
# from B across the plane (routes like those to A's own address), source
# routing sends each from its own plane, `subflow` endpoints open them.
mptcp_ok=1
mptcp_setup() {
	local p aa nh t0b t1 s r
	for h in "$FAB_A" "$FAB_B"; do
		ip -n "$h" mptcp limits set subflow 8 add_addr_accepted 8 || return 1
	done
	for p in $(seq 0 $((P - 1))); do
		aa=${FAB_A_PLANE_ADDR[p]}
		nh=$(ip -n "$FAB_A" -6 route show "fc00:0:$(printf '1%x00' "$p")::/48" | awk '{ print $3 }')
		ip -n "$FAB_A" -6 rule add from "$aa" lookup $((100 + p)) || return 1
		ip -n "$FAB_A" -6 route add "$FAB_B_ADDR/128" via "$nh" dev "pl$p" table $((100 + p)) || return 1
		[ "$p" = 0 ] || ip -n "$FAB_A" mptcp endpoint add "$aa" dev "pl$p" subflow || return 1
		nh=$(ip -n "$FAB_B" -6 route show "fc00:0:$(printf '3%x00' "$p")::/48" | awk '{ print $3 }')
		ip -n "$FAB_B" -6 route add "$aa/128" via "$nh" dev "pl$p" || return 1
		t0b=$(mrc_fabric_ns t0b "$p")
		r=$(ip -n "$t0b" -6 route show "$FAB_A_ADDR/128" | tr '\n' ' ' | sed "s|^$FAB_A_ADDR||")
		eval "ip -n $t0b -6 route add $aa/128 $r" || return 1
		for s in $(seq 0 $((S - 1))); do
			t1=$(mrc_fabric_ns t1 "$p" "$s")
			r=$(ip -n "$t1" -6 route show "$FAB_A_ADDR/128" | sed "s|^$FAB_A_ADDR||")
			eval "ip -n $t1 -6 route add $aa/128 $r" || return 1
		done
	done
}
if has "$PROTOS" mptcp; then
	log "configuring MPTCP"
	if ! mptcp_setup; then
		echo "bench: MPTCP setup failed: the mptcp runs are skipped"
		mptcp_ok=0
	fi
	ip -n "$FAB_A" mptcp endpoint show > "$RAW/mptcp-endpoints.txt" 2>&1
fi
# Host A's routes, one per line, to restore after a plane went down.
ip -n "$FAB_A" -6 route show table all |
	awk '/^[ \t]/ { printf " %s", $0; next } NR > 1 { print "" } { printf "%s", $0 } END { print "" }' |
	grep -v -e 'table local' -e '^fe80' -e '^multicast' -e '^ff00' > "$RAW/routes-a.txt"
ip -n "$FAB_A" -6 rule show > "$RAW/rules-a.txt"

srv_proto() { case $1 in tcp-ecmp) echo tcp ;; *) echo "$1" ;; esac; }

# Shaping: every plane's last hop (T0b -> host B) at RATE Mbit/s, a
# bottleneck inside the fabric like a NIC port's line rate.
shape() {
	local p
	for p in $(seq 0 $((P - 1))); do
		ctl "$(mrc_fabric_ns t0b "$p")" tc qdisc replace dev host root \
			tbf rate "${RATE}mbit" burst 64kb limit "$QUEUE"
	done
}
unshape() {
	local p
	for p in $(seq 0 $((P - 1))); do
		ctl "$(mrc_fabric_ns t0b "$p")" tc qdisc del dev host root
	done
}

port=7100
# write_meta NAME key=value...: a flat JSON object; values are JSON
# already (numbers, null, or strings in double quotes).
write_meta() {
	local name=$1 kv sep=""
	shift
	{
		printf '{'
		for kv in "$@"; do
			case ${kv#*=} in
			'' ) printf '%s"%s": null' "$sep" "${kv%%=*}" ;;
			[0-9-]* | null | \"* | "{"* | "["*) printf '%s"%s": %s' "$sep" "${kv%%=*}" "${kv#*=}" ;;
			*) printf '%s"%s": "%s"' "$sep" "${kv%%=*}" "${kv#*=}" ;;
			esac
			sep=", "
		done
		printf '}\n'
	} > "$RAW/$name.meta.json"
}

# spine_bytes: per spine "p s offered delivered": bytes of A->B traffic
# that entered the spine (its A-side link's RX) and that left it towards
# B (its B-side link's TX; what its queue dropped is the difference).
spine_bytes() {
	local p s t1
	for p in $(seq 0 $((P - 1))); do
		for s in $(seq 0 $((S - 1))); do
			t1=$(mrc_fabric_ns t1 "$p" "$s")
			echo "$p $s $(mrc_link_bytes "$t1" down-a rx) $(mrc_link_bytes "$t1" down-b tx)"
		done
	done
}

# The congested spine's port: a token bucket at CONGEST Mbit/s with a
# 40 ms queue (at least 16 KiB) that fq_codel manages, marking ECN-capable
# packets instead of dropping them (as a switch's AQM would), at once
# when one waited over 2 ms (ce_threshold, as a switch marks above a
# queue threshold: codel's own marking needs 100 ms of standing queue,
# which MRC's spray seldom builds; 52-ecn).
congest() {
	local t1 q
	t1=$(mrc_fabric_ns t1 1 0)
	q=$(awk -v r="$CONGEST" 'BEGIN { q = r * 1e6 / 8 * 0.04; printf "%d", (q < 16384 ? 16384 : q) }')
	ip netns exec "$t1" tc qdisc replace dev down-b root handle 1: \
		tbf rate "${CONGEST}mbit" burst 16kb limit "$q" &&
		ip netns exec "$t1" tc qdisc replace dev down-b parent 1:1 fq_codel ecn ce_threshold 2ms
}

# xfer NAME PROTO SCENARIO FAULT: one timed transfer (1 ms buckets). FAULT
# is none|loss|blackhole|planedown|congested; loss and congested start
# before the transfer, the others FAULT_AT seconds after data starts to
# flow (bench/fault.py picks the plane and spine the protocol uses and
# injects). Undone afterwards.
xfer() {
	local name=$1 proto=$2 scen=$3 fault=$4 srv cli mon='' sp t0a cpu0 cpu1 t_start
	local t_loss=0 watch_fault=none
	port=$((port + 1))
	log "$name"
	B "$MRC_PERF" server -P "$(srv_proto "$proto")" -p "$port" -n 0 -j --bucket-ms 1 \
		--time-limit $((DUR + 30)) > "$RAW/$name.server" 2> "$RAW/$name.server.log" &
	srv=$!
	_mrc_pids+=("$srv")
	mrc_wait_for 60 grep -q listening "$RAW/$name.server.log"
	if [ "$proto" = mrc ]; then
		mrc_stats "$name.before"
		# not through A(): $! must be the monitor itself to stop it
		ip netns exec "$FAB_A" "$MRCCTL" -j monitor > "$RAW/$name.events" 2>&1 &
		mon=$!
		_mrc_pids+=("$mon")
	fi
	t0a=$(mrc_fabric_ns t0a 1)
	case $fault in
	loss)
		# 1% random loss on plane 1's spine links (A -> B), from the start
		for sp in $(seq 0 $((S - 1))); do
			ctl "$t0a" tc qdisc replace dev "up$sp" root netem loss 1%
		done
		t_loss=$(now)
		;;
	congested) congest || log "the congested spine could not be set up" ;;
	blackhole | planedown) watch_fault=$fault ;;
	esac
	local wf=$RAW/$name.fault wport=0
	[ "$proto" = mptcp ] && wport=$port
	echo "$wf $watch_fault $FAULT_AT $wport $((DUR + 30))" >&"$AGENT_FD"
	mrc_wait_for 120 test -e "$wf.armed" || log "the fault agent is not answering"
	local perf=
	if [ "$scen" = profile ]; then
		# perf walks /lib/modules/VERSION (9p: minutes here) for module
		# files: it gets an empty one, the host resolves with kallsyms
		# shellcheck disable=SC2016
		unshare -m sh -c 'mount -t tmpfs none "/lib/modules/$(uname -r)" && exec "$@"' sh \
			perf record -q -e cpu-clock -a -F 499 --no-buildid --no-buildid-cache \
			-o "/tmp/$name.perf.data" -- sleep "$DUR" > "$RAW/$name.perf.log" 2>&1 &
		perf=$!
		_mrc_pids+=("$perf")
	fi
	local spines0
	spines0=$(spine_bytes)
	cpu0=$(cpu_busy)
	t_start=$(now)
	# shellcheck disable=SC2046
	A "$MRC_PERF" client $(proto_args "$proto") -p "$port" -j --bucket-ms 1 \
		--duration "$DUR" --time-limit $((DUR + 25)) > "$RAW/$name.client" 2>&1 &
	cli=$!
	_mrc_pids+=("$cli")
	wait "$cli"
	local crc=$?
	wait "$srv"
	local src=$?
	cpu1=$(cpu_busy)
	# per spine: what this transfer offered it and what it delivered (a
	# JSON list, kept in the run's meta)
	local spines
	spines=$(spine_bytes | paste -d' ' - <(echo "$spines0") |
		awk '{ printf "%s{\"plane\": %d, \"spine\": %d, \"offered\": %.0f, \"delivered\": %.0f}", \
			(NR > 1 ? ", " : "["), $1, $2, $3 - $7, $4 - $8 } END { print "]" }')
	mrc_wait_for $((DUR + 40)) test -e "$wf"
	# perf report runs on the host (bench/run.sh): it takes minutes here
	[ -n "$perf" ] && wait "$perf" && cp "/tmp/$name.perf.data" "$RAW/" &&
		cat /proc/kallsyms > "$RAW/kallsyms"
	[ -n "$mon" ] && kill "$mon" 2>/dev/null && mrc_stats "$name.after"
	# undo whatever was done
	for p in $(seq 0 $((P - 1))); do
		for sp in $(seq 0 $((S - 1))); do
			case $fault in
			loss | blackhole) ctl "$(mrc_fabric_ns t0a "$p")" tc qdisc del dev "up$sp" root ;;
			esac
		done
		[ "$fault" = planedown ] && ctl "$FAB_A" ip link set "pl$p" up
	done
	[ "$fault" = planedown ] && plane_restore
	[ "$fault" = congested ] && ip netns exec "$(mrc_fabric_ns t1 1 0)" tc qdisc del dev down-b root
	write_meta "$name" name="$name" proto="$proto" scenario="$scen" fault="$fault" \
		watch="$(grep '^{' "$wf" 2>/dev/null || echo null)" \
		loss_unix="$t_loss" start_unix="$t_start" duration_s="$DUR" rate_mbit="$RATE" \
		planes="$P" spines="$S" shaped="${SHAPED:-0}" cpu_busy_s="$(fsub "$cpu1" "$cpu0")" \
		congest_mbit="$CONGEST" spine_bytes="$spines" \
		client_rc="$crc" server_rc="$src"
}

# MRC's counters on both hosts: RAW/NAME.{a,b}.mrcstat
mrc_stats() {
	A cat /proc/net/mrc_stat > "$RAW/$1.a.mrcstat" 2>&1
	B cat /proc/net/mrc_stat > "$RAW/$1.b.mrcstat" 2>&1
}

# After a plane came back up: restore host A's routes (the down removed
# those through it), then wait until they are there.
plane_restore() {
	local line
	while read -r line; do
		[ -n "$line" ] && ctl "$FAB_A" ip route replace "$line"
	done < "$RAW/routes-a.txt"
	mrc_wait_for 20 sh -c "ip -n $FAB_A -6 route show $FAB_B_PINNED | grep -q via"
}

rr() { # NAME PROTO
	local name=$1 proto=$2 srv cli
	port=$((port + 1))
	log "$name"
	B "$MRC_PERF" server -P "$(srv_proto "$proto")" -p "$port" --mode rr -m 64 -j \
		> "$RAW/$name.server" 2> "$RAW/$name.server.log" &
	srv=$!
	_mrc_pids+=("$srv")
	mrc_wait_for 30 grep -q listening "$RAW/$name.server.log"
	# shellcheck disable=SC2046
	timeout 60 ip netns exec "$FAB_A" "$MRC_PERF" client $(proto_args "$proto") -p "$port" \
		--mode rr -m 64 --duration 5 -j > "$RAW/$name.client" 2>&1
	local crc=$?
	wait "$srv"
	write_meta "$name" name="$name" proto="$proto" scenario=rr client_rc="$crc"
}

many() { # NAME PROTO
	local name=$1 proto=$2 srv cli k0 k1 t0
	port=$((port + 1))
	log "$name ($CONNS connections)"
	B "$MRC_PERF" server -P "$(srv_proto "$proto")" -p "$port" --mode many --count "$CONNS" \
		-n 65536 -j --time-limit 150 > "$RAW/$name.server" 2> "$RAW/$name.server.log" &
	srv=$!
	_mrc_pids+=("$srv")
	mrc_wait_for 30 grep -q listening "$RAW/$name.server.log"
	sync
	k0=$(kmem_kb)
	t0=$(now)
	# shellcheck disable=SC2046
	A "$MRC_PERF" client $(proto_args "$proto") -p "$port" --mode many --conns "$CONNS" \
		-n 65536 --idle-hold 4 -j --time-limit 150 > "$RAW/$name.client" 2> "$RAW/$name.client.log" &
	cli=$!
	_mrc_pids+=("$cli")
	k1=
	if mrc_wait_for 140 grep -q connected "$RAW/$name.client.log" &&
		mrc_wait_for 10 grep -q accepted "$RAW/$name.server.log"; then
		k1=$(kmem_kb)
	fi
	wait "$cli"
	local crc=$?
	wait "$srv"
	local src=$?
	write_meta "$name" name="$name" proto="$proto" scenario=many conns="$CONNS" \
		kmem_before_kb="$k0" kmem_idle_kb="${k1:-null}" start_unix="$t0" \
		client_rc="$crc" server_rc="$src"
}

# Wait (up to 2 minutes) until no MRC connection is left on either host.
mrc_quiet() {
	local t0=$SECONDS
	mrc_wait_for 120 sh -c "[ \"\$(ip netns exec $FAB_A $MRCCTL -j conn show)\" = '[]' ] &&
		[ \"\$(ip netns exec $FAB_B $MRCCTL -j conn show)\" = '[]' ]" ||
		log "MRC connections still open after 120 s"
	log "quiet after $((SECONDS - t0)) s"
}

ok_proto() {
	[ "$1" != mptcp ] || [ "$mptcp_ok" = 1 ]
}

# --- the runs -----------------------------------------------------------

write_meta run kernel="\"$(uname -r)\"" planes="$P" spines="$S" rate_mbit="$RATE" queue="\"$QUEUE\"" \
	duration_s="$DUR" fault_at_s="$FAULT_AT" conns="$CONNS" protos="\"$PROTOS\"" \
	scenarios="\"$SCENARIOS\"" mptcp_ok="$mptcp_ok" vcpus="$(nproc)" \
	mem_kb="$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"

shaped_scens=""
for s in aggregate loss blackhole planedown congested; do
	has "$SCENARIOS" "$s" && shaped_scens="$shaped_scens $s"
done
if [ -n "$shaped_scens" ]; then
	shape
	SHAPED=1
	for proto in $PROTOS; do
		ok_proto "$proto" || continue
		for s in $shaped_scens; do
			case $s in
			aggregate) xfer "$proto-aggregate" "$proto" aggregate none ;;
			loss) xfer "$proto-loss" "$proto" loss loss ;;
			blackhole) xfer "$proto-blackhole" "$proto" blackhole blackhole ;;
			planedown) xfer "$proto-planedown" "$proto" planedown planedown ;;
			congested) xfer "$proto-congested" "$proto" congested congested ;;
			esac
		done
	done
	unshape
	SHAPED=0
fi
for proto in $PROTOS; do
	ok_proto "$proto" || continue
	has "$SCENARIOS" rr && rr "$proto-rr" "$proto"
	has "$SCENARIOS" cpu && xfer "$proto-cpu" "$proto" cpu none
	# where the CPU goes (perf in the VM), for MRC and the TCP it is
	# compared with; a run of its own so perf does not weigh on "cpu"
	if has "$SCENARIOS" profile && command -v perf > /dev/null && has "mrc tcp" "$proto"; then
		xfer "$proto-profile" "$proto" profile none
	fi
done
# Many connections last: what is left of them (MRC connections timing
# out) must not weigh on the other measurements.
for proto in $PROTOS; do
	ok_proto "$proto" || continue
	has "$SCENARIOS" many && many "$proto-many" "$proto" && mrc_quiet
done
A cat /proc/net/mrc_stat > "$RAW/mrc_stat.final" 2>/dev/null
log "done"
exit 0
