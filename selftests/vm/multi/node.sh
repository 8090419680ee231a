#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One host of the multi-guest selftests (Documentation/testing.md, "Two
# kernels"): what each guest does to itself, the same script on both so
# that the two ends are configured alike. The test guest runs it
# directly, the peer through its agent (lib_multi.sh: on_b).
#
# Usage: node.sh ROLE COMMAND [ARGS]      ROLE: a (test guest) or b (peer)
#   net       name the NICs by MAC (mgmt, pl0..plP-1), address them, add
#             the host address, routes and the End.DT6 SIDs
#   load      load mrc.ko (once)
#   config MODE [EVS]  MRC planes and paths to the other host, one path per
#             plane: usid, srh (both straight to the peer's per-plane
#             End.DT6 SID) or entropy (EVS entropy values, default 16)
#   routes    put back the plane links' addresses and routes (a link set
#             down loses them)
#   up P      plane P's link up, with its address and routes at once
#   reset     undo what a test changed: MRC planes, qdiscs, offloads,
#             MTU, links down, background processes
#
# Addressing: host X (a or b) is fd00:X::1 on lo; plane p's link is
# fd01:p::/64, a = ::1, b = ::2; host X's SID on plane p is the uSID
# e0Xp (fc00:0:e0Xp::/48, End.DT6 into the local table), reached only
# through plane p, so an SRv6 path stays on its plane.
# Environment: MRC_MULTI_PLANES (2), MRC_MULTI_MTU (9000).
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
MRCCTL=${MRCCTL:-$root/build/tools/mrcctl/mrcctl}
role=$1
cmd=$2
shift 2
peer=b
[ "$role" = b ] && peer=a
planes=${MRC_MULTI_PLANES:-2}
mtu=${MRC_MULTI_MTU:-9000}
# Host a is ::1 (and 10.99.0.1) on every link, b ::2: plane p's address
# of this host is fd01:p::$me_n, the peer's fd01:p::$peer_n (no
# subshell per address: each costs in the emulated guest).
me_n=1
peer_n=2
[ "$role" = b ] && me_n=2 peer_n=1
# The peer's address over every plane (entropy mode, and the source
# address connect() picks): the nexthops of that route, for net, routes
# and up.
peer_nh=
for p in $(seq 0 $((planes - 1))); do
	peer_nh="$peer_nh nexthop via fd01:$p::$peer_n dev pl$p"
done

net() {
	local d mac name p
	modprobe -qa virtio_net e1000e
	modprobe -q dummy
	sysctl -qw net.ipv6.conf.all.seg6_enabled=1 net.ipv6.conf.default.seg6_enabled=1 \
		net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
	for d in /sys/class/net/*; do
		mac=$(cat "$d/address")
		case $mac in
		52:54:00:00:0?:ff) name=mgmt ;;
		52:54:00:00:0?:0?) name=pl${mac: -1} ;;
		*) continue ;;
		esac
		ip link set "${d##*/}" name "$name" || return 1
	done
	ip addr add "10.99.0.$me_n/24" dev mgmt && ip link set mgmt up || return 1
	ip addr add "fd00:$role::1/128" dev lo
	ip link add name dt0 type dummy && ip link set dt0 up
	for p in $(seq 0 $((planes - 1))); do
		ip link set "pl$p" mtu "$mtu" || return 1
		sysctl -qw "net.ipv6.conf.pl$p.seg6_enabled=1"
		ip addr add "fd01:$p::$me_n/64" dev "pl$p" nodad
		ip link set "pl$p" up || return 1
		ip route add "fc00:0:e0$role$p::/48" encap seg6local action End.DT6 table 255 dev dt0
		ip route add "fc00:0:e0$peer$p::/48" via "fd01:$p::$peer_n" dev "pl$p"
	done
	# shellcheck disable=SC2086
	ip route add "fd00:$peer::1/128" src "fd00:$role::1" $peer_nh
}

load() {
	[ -d /sys/module/mrc ] && return 0
	modprobe -qa udp_tunnel ip6_udp_tunnel tunnel6
	insmod "$root/kmod/mrc.ko"
}

config() {
	local mode=$1 evs=${2:-16} p f
	f=$(mktemp)
	for p in $(seq 0 $((planes - 1))); do
		echo "plane del $p"
	done | "$MRCCTL" -batch - >/dev/null 2>&1
	echo "policy set default backups 0" > "$f"
	for p in $(seq 0 $((planes - 1))); do
		echo "plane add $p dev pl$p saddr fd01:$p::$me_n" >> "$f"
		case $mode in
		usid) echo "path add $p dst fd00:$peer::1/128 plane $p mode usid usid fc00:0:e0$peer$p::" ;;
		srh) echo "path add $p dst fd00:$peer::1/128 plane $p mode srh segs fc00:0:e0$peer$p::" ;;
		entropy) echo "path add $p dst fd00:$peer::1/128 plane $p mode entropy entropy $evs" ;;
		*) echo "node.sh: no mode $mode" >&2; rm -f "$f"; return 2 ;;
		esac >> "$f"
	done
	"$MRCCTL" -batch "$f"
	local rc=$?
	rm -f "$f"
	return $rc
}

# A link set down loses its IPv6 addresses and routes: put them back
# (no-ops for those still there).
routes() {
	local p
	{
		for p in $(seq 0 $((planes - 1))); do
			echo "addr replace fd01:$p::$me_n/64 dev pl$p nodad"
			echo "route replace fc00:0:e0$peer$p::/48 via fd01:$p::$peer_n dev pl$p"
		done
		echo "route replace fd00:$peer::1/128 src fd00:$role::1$peer_nh"
	} | ip -force -batch -
}

# up P: plane P's link up again with its address and routes in one ip
# batch, so that no packet finds the link up but unrouted (a link set
# down loses both; replaying them one ip at a time takes a few hundred
# ms in the emulated guest).
up() {
	local p=$1
	ip -force -batch - <<-EOF
		link set pl$p up
		addr replace fd01:$p::$me_n/64 dev pl$p nodad
		route replace fc00:0:e0$peer$p::/48 via fd01:$p::$peer_n dev pl$p
		route replace fd00:$peer::1/128 src fd00:$role::1$peer_nh
	EOF
}

reset() {
	local p
	[ -s /tmp/node-pids ] && xargs -r kill < /tmp/node-pids 2>/dev/null
	rm -f /tmp/node-pids
	for p in $(seq 0 $((planes - 1))); do
		tc qdisc del dev "pl$p" root 2>/dev/null
		ethtool -K "pl$p" tx on rx on gro on >/dev/null 2>&1
		ip link set "pl$p" mtu "$mtu" up >/dev/null 2>&1
		echo "plane del $p"
	done | { [ -d /sys/module/mrc ] && "$MRCCTL" -batch - >/dev/null 2>&1; }
	routes
	return 0
}

case $cmd in
net | load | config | routes | up | reset) "$cmd" "$@" ;;
*) sed -n '9,20p' "$0" >&2; exit 2 ;;
esac
