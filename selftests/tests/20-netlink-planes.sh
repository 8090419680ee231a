#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Planes: add, show (table, JSON), set, del; the oper state follows the
# link (carrier, admin, device deletion); every namespace has its own.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

mrc_module_load
a=$(mrc_ns_new a)
b=$(mrc_ns_new b)
ctl() { in_ns "$a" "$MRCCTL" "$@"; }
mrcctl_veth_pair "$a" pa0 pb0
mrcctl_veth_pair "$a" pa1 pb1

mrc_check "plane add 0" ctl plane add 0 dev pa0 saddr 2001:db8:a::1
mrc_check "plane add 1 admin down" ctl plane add 1 dev pa1 saddr 2001:db8:a::2 admin down
mrc_check "plane add 31 (highest id)" ctl plane add 31 dev pa1 saddr 2001:db8:a::3
table=$(ctl plane show)
mrc_check_match "table header" "^id +dev +saddr +admin +oper +paths$" "$(echo "$table" | sed -n 1p)"
mrc_check_match "plane 0 row" "^0 +pa0 +2001:db8:a::1 +up +up +0$" "$(echo "$table" | sed -n 2p)"
mrc_check_match "plane 1 row (admin down)" "^1 +pa1 +2001:db8:a::2 +down +down +0$" \
	"$(echo "$table" | sed -n 3p)"
mrc_check_match "plane 31 row" "^31 +pa1 " "$(echo "$table" | sed -n 4p)"
mrc_check_eq "plain 'plane' shows the same table" "$table" "$(ctl plane)"
json=$(ctl -j plane show)
mrc_check_eq "JSON: three planes" 3 "$(mrcctl_jq "$json" 'len(j)')"
mrc_check_eq "JSON: ifindex is the device's" "$(mrcctl_ifindex "$a" pa0)" \
	"$(mrcctl_jq "$json" "j[0]['ifindex']")"
mrc_check_eq "JSON: every field" "0 pa0 2001:db8:a::1 up up 0" \
	"$(mrcctl_jq "$json" "' '.join(str(j[0][k]) for k in ('id', 'dev', 'saddr', 'admin', 'oper', 'paths'))")"

mrc_check "plane set 1 admin up" ctl plane set 1 admin up
mrc_check "plane 1 comes up" mrc_wait_for 20 mrcctl_plane_is "$a" 1 oper up

ip -n "$a" link set pb0 down
mrc_check "peer down: plane 0 loses carrier, goes down" mrc_wait_for 20 mrcctl_plane_is "$a" 0 oper down
mrc_check_eq "admin state is untouched" up "$(mrcctl_plane_field "$a" 0 admin)"
ip -n "$a" link set pb0 up
mrc_check "peer up: plane 0 back up" mrc_wait_for 20 mrcctl_plane_is "$a" 0 oper up
ip -n "$a" link set pa0 down
mrc_check "own device down: plane 0 down" mrc_wait_for 20 mrcctl_plane_is "$a" 0 oper down
ip -n "$a" link set pa0 up
mrc_check "own device up: plane 0 up" mrc_wait_for 20 mrcctl_plane_is "$a" 0 oper up

mrc_check "plane set 0 saddr" ctl plane set 0 saddr 2001:db8:a::10
mrc_check_eq "new source address" 2001:db8:a::10 "$(mrcctl_plane_field "$a" 0 saddr)"
mrc_check_eq "still up after the change" up "$(mrcctl_plane_field "$a" 0 oper)"

mrcctl_veth_pair "$a" pa2 pb2
mrc_check "plane set 31 dev pa2" ctl plane set 31 dev pa2
mrc_check_eq "plane 31 on pa2" pa2 "$(mrcctl_plane_field "$a" 31 dev)"
ip -n "$a" link del pa2
mrc_check "device deleted: plane 31 down" mrc_wait_for 20 mrcctl_plane_is "$a" 31 oper down
mrc_check_eq "device deleted: plane 31 kept, ifindex 0" 0 \
	"$(mrcctl_jq "$(ctl -j plane show 31)" "j[0]['ifindex']")"
mrc_check_match "device deleted: table shows '-'" "^31 +- +2001:db8:a::3 +up +down" \
	"$(ctl plane show 31 | sed -n 2p)"
mrc_check "plane set 31 dev pa1 re-attaches it" ctl plane set 31 dev pa1
mrc_check "plane 31 up again" mrc_wait_for 20 mrcctl_plane_is "$a" 31 oper up

mrc_check "path on plane 1" ctl path add 1 dst 2001:db8:b::/48 plane 1 mode entropy
mrc_check "second path on plane 1" ctl path add 2 dst 2001:db8:c::/48 plane 1 mode entropy
mrc_check "path on plane 0" ctl path add 3 dst 2001:db8:c::/48 plane 0 mode entropy
mrc_check_eq "plane 1 counts its paths" 2 "$(mrcctl_plane_field "$a" 1 paths)"
mrc_check "plane del 1" ctl plane del 1
mrc_check_eq "deleting a plane deletes its paths" 3 "$(ctl path show | awk 'NR > 1 { print $1 }')"
mrc_check_fails "plane 1 is gone" ctl plane show 1

# Namespaces do not see each other's planes.
mrc_check_eq "namespace b starts empty" 0 "$(mrcctl_count_rows in_ns "$b" "$MRCCTL" plane)"
ip -n "$b" link add pa0 type veth peer name pb0
mrc_check "namespace b: same id, own plane" \
	in_ns "$b" "$MRCCTL" plane add 0 dev pa0 saddr 2001:db8:b::1
mrc_check_eq "namespace a unchanged" 2001:db8:a::10 "$(mrcctl_plane_field "$a" 0 saddr)"

down=$(mrc_mib "$a" PlaneDown)
mrc_check "PlaneDown counted in /proc/net/mrc_stat" test "${down:-0}" -ge 3

# A namespace with configuration goes away cleanly (no leak, no warning).
mrc_check "delete namespace b with its plane" ip netns del "$b"
mrc_check "plane del 0" ctl plane del 0
mrc_check "plane del 31" ctl plane del 31
mrc_check_eq "no plane left" "id  dev  saddr  admin  oper  paths" "$(ctl plane)"
mrc_done
