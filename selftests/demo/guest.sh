#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo, inside the VM: MRC and TCP side by side on a multi-plane SRv6
# fabric, then one spine link silently blackholed.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_fabric.sh"

say() { printf '\n\033[1m## %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }
A() { ip netns exec "$FAB_A" "$@"; }
B() { ip netns exec "$FAB_B" "$@"; }
out=${MRC_DEMO_OUT:-/tmp/out}
# Enough to outlast the cut even on a fast machine (about 15 s alone).
BYTES=$((256 << 20))
TCP_BYTES=$((4 << 30))	# more than it can move before its time limit

say "1. Load the MRC module into Debian's $(uname -r) kernel"
mrc_module_load
dmesg | grep 'mrc: version' | tail -1

say "2. Build a fabric: 2 hosts, 4 planes x 2 spines, SRv6 uSID routers"
mrc_fabric_build 4 2 || exit 1
echo "host A = $FAB_A_ADDR, host B = $FAB_B_ADDR: 8 paths from A to B"
# TCP gets what a single-path transport gets: one static path (plane 1,
# spine 0) to a second address of B.
mrc_fabric_pin_addr 1 0

say "3. Tell MRC about the planes and paths (mrcctl, on both hosts)"
mrc_fabric_mrc_config usid || exit 1
for h in "$FAB_A" "$FAB_B"; do
	ip netns exec "$h" "$MRCCTL" policy set default backups 0 >/dev/null
done
run A "$MRCCTL" plane show
run A "$MRCCTL" path show

say "4. Watch MRC's events on host A (mrcctl monitor)"
A "$MRCCTL" monitor > "$out/monitor.txt" 2>&1 &
mon=$!
_mrc_pids+=("$mon")

say "5. MRC (8 paths, $((BYTES >> 20)) MiB) and TCP (1 path, as much as it can in 20 s), at the same time"
B "$MRC_PERF" server -P mrc -j -n "$BYTES" -p 7000 --time-limit 60 --bucket-ms 10 > "$out/mrc.server" 2> "$out/mrc.log" &
s1=$!
B "$MRC_PERF" server -P tcp -j -n "$TCP_BYTES" -p 7001 --time-limit 20 --bucket-ms 10 > "$out/tcp.server" 2> "$out/tcp.log" &
s2=$!
mrc_wait_for 30 grep -q listening "$out/mrc.log"
mrc_wait_for 30 grep -q listening "$out/tcp.log"
A "$MRC_PERF" client -P mrc -j -c "$FAB_B_ADDR" -n "$BYTES" -p 7000 --time-limit 60 > "$out/mrc.client" 2>&1 &
c1=$!
A "$MRC_PERF" client -P tcp -j -c "$FAB_B_PINNED" -n "$TCP_BYTES" -p 7001 --time-limit 20 > "$out/tcp.client" 2>&1 &
c2=$!
mrc_in() { test "$(B awk '$1 == "InPkts" { print $2 }' /proc/net/mrc_stat)" -gt 300; }
tcp_up() { B ss -Htn state established '( sport = :7001 )' | grep -q .; }
mrc_wait_for 30 mrc_in
mrc_wait_for 30 tcp_up
t0a=$(mrc_fabric_ns t0a 1)
echo "both transfers are running; now the spine link plane 1 / spine 0 silently drops everything:"
run tc -n "$t0a" qdisc add dev up0 root netem loss 100%
# when the cut is in place (starting tc can take seconds in a busy VM)
date +%s.%N > "$out/fault_unix"
wait "$c1" "$s1" "$c2" "$s2" 2>/dev/null

say "6. What happened"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def load(n):
    try:
        return json.load(open(f"{out}/{n}"))
    except Exception:
        return {"bytes": 0, "goodput_mbps": 0, "longest_stall_ms": 0, "verified": False,
                "buckets_bytes": []}
def spark(r):
    # 100 ms per mark, whatever the buckets' width
    k = max(1, 100 // r.get("bucket_ms", 100))
    b = r["buckets_bytes"]
    b = [sum(b[i:i + k]) for i in range(0, len(b), k)]
    marks = " .:-=+*#%@"
    top = max(b) if b and max(b) else 1
    return "".join(marks[min(9, int(9 * x / top))] for x in b[:120])
m, t = load("mrc.server"), load("tcp.server")
for name, r in (("MRC", m), ("TCP", t)):
    print(f"{name}: {r['bytes'] / 2**20:6.1f} MiB received, {r['goodput_mbps']:7.1f} Mbit/s, "
          f"longest stall {r['longest_stall_ms']:8.1f} ms, "
          f"{'every byte verified' if r['verified'] else 'INCOMPLETE: ' + r.get('error', '')}")
print("\ngoodput per 100 ms (taller = faster):")
print("MRC |" + spark(m) + "|")
print("TCP |" + spark(t) + "|")
PY

say "7. How MRC saw it: path events and counters on host A"
kill "$mon" 2>/dev/null
# The cut plane's paths first; the others' events are the VM's jitter
# against the default 2 ms rto_min (timeouts on healthy paths).
grep -E "path-state .* plane 1 " "$out/monitor.txt" | head -6
echo "... and $(grep -E 'path-state|recovery' "$out/monitor.txt" | grep -cv ' plane 1 ') other events (recoveries; paths of other planes" \
	"timing out under the VM's jitter and coming back by probe)"
run A "$MRCCTL" stats | grep -E "PathTo|Retx|Recover|Probes" || A cat /proc/net/mrc_stat |
	grep -E "PathTo|Retx|Recover|Probes"

say "Verdict"
python3 - "$out" "$BYTES" <<'PY'
import json, sys
out, want = sys.argv[1], int(sys.argv[2])
try:
    m = json.load(open(f"{out}/mrc.server"))
    t = json.load(open(f"{out}/tcp.server"))
except Exception as e:
    print(f"demo: could not read results ({e})")
    sys.exit(1)
mrc = (f"MRC delivered {m['bytes'] >> 20} of {want >> 20} MiB"
       f"{', every byte verified' if m['verified'] else ''}, longest stall "
       f"{m['longest_stall_ms']:.0f} ms")
stalled = t["longest_stall_ms"] > 1000
tcp = (f"TCP on one static path {'stalled' if stalled else 'did not stall'}: "
       f"{t['bytes'] >> 20} MiB in its 20 s, longest stall {t['longest_stall_ms']:.0f} ms")
print(f"{mrc}; {tcp}.")
open(f"{out}/verdict.txt", "w").write(f"{mrc}; {tcp}.\n")
sys.exit(0 if m["verified"] and m["bytes"] == want else 1)
PY
echo "(full results in $out: mrc.server, tcp.server, monitor.txt)"
