#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Changes need CAP_NET_ADMIN in the namespace's user namespace; showing
# does not. An unprivileged user changes nothing; root of a user
# namespace configures its own network namespace.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

mrc_module_load
a=$(mrc_ns_new a)
mrcctl_veth_pair "$a" pa0 pb0
ctl() { in_ns "$a" "$MRCCTL" "$@"; }
nobody() { in_ns "$a" setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all "$MRCCTL" "$@"; }
ctl plane add 0 dev pa0 saddr 2001:db8::1
ctl path add 1 dst 2001:db8:b::/48 plane 0 mode entropy
ctl policy add p1
before=$(ctl -j plane; ctl -j path; ctl -j policy; ctl -j settings)

deny() {
	local op="$1 $2"
	mrcctl_err "unprivileged: $op" 1 "mrcctl: $op: Operation not permitted" nobody "$@"
}
deny plane add 1 dev pa0 saddr 2001:db8::2
deny plane set 0 admin down
deny plane del 0
deny path add 2 dst 2001:db8:b::/48 plane 0 mode entropy
deny path set 1 deny
deny path del 1
deny policy add p2
deny policy set p1 retry-limit 3
deny policy del p1
deny settings set udp-port 5000
mrcctl_err "unprivileged: probe" 1 "mrcctl: probe: Operation not permitted" \
	nobody probe 2001:db8:b::1 path 1
mrc_check_eq "unprivileged: nothing changed" "$before" \
	"$(ctl -j plane; ctl -j path; ctl -j policy; ctl -j settings)"

for show in "plane show" "path show" "policy show" "settings show" "conn show" stats info; do
	# shellcheck disable=SC2086
	mrc_check "unprivileged may run '$show'" nobody $show
done
mrc_check_eq "unprivileged sees the same planes" "$(ctl -j plane)" "$(nobody -j plane)"

# Root of a new user namespace owns the network namespace it creates.
if unshare -U -r -n true 2>/dev/null; then
	out=$(unshare -U -r -n sh -c "ip link set lo up && '$MRCCTL' plane add 0 dev lo \
		saddr 2001:db8::1 && '$MRCCTL' -j plane" 2>&1)
	mrc_check_eq "user namespace root configures its own netns" 1 \
		"$(mrcctl_jq "$out" 'len(j)' 2>/dev/null || echo "$out")"
	out=$(unshare -U -r sh -c "'$MRCCTL' plane add 5 dev lo saddr 2001:db8::1" 2>&1)
	mrc_check_eq "user namespace root cannot change the initial netns" \
		"mrcctl: plane add: Operation not permitted" "$out"
else
	mrc_skip "user namespaces" "unshare -U is not available"
fi
mrc_done
