#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-slow: the long forms of VM tests that make check runs short
# (issue #17), and the tests too heavy for it, in one boot of the stock
# kernel; not part of make check.
#   48-stalled-reader  a peer that stops reading for minutes: the reader
#                      sleeps 180 s (MRC_TEST_STALL_PAUSE_S; make check:
#                      3 x the default policy's retry budget, 13.5 s)
#   40-transfer-fabric  four times the bytes of each mode's transfers
#                      (MRC_TEST_FABRIC_FULL=1: 1.5 GiB of STREAM and
#                      140k SEQPACKET messages; make check: a quarter)
#   49-path-mtu        one spine link with an MTU below the data packets'
#                      size during a 192 MiB transfer, each variant
#                      (MRC_TEST_PMTU_BYTES=201326592; make check: a 4 s
#                      window of a transfer)
#   80-apps-iperf3, 81-apps-torch, 82-apps-mpi
#                      each job over plain TCP too, before the MRC one
#                      (MRC_TEST_APPS_TCP=1: figures reported next to
#                      MRC's, never asserted; make check: MRC only)
#   multi 40-offloads  each offload off on its own, across two kernels
#                      (MRC_TEST_OFFLOADS_EACH=1: five variants; make
#                      check: three, the offloads off together), when no
#                      test is named
#   75-probe-budget    the namespace's probe budget while 200 connections
#                      lose 800 paths at once: a load the emulated fabric
#                      does not carry reliably (its header; issue #14);
#                      "# suite: slow" keeps it out of make check
# Each parameter may be set in the environment instead. Only these tests,
# or the named ones: scripts/check-slow.sh [TEST...] (make check-slow
# T="..."). On a machine shared with other VMs, run it under the VM lock
# (flock /tmp/mrc-vm.lock make check-slow).
# Results: build/selftests-slow/ (ktap.txt, console.log, dmesg.txt), or
# the directory MRC_SELFTESTS_OUT names.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2

export MRC_TEST_STALL_PAUSE_S=${MRC_TEST_STALL_PAUSE_S:-180}
export MRC_TEST_PMTU_BYTES=${MRC_TEST_PMTU_BYTES:-201326592}
export MRC_TEST_FABRIC_FULL=${MRC_TEST_FABRIC_FULL:-1}
export MRC_TEST_APPS_TCP=${MRC_TEST_APPS_TCP:-1}
export MRC_SELFTESTS_OUT=${MRC_SELFTESTS_OUT:-$root/build/selftests-slow}
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(40-transfer-fabric 48-stalled-reader 49-path-mtu 75-probe-budget
	80-apps-iperf3 81-apps-torch 82-apps-mpi)

start=$SECONDS
selftests/run.sh -q "${tests[@]}" 2>&1 | tee "$MRC_SELFTESTS_OUT.log"
rc=${PIPESTATUS[0]}
# What each test measured and its results: the # lines and the checks.
ktap=$MRC_SELFTESTS_OUT/ktap.txt
[ -r "$ktap" ] && grep -E '^(not )?ok |^    (# Subtest|# |not ok )' "$ktap"
summary="$(tail -1 "$MRC_SELFTESTS_OUT.log" | sed 's/^selftests: //')"
if [ $# -eq 0 ]; then
	multi_out=$MRC_SELFTESTS_OUT-multi
	MRC_TEST_OFFLOADS_EACH=1 MRC_SELFTESTS_OUT=$multi_out \
		selftests/vm/multi/run.sh -q 40-offloads 2>&1 | tee "$multi_out.log"
	mrc=${PIPESTATUS[0]}
	[ -r "$multi_out/ktap.txt" ] && grep -E '^(not )?ok ' "$multi_out/ktap.txt"
	[ "$mrc" = 0 ] || rc=1
	summary="$summary; two kernels: $(grep -E '^selftests-multi: ' "$multi_out.log" | tail -1 |
		sed 's/^selftests-multi: //')"
fi
echo "check-slow: $summary in $((SECONDS - start)) s"
exit "$rc"
