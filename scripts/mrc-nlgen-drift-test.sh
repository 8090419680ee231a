#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Proves that "mrc-nlgen.py --check" catches drift between the netlink spec
# and the code generated from it (CTest: netlink_gen_detects_drift).
# In a scratch copy of the spec and of every generated file, it alters one
# value at a time, by hand, as someone editing a generated file (or the
# spec without regenerating) would, and asserts that the check fails and
# that its diff names the altered line; then that the check passes again
# on the untouched copy. Usage: mrc-nlgen-drift-test.sh [TREE]
set -uo pipefail
tree=$(cd "${1:-$(dirname "$0")/..}" && pwd)
gen="$tree/scripts/mrc-nlgen.py"
files=(Documentation/netlink/specs/mrc.yaml uapi/linux/mrc.h kmod/mrc_genl_spec.c
       kmod/mrc_genl_spec.h selftests/tools/mrc_nlconst.py)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0

fresh() {
	rm -rf "$scratch/t"
	for f in "${files[@]}"; do
		mkdir -p "$scratch/t/$(dirname "$f")"
		cp "$tree/$f" "$scratch/t/$f"
	done
}

# must_pass WHAT
must_pass() {
	if ! out=$(python3 "$gen" --check --root "$scratch/t" 2>&1); then
		echo "not ok: $1: the check fails on an untouched copy:"
		echo "$out"
		failed=1
	else
		echo "ok: $1"
	fi
}

# must_fail FILE SED-EXPRESSION TEXT-THE-DIFF-MUST-SHOW
must_fail() {
	fresh
	sed -i "$2" "$scratch/t/$1"
	if cmp -s "$tree/$1" "$scratch/t/$1"; then
		echo "not ok: $1: '$2' changed nothing (update this test)"
		failed=1
		return
	fi
	if out=$(python3 "$gen" --check --root "$scratch/t" 2>&1); then
		echo "not ok: $1: the check passed after '$2'"
		failed=1
	elif ! grep -qF -- "$3" <<<"$out"; then
		echo "not ok: $1: the check failed without naming '$3':"
		echo "$out"
		failed=1
	else
		echo "ok: $1: '$2' is caught: $(grep -F -- "$3" <<<"$out" | head -1 | tr '\t' ' ')"
	fi
}

fresh
must_pass "the committed outputs match the spec"
# A kernel policy bound edited in the generated file.
must_fail kmod/mrc_genl_spec.c 's/NLA_POLICY_MAX(NLA_U8, 128)/NLA_POLICY_MAX(NLA_U8, 127)/' \
	'NLA_POLICY_MAX(NLA_U8, 127)'
# A uapi value pinned by hand.
must_fail uapi/linux/mrc.h 's/^\tMRC_PLANE_A_OPER,$/\tMRC_PLANE_A_OPER = 9,/' \
	'MRC_PLANE_A_OPER = 9'
# A python constant changed.
must_fail selftests/tools/mrc_nlconst.py 's/^MRC_CMD_PLANE_ADD = 2$/MRC_CMD_PLANE_ADD = 3/' \
	'MRC_CMD_PLANE_ADD = 3'
# A handler's prototype renamed by hand.
must_fail kmod/mrc_genl_spec.h 's/^int mrc_genl_probe(/int mrc_genl_probe_do(/' \
	'mrc_genl_probe_do('
# A dump's done callback (the spec's dump: post) dropped by hand.
must_fail kmod/mrc_genl_spec.c '/^\t\t\.done = mrc_genl_conn_dump_done,$/d' \
	'.done = mrc_genl_conn_dump_done,'
# The spec changed without regenerating: the outputs it no longer matches.
must_fail Documentation/netlink/specs/mrc.yaml 's/^\( *checks: { max: \)128 }$/\1127 }/' \
	'NLA_POLICY_MAX(NLA_U8, 128)'
fresh
must_pass "the check passes again on the original"
exit $failed
