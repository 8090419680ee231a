#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-multi: make bench's aggregate scenario across two kernels.
# Boots the two guests of the multi-guest harness (selftests/vm/multi,
# Documentation/testing.md "Two kernels"), each plane shaped at B's
# ingress, and runs bench/multi-guest.sh in guest A: MRC and TCP, one
# verified transfer A->B each; then prints and writes the table of
# ratios (goodput, share of P x R, MRC / TCP) with the commit, date and
# command, and results.json.
#
# Usage: bench/multi-run.sh [OUTDIR]   (default build/bench-multi/<UTC time>)
# Run it under the VM lock: flock /tmp/mrc-vm.lock make bench-multi
# Environment: BENCH_MULTI_RATE_MBIT (per plane, 25), BENCH_MULTI_DURATION
# (s per transfer, 10), BENCH_MULTI_PROTOS ("mrc tcp"); MRC_MULTI_* as
# for the harness (MRC_MULTI_PLANES: 2 planes). The newest results are
# also reachable as build/bench-multi/latest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. bench/lib_host.sh

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${1:-build/bench-multi/$stamp}
mkdir -p "$out" build/bench-multi
out=$(cd "$out" && pwd)
commit=$(bench_commit kmod lib tools uapi bench selftests/vm/multi selftests/multi)
cmd="make bench-multi${BENCH_MULTI_RATE_MBIT:+ BENCH_MULTI_RATE_MBIT=$BENCH_MULTI_RATE_MBIT}"
cmd="$cmd${BENCH_MULTI_DURATION:+ BENCH_MULTI_DURATION=$BENCH_MULTI_DURATION}"
cmd="$cmd${BENCH_MULTI_PROTOS:+ BENCH_MULTI_PROTOS=\"$BENCH_MULTI_PROTOS\"}"
# The guest inherits no environment: it reads its parameters from the
# tree, which it sees read-only.
{
	echo "RATE=${BENCH_MULTI_RATE_MBIT:-25}"
	echo "DUR=${BENCH_MULTI_DURATION:-10}"
	echo "PROTOS=\"${BENCH_MULTI_PROTOS:-mrc tcp}\""
} > build/bench-multi/params.env

echo "bench-multi: commit $commit; two guests of Debian's $(selftests/vm/kver.sh) kernel; results in $out"
t0=$SECONDS
rc=0
MRC_SELFTESTS_OUT=$out/run selftests/vm/multi/run.sh -q -t 900 "$root/bench/multi-guest.sh" || rc=$?
vm_s=$((SECONDS - t0))
ln -sfn "$out" build/bench-multi/latest
res=$out/run/xchg/multi-guest/results.json
if [ ! -s "$res" ]; then
	echo "bench-multi: the guests wrote no results; see $out/run/ktap.txt and $out/run/a/console.log" >&2
	exit 1
fi
prc=0
/usr/bin/python3 - "$res" "$out" "$commit" "$cmd" "$vm_s" "$rc" <<'EOF' || prc=$?
import datetime, json, sys
res, out, commit, cmd, vm_s, rc = sys.argv[1:7]
r = json.load(open(res))
protos = [p for p in ("mrc", "tcp") if p in r]
cap = r["planes"] * r["rate_mbit"]
def g(p):
    return r[p]["goodput_mbit"]
def ok(p):
    return bool((r[p].get("server") or {}).get("verified"))
when = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
lines = [
    "Commit `%s`, %s; `%s`; two guests of Debian %s under QEMU TCG, 1 vCPU each, "
    "linked plane by plane (selftests/vm/multi); %d planes shaped at B's ingress at "
    "%s Mbit/s each, %s s transfers; both guests %s s%s." % (
        commit, when, cmd, r["kernel"], r["planes"], r["rate_mbit"], r["duration_s"],
        vm_s, "" if rc == "0" else ", harness status " + rc),
    "",
    "| scenario | figure | " + " | ".join({"mrc": "MRC", "tcp": "TCP (1 flow)"}[p] for p in protos) + " |",
    "|---|---|" + "---|" * len(protos),
    "| aggregate, P x R shaped | goodput Mbit/s after 1 s (P x R = %d x %s) | " % (
        r["planes"], r["rate_mbit"]) + " | ".join("%.1f" % g(p) if g(p) is not None else "-"
                                                 for p in protos) + " |",
    "|  | share of P x R | " + " | ".join("%.0f%%" % (100 * g(p) / cap) if g(p) is not None
                                         else "-" for p in protos) + " |",
    "|  | every byte verified | " + " | ".join("yes" if ok(p) else "**no**" for p in protos) + " |",
    "|  | A's packets per plane link | " + " | ".join(
        " / ".join(map(str, r[p].get("tx_pkts_per_plane") or [])) or "-" for p in protos) + " |",
]
if "mrc" in r and "tcp" in r and g("mrc") and g("tcp"):
    lines.append("|  | MRC / TCP | %.2fx |  |" % (g("mrc") / g("tcp")))
text = "\n".join(lines) + "\n"
open(out + "/table.md", "w").write(text)
json.dump({"commit": commit, "date": when, "command": cmd, "vm_seconds": int(vm_s),
           "harness_status": int(rc), **r}, open(out + "/results.json", "w"), indent=1)
print(text, end="")
sys.exit(0 if rc == "0" and all(ok(p) for p in protos) else 1)
EOF
echo "bench-multi: table $out/table.md, JSON $out/results.json"
exit "$prc"
