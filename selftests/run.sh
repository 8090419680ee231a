#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host side of the VM selftests: boot Debian's kernel once, run the suite
# (or the named tests) inside, check the kernel log, print one summary.
#
# Usage: selftests/run.sh [-t VM_TIMEOUT] [-q] [TEST...]
# Needs a built tree (make). Results: build/selftests/{ktap.txt,console.log,
# dmesg.txt}, or the directory MRC_SELFTESTS_OUT names (one per concurrent
# run: the directory is emptied first).
# The guest does not inherit this environment: the tests' parameters are
# passed on, every MRC_TEST_* variable set here (the scale knobs of
# lib.sh, a test's own such as 48's MRC_TEST_STALL_PAUSE_S or 49's
# MRC_TEST_PMTU_BYTES: make check-slow) and MRC_SUITE_BUDGET.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vm_timeout=3600
quiet=
while getopts "t:q" opt; do
	case $opt in
	t) vm_timeout=$OPTARG ;;
	q) quiet=-q ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

for f in "$root/kmod/mrc.ko" "$root/build/tools/mrcctl/mrcctl"; do
	if [ ! -e "$f" ]; then
		echo "selftests: $f is missing: run 'make' first" >&2
		exit 2
	fi
done

params=()
for v in $(compgen -e); do
	case $v in
	MRC_TEST_KEEP) ;;	# the guest's own, below
	MRC_TEST_*|MRC_SUITE_BUDGET) params+=("$v=${!v}") ;;
	esac
done
[ ${#params[@]} -gt 0 ] && echo "selftests: passed to the guest: ${params[*]}"

out=${MRC_SELFTESTS_OUT:-$root/build/selftests}
rm -rf "$out"
mkdir -p "$out"
"$root/selftests/vm/run-vm.sh" $quiet -t "$vm_timeout" -o "$out" -- \
	env "${params[@]}" MRC_TEST_KEEP=/tmp/out/keep \
	"$root/selftests/run-suite.sh" -o /tmp/out/ktap.txt "$@"
rc=$?

ktap=$out/ktap.txt
passed=$(grep -cE '^ok [0-9]+ ' "$ktap" 2>/dev/null)
skipped=$(grep -cE '^ok [0-9]+ .*# SKIP' "$ktap" 2>/dev/null)
failed=$(grep -cE '^not ok [0-9]+ ' "$ktap" 2>/dev/null)
passed=$((${passed:-0} - ${skipped:-0}))
planned=$(sed -n 's/^1\.\.\([0-9]\+\)$/\1/p' "$ktap" 2>/dev/null | head -1)
ran=$((passed + ${skipped:-0} + ${failed:-0}))

case $rc in
0) ;;
124) echo "selftests: the VM hung and was killed after ${vm_timeout}s" >&2 ;;
125) echo "selftests: the guest crashed or never finished booting (see $out/console.log)" >&2 ;;
126) echo "selftests: the kernel logged a warning, BUG or oops (see $out/dmesg.txt)" >&2 ;;
*) ;;
esac
if [ -n "$planned" ] && [ "$ran" -lt "$planned" ]; then
	echo "selftests: only $ran of $planned tests reported a result" >&2
	failed=$((failed + planned - ran))
	[ "$rc" = 0 ] && rc=1
fi
if [ "$ran" = 0 ] && [ "$rc" = 0 ]; then
	echo "selftests: no test ran" >&2
	rc=1
fi
echo "selftests: $passed passed, $failed failed, ${skipped:-0} skipped"
[ "$rc" = 0 ] && [ "$failed" = 0 ]
