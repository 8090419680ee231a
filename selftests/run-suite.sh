#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run selftests inside the test VM, in one boot, each under its own
# timeout, printing KTAP (to stdout and to the -o file).
#
# Usage: run-suite.sh [-o KTAP_FILE] [-t DEFAULT_TIMEOUT] [TEST...]
#   TEST: a script path or a name under selftests/tests (default: all,
#   in name order, but those with a line "# suite: slow", which make
#   check-slow runs). A script may set its own limit with a line
#   "# timeout: SECONDS" near the top; SECONDS may be an arithmetic
#   expression over the test's parameters, for a test whose duration
#   follows one ("# timeout: 240 + 2 * MRC_TEST_STALL_PAUSE_S": 240 when
#   the variable is unset, bash arithmetic counting it 0).
#
# A test fails when it exits non-zero, times out, or the kernel logs a
# warning, BUG, oops, lockdep or sanitizer report while it runs.
#
# Environment: MRC_TEST_TIME_SCALE multiplies every test's timeout (a slow
# debug kernel, see lib.sh); MRC_SUITE_BUDGET=SECONDS: once the suite has
# run that long, the tests not yet started are skipped ("# SKIP suite
# budget"), except the last one (99-module-unload: the module must unload),
# and no test's timeout reaches past the budget by more than 300 s.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ktap=/dev/null
default_timeout=300
while getopts "o:t:" opt; do
	case $opt in
	o) ktap=$OPTARG ;;
	t) default_timeout=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

tests=()
if [ $# -eq 0 ]; then
	for t in "$here"/tests/*.sh; do
		# make check-slow's own (scripts/check-slow.sh): run when named
		grep -q '^# suite: slow$' "$t" && continue
		tests+=("$t")
	done
else
	for t in "$@"; do
		[ -f "$t" ] || t=$here/tests/${t%.sh}.sh
		tests+=("$t")
	done
fi

exec > >(tee "$ktap") 2>&1
echo "KTAP version 1"
echo "1..${#tests[@]}"
n=0
failed=0
suite_start=$SECONDS
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=$(basename "$t" .sh)
	if [ -n "${MRC_SUITE_BUDGET:-}" ] && [ "$n" -lt "${#tests[@]}" ] &&
	   [ $((SECONDS - suite_start)) -ge "$MRC_SUITE_BUDGET" ]; then
		echo "ok $n $name # SKIP suite budget of ${MRC_SUITE_BUDGET} s spent"
		continue
	fi
	if [ ! -f "$t" ]; then
		echo "not ok $n $name # no such test"
		failed=$((failed + 1))
		continue
	fi
	# digits, variable names and + - * / ( ): nothing else is evaluated
	limit=$(sed -n 's/^# timeout: *\([0-9][0-9A-Za-z_ +*/()-]*\)$/\1/p' "$t" | head -1)
	limit=$(exec 2>/dev/null; set +u; echo $(( (${limit:-$default_timeout}) * ${MRC_TEST_TIME_SCALE:-1})))
	if ! [ "${limit:-0}" -gt 0 ] 2>/dev/null; then
		echo "# $name: its timeout line does not evaluate to seconds; $default_timeout s"
		limit=$((default_timeout * ${MRC_TEST_TIME_SCALE:-1}))
	fi
	if [ -n "${MRC_SUITE_BUDGET:-}" ]; then	# no test outlives the budget by much
		left=$((MRC_SUITE_BUDGET - (SECONDS - suite_start)))
		[ "$left" -lt 300 ] && left=300
		[ "$limit" -gt "$left" ] && limit=$left
	fi
	dmesg_before=$(dmesg | wc -l)
	start=$(date +%s%N)
	# Streamed, not buffered: when the VM is killed the log so far shows
	# where the test was.
	echo "    KTAP version 1"
	echo "    # Subtest: $name"
	timeout --kill-after=10 "$limit" bash "$t" 2>&1 < /dev/null | sed -u 's/^/    /'
	rc=${PIPESTATUS[0]}
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	dmesg | tail -n +"$((dmesg_before + 1))" > /tmp/.dmesg-test
	kernel_ok=1
	"$here/vm/scan-kernel-log.sh" /tmp/.dmesg-test 2>&1 | sed 's/^/    # /' || true
	"$here/vm/scan-kernel-log.sh" /tmp/.dmesg-test >/dev/null 2>&1 || kernel_ok=0
	if [ "$kernel_ok" = 0 ]; then
		echo "not ok $n $name # kernel reported a problem (see the lines above) after ${ms} ms"
		failed=$((failed + 1))
	elif [ "$rc" = 0 ]; then
		echo "ok $n $name # ${ms} ms"
	elif [ "$rc" = 4 ]; then
		echo "ok $n $name # SKIP"
	elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "not ok $n $name # TIMEOUT after ${limit}s"
		failed=$((failed + 1))
	else
		echo "not ok $n $name # exit status $rc after ${ms} ms"
		failed=$((failed + 1))
	fi
done
[ "$failed" = 0 ]
