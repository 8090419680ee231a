#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of make check-debug: run the suite (selftests/run-suite.sh,
# which fails a test when the kernel logs a KASAN, lockdep, UBSAN or other
# report while it runs), then have kmemleak scan what is left and save its
# report to /tmp/out/kmemleak.txt.
#
# Usage: debug-suite.sh [TEST...]
# Exit status: the suite's; 3 if the suite passed but kmemleak found leaks.
here=$(cd "$(dirname "$0")" && pwd)
"$here/../run-suite.sh" -o /tmp/out/ktap.txt "$@"
rc=$?

kml=/sys/kernel/debug/kmemleak
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
echo "# kmemleak: $leaks unreferenced objects"
if [ "$leaks" -gt 0 ]; then
	head -60 /tmp/out/kmemleak.txt | sed 's/^/# /'
	[ "$rc" = 0 ] && rc=3
fi
exit $rc
