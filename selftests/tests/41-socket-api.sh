#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Socket API conformance over loopback, of both entry points that share
# one set of socket operations: socket(AF_MRC, ...) and socket(AF_INET6,
# ..., IPPROTO_MRC), the drop-in for TCP programs. Every call of the
# socket API, its error cases, both socket types, options and close
# semantics; for AF_INET6 also the TCP options, ioctls, sendfile() and
# splice() that TCP programs use (selftests/progs/sockapi.cpp prints the
# checks).
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mrc_module_load
ns=$(mrc_ns_new api)
rcs=()
for mode in af_mrc inet6; do
	# Its checks are a nested KTAP block.
	# It counts the namespace's connections with mrcctl (close semantics).
	MRC_SOCKAPI_CONNS="$MRCCTL conn | tail -n +2 | wc -l" \
		ip netns exec "$ns" stdbuf -oL "$MRC_BUILD/progs/mrc_sockapi" "$mode" 2>&1 |
		tee "$(mrc_tmpdir)/api.$mode" | sed -u 's/^/    /'
	rcs+=("${PIPESTATUS[0]}")
done
# The module must unload once every socket of the test is closed.
ip netns del "$ns"
_mrc_namespaces=()
mrc_wait_for 60 rmmod mrc
mrc_check_fails "module unloads after the test" mrc_module_loaded
i=0
for mode in af_mrc inet6; do
	out=$(mrc_tmpdir)/api.$mode
	if [ "${rcs[i]}" = 0 ]; then
		mrc_pass "socket API ($mode): $(grep -c '^ok' "$out") checks"
	else
		mrc_fail "socket API ($mode): $(grep -c '^not ok' "$out") checks failed (above)"
	fi
	i=$((i + 1))
done
mrc_done
