#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest B's kernel log over the whole run: no warning, BUG, oops,
# lockdep or sanitizer report (selftests/vm/scan-kernel-log.sh, as the
# suite runner checks guest A's after every test). Appended to every
# multi-guest run by run.sh; when a test powered B off, run.sh scans B's
# console log instead.
# timeout: 120
. "$(dirname "$0")/lib_multi.sh"

if [ -e /tmp/xchg/ctl/poweroff-b.done ]; then
	mrc_skip "B's kernel log" "B was powered off (run.sh scans its console)"
	mrc_done
fi
on_b dmesg > "$res/dmesg-b.txt"
mrc_check "B's kernel log is clean" "$MRC_ROOT/selftests/vm/scan-kernel-log.sh" "$res/dmesg-b.txt"
mrc_check "B keeps no MRC connection" mrc_wait_for 10 sh -c "[ \"\$(python3 $MULTI_AGENT call 10.99.0.2 7000 $MRCCTL -j conn)\" = '[]' ]"
mrc_done
