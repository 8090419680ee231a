#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench, on the host: turn the guest's raw results into
results.json, table.md (ratios against the brief's section 11 targets)
and one PNG per fault (goodput around it, one line per protocol).

Usage: bench/report.py OUTDIR [--commit C] [--vm-seconds N] [--vm-status N]
"""
import argparse
import datetime
import glob
import json
import math
import os

PROTOS = ["mrc", "tcp", "tcp-ecmp", "mptcp"]
LABEL = {"mrc": "MRC", "tcp": "TCP (1 path)", "tcp-ecmp": "TCP (ECMP)", "mptcp": "MPTCP"}
COLOR = {"mrc": "tab:red", "tcp": "tab:blue", "tcp-ecmp": "tab:cyan", "mptcp": "tab:green"}


def load_json(path):
    """The last JSON object of a file (mrc-perf prints one line), or None."""
    try:
        with open(path) as f:
            lines = [l for l in f.read().splitlines() if l.startswith("{")]
        return json.loads(lines[-1]) if lines else None
    except (OSError, ValueError):
        return None


def pct(values, q):
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


class Timeline:
    """Goodput buckets of a receiver, placed on the guest's wall clock."""

    def __init__(self, server, meta, client=None):
        self.ms = server.get("bucket_ms", 1) / 1000.0
        self.b = server.get("buckets_bytes", [])
        self.t0 = server.get("start_unix", 0.0)
        self.fault = meta.get("fault_unix") or 0.0
        # the data's end: the last bucket that moved something
        self.end = len(self.b)
        while self.end and not self.b[self.end - 1]:
            self.end -= 1
        # a receiver that gave up waiting: empty buckets for the wait, unless
        # everything the client sent had arrived (then only the end of the
        # stream was missing, not data)
        if not (client and client.get("bytes") == server.get("bytes")):
            self.b = extend_stall(server, self.b)

    def rel(self, i):
        """Seconds between bucket i and the fault."""
        return self.t0 + i * self.ms - self.fault

    def rate(self, lo, hi):
        """Mbit/s between two times relative to the fault (None if empty)."""
        i0 = max(0, math.ceil((self.fault + lo - self.t0) / self.ms))
        i1 = min(len(self.b), int((self.fault + hi - self.t0) / self.ms))
        if i1 - i0 < 100:
            return None
        return sum(self.b[i0:i1]) * 8 / ((i1 - i0) * self.ms) / 1e6

    def steady(self):
        """Mbit/s of a run without a fault, first second and last 0.5 s aside."""
        i0, i1 = int(1.0 / self.ms), self.end - int(0.5 / self.ms)
        if i1 - i0 < 100:
            return None
        return sum(self.b[i0:i1]) * 8 / ((i1 - i0) * self.ms) / 1e6

    def stall_after(self, within=5.0):
        """Longest run of empty buckets that ends after the fault and
        starts before fault + within, in ms (a stall that lasted to the
        end of the run counts)."""
        best, run_start = 0.0, None
        for i in range(len(self.b) + 1):
            if i < len(self.b) and not self.b[i]:
                if run_start is None:
                    run_start = i
                continue
            if run_start is not None:
                if self.rel(i) > 0 and self.rel(run_start) < within:
                    best = max(best, (i - run_start) * self.ms)
                run_start = None
        return best * 1e3

    def longest_stall(self, lo=0.0):
        """Longest run of empty buckets inside the data (after lo s from start)."""
        best, run = 0, 0
        for i in range(int(lo / self.ms), self.end):
            run = run + 1 if not self.b[i] else 0
            best = max(best, run)
        return best * self.ms * 1e3


def extend_stall(server, b):
    """Buckets end with the last byte; a receiver that gave up after a
    stall (its longest stall starts there) gets empty buckets for it."""
    ms = server.get("bucket_ms", 1) / 1000.0
    start, stall = server.get("longest_stall_start_ms"), server.get("longest_stall_ms", 0)
    if start is None or not b or stall / 1e3 < 2 * ms:
        return b
    if abs(start / 1e3 - server.get("seconds", 0)) < 2 * ms:
        return b + [0] * int(stall / 1e3 / ms)
    return b


def load_runs(raw):
    runs = {}
    for m in glob.glob(os.path.join(raw, "*.meta.json")):
        name = os.path.basename(m)[: -len(".meta.json")]
        if name == "run":
            continue
        meta = json.load(open(m))
        w = meta.get("watch") or {}
        meta["fault_unix"] = w.get("fault_unix")
        meta["plane"], meta["spine"] = w.get("plane"), w.get("spine")
        meta["fault_desc"] = w.get("desc")
        meta["mptcp_subflows"] = w.get("subflows") if meta.get("proto") == "mptcp" else None
        if meta.get("fault") == "loss":
            meta["fault_unix"] = meta.get("loss_unix")
            meta["plane"] = 1
            meta["fault_desc"] = "netem loss 1% on plane 1's spine links"
        runs[name] = {
            "meta": meta,
            "server": load_json(os.path.join(raw, name + ".server")),
            "client": load_json(os.path.join(raw, name + ".client")),
        }
        ev = os.path.join(raw, name + ".events")
        if os.path.exists(ev):
            # only this run's events: from its start to 2 s after its data
            srv = runs[name]["server"] or {}
            lo = meta.get("start_unix") or 0
            hi = (srv.get("start_unix") or lo) + (srv.get("seconds") or 0) + 2
            events = []
            for line in open(ev):
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                if lo <= e.get("timestamp_ns", 0) / 1e9 <= hi:
                    events.append(e)
            runs[name]["events"] = events
    return runs


def xfer_summary(r):
    s, meta, c = r["server"], r["meta"], r["client"]
    if not s:
        return {"error": "no server result"}
    tl = Timeline(s, meta, c)
    out = {
        "bytes": s.get("bytes"),
        "goodput_mbps": s.get("goodput_mbps"),
        "verified": s.get("verified"),
        "error": s.get("error"),
        "longest_stall_ms": s.get("longest_stall_ms"),
        "cpu_busy_s": meta.get("cpu_busy_s"),
        "gb": (s.get("bytes") or 0) / 1e9,
    }
    if s.get("error") and c and c.get("bytes") == s.get("bytes"):
        out["close_lost"] = True
        out["error"] = ("every byte arrived, verified, but the end of the stream "
                        "(the sender's shutdown) did not arrive in time")
    if meta.get("fault") in ("blackhole", "planedown") and not meta.get("fault_unix"):
        out["error"] = out.get("error") or "the fault was not injected (%s)" % meta.get(
            "fault_desc")
        out["verified"] = False
    elif meta.get("fault") in ("blackhole", "planedown"):
        out["pre_mbps"] = tl.rate(-(meta["fault_unix"] - tl.t0) + 1.0, -0.05)
        out["post_mbps"] = tl.rate(1.5, (len(tl.b) * tl.ms + tl.t0 - tl.fault) - 0.5)
        out["stall_after_fault_ms"] = tl.stall_after()
        out["fault"] = meta.get("fault_desc")
        out["plane"], out["spine"] = meta.get("plane"), meta.get("spine")
    else:
        out["steady_mbps"] = tl.steady()
        out["bucket_longest_stall_ms"] = tl.longest_stall(1.0)
    if meta.get("fault") == "congested":
        out["congest_mbit"] = meta.get("congest_mbit")
    sp = meta.get("spine_bytes")
    if isinstance(sp, list) and sp:
        out["spines"] = sp
        tot = sum(x["delivered"] for x in sp)
        # the congested spine (plane 1, spine 0): its share of what the
        # spines delivered, and what its queue dropped of what it got
        c = [x for x in sp if x["plane"] == 1 and x["spine"] == 0]
        if c and tot:
            out["congested_share"] = c[0]["delivered"] / tot
            out["congested_dropped"] = (1 - c[0]["delivered"] / c[0]["offered"]
                                        if c[0]["offered"] else None)
    if meta.get("mptcp_subflows") is not None:
        sf = meta["mptcp_subflows"]
        out["mptcp_subflows"] = len(sf) if isinstance(sf, list) else sf
        if isinstance(sf, list):
            out["mptcp_subflow_addrs"] = sf
    if "events" in r:
        ttr = [e["ttr_ns"] / 1e6 for e in r["events"] if e.get("type") == "recovery"
               and "ttr_ns" in e]
        out["ttr_ms"] = {"count": len(ttr), "p50": pct(ttr, 0.5), "p99": pct(ttr, 0.99),
                         "max": max(ttr) if ttr else None}
        out["path_events"] = sum(1 for e in r["events"] if e.get("type") == "path-state")
        out["path_timeouts"] = sum(1 for e in r["events"] if e.get("type") == "path-state"
                                   and e.get("reason") == "timeout")
    return out


IDLE = ("native_safe_halt", "default_idle", "acpi_idle", "cpu_idle", "mwait_idle",
        "intel_idle", "poll_idle", "arch_cpu_idle", "default_idle_call")


def profile_top(path, n=12):
    """Top symbols of a perf report, idle loop aside: ([(share, dso, sym)],
    idle share)."""
    rows = []
    try:
        for line in open(path):
            f = line.split()
            if len(f) < 4 or not f[0].endswith("%"):
                continue
            rows.append((float(f[0][:-1]), f[1], " ".join(f[3:])))
    except OSError:
        return [], 0
    idle = sum(r[0] for r in rows if r[2] in IDLE)
    busy = [r for r in rows if r[2] not in IDLE]
    total = sum(r[0] for r in busy) or 1
    return [(r[0] * 100 / total, r[1].strip("[]"), r[2]) for r in busy[:n]], idle


def fmt(v, spec=".1f", unit=""):
    if v is None:
        return "n/a"
    if spec == "d":
        v = int(v)
    return format(v, spec) + unit


def pctf(frac):
    """A fraction as a percentage, "-" when unknown."""
    return fmt(None if frac is None else frac * 100, ".1f", "%")


def verdict(ok):
    if ok is None:
        return "not measured"
    return "**met**" if ok else "**not met**"


def build(outdir, commit, vm_seconds, vm_status):
    raw = os.path.join(outdir, "raw")
    run = json.load(open(os.path.join(raw, "run.meta.json")))
    runs = load_runs(raw)
    P, R = run["planes"], run["rate_mbit"]
    res = {"commit": commit,
           "date": datetime.datetime.utcfromtimestamp(os.path.getmtime(
               os.path.join(raw, "run.meta.json"))).strftime("%Y-%m-%d %H:%M UTC"),
           "vm_seconds": vm_seconds, "vm_status": vm_status, "run": run, "results": {}}
    protos = [p for p in PROTOS if any(n.startswith(p + "-") and
                                       n[len(p) + 1:] in ("aggregate", "loss", "blackhole",
                                                          "planedown", "congested", "rr", "cpu",
                                                          "many")
                                       for n in runs)]
    R_ = res["results"]
    for name, r in runs.items():
        scen = r["meta"].get("scenario")
        if scen in ("aggregate", "loss", "blackhole", "planedown", "congested", "cpu",
                    "profile"):
            R_[name] = xfer_summary(r)
        elif scen == "rr":
            c = r["client"] or {}
            R_[name] = {"rtt_us": c.get("rtt_us"), "requests": c.get("requests"),
                        "verified": c.get("verified"), "error": c.get("error")}
        elif scen == "many":
            c, s, m = r["client"] or {}, r["server"] or {}, r["meta"]
            kb = None
            if m.get("kmem_idle_kb") is not None:
                kb = (m["kmem_idle_kb"] - m["kmem_before_kb"]) / m["conns"]
            R_[name] = {"conns": m["conns"], "connected": c.get("connected"),
                        "progressed": s.get("progressed"), "completed": s.get("completed"),
                        "verified": s.get("verified"), "error": s.get("error") or c.get("error"),
                        "connect_seconds": c.get("connect_seconds"),
                        "done_ms": s.get("done_ms"),
                        "kmem_per_conn_kb": kb,
                        "kmem_per_endpoint_kb": kb / 2 if kb is not None else None}

    def g(p, scen, key, *more):
        v = R_.get(f"{p}-{scen}", {})
        for k in (key,) + more:
            if not isinstance(v, dict):
                return None
            v = v.get(k)
        return v

    # --- the table of targets ---
    rows, targets = [], []
    hdr = "| scenario | figure | " + " | ".join(LABEL[p] for p in protos) + " | target | MRC |"
    sep = "|" + "---|" * (len(protos) + 4)

    def row(scen, fig, vals, target, ok):
        v = verdict(ok) if target else ""
        rows.append(f"| {scen} | {fig} | " + " | ".join(vals) + f" | {target} | {v} |")

    def per(fn):
        return [fn(p) for p in protos]

    agg = {p: g(p, "aggregate", "steady_mbps") for p in protos}
    row("aggregate, P x R shaped", f"goodput Mbit/s (P x R = {P} x {R})",
        per(lambda p: fmt(agg[p])), ">= 90% of P x R",
        None if agg.get("mrc") is None else agg["mrc"] >= 0.9 * P * R)
    row("", "share of P x R", per(lambda p: fmt(agg[p] and agg[p] / (P * R) * 100, ".0f", "%")),
        "", None)
    row("", "MRC path timeouts / recoveries (TTR p99, ms) without a fault",
        per(lambda p: (f"{fmt(g(p, 'aggregate', 'path_timeouts'), 'd')} / "
                       f"{fmt(g(p, 'aggregate', 'ttr_ms', 'count'), 'd')} "
                       f"({fmt(g(p, 'aggregate', 'ttr_ms', 'p99'), '.1f')})") if p == "mrc" else "-"),
        "", None)

    st = {p: g(p, "blackhole", "stall_after_fault_ms") for p in protos}
    ttr99 = g("mrc", "blackhole", "ttr_ms", "p99")
    row("silent blackhole of one path", "longest stall after the fault, ms",
        per(lambda p: fmt(st[p])), "", None)
    row("", "MRC TTR p50 / p99 / max (module), ms",
        per(lambda p: (fmt(g(p, "blackhole", "ttr_ms", "p50"), ".2f") + " / " +
                       fmt(g(p, "blackhole", "ttr_ms", "p99"), ".2f") + " / " +
                       fmt(g(p, "blackhole", "ttr_ms", "max"), ".2f")) if p == "mrc" else "-"),
        "p99 <= 5 ms", None if ttr99 is None else ttr99 <= 5)
    ratio = (st.get("mptcp") / st["mrc"]) if st.get("mptcp") is not None and st.get("mrc") else None
    row("", "MPTCP's stall / MRC's stall", per(lambda p: fmt(ratio, ".1f", "x") if p == "mrc" else "-"),
        ">= 50x", None if ratio is None else ratio >= 50)
    row("", "goodput before -> after, Mbit/s",
        per(lambda p: fmt(g(p, "blackhole", "pre_mbps")) + " -> " + fmt(g(p, "blackhole", "post_mbps"))),
        "", None)

    loss = {p: g(p, "loss", "steady_mbps") for p in protos}
    lr = {p: (loss[p] / agg[p]) if loss[p] is not None and agg[p] else None for p in protos}
    row("1% loss on one plane", "goodput Mbit/s", per(lambda p: fmt(loss[p])), "", None)
    row("", "share of the loss-free goodput", per(lambda p: fmt(lr[p] and lr[p] * 100, ".0f", "%")),
        ">= 85%", None if lr.get("mrc") is None else lr["mrc"] >= 0.85)

    pd = {p: g(p, "planedown", "stall_after_fault_ms") for p in protos}
    pre = {p: g(p, "planedown", "pre_mbps") for p in protos}
    post = {p: g(p, "planedown", "post_mbps") for p in protos}
    # the target: goodput (P-1)/P of the whole, i.e. (P-1) x R on shaped planes
    keep = {p: (post[p] / ((P - 1) * R)) if post[p] is not None else None for p in protos}
    row("local plane down", "longest stall after the fault, ms", per(lambda p: fmt(pd[p])),
        "<= 2 ms", None if pd.get("mrc") is None else pd["mrc"] <= 2)
    row("", "goodput before -> after, Mbit/s",
        per(lambda p: fmt(pre[p]) + " -> " + fmt(post[p])), "", None)
    row("", f"after / (P-1) x R = {(P - 1) * R} Mbit/s",
        per(lambda p: fmt(keep[p] and keep[p] * 100, ".0f", "%")), ">= 90%",
        None if keep.get("mrc") is None else keep["mrc"] >= 0.9)

    cg = {p: g(p, "congested", "steady_mbps") for p in protos}
    C = g("mrc", "congested", "congest_mbit") or R / 5
    S_ = run.get("spines") or 2
    row(f"congested spine (plane 1 spine 0 at {C:g} Mbit/s)",
        f"goodput Mbit/s (the plane's other spine can carry {R}: P x R still fits)",
        per(lambda p: fmt(cg[p])), ">= 95% of P x R",
        None if cg.get("mrc") is None else cg["mrc"] >= 0.95 * P * R)
    row("", "share of P x R", per(lambda p: fmt(cg[p] and cg[p] / (P * R) * 100, ".0f", "%")),
        "", None)
    row("", f"the congested spine's share of the bytes delivered (even: {100 / (P * S_):.1f}%; "
        f"by capacity: {C / (P * R) * 100:.1f}%) / dropped there",
        per(lambda p: pctf(g(p, "congested", "congested_share")) + " / " +
            pctf(g(p, "congested", "congested_dropped"))),
        "", None)
    row("", "MRC path state changes / timeouts",
        per(lambda p: (f"{fmt(g(p, 'congested', 'path_events'), 'd')} / "
                       f"{fmt(g(p, 'congested', 'path_timeouts'), 'd')}") if p == "mrc" else "-"),
        "", None)

    p50 = {p: g(p, "rr", "rtt_us", "p50") for p in protos}
    row("64 B request/response", "RTT p50 / p99 / p99.9, us",
        per(lambda p: fmt(p50[p], ".0f") + " / " + fmt(g(p, "rr", "rtt_us", "p99"), ".0f") +
            " / " + fmt(g(p, "rr", "rtt_us", "p999"), ".0f")), "", None)
    rr_ratio = p50["mrc"] / p50["tcp"] if p50.get("mrc") and p50.get("tcp") else None
    row("", "p50 / TCP (1 path) p50", per(lambda p: fmt(p50[p] and p50.get("tcp") and p50[p] / p50["tcp"], ".2f", "x")),
        "<= 1.2x", None if rr_ratio is None else rr_ratio <= 1.2)

    cpg = {}
    for p in protos:
        gb, cpu = g(p, "cpu", "gb"), g(p, "cpu", "cpu_busy_s")
        cpg[p] = cpu / gb if gb and cpu is not None else None
    row("CPU per GB (unshaped)", "goodput Mbit/s", per(lambda p: fmt(g(p, "cpu", "goodput_mbps"))), "", None)
    row("", "VM CPU seconds per GB", per(lambda p: fmt(cpg[p], ".1f")), "", None)
    cr = cpg["mrc"] / cpg["tcp"] if cpg.get("mrc") and cpg.get("tcp") else None
    row("", "/ TCP (1 path)", per(lambda p: fmt(cpg[p] and cpg.get("tcp") and cpg[p] / cpg["tcp"], ".2f", "x")),
        "<= 1.5x", None if cr is None else cr <= 1.5)

    n = run.get("conns")
    prog = {p: g(p, "many", "progressed") for p in protos}
    comp = {p: g(p, "many", "completed") for p in protos}
    row(f"{n} connections", "progressed / completed",
        per(lambda p: f"{fmt(prog[p], 'd')} / {fmt(comp[p], 'd')}"), "all progress",
        None if prog.get("mrc") is None else prog["mrc"] == n)
    mem = {p: g(p, "many", "kmem_per_endpoint_kb") for p in protos}
    row("", "kernel memory per idle endpoint, KB", per(lambda p: fmt(mem[p], ".1f")), "<= 16 KB",
        None if mem.get("mrc") is None else mem["mrc"] <= 16)

    res["table"] = rows
    res["derived"] = {"aggregate_share": agg.get("mrc") and agg["mrc"] / (P * R),
                      "blackhole_mptcp_over_mrc": ratio, "loss_share": lr.get("mrc"),
                      "planedown_keep": keep.get("mrc"), "rr_p50_vs_tcp": rr_ratio,
                      "congested_share_of_pxr": cg.get("mrc") and cg["mrc"] / (P * R),
                      "cpu_per_gb_vs_tcp": cr}

    # --- plots ---
    plots = []
    for scen, title in (("blackhole", "silent blackhole of one path"),
                        ("planedown", "local plane down"), ("loss", "1% loss on one plane"),
                        ("aggregate", f"{P} planes shaped to {R} Mbit/s each")):
        png = plot(raw, runs, protos, scen, title, outdir, run)
        if png:
            plots.append(png)
    res["plots"] = plots

    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump(res, f, indent=1, default=str)
    md = [f"Commit `{commit}`, {res['date']}; Debian {run.get('kernel')} under QEMU TCG, "
          f"{run.get('vcpus')} vCPUs; {P} planes x {run.get('spines')} spines; shaped runs: "
          f"{R} Mbit/s per plane, {run.get('duration_s')} s transfers, faults at "
          f"{run.get('fault_at_s')} s; VM wall time {vm_seconds} s.", "", hdr, sep] + rows
    failed = [name for name, r in R_.items() if r.get("verified") is False]
    if failed:
        md += ["", "Runs that did not verify or finish: " + ", ".join(
            f"{n} ({R_[n].get('error')})" for n in sorted(failed))]
    sf = g("mptcp", "aggregate", "mptcp_subflows")
    if sf is not None:
        addrs = g("mptcp", "aggregate", "mptcp_subflow_addrs")
        md += ["", f"MPTCP subflows in the aggregate run: {sf}" +
               (" (local addresses " + ", ".join(addrs) + ")" if addrs else "") + "."]
    for p in ("mrc", "tcp"):
        prof = os.path.join(raw, f"{p}-profile.perf.txt")
        top, idle = profile_top(prof)
        if top:
            md += ["", f"Where the VM's CPU goes during an unshaped {LABEL[p]} transfer "
                   f"(`perf record -e cpu-clock -a`; {idle:.0f}% of the samples were the idle "
                   "loop, the shares below are of the rest; hrtimer sampling in an emulated "
                   "VM cannot interrupt code that runs with interrupts off, so softirq work is "
                   "under-counted):", "", "| share | where | symbol |", "|---|---|---|"]
            md += [f"| {pc:.1f}% | {dso} | `{sym}` |" for pc, dso, sym in top]
    if not run.get("mptcp_ok", 1):
        md += ["", "MPTCP could not be set up in this run: its columns are empty."]
    with open(os.path.join(outdir, "table.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


def plot(raw, runs, protos, scen, title, outdir, run):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    have = [p for p in protos if f"{p}-{scen}" in runs and runs[f"{p}-{scen}"]["server"]]
    if not have:
        return None
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 7))
    for p in have:
        r = runs[f"{p}-{scen}"]
        s, meta = r["server"], r["meta"]
        tl = Timeline(s, meta, r["client"])
        if not meta.get("fault_unix") or scen == "loss":
            tl.fault = tl.t0  # time from the start
        # top: 200 ms bins (a receiver reads in bursts: finer bins show
        # the bursts, not the rate)
        k = max(1, int(0.2 / tl.ms))
        xs, ys = [], []
        for i in range(0, len(tl.b), k):
            xs.append(tl.rel(i))
            ys.append(sum(tl.b[i:i + k]) * 8 / (k * tl.ms) / 1e6)
        ax1.plot(xs, ys, label=LABEL[p], color=COLOR[p], lw=1.2)
        # bottom: delivered bytes, 1 ms resolution, close to the fault
        cx, cy, tot = [], [], 0
        for i, b in enumerate(tl.b):
            tot += b
            t = tl.rel(i + 1)
            if -0.2 <= t <= 1.0:
                cx.append(t * 1e3)
                cy.append(tot / 1e6)
        if cy:
            base = cy[0]
            ax2.step(cx, [c - base for c in cy], where="post", label=LABEL[p], color=COLOR[p])
    fault = scen in ("blackhole", "planedown")
    ax1.set_xlabel("seconds from the fault" if fault else "seconds from the first byte")
    ax1.set_ylabel("goodput, Mbit/s (200 ms bins)")
    if fault:
        ax1.set_xlim(-run["fault_at_s"] - 0.5, run["duration_s"] - run["fault_at_s"] + 3)
    else:
        ax1.set_xlim(-0.5, run["duration_s"] + 1)
    if scen != "loss":
        ax1.axhline(run["planes"] * run["rate_mbit"], color="grey", ls=":", lw=1,
                    label="P x R")
    if fault:
        ax1.axvline(0, color="black", ls="--", lw=1)
        ax2.axvline(0, color="black", ls="--", lw=1)
    ax1.legend(loc="upper right", fontsize=7, framealpha=0.8, ncol=3)
    ax1.set_title(f"{title}: goodput at the receiver")
    ax2.set_xlabel("ms from the fault" if fault else "ms from the first byte")
    ax2.set_ylabel("MB delivered (1 ms steps)")
    ax2.set_title("close up: a flat line is a stall")
    ax2.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    name = f"{scen}.png"
    fig.savefig(os.path.join(outdir, name), dpi=90)
    plt.close(fig)
    return name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--vm-seconds", type=int, default=0)
    ap.add_argument("--vm-status", type=int, default=0)
    a = ap.parse_args()
    build(a.outdir, a.commit, a.vm_seconds, a.vm_status)


if __name__ == "__main__":
    main()
