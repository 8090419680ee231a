#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-apps: boot Debian's kernel in QEMU, build the 4-host fabric
# and run an unmodified PyTorch training job (DDP step time) and an
# all-reduce loop (bandwidth) over MRC, TCP and MPTCP, fault-free and
# under each fault, in the same boot (bench/apps-guest.sh); then write
# the JSON summary and the Markdown table of ratios (bench/apps_report.py).
# A boot of its own, not a scenario of make bench: see
# Documentation/performance.md ("Unmodified training job").
#
# Usage: bench/apps-run.sh [OUTDIR]    (default build/bench-apps/<UTC time>)
#
# Environment: BENCH_APPS_* variables are passed to the guest (see
# bench/apps-guest.sh); BENCH_APPS_VM_TIMEOUT (default 1800 s) bounds the
# VM. The newest results are also reachable as build/bench-apps/latest.
# Exit status: 0 when every job ran and verified its results (whatever
# the figures), 1 otherwise (the table is still written).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. bench/lib_host.sh

for f in kmod/mrc.ko build/tools/mrcctl/mrcctl build/tools/mrcize/mrcize; do
	[ -f "$f" ] || { echo "bench-apps: $f is not built (make)" >&2; exit 2; }
done
/usr/bin/python3 -c 'import importlib.util as u, sys; sys.exit(u.find_spec("torch") is None)' ||
	{ echo "bench-apps: python3-torch missing (scripts/install-deps.sh)" >&2; exit 2; }
if [[ " ${BENCH_APPS_TRANSPORTS:-mptcp} " == *" mptcp "* ]] && ! command -v mptcpize > /dev/null; then
	echo "bench-apps: mptcpize missing (scripts/install-deps.sh --bench)" >&2
	exit 2
fi

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${1:-build/bench-apps/$stamp}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/raw"

commit=$(bench_commit kmod lib tools uapi bench selftests/workloads)
bench_guest_env BENCH_APPS_ BENCH_APPS_VM_TIMEOUT

echo "bench-apps: commit $commit; booting Debian's $(selftests/vm/kver.sh) kernel; results in $out"
t0=$SECONDS
rc=0
selftests/vm/run-vm.sh -q -t "${BENCH_APPS_VM_TIMEOUT:-1800}" -o "$out" -- \
	env "${BENCH_ENV[@]}" BENCH_OUT=/tmp/out bench/apps-guest.sh || rc=$?
grep '^bench:' "$out/console.log" | sed 's/^bench:/bench-apps:/' || true
vm_s=$((SECONDS - t0))
echo "bench-apps: VM finished after ${vm_s} s (status $rc)"
if [ ! -d "$out/raw" ]; then
	echo "bench-apps: the guest wrote no results; see $out/console.log" >&2
	exit 1
fi
mkdir -p "$root/build/bench-apps"
ln -sfn "$out" "$root/build/bench-apps/latest" 2>/dev/null || true
rrc=0
/usr/bin/python3 bench/apps_report.py "$out" --commit "$commit" --vm-seconds "$vm_s" \
	--vm-status "$rc" || rrc=$?
echo "bench-apps: table $out/table.md, JSON $out/results.json"
[ "$rc" = 0 ] || { echo "bench-apps: FAILED: the VM ended with status $rc ($out/console.log)" >&2; exit 1; }
[ "$rrc" = 0 ] || exit 1
exit 0
