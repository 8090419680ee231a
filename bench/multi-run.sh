#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-multi: make bench's main scenarios across two kernels.
# Boots the two guests of the multi-guest harness (selftests/vm/multi,
# Documentation/testing.md "Two kernels"), each plane shaped at B's
# ingress, and runs bench/multi-guest.sh in guest A: per scenario
# (aggregate; a silent blackhole of one plane, and that plane's link down
# on A, at half the transfer), MRC and TCP, one verified transfer A->B
# each; then prints and writes the table (goodput, share of P x R, MRC /
# TCP; around each fault goodput before and after, the longest stall,
# whether every byte was verified) with the commit, date and command, and
# results.json.
#
# Usage: bench/multi-run.sh [OUTDIR]   (default build/bench-multi/<UTC time>)
# Run it under the VM lock: flock /tmp/mrc-vm.lock make bench-multi
# Environment: BENCH_MULTI_RATE_MBIT (per plane, 25), BENCH_MULTI_DURATION
# (whole seconds per transfer, 10), BENCH_MULTI_PROTOS ("mrc tcp"),
# BENCH_MULTI_SCENARIOS ("aggregate blackhole planedown"); MRC_MULTI_* as
# for the harness (MRC_MULTI_PLANES: 2 planes). The newest results are
# also reachable as build/bench-multi/latest. Exit status 0 when the
# harness passed and MRC verified every byte in every scenario (TCP too
# without a fault; TCP not getting past a fault is a result, not a
# failure).
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
cmd="$cmd${BENCH_MULTI_SCENARIOS:+ BENCH_MULTI_SCENARIOS=\"$BENCH_MULTI_SCENARIOS\"}"
# The guest inherits no environment: it reads its parameters from the
# tree, which it sees read-only.
{
	echo "RATE=${BENCH_MULTI_RATE_MBIT:-25}"
	echo "DUR=${BENCH_MULTI_DURATION:-10}"
	echo "PROTOS=\"${BENCH_MULTI_PROTOS:-mrc tcp}\""
	echo "SCENARIOS=\"${BENCH_MULTI_SCENARIOS:-aggregate blackhole planedown}\""
} > build/bench-multi/params.env

echo "bench-multi: commit $commit; two guests of Debian's $(selftests/vm/kver.sh) kernel; results in $out"
t0=$SECONDS
rc=0
# the guest's script has 900 s (its timeout line), the boots come on top
MRC_SELFTESTS_OUT=$out/run selftests/vm/multi/run.sh -q -t 1200 "$root/bench/multi-guest.sh" || rc=$?
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
NAME = {"mrc": "MRC", "tcp": "TCP (1 flow)"}
scens = [s for s in r.get("scenarios", []) if s in r]
protos = [p for p in ("mrc", "tcp") if any(p in r[s] for s in scens)]
P, R = r["planes"], r["rate_mbit"]
cap, cap1 = P * R, (P - 1) * R


def cell(v, fmt="%.1f"):
    return "-" if v is None else fmt % v


def verified(e):
    if e["verified"]:
        return "yes"
    mb = "%.0f MB received" % ((e.get("bytes") or 0) / 1e6)
    if e.get("bad"):
        return "**no** (%s; %s)" % (e.get("error"), mb)
    return "not completed (%s; %s, verified)" % (e.get("error"), mb)


def per_plane(v):
    return " / ".join(map(str, v or [])) or "-"


def stall(e):
    s = e.get("longest_stall_ms")
    if s is None:
        return "-"
    at = e.get("stall_start_after_fault_ms")
    if at is None:
        return "%.0f" % s
    return "%.0f (began at fault %+.2f s)" % (s, at / 1000)


def fault(e):
    f = e.get("fault") or {}
    if not f.get("injected"):
        return "**not injected**"
    return "%s (%s), %s, %s" % (f.get("plane"), f.get("nic", "?"), cell(f.get("at_s"), "%.2f"),
                                cell(f.get("cmd_ms"), "%.0f"))


def share(v, of):
    return "-" if v is None or not of else "%.0f%%" % (100 * v / of)


when = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
lines = [
    "Commit `%s`, %s; `%s`; two guests of Debian %s under QEMU TCG, 1 vCPU each, "
    "linked plane by plane (selftests/vm/multi); %d planes shaped at B's ingress at "
    "%s Mbit/s each, %s s transfers, each fault at about half of one, on the plane "
    "TCP's flow took; both guests %s s%s." % (
        commit, when, cmd, r["kernel"], P, R, r["duration_s"],
        vm_s, "" if rc == "0" else ", harness status " + rc),
    "",
    "| scenario | figure | " + " | ".join(NAME[p] for p in protos) + " |",
    "|---|---|" + "---|" * len(protos),
]
LABEL = {"aggregate": "aggregate, P x R shaped",
         "blackhole": "silent blackhole of one plane (netem loss 100% on A's link)",
         "planedown": "one plane's link down on A"}
failed, unfinished = [], []
for s in scens:
    cols = [r[s].get(p) for p in protos]
    first = [LABEL[s]]

    def row(figure, f):
        label = first.pop() if first else ""
        return "| %s | %s | %s |" % (label, figure,
                                     " | ".join(f(e) if e else "-" for e in cols))

    for p, e in zip(protos, cols):
        if not e or e["verified"]:
            continue
        if p == "mrc" or s == "aggregate" or e.get("bad"):
            failed.append("%s-%s" % (s, p))
        else:
            unfinished.append("%s-%s (%s)" % (s, p, e.get("error")))
    m, t = r[s].get("mrc"), r[s].get("tcp")
    if s == "aggregate":
        lines += [
            row("goodput Mbit/s after 1 s (P x R = %d x %s)" % (P, R),
                lambda e: cell(e.get("goodput_mbit"))),
            row("share of P x R", lambda e: share(e.get("goodput_mbit"), cap)),
            row("every byte verified", verified),
            row("A's packets per plane link", lambda e: per_plane(e.get("tx_pkts_per_plane"))),
        ]
        if m and t and m.get("goodput_mbit") and t.get("goodput_mbit"):
            lines.append("|  | MRC / TCP | %.2fx |%s" % (
                m["goodput_mbit"] / t["goodput_mbit"], "  |" * (len(protos) - 1)))
        continue
    lines += [
        row("fault: plane (A's NIC), at s, its command ms", fault),
        row("goodput before -> after, Mbit/s",
            lambda e: "%s -> %s" % (cell(e.get("before_mbit")), cell(e.get("after_mbit")))),
        row("after / (P-1) x R = %g Mbit/s" % cap1, lambda e: share(e.get("after_mbit"), cap1)),
        row("longest stall at B, ms (its start)", stall),
        row("every byte verified", verified),
        row("A's packets per plane link before -> after the fault",
            lambda e: "%s -> %s" % (per_plane((e.get("fault") or {}).get("tx_pkts_per_plane_before")),
                                    per_plane((e.get("fault") or {}).get("tx_pkts_per_plane_after")))),
    ]
    if m and t and m.get("after_mbit") and t.get("after_mbit"):
        lines.append("|  | MRC / TCP after the fault | %.2fx |%s" % (
            m["after_mbit"] / t["after_mbit"], "  |" * (len(protos) - 1)))
lines.append("")
if unfinished:
    lines.append("Transfers that did not complete (a result, not a failure): %s." %
                 ", ".join(unfinished))
if failed:
    lines.append("**Failed** (not every byte verified): %s." % ", ".join(failed))
missing = [s for s in r.get("scenarios", []) if s not in r]
if missing:
    lines.append("**No results** for: %s." % ", ".join(missing))
text = "\n".join(lines).rstrip("\n") + "\n"
open(out + "/table.md", "w").write(text)
json.dump({"commit": commit, "date": when, "command": cmd, "vm_seconds": int(vm_s),
           "harness_status": int(rc), **r}, open(out + "/results.json", "w"), indent=1)
print(text, end="")
sys.exit(0 if rc == "0" and not failed and not missing else 1)
EOF
echo "bench-multi: table $out/table.md, JSON $out/results.json"
exit "$prc"
