#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the control-plane selftests (20-29) and of the tests that
# count connections (70-73), sourced after lib.sh. Every helper is named
# mrcctl_*; the tests start background jobs (mrcctl monitor, servers)
# with lib.sh's mrc_bg / mrc_bg_in_ns, which the cleanup kills.

MRC_NLRAW=${MRC_NLRAW:-$MRC_ROOT/selftests/tools/mrc_nlraw.py}

# mrcctl_ifindex NS DEV: a device's index in its namespace.
mrcctl_ifindex() {
	ip -n "$1" -o link show "$2" | cut -d: -f1
}

# mrcctl_err DESC RC STDERR CMD...: CMD exits with RC and prints exactly
# STDERR (one line) on standard error.
mrcctl_err() {
	local desc=$1 want_rc=$2 want=$3 got rc
	shift 3
	got=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ]; then
		mrc_pass "$desc"
	else
		mrc_fail "$desc"
		mrc_info "expected (exit $want_rc): $want"
		mrc_info "actual   (exit $rc): $got"
	fi
}

# mrcctl_jq JSON EXPR: evaluate the Python expression EXPR on the parsed JSON
# (bound to j) and print the result.
mrcctl_jq() {
	python3 -S -c 'import json,sys; j=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

# mrcctl_plane_field NS ID FIELD: one column of a plane's row in the table (id
# dev saddr admin oper paths); awk, not python: the emulated guest is slow
# to start interpreters.
mrcctl_plane_field() {
	in_ns "$1" "$MRCCTL" plane show "$2" |
		awk -v f="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
			       NR == 2 { print $col[f] }'
}

# mrcctl_plane_is NS ID FIELD VALUE: succeeds when the field has that value.
mrcctl_plane_is() {
	[ "$(mrcctl_plane_field "$1" "$2" "$3")" = "$4" ]
}

# mrcctl_count_rows CMD...: rows of a table, header excluded.
mrcctl_count_rows() {
	"$@" | awk 'NR > 1' | wc -l
}

# mrcctl_veth_pair NS A B: a veth pair inside NS, both ends up.
mrcctl_veth_pair() {
	ip -n "$1" link add "$2" type veth peer name "$3" &&
		ip -n "$1" link set "$2" up && ip -n "$1" link set "$3" up
}
