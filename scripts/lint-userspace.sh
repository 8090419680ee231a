#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Userspace C++ must match .clang-format exactly.
set -uo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files 'lib/*.cpp' 'lib/*.hpp' 'lib/*.cc' 'tools/*.cpp' 'tools/*.hpp' \
	'tools/*.cc' 'uapi/tests/*.cc' 'kmod/core/tests/*.cc' 'kmod/core/sim/*.cc' \
	'kmod/core/sim/*.cpp' 'kmod/core/sim/*.hpp' 'selftests/progs/*.cpp' 'selftests/progs/*.c' 'bench/*.cc')
[ -n "$files" ] || exit 0
if ! clang-format --dry-run --Werror $files; then
	echo "lint-userspace: run clang-format -i on the files above" >&2
	exit 1
fi
echo "lint-userspace: clang-format clean"
