#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of make check-debug: run the suite (selftests/run-suite.sh,
# which fails a test when the kernel logs a KASAN, lockdep, UBSAN or other
# report while it runs), then have kmemleak scan what is left and save its
# report to /tmp/out/kmemleak.txt.
#
# The debug kernel runs tens of times slower than the stock one under
# emulation: the tests' time bounds are multiplied by MRC_TEST_TIME_SCALE
# (default 10) and heavy transfers divided by MRC_TEST_SIZE_DIV (default
# 32); see selftests/lib.sh. MRC_SUITE_BUDGET (seconds, unset: none) skips
# the tests not started in time (run-suite.sh).
#
# Usage: debug-suite.sh [TEST...]
# Exit status: the suite's; 3 if the suite passed but kmemleak found leaks.
here=$(cd "$(dirname "$0")" && pwd)
export MRC_TEST_TIME_SCALE=${MRC_TEST_TIME_SCALE:-10}
export MRC_TEST_SIZE_DIV=${MRC_TEST_SIZE_DIV:-32}
# KASAN's quarantine keeps up to 1/32 of memory in freed objects before
# they return: memory checks tolerate that on top of their own slack.
export MRC_TEST_MEM_SLACK_KB=${MRC_TEST_MEM_SLACK_KB:-$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 32))}
echo "# debug suite: time bounds x$MRC_TEST_TIME_SCALE, transfers / $MRC_TEST_SIZE_DIV${MRC_SUITE_BUDGET:+, budget $MRC_SUITE_BUDGET s}"

kml=/sys/kernel/debug/kmemleak
# No periodic scan while the tests run (a scan of the whole memory takes
# minutes under emulation); it scans on demand at the end.
[ -w "$kml" ] && echo scan=off > "$kml"

MRC_TEST_KEEP=/tmp/out/keep "$here/../run-suite.sh" -o /tmp/out/ktap.txt "$@"
rc=$?

if [ ! -w "$kml" ]; then
	echo "# kmemleak: not available"
	exit $rc
fi
# An object is reported once it has been unreferenced for a while and seen
# by two scans: scan, let it age, scan again.
echo scan > "$kml"
sleep 6
echo scan > "$kml"
cat "$kml" > /tmp/out/kmemleak.txt
leaks=$(grep -c '^unreferenced object' /tmp/out/kmemleak.txt)
# Not "kmemleak: ... unreferenced": scan-kernel-log.sh reads that as the
# kernel's own report when it scans the console.
echo "# kmemleak scan: $leaks leaks"
if [ "$leaks" -gt 0 ]; then
	head -60 /tmp/out/kmemleak.txt | sed 's/^/# /'
	[ "$rc" = 0 ] && rc=3
fi
exit $rc
