#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-apps, on the host: turn the guest's raw results
(bench/apps-guest.sh) into results.json and table.md: step time of the
DDP training job and all-reduce bandwidth, per transport (MRC, TCP,
MPTCP), fault-free and under each fault, and their ratios.

Usage: bench/apps_report.py OUTDIR [--commit C] [--vm-seconds N] [--vm-status N]

Definitions (those of selftests/workloads/steps.py, which the apps tests
use): a job's step i runs from start[i] to end[i] (earliest start and
latest end over the ranks); its fault-free steps are those that overlap
no fault window, the first 3 aside (connections and buffers being set
up); the steps under a fault are those that overlap its window (from
just before the fault went in to just after it was repaired); the
longest wait under a fault is the longest time inside the window between
the end of one step and the end of the next. Percentiles are the
nearest rank: with fewer than 100 steps, p99 is the slowest step.
All-reduce bandwidth ("algorithm bandwidth", as nccl-tests define it):
the tensor's size over the time of one dist.all_reduce call, here the
size x the number of iterations over their summed time, in MB/s (1e6
bytes).

Exit status: 1 when a job failed or did not verify its results, a fault
did not land mid-job, or a transport was not what its column says (MRC
connections fell back to TCP, MPTCP opened no subflow on other planes);
0 otherwise, whatever the figures.
"""
import argparse
import datetime
import glob
import json
import os
import re
import sys

TRANSPORTS = ["mrc", "tcp", "mptcp"]
LABEL = {"mrc": "MRC", "tcp": "TCP (ECMP)", "mptcp": "MPTCP"}
FAULT_LABEL = {"blackhole": "silent spine blackhole",
               "planedown": "local plane link down",
               "loss1": "1% loss on a plane link"}
SKIP = 3
TARGET = 1.25      # step time p99 under a fault / fault-free p99
STALL_S = 1.0      # a transport "stalls" under a fault: a wait for a step longer than this


def pct(v, q):
    if not v:
        return None
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def windows(path):
    out = []
    try:
        for line in open(path):
            w = line.split()
            if len(w) >= 8:
                out.append({"kind": w[0], "ns": w[1], "dev": w[2], "t0": float(w[3]),
                            "t1": float(w[4]), "progress0": int(w[5]),
                            "progress1": int(w[6]), "netem_drops": w[7]})
    except OSError:
        pass
    return out


def stats(d):
    """p50/p99/max in ms of durations in s."""
    ms = lambda x: None if x is None else x * 1e3  # noqa: E731
    return {"n": len(d), "p50_ms": ms(pct(d, 0.5)), "p99_ms": ms(pct(d, 0.99)),
            "max_ms": ms(max(d) if d else None)}


def job_summary(job, wins):
    """Fault-free and per-fault step statistics of one job."""
    start, end = job.get("start", []), job.get("end", [])
    steps = list(zip(start, end))

    def inside(s, e, w):
        return e >= w["t0"] and s <= w["t1"]
    base = [e - s for i, (s, e) in enumerate(steps)
            if i >= SKIP and not any(inside(s, e, w) for w in wins)]
    out = {"steps": len(steps), "ok": job.get("ok") is True, "error": job.get("error"),
           "setup_s": job.get("setup_s"), "wall_s": job.get("wall_s"),
           "fault_free": stats(base)}
    size = job.get("bytes")
    if size:
        out["bytes"] = size
        out["fault_free"]["mbps"] = size * len(base) / sum(base) / 1e6 if base else None
    out["faults"] = {}
    for w in wins:
        d = [e - s for s, e in steps if inside(s, e, w)]
        f = stats(d)
        pts = [w["t0"]] + [e for s, e in steps if w["t0"] < e < w["t1"]]
        nxt = [e for s, e in steps if e >= w["t1"]]
        pts.append(min(nxt) if nxt else w["t1"])
        f["wait_ms"] = max(b - a for a, b in zip(pts, pts[1:])) * 1e3
        f["before"] = sum(1 for s, e in steps if e < w["t0"])
        f["after"] = sum(1 for s, e in steps if e > w["t1"])
        f["window_s"] = w["t1"] - w["t0"]
        f["link"] = f"{w['ns']} {w['dev']}"
        f["netem_drops"] = w["netem_drops"]
        if size:
            f["mbps"] = size * len(d) / sum(d) / 1e6 if d else None
        b99 = out["fault_free"]["p99_ms"]
        f["p99_over_fault_free"] = f["p99_ms"] / b99 if f["p99_ms"] and b99 else None
        out["faults"][w["kind"]] = f
    return out


def counters(raw, name, hosts):
    """Sum over the hosts of (after - before) of every counter of
    /proc/net/mrc_stat, /proc/net/netstat and /proc/net/snmp."""
    tot = {}
    for x in hosts:
        for when, sign in (("before", -1), ("after", 1)):
            base = os.path.join(raw, "ctr", f"{name}.{when}.{x}")
            try:
                for line in open(base + ".mrcstat"):
                    w = line.split()
                    if len(w) == 2 and w[1].isdigit():
                        tot["Mrc" + w[0]] = tot.get("Mrc" + w[0], 0) + sign * int(w[1])
            except OSError:
                pass
            for ext in ("netstat", "snmp"):
                try:
                    lines = open(f"{base}.{ext}").read().splitlines()
                except OSError:
                    continue
                for k, v in zip(lines[::2], lines[1::2]):
                    ks, vs = k.split(), v.split()
                    if not ks or ks[0] != vs[0]:
                        continue
                    pre = ks[0].rstrip(":")
                    for a, b in zip(ks[1:], vs[1:]):
                        try:
                            tot[pre + a] = tot.get(pre + a, 0) + sign * int(b)
                        except ValueError:
                            pass
    return tot


PLANE_ADDR = re.compile(r"\[fd01:([0-9a-f]+):[0-9a-f]+::[12]\]")


def mptcp_subflows(raw, hosts):
    """From the ss snapshots taken during the MPTCP warm-up job: per host,
    MPTCP subflows (TCP sockets with the mptcp ULP) by plane, from the
    plane address at either end ("ecmp": the first subflow, between the
    hosts' own addresses, on a plane the ECMP routes chose)."""
    out = {}
    for x in hosts:
        path = os.path.join(raw, f"mptcp-ss-tcp.{x}.txt")
        if not os.path.exists(path):
            continue
        per = {}
        for line in open(path):
            if "tcp-ulp-mptcp" not in line:
                continue
            m = PLANE_ADDR.search(line)
            key = f"plane {int(m.group(1), 16)}" if m else "ecmp"
            per[key] = per.get(key, 0) + 1
        msk = 0
        mp = os.path.join(raw, f"mptcp-ss-mptcp.{x}.txt")
        if os.path.exists(mp):
            msk = sum(1 for line in open(mp) if line.strip())
        out[x] = {"subflows": per, "mptcp_sockets": msk}
    return out


def fmt(v, spec=".0f", unit=""):
    if v is None:
        return "n/a"
    return format(v, spec) + unit


def ratio(a, b):
    return a / b if a is not None and b else None


def build(outdir, commit, vm_seconds, vm_status):
    raw = os.path.join(outdir, "raw")
    run = load(os.path.join(raw, "run.meta.json"))
    problems = []
    if run is None:
        sys.exit(f"apps_report: no {raw}/run.meta.json: the guest did not get to the jobs "
                 f"(see {outdir}/console.log)")
    try:
        problems.append("the guest: " + open(os.path.join(raw, "guest-error.txt")).read().strip())
    except OSError:
        pass
    hosts = ["a", "b", "c", "d", "e", "f"][:run.get("hosts", 4)]
    trs = [t for t in TRANSPORTS if t in run["transports"].split()]
    workloads = run["workloads"].split()
    faults = run["faults"].split()
    res = {"commit": commit,
           "date": datetime.datetime.utcfromtimestamp(os.path.getmtime(
               os.path.join(raw, "run.meta.json"))).strftime("%Y-%m-%d %H:%M UTC"),
           "vm_seconds": vm_seconds, "vm_status": vm_status, "run": run,
           "command": "make bench-apps", "jobs": {}}
    J = res["jobs"]
    for tr in trs:
        for w in workloads:
            name = f"{tr}-{w}"
            job = load(os.path.join(raw, name + ".json"))
            meta = load(os.path.join(raw, name + ".meta.json")) or {}
            if job is None:
                J[name] = {"ok": False, "error": "no result"}
                problems.append(f"{name}: no result")
                continue
            wins = windows(os.path.join(raw, name + ".fault"))
            s = job_summary(job, wins)
            s["seconds"] = meta.get("seconds")
            s["cpu_busy_s"] = meta.get("cpu_busy_s")
            s["counters"] = counters(raw, name, hosts)
            J[name] = s
            if not s["ok"]:
                problems.append(f"{name}: the job failed or did not verify ({s['error']})")
            for k in faults:
                f = s["faults"].get(k)
                if f is None:
                    problems.append(f"{name}: {k} not injected (the job had ended)")
                elif f["n"] < 1 or f["after"] < 1:
                    problems.append(f"{name}: {k} did not land mid-job "
                                    f"({f['n']} steps under it, {f['after']} after)")

    # Was each transport what its column says?
    res["transport_checks"] = {}
    if "mrc" in trs:
        hs = sum(J.get(f"mrc-{w}", {}).get("counters", {}).get("MrcHsEstablished", 0)
                 for w in workloads)
        tcpacc = sum(J.get(f"mrc-{w}", {}).get("counters", {}).get("MrcTcpAccepted", 0)
                     for w in workloads)
        try:
            fb = sum(1 for line in open(os.path.join(raw, "mrc-launcher.log"))
                     if re.match(r"mrcize: .* over TCP", line))
        except OSError:
            fb = None
        res["transport_checks"]["mrc"] = {"handshakes": hs, "tcp_accepted": tcpacc,
                                          "mrcize_fallbacks": fb}
        if hs <= 0 or tcpacc or fb:
            problems.append(f"MRC: not every connection was MRC (handshakes {hs}, plain TCP "
                            f"accepted {tcpacc}, mrcize fallbacks {fb})")
    if "mptcp" in trs:
        sf = mptcp_subflows(raw, hosts)
        joins = sum(J.get(f"mptcp-{w}", {}).get("counters", {}).get("MPTcpExtMPJoinAckRx", 0)
                    for w in workloads)
        capable = sum(J.get(f"mptcp-{w}", {}).get("counters", {}).get("MPTcpExtMPCapableSYNRX", 0)
                      for w in workloads)
        fallback = sum(J.get(f"mptcp-{w}", {}).get("counters", {}).get(k, 0)
                       for w in workloads for k in ("MPTcpExtMPCapableFallbackACK",
                                                    "MPTcpExtMPCapableFallbackSYNACK"))
        planes = sorted({k for h in sf.values() for k in h["subflows"] if k != "ecmp"})
        res["transport_checks"]["mptcp"] = {"subflows_by_host": sf, "planes": planes,
                                            "mp_capable_syn_rx": capable,
                                            "mp_join_ack_rx": joins, "fallbacks": fallback}
        if len(planes) < run["planes"] or joins <= 0 or capable <= 0:
            problems.append(f"MPTCP: subflows on {len(planes)} of {run['planes']} planes "
                            f"(ss), {joins} joins and {capable} MPTCP connections in the "
                            "measured jobs (MIB)")

    def g(tr, w, *keys):
        v = J.get(f"{tr}-{w}")
        for k in keys:
            if not isinstance(v, dict):
                return None
            v = v.get(k)
        return v

    # --- the table ---
    rows, derived = [], {}
    cols = trs + [f"mrc/{t}" for t in trs if t != "mrc"] if "mrc" in trs else trs
    hdr = ("| job | figure | " + " | ".join(LABEL[t] for t in trs) + " | " +
           " | ".join(f"MRC / {LABEL[t]}" for t in trs if t != "mrc" and "mrc" in trs) +
           " | target | MRC |")
    sep = "|" + "---|" * (len(cols) + 4)

    def row(job, fig, vals, rats, target="", verdict=""):
        rows.append(f"| {job} | {fig} | " + " | ".join(vals) + " | " +
                    " | ".join(rats) + f" | {target} | {verdict} |")

    def rat(fn):
        if "mrc" not in trs:
            return []
        m = fn("mrc")
        return [fmt(ratio(m, fn(t)), ".2f", "x") for t in trs if t != "mrc"]

    if "ddp" in workloads:
        def trio(d):
            return (f"{fmt(d.get('p50_ms'))} / {fmt(d.get('p99_ms'))} / {fmt(d.get('max_ms'))}"
                    if d else "n/a")
        row("DDP training step (4 ranks, gloo)",
            "fault-free: steps; p50 / p99 / max, ms",
            [f"{fmt(g(t, 'ddp', 'fault_free', 'n'))}; {trio(g(t, 'ddp', 'fault_free'))}"
             for t in trs], rat(lambda t: g(t, "ddp", "fault_free", "p99_ms")))
        for k in faults:
            lab = FAULT_LABEL.get(k, k)
            row(lab, "under it: steps; p50 / p99 / max, ms",
                [f"{fmt(g(t, 'ddp', 'faults', k, 'n'))}; {trio(g(t, 'ddp', 'faults', k))}"
                 for t in trs], rat(lambda t: g(t, "ddp", "faults", k, "p99_ms")))
            row("", "longest wait for a step, ms",
                [fmt(g(t, "ddp", "faults", k, "wait_ms")) for t in trs],
                rat(lambda t: g(t, "ddp", "faults", k, "wait_ms")))
            r = {t: g(t, "ddp", "faults", k, "p99_over_fault_free") for t in trs}
            m = r.get("mrc")
            ok = None if m is None else m <= TARGET
            tcp_wait = g("tcp", "ddp", "faults", k, "wait_ms")
            tcp_stalls = None if tcp_wait is None else tcp_wait > STALL_S * 1e3
            derived[k] = {"mrc_p99_over_fault_free": m, "target_met": ok,
                          "tcp_stalls": tcp_stalls, "tcp_wait_ms": tcp_wait,
                          **{f"mrc_over_{t}": ratio(m, r[t]) for t in trs if t != "mrc"}}
            row("", "p99 under it / fault-free p99",
                [fmt(r[t], ".2f", "x") for t in trs], rat(lambda t: r[t]),
                f"<= {TARGET}x" + (", TCP stalls" if "tcp" in trs else ""),
                ("n/a" if ok is None else "**met**" if ok else "**not met**") +
                ("" if tcp_stalls is None else
                 f" (TCP {'stalled' if tcp_stalls else 'did not stall'}: "
                 f"{fmt(tcp_wait / 1e3, '.1f')} s)"))
    if "allreduce" in workloads:
        size = next((g(t, "allreduce", "bytes") for t in trs if g(t, "allreduce", "bytes")),
                    None)
        mib = f"{size / 2**20:g} MiB" if size else f"{run.get('mib')} MiB"
        row(f"all-reduce {mib} float32 (4 ranks, gloo)",
            "fault-free: MB/s (iterations; p50 ms)",
            [f"{fmt(g(t, 'allreduce', 'fault_free', 'mbps'), '.1f')} "
             f"({fmt(g(t, 'allreduce', 'fault_free', 'n'))}; "
             f"{fmt(g(t, 'allreduce', 'fault_free', 'p50_ms'))})" for t in trs],
            rat(lambda t: g(t, "allreduce", "fault_free", "mbps")))
        for k in faults:
            def share(t):
                return ratio(g(t, "allreduce", "faults", k, "mbps"),
                             g(t, "allreduce", "fault_free", "mbps"))
            row(FAULT_LABEL.get(k, k), "under it: MB/s (share of fault-free); longest wait, ms",
                [f"{fmt(g(t, 'allreduce', 'faults', k, 'mbps'), '.1f')} "
                 f"({fmt(share(t) and share(t) * 100, '.0f', '%')}); "
                 f"{fmt(g(t, 'allreduce', 'faults', k, 'wait_ms'))}" for t in trs],
                rat(lambda t: g(t, "allreduce", "faults", k, "mbps")))
            derived.setdefault(k, {})["allreduce_share"] = {t: share(t) for t in trs}
    res["derived"] = derived
    res["table"] = rows
    res["problems"] = problems

    head = (f"Commit `{commit}`, {res['date']}; Debian {run.get('kernel')} under QEMU TCG, "
            f"{run.get('vcpus')} vCPUs; {run.get('hosts')} hosts, {run.get('planes')} planes x "
            f"{run.get('spines')} spines; one rank per host; each job: {run.get('head_s')} s "
            f"fault-free, then each fault for {run.get('fault_s')} s with "
            f"{run.get('gap_s')} s fault-free after it; MRC policy `{run.get('policy')}` "
            f"(rto-min {run.get('rto_min_ms')} ms, rto-max {run.get('rto_max_ms')} ms, "
            f"backups 0); VM wall time {vm_seconds} s. Reproduce: `make bench-apps`.")
    md = [head, "", hdr, sep] + rows
    notes = []
    c = res["transport_checks"]
    if "mrc" in c:
        notes.append(f"MRC: {c['mrc']['handshakes']} MRC handshakes in the measured jobs, "
                     f"{c['mrc']['tcp_accepted']} plain TCP connections accepted, "
                     f"{c['mrc']['mrcize_fallbacks']} mrcize fallbacks to TCP.")
    if "mptcp" in c:
        m = c["mptcp"]
        per = "; ".join(f"{x}: " + ", ".join(f"{k} {v}" for k, v in sorted(h["subflows"].items()))
                        for x, h in sorted(m["subflows_by_host"].items()))
        notes.append(f"MPTCP: subflows during a job (`ss -tni`, per host, by the plane "
                     f"address at either end; ecmp: first subflows, between the hosts' own "
                     f"addresses): {per or 'none seen'}; in the measured jobs "
                     f"{m['mp_capable_syn_rx']} MPTCP connections, {m['mp_join_ack_rx']} "
                     f"joined subflows, {m['fallbacks']} fallbacks to TCP (MIB).")
    if notes:
        md += [""] + notes
    if problems:
        md += ["", "**Problems** (the bench fails): " + "; ".join(problems)]
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump(res, f, indent=1, default=str)
    with open(os.path.join(outdir, "table.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--vm-seconds", type=int, default=0)
    ap.add_argument("--vm-status", type=int, default=0)
    a = ap.parse_args()
    sys.exit(build(a.outdir, a.commit, a.vm_seconds, a.vm_status))


if __name__ == "__main__":
    main()
