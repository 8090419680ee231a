#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A link that delays by hundreds of milliseconds: 300 ms (netem) on A's
# plane-0 link of the reference fabric (usid, 4 planes x 2 spines),
# during a 24 MiB transfer. Plane 0's two EVs then answer 100 times
# slower than rto_max allows for a packet in flight (the default
# policy's rto_max is 500 ms, its rto_min 2 ms): they must be taken out
# and stay out, the other six carry the data, every byte verified.
# Per EV, from A's mrcctl monitor: each of plane 0's EVs may come back
# (its probes are answered, only late, and the probe interval follows
# the path's RTT) but a path that fails again at once backs off (the
# flap hysteresis, path-state-machine.md 7): at most 2 returns per
# second of transfer per EV, plus one. Fails if a slow path is trusted
# again after each answered probe (returns every few probe intervals).
# The healthy planes' EVs stay in use: at most one spurious failure each
# (a loaded VM). They used to leave GOOD 2 to 5 times each in a 2 s
# transfer, blamed by timeouts that proved nothing (every path's packets
# expiring together, path-state-machine.md "What a timeout proves"):
# fails if a timeout without proof takes a path out again.
# Shared set-up: selftests/lib_faults.sh.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../lib_faults.sh"

faults_setup
faults_monitor_a monitor-delay
mon=$MRC_BG_PID
tc -n "$FAB_A" qdisc add dev pl0 root netem delay 300ms limit 100000
mrc_check "300 ms on plane 0: $(faults_mib 25165824) MiB verified" \
	faults_transfer delay :
faults_report delay
tc -n "$FAB_A" qdisc del dev pl0 root
faults_monitor_stop "$mon" monitor-delay
secs=$(cat "$res/delay.secs")

# Per EV, from A's monitor (faults_ev_changes): the most of one EV, how
# many EVs, each EV's count.
{ read -r slow_n slow_evs _ slow; read -r back_n _ _ back; read -r fast_n _ _ fast_out; } <<< \
	"$(faults_ev_changes "$res/monitor-delay" 0 \
		'e.get("plane") == 0' 'e.get("new_state") == "assumed-bad"' \
		'e.get("plane") == 0' 'returned(e)' \
		'e.get("plane") != 0' 'failed(e)')"
mrc_info "plane 0 (delayed) EVs out: $slow; back: $back; healthy EVs out: $fast_out"
# What the healthy EVs' transitions were blamed on, and what B dropped.
mrc_info "A's healthy-EV reasons: $(grep -E 'path-state .* plane [123] good -> ' "$res/monitor-delay" |
	grep -o 'reason [a-z-]*' | sort | uniq -c | tr -s ' \n' ' ')"
mrc_info "A: $(in_ns "$FAB_A" "$MRCCTL" stats | awk '/^(Retx|PathTo|Probes)/ && $2 { printf "%s %s ", $1, $2 }')"
mrc_info "B: $(in_ns "$FAB_B" "$MRCCTL" stats | awk '/^InDrop/ && $2 { printf "%s %s ", $1, $2 }')"
mrc_check "the delayed plane's EVs were taken out ($slow_evs of 2)" [ "$slow_n" -ge 1 ]
mrc_check "each healthy EV left GOOD at most $FAULTS_HEALTHY_MAX times ($fast_n)" \
	[ "$fast_n" -le "$FAULTS_HEALTHY_MAX" ]
mrc_check "each delayed EV came back at most $((2 * secs + 1)) times in ${secs}s ($back_n)" \
	[ "$back_n" -le $((2 * secs + 1)) ]
mrc_done
