#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo, inside the VM: the same 4-rank training job (PyTorch, gloo,
# DistributedDataParallel, unmodified) over MRC and over TCP at the same
# time, on a 4-host, 4-plane SRv6 fabric; then one spine link dies
# silently under both. MRC runs through mrcize; TCP uses the fabric's
# ECMP routes, as TCP would.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$(dirname "$0")/../workloads/lib_apps.sh"

say() { printf '\n\033[1m## %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }
A() { in_ns "$FAB_A" "$@"; }
out=${MRC_DEMO_OUT:-/tmp/out}	# the host's build/demo (9p)
# The launchers' files (a FIFO each, progress rewritten every step) live
# on the guest's own /tmp: 9p has no FIFOs. Copied to $out at the end.
work=/tmp/demo
HEAD_S=10	# fault-free seconds before the cut
TAIL_S=15	# seconds with the link dead
GLOO_TIMEOUT=60

say "1. Load the MRC module into Debian's $(uname -r) kernel"
mrc_module_load
dmesg | grep 'mrc: version' | tail -1

say "2. Build a fabric: 4 hosts, 4 planes x 2 spines, SRv6 uSID routers"
mrc_fabric_build 4 2 4 || exit 1
echo "hosts ${FAB_HOST_ADDR[*]}: 8 paths between every pair"
apps_counters_start

say "3. Tell MRC about the planes and paths, and a failure policy for training"
mrc_fabric_mrc_config usid || exit 1
for ns in "${FAB_HOST_NS[@]}"; do
	in_ns "$ns" "$MRCCTL" policy add training rto-min 10ms rto-max 100ms backups 0
done
# mrcize checks the policy where the launcher starts (this namespace).
"$MRCCTL" policy add training rto-min 10ms rto-max 100ms backups 0
run A "$MRCCTL" plane show
run A "$MRCCTL" policy show training
# Every host's path events: the cut link carries paths of the host below
# it in one direction and of every other host towards it in the other
# (host A's are monitor.txt; the others monitor-HOST.txt).
mons=()
for i in "${!FAB_HOST_NS[@]}"; do
	h=${FAB_HOSTS[i]}
	f=$out/monitor-$h.txt
	[ "$i" = 0 ] && f=$out/monitor.txt
	in_ns "${FAB_HOST_NS[i]}" "$MRCCTL" monitor > "$f" 2>&1 &
	mons+=($!)
	_mrc_pids+=($!)
done
# A capture of host A's plane 0 for Wireshark/tshark (make demo prints one
# decoded packet of it): headers and the first bytes of each packet
# (snaplen 256), the first 5000 packets at most. The link's UDP
# segmentation offload off, so that the capture shows MRC packets as they
# go on the wire, not a burst as the one segmentation-offload packet the
# stack hands the device (datapath.md, "Bursts").
A ethtool -K pl0 tx-udp-segmentation off >/dev/null 2>&1
mkdir -p "$work"
mrc_bg_in_ns "$FAB_A" dumpcap -q -i pl0 -s 256 -c 5000 -a filesize:8192 \
	-w "$work/mrc-demo.pcapng" 2> "$work/dumpcap.log"
cap=$MRC_BG_PID

say "4. The same training job, twice: unmodified PyTorch, over MRC (mrcize) and over TCP"
# One launcher per transport (lib_apps.sh): torch imported once, one
# rank per host; MRC's under mrcize with the demo's policy.
APPS_POLICY=training
for tr in mrc tcp; do
	apps_launcher_start "$tr" "$work/$tr" "$GLOO_TIMEOUT" || exit 1
	echo "\$ ${APPS_WRAP[*]} python3 torch_ddp.py --hosts $(apps_hosts | tr , ' ')"
done
echo "(importing torch in both; about a minute in this emulated VM)"
mrc_wait_for 400 test -e "$work/mrc/ready" -a -e "$work/tcp/ready" ||
	{ tail -5 "$work"/*/log; exit 1; }
# A first short job per launcher pays for the code the ranks load once.
apps_launcher_send mrc "run warmup 5 29400"
apps_launcher_send tcp "run warmup 5 29401"
mrc_wait_for 300 test -e "$work/mrc/warmup.done" -a -e "$work/tcp/warmup.done"
apps_launcher_send mrc "run job 100000 29500"
apps_launcher_send tcp "run job 100000 29501"

# Microseconds since the epoch, and tenths of seconds as "S.D": pure bash,
# so that a status line costs no fork (forks are slow in this VM).
usecs() { local t=${EPOCHREALTIME/./}; echo "${t#0}"; }
tenths() { local d=$(($1 / 100000)); echo "$((d / 10)).$((d % 10))"; }
progress() { apps_launcher_progress "$work/$1" job; }
training() { [ "$(progress mrc)" -gt 0 ] && [ "$(progress tcp)" -gt 0 ]; }
declare -A last_n last_t
live() { # SECONDS: a status line every half second
	local end=$((SECONDS + $1)) tr n now line
	while [ "$SECONDS" -lt "$end" ]; do
		sleep 0.5
		now=$(usecs)
		printf -v line 't=%5ss' "$(tenths $((now - t_start)))"
		for tr in mrc tcp; do
			n=$(progress "$tr")
			if [ "$n" != "${last_n[$tr]:-0}" ]; then
				last_n[$tr]=$n
				last_t[$tr]=$now
				printf -v line '%s | %s: step %5d                 ' "$line" "${tr^^}" "$n"
			else
				printf -v line '%s | %s: step %5d, \033[1mno step for %4ss\033[0m' \
					"$line" "${tr^^}" "$n" "$(tenths $((now - ${last_t[$tr]:-$now})))"
			fi
		done
		echo -e "$line"
	done
}
mrc_wait_for 120 training || { tail -5 "$work"/*/log; exit 1; }
t_start=$(usecs)
echo "both jobs are training (a status line every half second):"
apps_counters blackhole "$out/ctr0"
live "$HEAD_S"
apps_counters blackhole "$out/ctr1"
read -r cut_ns cut_dev <<< "$(apps_busiest blackhole "$out/ctr0" "$out/ctr1")"
echo
echo "now a spine link both jobs use dies silently (the link stays up, every packet is lost):"
run tc -n "$cut_ns" qdisc add dev "$cut_dev" root netem loss 100%
echo "$EPOCHREALTIME" > "$out/fault_unix"
live "$TAIL_S"
touch "$work/mrc/job.stop" "$work/tcp/job.stop"
stop=$EPOCHREALTIME
echo "(stopping both jobs after their current step)"
mrc_wait_for $((GLOO_TIMEOUT + 60)) test -e "$work/mrc/job.done" -a -e "$work/tcp/job.done"
apps_launcher_quit mrc 60
apps_launcher_quit tcp 60
for tr in mrc tcp; do
	mkdir -p "$out/$tr"
	cp "$work/$tr"/*.json "$work/$tr/log" "$out/$tr/" 2>/dev/null
done
kill -INT "$cap" 2>/dev/null
wait "$cap" 2>/dev/null
cp "$work/mrc-demo.pcapng" "$out/" 2>/dev/null && chmod 644 "$out/mrc-demo.pcapng"

say "5. What happened"
cut=$(cat "$out/fault_unix")
for tr in mrc tcp; do
	eval "$("${APPS_HELPER[@]}" "$APPS_DIR/steps.py" "$tr" "$out/$tr/job.json" "$cut,$stop")"
done
for tr in mrc tcp; do
	v=${tr}_ok ok=${!v}; v=${tr}_n n=${!v}; v=${tr}_base_p99_ms p99=${!v}
	v=${tr}_w1_max_ms worst=${!v}; v=${tr}_w1_wait_ms wait=${!v}; v=${tr}_error err=${!v}
	printf '%s: %s steps, %s; fault-free p99 %s ms; after the cut: slowest step %s ms, longest wait for a step %s ms\n' \
		"${tr^^}" "$n" "$([ "$ok" = 1 ] && echo "results equal to one process's" || echo "FAILED: $err")" \
		"$p99" "$worst" "$wait"
done

say "6. How MRC saw it: path events"
kill "${mons[@]}" 2>/dev/null
plane=$(echo "$cut_ns" | sed -n 's/.*-t0[a-f]-\([0-9]*\)-.*/\1/p')
grep -E "path-state .* plane $plane " "$out"/monitor*.txt | head -4
echo "... $(cat "$out"/monitor*.txt | grep -c 'path-state') path events in all, on the ${#mons[@]} hosts"
# How often a path of the cut plane went out and came back, per host: a
# dead path must stay out (issue 17: the min-active floor once brought
# it back over and over, "assumed-bad -> good reason min-active").
ev_cut() { grep -E "path-state .* plane $plane .*$2" "$1" | wc -l; }
for i in "${!FAB_HOST_NS[@]}"; do
	h=${FAB_HOSTS[i]}
	f=$out/monitor-$h.txt
	[ "$i" = 0 ] && f=$out/monitor.txt
	echo "host $h, plane $plane: $(ev_cut "$f" '-> assumed-bad') times out," \
		"$(ev_cut "$f" 'assumed-bad -> good') back ($(ev_cut "$f" 'assumed-bad -> good reason min-active') by the min-active floor);" \
		"PathFlaps $(in_ns "${FAB_HOST_NS[i]}" "$MRCCTL" stats |
			awk '$1 == "PathFlaps" { n = $2 } END { print n + 0 }')"
done
run A "$MRCCTL" stats | grep -E "PathToBad|RetxRto|RetxSack|Recoveries" || true

# make demo prints the verdict last, with the plot's path.
verdict="A spine link died under both jobs: over MRC the training job kept its pace (longest wait for a step after the cut ${mrc_w1_wait_ms} ms, fault-free p99 step ${mrc_base_p99_ms} ms, results verified); over TCP it waited up to ${tcp_w1_wait_ms} ms for a step."
[ "$mrc_ok" = 1 ] || verdict="MRC's job FAILED: $mrc_error"
echo "$verdict" > "$out/verdict.txt"
echo
echo "(full results in $MRC_ROOT/build/demo: mrc/, tcp/ (per-step times), monitor*.txt (path events per host), mrc-demo.pcapng)"
[ "$mrc_ok" = 1 ]
