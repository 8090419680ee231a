#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configuration changes reach live connections (issue 5): on the reference
# fabric (usid, 2 planes x 2 spines: paths 0-1 on plane 0, 2-3 on plane
# 1), while one connection streams verified data from A to B:
#  1. path del 0: the connection's EVs of path 0 go DENIED (path-removed)
#     and carry nothing more;
#  2. path set 1 deny: its EVs go DENIED (admin-deny), carry nothing; then
#     allow: they come back and carry data again;
#  3. policy set default rto-min 400ms: the connection's RTO follows at
#     once (policy still "default");
#  4. plane del 1: paths 2-3 leave the connection, traffic continues on
#     path 1;
# each change also seen as path-state events by mrcctl monitor, and the
# transfer ends with every byte verified (selftests/progs/stress.cpp).
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

STRESS=$MRC_BUILD/progs/mrc_stress
mrc_module_load
mrc_fabric_build 2 2 || { mrc_fail "fabric"; mrc_done; }
for h in "$FAB_A" "$FAB_B"; do
	in_ns "$h" "$MRCCTL" policy set default backups 0 >/dev/null
done
mrc_check "configure usid paths (2 planes x 2 spines)" mrc_fabric_mrc_config usid
res=$(mrc_tmpdir)	# not "out": mrc_check has a local of that name
actl() { in_ns "$FAB_A" "$MRCCTL" "$@"; }

mrc_bg_in_ns "$FAB_A" "$MRCCTL" monitor >"$res/events" 2>"$res/monitor.err"
mrc_wait_for 30 grep -q monitoring "$res/monitor.err"

mrc_bg_in_ns "$FAB_B" "$STRESS" server -p 7000 --report "$res/server.json" \
	>"$res/server.out" 2>"$res/server.err"
srv=$MRC_BG_PID
mrc_wait_for 30 grep -q listening "$res/server.err"
mrc_bg_in_ns "$FAB_A" "$STRESS" client -c "$FAB_B_ADDR" -p 7000 --until "$res/stop" \
	--rate 40 --deadline "$(mrc_time 400)" >"$res/client.out" 2>"$res/client.err"
cli=$MRC_BG_PID

# The connection's id on A (its local QPN).
conn_id() {
	actl conn show state established | awk 'NR == 2 { print $1 }'
}
mrc_check "the connection is established" mrc_wait_for 60 eval '[ -n "$(conn_id)" ]'
cid=$(conn_id)

# paths: one line per configured path of the connection on A:
# "path_id state[,state] reason[,reason] tx_pkts" (over its EVs), plus
# "rto <us>" and "policy <name>".
paths() {
	actl -j conn show id "$cid" | awk '
	function num(o, k) { return match(o, "\"" k "\":[0-9]+") ? substr(o, RSTART + length(k) + 3, RLENGTH - length(k) - 3) : "" }
	function str(o, k) { return match(o, "\"" k "\":\"[^\"]*\"") ? substr(o, RSTART + length(k) + 4, RLENGTH - length(k) - 5) : "" }
	{
		s = $0
		rto = num(s, "rto_us")
		pol = str(s, "policy")
		while (match(s, /[{]"ecn_marks"[^}]*[}]/)) {
			o = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			id = num(o, "path_id")
			if (id == "") id = -1
			if (!(id in tx)) { ids[++n] = id; tx[id] = 0; st[id] = ""; re[id] = "" }
			v = str(o, "state"); if (index("," st[id] ",", "," v ",") == 0) st[id] = st[id] (st[id] == "" ? "" : ",") v
			v = str(o, "reason"); if (index("," re[id] ",", "," v ",") == 0) re[id] = re[id] (re[id] == "" ? "" : ",") v
			tx[id] += num(o, "tx_pkts")
		}
	}
	END {
		for (i = 1; i <= n; i++) print ids[i], st[ids[i]], re[ids[i]], tx[ids[i]]
		print "rto", rto
		print "policy", pol
	}'
}
field() { # SNAPSHOT KEY COLUMN
	printf '%s\n' "$1" | awk -v k="$2" -v c="$3" '$1 == k { print $c }'
}
# grew BEFORE AFTER PATH: the path's EVs sent more packets
grew() {
	[ "$(field "$2" "$3" 4)" -gt "$(field "$1" "$3" 4)" ]
}
# all_grew BEFORE PATHS...: every path named sent more since BEFORE
all_grew() {
	local before=$1 now p
	shift
	now=$(paths)
	for p in "$@"; do
		grew "$before" "$now" "$p" || return 1
	done
}
state_is() { # PATH STATE REASON: every EV of the path is in STATE for REASON
	local now
	now=$(paths)
	[ "$(field "$now" "$1" 2)" = "$2" ] && [ "$(field "$now" "$1" 3)" = "$3" ]
}
event() { # PATH NEW_STATE REASON: mrcctl monitor saw it for our connection
	grep -Eq "path-state conn $cid ev [0-9]+ path $1 plane [0-9]+ [a-z-]+ -> $2 reason $3" \
		"$res/events"
}

s0=$(paths)
mrc_check "traffic on all 4 paths" mrc_wait_for 60 all_grew "$s0" 0 1 2 3
rto0=$(field "$(paths)" rto 2)

# 1. path del
mrc_info "t=${SECONDS}s: path del"
actl path del 0
mrc_check "path del 0: its EVs are denied, path-removed" \
	mrc_wait_for 30 state_is 0 denied path-removed
mrc_check "path del 0: event path-state -> denied reason path-removed" \
	mrc_wait_for 30 event 0 denied path-removed
s1=$(paths)
mrc_check "path del 0: traffic continues on the other paths" \
	mrc_wait_for 60 all_grew "$s1" 1 2 3
mrc_check_eq "path del 0: nothing more sent on it" "$(field "$s1" 0 4)" "$(field "$(paths)" 0 4)"

# 2. deny, then allow
mrc_info "t=${SECONDS}s: deny, then allow"
actl path set 1 deny
mrc_check "path deny 1: its EVs are denied, admin-deny" \
	mrc_wait_for 30 state_is 1 denied admin-deny
mrc_check "path deny 1: event path-state -> denied reason admin-deny" \
	mrc_wait_for 30 event 1 denied admin-deny
s2=$(paths)
mrc_check "path deny 1: traffic continues on the other paths" \
	mrc_wait_for 60 all_grew "$s2" 2 3
mrc_check_eq "path deny 1: nothing more sent on it" "$(field "$s2" 1 4)" "$(field "$(paths)" 1 4)"
actl path set 1 allow
mrc_check "path allow 1: its EVs come back (admin-allow)" \
	mrc_wait_for 30 event 1 '[a-z-]+' admin-allow
mrc_check "path allow 1: it carries data again" mrc_wait_for 60 all_grew "$(paths)" 1

# 3. policy change
mrc_info "t=${SECONDS}s: policy change"
mrc_info "rto before the policy change: ${rto0} us"
actl policy set default rto-min 400ms
rto_at_least() { [ "$(field "$(paths)" rto 2)" -ge "$1" ]; }
mrc_check "policy set rto-min 400ms: the live connection's RTO follows" \
	mrc_wait_for 30 rto_at_least 400000
mrc_check_eq "the connection still uses policy default" default "$(field "$(paths)" policy 2)"
mrc_check "before the change its RTO was below 400 ms" [ "$rto0" -lt 400000 ]
actl policy set default rto-min 2ms

# 4. plane del
mrc_info "t=${SECONDS}s: plane del"
actl plane del 1
gone() { # PATH: denied, for a reason that says the path or plane left
	local now
	now=$(paths)
	[ "$(field "$now" "$1" 2)" = denied ] &&
		printf '%s' "$(field "$now" "$1" 3)" | grep -Eq '^(path-removed|plane-down)$'
}
mrc_check "plane del 1: paths 2-3 leave the connection" \
	mrc_wait_for 30 eval 'gone 2 && gone 3'
s4=$(paths)
mrc_check "plane del 1: traffic continues on path 1" mrc_wait_for 60 all_grew "$s4" 1
s5=$(paths)
mrc_check "plane del 1: nothing more sent on plane 1" \
	[ "$(field "$s4" 2 4)/$(field "$s4" 3 4)" = "$(field "$s5" 2 4)/$(field "$s5" 3 4)" ]

mrc_info "t=${SECONDS}s: stopping the sender"
touch "$res/stop"
wait "$cli"
mrc_check_eq "the transfer completed (client)" 0 "$?"
mrc_info "client: $(cat "$res/client.out")"
mrc_check "server verified every byte of it" \
	mrc_wait_for 60 grep -q '"completed": 1, "failed": 0' "$res/server.json"
mrc_info "server: $(cat "$res/server.json")"
mrc_done
