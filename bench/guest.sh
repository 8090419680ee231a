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
#             address, fullmesh endpoints add planes 1..P-1
#
# Environment (defaults in brackets)
#   BENCH_OUT [/tmp/out]  BENCH_P [4]  BENCH_S [2]  BENCH_RATE_MBIT [25]
#   BENCH_DURATION [12]   BENCH_FAULT_AT [4]  BENCH_CONNS [1000]
#   BENCH_PROTOS ["mrc tcp tcp-ecmp mptcp"]
#   BENCH_SCENARIOS ["aggregate loss blackhole planedown rr cpu many"]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../selftests/lib.sh"
. "$here/../selftests/lib_fabric.sh"

OUT=${BENCH_OUT:-/tmp/out}
RAW=$OUT/raw
P=${BENCH_P:-4}
S=${BENCH_S:-2}
RATE=${BENCH_RATE_MBIT:-25}
DUR=${BENCH_DURATION:-12}
FAULT_AT=${BENCH_FAULT_AT:-4}
CONNS=${BENCH_CONNS:-1000}
PROTOS=${BENCH_PROTOS:-mrc tcp tcp-ecmp mptcp}
SCENARIOS=${BENCH_SCENARIOS:-aggregate loss blackhole planedown rr cpu many}
mkdir -p "$RAW"

log() { echo "bench: $(date -u +%H:%M:%S) $*"; }
A() { ip netns exec "$FAB_A" "$@"; }
B() { ip netns exec "$FAB_B" "$@"; }
has() { [[ " $1 " == *" $2 "* ]]; }

# Seconds of CPU time the whole VM spent busy (all CPUs, /proc/stat).
cpu_busy() {
	awk '/^cpu / { b = $2 + $3 + $4 + $7 + $8 + $9; printf "%.2f\n", b / 100 }' /proc/stat
}

# Kernel memory in kB: slab + vmalloc (what sockets allocate).
kmem_kb() {
	awk '/^(Slab|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo
}

now() { date +%s.%N; }

# tx bytes of a device in a namespace (no python: every process start
# costs a lot under emulation)
tx_bytes() {
	ip -n "$1" -s link show dev "$2" | awk '/TX:/ { getline; print $1; exit }'
}

# fsub A B: A - B for decimals
fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a - b }'; }

# pick_plane: the plane carrying this flow: plane 1 when it carries at
# least 5% of host A's traffic (every multi-plane protocol does), else the
# busiest. Samples host A's plane devices over 0.5 s.
pick_plane() {
	local p a=() b=() best=0 bestd=-1 total=0 d
	for p in $(seq 0 $((P - 1))); do a[p]=$(tx_bytes "$FAB_A" "pl$p"); done
	sleep 0.5
	for p in $(seq 0 $((P - 1))); do
		b[p]=$(tx_bytes "$FAB_A" "pl$p")
		d=$((b[p] - a[p]))
		total=$((total + d))
		if [ "$d" -gt "$bestd" ]; then best=$p; bestd=$d; fi
	done
	d=$((b[1] - a[1]))
	if [ "$P" -gt 1 ] && [ $((d * 20)) -ge "$total" ]; then
		echo 1
	else
		echo "$best"
	fi
}

# pick_spine PLANE: the busiest spine link (T0a up) of that plane.
pick_spine() {
	local pl=$1 s a=() d best=0 bestd=-1 t0a
	t0a=$(mrc_fabric_ns t0a "$pl")
	for s in $(seq 0 $((S - 1))); do a[s]=$(tx_bytes "$t0a" "up$s"); done
	sleep 0.5
	for s in $(seq 0 $((S - 1))); do
		d=$(($(tx_bytes "$t0a" "up$s") - a[s]))
		if [ "$d" -gt "$bestd" ]; then best=$s; bestd=$d; fi
	done
	echo "$best"
}

# --- the fabric -----------------------------------------------------------

log "loading mrc.ko, building the $P x $S fabric"
mrc_module_load
mrc_fabric_build "$P" "$S" || { echo "bench: fabric build failed"; exit 1; }
mrc_fabric_pin_addr 1 0
mrc_fabric_mrc_config usid || { echo "bench: mrcctl configuration failed"; exit 1; }
for h in "$FAB_A" "$FAB_B"; do
	ip netns exec "$h" "$MRCCTL" policy set default backups 0 >/dev/null
done
# The local-plane-down fault takes host A's device down: keep its
# addresses (IPv6 flushes them by default) and save its routes to restore.
for p in $(seq 0 $((P - 1))); do
	A sysctl -qw "net.ipv6.conf.pl$p.keep_addr_on_down=1"
done

# MPTCP: one subflow per plane. Host A's plane addresses become reachable
# from B across the plane (routes like those to A's own address), source
# routing sends each from its own plane, fullmesh endpoints open them.
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
		[ "$p" = 0 ] || ip -n "$FAB_A" mptcp endpoint add "$aa" dev "pl$p" subflow fullmesh || return 1
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
	if ! mptcp_setup; then
		echo "bench: MPTCP setup failed: the mptcp runs are skipped"
		mptcp_ok=0
	fi
	# The endpoint on plane 0 is the one the client binds (also in the PM
	# so a lost initial subflow can come back).
	ip -n "$FAB_A" mptcp endpoint add "${FAB_A_PLANE_ADDR[0]}" dev pl0 subflow fullmesh 2>/dev/null
	ip -n "$FAB_A" mptcp endpoint show > "$RAW/mptcp-endpoints.txt" 2>&1
fi
A ip -6 route show > "$RAW/routes-a.txt"
A ip -6 rule show >> "$RAW/routes-a.txt"

# Per protocol: mrc-perf arguments (client side).
proto_args() {
	case $1 in
	mrc) echo "-P mrc -c $FAB_B_ADDR" ;;
	tcp) echo "-P tcp -c $FAB_B_PINNED" ;;
	tcp-ecmp) echo "-P tcp -c $FAB_B_ADDR" ;;
	mptcp) echo "-P mptcp -c $FAB_B_ADDR -b ${FAB_A_PLANE_ADDR[0]}" ;;
	esac
}
srv_proto() { case $1 in tcp-ecmp) echo tcp ;; *) echo "$1" ;; esac; }

# Shaping: every plane's last hop (T0b -> host B) at RATE Mbit/s, a
# bottleneck inside the fabric like a NIC port's line rate.
shape() {
	local p
	for p in $(seq 0 $((P - 1))); do
		tc -n "$(mrc_fabric_ns t0b "$p")" qdisc replace dev host root \
			tbf rate "${RATE}mbit" burst 64kb limit 512kb
	done
}
unshape() {
	local p
	for p in $(seq 0 $((P - 1))); do
		tc -n "$(mrc_fabric_ns t0b "$p")" qdisc del dev host root 2>/dev/null
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
			[0-9-]* | null | \"*) printf '%s"%s": %s' "$sep" "${kv%%=*}" "${kv#*=}" ;;
			*) printf '%s"%s": "%s"' "$sep" "${kv%%=*}" "${kv#*=}" ;;
			esac
			sep=", "
		done
		printf '}\n'
	} > "$RAW/$name.meta.json"
}

# xfer NAME PROTO SCENARIO FAULT: one timed transfer (1 ms buckets). FAULT
# is none|loss|blackhole|planedown; loss starts before the transfer,
# the others FAULT_AT seconds in. Undoes the fault afterwards.
xfer() {
	local name=$1 proto=$2 scen=$3 fault=$4 srv cli mon= t_fault=0 desc=none
	local pl= sp= t0a undo=: cpu0 cpu1 stat0 t_start conns=
	port=$((port + 1))
	log "$name"
	stat0=$(A cat /proc/net/mrc_stat 2>/dev/null | tr '\n' ' ')
	B "$MRC_PERF" server -P "$(srv_proto "$proto")" -p "$port" -n 0 -j --bucket-ms 1 \
		--time-limit $((DUR + 20)) > "$RAW/$name.server" 2> "$RAW/$name.server.log" &
	srv=$!
	_mrc_pids+=("$srv")
	mrc_wait_for 30 grep -q listening "$RAW/$name.server.log"
	if [ "$proto" = mrc ]; then
		A "$MRCCTL" -j monitor > "$RAW/$name.events" 2>&1 &
		mon=$!
		_mrc_pids+=("$mon")
	fi
	if [ "$fault" = loss ]; then
		# 1% random loss on plane 1's spine links (A -> B), from the start
		pl=1
		for sp in $(seq 0 $((S - 1))); do
			tc -n "$(mrc_fabric_ns t0a 1)" qdisc replace dev "up$sp" root netem loss 1%
		done
		undo="for sp in \$(seq 0 $((S - 1))); do tc -n $(mrc_fabric_ns t0a 1) qdisc del dev up\$sp root; done"
		desc="netem loss 1% on plane 1's spine links"
		t_fault=$(now)
	fi
	cpu0=$(cpu_busy)
	t_start=$(now)
	# shellcheck disable=SC2046
	A "$MRC_PERF" client $(proto_args "$proto") -p "$port" -j --bucket-ms 1 \
		--duration "$DUR" --time-limit $((DUR + 15)) > "$RAW/$name.client" 2>&1 &
	cli=$!
	_mrc_pids+=("$cli")
	if [ "$proto" = mptcp ]; then
		sleep 1
		conns=$(A ss -Htn state established "( dport = :$port )" | wc -l)
	fi
	case $fault in
	blackhole | planedown)
		# place the fault FAULT_AT s after the start (the pickers sample
		# 0.5 s each just before it)
		sleep "$(awk -v f="$FAULT_AT" -v e="$(fsub "$(now)" "$t_start")" \
			'BEGIN { d = f - 1.2 - e; printf "%.3f\n", d > 0 ? d : 0 }')"
		pl=$(pick_plane)
		if [ "$fault" = blackhole ]; then
			sp=$(pick_spine "$pl")
			t0a=$(mrc_fabric_ns t0a "$pl")
			t_fault=$(now)
			tc -n "$t0a" qdisc replace dev "up$sp" root netem loss 100%
			undo="tc -n $t0a qdisc del dev up$sp root"
			desc="silent blackhole: netem loss 100% on plane $pl spine $sp (T0a up$sp)"
		else
			A ip -6 route show | awk '/^[ \t]/ { printf " %s", $0; next } NR > 1 { print "" } { printf "%s", $0 } END { print "" }' \
				> "$RAW/$name.routes"
			t_fault=$(now)
			A ip link set "pl$pl" down
			undo="plane_up $pl $RAW/$name.routes"
			desc="local plane down: host A's pl$pl set down"
		fi
		;;
	esac
	wait "$cli"
	local crc=$?
	wait "$srv"
	local src=$?
	cpu1=$(cpu_busy)
	[ -n "$mon" ] && kill "$mon" 2>/dev/null
	eval "$undo"
	A cat /proc/net/mrc_stat 2>/dev/null > "$RAW/$name.mrcstat.after"
	echo "$stat0" > "$RAW/$name.mrcstat.before"
	write_meta "$name" name="$name" proto="$proto" scenario="$scen" fault="$fault" \
		fault_desc="\"$desc\"" fault_unix="$t_fault" start_unix="$t_start" \
		plane="${pl:-null}" spine="${sp:-null}" duration_s="$DUR" rate_mbit="$RATE" \
		planes="$P" spines="$S" shaped="${SHAPED:-0}" cpu_busy_s="$(fsub "$cpu1" "$cpu0")" \
		client_rc="$crc" server_rc="$src" mptcp_subflows="${conns:-null}"
}

# Bring host A's plane back and restore the routes the down took away.
plane_up() {
	local pl=$1 routes=$2 line
	A ip link set "pl$pl" up
	mrc_wait_for 10 sh -c "ip -n $FAB_A -6 addr show dev pl$pl | grep -q 'fd01.*scope global'"
	while read -r line; do
		[ -n "$line" ] || continue
		# shellcheck disable=SC2086
		ip -n "$FAB_A" -6 route replace $line 2>/dev/null
	done < "$routes"
	mrc_wait_for 10 ip -n "$FAB_A" -6 route get "fc00:0:$(printf '1%x00' "$pl")::" oif "pl$pl"
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
		-n 65536 -j --time-limit 240 > "$RAW/$name.server" 2> "$RAW/$name.server.log" &
	srv=$!
	_mrc_pids+=("$srv")
	mrc_wait_for 30 grep -q listening "$RAW/$name.server.log"
	sync
	k0=$(kmem_kb)
	t0=$(now)
	# shellcheck disable=SC2046
	A "$MRC_PERF" client $(proto_args "$proto") -p "$port" --mode many --conns "$CONNS" \
		-n 65536 --idle-hold 4 -j --time-limit 240 > "$RAW/$name.client" 2> "$RAW/$name.client.log" &
	cli=$!
	_mrc_pids+=("$cli")
	k1=
	if mrc_wait_for 200 grep -q connected "$RAW/$name.client.log" &&
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

ok_proto() {
	[ "$1" != mptcp ] || [ "$mptcp_ok" = 1 ]
}

# --- the runs -----------------------------------------------------------

write_meta run kernel="\"$(uname -r)\"" planes="$P" spines="$S" rate_mbit="$RATE" \
	duration_s="$DUR" fault_at_s="$FAULT_AT" conns="$CONNS" protos="\"$PROTOS\"" \
	scenarios="\"$SCENARIOS\"" mptcp_ok="$mptcp_ok" vcpus="$(nproc)" \
	mem_kb="$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"

shaped_scens=""
for s in aggregate loss blackhole planedown; do
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
	has "$SCENARIOS" many && many "$proto-many" "$proto"
done
A cat /proc/net/mrc_stat > "$RAW/mrc_stat.final" 2>/dev/null
log "done"
exit 0
