#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A connection at hardware scale (issue #15): 128 EVs on the reference
# fabric (4 planes x 2 spines), in entropy mode, where each EV is a flow
# that the fabric's ECMP hash puts on a spine: A's path to B on each plane
# is 32 EVs ("entropy 32"), and the default policy with max-paths 128 and
# no backups takes all of them. One verified STREAM transfer A->B runs
# for 10 s; A's connection is recorded every second while it runs, the
# last record (at least 4 s into the transfer) is judged:
#  - every byte verified (mrc-perf);
#  - the connection has 128 EVs, 32 on each plane: fails when the EV set
#    is cut short (max-paths) or a plane is left out;
#  - every EV carried packets, each at least a quarter of the mean and
#    at most twice it: fails when the scheduler starves or favours some
#    EVs (a rotation that restarts from the same place, a plane's EVs
#    skipped), or when EVs of a working fabric go out and stay out (false
#    path failures). The issue's target, +-25% of even per EV, is
#    reported, not asserted: the engine sprays bursts (a run of packets
#    on one EV, OutBursts), one per EV per rotation, and their lengths
#    vary with what is queued, so at about 100 packets per EV in 10 s one
#    EV can get half again the mean (measured 57-148 packets, mean 100, on
#    2026-11-29). The simulator's `wide` scenario asserts +-25% at 256 EVs
#    over 64 MiB;
#  - each plane's bytes on A's links within +-25% of the mean, and every
#    spine carried traffic (ECMP picks it);
# Reported, not asserted: EVs that changed state during the transfer
# (PathToBad, PathToGood), retransmissions by cause.
# Then a connection of 256 EVs (64 a plane, max-paths 256), up for a short
# transfer, is read three ways while it runs: `mrcctl -j conn` and
# `mrcctl -j conn show id N` (CONN_GET dumps) and the single CONN_GET (the
# do, which mrcctl never sends; mrc_nlraw.py --conn-get). Its EVs do not
# fit one netlink message (about 112 bytes each, at most 128 a message):
# each read must give all 256, 64 on each plane, the same EVs every time.
# The dump once ended empty at this size, and `mrcctl -j conn` printed []
# (issue #15). The short transfer's bytes are reported, not judged.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"
. "$MRC_ROOT/selftests/tools/mrcctl_lib.sh"

EVS=${MRC_TEST_EV_WIDE_PER_PLANE:-32}	# per plane (MRC_TEST_EV_WIDE_PER_PLANE: another)
TOTAL=$((4 * EVS))
mrc_module_load
mrc_fabric_build 4 2 || { mrc_fail "fabric"; mrc_done; }
mrc_check "fabric: A reaches B" mrc_fabric_host_ping
mrc_check "entropy paths, $EVS EVs per plane" mrc_fabric_mrc_config entropy "$EVS"
both_policy() {
	in_ns "$FAB_A" "$MRCCTL" policy set default max-paths "$TOTAL" backups 0 &&
		in_ns "$FAB_B" "$MRCCTL" policy set default max-paths "$TOTAL" backups 0
}
mrc_check "A and B: default policy max-paths $TOTAL backups 0" both_policy
res=$(mrc_tmpdir)

planes0=$(mrc_fabric_plane_tx_bytes)
spines0=$(mrc_fabric_spine_rx_bytes)
mib0=$(in_ns "$FAB_A" cat /proc/net/mrc_stat)
port=$((20000 + RANDOM % 10000))
# transfer_start NAME SECS: a verifying server on B (into $res/NAME.server)
# and a client on A sending to it for SECS (NAME.client), each on a port
# of its own; sets srv and cli to their pids.
transfer_start() {
	port=$((port + 1))
	mrc_bg_in_ns "$FAB_B" "$MRC_PERF" server -j -p "$port" -n 0 > "$res/$1.server" 2> "$res/$1.server.log"
	srv=$MRC_BG_PID
	mrc_wait_for 30 grep -q listening "$res/$1.server.log"
	mrc_bg_in_ns "$FAB_A" "$MRC_PERF" client -j -c "$FAB_B_ADDR" -p "$port" \
		--duration "$(mrc_time "$2")" > "$res/$1.client" 2> "$res/$1.client.log"
	cli=$MRC_BG_PID
}
transfer_start ev 10
# A's connection once a second while the transfer runs: the last record
# with an established connection is judged.
t0=$SECONDS
while kill -0 "$cli" 2>/dev/null; do
	j=$(in_ns "$FAB_A" "$MRCCTL" -j conn 2>/dev/null)
	case $j in
	*'"state":"established"'*) echo "$j" > "$res/conn"; echo $((SECONDS - t0)) > "$res/conn.t" ;;
	*) echo "$j" > "$res/conn.other" ;;
	esac
	sleep 1
done
wait "$cli"
crc=$?
wait "$srv"
src=$?
mrc_check "10 s STREAM A->B over $TOTAL EVs verified" [ "$crc$src" = 00 ] ||
	sed 's/^/# /' "$res/ev.client.log" "$res/ev.server.log" | tail -6
mrc_info "goodput $(mrc_json "$res/ev.server" goodput_mbps 2>/dev/null) Mbit/s," \
	"A's connection last recorded $(cat "$res/conn.t" 2>/dev/null) s into the transfer"
mrc_check "A's connection recorded at least 4 s into the transfer" \
	[ "$(cat "$res/conn.t" 2>/dev/null || echo 0)" -ge 4 ] ||
	echo "# why: the last mrcctl -j conn without it: $(head -c 200 "$res/conn.other" 2>/dev/null)"

# The recorded connection's EVs, read once, as shell assignments: ev_n
# EVs, ev_planes the EVs per plane (sorted counts, comma-separated),
# ev_sum/ev_min/ev_max their packets; ev_line a summary (all 0 when no
# single established connection was recorded).
eval "$(python3 - "$res/conn" <<'PY'
import json, shlex, sys
try:
    conns = [c for c in json.load(open(sys.argv[1])) if c["state"] == "established"]
except (OSError, ValueError):
    conns = []
if len(conns) != 1:
    print("ev_n=0 ev_planes= ev_sum=0 ev_min=0 ev_max=0 ev_line=%s"
          % shlex.quote("%d established connections recorded" % len(conns)))
    sys.exit(0)
evs = conns[0]["paths"]
tx = [p["tx_pkts"] for p in evs] or [0]
mean = sum(tx) / len(tx)
per_plane, states = {}, {}
for p in evs:
    per_plane[p["plane"]] = per_plane.get(p["plane"], 0) + 1
    states[p["state"]] = states.get(p["state"], 0) + 1
worst = max(abs(t - mean) / mean for t in tx) if mean else 1
line = ("%d EVs (%s), states %s; packets per EV: mean %.1f, min %d, max %d, worst deviation %.0f%%"
        % (len(evs), " ".join("plane %d: %d" % kv for kv in sorted(per_plane.items())),
           " ".join("%s %d" % kv for kv in sorted(states.items())), mean, min(tx), max(tx),
           100 * worst))
print("ev_n=%d ev_planes=%s ev_sum=%d ev_min=%d ev_max=%d ev_line=%s"
      % (len(evs), ",".join(str(n) for n in sorted(per_plane.values())), sum(tx), min(tx),
         max(tx), shlex.quote(line)))
PY
)"
mrc_info "per EV against the +-25% target (not asserted): $ev_line"
ev_count_ok() { [ "$ev_n" = "$TOTAL" ] && [ "$ev_planes" = "$EVS,$EVS,$EVS,$EVS" ]; }
# mean = ev_sum / ev_n: min >= mean / 4 and max <= 2 x mean, in integers
ev_share_ok() {
	[ "$ev_n" -gt 0 ] && [ $((4 * ev_min * ev_n)) -ge "$ev_sum" ] &&
		[ $((ev_max * ev_n)) -le $((2 * ev_sum)) ]
}
mrc_check "A's connection has $TOTAL EVs, $EVS on each plane" ev_count_ok
mrc_check "every EV carried packets" [ "$ev_min" -gt 0 ]
mrc_check "each EV's packets within a quarter and twice the mean" ev_share_ok
mrc_check "planes within +-25% of the mean" mrc_fabric_spread 0.75 "$planes0" "$(mrc_fabric_plane_tx_bytes)"
mrc_check "every spine carried traffic" mrc_fabric_spread 0.02 "$spines0" "$(mrc_fabric_spine_rx_bytes)"
mrc_info "A's MIB over the transfer: $(in_ns "$FAB_A" cat /proc/net/mrc_stat |
	awk 'NR == FNR { a[$1] = $2; next } $1 ~ /^(PathTo|Retx|PathSuspect|OutBursts|OutPkts)/ && $2 != a[$1] { printf "%s +%d ", $1, $2 - a[$1] }' \
		<(echo "$mib0") -)"

# ---- 256 EVs: a connection wider than a netlink message, listed whole ----
WIDE=64		# EVs per plane
wide_t0=$SECONDS
# A's paths to B (its first peer: ids 0..3, one a plane) with 64 EVs each.
wide_config() {
	local p
	{
		echo "policy set default max-paths $((4 * WIDE)) backups 0"
		for p in 0 1 2 3; do
			echo "path del $p"
			echo "path add $p dst $FAB_B_ADDR/128 plane $p mode entropy entropy $WIDE"
		done
	} > "$res/wide.batch"
	in_ns "$FAB_A" "$MRCCTL" -batch "$res/wide.batch"
}
mrc_check "A: max-paths $((4 * WIDE)), $WIDE EVs a plane to B" wide_config
# The client sends until the reads are done (SIGTERM: a graceful close),
# not for a fixed time: on a loaded machine a 6 s transfer was over
# before the reads, which then found no connection.
transfer_start wide 120
wide_up() { [ "$(mrcctl_count_rows in_ns "$FAB_A" "$MRCCTL" conn show state established)" -ge 1 ]; }
mrc_wait_for 20 wide_up
# The three reads, in one python (each start costs about half a second):
# per read its EVs ("-" when it failed: then why), as shell assignments.
wide_id=0 wide_dump=- wide_show=- wide_get=- wide_msgs=0
eval "$(in_ns "$FAB_A" python3 - "$MRCCTL" "$MRC_ROOT/selftests/tools" <<'PY'
import json, shlex, subprocess, sys
sys.path.insert(0, sys.argv[2])
import mrc_nlraw

def dump(*args):
    r = subprocess.run([sys.argv[1], "-j", "conn", *args], capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr.strip()
    conns = [c for c in json.loads(r.stdout) if c["state"] == "established"]
    if len(conns) != 1:
        return None, "%d established connections in %s" % (len(conns), r.stdout.strip()[:80])
    return conns[0], ""

def summary(evs, planes):
    # "N EVs, distinct D, per plane a,b,c,d" (sorted counts)
    per = {}
    for p in planes:
        per[p] = per.get(p, 0) + 1
    return "%d %d %s" % (len(evs), len(set(evs)), ",".join(str(n) for n in sorted(per.values())))

conn, why = dump()
out = {"wide_id": conn["id"] if conn else 0}
if conn:
    out["wide_dump"] = summary([p["ev"] for p in conn["paths"]], [p["plane"] for p in conn["paths"]])
    evs = sorted(p["ev"] for p in conn["paths"])
    show, why2 = dump("show", "id", str(conn["id"]))
    out["wide_show"] = ("same" if show and sorted(p["ev"] for p in show["paths"]) == evs
                        else "differs: " + (why2 or "%d EVs" % len(show["paths"])))
    sock, fam = mrc_nlraw.open_family()
    res, got, msgs = mrc_nlraw.conn_get(sock, fam, conn["id"])
    out["wide_get"] = ("same" if got is not None and sorted(got) == evs
                       else "differs: " + res + (" (%d EVs)" % len(got) if got else ""))
    out["wide_msgs"] = msgs
else:
    out.update(wide_dump="- " + why, wide_show="-", wide_get="-", wide_msgs=0)
print(" ".join("%s=%s" % (k, shlex.quote(str(v))) for k, v in out.items()))
PY
)"
mrc_info "A's connection $wide_id: dump: $wide_dump (EVs, distinct, per plane);" \
	"conn show id: $wide_show; single GET: $wide_get, in $wide_msgs messages"
mrc_check_eq "mrcctl -j conn: A's connection with $((4 * WIDE)) EVs, $WIDE on each plane" \
	"$((4 * WIDE)) $((4 * WIDE)) $WIDE,$WIDE,$WIDE,$WIDE" "$wide_dump"
mrc_check_eq "mrcctl -j conn show id $wide_id: the same EVs" same "$wide_show"
mrc_check_eq "single CONN_GET of $wide_id: the same EVs" same "$wide_get"
mrc_check "the single CONN_GET took more than one message ($wide_msgs)" [ "$wide_msgs" -gt 1 ]
kill -TERM "$cli" 2>/dev/null
wait "$cli"
crc=$?
wait "$srv"
mrc_info "the $((4 * WIDE))-EV transfer: client exit $crc, server exit $?," \
	"goodput $(mrc_json "$res/wide.server" goodput_mbps 2>/dev/null) Mbit/s;" \
	"the phase took $((SECONDS - wide_t0)) s"
mrc_done
