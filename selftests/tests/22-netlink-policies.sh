#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Failure policies (add, set, del, show; "default" always there) and the
# namespace settings (UDP port, default policy, EV set size).
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

mrc_module_load
a=$(mrc_ns_new a)
ctl() { in_ns "$a" "$MRCCTL" "$@"; }
# pol NAME COLUMN: one column of a policy's row (name rto-min rto-max retry
# probe skip bad good min-act max-paths backups sack-gap ecn keepalive
# ka-idle ka-intvl ka-cnt).
pol() {
	ctl policy show "$1" | awk -v f="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
					       NR == 2 { print $col[f] }'
}

table=$(ctl policy show)
mrc_check_match "default policy, marked, with the core defaults" \
	"^default\* +2ms +500ms +15 +5ms +1ms +2 +3 +4 +64 +2 +8 +on +on +60s +10s +3$" \
	"$(echo "$table" | sed -n 2p)"
mrc_check "policy add fast" ctl policy add fast rto-min 200us rto-max 20ms retry-limit 5 \
	probe-interval 1ms skip 100us fail-to-bad 1 success-to-good 2 min-active 2 \
	max-paths 32 backups 1 sack-gap 4 ecn off keepalive off keepalive-idle 2s \
	keepalive-interval 500ms keepalive-count 5
mrc_check_match "fast as given" \
	"^fast +200us +20ms +5 +1ms +100us +1 +2 +2 +32 +1 +4 +off +off +2s +500ms +5$" \
	"$(ctl policy show fast | sed -n 2p)"
mrc_check "policy add lazy (defaults)" ctl policy add lazy_2
mrc_check_eq "unset knobs take the defaults" 500ms "$(pol lazy_2 rto-max)"
mrc_check "policy set changes one knob" ctl policy set fast retry-limit 9
mrc_check_eq "retry-limit changed" 9 "$(pol fast retry)"
mrc_check_eq "other knobs kept" 200us "$(pol fast rto-min)"
mrc_check "policy set default (the default may change)" ctl policy set default rto-min 3ms
mrc_check_eq "default changed" 3ms "$(pol default rto-min)"
json=$(ctl -j policy)
mrc_check_eq "JSON: three policies, knobs in ns" "default:3000000 fast:200000 lazy_2:2000000" \
	"$(mrcctl_jq "$json" "' '.join('%s:%d' % (p['name'], p['rto_min_ns']) for p in j)")"

# Settings.
mrc_check_match "settings show" "^4791 +default +64$" "$(ctl settings | sed -n 2p)"
mrc_check "settings set" ctl settings set udp-port 4792 default-policy fast max-ev-set 128
json=$(ctl -j settings)
mrc_check_eq "settings applied" "4792 fast 128" \
	"$(mrcctl_jq "$json" "'%d %s %d' % (j['udp_port'], j['default_policy'], j['max_ev_set'])")"
mrc_check_eq "info reports the new port" 4792 "$(mrcctl_jq "$(ctl -j info)" "j['udp_port']")"
mrc_check_eq "policy show marks the new default" "fast*" "$(pol fast name)"
mrcctl_err "the default policy cannot be deleted" 1 \
	"mrcctl: policy del: the policy is the namespace's default policy (see settings) (MRC_POLICY_A_NAME) [Device or resource busy]" \
	ctl policy del fast
mrc_check "settings set default-policy default" ctl settings set default-policy default
mrc_check "now fast can go" ctl policy del fast
mrc_check "and lazy_2" ctl policy del lazy_2
mrc_check_eq "default left alone" "default*" "$(ctl policy | awk 'NR > 1 { print $1 }')"

# The UDP port cannot change under live sockets.
fifo=$(mrc_tmpdir)/sock
mkfifo "$fifo"
mrc_bg nsenter --net="/run/netns/$a" python3 -c '
import socket, sys, time
s = socket.socket(25, socket.SOCK_STREAM)
open(sys.argv[1], "w").write("open\n")
time.sleep(120)' "$fifo"
read -r opened <"$fifo"
mrc_check_eq "an MRC socket is open" open "$opened"
mrcctl_err "UDP port refused while sockets exist" 1 \
	"mrcctl: settings set: the UDP port cannot change while MRC sockets exist in this namespace (MRC_SETTINGS_A_UDP_PORT) [Device or resource busy]" \
	ctl settings set udp-port 5000
mrc_check "setting the same port again is fine" ctl settings set udp-port 4792
mrc_check "other settings can change" ctl settings set max-ev-set 16
kill "$MRC_BG_PID"
wait "$MRC_BG_PID" 2>/dev/null
mrc_check "socket closed: port changes" mrc_wait_for 30 ctl settings set udp-port 4791
mrc_done
