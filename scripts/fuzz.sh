#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make fuzz: build the libFuzzer targets of the protocol core with clang
# (build-fuzz) and run each for SECONDS with its corpus; fail on any
# crash, leak or sanitizer report (the reproducer is left in build-fuzz).
#
#   scripts/fuzz.sh [SECONDS]      (default 60)
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
build=build-fuzz
jobs=${JOBS:-2}
root=$(pwd)

cmake -S . -B "$build" -DMRC_FUZZ=ON -DCMAKE_C_COMPILER=clang \
	-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$jobs" --target mrc_fuzz
fail=0
for t in fuzz_decode fuzz_rx fuzz_tx fuzz_conn fuzz_cm_fsm; do
	bin="$root/$build/kmod/core/fuzz/$t"
	corpus="$root/$build/corpus/$t"
	mkdir -p "$corpus" "$root/$build/artifacts"
	# seed the working corpus with the committed one, if any
	src="$root/kmod/core/fuzz/corpus/${t#fuzz_}"
	[ -d "$src" ] && cp -n "$src"/* "$corpus"/ 2>/dev/null || true
	echo "fuzz: $t for ${secs}s"
	if ! "$bin" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$root/$build/artifacts/$t-" "$corpus" \
		>"$root/$build/$t.log" 2>&1; then
		echo "fuzz: $t FAILED (log $build/$t.log)"
		tail -30 "$root/$build/$t.log"
		fail=1
	else
		grep -E 'stat::number_of_executed_units|cov:' "$root/$build/$t.log" | tail -2
	fi
done
[ $fail -eq 0 ] && echo "fuzz: no crash" || exit 1
