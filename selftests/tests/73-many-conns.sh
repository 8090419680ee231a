#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# 200 connections open at the same time between two namespaces (issue 4's
# floor for the VM), every one established before any sends, then all
# send at once (one epoll loop, selftests/progs/stress.cpp); every byte
# of every connection verified. Once the programs exit every connection
# goes away and the module unloads (the runner fails the test on any
# kernel warning). While they are established and idle, the kernel
# memory they hold is at most 64 KiB per endpoint, and on the stock
# kernel at most 16 KiB (socket, routes, and the engine in one 8 KB
# allocation: its path table sized for the 16 EVs it uses, its send ring
# not allocated before the first write; 11 KiB measured 2026-12-02,
# against 35 KiB when the engine held a send ring and 64 path slots from
# connect, 133 KB with a fixed 1024-PSN engine). KASAN's redzones and
# quarantine make the tight bound a report on a debug kernel.
# The namespaces use a failure policy fit for the emulated VM (rto-min
# 20ms, rto-max 1s, retry-limit 30, probe-interval 200ms, fail-to-bad 4):
# under the default one (rto-min 2ms) the start of 200 senders on one
# emulated veth loses bursts, paths go ASSUMED_BAD, their probes add to
# the load and most connections end in ETIMEDOUT (see the open issues).
# On a slow debug kernel (MRC_TEST_TIME_SCALE) the policy's times are
# scaled too: 200 senders there need far more than 30 s of retries.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

STRESS=$MRC_BUILD/progs/mrc_stress
N=200
BYTES=65536
mrc_module_load
a=$(mrc_ns_new a)
b=$(mrc_ns_new b)
mrc_veth "$a" va fd10::1 "$b" vb fd10::2
dir=$(mrc_tmpdir)
for ns in "$a" "$b"; do
	in_ns "$ns" "$MRCCTL" policy set default rto-min "$(mrc_time 20)ms" \
		rto-max "$(mrc_time 1)s" retry-limit 30 \
		probe-interval "$(mrc_time 200)ms" fail-to-bad 4
done

# jnum FILE KEY: a number of the one-line JSON the program writes.
jnum() {
	grep -o "\"$2\": [0-9.]*" "$1" 2>/dev/null | head -1 | awk '{ print $2 }'
}
established() { # NS: connections in state established
	mrcctl_count_rows in_ns "$1" "$MRCCTL" conn show state established
}
conns() { # NS: connections of any state (listeners included)
	mrcctl_count_rows in_ns "$1" "$MRCCTL" conn
}

sunreclaim_kb() { awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo; }
mem0=$(sunreclaim_kb)
mrc_bg_in_ns "$b" "$STRESS" server -p 7000 --report "$dir/server.json" \
	>"$dir/server.out" 2>"$dir/server.err"
srv=$MRC_BG_PID
mrc_wait_for 30 grep -q listening "$dir/server.err"
mrc_bg_in_ns "$a" "$STRESS" client -c fd10::2 -p 7000 --conns $N --bytes $BYTES \
	--hold "$dir/go" --deadline "$(mrc_time 240)" >"$dir/client.out" 2>"$dir/client.err"
cli=$MRC_BG_PID
mrc_check "$N connections established before any data" \
	mrc_wait_for 120 grep -q "^established $N\$" "$dir/client.err"
# The server completes its side when the RTUs arrive (a lost one costs a
# REP retransmission): poll before counting.
mrc_wait_for 60 eval '[ "$(established "$b")" = "$N" ]'
mrc_check_eq "client side: $N established connections (mrcctl conn)" $N "$(established "$a")"
mrc_check_eq "server side: $N established connections (mrcctl conn)" $N "$(established "$b")"
# Why a requester's connection never reached the server: its CM_RTUs
# came after its cookie's life (security.md, "Cookies live 12 to 16 s").
mrc_info "server's handshakes: $(in_ns "$b" awk '$1 ~ /^Hs/ && $2 > 0 { printf "%s %s ", $1, $2 }' /proc/net/mrc_stat)"
per_ep=$(( ($(sunreclaim_kb) - mem0) / (2 * N) ))
mrc_info "idle: kernel memory (SUnreclaim) +$per_ep KiB per endpoint"
mrc_check "idle: at most 64 KiB of kernel memory per endpoint (+$per_ep KiB)" \
	[ $((per_ep * 2 * N)) -le $((64 * 2 * N + MRC_TEST_MEM_SLACK_KB)) ]
mrc_check_stock "idle: at most 16 KiB of kernel memory per endpoint (+$per_ep KiB)" \
	[ $((per_ep * 2 * N)) -le $((16 * 2 * N + MRC_TEST_MEM_SLACK_KB)) ]
touch "$dir/go"
wait "$cli"
mrc_check_eq "client: every connection completed" 0 "$?"
mrc_info "client: $(cat "$dir/client.out") $(tail -3 "$dir/client.err")"
mrc_check_eq "client: $N completed" $N "$(jnum "$dir/client.out" completed)"
mrc_check_eq "server: $N verified" $N "$(jnum "$dir/server.json" completed)"
mrc_check_eq "server: nothing failed" 0 "$(jnum "$dir/server.json" failed)"
mrc_check_eq "server: every byte" $((N * (BYTES + 16))) "$(jnum "$dir/server.json" bytes)"
kill "$srv"
wait "$srv"
mrc_info "server: $(cat "$dir/server.out")"
mrc_check "every connection gone on both sides" \
	mrc_wait_for 60 eval '[ "$(conns "$a")" = 0 ] && [ "$(conns "$b")" = 0 ]'
if mrc_wait_for 30 rmmod mrc; then
	mrc_pass "module unloads once the sockets are closed"
else
	mrc_fail "module unloads once the sockets are closed"
	mrc_info "refcnt $(cat /sys/module/mrc/refcnt); $(grep '^MRC ' /proc/net/protocols)"
	mrc_info "slab: $(awk '$1 == "MRC"' /proc/slabinfo)"
fi
mrc_check "module loads again" mrc_module_load
mrc_done
