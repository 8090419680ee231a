#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shell library of the multi-guest selftests (selftests/multi/NN-*.sh,
# run by selftests/vm/multi/run.sh; Documentation/testing.md, "Two
# kernels"). A test runs in guest A, host A in A's own initial network
# namespace, and drives guest B, the other host, through B's agent:
#
#   . "$(dirname "$0")/lib_multi.sh"     (sources lib.sh too)
#   multi_setup usid                     both hosts: MRC planes and paths
#   mrc_check "..." multi_transfer NAME -t stream -n BYTES
#   on_b "ethtool -K pl0 gro off"        any command on B
#   mrc_done
#
# Every test starts from, and leaves, both hosts as node.sh net made them
# (multi_setup resets both; the exit trap resets both again). Results of
# B's programs land in the directory both guests share, $xres.

. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
MULTI_NODE=$MRC_ROOT/selftests/vm/multi/node.sh
MULTI_AGENT=$MRC_ROOT/selftests/vm/multi/agent.py
MULTI_P=${MRC_MULTI_PLANES:-2}
MULTI_B_ADDR=fd00:b::1
xres=/tmp/xchg/$(basename "$0" .sh)
mkdir -p "$xres"
res=$(mrc_tmpdir)

# on_b CMD: run CMD (one bash command line) in guest B, within 120 s;
# its output and exit status are the call's (255: B did not answer
# within that and 10 s more). Bash's own TCP client and the agent's RAW
# request (agent.py): a python client started for each call cost half a
# second of the emulated guest, and the suite makes hundreds of calls.
on_b() {
	local cmd="$*" fd rc line limit=$((120 * MRC_TEST_TIME_SCALE)) LC_ALL=C
	exec {fd}<>/dev/tcp/10.99.0.2/7000 2>/dev/null || {
		echo "on_b: no agent at 10.99.0.2:7000" >&2
		return 255
	}
	printf 'RAW %s %s\n%s' "$limit" "${#cmd}" "$cmd" >&"$fd"
	if ! read -r -t $((limit + 10)) rc <&"$fd" || ! [[ "$rc" =~ ^-?[0-9]+$ ]]; then
		echo "on_b: no answer from the agent within $((limit + 10)) s" >&2
		exec {fd}<&-
		return 255
	fi
	# the output follows, up to the end of the connection
	while IFS= read -r -t 10 line <&"$fd" || [ -n "$line" ]; do
		printf '%s\n' "$line"
		line=
	done
	exec {fd}<&-
	[ "$rc" -lt 0 ] && rc=$((128 - rc))	# killed by signal -rc
	return "$rc"
}

# on_a / on_both: node.sh commands on A, on B, on both.
node_a() { "$MULTI_NODE" a "$@"; }
node_b() { on_b "$MULTI_NODE" b "$@"; }
node_both() { node_a "$@" && node_b "$@"; }

# multi_setup MODE: both hosts reset, then MRC configured in MODE.
multi_setup() {
	node_a reset
	node_b reset >/dev/null
	mrc_on_exit "node_a reset; node_b reset"
	mrc_check "$1: planes and paths on both hosts" node_both config "$1"
}

# mrc_stat NAME: a counter of A's MIB; mrc_stat_b NAME: of B's.
mrc_stat() { awk -v n="$1" '$1 == n { print $2 }' /proc/net/mrc_stat; }
mrc_stat_b() { on_b "awk -v n=$1 '\$1 == n { print \$2 }' /proc/net/mrc_stat"; }
mrc_stat_at_least() { [ "$(mrc_stat "$1")" -ge "$2" ]; }

# multi_server NAME ARGS...: an mrc-perf server on B (ARGS as for the
# client) into $xres/NAME.server (.server.log, .server.rc once it ended);
# returns once it listens. Sets MULTI_PORT.
multi_server() {
	local name=$1
	shift
	MULTI_PORT=$((20000 + RANDOM % 10000))
	rm -f "$xres/$name.server" "$xres/$name.server.log" "$xres/$name.server.rc"
	on_b "( $MRC_PERF server -j -p $MULTI_PORT $* > $xres/$name.server" \
		"2> $xres/$name.server.log & echo \$! >> /tmp/node-pids; wait \$!;" \
		"echo \$? > $xres/$name.server.rc ) > /dev/null 2>&1 &" || return 1
	mrc_wait_for 30 grep -q listening "$xres/$name.server.log"
}

# multi_server_done NAME SECS: B's server NAME has ended, within SECS;
# true when it verified everything.
multi_server_done() {
	mrc_wait_for "$2" test -s "$xres/$1.server.rc" || {
		echo "the server on B did not end within $2 s"
		return 1
	}
	[ "$(cat "$xres/$1.server.rc")" = 0 ] &&
		[ "$(mrc_json "$xres/$1.server" verified 2>/dev/null)" = True ]
}

# multi_transfer NAME ARGS...: a verified mrc-perf transfer A->B (server
# on B, client on A, both with ARGS); true when both verified every byte.
multi_transfer() {
	local name=$1 crc
	shift
	multi_server "$name" "$@" || { echo "no server on B"; return 1; }
	"$MRC_PERF" client -j -c "$MULTI_B_ADDR" -p "$MULTI_PORT" "$@" \
		> "$res/$name.client" 2> "$res/$name.client.log"
	crc=$?
	if [ "$crc" != 0 ] || ! multi_server_done "$name" 60; then
		sed 's/^/client: /' "$res/$name.client" "$res/$name.client.log" | head -20
		sed 's/^/server: /' "$xres/$name.server" "$xres/$name.server.log" | head -20
		multi_diag
		return 1
	fi
}

# multi_diag: both hosts' connections and non-zero MIB counters, for a
# failure's log.
multi_diag() {
	echo "A's connections:"
	"$MRCCTL" conn show paths 2>&1 | head -20
	echo "B's connections:"
	on_b "$MRCCTL conn show paths" 2>&1 | head -20
	echo "A's counters: $(awk '$2 != 0 { printf "%s=%s ", $1, $2 }' /proc/net/mrc_stat)"
	echo "B's counters: $(on_b "awk '\$2 != 0 { printf \"%s=%s \", \$1, \$2 }' /proc/net/mrc_stat")"
}

# multi_report NAME: one line on B's side of transfer NAME, and the
# sender's CPU (one python start: each costs about a second in the
# emulated guest).
multi_report() {
	mrc_info "$(python3 -S -c 'import json, sys
def load(f):
    try:
        return json.load(open(f))
    except (OSError, ValueError):
        return {}
s, c = load(sys.argv[2]), load(sys.argv[3])
line = "%s: goodput %s Mbit/s, longest stall %s ms, %s bytes" % (
    sys.argv[1], s.get("goodput_mbps"), s.get("longest_stall_ms"), s.get("bytes"))
if "cpu_sys_s" in c:
    line += " ; sender\x27s system CPU %s s in %s s" % (c["cpu_sys_s"], c.get("seconds"))
print(line)' "$1" "$xres/$1.server" "$res/$1.client")"
}

# multi_stall_below NAME MS: transfer NAME's longest delivery stall at B.
multi_stall_below() {
	mrc_lt "$(mrc_json "$xres/$1.server" longest_stall_ms)" "$2"
}

# multi_policy_ms KEY: the default policy's KEY_ns on A, in ms.
multi_policy_ms() {
	"$MRCCTL" -j policy show default |
		python3 -S -c "import json, sys; print(json.load(sys.stdin)[0]['$1_ns'] // 1000000)"
}

# multi_through NAME FAULT [CLIENT ARGS]: a transfer A->B that lasts as
# long as FAULT (a command string, run once data flows) does: the client
# sends until FAULT has returned, then is stopped (SIGTERM: its socket
# closes gracefully), B's server checks every byte. True when the client
# was still sending when FAULT returned and B verified everything.
multi_through() {
	local name=$1 fault=$2 cli rc=0 before
	shift 2
	multi_server "$name" -n 0 || { echo "no server on B"; return 1; }
	before=$(mrc_stat OutPkts)
	mrc_bg "$MRC_PERF" client -j -c "$MULTI_B_ADDR" -p "$MULTI_PORT" \
		--duration "$(mrc_time 900)" "$@" > "$res/$name.client" 2> "$res/$name.client.log"
	cli=$MRC_BG_PID
	mrc_wait_for 60 mrc_stat_at_least OutPkts $((before + 500))
	eval "$fault" || { echo "the fault's command failed"; rc=1; }
	if ! kill -0 "$cli" 2>/dev/null; then
		echo "the client had ended before the fault was over"
		rc=1
	fi
	kill -TERM "$cli" 2>/dev/null
	wait "$cli" 2>/dev/null
	multi_server_done "$name" 200 || rc=1
	if [ "$rc" != 0 ]; then
		sed 's/^/client: /' "$res/$name.client" "$res/$name.client.log" | head -20
		sed 's/^/server: /' "$xres/$name.server" "$xres/$name.server.log" | head -20
	fi
	return $rc
}

# dev_tx_packets DEV (on A) / dev_tx_packets_b DEV (on B)
dev_tx_packets() { cat "/sys/class/net/$1/statistics/tx_packets"; }
dev_rx_packets_b() { on_b "cat /sys/class/net/$1/statistics/rx_packets"; }
dev_tx_at_least() { [ "$(dev_tx_packets "$1")" -ge "$2" ]; }

# multi_conns_a / multi_conns_b: how many MRC connections A / B keep.
multi_conns_a() {
	"$MRCCTL" -j conn | python3 -S -c 'import json, sys; print(len(json.load(sys.stdin)))'
}
multi_conns_b() {
	on_b "$MRCCTL -j conn" | python3 -S -c 'import json, sys; print(len(json.load(sys.stdin)))'
}
multi_no_conns() { [ "$(multi_conns_a)" = 0 ] && [ "$(multi_conns_b)" = 0 ]; }
