#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reference fabric of the MRC selftests (Documentation/testing.md):
# H hosts (2 by default, up to 6), P planes, S spines per plane, every
# router a namespace. Each plane is a leaf-spine network: every host has
# its own leaf (T0) in every plane, and every spine of a plane (T1) is
# linked to every leaf of that plane.
#
#   host A -- T0a[p] -- T1[p][s] -- T0b[p] -- host B      p < P, s < S
#                          |
#             host C -- T0c[p]    (and D, E, F: T0d[p], ...)
#
# Source the file after lib.sh, then call mrc_fabric_build [P] [S] [H].
# With H = 2 (the default) the fabric is exactly the two-host one every
# fabric test was written for; more hosts only add namespaces, links and
# routes, and leave A's and B's names, devices, addresses and uSIDs alone.
#
# Addressing (host letters a..f: the letter is a hex digit)
#   hosts      A = fd00:a::1, B = fd00:b::1, C = fd00:c::1, ... on lo: one
#              address each, reachable through every plane
#              (plane-independent)
#   links      fd01:<p>:<link>::1 / ::2 /64
#   uSIDs      locator block fc00:0::/32, 16-bit uSIDs:
#              T0a[p] = 1p00, T1[p][s] = 2p0s, T0b[p] = 3p00,
#              T0c[p] = 4p00, T0d[p] = 5p00, T0e[p] = 6p00, T0f[p] = 7p00
#              (hex), host X = e00x (End.DT6 into the local
#              table 255, where a host's own address lives, on a dummy
#              device: IPv6 turns routes via lo into reject routes)
#   A path from host X to host Y on plane p, spine s is the uSID
#   container fc00:0:T0x[p]:T1[p][s]:T0y[p]:e00y:: , from A to B
#   fc00:0:1p00:2p0s:3p00:e00b:: ; routers run End with next-csid.
#   Plain routes between every pair of hosts use ECMP over the spines at
#   the leaves and over the planes at the hosts, for TCP and for entropy
#   mode. The kernel's default IPv6
#   multipath hash (fib_multipath_hash_policy 0) covers the addresses,
#   the next header and the flow label, which carries the EV: that is
#   enough to spread an entropy path's packets, no L4 hash needed.
#
# After mrc_fabric_build: FAB_A, FAB_B (namespaces), FAB_A_ADDR,
# FAB_B_ADDR, FAB_P, FAB_S, FAB_H; every host, A and B first, in
# FAB_HOSTS (letters), FAB_HOST_NS (namespaces) and FAB_HOST_ADDR
# (addresses), index i of each the same host; plane p's device on a
# host is "pl<p>", its address "mrc_fabric_plane_addr X P".

FAB_A_ADDR=fd00:a::1
FAB_B_ADDR=fd00:b::1
FAB_A_PLANE_ADDR=()
FAB_B_PLANE_ADDR=()
FAB_HOSTS=()
FAB_HOST_NS=()
FAB_HOST_ADDR=()
_FAB_LETTERS=(a b c d e f)
declare -gA _fab_plane_addr=()	# "x p": host x's address on plane p
declare -gA _fab_host_nh=()	# x: host x's nexthops, one per plane
declare -gA _fab_up_nh=()	# "x p": T0x[p]'s nexthops, one per spine

# The fabric's names without a subshell each (a $(...) is a fork, 14 ms
# in the emulated guest, and a 4-host fabric names hundreds of nodes):
# the _v functions set a variable; the others print it, for callers.
#
# _fab_ns_v VAR ROLE [P [S]]: the namespace of host ROLE (a..f) or of a
# router: t0a|t0b|t0<x> P, t1 P S.
_fab_ns_v() {
	printf -v "$1" 'mrc-%s%s%s-%s' "$2" "${3:+-$3}" "${4:+-$4}" "$$"
}
_fab_ns() { # role -> namespace name
	local n
	_fab_ns_v n "$1"
	echo "$n"
}

# Namespace of a router: t0a <p> | t1 <p> <s> | t0b <p>
mrc_fabric_ns() {
	local n
	_fab_ns_v n "$@"
	echo "$n"
}

# _fab_usid_v VAR ROLE P [S]: set VAR to the uSID of a node.
_fab_usid_v() {
	case $2 in
	t0a) printf -v "$1" '1%x00' "$3" ;;
	t1) printf -v "$1" '2%x0%x' "$3" "$4" ;;
	t0b) printf -v "$1" '3%x00' "$3" ;;
	t0[c-f]) printf -v "$1" '%x%x00' $((0x${2#t0} - 8)) "$3" ;;	# c: 4p00 ... f: 7p00
	[a-f]) printf -v "$1" 'e00%s' "$2" ;;
	esac
}

# _fab_route_v VAR usid|srh FROM P S TO: set VAR to the source route of
# the path from host FROM to host TO on plane P, spine S: a uSID
# container, or an SRH segment list.
_fab_route_v() {
	local u0 u1 u2 u3
	_fab_usid_v u0 "t0$3" "$4"
	_fab_usid_v u1 t1 "$4" "$5"
	_fab_usid_v u2 "t0$6" "$4"
	_fab_usid_v u3 "$6"
	if [ "$2" = usid ]; then
		printf -v "$1" 'fc00:0:%s:%s:%s:%s::' "$u0" "$u1" "$u2" "$u3"
	else
		printf -v "$1" 'fc00:0:%s::,fc00:0:%s::,fc00:0:%s::,fc00:0:%s::' "$u0" "$u1" "$u2" "$u3"
	fi
}

# _fab_route MODE FROM P S [TO]: _fab_route_v, printed; TO defaults to the
# other of a and b.
_fab_route() {
	local r to=${5:-}
	[ -n "$to" ] || { [ "$2" = a ] && to=b || to=a; }
	_fab_route_v r "$1" "$2" "$3" "$4" "$to"
	echo "$r"
}

# mrc_fabric_usid FROM P S [TO]: the uSID container of the path from host
# FROM to host TO (letters; TO defaults to the other of a and b) on plane
# P, spine S.
mrc_fabric_usid() {
	_fab_route usid "$@"
}

# mrc_fabric_segs FROM P S [TO]: the same path as an SRH segment list.
mrc_fabric_segs() {
	_fab_route srh "$@"
}

# mrc_fabric_host_ns X / mrc_fabric_host_addr X: host X's namespace and
# address (X a letter, a..f).
mrc_fabric_host_ns() {
	_fab_ns "$1"
}

mrc_fabric_host_addr() {
	echo "fd00:$1::1"
}

# mrc_fabric_plane_addr X P: host X's address on plane P (its end of the
# link to T0x[P]).
mrc_fabric_plane_addr() {
	echo "${_fab_plane_addr[$1 $2]}"
}

# Building runs few processes (each costs a lot under emulation): every
# command goes into a batch file, one per namespace, plus one for the
# veth pairs; namespaces inherit forwarding and SRv6 settings from the
# initial namespace (devconf_inherit_init_net).
_fab_n=0

_fab_cmd() { # ns "ip command": queue it for the namespace
	echo "$2" >> "$_fab_dir/ns.$1"
}

_fab_ns_add() {
	echo "netns add $1" >> "$_fab_dir/netns"
	_mrc_namespaces+=("$1")
	_fab_cmd "$1" "link set lo up"
}

# _fab_link NS1 IF1 NS2 IF2 P: queue a veth between two namespaces; sets
# FAB_LA and FAB_LB to the two link addresses.
_fab_link() {
	local n1=$1 i1=$2 n2=$3 i2=$4 p=$5 pre
	_fab_n=$((_fab_n + 1))
	printf -v pre 'fd01:%x:%x' "$p" "$_fab_n"
	echo "link add name $i1 netns $n1 mtu $FAB_MTU type veth peer name $i2 netns $n2 mtu $FAB_MTU" \
		>> "$_fab_dir/root"
	_fab_cmd "$n1" "addr add $pre::1/64 dev $i1 nodad"
	_fab_cmd "$n2" "addr add $pre::2/64 dev $i2 nodad"
	_fab_cmd "$n1" "link set $i1 up"
	_fab_cmd "$n2" "link set $i2 up"
	FAB_LA=$pre::1
	FAB_LB=$pre::2
}

_fab_end() { # ns usid dev: this router's End with next-csid
	_fab_cmd "$1" "route add fc00:0:$2::/48 encap seg6local action End flavors next-csid lblen 32 nflen 16 dev $3"
}

# mrc_fabric_build [P] [S] [H]: build the fabric (default 4 planes, 2
# spines, 2 hosts; at most 6 hosts). FAB_MTU (default 9000) sets every
# link's MTU.
mrc_fabric_build() {
	FAB_P=${1:-4}
	FAB_S=${2:-2}
	FAB_H=${3:-2}
	FAB_MTU=${FAB_MTU:-9000}
	if [ "$FAB_H" -lt 2 ] || [ "$FAB_H" -gt ${#_FAB_LETTERS[@]} ]; then
		echo "mrc_fabric_build: 2 to ${#_FAB_LETTERS[@]} hosts, not $FAB_H" >&2
		return 1
	fi
	FAB_A=$(_fab_ns a)
	FAB_B=$(_fab_ns b)
	FAB_HOSTS=("${_FAB_LETTERS[@]:0:FAB_H}")
	FAB_HOST_NS=()
	FAB_HOST_ADDR=()
	local x x_ns
	for x in "${FAB_HOSTS[@]}"; do
		_fab_ns_v x_ns "$x"
		FAB_HOST_NS+=("$x_ns")
		FAB_HOST_ADDR+=("fd00:$x::1")
	done
	_fab_dir=$(mktemp -d /tmp/fabric.XXXXXX)
	local p s t0a t0b t1 f
	local a_nh="" b_nh="" up_a up_b ua ub ut0a ut0b ut1

	modprobe -q veth
	sysctl -qw net.core.devconf_inherit_init_net=1 \
		net.ipv6.conf.all.forwarding=1 net.ipv6.conf.default.forwarding=1 \
		net.ipv6.conf.all.seg6_enabled=1 net.ipv6.conf.default.seg6_enabled=1 \
		net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0

	_fab_usid_v ua a
	_fab_usid_v ub b
	_fab_ns_add "$FAB_A"
	_fab_ns_add "$FAB_B"
	_fab_cmd "$FAB_A" "addr add $FAB_A_ADDR/128 dev lo"
	_fab_cmd "$FAB_B" "addr add $FAB_B_ADDR/128 dev lo"
	# End.DT6 needs a device that is not loopback (IPv6 turns routes
	# via lo into reject routes): a dummy one.
	_fab_cmd "$FAB_A" "link add name dt0 type dummy"
	_fab_cmd "$FAB_B" "link add name dt0 type dummy"
	_fab_cmd "$FAB_A" "link set dt0 up"
	_fab_cmd "$FAB_B" "link set dt0 up"
	_fab_cmd "$FAB_A" "route add fc00:0:$ua::/48 encap seg6local action End.DT6 table 255 dev dt0"
	_fab_cmd "$FAB_B" "route add fc00:0:$ub::/48 encap seg6local action End.DT6 table 255 dev dt0"

	for p in $(seq 0 $((FAB_P - 1))); do
		_fab_ns_v t0a t0a "$p"
		_fab_ns_v t0b t0b "$p"
		_fab_usid_v ut0a t0a "$p"
		_fab_usid_v ut0b t0b "$p"
		_fab_ns_add "$t0a"
		_fab_ns_add "$t0b"

		# host A -- T0a[p]
		_fab_link "$FAB_A" "pl$p" "$t0a" host "$p"
		FAB_A_PLANE_ADDR[p]=$FAB_LA
		_fab_plane_addr["a $p"]=$FAB_LA
		_fab_cmd "$FAB_A" "route add fc00:0:$ut0a::/48 via $FAB_LB dev pl$p"
		_fab_cmd "$t0a" "route add fc00:0:$ua::/48 via $FAB_LA dev host"
		_fab_cmd "$t0a" "route add $FAB_A_ADDR/128 via $FAB_LA dev host"
		a_nh="$a_nh nexthop via $FAB_LB dev pl$p"
		_fab_end "$t0a" "$ut0a" host

		# T0b[p] -- host B
		_fab_link "$t0b" host "$FAB_B" "pl$p" "$p"
		FAB_B_PLANE_ADDR[p]=$FAB_LB
		_fab_plane_addr["b $p"]=$FAB_LB
		_fab_cmd "$FAB_B" "route add fc00:0:$ut0b::/48 via $FAB_LA dev pl$p"
		_fab_cmd "$t0b" "route add fc00:0:$ub::/48 via $FAB_LB dev host"
		_fab_cmd "$t0b" "route add $FAB_B_ADDR/128 via $FAB_LB dev host"
		b_nh="$b_nh nexthop via $FAB_LA dev pl$p"
		_fab_end "$t0b" "$ut0b" host

		up_a=""
		up_b=""
		for s in $(seq 0 $((FAB_S - 1))); do
			_fab_ns_v t1 t1 "$p" "$s"
			_fab_usid_v ut1 t1 "$p" "$s"
			_fab_ns_add "$t1"
			# T0a[p] -- T1[p][s]
			_fab_link "$t0a" "up$s" "$t1" down-a "$p"
			_fab_cmd "$t0a" "route add fc00:0:$ut1::/48 via $FAB_LB dev up$s"
			_fab_cmd "$t1" "route add fc00:0:$ut0a::/48 via $FAB_LA dev down-a"
			_fab_cmd "$t1" "route add fc00:0:$ua::/48 via $FAB_LA dev down-a"
			_fab_cmd "$t1" "route add $FAB_A_ADDR/128 via $FAB_LA dev down-a"
			up_a="$up_a nexthop via $FAB_LB dev up$s"
			# T1[p][s] -- T0b[p]
			_fab_link "$t1" down-b "$t0b" "up$s" "$p"
			_fab_cmd "$t0b" "route add fc00:0:$ut1::/48 via $FAB_LA dev up$s"
			_fab_cmd "$t1" "route add fc00:0:$ut0b::/48 via $FAB_LB dev down-b"
			_fab_cmd "$t1" "route add fc00:0:$ub::/48 via $FAB_LB dev down-b"
			_fab_cmd "$t1" "route add $FAB_B_ADDR/128 via $FAB_LB dev down-b"
			up_b="$up_b nexthop via $FAB_LA dev up$s"
			_fab_end "$t1" "$ut1" down-a
		done
		_fab_cmd "$t0a" "route add $FAB_B_ADDR/128$up_a"
		_fab_cmd "$t0b" "route add $FAB_A_ADDR/128$up_b"
		_fab_up_nh["a $p"]=$up_a
		_fab_up_nh["b $p"]=$up_b
	done
	# Hosts: the peer's address over every plane (entropy mode, and the
	# source address connect() picks).
	_fab_cmd "$FAB_A" "route add $FAB_B_ADDR/128 src $FAB_A_ADDR$a_nh"
	_fab_cmd "$FAB_B" "route add $FAB_A_ADDR/128 src $FAB_B_ADDR$b_nh"
	_fab_host_nh[a]=$a_nh
	_fab_host_nh[b]=$b_nh
	[ "$FAB_H" -gt 2 ] && _fab_more_hosts

	ip -batch "$_fab_dir/netns" || return 1
	ip -batch "$_fab_dir/root" || return 1
	for f in "$_fab_dir"/ns.*; do
		ip -n "${f##*/ns.}" -batch "$f" || return 1
	done
	# Kept for mrc_fabric_link_up, which replays a device's commands.
	mrc_on_exit "rm -rf $_fab_dir"
}

# _fab_more_hosts: queue hosts C, D, ... (mrc_fabric_build, after A and B,
# whose commands it leaves as they are): each host gets a leaf per plane,
# linked to every spine of the plane, and plain routes (ECMP) to and from
# every other host.
_fab_more_hosts() {
	local x y p s h t0 t1 addr i ux ut0 ut1
	for x in "${FAB_HOSTS[@]:2}"; do
		_fab_ns_v h "$x"
		_fab_usid_v ux "$x"
		addr=fd00:$x::1
		_fab_ns_add "$h"
		_fab_cmd "$h" "addr add $addr/128 dev lo"
		_fab_cmd "$h" "link add name dt0 type dummy"
		_fab_cmd "$h" "link set dt0 up"
		_fab_cmd "$h" "route add fc00:0:$ux::/48 encap seg6local action End.DT6 table 255 dev dt0"
		_fab_host_nh[$x]=""
	done
	for p in $(seq 0 $((FAB_P - 1))); do
		for x in "${FAB_HOSTS[@]:2}"; do
			_fab_ns_v h "$x"
			_fab_ns_v t0 "t0$x" "$p"
			_fab_usid_v ux "$x"
			_fab_usid_v ut0 "t0$x" "$p"
			addr=fd00:$x::1
			_fab_ns_add "$t0"
			# host X -- T0x[p]
			_fab_link "$h" "pl$p" "$t0" host "$p"
			_fab_plane_addr["$x $p"]=$FAB_LA
			_fab_cmd "$h" "route add fc00:0:$ut0::/48 via $FAB_LB dev pl$p"
			_fab_cmd "$t0" "route add fc00:0:$ux::/48 via $FAB_LA dev host"
			_fab_cmd "$t0" "route add $addr/128 via $FAB_LA dev host"
			_fab_host_nh[$x]="${_fab_host_nh[$x]} nexthop via $FAB_LB dev pl$p"
			_fab_end "$t0" "$ut0" host
			_fab_up_nh["$x $p"]=""
			for s in $(seq 0 $((FAB_S - 1))); do
				# T0x[p] -- T1[p][s]
				_fab_ns_v t1 t1 "$p" "$s"
				_fab_usid_v ut1 t1 "$p" "$s"
				_fab_link "$t0" "up$s" "$t1" "down-$x" "$p"
				_fab_cmd "$t0" "route add fc00:0:$ut1::/48 via $FAB_LB dev up$s"
				_fab_cmd "$t1" "route add fc00:0:$ut0::/48 via $FAB_LA dev down-$x"
				_fab_cmd "$t1" "route add fc00:0:$ux::/48 via $FAB_LA dev down-$x"
				_fab_cmd "$t1" "route add $addr/128 via $FAB_LA dev down-$x"
				_fab_up_nh["$x $p"]="${_fab_up_nh[$x $p]} nexthop via $FAB_LB dev up$s"
			done
		done
		# Every leaf reaches every other host over the plane's spines
		# (A's and B's routes to each other exist already).
		for x in "${FAB_HOSTS[@]}"; do
			_fab_ns_v t0 "t0$x" "$p"
			for y in "${FAB_HOSTS[@]}"; do
				[ "$x" = "$y" ] && continue
				case $x$y in ab | ba) continue ;; esac
				_fab_cmd "$t0" "route add fd00:$y::1/128${_fab_up_nh[$x $p]}"
			done
		done
	done
	# Every host reaches every other host over all planes.
	for i in "${!FAB_HOSTS[@]}"; do
		x=${FAB_HOSTS[i]}
		for y in "${FAB_HOSTS[@]}"; do
			[ "$x" = "$y" ] && continue
			case $x$y in ab | ba) continue ;; esac
			_fab_cmd "${FAB_HOST_NS[i]}" "route add fd00:$y::1/128 src fd00:$x::1${_fab_host_nh[$x]}"
		done
	done
}

# mrc_fabric_link_up NS DEV: bring a fabric link back after
# "ip -n NS link set DEV down". Taking a device down makes IPv6 drop its
# addresses and the routes through it; this puts them back by replaying
# the device's commands of the fabric build.
mrc_fabric_link_up() {
	grep -E " dev $2( |\$)" "$_fab_dir/ns.$1" | ip -n "$1" -force -batch - >/dev/null 2>&1
	ip -n "$1" link set "$2" up
}

# mrc_fabric_mrc_config MODE [EVS]: configure MRC on every host: one
# plane per fabric plane, and paths to every other host: usid or srh: one
# path per spine (P x S per peer); entropy: one path per plane standing
# for EVS entropy values (default 16: with 2 spines, the chance that the
# fabric's hash leaves one unused is then 2^-15 per plane). Path ids: the
# k-th other host (A, B, C... order, skipping the host itself) gets ids
# from k x P x S (usid, srh: + p x S + s) or k x P (entropy: + p), so with
# two hosts a path's id is p x S + s, or p.
mrc_fabric_mrc_config() {
	local mode=$1 evs=${2:-16} h i k peer p s id f route
	for i in "${!FAB_HOSTS[@]}"; do
		h=${FAB_HOSTS[i]}
		f=$(mktemp /tmp/mrcctl.XXXXXX)
		# One redirection for the whole batch, and no subshell per
		# path (the routes come from _fab_route_v).
		for p in $(seq 0 $((FAB_P - 1))); do
			echo "plane add $p dev pl$p saddr ${_fab_plane_addr[$h $p]}"
			k=0
			for peer in "${FAB_HOSTS[@]}"; do
				[ "$peer" = "$h" ] && continue
				if [ "$mode" = entropy ]; then
					echo "path add $((k * FAB_P + p)) dst fd00:$peer::1/128 plane $p mode entropy entropy $evs"
					k=$((k + 1))
					continue
				fi
				for s in $(seq 0 $((FAB_S - 1))); do
					id=$((k * FAB_P * FAB_S + p * FAB_S + s))
					_fab_route_v route "$mode" "$h" "$p" "$s" "$peer"
					if [ "$mode" = usid ]; then
						echo "path add $id dst fd00:$peer::1/128 plane $p mode usid usid $route"
					else
						echo "path add $id dst fd00:$peer::1/128 plane $p mode srh segs $route"
					fi
				done
				k=$((k + 1))
			done
		done > "$f"
		in_ns "${FAB_HOST_NS[i]}" "$MRCCTL" -batch "$f" || { rm -f "$f"; return 1; }
		rm -f "$f"
	done
}

# mrc_link_bytes NS DEV rx|tx: the bytes link DEV of namespace NS has
# received or sent, from `ip -s link` and awk: no python, whose every
# start costs about half a second in the emulated guest (a test reading
# 24 counters a mode spent most of its time starting python).
mrc_link_bytes() {
	ip -n "$1" -s link show dev "$2" | awk -v d="${3^^}:" '$1 == d { getline; print $1; exit }'
}

# mrc_fabric_spine_rx_bytes: RX bytes of every spine's A-side link, one
# line "p s bytes" each: how the A->B traffic spread over the spines.
mrc_fabric_spine_rx_bytes() {
	local p s
	for p in $(seq 0 $((FAB_P - 1))); do
		for s in $(seq 0 $((FAB_S - 1))); do
			echo "$p $s $(mrc_link_bytes "$(mrc_fabric_ns t1 "$p" "$s")" down-a rx)"
		done
	done
}

# mrc_fabric_plane_tx_bytes: TX bytes of each plane link of host A, one
# line "p plane bytes" each.
mrc_fabric_plane_tx_bytes() {
	local p
	for p in $(seq 0 $((FAB_P - 1))); do
		echo "p $p $(mrc_link_bytes "$FAB_A" "pl$p" tx)"
	done
}

# mrc_fabric_spread MIN BEFORE AFTER: of the counters BEFORE and AFTER
# (lines "k1 k2 value", as the two functions above print), every one
# moved at least MIN x the mean and, for MIN above 0.5, at most
# (2 - MIN) x the mean; prints them as a diagnostic.
mrc_fabric_spread() {
	python3 -S - "$@" <<'PY'
import sys
lo = float(sys.argv[1])
b = {tuple(l.split()[:2]): int(l.split()[2]) for l in sys.argv[2].splitlines()}
a = {tuple(l.split()[:2]): int(l.split()[2]) for l in sys.argv[3].splitlines()}
d = {k: a[k] - b[k] for k in a}
mean = sum(d.values()) / len(d)
print("# bytes:", " ".join(f"{k[0]}{k[1]}={v}" for k, v in sorted(d.items())))
bad = [k for k, v in d.items() if v < lo * mean or (lo > 0.5 and v > (2 - lo) * mean)]
sys.exit(1 if bad or mean == 0 else 0)
PY
}

# mrc_fabric_pin_addr P S: give host B a second address, FAB_B_PINNED,
# reachable from A only through plane P, spine S (static routes, as a
# single-path transport sees the fabric). Replies go back over any plane.
FAB_B_PINNED=fd00:b::2
mrc_fabric_pin_addr() {
	local p=$1 s=$2 t0a t1 t0b la
	t0a=$(mrc_fabric_ns t0a "$p")
	t1=$(mrc_fabric_ns t1 "$p" "$s")
	t0b=$(mrc_fabric_ns t0b "$p")
	ip -n "$FAB_B" addr add "$FAB_B_PINNED/128" dev lo
	la=$(ip -n "$t0a" -6 -j addr show dev host | python3 -S -c \
		'import json,sys; print([a["local"] for a in json.load(sys.stdin)[0]["addr_info"] if a["local"].startswith("fd01")][0])')
	ip -n "$FAB_A" -6 route add "$FAB_B_PINNED/128" src "$FAB_A_ADDR" via "$la" dev "pl$p"
	ip -n "$t0a" -6 route add "$FAB_B_PINNED/128" via "$(_fab_peer_of "$t0a" "up$s")" dev "up$s"
	ip -n "$t1" -6 route add "$FAB_B_PINNED/128" via "$(_fab_peer_of "$t1" down-b)" dev down-b
	ip -n "$t0b" -6 route add "$FAB_B_PINNED/128" via "$(_fab_peer_of "$t0b" host)" dev host
}

# The address of the other end of a link (ours ends in ::1 or ::2).
_fab_peer_of() { # ns dev
	ip -n "$1" -6 -j addr show dev "$2" | python3 -S -c '
import json, sys
a = [x["local"] for x in json.load(sys.stdin)[0]["addr_info"] if x["local"].startswith("fd01")][0]
print(a[:-1] + ("2" if a.endswith("1") else "1"))'
}

# mrc_fabric_spine_link P S SIDE(a|b): "namespace device" of the spine's
# end of a T0-T1 link, for fault injection.
mrc_fabric_spine_link() {
	local t1
	t1=$(mrc_fabric_ns t1 "$1" "$2")
	echo "$t1 down-$3"
}

# mrc_fabric_host_ping: both hosts reach each other's address.
mrc_fabric_host_ping() {
	ip netns exec "$FAB_A" ping -6 -c 1 -W 5 -I "$FAB_A_ADDR" "$FAB_B_ADDR" >/dev/null
}

# mrc_fabric_hosts_ping: every host reaches every other host's address
# (over the plain routes); on failure, says which pair did not.
mrc_fabric_hosts_ping() {
	local i y
	for i in "${!FAB_HOSTS[@]}"; do
		for y in "${FAB_HOST_ADDR[@]}"; do
			[ "$y" = "${FAB_HOST_ADDR[i]}" ] && continue
			in_ns "${FAB_HOST_NS[i]}" ping -6 -c 1 -W 5 -I "${FAB_HOST_ADDR[i]}" "$y" >/dev/null ||
				{ echo "${FAB_HOST_ADDR[i]} does not reach $y"; return 1; }
		done
	done
}
