#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-multi, in guest A of the two-kernel harness (bench/multi-run.sh
# runs it through selftests/vm/multi/run.sh, like a test of
# selftests/multi): the main scenarios of make bench across two kernels.
# Each plane link is shaped at B's ingress (an IFB with tbf at RATE
# Mbit/s, 40 ms of queue: a switch port's line rate, dropping silently,
# where a shaper on A's egress would refuse packets to A's own stack);
# then, per scenario, for MRC (usid, one path per plane) and TCP (one
# flow, which the route's ECMP puts on one plane), one verified mrc-perf
# transfer A->B of DUR seconds (B's goodput in 100 ms buckets):
#   aggregate  no fault. Goodput from 1 s to the end, as make bench counts
#              it.
#   blackhole  at DUR/2, every packet A sends on one plane is lost
#              silently (netem loss 100% on A's plane link: no error to
#              the sender, no ICMP, the link keeps its carrier, B->A
#              untouched) until the transfer has ended.
#   planedown  at DUR/2, A's link of that plane goes down (ip link set
#              down: A's kernel sees it, B's NIC keeps its carrier), up
#              again with its addresses and routes once the transfer has
#              ended (node.sh up).
# The faulted plane is the one TCP's flow takes (A's packets per plane
# link), so that TCP meets the fault; MRC meets it on the same plane. A
# fault scenario reached before any TCP transfer runs its TCP transfer
# first, to learn the plane (no TCP at all: the last plane). The fault
# is made on A, with one local command at real-time priority, so that it
# starts on time on A's clock (B, busy receiving, takes seconds to run a
# command: 25-blackhole). For each fault: goodput before it (1 s to the
# fault) and after it (1 s after the fault's command returned to 0.5 s
# before DUR; nothing received counts as 0), B's longest stall, whether
# every byte was verified. Both sides give up DUR + 20 s (client) and
# DUR + 25 s (server) after they started: a TCP flow that never gets past
# the fault is reported "not completed", and does not fail the bench; an
# MRC transfer that does not verify does. The fault is lifted, and the
# plane checked to pass packets, before the next transfer.
# Results: $xres/results.json, which bench/multi-run.sh turns into the
# table; each transfer's server and client JSON beside it.
# Parameters: $MRC_ROOT/build/bench-multi/params.env (written by
# bench/multi-run.sh: the guest inherits no environment), else RATE=25
# DUR=10 PROTOS="mrc tcp" SCENARIOS="aggregate blackhole planedown".
# timeout: 900
# shellcheck source=selftests/multi/lib_multi.sh
. "$(dirname "$0")/../selftests/multi/lib_multi.sh"

RATE=25
DUR=10
PROTOS="mrc tcp"
SCENARIOS="aggregate blackhole planedown"
params=$MRC_ROOT/build/bench-multi/params.env
# shellcheck disable=SC1090
[ -r "$params" ] && . "$params"
mrc_info "bench-multi: $MULTI_P planes shaped at $RATE Mbit/s, $DUR s per transfer," \
	"protocols $PROTOS, scenarios $SCENARIOS"
# whole seconds: the fault's time is DUR/2 in microseconds
[[ $DUR =~ ^[1-9][0-9]*$ ]] || { mrc_fail "DUR=$DUR: whole seconds only"; mrc_done; }
for s in $SCENARIOS; do
	case $s in
	aggregate | blackhole | planedown) ;;
	*) mrc_fail "no scenario $s (aggregate, blackhole, planedown)"; mrc_done ;;
	esac
done

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
# The fault's commands start at once: their module loaded, their binaries
# cached.
modprobe -q sch_netem
tc qdisc show dev pl0 > /dev/null
ip link show dev pl0 > /dev/null

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

# plane_tx: A's packets sent on each plane link so far, one line. No
# program started: it runs just before a fault.
plane_tx() {
	local p v line=""
	for ((p = 0; p < MULTI_P; p++)); do
		read -r v < "/sys/class/net/pl$p/statistics/tx_packets"
		line="$line${line:+ }$v"
	done
	echo "$line"
}
# tx_diff LATER EARLIER: packets per plane between two plane_tx lines,
# comma-separated.
tx_diff() {
	echo "$1 $2" | awk '{ n = NF / 2; for (i = 1; i <= n; i++)
		printf "%s%d", (i > 1 ? "," : ""), $i - $(i + n); print "" }'
}
# busiest DIFF: the plane that sent the most in a tx_diff (none: -1).
busiest() {
	echo "$1" | awk -F, '{ b = -1; m = 0; for (i = 1; i <= NF; i++) if ($i > m) { m = $i; b = i - 1 }
		print b }'
}
# sleep_until US: until A's wall clock (EPOCHREALTIME) reads US, in
# microseconds.
sleep_until() {
	local d=$(($1 - ${EPOCHREALTIME/[.,]/}))
	[ "$d" -gt 0 ] && sleep "$((d / 1000000)).$(printf %06d $((d % 1000000)))"
	return 0
}
nic_of() { basename "$(readlink "/sys/class/net/pl$1/device/driver")"; }

# The faults, on A's plane link P. Real-time priority: A's one CPU is
# busy sending (25-blackhole: a plain tc took 0.7-1.2 s there, 0.3 s
# this way).
fault_on() { # SCENARIO P
	case $1 in
	blackhole) chrt -f 50 tc qdisc replace dev "pl$2" root netem loss 100% ;;
	planedown) chrt -f 50 ip link set "pl$2" down ;;
	esac
}
fault_off() { # SCENARIO P
	case $1 in
	blackhole) tc qdisc del dev "pl$2" root ;;
	planedown) node_a up "$2" ;;
	esac
}
# plane_clean P: plane P carries packets both ways again and MRC has its
# plane up: the next transfer starts from where the first did.
plane_clean() {
	[ "$(cat "/sys/class/net/pl$1/operstate")" = up ] &&
		ping -6 -c 1 -W 1 -I "pl$1" "fd01:$1::2" > /dev/null 2>&1 &&
		"$MRCCTL" -j plane show "$1" |
		python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)[0]["oper"] != "up")'
}
# netem_drops P: packets the blackhole's netem dropped on pl P.
netem_drops() {
	tc -s qdisc show dev "pl$1" root | awk '/dropped/ { sub(",", "", $7); print $7; exit }'
}

# summary NAME SCENARIO PROTO FAULT_JSON TX GOODPUT: transfer NAME's
# figures into $xres/NAME.json. FAULT_JSON: null, or what xfer knows of
# the fault (times on A's clock, us); TX: A's packets per plane link during
# the transfer; GOODPUT: the aggregate's figure, or empty.
summary() {
	python3 - "$xres/$1.server" "$xres/$1.client" "$2" "$3" "$4" "$5" "${6:-null}" "$DUR" \
		> "$xres/$1.json" <<'PY'
import json, math, sys
def load(path):
    try:
        lines = [l for l in open(path).read().splitlines() if l.startswith("{")]
        return json.loads(lines[-1]) if lines else None
    except (OSError, ValueError):
        return None
srv, cli = load(sys.argv[1]), load(sys.argv[2])
scen, proto, fault = sys.argv[3], sys.argv[4], json.loads(sys.argv[5])
tx, goodput, dur = sys.argv[6], json.loads(sys.argv[7]), float(sys.argv[8])
s = srv or {}
out = {"verified": bool(s.get("verified")),
       "error": s.get("error") if srv else "no result from the server on B",
       "bytes": s.get("bytes"), "longest_stall_ms": s.get("longest_stall_ms"),
       "tx_pkts_per_plane": [int(x) for x in tx.split(",")]}
# what was received was wrong, or nothing says what it was: a transfer
# that merely did not complete (a time limit, a reset) is neither
out["bad"] = srv is None or "differs" in (out["error"] or "") or "message" in (out["error"] or "")
if goodput is not None:
    out["goodput_mbit"] = goodput
b, ms = s.get("buckets_bytes") or [], s.get("bucket_ms") or 100
def rate_between(lo_s, hi_s):
    """Mbit/s in B's buckets lo_s to hi_s after its first byte (past the
    last byte received: 0); None for a window without a whole bucket."""
    i0, i1 = math.ceil(lo_s * 1000 / ms), int(hi_s * 1000 // ms)
    if i1 <= i0:
        return None
    return round(sum(b[i0:i1]) * 8 / ((i1 - i0) * ms / 1000) / 1e6, 2)
if fault:
    # B's buckets start with its first byte, the client's start_unix
    # (A's clock) with its first send: a one-way delay apart, a few ms
    t0 = (cli or {}).get("start_unix") or fault["launch_us"] / 1e6
    if fault.get("injected"):
        f0, f1 = fault["on_us"] / 1e6 - t0, fault["on_done_us"] / 1e6 - t0
        fault["at_s"], fault["cmd_ms"] = round(f0, 3), round((f1 - f0) * 1000, 1)
        out["before_mbit"] = rate_between(1.0, f0)
        out["after_mbit"] = rate_between(f1 + 1.0, dur - 0.5)
        if s.get("longest_stall_start_ms") is not None:
            out["stall_start_after_fault_ms"] = round(s["longest_stall_start_ms"] - f0 * 1000, 1)
    out["fault"] = fault
out["server"], out["client"] = srv, cli
print(json.dumps(out))
PY
}

# describe NAME: one line of transfer NAME's figures.
describe() {
	python3 - "$xres/$1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
f = lambda v: "-" if v is None else "%.1f" % v
line = []
if "goodput_mbit" in r:
    line.append("goodput after 1 s %s Mbit/s" % f(r["goodput_mbit"]))
if "fault" in r:
    line.append("goodput before the fault %s, after %s Mbit/s" % (f(r.get("before_mbit")),
                                                                 f(r.get("after_mbit"))))
line.append("longest stall %s ms" % f(r["longest_stall_ms"]))
line.append("every byte verified" if r["verified"] else "not completed (%s)" % r["error"])
line.append("A's packets per plane link %s" % " / ".join(map(str, r["tx_pkts_per_plane"])))
print("; ".join(line))
PY
}

# xfer SCENARIO PROTO: one verified transfer A->B of DUR s, through the
# scenario's fault; its figures in $xres/SCENARIO-PROTO.json.
TCP_PLANE=
xfer() {
	local scen=$1 proto=$2 name=$1-$2 cli crc tx0 txf tx1 plane="" on="" on_done="" launch
	local lim=$((DUR + 60)) slim="" fault=null ok=0 g="" drops
	[ "$scen" = aggregate ] || { lim=$((DUR + 20)); slim="--time-limit $((DUR + 25))"; }
	tx0=$(plane_tx)
	# shellcheck disable=SC2086
	if ! multi_server "$name" -P "$proto" -n 0 --bucket-ms 100 $slim; then
		mrc_fail "$name: no server on B"
		return 1
	fi
	launch=${EPOCHREALTIME/[.,]/}
	mrc_bg "$MRC_PERF" client -j -P "$proto" -c "$MULTI_B_ADDR" -p "$MULTI_PORT" \
		--duration "$DUR" --time-limit "$lim" > "$res/$name.client" 2> "$res/$name.client.log"
	cli=$MRC_BG_PID
	if [ "$scen" != aggregate ]; then
		sleep_until $((launch + DUR * 500000))
		txf=$(plane_tx)
		if [ "$proto" = tcp ]; then
			# TCP's flow: the plane that carried it so far
			plane=$(busiest "$(tx_diff "$txf" "$tx0")")
			[ "$plane" -ge 0 ] || plane=${TCP_PLANE:-$((MULTI_P - 1))}
			TCP_PLANE=$plane
		else
			plane=${TCP_PLANE:-$((MULTI_P - 1))}
		fi
		if kill -0 "$cli" 2>/dev/null; then
			on=${EPOCHREALTIME/[.,]/}
			fault_on "$scen" "$plane" && on_done=${EPOCHREALTIME/[.,]/}
		fi
	fi
	wait "$cli"
	crc=$?
	multi_server_done "$name" $((DUR + 40)) > /dev/null && ok=1
	tx1=$(plane_tx)
	if [ "$scen" = aggregate ]; then
		g=$(goodput "$name" 2>/dev/null)
		# TCP's plane in this boot: its route's ECMP hash is the same for
		# every connection from A to B
		if [ "$proto" = tcp ]; then
			plane=$(busiest "$(tx_diff "$tx1" "$tx0")")
			[ "$plane" -ge 0 ] && TCP_PLANE=$plane
		fi
	fi
	if [ -n "$on" ]; then
		drops=null
		[ "$scen" = blackhole ] && drops=$(netem_drops "$plane")
		fault_off "$scen" "$plane"
		mrc_check "$name: fault lifted, plane $plane passes packets again" \
			mrc_wait_for 30 plane_clean "$plane"
		fault="{\"scenario\": \"$scen\", \"plane\": $plane, \"nic\": \"$(nic_of "$plane")\","
		fault="$fault \"injected\": $([ -n "$on_done" ] && echo true || echo false),"
		fault="$fault \"launch_us\": $launch, \"on_us\": $on, \"on_done_us\": ${on_done:-$on},"
		fault="$fault \"dropped\": ${drops:-null},"
		fault="$fault \"tx_pkts_per_plane_before\": [$(tx_diff "$txf" "$tx0")],"
		fault="$fault \"tx_pkts_per_plane_after\": [$(tx_diff "$tx1" "$txf")]}"
	elif [ "$scen" != aggregate ]; then
		fault="{\"scenario\": \"$scen\", \"plane\": $plane, \"injected\": false, \"launch_us\": $launch}"
	fi
	cp "$res/$name.client" "$res/$name.client.log" "$xres/" 2>/dev/null
	multi_report "$name"
	summary "$name" "$scen" "$proto" "$fault" "$(tx_diff "$tx1" "$tx0")" "$g"
	mrc_info "$name: $(describe "$name")"
	[ -n "$on" ] && mrc_info "$name: fault on plane $plane ($(nic_of "$plane")) at" \
		"$(((on - launch) / 1000)) ms, its command took $(((${on_done:-$on} - on) / 1000)) ms;" \
		"A's packets per plane link before it $(tx_diff "$txf" "$tx0"), after it" \
		"$(tx_diff "$tx1" "$txf")$([ "$scen" = blackhole ] && echo "; netem dropped $drops")"
	# MRC verifies every byte in every scenario, TCP without a fault; TCP
	# may not get past a fault (reported), but what it delivered is right
	if [ "$scen" != aggregate ] && [ -z "$on_done" ]; then
		mrc_fail "$name: the fault was not injected$([ -z "$on" ] &&
			echo ": the client had ended before DUR/2")"
	elif [ "$proto" = mrc ] || [ "$scen" = aggregate ]; then
		mrc_check "$name: $DUR s A->B, every byte verified (client status $crc)" [ "$ok" = 1 ]
	elif [ "$ok" = 1 ]; then
		mrc_pass "$name: $DUR s A->B through the fault, every byte verified"
	else
		mrc_check "$name: not completed, but what B received was right" \
			python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["bad"])' \
			"$xres/$name.json"
	fi
	return 0
}

for scen in $SCENARIOS; do
	order=$PROTOS
	# a fault needs TCP's plane: learn it from TCP's own transfer first
	if [ "$scen" != aggregate ] && [ -z "$TCP_PLANE" ] && [[ " $PROTOS " == *" tcp "* ]]; then
		order="tcp $(echo " $PROTOS " | sed 's/ tcp / /g')"
	fi
	for proto in $order; do
		xfer "$scen" "$proto"
	done
done

python3 - "$xres" "$RATE" "$MULTI_P" "$DUR" "$SCENARIOS" "$PROTOS" "$(uname -r)" \
	> "$xres/results.json" <<'PY'
import json, os, sys
xres, rate, planes, dur, scens, protos, kernel = sys.argv[1:8]
r = {"rate_mbit": json.loads(rate), "planes": int(planes), "duration_s": json.loads(dur),
     "scenarios": scens.split(), "protos": protos.split(), "kernel": kernel}
for scen in r["scenarios"]:
    for proto in r["protos"]:
        f = os.path.join(xres, "%s-%s.json" % (scen, proto))
        if os.path.exists(f):
            r.setdefault(scen, {})[proto] = json.load(open(f))
print(json.dumps(r))
PY
mrc_check "results written" python3 -c "import json; json.load(open('$xres/results.json'))"
mrc_done
