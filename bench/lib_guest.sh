#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the guest sides of make bench (bench/guest.sh) and make
# bench-profile (bench/profile-guest.sh) share: small helpers, the
# protocols' mrc-perf arguments and the fabric both measure on. Sourced
# after selftests/lib.sh and lib_fabric.sh, with P and S set.

log() { echo "bench: $(date -u +%H:%M:%S) $*"; }
A() { ip netns exec "$FAB_A" "$@"; }
B() { ip netns exec "$FAB_B" "$@"; }
now() { date +%s.%N; }
has() { [[ " $1 " == *" $2 "* ]]; }

# Seconds of CPU time the whole VM spent busy (all CPUs, /proc/stat).
cpu_busy() {
	awk '/^cpu / { b = $2 + $3 + $4 + $7 + $8 + $9; printf "%.2f\n", b / 100 }' /proc/stat
}

# Per protocol: mrc-perf arguments (client side).
proto_args() {
	case $1 in
	mrc) echo "-P mrc -c $FAB_B_ADDR" ;;
	tcp) echo "-P tcp -c $FAB_B_PINNED" ;;
	tcp-ecmp) echo "-P tcp -c $FAB_B_ADDR" ;;
	mptcp) echo "-P mptcp -c $FAB_B_ADDR -b ${FAB_A_PLANE_ADDR[0]}" ;;
	esac
}

# The fabric both measure on: mrc.ko, P x S planes and spines, TCP's
# static path pinned to plane 1 spine 0, MRC over the uSID paths with no
# backup paths (every path carries traffic).
bench_fabric_up() {
	log "loading mrc.ko, building the $P x $S fabric"
	mrc_module_load
	# BENCH_TX_BURST: packets per burst on one path (the tx_burst module
	# parameter; 1 sprays every packet, as before bursts)
	if [ -n "${BENCH_TX_BURST:-}" ]; then
		echo "$BENCH_TX_BURST" > /sys/module/mrc/parameters/tx_burst
	fi
	log "tx_burst $(cat /sys/module/mrc/parameters/tx_burst)"
	mrc_fabric_build "$P" "$S" || { echo "bench: fabric build failed"; exit 1; }
	log "fabric built; configuring MRC"
	mrc_fabric_pin_addr 1 0
	mrc_fabric_mrc_config usid || { echo "bench: mrcctl configuration failed"; exit 1; }
	local h
	for h in "$FAB_A" "$FAB_B"; do
		ip netns exec "$h" "$MRCCTL" policy set default backups 0 >/dev/null
	done
}
