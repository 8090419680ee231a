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
(cd "$build" && ctest -j"$jobs" -R '^(Sim\.|[A-Z][A-Za-z]*\.)' --output-on-failure) >/dev/null ||
	{ echo "coverage: tests failed" >&2; exit 1; }
gcovr --root . --filter 'kmod/core/[^/]*\.c$' --object-directory "$build" \
	--print-summary --fail-under-line "$min" "$build"
