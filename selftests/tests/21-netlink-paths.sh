#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Paths: every forwarding mode, show (table, JSON, one), set (weight,
# deny, allow), del, and a dump larger than one netlink message.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

mrc_module_load
a=$(mrc_ns_new a)
ctl() { in_ns "$a" "$MRCCTL" "$@"; }
mrcctl_veth_pair "$a" pa0 pb0
mrcctl_veth_pair "$a" pa1 pb1
ctl plane add 0 dev pa0 saddr 2001:db8:a::1
ctl plane add 1 dev pa1 saddr 2001:db8:a::2

segs8=fc00:0:1::1,fc00:0:2::1,fc00:0:3::1,fc00:0:4::1,fc00:0:5::1,fc00:0:6::1,fc00:0:7::1,fc00:0:8::1
mrc_check "usid path" ctl path add 10 dst 2001:db8:b::/48 plane 0 mode usid usid fc00:0:100:200::
mrc_check "srh path with 8 segments (the most)" \
	ctl path add 11 dst 2001:db8:b::/48 plane 1 mode srh segs "$segs8" weight 7
mrc_check "entropy path" ctl path add 12 dst ::/0 plane 1 mode entropy entropy 256
mrc_check "host route, denied from the start" \
	ctl path add 5 dst 2001:db8:b::1 plane 0 mode entropy deny

table=$(ctl path show)
mrc_check_match "table header" "^id +dst +plane +mode +via +weight +state$" "$(echo "$table" | sed -n 1p)"
mrc_check_match "sorted by id: 5 first" "^5 +2001:db8:b::1/128 +0 +entropy +entropy 1 +1 +deny$" \
	"$(echo "$table" | sed -n 2p)"
mrc_check_match "usid row" "^10 +2001:db8:b::/48 +0 +usid +fc00:0:100:200:: +1 +allow$" \
	"$(echo "$table" | sed -n 3p)"
mrc_check_match "srh row" "^11 +2001:db8:b::/48 +1 +srh +$segs8 +7 +allow$" \
	"$(echo "$table" | sed -n 4p)"
mrc_check_match "entropy row" "^12 +::/0 +1 +entropy +entropy 256 +1 +allow$" \
	"$(echo "$table" | sed -n 5p)"

one=$(ctl -j path show 11)
mrc_check_eq "JSON: 8 segments in order" "$segs8" "$(mrcctl_jq "$one" "','.join(j[0]['segs'])")"
mrc_check_eq "JSON: mode" srh "$(mrcctl_jq "$one" "j[0]['mode']")"
mrc_check_eq "plane 1 counts 2 paths" 2 "$(mrcctl_plane_field "$a" 1 paths)"

mrc_check "path set 5 allow weight 3" ctl path set 5 allow weight 3
mrc_check_match "allowed, weight 3" "^5 .* 3 +allow$" "$(ctl path show 5 | sed -n 2p)"
mrc_check "path set 10 deny" ctl path set 10 deny
mrc_check_match "denied" " deny$" "$(ctl path show 10 | sed -n 2p)"
mrc_check "path set 10 weight only" ctl path set 10 weight 200
mrc_check_match "deny kept when only the weight changes" " 200 +deny$" "$(ctl path show 10 | sed -n 2p)"

mrc_check "path del 12" ctl path del 12
mrc_check_fails "path 12 is gone" ctl path show 12
mrc_check_eq "plane 1 counts 1 path" 1 "$(mrcctl_plane_field "$a" 1 paths)"

# A dump that spans many netlink messages resumes where it stopped.
batch=$(mrc_tmpdir)/paths
for i in $(seq 1000 1399); do
	echo "path add $i dst 2001:db8:$(printf %x "$i")::/48 plane $((i % 2)) mode srh segs fc00::1,fc00::2,fc00::3"
done >"$batch"
mrc_check "400 paths by batch" ctl -batch "$batch"
json=$(ctl -j path show)
mrc_check_eq "dump returns every path once" 403 "$(mrcctl_jq "$json" 'len(set(p["id"] for p in j))')"
mrc_check_eq "dump is ordered by id" True "$(mrcctl_jq "$json" '[p["id"] for p in j] == sorted(p["id"] for p in j)')"
mrc_check "plane del 0 removes its 202 paths" ctl plane del 0
mrc_check_eq "201 paths left" 201 "$(mrcctl_count_rows ctl path)"
mrc_done
