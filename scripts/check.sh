#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: everything a change must pass, from a fresh machine.
#   1. dependencies (apt-get, only what is missing)
#   2. build: mrc.ko (W=1) and the userspace
#   3. lint: checkpatch --strict, kernel-doc, sparse, clang-format
#   4. unit tests (CTest: core, libmrc, mrcctl, uapi, simulator)
#   5. the protocol core's line coverage (>= 90%) and each libFuzzer
#      target briefly (MRC_FUZZ_SECONDS, default 10; 0 skips)
#   6. VM selftests (one boot of Debian's kernel)
#   7. VM selftests across two kernels (two guests, selftests-multi; about
#      6 minutes); MRC_CHECK_MULTI=0 leaves them out. `make
#      selftests-multi` runs them on their own.
# Ends with one summary line; exit status non-zero if anything failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD:-build}
jobs=$(nproc)
logdir=$build/check
start=$SECONDS

step() { echo; echo "==> $* (at $((SECONDS - start)) s)"; }
die() { echo "check: FAILED at step: $*" >&2; exit 1; }

# ktap_failures KTAP: why each failed test of KTAP failed: each failed
# check with the two diagnostics just before it, then the test's "# why:"
# lines (what it printed to explain a failure, e.g. lib_apps.sh's longest
# recovery). Printed again just above the summary, where a CI log that
# keeps only its end shows them.
ktap_failures() {
	awk '/^    # Subtest:/ { name = $3; n = 0; next }
	     /^    # why: / { why[name] = why[name] name ": " substr($0, 5) "\n"; next }
	     /^    # / { ctx[n++ % 2] = $0; next }
	     /^    not ok / {
		for (i = (n > 2 ? n - 2 : 0); i < n; i++) print name ": " ctx[i % 2]
		print name ": " $0; n = 0; next
	     }
	     /^    ok / { n = 0 }
	     /^not ok / { printf "%s", why[name] }' "$1" | sed 's/  */ /g' | cut -c1-200 | head -40
}

step "dependencies"
scripts/install-deps.sh || die "dependencies"

step "build"
make -C kmod W=1 KCFLAGS=-Werror || die "kernel module build"
cmake -S . -B "$build" >/dev/null || die "cmake configure"
cmake --build "$build" -j"$jobs" || die "userspace build"
mkdir -p "$logdir"
rm -f "$logdir/why.txt"

step "lint"
scripts/lint-kernel.sh || die "kernel lint"
scripts/lint-userspace.sh || die "userspace lint"

step "unit tests"
(cd "$build" && ctest --output-on-failure -j"$jobs") 2>&1 | tee "$logdir/ctest.log"
unit_ok=${PIPESTATUS[0]}
u_total=$(sed -n 's/.*tests failed out of \([0-9]\+\).*/\1/p' "$logdir/ctest.log" | tail -1)
u_failed=$(sed -n 's/.*, \([0-9]\+\) tests failed out of.*/\1/p' "$logdir/ctest.log" | tail -1)
u_total=${u_total:-0}
u_failed=${u_failed:-0}
[ "$unit_ok" = 0 ] || [ "$u_failed" != 0 ] || u_failed=1

step "coverage and fuzzing of the protocol core"
scripts/coverage.sh 2>&1 | tail -4 || die "coverage below 90% (make coverage)"
fuzz_secs=${MRC_FUZZ_SECONDS:-10}
if [ "$fuzz_secs" != 0 ]; then
	scripts/fuzz.sh "$fuzz_secs" 2>&1 | grep -E '^fuzz:' || die "a fuzzer found a crash (make fuzz)"
fi

step "VM selftests"
selftests/run.sh -q 2>&1 | tee "$logdir/selftests.log"
vm_ok=${PIPESTATUS[0]}
# The end of this output is what a CI log shows: the results on a few
# lines, then why each failed test failed (its failed checks and the
# diagnostics printed just before them).
ktap=$build/selftests/ktap.txt
if [ -r "$ktap" ]; then
	grep -E '^ok ' "$ktap" | sed -E 's/^ok [0-9]+ ([^ ]+).*# ([0-9]+)[0-9]{3} ms$/\1:\2s/' |
		paste -sd' ' | fold -s -w 100 | sed 's/^/passed: /'
	grep -E '^not ok ' "$ktap" || true
	ktap_failures "$ktap" | tee "$logdir/why.txt"
fi
summary=$(grep -E '^selftests: ' "$logdir/selftests.log" | tail -1)
v_passed=$(echo "$summary" | sed -n 's/selftests: \([0-9]\+\) passed.*/\1/p')
v_failed=$(echo "$summary" | sed -n 's/.* \([0-9]\+\) failed.*/\1/p')
v_skipped=$(echo "$summary" | sed -n 's/.* \([0-9]\+\) skipped.*/\1/p')
v_passed=${v_passed:-0}
v_failed=${v_failed:-0}
v_skipped=${v_skipped:-0}
[ "$vm_ok" = 0 ] || [ "$v_failed" != 0 ] || v_failed=1

m_passed=0
m_failed=0
m_skipped=0
if [ "${MRC_CHECK_MULTI:-1}" != 0 ]; then
	step "VM selftests across two kernels"
	selftests/vm/multi/run.sh -q selftests/multi/[0-9]*.sh 2>&1 | tee "$logdir/selftests-multi.log"
	multi_ok=${PIPESTATUS[0]}
	if [ -r "$build/selftests-multi/ktap.txt" ]; then
		grep -E '^not ok ' "$build/selftests-multi/ktap.txt"
		ktap_failures "$build/selftests-multi/ktap.txt" | tee -a "$logdir/why.txt"
	fi
	summary=$(grep -E '^selftests-multi: [0-9]+ passed' "$logdir/selftests-multi.log" | tail -1)
	m_passed=$(echo "$summary" | sed -n 's/selftests-multi: \([0-9]\+\) passed.*/\1/p')
	m_failed=$(echo "$summary" | sed -n 's/.* \([0-9]\+\) failed.*/\1/p')
	m_skipped=$(echo "$summary" | sed -n 's/.* \([0-9]\+\) skipped.*/\1/p')
	m_passed=${m_passed:-0}
	m_failed=${m_failed:-0}
	[ "$multi_ok" = 0 ] || [ "$m_failed" != 0 ] || m_failed=1
fi
v_passed=$((v_passed + m_passed))
v_failed=$((v_failed + m_failed))
v_skipped=$((v_skipped + ${m_skipped:-0}))

if [ -s "$logdir/why.txt" ]; then
	echo
	echo "==> why the failed VM tests failed (in full: $build/selftests*/ktap.txt)"
	head -24 "$logdir/why.txt"
fi
passed=$((u_total - u_failed + v_passed))
failed=$((u_failed + v_failed))
echo
echo "check: unit $((u_total - u_failed))/$u_total, VM selftests $v_passed passed" \
	"$v_failed failed $v_skipped skipped (two kernels: $m_passed passed $m_failed failed)," \
	"$((SECONDS - start)) s"
echo "check: $passed passed, $failed failed, $v_skipped skipped"
[ "$failed" = 0 ]
