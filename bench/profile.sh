#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-profile: where MRC's CPU time goes next to TCP's, what is
# wasted, and what an idle connection costs. Boots the VM once with the
# instruction-counting QEMU plugin (bench/insn-profile.cc), builds the
# bench's fabric and runs bench/profile-guest.sh in it, then writes the
# summary (bench/profile_report.py).
#
# Usage: bench/profile.sh [OUTDIR]   (default build/bench-profile/<UTC time>)
#
# Environment: BENCH_P, BENCH_S and BENCH_PROFILE_* go to the guest (see
# bench/profile-guest.sh); BENCH_PROFILE_VM_TIMEOUT (default 1500 s)
# bounds the VM; BENCH_PROFILE_PLUGIN=0 boots without the plugin.
# The newest results are also reachable as build/bench-profile/latest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. bench/lib_host.sh

for f in kmod/mrc.ko build/tools/mrcctl/mrcctl build/tools/mrc-perf/mrc-perf; do
	[ -f "$f" ] || { echo "bench-profile: $f is not built (make)" >&2; exit 2; }
done
command -v perf > /dev/null ||
	{ echo "bench-profile: perf missing (scripts/install-deps.sh --bench)" >&2; exit 2; }

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${1:-build/bench-profile/$stamp}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/raw" "$out"/*.started "$out"/*.stopped "$out"/*.insns "$out/profile.ctl"

plugin=${BENCH_PROFILE_PLUGIN:-1}
so=$root/build/bench/insn-profile.so
if [ "$plugin" = 1 ]; then
	mkdir -p "$(dirname "$so")"
	if [ ! -f "$so" ] || [ bench/insn-profile.cc -nt "$so" ]; then
		${CXX:-g++} -std=c++20 -O2 -fPIC -shared -fvisibility=hidden -Wall -Wextra -Werror \
			-o "$so" bench/insn-profile.cc -lpthread
	fi
	: > "$out/profile.ctl"
	export MRC_VM_QEMU_ARGS="-plugin $so,ctl=$out/profile.ctl"
fi

commit=$(bench_commit kmod lib tools uapi bench)
bench_guest_env BENCH_ BENCH_PROFILE_VM_TIMEOUT BENCH_PROFILE_PLUGIN
others=$(pgrep -c -x qemu-system-x86 || true)

echo "bench-profile: commit $commit; $others QEMU already running; results in $out"
t0=$SECONDS
rc=0
selftests/vm/run-vm.sh -q -t "${BENCH_PROFILE_VM_TIMEOUT:-1500}" -o "$out" -- \
	env "${BENCH_ENV[@]}" BENCH_OUT=/tmp/out BENCH_PROFILE_PLUGIN="$plugin" bench/profile-guest.sh || rc=$?
grep '^bench:' "$out/console.log" || true
vm_s=$((SECONDS - t0))
echo "bench-profile: VM finished after ${vm_s} s (status $rc)"
[ -d "$out/raw" ] || { echo "bench-profile: the guest wrote no results; see $out/console.log" >&2; exit 1; }
mv "$out"/*.insns "$out/raw/" 2> /dev/null || true
rm -f "$out"/*.started "$out"/*.stopped

# perf's samples, resolved with the guest's kallsyms: self and children,
# by kernel / module / user (dso) and by symbol
for d in "$out"/raw/*.perf.data; do
	[ -e "$d" ] || continue
	b=${d%.perf.data}
	perf report -i "$d" --kallsyms "$out/raw/kallsyms" --stdio --header-only > "$b.perf.header" 2>&1 || true
	perf report -i "$d" --kallsyms "$out/raw/kallsyms" --stdio --no-children \
		--sort dso,sym -g none --percent-limit 0.5 2> /dev/null | grep -v '^$' | head -150 > "$b.perf.self.txt" || true
	perf report -i "$d" --kallsyms "$out/raw/kallsyms" --stdio --children \
		--sort sym -g none --percent-limit 2 2> /dev/null | grep -v '^$' | head -150 > "$b.perf.children.txt" || true
	perf report -i "$d" --kallsyms "$out/raw/kallsyms" --stdio --no-children \
		--sort dso -g none 2> /dev/null | grep -v '^$' > "$b.perf.dso.txt" || true
	# who waits for a spinlock (the socket's, mostly): callers, inverted
	perf report -i "$d" --kallsyms "$out/raw/kallsyms" --stdio --no-children --sort sym \
		-S native_queued_spin_lock_slowpath -G 2> /dev/null | grep -v '^$' | head -80 > "$b.perf.spin.txt" || true
done
/usr/bin/python3 bench/profile_report.py "$out" --commit "$commit" --vm-seconds "$vm_s" \
	--others "$others" --vm-status "$rc"
ln -sfn "$out" "$root/build/bench-profile/latest" 2> /dev/null || true
echo "bench-profile: summary $out/summary.md"
exit "$rc"
