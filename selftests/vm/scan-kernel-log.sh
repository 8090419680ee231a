#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fail (exit 1) when a kernel log shows a warning, BUG, oops, panic, lockdep,
# KASAN, UBSAN or kmemleak report; print the offending lines.
# Usage: scan-kernel-log.sh FILE...
pattern='WARNING:|BUG:|Oops|Kernel panic|general protection fault|'
pattern+='UBSAN:|KASAN:|kmemleak:.*(unreferenced|suspected)|'
pattern+='possible circular locking|possible recursive locking|'
pattern+='inconsistent lock state|sleeping function called from invalid|'
pattern+='scheduling while atomic|Call Trace:|RCU detected stall|'
pattern+='hung_task|soft lockup|hard LOCKUP|list_add corruption|'
pattern+='list_del corruption|refcount_t:|double free|use-after-free'
# Boot banners that contain the words above but report nothing (the
# debug kernel of make check-debug prints them).
ignore='RCU callback double-/use-after-free debug is enabled'
found=0
for f in "$@"; do
	[ -r "$f" ] || continue
	if grep -avF "$ignore" "$f" | grep -aEn "$pattern" > /tmp/.scan.$$; then
		echo "kernel log $f reports a problem:" >&2
		head -40 /tmp/.scan.$$ >&2
		found=1
	fi
done
rm -f /tmp/.scan.$$
exit $found
