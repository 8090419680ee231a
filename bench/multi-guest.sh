#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-multi, in guest A of the two-kernel harness (bench/multi-run.sh
# runs it through selftests/vm/multi/run.sh, like a test of
# selftests/multi): the aggregate scenario of make bench across two
# kernels. Each plane link is shaped at B's ingress (an IFB with tbf at
# RATE Mbit/s, 40 ms of queue: a switch port's line rate, dropping
# silently, where a shaper on A's egress would refuse packets to A's own
# stack); then, for MRC (usid, one path per plane) and TCP (one flow,
# which the route's ECMP puts on one plane), one verified mrc-perf
# transfer A->B of DUR seconds. Goodput is B's, from 1 s to the end (100
# ms buckets), as make bench counts it. Results: $xres/results.json,
# which bench/multi-run.sh turns into the table.
# Parameters: $MRC_ROOT/build/bench-multi/params.env (written by
# bench/multi-run.sh: the guest inherits no environment), else RATE=25
# DUR=10 PROTOS="mrc tcp".
# timeout: 300
. "$(dirname "$0")/../selftests/multi/lib_multi.sh"

RATE=25
DUR=10
PROTOS="mrc tcp"
params=$MRC_ROOT/build/bench-multi/params.env
# shellcheck disable=SC1090
[ -r "$params" ] && . "$params"
mrc_info "bench-multi: $MULTI_P planes shaped at $RATE Mbit/s, $DUR s per transfer, $PROTOS"

mrc_module_load
multi_setup usid
queue=$(awk -v r="$RATE" 'BEGIN { q = r * 1e6 / 8 * 0.04; printf "%db", (q < 65536 ? 65536 : q) }')
shape_b() {
	local p cmd="modprobe ifb numifbs=0"
	for p in $(seq 0 $((MULTI_P - 1))); do
		cmd="$cmd && ip link add ifb$p type ifb && ip link set ifb$p up"
		cmd="$cmd && tc qdisc add dev pl$p handle ffff: ingress"
		cmd="$cmd && tc filter add dev pl$p parent ffff: matchall action mirred egress redirect dev ifb$p"
		cmd="$cmd && tc qdisc add dev ifb$p root tbf rate ${RATE}mbit burst 64kb limit $queue"
	done
	on_b "$cmd"
}
unshape_b() {
	local p cmd=true
	for p in $(seq 0 $((MULTI_P - 1))); do
		cmd="$cmd; tc qdisc del dev pl$p ingress; ip link del ifb$p"
	done
	on_b "$cmd" > /dev/null 2>&1
}
mrc_on_exit unshape_b
mrc_check "B: every plane shaped at its ingress, $RATE Mbit/s" shape_b

# goodput NAME: B's goodput of transfer NAME from 1 s to its last bucket
# that moved data, Mbit/s.
goodput() {
	python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
b, ms = s["buckets_bytes"], s["bucket_ms"]
end = len(b)
while end and not b[end - 1]:
    end -= 1
lo = 1000 // ms
print("%.1f" % (sum(b[lo:end]) * 8 / ((end - lo) * ms / 1000) / 1e6 if end > lo else 0))' "$xres/$1.server"
}

plane_tx() { # A's packets sent on each plane link so far, one line
	local p
	for p in $(seq 0 $((MULTI_P - 1))); do dev_tx_packets "pl$p"; done | paste -sd' '
}

results="{\"rate_mbit\": $RATE, \"planes\": $MULTI_P, \"duration_s\": $DUR"
for proto in $PROTOS; do
	name=aggregate-$proto
	tx0=$(plane_tx)
	if multi_server "$name" -P "$proto" -n 0 --bucket-ms 100; then
		"$MRC_PERF" client -j -P "$proto" -c "$MULTI_B_ADDR" -p "$MULTI_PORT" \
			--duration "$DUR" --time-limit $((DUR + 60)) > "$res/$name.client" 2>&1
	fi
	mrc_check "$proto: $DUR s A->B, every byte verified" multi_server_done "$name" 60
	multi_report "$name"
	g=$(goodput "$name" 2>/dev/null)
	# which planes carried it: A's packets sent per plane link
	tx=$(echo "$(plane_tx) $tx0" | awk '{ n = NF / 2; for (i = 1; i <= n; i++)
		printf "%s%d", (i > 1 ? "," : ""), $i - $(i + n) }')
	mrc_info "$proto: goodput after 1 s ${g:-?} Mbit/s; A's packets per plane $tx"
	results="$results, \"$proto\": {\"goodput_mbit\": ${g:-null}, \"tx_pkts_per_plane\": [$tx],"
	results="$results \"server\": $(cat "$xres/$name.server" 2>/dev/null || echo null)}"
done
results="$results, \"kernel\": \"$(uname -r)\"}"
echo "$results" > "$xres/results.json"
mrc_check "results written" python3 -c "import json; json.load(open('$xres/results.json'))"
mrc_done
