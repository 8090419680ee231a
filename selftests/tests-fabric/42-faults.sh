#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Failures mid-transfer on the reference fabric (usid mode), each with
# every byte verified:
#  - a silent blackhole of one spine link (netem loss 100%: the link stays
#    up): the paths through it go ASSUMED_BAD, the transfer never stalls
#    long, and after the repair probes bring the paths back to GOOD;
#  - a local plane link going down and back: the plane's paths leave and
#    come back with it.
# timeout: 1200
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"

mrc_module_load
mrc_fabric_build 4 2 || { mrc_fail "fabric"; mrc_done; }
for h in "$FAB_A" "$FAB_B"; do
	ip netns exec "$h" "$MRCCTL" policy set default backups 0 >/dev/null
done
mrc_check "configure usid paths" mrc_fabric_mrc_config usid
res=$(mrc_tmpdir)	# not "out": mrc_check has a local of that name

stat() { # NS NAME: one MIB counter of a namespace
	ip netns exec "$1" cat /proc/net/mrc_stat | awk -v n="$2" '$1 == n { print $2 }'
}
stat_at_least() { # NS NAME MIN
	[ "$(stat "$1" "$2")" -ge "$3" ]
}

# transfer_with FAULT REPAIR: a 24 MiB transfer; FAULT runs once data
# flows, REPAIR after the transfer. Sets $res to the server's JSON.
transfer_with() {
	local name=$1 fault=$2 before
	before=$(stat "$FAB_B" InPkts)
	mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$res/$name" \
		-t stream -n 25165824 &
	local xfer=$!
	mrc_wait_for 60 stat_at_least "$FAB_B" InPkts $((before + 500))
	eval "$fault"
	wait "$xfer"
}

# 1. Silent blackhole of spine 0 of plane 1, A->B direction.
t0a=$(mrc_fabric_ns t0a 1)
bad0=$(stat "$FAB_A" PathToBad)
good0=$(stat "$FAB_A" PathToGood)
mrc_check "blackhole: 24 MiB verified across a silent spine blackhole" \
	transfer_with blackhole "tc -n $t0a qdisc add dev up0 root netem loss 100%"
stall=$(mrc_json "$res/blackhole.server" longest_stall_ms)
mrc_info "blackhole: longest delivery stall ${stall} ms, goodput $(mrc_json "$res/blackhole.server" goodput_mbps) Mbit/s"
mrc_check "blackhole: longest stall under 2 s (emulated VM)" \
	python3 -c "import sys; sys.exit(0 if float('$stall') < 2000 else 1)"
mrc_check "blackhole: a path went ASSUMED_BAD (PathToBad)" \
	stat_at_least "$FAB_A" PathToBad $((bad0 + 1))
tc -n "$t0a" qdisc del dev up0 root
# A connection alive across the repair sees its paths come back.
mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$res/repair" -t stream -n 8388608 &
rep=$!
mrc_check "blackhole repaired: probes bring paths back (PathToGood)" \
	mrc_wait_for 120 stat_at_least "$FAB_A" PathToGood $((good0 + 1))
wait "$rep"
mrc_check_eq "transfer after the repair verified" 0 "$?"

# 2. Local plane 2 goes down mid-transfer, then comes back.
down0=$(stat "$FAB_A" PlaneDown)
mrc_check "plane down: 24 MiB verified across a local link down" \
	transfer_with planedown "ip -n $FAB_A link set pl2 down"
mrc_info "plane down: longest stall $(mrc_json "$res/planedown.server" longest_stall_ms) ms"
mrc_check "plane down counted" stat_at_least "$FAB_A" PlaneDown $((down0 + 1))
ip -n "$FAB_A" link set pl2 up
mrc_check "plane up again: verified transfer" \
	mrc_perf_transfer "$FAB_B" "$FAB_A" "$FAB_B_ADDR" "$res/planeup" -t stream -n 8388608
mrc_done
