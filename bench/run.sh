#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot Debian's kernel in QEMU, build the reference fabric and
# run the scenarios of the brief's section 11 for MRC, TCP and MPTCP in
# the same boot (bench/guest.sh), then write the JSON summary, the
# Markdown table of ratios and the PNG plots (bench/report.py).
#
# Usage: bench/run.sh [OUTDIR]     (default build/bench/<UTC timestamp>)
#
# Environment: BENCH_* variables are passed to the guest (see
# bench/guest.sh: BENCH_P, BENCH_S, BENCH_RATE_MBIT, BENCH_DURATION,
# BENCH_FAULT_AT, BENCH_CONNS, BENCH_PROTOS, BENCH_SCENARIOS);
# BENCH_VM_TIMEOUT (default 1680 s: 28 minutes) bounds the VM.
# The newest results are also reachable as build/bench/latest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. bench/lib_host.sh

for f in kmod/mrc.ko build/tools/mrcctl/mrcctl build/tools/mrc-perf/mrc-perf; do
	[ -x "$f" ] || [ -f "$f" ] || { echo "bench: $f is not built (make)" >&2; exit 2; }
done
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null ||
	{ echo "bench: python3-matplotlib missing (scripts/install-deps.sh)" >&2; exit 2; }

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${1:-build/bench/$stamp}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/raw"

commit=$(bench_commit kmod lib tools uapi bench)
bench_guest_env BENCH_ BENCH_VM_TIMEOUT

echo "bench: commit $commit; booting Debian's $(selftests/vm/kver.sh) kernel; results in $out"
t0=$SECONDS
rc=0
selftests/vm/run-vm.sh -q -t "${BENCH_VM_TIMEOUT:-1680}" -o "$out" -- \
	env "${BENCH_ENV[@]}" BENCH_OUT=/tmp/out bench/guest.sh || rc=$?
grep '^bench:' "$out/console.log" || true
vm_s=$((SECONDS - t0))
echo "bench: VM finished after ${vm_s} s (status $rc)"
if [ ! -d "$out/raw" ]; then
	echo "bench: the guest wrote no results; see $out/console.log" >&2
	exit 1
fi
# The guest's perf samples, resolved with its kallsyms (fast here).
for d in "$out"/raw/*.perf.data; do
	[ -e "$d" ] || continue
	perf report -i "$d" --kallsyms "$out/raw/kallsyms" --stdio --no-children \
		--sort dso,sym --percent-limit 0.02 2>/dev/null | grep -v '^#' | grep . |
		head -120 > "${d%.data}.txt" || true
done
/usr/bin/python3 bench/report.py "$out" --commit "$commit" --vm-seconds "$vm_s" --vm-status "$rc"
ln -sfn "$out" "$root/build/bench/latest" 2>/dev/null || true
echo "bench: table $out/table.md, plots $out/*.png, JSON $out/results.json"
exit "$rc"
