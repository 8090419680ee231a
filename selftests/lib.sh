#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shell library of the MRC VM selftests. Source it from a test script:
#
#   . "$(dirname "$0")/../lib.sh"
#   mrc_module_load
#   ns=$(mrc_ns_new host)
#   mrc_check "does a thing" some command
#   mrc_done
#
# Results are KTAP subtest lines ("ok N desc", "not ok N desc", "# SKIP");
# the suite runner nests them under the test's own line. A test passes
# when every check passed and it exits 0; mrc_done sets the exit code.
# Everything a test creates (namespaces, processes, files) is removed by
# an EXIT trap, also when the test is killed by its timeout.

set -u

MRC_ROOT=${MRC_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
MRC_BUILD=${MRC_BUILD:-$MRC_ROOT/build}
MRC_KMOD=${MRC_KMOD:-$MRC_ROOT/kmod/mrc.ko}
MRCCTL=${MRCCTL:-$MRC_BUILD/tools/mrcctl/mrcctl}
export MRC_ROOT MRC_BUILD MRC_KMOD MRCCTL

# Scale knobs for a slow kernel (make check-debug sets them; both are 1 on
# the stock kernel, where nothing changes): every time bound is multiplied
# by MRC_TEST_TIME_SCALE (mrc_wait_for does it, tests use mrc_time for the
# limits they hand to programs, run-suite.sh for the per-test timeout) and
# the volume of heavy transfers is divided by MRC_TEST_SIZE_DIV (mrc_size).
# Every test still runs every check: sanitizers need the code paths, not
# the volume.
MRC_TEST_TIME_SCALE=${MRC_TEST_TIME_SCALE:-1}
MRC_TEST_SIZE_DIV=${MRC_TEST_SIZE_DIV:-1}
# MRC_TEST_MEM_SLACK_KB: what a memory check tolerates on top of its own
# bound and slack (0; under KASAN, whose quarantine keeps freed objects for
# a while, the debug suite sets more).
MRC_TEST_MEM_SLACK_KB=${MRC_TEST_MEM_SLACK_KB:-0}
export MRC_TEST_TIME_SCALE MRC_TEST_SIZE_DIV MRC_TEST_MEM_SLACK_KB
# MRC_TEST_KEEP: a directory for what a failed check leaves behind that a
# # line cannot hold (mrc_keep); selftests/run.sh and make check-debug
# point it into their results directory. Unset: nothing is kept.
MRC_TEST_KEEP=${MRC_TEST_KEEP:-}
export MRC_TEST_KEEP

# mrc_keep NAME PATH...: copy PATHs (files, directories) to
# MRC_TEST_KEEP/TEST/NAME for whoever reads the failure.
mrc_keep() {
	local dir
	[ -n "$MRC_TEST_KEEP" ] || return 0
	dir=$MRC_TEST_KEEP/$(basename "$0" .sh)/$1
	shift
	mkdir -p "$dir" && cp -r "$@" "$dir/" 2>/dev/null
	mrc_info "kept: $dir"
}

# mrc_time SECONDS: a time bound, scaled for the kernel under test.
mrc_time() {
	echo $(($1 * MRC_TEST_TIME_SCALE))
}

# mrc_size BYTES [MIN]: a transfer volume divided by MRC_TEST_SIZE_DIV, at
# least MIN (so a fault still lands mid-transfer).
mrc_size() {
	local v=$(($1 / MRC_TEST_SIZE_DIV))
	[ "$v" -lt "${2:-1}" ] && v=${2:-1}
	echo "$v"
}

_mrc_n=0
_mrc_failed=0
_mrc_skipped=0
_mrc_namespaces=()
_mrc_pids=()
_mrc_cleanups=()
_mrc_tmp=$(mktemp -d /tmp/mrc-test.XXXXXX)

_mrc_last_result=$SECONDS
_mrc_took=

# _mrc_took_set: _mrc_took is " [N s]" when N >= 5 seconds passed since
# the previous result (or the test's start), else empty: where a test's
# time goes, in its KTAP output, for keeping make check within its budget.
_mrc_took_set() {
	local d=$((SECONDS - _mrc_last_result))
	_mrc_last_result=$SECONDS
	_mrc_took=
	[ "$d" -lt 5 ] || _mrc_took=" [$d s]"
}

# Report one subtest result.
mrc_pass() {
	_mrc_n=$((_mrc_n + 1))
	_mrc_took_set
	echo "ok $_mrc_n $*$_mrc_took"
}

mrc_fail() {
	_mrc_n=$((_mrc_n + 1))
	_mrc_failed=$((_mrc_failed + 1))
	_mrc_took_set
	echo "not ok $_mrc_n $*$_mrc_took"
}

mrc_skip() {
	_mrc_n=$((_mrc_n + 1))
	_mrc_skipped=$((_mrc_skipped + 1))
	echo "ok $_mrc_n $1 # SKIP ${2:-}"
}

# Diagnostic line (shown in the log, ignored by result parsers).
mrc_info() {
	echo "# $*"
}

# mrc_check DESC CMD...: pass when CMD succeeds; on failure show its output
# and return 1 (mrc_check ... || more_diagnostics).
mrc_check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		mrc_pass "$desc"
	else
		mrc_fail "$desc"
		printf '%s\n' "$out" | head -20 | sed 's/^/# /'
		return 1
	fi
}

# mrc_check_stock DESC CMD...: mrc_check on the stock kernel; on a debug
# kernel (MRC_TEST_TIME_SCALE > 1) CMD's verdict is only reported, for
# figures the debug kernel itself distorts (its timing, KASAN's memory
# quarantine). Returns 1 when CMD fails either way.
mrc_check_stock() {
	local desc=$1
	shift
	if [ "$MRC_TEST_TIME_SCALE" = 1 ]; then
		mrc_check "$desc" "$@"
		return
	fi
	if "$@" >/dev/null 2>&1; then
		mrc_info "$desc: holds (reported, not asserted, on a debug kernel)"
	else
		mrc_info "$desc: EXCEEDED (reported, not asserted, on a debug kernel)"
		return 1
	fi
}

# mrc_check_fails DESC CMD...: pass when CMD fails.
mrc_check_fails() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		mrc_fail "$desc (succeeded unexpectedly)"
		printf '%s\n' "$out" | head -20 | sed 's/^/# /'
		return 1
	else
		mrc_pass "$desc"
	fi
}

# mrc_check_eq DESC EXPECTED ACTUAL
mrc_check_eq() {
	if [ "$2" = "$3" ]; then
		mrc_pass "$1"
	else
		mrc_fail "$1"
		mrc_info "expected: '$2'"
		mrc_info "actual:   '$3'"
	fi
}

# mrc_check_match DESC REGEX TEXT: TEXT matches the extended REGEX.
mrc_check_match() {
	if printf '%s' "$3" | grep -Eq -- "$2"; then
		mrc_pass "$1"
	else
		mrc_fail "$1"
		mrc_info "expected to match: $2"
		printf '%s\n' "$3" | head -10 | sed 's/^/# actual: /'
	fi
}

# mrc_wait_for SECONDS CMD...: poll CMD every 50 ms until it succeeds;
# return 1 after SECONDS. Emulation is slow: give generous bounds.
mrc_wait_for() {
	local limit=$(($1 * MRC_TEST_TIME_SCALE))
	shift
	local deadline=$((SECONDS + limit))
	while ! "$@" >/dev/null 2>&1; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			return 1
		fi
		sleep 0.05
	done
	return 0
}

# mrc_ns_new NAME: create a namespace with a unique name, loopback up;
# prints the name. Deleted at exit.
mrc_ns_new() {
	local ns
	ns="$1-$$-$RANDOM"
	ip netns add "$ns" || return 1
	ip -n "$ns" link set lo up
	_mrc_namespaces+=("$ns")
	# Callers run this in $(...), a subshell whose array is lost: the
	# file is what the exit trap reads.
	echo "$ns" >>"$_mrc_tmp/namespaces"
	echo "$ns"
}

# mrc_veth NS1 DEV1 ADDR1 NS2 DEV2 ADDR2 [LINKOPT...]: a veth link between
# two namespaces, each end with its IPv6 address (/64, no DAD) and up: the
# one helper of every test that links a pair of namespaces by hand (the
# reference fabric has its own, lib_fabric.sh). LINKOPTs (e.g. mtu 9000)
# apply to both ends. The namespaces' deletion at exit removes the link.
mrc_veth() {
	ip link add name "$2" netns "$1" "${@:7}" type veth \
		peer name "$5" netns "$4" "${@:7}" || return 1
	ip -n "$1" addr add "$3/64" dev "$2" nodad &&
		ip -n "$4" addr add "$6/64" dev "$5" nodad &&
		ip -n "$1" link set "$2" up &&
		ip -n "$4" link set "$5" up
}

# in_ns NS CMD...: run CMD in the network namespace NS only. Much cheaper
# than "ip netns exec" in the emulated guest (no mount namespace, no sysfs
# remount: ~0.4 s instead of ~8 s per mrcctl); /proc/net follows the
# network namespace, /sys does not.
in_ns() {
	local ns=$1
	shift
	nsenter -F --net="/run/netns/$ns" "$@"
}

# mrc_bg_in_ns NS CMD...: CMD in NS, in the background (mrc_bg).
# nsenter execs CMD, so the cleanup's kill reaches CMD itself (a shell
# function in the background would wait for its child and never die).
mrc_bg_in_ns() {
	mrc_bg nsenter -F --net="/run/netns/$1" "${@:2}"
}

# mrc_softnet_drops [FILE]: packets the kernel's per-CPU input backlogs
# dropped, in every namespace (the second column of /proc/net/softnet_stat,
# hex, summed over the CPUs; FILE: a saved copy of it). A veth counts a
# packet as received before it queues it there, so a loaded guest loses
# some of what a device counted before any protocol sees it.
mrc_softnet_drops() {
	local n=0 d
	while read -r _ d _; do
		n=$((n + 16#$d))
	done < "${1:-/proc/net/softnet_stat}"
	echo "$n"
}

# mrc_mib NS NAME: one counter of NS's MIB (/proc/net/mrc_stat).
mrc_mib() {
	in_ns "$1" awk -v n="$2" '$1 == n { print $2 }' /proc/net/mrc_stat
}

# mrc_mib_nonzero NS: NS's MIB counters that are not 0, "NAME VALUE"
# pairs on one line (for a test's report).
mrc_mib_nonzero() {
	in_ns "$1" awk '$2 != 0' /proc/net/mrc_stat | paste -sd' '
}

# mrc_policy_budget_ms: the retry budget of the failure policy whose
# `mrcctl -j policy show NAME` JSON is on stdin, in ms, as the engine
# computes it (mrc_policy_timeout_budget()): rto_min doubling up to
# rto_max, retry_limit + 1 times.
mrc_policy_budget_ms() {
	python3 -S -c '
import json, sys
j = json.load(sys.stdin)
p = j[0] if isinstance(j, list) else j
rto, total = p["rto_min_ns"], 0
for _ in range(p["retry_limit"] + 1):
    total += rto
    rto = min(2 * rto, p["rto_max_ns"])
print(total // 1000000)'
}

# mrc_mib_at_least NS NAME MIN: the counter has reached MIN (for
# mrc_wait_for).
mrc_mib_at_least() {
	[ "$(mrc_mib "$1" "$2")" -ge "$3" ]
}

# mrc_bg CMD...: run CMD in the background; killed at exit. Sets
# MRC_BG_PID.
mrc_bg() {
	"$@" &
	MRC_BG_PID=$!
	_mrc_pids+=("$MRC_BG_PID")
}

# mrc_on_exit CMD: run CMD (a string) at cleanup, last registered first.
mrc_on_exit() {
	_mrc_cleanups=("$1" "${_mrc_cleanups[@]}")
}

mrc_tmpdir() {
	echo "$_mrc_tmp"
}

mrc_module_loaded() {
	[ -d /sys/module/mrc ]
}

# Load mrc.ko from the build tree unless it is already loaded.
mrc_module_load() {
	mrc_module_loaded && return 0
	if [ ! -f "$MRC_KMOD" ]; then
		mrc_fail "mrc.ko not built ($MRC_KMOD)"
		mrc_done
	fi
	# insmod does not resolve dependencies: load them first.
	modprobe -qa udp_tunnel ip6_udp_tunnel tunnel6
	if ! insmod "$MRC_KMOD" "$@"; then
		mrc_fail "insmod $MRC_KMOD $*"
		mrc_done
	fi
}

mrc_module_unload() {
	mrc_module_loaded || return 0
	rmmod mrc
}

# Make the module loadable by name (modprobe, autoload) without touching
# the read-only root: overlay a writable layer on the kernel's module
# directory, drop mrc.ko into extra/ and run depmod on it and its
# dependencies only. While the overlay is mounted, modprobe knows no other
# module: `depmod -a` reads every module of the kernel, 60 s in the
# emulated guest, where these four take a fraction of a second. Load
# anything else the test needs first.
mrc_module_install_overlay() {
	local kdir=/lib/modules/$(uname -r) deps d
	mountpoint -q "$kdir" && return 0
	deps=$(modinfo -F depends "$MRC_KMOD" | tr ',' ' ')
	modprobe -qa $deps || return 1
	mkdir -p /tmp/.mrc-mods/upper /tmp/.mrc-mods/work
	mount -t overlay overlay \
		-o "lowerdir=$kdir,upperdir=/tmp/.mrc-mods/upper,workdir=/tmp/.mrc-mods/work" \
		"$kdir" || return 1
	mkdir -p "$kdir/extra"
	cp "$MRC_KMOD" "$kdir/extra/mrc.ko"
	# shellcheck disable=SC2046
	depmod "$(uname -r)" "$kdir/extra/mrc.ko" $(for d in $deps; do modinfo -n "$d"; done)
}

_mrc_cleanup() {
	local c p
	for c in "${_mrc_cleanups[@]}"; do
		eval "$c" >/dev/null 2>&1
	done
	for p in "${_mrc_pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${_mrc_pids[@]}"; do
		wait "$p" 2>/dev/null
	done
	# One ip for all the namespaces' processes, one for their deletion:
	# a fabric has 18 to 28 namespaces, and every exec costs in the
	# emulated guest. -force: go on past one a test deleted itself.
	[ -f "$_mrc_tmp/namespaces" ] &&
		mapfile -t -O "${#_mrc_namespaces[@]}" _mrc_namespaces <"$_mrc_tmp/namespaces"
	if [ "${#_mrc_namespaces[@]}" -gt 0 ]; then
		printf 'netns pids %s\n' "${_mrc_namespaces[@]}" |
			ip -force -batch - 2>/dev/null | xargs -r kill -9 2>/dev/null
		printf 'netns del %s\n' "${_mrc_namespaces[@]}" |
			ip -force -batch - >/dev/null 2>&1
	fi
	rm -rf "$_mrc_tmp"
}
trap _mrc_cleanup EXIT

# Finish the test: print the subtest plan, exit 0 if nothing failed.
mrc_done() {
	echo "1..$_mrc_n"
	if [ "$_mrc_failed" -gt 0 ]; then
		exit 1
	fi
	if [ "$_mrc_n" -gt 0 ] && [ "$_mrc_skipped" -eq "$_mrc_n" ]; then
		exit 4	# everything skipped: the runner reports SKIP
	fi
	exit 0
}

MRC_PERF=${MRC_PERF:-$MRC_BUILD/tools/mrc-perf/mrc-perf}

# mrc_perf_transfer NS_SERVER NS_CLIENT ADDR OUT_PREFIX ARGS...: run a
# verified mrc-perf transfer (server in NS_SERVER, client in NS_CLIENT to
# ADDR); JSON results in OUT_PREFIX.server / .client. Returns 0 when both
# sides verified every byte.
mrc_perf_transfer() {
	local ns_s=$1 ns_c=$2 addr=$3 out=$4 port=$((20000 + RANDOM % 10000)) srv
	shift 4
	: > "$out.server.log"
	mrc_bg_in_ns "$ns_s" "$MRC_PERF" server -j -p "$port" "$@" \
		> "$out.server" 2> "$out.server.log"
	srv=$MRC_BG_PID
	mrc_wait_for 30 grep -q listening "$out.server.log" || true
	in_ns "$ns_c" "$MRC_PERF" client -j -c "$addr" -p "$port" "$@" \
		${MRC_PERF_SPLICE:+--splice} > "$out.client" 2> "$out.client.log"
	local crc=$?
	wait "$srv"
	local src=$?
	if [ "$crc" != 0 ] || [ "$src" != 0 ]; then
		sed 's/^/# client: /' "$out.client" "$out.client.log"
		sed 's/^/# server: /' "$out.server" "$out.server.log"
		return 1
	fi
}

# mrc_json FILE KEY: a top-level value of a JSON file (python's spelling:
# True, False, None). python -S: the site module is half of python's
# start, about 0.45 s without it in the emulated guest (jq takes 0.55 s
# there, awk 0.1 s, a subshell 14 ms: measured 2026-11-29).
mrc_json() {
	python3 -S -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# mrc_lt A B: true when the number A is below the number B (decimals
# allowed; false when A is not a number).
mrc_lt() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a ~ /^-?[0-9.]+$/ && a + 0 < b + 0) }'
}
