#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel code's quality bar, checked: checkpatch --strict, kernel-doc
# on every file, the netlink code generated from its spec, and a sparse +
# W=1 build of mrc.ko that must print no warning. Prints one line per problem; exit 1 if any.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$("$root/scripts/kernel-tools.sh")/scripts
cd "$root"
status=0

files=(kmod/mrc_*.c kmod/*.h kmod/core/*.c kmod/core/*.h uapi/linux/mrc.h)
# checkpatch_one FILE: its findings, nothing when clean.
checkpatch_one() {
	local ignore=
	[ -f "$1" ] || return 0
	# mrc_plumbing.c stamps the run-time family number (a module parameter)
	# into its proto_ops at init; they are __ro_after_init instead of const.
	[ "$1" = kmod/mrc_plumbing.c ] && ignore="--ignore CONST_STRUCT"
	# shellcheck disable=SC2086
	perl "$tools/checkpatch.pl" --strict --no-tree --terse --show-types \
		--max-line-length=100 $ignore -f "$1" 2>&1 | grep -v '^total:'
}
export -f checkpatch_one
export tools
# one checkpatch per file, as many at once as there are CPUs (about a
# second each, 80 files)
out=$(printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 1 bash -c 'checkpatch_one "$1"' _)
if [ -n "$out" ]; then
	echo "$out"
	status=1
fi

out=$(perl "$tools/kernel-doc" -none "${files[@]}" 2>&1)
if [ -n "$out" ]; then
	echo "$out"
	status=1
fi

# The netlink family's generated code (uapi enums, kernel policies and
# operations, python constants) must be what its YAML spec gives.
if ! out=$(python3 scripts/mrc-nlgen.py --check 2>&1); then
	echo "$out"
	status=1
fi

# The glue's layering: no cycle between its parts beyond those still
# listed, no non-static function without a user in another part
# (scripts/glue-layers.py; Documentation/architecture.md).
if ! out=$(python3 scripts/glue-layers.py --check kmod/glue-cycles.allowed 2>&1); then
	echo "$out"
	status=1
fi
# mrc.ko is one module: nothing it defines is for another module.
if out=$(grep -n 'EXPORT_SYMBOL' kmod/*.c kmod/core/*.c); then
	echo "$out: mrc.ko exports nothing (no other module uses it)"
	status=1
fi

# sparse (C=2 checks every file) and W=1, from a clean state so every
# file is compiled; any warning from our sources fails.
# Sparse and W=1 on every file: a full build, in a copy, so that the
# tree's kmod/mrc.ko never disappears under a VM that is loading it.
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp -r kmod uapi VERSION "$copy/"
make -s -C "$copy/kmod" clean >/dev/null 2>&1
out=$(make -j"$(nproc)" -C "$copy/kmod" KVER="$(selftests/vm/kver.sh)" C=2 W=1 2>&1 | grep -E '(warning|error):' | grep -E 'kmod/' |
	sed "s|$copy/||")
if [ -n "$out" ]; then
	echo "$out"
	status=1
fi
make -s -C kmod >/dev/null 2>&1 || status=1

if [ "$status" = 0 ]; then
	echo "lint-kernel: checkpatch --strict, kernel-doc, netlink spec, layering, sparse and W=1 are clean"
else
	echo "lint-kernel: problems found (above)" >&2
fi
exit $status
