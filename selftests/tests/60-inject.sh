#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hostile packets against a live connection (selftests/tools/mrc_inject.py):
# truncated at every header boundary, unknown opcodes, reserved bits, wrong
# QPN, wrong R_Key, PSNs outside the window, SACKs and NACKs for data never
# sent, bad probes and endpoint operations, forged handshake, teardown and
# RESET packets (off-path and spoofed without the secrets), malformed
# CM_REQs, oversized and zero-length packets. Each class must be dropped and
# counted under its MIB counter, the connection must carry on (every byte
# of a concurrent transfer verified), and the kernel must log nothing.
#
#   B (peer, fd00::2) ---- A (victim, fd00::1, fd01::1) ---- X (fd01::2)
#                                    the X link has a 9000-byte MTU
# timeout: 600
. "$(dirname "$0")/../lib.sh"

INJECT=$MRC_ROOT/selftests/tools/mrc_inject.py
mrc_module_load
A=$(mrc_ns_new inja)
B=$(mrc_ns_new injb)
X=$(mrc_ns_new injx)
mrc_veth "$A" a-b fd00::1 "$B" b-a fd00::2
mrc_veth "$A" a-x fd01::1 "$X" x-a fd01::2 mtu 9000
in_ns "$A" sysctl -qw net.ipv6.conf.all.forwarding=1
ip -n "$B" route add fd01::/64 via fd00::1
ip -n "$X" route add default via fd01::1

res=$(mrc_tmpdir)
port=$((20000 + RANDOM % 10000))
# A transfer B -> A that lasts while the packets fly: the server checks
# every byte the client sends until EOF; the client runs until it is
# stopped (its socket then closes gracefully: everything written arrives).
mrc_bg_in_ns "$A" "$MRC_PERF" server -j -p "$port" -n 0 \
	> "$res/server.json" 2> "$res/server.log"
srv=$MRC_BG_PID
mrc_wait_for 30 grep -q listening "$res/server.log"
mrc_bg_in_ns "$B" "$MRC_PERF" client -j -c fd00::1 -p "$port" --duration 600 \
	> "$res/client.json" 2> "$res/client.log"
cli=$MRC_BG_PID

# Kernel messages at info level or above that name the module.
mrc_log_lines() { dmesg -l emerg,alert,crit,err,warn,notice,info | grep -ci mrc; }
mrc_info "set up in $SECONDS s"
mrc_check "transfer under way (data arriving at A)" \
	mrc_wait_for 60 mrc_mib_at_least "$A" InPkts 200

log_before=$(mrc_log_lines)
in_before=$(mrc_mib "$A" InPkts)
start=$SECONDS
python3 "$INJECT" inject --victim "$A,fd00::1" --peer "$B,fd00::2" \
	--attacker "$X,fd01::2" --listen-port "$port" --oversize-from "$X" \
	> "$res/inject.txt" 2>&1
inject_rc=$?
mrc_info "injection took $((SECONDS - start)) s (exit $inject_rc)"
grep '^#' "$res/inject.txt"
grep -v '^#\|^RESULT' "$res/inject.txt" | sed 's/^/# /'
while IFS=$'\t' read -r tag verdict desc detail; do
	[ "$tag" = RESULT ] || continue
	if [ "$verdict" = ok ]; then
		mrc_pass "$desc"
	else
		mrc_fail "$desc"
	fi
	mrc_info "  counters moved: $detail"
done < "$res/inject.txt"
[ "$inject_rc" = 2 ] && mrc_fail "the injector could not run"
# An injector that dies half-way (an exception, a signal) must not pass
# for one that ran every class: each class it announced has its RESULT,
# and it exits 0 (all ok) or 1 (a class failed, reported above).
classes=$(sed -n 's/^# classes \([0-9]*\)$/\1/p' "$res/inject.txt")
results=$(grep -c '^RESULT' "$res/inject.txt")
mrc_check "the injector ran every class it announced ($results of ${classes:-none}) and exited 0 or 1 (exit $inject_rc)" \
	test -n "$classes" -a "$results" = "${classes:-x}" -a "$inject_rc" -le 1

mrc_check "the client was still sending when the injection ended" kill -0 "$cli"
# Had the sender taken an injected credit (the replayed SACKs above), it
# would send beyond what A has room for, and A would drop it as out of
# its window for the rest of the connection: no such drop may follow.
win_after=$(mrc_mib "$A" InDropPsnWindow)
mrc_check "data still flows after the injection" \
	mrc_wait_for 30 mrc_mib_at_least "$A" InPkts $(($(mrc_mib "$A" InPkts) + 2000))
mrc_check_eq "no out-of-window drop at A once the injection ended (InDropPsnWindow)" \
	"$win_after" "$(mrc_mib "$A" InDropPsnWindow)"
kill -TERM "$cli"
wait "$cli"
srv_gone() { ! kill -0 "$srv" 2>/dev/null; }
mrc_check "the server saw the end of the stream" mrc_wait_for 60 srv_gone
wait "$srv"
src=$?
mrc_check_eq "server verified every byte up to the client's close" "0 True" \
	"$src $(mrc_json "$res/server.json" verified 2>/dev/null)"
mrc_info "transfer: $(mrc_json "$res/server.json" bytes 2>/dev/null) bytes verified," \
	"$(( $(mrc_mib "$A" InPkts) - in_before )) packets into A since the injection began"
if [ "$src" != 0 ]; then
	sed 's/^/# client: /' "$res/client.json" "$res/client.log" | head -20
	sed 's/^/# server: /' "$res/server.json" "$res/server.log" | head -20
fi
log_after=$(mrc_log_lines)
mrc_check_eq "the module logged nothing above debug level" "$log_before" "$log_after"
[ "$log_before" = "$log_after" ] ||
	dmesg -l emerg,alert,crit,err,warn,notice,info | grep -i mrc | tail -5 | sed 's/^/# /'
mrc_done
