#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-profile, inside the VM (bench/profile.sh boots it): where the
# CPU goes and what is wasted while one MRC stream and one TCP stream move
# the same number of bytes over the bench's fabric (unshaped, like the
# bench's cpu scenario), and what an idle connection costs in kernel
# memory. Raw results go to $BENCH_OUT/raw; bench/profile_report.py turns
# them into the summary.
#
# Per protocol, one measured transfer of BENCH_PROFILE_BYTES, and over
# exactly its window:
#   - the guest instructions executed per function (the host's QEMU plugin
#     bench/insn-profile.cc, started and stopped through $BENCH_OUT/profile.ctl)
#   - `perf stat -a`: software counters and tracepoints (packets sent and
#     received by every device of the fabric, skbs freed and dropped,
#     allocations, hrtimers, softirqs, context switches)
#   - /proc/stat (the VM's busy CPU time), host A's devices
#   - MRC: /proc/net/mrc_stat and `mrcctl -j stats` on both hosts before
#     and after, `mrcctl -j conn show` every 5 s, the event stream
#   - TCP: /proc/net/snmp and netstat of both hosts before and after
# then the MRC transfer again with a larger rto_min (BENCH_PROFILE_RTO_MIN),
# then a shorter transfer under `perf record -a -g -e cpu-clock`.
# Last, BENCH_PROFILE_IDLE idle connections per protocol: /proc/meminfo,
# /proc/slabinfo and /proc/vmallocinfo before and while they are held.
#
# Environment (defaults in brackets)
#   BENCH_OUT [/tmp/out]  BENCH_P [4]  BENCH_S [2]
#   BENCH_PROFILE_BYTES [134217728]  BENCH_PROFILE_PERF_BYTES [a quarter;
#   0: no perf record]  BENCH_PROFILE_PROTOS ["mrc tcp"]
#   BENCH_PROFILE_IDLE [200; 0: no idle connections]
#   BENCH_PROFILE_PLUGIN [0; 1: the QEMU plugin is loaded]
#   BENCH_PROFILE_RTO_MIN [20ms: one more MRC transfer per value, with the
#                          default policy's rto-min set to it; "" for none]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../selftests/lib.sh"
. "$here/../selftests/lib_fabric.sh"
. "$here/lib_guest.sh"

OUT=${BENCH_OUT:-/tmp/out}
RAW=$OUT/raw
P=${BENCH_P:-4}
S=${BENCH_S:-2}
BYTES=${BENCH_PROFILE_BYTES:-134217728}
PERF_BYTES=${BENCH_PROFILE_PERF_BYTES:-$((BYTES / 4))}
PROTOS=${BENCH_PROFILE_PROTOS:-mrc tcp}
IDLE=${BENCH_PROFILE_IDLE:-200}
PLUGIN=${BENCH_PROFILE_PLUGIN:-0}
RTO_MIN=${BENCH_PROFILE_RTO_MIN-20ms}
mkdir -p "$RAW"

# The events perf stat counts over a measured transfer. Tracepoints count
# exactly; cpu-clock and task-clock are time, not samples.
EVENTS=cpu-clock,task-clock,context-switches,cpu-migrations,page-faults
EVENTS=$EVENTS,net:net_dev_xmit,net:netif_receive_skb,net:netif_rx,net:napi_gro_receive_entry
EVENTS=$EVENTS,skb:kfree_skb,skb:consume_skb,skb:skb_copy_datagram_iovec
EVENTS=$EVENTS,kmem:kmalloc,kmem:kmem_cache_alloc,kmem:mm_page_alloc,kmem:kfree
EVENTS=$EVENTS,timer:hrtimer_start,timer:hrtimer_expire_entry,timer:timer_start
EVENTS=$EVENTS,irq:softirq_entry,sched:sched_switch,sched:sched_wakeup
EVENTS=$EVENTS,tcp:tcp_retransmit_skb,udp:udp_fail_queue_rcv_skb,raw_syscalls:sys_enter

# The QEMU plugin: "start NAME" / "stop NAME" lines in the shared
# directory's control file; the host answers with NAME.started/.stopped.
pseq=0
plugin() { # start|stop NAME
	[ "$PLUGIN" = 1 ] || return 0
	pseq=$((pseq + 1))
	echo "$pseq $1 $2" >> "$OUT/profile.ctl"
	local ack=$OUT/$2.started
	[ "$1" = stop ] && ack=$OUT/$2.stopped
	mrc_wait_for 20 test -e "$ack" || log "the QEMU plugin did not answer $1 $2"
}

# snap NAME.WHEN: every counter of both hosts
snap() {
	local h n
	for h in a b; do
		n=$FAB_A
		[ $h = b ] && n=$FAB_B
		ip netns exec "$n" cat /proc/net/mrc_stat > "$RAW/$1.$h.mrcstat" 2>&1
		ip netns exec "$n" "$MRCCTL" -j stats > "$RAW/$1.$h.stats.json" 2>&1
		ip netns exec "$n" cat /proc/net/snmp > "$RAW/$1.$h.snmp" 2>&1
		ip netns exec "$n" cat /proc/net/netstat > "$RAW/$1.$h.netstat" 2>&1
		ip netns exec "$n" cat /proc/net/snmp6 > "$RAW/$1.$h.snmp6" 2>&1
		ip netns exec "$n" cat /proc/net/dev > "$RAW/$1.$h.dev" 2>&1
	done
}

# conn_poll NAME PROTO: per-connection counters every 5 s until killed
# (each poll starts processes: their instructions count in the profile)
conn_poll() {
	while :; do
		if [ "$2" = mrc ]; then
			echo "{\"t\": $(now), \"a\": $(A "$MRCCTL" -j conn show 2>/dev/null || echo null), \"b\": $(B "$MRCCTL" -j conn show 2>/dev/null || echo null)}"
		else
			echo "== $(now)"
			A ss -tinH state established 2>/dev/null
		fi >> "$RAW/$1.conn"
		sleep 5
	done
}

# perf_ready PID: perf has opened all its counters
# shellcheck disable=SC2317 # called through mrc_wait_for
perf_ready() {
	local want n
	want=$(($(echo "$EVENTS" | tr ',' '\n' | wc -l) * $(nproc)))
	n=$(find "/proc/$1/fd" -lname 'anon_inode:*perf_event*' 2> /dev/null | wc -l)
	[ "$n" -ge "$want" ]
}

port=7500
# xfer NAME PROTO BYTES MODE: one transfer of BYTES; MODE stat (plugin,
# perf stat, counters) or record (perf record -g)
xfer() {
	local name=$1 proto=$2 bytes=$3 mode=$4 srv mon='' poll pst cpu0 cpu1 t0 t1 crc src
	port=$((port + 1))
	log "$name: $bytes bytes, $mode"
	B "$MRC_PERF" server -P "$proto" -p "$port" -n "$bytes" -j --bucket-ms 100 \
		--time-limit 900 > "$RAW/$name.server" 2> "$RAW/$name.server.log" &
	srv=$!
	_mrc_pids+=("$srv")
	mrc_wait_for 60 grep -q listening "$RAW/$name.server.log"
	snap "$name.before"
	if [ "$proto" = mrc ]; then
		ip netns exec "$FAB_A" "$MRCCTL" -j monitor > "$RAW/$name.events" 2>&1 &
		mon=$!
		_mrc_pids+=("$mon")
	fi
	conn_poll "$name" "$proto" &
	poll=$!
	_mrc_pids+=("$poll")
	# shellcheck disable=SC2207
	local cli=(ip netns exec "$FAB_A" "$MRC_PERF" client $(proto_args "$proto") -p "$port"
		-n "$bytes" -j --bucket-ms 100 --time-limit 900)
	cpu0=$(cpu_busy)
	t0=$(now)
	if [ "$mode" = stat ]; then
		# perf stat runs until interrupted, so its start and end (seconds
		# of parsing tracepoint formats here) stay out of the plugin's
		# window, which is the client's run
		perf stat -a -x, -o "$RAW/$name.perfstat" -e "$EVENTS" > "$RAW/$name.perfstat.log" 2>&1 &
		pst=$!
		_mrc_pids+=("$pst")
		# counting once it has opened every counter on every CPU
		mrc_wait_for 60 perf_ready "$pst"
		sleep 0.5
		plugin start "$name"
		t0=$(now)
		cpu0=$(cpu_busy)
		timeout 900 "${cli[@]}" > "$RAW/$name.client" 2> "$RAW/$name.client.log"
		crc=$?
		cpu1=$(cpu_busy)
		t1=$(now)
		plugin stop "$name"
		kill -INT "$pst"
		wait "$pst"
	else
		# perf record walks /lib/modules/VERSION (9p: minutes in the VM)
		# to find each module's file; the host resolves symbols with
		# kallsyms, so perf gets an empty one
		# shellcheck disable=SC2016
		timeout 600 unshare -m sh -c 'mount -t tmpfs none "/lib/modules/$(uname -r)" && exec "$@"' sh \
			perf record -q -a -g -e cpu-clock -F 499 --no-buildid --no-buildid-cache \
			-o "/tmp/$name.perf.data" -- "${cli[@]}" \
			> "$RAW/$name.client" 2> "$RAW/$name.client.log"
		crc=$?
	fi
	if [ "$mode" = record ]; then
		t1=$(now)
		cpu1=$(cpu_busy)
	fi
	wait "$srv"
	src=$?
	kill "$poll" 2>/dev/null
	[ -n "$mon" ] && kill "$mon" 2>/dev/null
	snap "$name.after"
	[ "$mode" = record ] && cp "/tmp/$name.perf.data" "$RAW/" && rm -f "/tmp/$name.perf.data"
	cat > "$RAW/$name.meta.json" <<-EOF
		{"name": "$name", "proto": "$proto", "mode": "$mode", "bytes": $bytes,
		 "start_unix": $t0, "end_unix": $t1, "cpu_busy_s": $(awk -v a="$cpu1" -v b="$cpu0" 'BEGIN { printf "%.2f", a - b }'),
		 "client_rc": $crc, "server_rc": $src}
	EOF
}

# kmem NAME: the kernel's memory accounting, whole guest
kmem() {
	cat /proc/meminfo > "$RAW/$1.meminfo"
	cat /proc/slabinfo > "$RAW/$1.slabinfo"
	cat /proc/vmallocinfo > "$RAW/$1.vmallocinfo" 2>/dev/null
}

# idle NAME PROTO: IDLE connections held idle; memory before and during
idle() {
	local name=$1 proto=$2 srv cli
	port=$((port + 1))
	log "$name: $IDLE idle connections"
	B "$MRC_PERF" server -P "$proto" -p "$port" --mode many --count "$IDLE" \
		-n 4096 -j --time-limit 240 > "$RAW/$name.server" 2> "$RAW/$name.server.log" &
	srv=$!
	_mrc_pids+=("$srv")
	mrc_wait_for 30 grep -q listening "$RAW/$name.server.log"
	sync
	echo 2 > /proc/sys/vm/drop_caches
	sleep 1
	kmem "$name.before"
	# shellcheck disable=SC2046
	A "$MRC_PERF" client $(proto_args "$proto") -p "$port" --mode many --conns "$IDLE" \
		-n 4096 --idle-hold 30 -j --time-limit 240 > "$RAW/$name.client" 2> "$RAW/$name.client.log" &
	cli=$!
	_mrc_pids+=("$cli")
	if mrc_wait_for 150 grep -q connected "$RAW/$name.client.log" &&
		mrc_wait_for 20 grep -q accepted "$RAW/$name.server.log"; then
		sleep 2
		kmem "$name.idle"
		if [ "$proto" = mrc ]; then
			A "$MRCCTL" -j conn show > "$RAW/$name.idle.a.conn.json" 2>&1
			B "$MRCCTL" -j conn show > "$RAW/$name.idle.b.conn.json" 2>&1
		else
			A ss -tmnH state established > "$RAW/$name.idle.a.ss" 2>&1
		fi
	else
		log "$name: the connections were not all up in time"
	fi
	wait "$cli"
	wait "$srv"
}

# --- the fabric, as the bench builds it ------------------------------------

{
	echo "kernel $(uname -r)"
	echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "available $(cat /sys/devices/system/clocksource/clocksource0/available_clocksource)"
	echo "vcpus $(nproc)"
	perf version
	echo "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid)"
	echo "kptr_restrict $(cat /proc/sys/kernel/kptr_restrict)"
} > "$RAW/guest.txt" 2>&1

bench_fabric_up
# perf and the plugin need the kernel's symbols, mrc.ko's among them
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid
A "$MRCCTL" -j policy show > "$RAW/policy.json" 2>&1
A "$MRCCTL" -j path show > "$RAW/paths.json" 2>&1
# the symbols, mrc.ko's among them, for perf report and the plugin's
# addresses on the host
cat /proc/kallsyms > "$RAW/kallsyms"
cat /sys/module/mrc/sections/.text > "$RAW/mrc.text" 2>/dev/null
log "kallsyms: $(grep -c '\[mrc\]' "$RAW/kallsyms") mrc.ko symbols"

# perf stat refuses the whole list if one tracepoint is missing
if ! perf stat -a -x, -e "$EVENTS" -- true > "$RAW/perfstat-check.txt" 2>&1; then
	log "some tracepoints are missing ($(tail -1 "$RAW/perfstat-check.txt")): software counters only"
	EVENTS=cpu-clock,task-clock,context-switches,cpu-migrations,page-faults
fi
for proto in $PROTOS; do
	xfer "$proto-stat" "$proto" "$BYTES" stat
done
# The same MRC transfer with a larger rto_min: how much of the cost the
# timeouts below the VM's jitter account for (the policy is changed at
# run time with mrcctl, the module is the same)
for rto in $RTO_MIN; do
	has "$PROTOS" mrc || break
	for h in "$FAB_A" "$FAB_B"; do
		ip netns exec "$h" "$MRCCTL" policy set default rto-min "$rto" > /dev/null
	done
	xfer "mrc-rtomin$rto-stat" mrc "$BYTES" stat
	for h in "$FAB_A" "$FAB_B"; do
		ip netns exec "$h" "$MRCCTL" policy set default rto-min 2ms > /dev/null
	done
done
for proto in $PROTOS; do
	[ "$PERF_BYTES" -gt 0 ] || break
	xfer "$proto-record" "$proto" "$PERF_BYTES" record
done
for proto in $PROTOS; do
	[ "$IDLE" -gt 0 ] || break
	idle "$proto-idle" "$proto"
	[ "$proto" = mrc ] && mrc_wait_for 120 sh -c "[ \"\$(ip netns exec $FAB_A $MRCCTL -j conn show)\" = '[]' ]"
done
log "done"
exit 0
