#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mrcctl info reports the module in every namespace, as a table and as
# JSON; without the module it exits 3 with one clear line.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

mrc_module_load
a=$(mrc_ns_new a)
b=$(mrc_ns_new b)

field() { # field JSON KEY
	python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"
}

ja=$(ip netns exec "$a" "$MRCCTL" -j info)
jb=$(ip netns exec "$b" "$MRCCTL" -j info)
mrc_check_eq "version (ns a)" "$(cat "$MRC_ROOT/VERSION")" "$(field "$ja" version)"
mrc_check_eq "af (ns a)" 25 "$(field "$ja" af)"
mrc_check_eq "ipproto (ns a)" 261 "$(field "$ja" ipproto)"
mrc_check_eq "udp port (ns a)" 4791 "$(field "$ja" udp_port)"
mrc_check_eq "af (ns b)" 25 "$(field "$jb" af)"
mrc_check_eq "udp port (ns b)" 4791 "$(field "$jb" udp_port)"
if [ "$(field "$ja" netns_cookie)" != "$(field "$jb" netns_cookie)" ]; then
	mrc_pass "each namespace answers for itself (distinct cookies)"
else
	mrc_fail "namespaces a and b report the same cookie"
fi

table=$(ip netns exec "$a" "$MRCCTL" info)
mrc_check_match "table has a header row" "^version +af +ipproto +udp_port +netns" "$table"
mrc_check_match "table row" "^$(cat "$MRC_ROOT/VERSION") +25 +261 +4791 " "$(echo "$table" | sed -n 2p)"
mrc_check_match "pretty JSON is indented" '^  "af": 25' "$("$MRCCTL" -j -p info)"

rmmod mrc
err=$("$MRCCTL" info 2>&1 >/dev/null)
rc=$?
mrc_check_eq "without the module: exit status 3" 3 "$rc"
mrc_check_eq "without the module: one line of error" 1 "$(printf '%s\n' "$err" | wc -l)"
mrc_check_match "without the module: says so" "module is not loaded" "$err"
"$MRCCTL" bogus >/dev/null 2>&1
mrc_check_eq "unknown subcommand: exit status 2" 2 "$?"
mrc_done
