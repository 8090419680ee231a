#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make coverage: line coverage of the protocol core (kmod/core/*.c) by
# the unit tests and the simulator, in its own build directory. Prints
# gcovr's table and fails below the threshold.
#
#   scripts/coverage.sh [MIN_PERCENT]      (default 90)
set -eu
cd "$(dirname "$0")/.."
min=${1:-90}
build=build-cov
jobs=${JOBS:-2}

command -v gcovr >/dev/null || { echo "coverage: gcovr missing (make deps)" >&2; exit 1; }
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DMRC_COVERAGE=ON >/dev/null
cmake --build "$build" -j"$jobs" --target mrccore_tests mrc_sim
find "$build" -name '*.gcda' -delete
# unit tests, then every simulator scenario over a few seeds (the full
# 3000-run sweep adds little coverage and is slow uninstrumented at -O0)
"$build/kmod/core/mrccore_tests" --gtest_brief=1 >/dev/null ||
	{ echo "coverage: unit tests failed" >&2; exit 1; }
# Every scenario for 12 seeds, but 'wide' (256 EVs, 64 MiB) for 2: under
# gcov it takes 12 s a seed, and more seeds reach no other line.
sim=$build/kmod/core/sim/mrc_sim
runs=0
for name in $("$sim" --list); do
	seeds=1-12
	[ "$name" = wide ] && seeds=1-2
	out=$("$sim" --scenario "$name" --seeds "$seeds") ||
		{ echo "$out" | grep -A1 FAIL >&2; echo "coverage: simulator failed" >&2; exit 1; }
	runs=$((runs + $(echo "$out" | tail -1 | awk '{ print $1 }')))
done
echo "simulator: $runs runs, 0 failed"
gcovr --root . --filter 'kmod/core/[^/]*\.c$' --object-directory "$build" \
	--print-summary --fail-under-line "$min" "$build"
