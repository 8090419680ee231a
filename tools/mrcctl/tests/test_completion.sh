#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bash completion of mrcctl offers the right words.
set -u
. "$(dirname "$0")/../mrcctl.bash-completion"
fail=0
expect() { # expect "WANTED" WORDS...
	local want=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	_mrcctl
	if [ "${COMPREPLY[*]}" != "$want" ]; then
		echo "completing '$*': got '${COMPREPLY[*]}', want '$want'"
		fail=1
	fi
}
expect "plane path policy probe" mrcctl p
expect "add set del show" mrcctl plane ""
expect "usid srh entropy" mrcctl path add 1 mode ""
expect "rto-max retry-limit" mrcctl policy set p rto-min 1ms r
expect "dst deny" mrcctl path add 1 d
expect "weight allow" mrcctl path set 1 deny ""
expect "up down" mrcctl -j plane set 0 admin ""
expect "prometheus" mrcctl stats -o p
expect "bytes retx" mrcctl stats -o openmetrics --top 5 --top-by ""
expect "top" mrcctl t
expect "-i --interval -n --iterations -c --conns" mrcctl top -
expect "--interval --iterations" mrcctl top -i 0.5 --i
expect "" mrcctl top -n ""
exit $fail
