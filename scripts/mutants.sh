#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-mutants: tests of the tests. Each mutant below breaks one
# promise of the engine on purpose (a one-line change to kmod/core); the
# core's unit tests and the simulator (CTest) must catch every one. A
# mutant that no test catches is a promise nothing checks: this script
# then fails. So does a mutant whose code is no longer in the tree (the
# code moved on: update the mutant with it).
#
# It works in a scratch worktree of HEAD (git worktree, removed at the
# end): your tree, its build and its uncommitted changes are not touched.
# The unmutated tree must pass first. About 23 minutes when it ran niced
# beside a debug-kernel VM on 2 cores (2026-11-28); less on a quiet machine.
#
# Usage: scripts/mutants.sh [NAME...]   (default: every mutant)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2

jobs=${MRC_MUTANT_JOBS:-$(nproc)}
work=$(mktemp -d /tmp/mrc-mutants.XXXXXX)
tree=$work/tree
cleanup() {
	git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
git worktree add -q --detach "$tree" HEAD || exit 2

# The core's tests and the simulator: everything CTest runs that does not
# need the userspace tools built.
ctest_core() {
	(cd "$tree/build" && ctest -j"$jobs" --timeout 600 \
		-R '^(Conn|Path|Reverse|Sim|Tx|Rx|Burst|Credit|CmFsm|Cookie|Wire|Psn|Rtt|Ttr|Cc|Nscc|Policy|Keepalive|UserTimeout)[A-Za-z]*\.' \
		> "$work/$1.ctest" 2>&1)
}
build_core() {
	cmake --build "$tree/build" -j"$jobs" --target mrccore_tests mrc_sim \
		> "$work/$1.build" 2>&1
}
failed_tests() {
	grep -E '^[[:space:]]+[0-9]+ - ' "$work/$1.ctest" | sed 's/^[[:space:]]*[0-9]* - //; s/ (.*//'
}

# mutant NAME FILE OLD NEW: OLD (exactly once in FILE) becomes NEW.
names=() files=() olds=() news=()
mutant() { names+=("$1"); files+=("$2"); olds+=("$3"); news+=("$4"); }

mutant rtx-same-path kmod/core/mrc_conn_tx.c \
	'path = mrc_path_pick_rtx(&conn->paths, now, l.path);' \
	'path = l.path < conn->paths.count ? (int)l.path : mrc_path_pick_rtx(&conn->paths, now, l.path);'
mutant timeout-never-bad kmod/core/mrc_path.c \
	'	if (mrc_path_in_use(p) && (proof == MRC_LOSS_PATH_SILENT ||
				   p->fails >= t->pol.fail_to_bad))
		mrc_path_make_bad(t, idx, MRC_PR_TIMEOUT, now);' \
	'	(void)proof;'
mutant suspect-never-bad kmod/core/mrc_path.c \
	'			if (mrc_path_in_use(p))
				mrc_path_make_bad(t, i, reason, now);' \
	'			(void)reason;'
mutant gap-ignores-reorder-window kmod/core/mrc_tx.c \
	'		if (now < due) {' \
	'		if (0) {'
mutant per-path-beyond-bitmap kmod/core/mrc_tx.c \
	'		if (!mrc_tx_view_covers(v, psn))
			continue;' \
	'		(void)mrc_tx_view_covers;'
mutant stale-sack-credit kmod/core/mrc_conn_rx.c \
	'fresh = mrc_psn_after_eq(s->cack_psn, una_before);' \
	'fresh = mrc_psn_after_eq(s->cack_psn, una_before) || 1;'
mutant credit-unbounded kmod/core/mrc_credit.c \
	'	if (limit <= acked_off + tx->peer_rcvbuf)' \
	'	if (1)'
mutant floor-resurrects kmod/core/mrc_path.c \
	'	       (p->state == MRC_PATH_ASSUMED_BAD && p->successes);' \
	'	       p->state == MRC_PATH_ASSUMED_BAD;'
mutant ctrl-no-key kmod/core/mrc_conn_rx.c \
	'	if (pkt->type != MRC_PKT_DATA &&
	    mrc_conn_ctrl_key(pkt) != conn->p.rx_r_key)' \
	'	if (0 && mrc_conn_ctrl_key(pkt) != conn->p.rx_r_key)'
mutant burst-in-recovery kmod/core/mrc_conn_tx.c \
	'	if (conn->ttr.open || conn->tx.lost_pkts)
		max = 1;' \
	'	if (0 && (conn->ttr.open || conn->tx.lost_pkts))
		max = 1;'
mutant ts-echo-alone kmod/core/mrc_conn_rx.c \
	'	if (ts == (u16)(last >> MRC_CONN_TS_SHIFT))' \
	'	if (1)
		return (u64)d << MRC_CONN_TS_SHIFT;
	if (ts == (u16)(last >> MRC_CONN_TS_SHIFT))'

want=("$@")
selected() {
	[ ${#want[@]} = 0 ] && return 0
	local w
	for w in "${want[@]}"; do [ "$w" = "$1" ] && return 0; done
	return 1
}

echo "mutants: building the core's tests in $tree"
cmake -S "$tree" -B "$tree/build" > "$work/cmake.log" 2>&1 || { cat "$work/cmake.log"; exit 2; }
if ! build_core baseline; then
	tail -20 "$work/baseline.build"
	echo "mutants: the unmutated tree does not build"
	exit 2
fi
if ! ctest_core baseline; then
	failed_tests baseline | sed 's/^/  /'
	echo "mutants: the unmutated tree fails the tests above: fix them first"
	exit 2
fi
echo "mutants: unmutated: $(grep -E 'tests passed' "$work/baseline.ctest")"

rc=0
for i in "${!names[@]}"; do
	name=${names[i]} file=$tree/${files[i]}
	selected "$name" || continue
	if ! python3 - "$file" "${olds[i]}" "${news[i]}" <<'PY'; then
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(1)
open(path, "w").write(text.replace(old, new))
PY
		echo "not ok $name: its code is no longer in ${files[i]} (update the mutant)"
		rc=1
		continue
	fi
	if ! build_core "$name"; then
		echo "not ok $name: the mutant does not build"
		tail -5 "$work/$name.build"
		rc=1
	elif ctest_core "$name"; then
		echo "not ok $name: SURVIVED: no test fails with ${files[i]} mutated"
		rc=1
	else
		echo "ok $name: caught by $(failed_tests "$name" | wc -l) tests: $(failed_tests "$name" | head -6 | paste -sd' ')"
	fi
	git -C "$tree" checkout -q -- "${files[i]}"
done
exit $rc
