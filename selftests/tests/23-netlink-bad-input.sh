#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad input, each with the exact error a user sees, and nothing applied:
# missing attributes, wrong types and lengths (raw netlink), out-of-range
# values, unknown and duplicate ids, devices that do not exist or live in
# another namespace, malformed uSID containers and segment lists, the
# default policy.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

mrc_module_load
a=$(mrc_ns_new a)
b=$(mrc_ns_new b)
ctl() { in_ns "$a" "$MRCCTL" "$@"; }
raw() { in_ns "$a" "$MRC_NLRAW" "$@"; }
mrcctl_veth_pair "$a" pa0 pb0
# Indexes are per namespace: push b's past a's, so that the index of
# other0 names no device in a.
ip -n "$b" link add spare0 type veth peer name spare1
ip -n "$b" link add spare2 type veth peer name spare3
ip -n "$b" link add other0 type veth peer name other1
other_ifindex=$(mrcctl_ifindex "$b" other0)
ctl plane add 0 dev pa0 saddr 2001:db8::1
ctl path add 1 dst 2001:db8:b::/48 plane 0 mode entropy
before=$(ctl -j plane; ctl -j path; ctl -j policy; ctl -j settings)

E=1
mrcctl_err "duplicate plane id" $E \
	"mrcctl: plane add: a plane with this id already exists (MRC_PLANE_A_ID) [File exists]" \
	ctl plane add 0 dev pa0 saddr 2001:db8::1
mrcctl_err "plane id out of range" $E \
	"mrcctl: plane add: integer out of range (MRC_PLANE_A_ID, valid range 0..31) [Numerical result out of range]" \
	ctl plane add 32 dev pa0 saddr 2001:db8::1
mrcctl_err "device does not exist" $E \
	"mrcctl: plane add: no device with this name in this network namespace (MRC_PLANE_A_IFNAME) [No such device]" \
	ctl plane add 1 dev nosuch0 saddr 2001:db8::1
mrcctl_err "device of another namespace (by name)" $E \
	"mrcctl: plane add: no device with this name in this network namespace (MRC_PLANE_A_IFNAME) [No such device]" \
	ctl plane add 1 dev other0 saddr 2001:db8::1
if in_ns "$a" ip -o link | grep -q "^$other_ifindex:"; then
	mrc_skip "device of another namespace (by index)" "index $other_ifindex also used here"
else
	mrcctl_err "device of another namespace (by index)" $E \
		"mrcctl: plane add: no device with this index in this network namespace (MRC_PLANE_A_IFINDEX) [No such device]" \
		ctl plane add 1 ifindex "$other_ifindex" saddr 2001:db8::1
fi
mrcctl_err "ifindex 0" $E \
	"mrcctl: plane add: integer out of range (MRC_PLANE_A_IFINDEX, at least 1) [Numerical result out of range]" \
	ctl plane add 1 ifindex 0 saddr 2001:db8::1
mrcctl_err "multicast source address" $E \
	"mrcctl: plane add: source address is multicast (MRC_PLANE_A_SADDR) [Invalid argument]" \
	ctl plane add 1 dev pa0 saddr ff02::1
mrcctl_err "unspecified source address" $E \
	"mrcctl: plane add: source address is the unspecified address (::) (MRC_PLANE_A_SADDR) [Invalid argument]" \
	ctl plane add 1 dev pa0 saddr ::
mrcctl_err "loopback source address" $E \
	"mrcctl: plane add: source address is the loopback address (MRC_PLANE_A_SADDR) [Invalid argument]" \
	ctl plane add 1 dev pa0 saddr ::1
mrcctl_err "IPv4-mapped source address" $E \
	"mrcctl: plane add: source address is IPv4-mapped (MRC_PLANE_A_SADDR) [Invalid argument]" \
	ctl plane add 1 dev pa0 saddr ::ffff:10.0.0.1
mrcctl_err "set an unknown plane" $E \
	"mrcctl: plane set: no plane with this id (MRC_PLANE_A_ID) [No such file or directory]" \
	ctl plane set 5 admin down
mrcctl_err "delete an unknown plane" $E \
	"mrcctl: plane del: no plane with this id (MRC_PLANE_A_ID) [No such file or directory]" \
	ctl plane del 5
mrcctl_err "show an unknown plane" $E \
	"mrcctl: plane show: no plane with this id (MRC_PLANE_A_ID) [No such file or directory]" \
	ctl plane show 5
mrcctl_err "plane set: bad device, nothing applied" $E \
	"mrcctl: plane set: no device with this name in this network namespace (MRC_PLANE_A_IFNAME) [No such device]" \
	ctl plane set 0 saddr 2001:db8::99 admin down dev nosuch0

mrcctl_err "duplicate path id" $E \
	"mrcctl: path add: a path with this id already exists (MRC_PATH_A_ID) [File exists]" \
	ctl path add 1 dst 2001:db8:b::/48 plane 0 mode entropy
mrcctl_err "path on an unknown plane" $E \
	"mrcctl: path add: no plane with this id (MRC_PATH_A_PLANE) [No such file or directory]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 3 mode entropy
mrcctl_err "path on an out-of-range plane" $E \
	"mrcctl: path add: integer out of range (MRC_PATH_A_PLANE, valid range 0..31) [Numerical result out of range]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 99 mode entropy
mrcctl_err "prefix with host bits" $E \
	"mrcctl: path add: destination prefix has host bits set beyond its length (MRC_PATH_A_DST) [Invalid argument]" \
	ctl path add 2 dst 2001:db8:b::1/48 plane 0 mode entropy
mrcctl_err "multicast destination" $E \
	"mrcctl: path add: destination prefix is multicast (MRC_PATH_A_DST) [Invalid argument]" \
	ctl path add 2 dst ff00::/8 plane 0 mode entropy
mrcctl_err "usid without a container" $E \
	"mrcctl: path add: mode usid needs a uSID container (missing MRC_PATH_A_USID) [Invalid argument]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode usid
mrcctl_err "multicast uSID container" $E \
	"mrcctl: path add: uSID container is multicast (MRC_PATH_A_USID) [Invalid argument]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode usid usid ff0e::1
mrcctl_err "unspecified uSID container" $E \
	"mrcctl: path add: uSID container is the unspecified address (::) (MRC_PATH_A_USID) [Invalid argument]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode usid usid ::
mrcctl_err "srh without segments" $E \
	"mrcctl: path add: mode srh needs a segment list (missing MRC_PATH_A_SEGS) [Invalid argument]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode srh
mrcctl_err "9 segments" $E \
	"mrcctl: path add: too many segments (at most 8) (MRC_SEG_A_ADDR) [Invalid argument]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode srh \
	segs fc00::1,fc00::2,fc00::3,fc00::4,fc00::5,fc00::6,fc00::7,fc00::8,fc00::9
mrcctl_err "multicast segment" $E \
	"mrcctl: path add: segment is multicast (MRC_SEG_A_ADDR) [Invalid argument]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode srh segs fc00::1,ff02::2
mrcctl_err "loopback segment" $E \
	"mrcctl: path add: segment is the loopback address (MRC_SEG_A_ADDR) [Invalid argument]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode srh segs ::1
mrcctl_err "segments on a usid path" $E \
	"mrcctl: path add: a segment list is only for mode srh (MRC_PATH_A_SEGS) [Invalid argument]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode usid usid fc00::1 segs fc00::2
mrcctl_err "entropy count on an srh path" $E \
	"mrcctl: path add: an entropy count is only for mode entropy (MRC_PATH_A_ENTROPY) [Invalid argument]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode srh segs fc00::1 entropy 4
mrcctl_err "entropy count 0" $E \
	"mrcctl: path add: integer out of range (MRC_PATH_A_ENTROPY, valid range 1..256) [Numerical result out of range]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode entropy entropy 0
mrcctl_err "entropy count 257" $E \
	"mrcctl: path add: integer out of range (MRC_PATH_A_ENTROPY, valid range 1..256) [Numerical result out of range]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode entropy entropy 257
mrcctl_err "weight 0" $E \
	"mrcctl: path add: integer out of range (MRC_PATH_A_WEIGHT, at least 1) [Numerical result out of range]" \
	ctl path add 2 dst 2001:db8:b::/48 plane 0 mode entropy weight 0
mrcctl_err "set an unknown path" $E \
	"mrcctl: path set: no path with this id (MRC_PATH_A_ID) [No such file or directory]" \
	ctl path set 9 deny
mrcctl_err "delete an unknown path" $E \
	"mrcctl: path del: no path with this id (MRC_PATH_A_ID) [No such file or directory]" \
	ctl path del 9

mrcctl_err "delete the default policy" $E \
	"mrcctl: policy del: the \"default\" policy cannot be deleted (MRC_POLICY_A_NAME) [Device or resource busy]" \
	ctl policy del default
mrcctl_err "duplicate policy" $E \
	"mrcctl: policy add: a policy with this name already exists (MRC_POLICY_A_NAME) [File exists]" \
	ctl policy add default
mrcctl_err "unknown policy (set)" $E \
	"mrcctl: policy set: no policy with this name (MRC_POLICY_A_NAME) [No such file or directory]" \
	ctl policy set nosuch retry-limit 3
mrcctl_err "unknown policy (del)" $E \
	"mrcctl: policy del: no policy with this name (MRC_POLICY_A_NAME) [No such file or directory]" \
	ctl policy del nosuch
mrcctl_err "policy name too long" $E \
	"mrcctl: policy add: policy name is longer than 15 characters (MRC_POLICY_A_NAME) [Invalid argument]" \
	ctl policy add abcdefghijklmnop
mrcctl_err "policy name with a bad character" $E \
	"mrcctl: policy add: policy name may only hold letters, digits, '_' and '-' (MRC_POLICY_A_NAME) [Invalid argument]" \
	ctl policy add "a b"
mrcctl_err "rto-min below 50us" $E \
	"mrcctl: policy add: rto_min must be between 50 us and 10 s (MRC_POLICY_A_RTO_MIN) [Invalid argument]" \
	ctl policy add p rto-min 10us
mrcctl_err "rto-max below rto-min" $E \
	"mrcctl: policy add: rto_max must be between rto_min and 60 s (MRC_POLICY_A_RTO_MAX) [Invalid argument]" \
	ctl policy add p rto-min 10ms rto-max 1ms
mrcctl_err "retry-limit 0" $E \
	"mrcctl: policy add: retry_limit must be between 1 and 100 (MRC_POLICY_A_RETRY_LIMIT) [Invalid argument]" \
	ctl policy add p retry-limit 0
mrcctl_err "probe interval too long" $E \
	"mrcctl: policy add: probe_interval must be between 100 us and 10 s (MRC_POLICY_A_PROBE_INTERVAL) [Invalid argument]" \
	ctl policy add p probe-interval 11s
mrcctl_err "fail-to-bad 65" $E \
	"mrcctl: policy add: fail_to_bad must be between 1 and 64 (MRC_POLICY_A_FAIL_TO_BAD) [Invalid argument]" \
	ctl policy add p fail-to-bad 65
mrcctl_err "backups not below max-paths" $E \
	"mrcctl: policy add: backups must be at most 64 and below max_paths (MRC_POLICY_A_BACKUPS) [Invalid argument]" \
	ctl policy add p max-paths 4 backups 4
mrcctl_err "keepalive-idle below 100 ms" $E \
	"mrcctl: policy add: keepalive_idle must be between 100 ms and 32767 s (MRC_POLICY_A_KEEPALIVE_IDLE) [Invalid argument]" \
	ctl policy add p keepalive-idle 10ms
mrcctl_err "keepalive-count 0" $E \
	"mrcctl: policy add: keepalive_count must be between 1 and 127 (MRC_POLICY_A_KEEPALIVE_COUNT) [Invalid argument]" \
	ctl policy add p keepalive-count 0
mrcctl_err "policy set: invalid result, nothing applied" $E \
	"mrcctl: policy set: min_active must be between 1 and max_paths (MRC_POLICY_A_MIN_ACTIVE) [Invalid argument]" \
	ctl policy set default retry-limit 7 min-active 100
mrcctl_err "UDP port 0" $E \
	"mrcctl: settings set: integer out of range (MRC_SETTINGS_A_UDP_PORT, at least 1) [Numerical result out of range]" \
	ctl settings set udp-port 0
mrcctl_err "EV set size 0" $E \
	"mrcctl: settings set: integer out of range (MRC_SETTINGS_A_MAX_EV_SET, valid range 1..1024) [Numerical result out of range]" \
	ctl settings set max-ev-set 0
mrcctl_err "unknown default policy, nothing applied" $E \
	"mrcctl: settings set: no policy with this name (MRC_SETTINGS_A_DEFAULT_POLICY) [No such file or directory]" \
	ctl settings set udp-port 5000 default-policy nosuch
mrcctl_err "probe: destination outside the path's prefix" $E \
	"mrcctl: probe: probe destination is outside the path's prefix (MRC_PROBE_A_DST) [Invalid argument]" \
	ctl probe 2001:db8:c::1 path 1
mrcctl_err "probe: unknown path" $E \
	"mrcctl: probe: no path with this id (MRC_PROBE_A_PATH_ID) [No such file or directory]" \
	ctl probe 2001:db8:b::1 path 9
mrcctl_err "probe: multicast destination" $E \
	"mrcctl: probe: probe destination is multicast (MRC_PROBE_A_DST) [Invalid argument]" \
	ctl probe ff02::1 path 1
mrcctl_err "probe: timeout 0" $E \
	"mrcctl: probe: integer out of range (MRC_PROBE_A_TIMEOUT_MS, valid range 1..60000) [Numerical result out of range]" \
	ctl probe 2001:db8:b::1 path 1 timeout 0
mrc_check_match "conn show with a filter that matches nothing: the header only" \
	"^id +state +local +remote" "$(ctl conn show id 5 state established)"
after=$(ctl -j plane; ctl -j path; ctl -j policy; ctl -j settings)
mrc_check_eq "no failed request changed anything" "$before" "$after"

# Wrong types, lengths and attribute sets, as only a raw client can send.
results=$(raw --all)
while read -r scenario expected; do
	mrc_check_eq "raw: $scenario" "$expected" \
		"$(printf '%s\n' "$results" | awk -F '\t' -v s="$scenario" '$1 == s { print $2 }')"
done <<'RAW'
unknown-top-attr EINVAL: Unknown attribute type
unknown-nested-attr EINVAL: Unknown attribute type
reply-only-attr EINVAL: Unsupported attribute
plane-not-nested EINVAL: NLA_F_NESTED is missing
plane-id-wrong-length EINVAL: invalid attribute length
saddr-wrong-length ERANGE: binary attribute size out of range
ifname-not-terminated EINVAL: Attribute failed policy validation
ifname-too-long EINVAL: Attribute failed policy validation
admin-out-of-range ERANGE: integer out of range
both-ifindex-and-ifname EINVAL: give the device by index or by name, not both
plane-missing EINVAL: the plane (MRC_A_PLANE) is required
plane-del-with-saddr EINVAL: Unsupported attribute
info-with-attr EINVAL: Unsupported attribute
path-mode-out-of-range ERANGE: integer out of range
path-segs-not-addresses ERANGE: binary attribute size out of range
path-set-with-dst EINVAL: Unsupported attribute
policy-rto-wrong-type EINVAL: invalid attribute length
policy-name-empty EINVAL: policy name is empty
udp-port-wrong-type EINVAL: invalid attribute length
event-is-not-a-request EOPNOTSUPP
trailing-garbage EINVAL: bytes leftover after parsing attributes
RAW
mrc_check_eq "raw requests changed nothing" "$before" \
	"$(ctl -j plane; ctl -j path; ctl -j policy; ctl -j settings)"
mrc_done
