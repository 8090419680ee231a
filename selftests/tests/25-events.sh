#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mrcctl monitor sees plane events, with timestamps and reasons, while
# the test fails links, deletes a device and reconfigures planes (a
# deleted device is shown by name or, once gone, by index); the
# counters move with them.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

mrc_module_load
a=$(mrc_ns_new a)
b=$(mrc_ns_new b)
ctl() { in_ns "$a" "$MRCCTL" "$@"; }
mrcctl_veth_pair "$a" pa0 pb0
mrcctl_veth_pair "$a" pa1 pb1
dir=$(mrc_tmpdir)

mrc_bg_in_ns "$a" "$MRCCTL" monitor >"$dir/events" 2>"$dir/monitor.err"
mon=$MRC_BG_PID
mrc_bg_in_ns "$a" "$MRCCTL" -j monitor >"$dir/events.json" 2>"$dir/monitor-j.err"
monj=$MRC_BG_PID
# Another namespace's monitor must see nothing of namespace a.
mrc_bg_in_ns "$b" "$MRCCTL" monitor >"$dir/events-b" 2>"$dir/monitor-b.err"
monb=$MRC_BG_PID
mrc_check "monitors are listening" mrc_wait_for 30 grep -q monitoring "$dir/monitor.err" \
	"$dir/monitor-j.err" "$dir/monitor-b.err"
mrc_wait_for 30 grep -q monitoring "$dir/monitor-j.err"
mrc_wait_for 30 grep -q monitoring "$dir/monitor-b.err"

up0=$(mrc_mib "$a" PlaneUp)
ctl plane add 0 dev pa0 saddr 2001:db8::1
ctl plane add 1 dev pa1 saddr 2001:db8::2
ts='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z'
has() { grep -Eq "$1" "$dir/events"; }
mrc_check "plane-up on add" mrc_wait_for 20 has "$ts plane-up plane 0 dev pa0 reason added$"

# Fail the link: the peer goes down, plane 0 loses carrier.
ip -n "$a" link set pb0 down
mrc_check "plane-down when the link fails" mrc_wait_for 20 has "$ts plane-down plane 0 dev pa0 reason link$"
ip -n "$a" link set pb0 up
mrc_check "plane-up when it is back" mrc_wait_for 20 has "$ts plane-up plane 0 dev pa0 reason link$"

ctl plane set 1 admin down
mrc_check "plane-down on admin down" mrc_wait_for 20 has "plane-down plane 1 dev pa1 reason admin$"
ctl plane set 1 admin up
mrc_check "plane-up on admin up" mrc_wait_for 20 has "plane-up plane 1 dev pa1 reason admin$"
ip -n "$a" link del pa1
mrc_check "plane-down when the device is deleted" mrc_wait_for 20 \
	has "plane-down plane 1 dev [^ ]+ reason device-gone$"
ctl plane del 0
mrc_check "plane-down on delete" mrc_wait_for 20 has "plane-down plane 0 dev pa0 reason deleted$"

jhas() { python3 - "$dir/events.json" <<'PY'
import json, sys
evs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
want = [("plane-up", "added"), ("plane-down", "link"), ("plane-up", "link"),
        ("plane-down", "admin"), ("plane-up", "admin"), ("plane-down", "device-gone"),
        ("plane-down", "deleted")]
got = [(e["type"], e["reason"]) for e in evs]
# every wanted event, in this order (plane 1's add comes between)
it = iter(got)
sys.exit(0 if all(w in it for w in want) and all(e["timestamp_ns"] > 0 for e in evs) else 1)
PY
}
mrc_check "JSON monitor saw the same events, in order" mrc_wait_for 20 jhas
mrc_check_eq "no event leaked into namespace b" "" "$(cat "$dir/events-b")"
mrc_check "PlaneUp counted" test "$(mrc_mib "$a" PlaneUp)" -ge $((up0 + 4))
mrc_check "PlaneDown counted" test "$(mrc_mib "$a" PlaneDown)" -ge 4
stats=$(ctl -j stats)
mrc_check_eq "stats -j matches /proc/net/mrc_stat" "$(mrc_mib "$a" PlaneDown)" \
	"$(mrcctl_jq "$stats" "j['counters']['PlaneDown']")"
mrc_check_eq "stats: no event was dropped" 0 "$(mrcctl_jq "$stats" "j['counters']['EventsDropped']")"
watch=$(ctl stats -w 0.2 -c 2)
mrc_check_match "stats -w prints rates" "rate/s" "$watch"
mrc_check_eq "stats -w: two reports" 2 "$(echo "$watch" | grep -c '^every')"
kill "$mon" "$monj" "$monb" 2>/dev/null
mrc_done
