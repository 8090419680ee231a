#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the control-plane selftests (20-29), sourced after lib.sh.

MRC_NLRAW=${MRC_NLRAW:-$MRC_ROOT/selftests/tools/mrc_nlraw.py}

# ifindex NS DEV: a device's index in its namespace.
ifindex() {
	ip -n "$1" -o link show "$2" | cut -d: -f1
}

# ctl_err DESC RC STDERR CMD...: CMD exits with RC and prints exactly
# STDERR (one line) on standard error.
ctl_err() {
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

# jq_py JSON EXPR: evaluate the Python expression EXPR on the parsed JSON
# (bound to j) and print the result.
jq_py() {
	python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

# plane_field NS ID FIELD: one column of a plane's row in the table (id
# dev saddr admin oper paths); awk, not python: the emulated guest is slow
# to start interpreters.
plane_field() {
	in_ns "$1" "$MRCCTL" plane show "$2" |
		awk -v f="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
			       NR == 2 { print $col[f] }'
}

# plane_is NS ID FIELD VALUE: succeeds when the field has that value.
plane_is() {
	[ "$(plane_field "$1" "$2" "$3")" = "$4" ]
}

# count_rows CMD...: rows of a table, header excluded.
count_rows() {
	"$@" | awk 'NR > 1' | wc -l
}

# veth_pair NS A B: a veth pair inside NS, both ends up.
veth_pair() {
	ip -n "$1" link add "$2" type veth peer name "$3" &&
		ip -n "$1" link set "$2" up && ip -n "$1" link set "$3" up
}
