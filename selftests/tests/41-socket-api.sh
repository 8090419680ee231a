#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# AF_MRC socket API conformance over loopback: every call of the socket
# API, its error cases, both socket types, options and close semantics
# (selftests/progs/sockapi.cpp prints the checks).
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mrc_module_load
ns=$(mrc_ns_new api)
# Its checks are a nested KTAP block.
# It counts the namespace's connections with mrcctl (close semantics).
MRC_SOCKAPI_CONNS="$MRCCTL conn | tail -n +2 | wc -l" \
	ip netns exec "$ns" stdbuf -oL "$MRC_BUILD/progs/mrc_sockapi" 2>&1 |
	tee "$(mrc_tmpdir)/api.out" | sed -u 's/^/    /'
rc=${PIPESTATUS[0]}
# The module must unload once every socket of the test is closed.
ip netns del "$ns"
_mrc_namespaces=()
mrc_wait_for 60 rmmod mrc
mrc_check_fails "module unloads after the test" mrc_module_loaded
if [ "$rc" = 0 ]; then
	mrc_pass "socket API: $(grep -c '^ok' "$(mrc_tmpdir)/api.out") checks"
else
	mrc_fail "socket API: $(grep -c '^not ok' "$(mrc_tmpdir)/api.out") checks failed (above)"
fi
mrc_done
