#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A namespace deleted with live MRC sockets in it (a listener, an idle
# established connection, one receiving mid-transfer), as a container
# teardown does: its processes killed, then "ip netns del". Host A talks
# to it through a router namespace R. On A (selftests/progs/stress.cpp
# "peer"), from the moment of the deletion: the idle connection sends
# again, the sending one keeps sending, and a new connection is attempted
# (half-open: CM_REQ sent, no answer; after the processes died in case
# 2, so the listener is gone). Each must end with an error a user
# can act on (ECONNRESET or ETIMEDOUT; ECONNREFUSED for the new
# connection while the deleted namespace still answers), never hang,
# within the policy's retry budget (+ 10 s for the emulated VM). Twice:
#  1. vanish: the namespace's link is cut first, nothing it sends
#     arrives (its orphans must time out on their own);
#  2. teardown: links intact while the processes die.
# Afterwards no MRC socket is left anywhere: the module unloads (and is
# loaded again for the tests that follow).
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

STRESS=$MRC_BUILD/progs/mrc_stress
mrc_module_load
a=$(mrc_ns_new a)
r=$(mrc_ns_new r)
mrc_veth "$a" va fd20:a::1 "$r" ra fd20:a::2
ip -n "$a" route add fd20:b::/64 via fd20:a::2
in_ns "$r" sysctl -qw net.ipv6.conf.all.forwarding=1
res=$(mrc_tmpdir)
# On a slow debug kernel (MRC_TEST_TIME_SCALE > 1) live connections miss
# the default policy's 4.5 s retry budget: its RTOs are scaled there, in
# every namespace, and the bound below follows.
scale_policy() { # NS
	[ "$MRC_TEST_TIME_SCALE" -gt 1 ] || return 0
	in_ns "$1" "$MRCCTL" policy set default rto-min "$(mrc_time 2)ms" \
		rto-max "$(mrc_time 500)ms"
}
scale_policy "$a"

# The retry budget of A's default policy (mrc_policy_timeout_budget()):
# rto_min doubling up to rto_max, retry_limit + 1 times; in ms.
budget_ms=$(in_ns "$a" "$MRCCTL" -j policy show default | mrc_policy_budget_ms)
bound_ms=$((budget_ms + $(mrc_time 10000)))
mrc_info "policy default: retry budget ${budget_ms} ms; bound ${bound_ms} ms"

# new_b: a fresh namespace B behind R, with a server reading everything.
new_b() {
	b=$(mrc_ns_new b)
	scale_policy "$b"
	mrc_veth "$r" rb fd20:b::2 "$b" vb fd20:b::1
	ip -n "$b" route add fd20:a::/64 via fd20:b::2
	rm -f "$res/server.err"
	mrc_bg_in_ns "$b" "$STRESS" server -p 7000 >"$res/server.out" 2>"$res/server.err"
	mrc_wait_for 30 grep -q listening "$res/server.err"
}
# del_b: what a container teardown does.
del_b() {
	ip netns pids "$b" | xargs -r kill -9
	ip netns del "$b"
}
# outcome NAME FIELD: from the peer's JSON
outcome() {
	grep -o "\"$1\": {[^}]*}" "$res/peer.out" | grep -o "\"$2\": [^,}]*" |
		awk '{ gsub(/"/, "", $2); print $2 }'
}
# run CASE CUT: start the peer, delete B (cutting its link first if CUT),
# check how each of A's sockets ended.
run() {
	local name=$1 cut=$2 k res_k ms
	new_b
	rm -f "$res/trigger"
	mrc_bg_in_ns "$a" "$STRESS" peer -c fd20:b::1 -p 7000 --trigger "$res/trigger" \
		--deadline "$(mrc_time 90)" >"$res/peer.out" 2>"$res/peer.err"
	local peer=$MRC_BG_PID
	if ! mrc_wait_for 60 grep -q ready "$res/peer.err"; then
		mrc_fail "$name: A's connections carry data"
		sed 's/^/# /' "$res/peer.err"
		mrc_info "ping: $(in_ns "$a" ping -6 -c 1 -W 2 fd20:b::1 2>&1 | grep -E 'received|from')"
		mrc_info "A: $(in_ns "$a" grep -E '^(HsReq|HsEst|HsRej|HsTim|OutPkts|InPkts)' /proc/net/mrc_stat | tr '\n' ' ')"
		mrc_info "B: $(in_ns "$b" grep -E '^(HsReq|HsEst|HsRej|HsTim|OutPkts|InPkts|InDrop)' /proc/net/mrc_stat | tr '\n' ' ')"
		return
	fi
	mrc_pass "$name: A's connections carry data"
	rm -f "$res/trigger.connect"
	if [ "$cut" = 1 ]; then
		ip -n "$r" link del rb
		touch "$res/trigger" "$res/trigger.connect"
		del_b
	else
		touch "$res/trigger"
		del_b
		touch "$res/trigger.connect"	# the listener is gone
	fi
	wait "$peer"
	mrc_info "$name: $(cat "$res/peer.out")"
	for k in idle sender connect; do
		res_k=$(outcome $k result)
		ms=$(outcome $k ms)
		if [ "$k" = connect ] && [ "$cut" = 0 ]; then
			mrc_check_match "$name: $k ends with ECONNREFUSED, ECONNRESET or ETIMEDOUT" \
				'^(ECONNREFUSED|ECONNRESET|ETIMEDOUT)$' "$res_k"
		else
			mrc_check_match "$name: $k ends with ECONNRESET or ETIMEDOUT" \
				'^(ECONNRESET|ETIMEDOUT)$' "$res_k"
		fi
		mrc_check "$name: $k ended within ${bound_ms} ms (${ms} ms)" \
			awk -v m="$ms" -v b="$bound_ms" 'BEGIN { exit !(m >= 0 && m <= b) }'
	done
	# R's end of the link goes when B's namespace is really gone
	# (the vanish case deleted it already).
	mrc_check "$name: the deleted namespace is destroyed (orphans gone)" \
		mrc_wait_for 60 eval "! ip -n $r link show rb"
}

run vanish 1
run teardown 0

mrc_check "no MRC connection left on A" \
	mrc_wait_for 30 eval '[ "$(mrcctl_count_rows in_ns "$a" "$MRCCTL" conn)" = 0 ]'
t0=$SECONDS
mrc_check "the module unloads: no socket left anywhere" mrc_wait_for 60 rmmod mrc
mrc_info "module unloaded $((SECONDS - t0)) s after the last deletion"
mrc_check "module loads again" mrc_module_load
mrc_done
