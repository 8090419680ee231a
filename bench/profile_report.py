#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-profile, on the host: the raw results of bench/profile-guest.sh
into summary.json and summary.md.

Usage: profile_report.py OUTDIR [--commit C] [--vm-seconds S] [--others N]
                         [--vm-status RC]

Per protocol: goodput, the VM's busy CPU seconds per GB, guest instructions
per GB and where they go (bench/insn-profile.cc, bench/insn_report.py),
packets per GB, perf stat's counters per GB, retransmissions and MRC's
wasted work (path state changes, probes), perf record's samples; then the
kernel memory of one idle connection, by slab cache, large kmalloc and
vmalloc.
"""
import argparse
import collections
import datetime
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import insn_report  # noqa: E402

GB = 1e9


def read(path, default=""):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def last_json_line(path):
    obj = None
    for line in read(path).splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                pass
    return obj


def kv_file(path):
    d = {}
    for line in read(path).splitlines():
        p = line.split()
        if len(p) == 2 and re.match(r"^-?\d+$", p[1]):
            d[p[0]] = int(p[1])
    return d


def delta(a, b):
    return {k: b[k] - a.get(k, 0) for k in b if isinstance(b[k], int)}


def snmp_file(path):
    """/proc/net/snmp or netstat: 'Proto: names' then 'Proto: values'."""
    d = {}
    lines = read(path).splitlines()
    for i in range(0, len(lines) - 1, 2):
        h, v = lines[i].split(), lines[i + 1].split()
        if not h or h[0] != v[0]:
            continue
        for k, x in zip(h[1:], v[1:]):
            try:
                d[h[0].rstrip(":") + "." + k] = int(x)
            except ValueError:
                pass
    return d


def dev_file(path):
    """/proc/net/dev: {dev: (rx_bytes, rx_packets, tx_bytes, tx_packets)}"""
    d = {}
    for line in read(path).splitlines()[2:]:
        name, rest = line.split(":", 1)
        f = rest.split()
        d[name.strip()] = (int(f[0]), int(f[1]), int(f[8]), int(f[9]))
    return d


def perfstat(path):
    d = {}
    for line in read(path).splitlines():
        if not line or line.startswith("#"):
            continue
        f = line.split(",")
        if len(f) < 3:
            continue
        try:
            d[f[2]] = float(f[0])
        except ValueError:
            d[f[2]] = None
    return d


def meminfo(path):
    d = {}
    for line in read(path).splitlines():
        m = re.match(r"^(\S+):\s+(\d+)", line)
        if m:
            d[m.group(1)] = int(m.group(2))
    return d


def slabinfo(path):
    """{cache: (bytes in its slabs, active objects, object size)}"""
    d = {}
    for line in read(path).splitlines()[2:]:
        f = line.split()
        if len(f) < 15:
            continue
        name, active, objsize, pps, nslabs = f[0], int(f[1]), int(f[3]), int(f[5]), int(f[14])
        d[name] = (nslabs * pps * 4096, active, objsize)
    return d


def vmalloc_by_caller(path):
    c = collections.Counter()
    for line in read(path).splitlines():
        f = line.split()
        if len(f) < 3:
            continue
        caller = f[2]
        if "+" in caller:
            caller = caller.split("+")[0]
        if "vmalloc" in line or "vmap" in line or "ioremap" not in line:
            c[caller] += int(f[1])
    return c


def mrc_events(path):
    """path-state changes and recoveries from `mrcctl -j monitor`"""
    trans = collections.Counter()
    reasons = collections.Counter()
    other = collections.Counter()
    for line in read(path).splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        t = e.get("event") or e.get("type") or "?"
        if "old_state" in e or "new_state" in e or t == "path-state":
            trans["%s -> %s" % (e.get("old_state", e.get("old", "?")), e.get("new_state", e.get("new", "?")))] += 1
            reasons[str(e.get("reason", "?"))] += 1
        else:
            other[t] += 1
    return {"transitions": dict(trans.most_common()), "reasons": dict(reasons.most_common()),
            "other": dict(other)}


def stream_run(raw, name):
    meta = load_json(os.path.join(raw, name + ".meta.json"))
    if not meta:
        return None
    proto = meta["proto"]
    r = {"name": name, "proto": proto, "bytes": meta["bytes"],
         "client_rc": meta.get("client_rc"), "server_rc": meta.get("server_rc")}
    cli = last_json_line(os.path.join(raw, name + ".client"))
    srv = last_json_line(os.path.join(raw, name + ".server"))
    secs = meta["end_unix"] - meta["start_unix"]
    r["seconds"] = secs
    r["goodput_mbps"] = (srv or {}).get("goodput_mbps") or meta["bytes"] * 8 / secs / 1e6
    r["verified"] = (srv or {}).get("verified")
    r["error"] = (srv or {}).get("error") or (cli or {}).get("error")
    gb = meta["bytes"] / GB
    r["cpu_busy_s"] = meta["cpu_busy_s"]
    r["cpu_s_per_gb"] = meta["cpu_busy_s"] / gb
    r["proc_cpu_s"] = {k: ((x or {}).get("cpu_user_s", 0) + (x or {}).get("cpu_sys_s", 0))
                       for k, x in (("client", cli), ("server", srv))}
    # host A's devices: what left for B, what came back
    da, db = dev_file(os.path.join(raw, name + ".before.a.dev")), dev_file(os.path.join(raw, name + ".after.a.dev"))
    tx_pkts = sum(db[d][3] - da.get(d, (0, 0, 0, 0))[3] for d in db if d.startswith("pl"))
    tx_bytes = sum(db[d][2] - da.get(d, (0, 0, 0, 0))[2] for d in db if d.startswith("pl"))
    rx_pkts = sum(db[d][1] - da.get(d, (0, 0, 0, 0))[1] for d in db if d.startswith("pl"))
    r["host_a"] = {"tx_packets": tx_pkts, "tx_bytes": tx_bytes, "rx_packets": rx_pkts,
                   "tx_packets_per_gb": tx_pkts / gb, "rx_packets_per_gb": rx_pkts / gb,
                   "tx_bytes_per_packet": tx_bytes / tx_pkts if tx_pkts else None,
                   "per_device_tx_packets": {d: db[d][3] - da.get(d, (0, 0, 0, 0))[3] for d in sorted(db) if d.startswith("pl")}}
    ps = perfstat(os.path.join(raw, name + ".perfstat"))
    r["perf_stat"] = ps
    r["perf_stat_per_gb"] = {k: (v / gb if v is not None else None) for k, v in ps.items()}
    if proto == "mrc":
        for h in "ab":
            b = kv_file(os.path.join(raw, "%s.before.%s.mrcstat" % (name, h)))
            a = kv_file(os.path.join(raw, "%s.after.%s.mrcstat" % (name, h)))
            r["mrcstat_" + h] = {k: v for k, v in delta(b, a).items() if v}
        r["events"] = mrc_events(os.path.join(raw, name + ".events"))
        polls = [json.loads(x) for x in read(os.path.join(raw, name + ".conn")).splitlines() if x.startswith("{")]
        r["conn_samples"] = len(polls)
        last = None
        for p in polls:
            if p.get("a"):
                last = p
        r["conn_last"] = last
    else:
        for h in "ab":
            b = snmp_file(os.path.join(raw, "%s.before.%s.snmp" % (name, h)))
            b.update(snmp_file(os.path.join(raw, "%s.before.%s.netstat" % (name, h))))
            a = snmp_file(os.path.join(raw, "%s.after.%s.snmp" % (name, h)))
            a.update(snmp_file(os.path.join(raw, "%s.after.%s.netstat" % (name, h))))
            r["tcp_" + h] = {k: v for k, v in delta(b, a).items()
                             if v and (k.startswith("Tcp.") or k.startswith("TcpExt."))}
    ins = os.path.join(raw, name + ".insns")
    if os.path.exists(ins):
        p = insn_report.analyse(os.path.join(raw, "kallsyms"), ins, 30)
        p["insns_per_gb"] = p["insns_total"] / gb
        r["insns"] = p
    return r


def record_run(raw, name):
    meta = load_json(os.path.join(raw, name + ".meta.json"))
    if not meta:
        return None
    hdr = read(os.path.join(raw, name + ".perf.header"))
    m = re.search(r"sample_freq.*|# (?:captured|total) .*", hdr)
    samples = None
    for line in read(os.path.join(raw, name + ".perf.self.txt")).splitlines():
        mm = re.search(r"# Samples: (\S+)", line)
        if mm:
            samples = mm.group(1)
    secs = meta["end_unix"] - meta["start_unix"]
    return {"name": name, "seconds": secs, "bytes": meta["bytes"], "samples": samples,
            "header_note": m.group(0) if m else None,
            "self": [x for x in read(os.path.join(raw, name + ".perf.self.txt")).splitlines() if not x.startswith("#")][:25],
            "children": [x for x in read(os.path.join(raw, name + ".perf.children.txt")).splitlines() if not x.startswith("#")][:25],
            "dso": [x for x in read(os.path.join(raw, name + ".perf.dso.txt")).splitlines() if not x.startswith("#")][:10]}


def idle_run(raw, name, n):
    b, i = os.path.join(raw, name + ".before."), os.path.join(raw, name + ".idle.")
    if not os.path.exists(i + "meminfo"):
        return None
    mb, mi = meminfo(b + "meminfo"), meminfo(i + "meminfo")
    sb, si = slabinfo(b + "slabinfo"), slabinfo(i + "slabinfo")
    vb, vi = vmalloc_by_caller(b + "vmallocinfo"), vmalloc_by_caller(i + "vmallocinfo")
    endpoints = 2 * n
    mem = {k: mi[k] - mb.get(k, 0) for k in ("MemFree", "Slab", "SReclaimable", "SUnreclaim", "VmallocUsed",
                                              "Percpu", "KernelStack", "PageTables", "AnonPages") if k in mi}
    slab = []
    for c in si:
        d = si[c][0] - sb.get(c, (0, 0, 0))[0]
        do = si[c][1] - sb.get(c, (0, 0, 0))[1]
        if d or do:
            slab.append({"cache": c, "bytes": d, "objects": do, "objsize": si[c][2],
                         "bytes_per_endpoint": d / endpoints, "objects_per_endpoint": do / endpoints})
    slab.sort(key=lambda x: -x["bytes"])
    slab_total = sum(x["bytes"] for x in slab)
    vm = [{"caller": c, "bytes": vi[c] - vb.get(c, 0), "bytes_per_endpoint": (vi[c] - vb.get(c, 0)) / endpoints}
          for c in vi if vi[c] - vb.get(c, 0)]
    vm.sort(key=lambda x: -x["bytes"])
    kmalloc_large_kb = mem.get("Slab", 0) - slab_total / 1024
    out = {"name": name, "connections": n, "endpoints": endpoints, "meminfo_kb": mem,
           "slab_caches": slab[:25], "slab_caches_total_kb": slab_total / 1024,
           "kmalloc_large_kb": kmalloc_large_kb, "vmalloc": vm[:10],
           "per_endpoint_kb": {
               "slab+vmalloc": (mem.get("Slab", 0) + mem.get("VmallocUsed", 0)) / endpoints,
               "slab caches": slab_total / 1024 / endpoints,
               "kmalloc > 8 KB (pages, counted in Slab)": kmalloc_large_kb / endpoints,
               "vmalloc": mem.get("VmallocUsed", 0) / endpoints,
               "MemFree drop": -mem.get("MemFree", 0) / endpoints}}
    conns = load_json(i + "a.conn.json")
    if isinstance(conns, list):
        out["mrc_conns_a"] = len(conns)
    return out


def f(x, spec=".1f"):
    if x is None:
        return "n/a"
    return format(x, spec)


def run_label(r):
    """MRC, TCP, or MRC with the knob of the variant (mrc-rtomin20ms-stat)"""
    n = r["name"][:-len("-stat")] if r["name"].endswith("-stat") else r["name"]
    if n.startswith("mrc-rtomin"):
        return "MRC, rto_min " + n[len("mrc-rtomin"):]
    return n.upper()


def md(res):
    L = []
    L.append("# bench-profile summary\n")
    L.append("Commit `%s`, %s; %s; VM wall time %s s, status %s; %s other QEMU VM(s) running at the start.\n" % (
        res["commit"], res["date"], res["guest"].get("kernel", "?"), res["vm_seconds"], res["vm_status"],
        res["others"]))
    L.append("Guest clocksource: %s (available: %s). perf: %s.\n" % (
        res["guest"].get("clocksource"), res["guest"].get("available"), res["guest"].get("perf")))
    L.append("mrc.ko symbols in the guest's kallsyms: %s.\n" % res["mrc_kallsyms"])
    runs = res["stream"]
    if runs:
        L.append("## One stream, unshaped, same size\n")
        L.append("| figure | " + " | ".join(run_label(r) for r in runs) + " |")
        L.append("|---|" + "---|" * len(runs))

        def row(label, fn):
            L.append("| %s | %s |" % (label, " | ".join(fn(r) for r in runs)))
        row("bytes moved, verified", lambda r: "%d MiB, %s" % (r["bytes"] >> 20, r.get("verified")))
        row("seconds / goodput Mbit/s", lambda r: "%.1f / %.1f" % (r["seconds"], r["goodput_mbps"]))
        row("VM busy CPU s per GB (/proc/stat)", lambda r: f(r["cpu_s_per_gb"]))
        row("vCPUs busy (plugin: not halted)", lambda r: f(100 * (r.get("insns", {}).get("busy_share") or 0), ".0f") + "%")
        row("guest instructions per GB (plugin)", lambda r: f(r.get("insns", {}).get("insns_per_gb"), ".3g"))
        row("packets host A sent per GB (its plane devices)", lambda r: f(r["host_a"]["tx_packets_per_gb"], ".0f"))
        row("bytes per packet host A sent", lambda r: f(r["host_a"]["tx_bytes_per_packet"], ".0f"))
        row("packets host A received per GB (acks)", lambda r: f(r["host_a"]["rx_packets_per_gb"], ".0f"))
        for ev, label in (("net:net_dev_xmit", "device transmissions per GB, whole fabric"),
                          ("net:netif_receive_skb", "netif_receive_skb per GB, whole fabric"),
                          ("skb:kfree_skb", "kfree_skb (drops) per GB"),
                          ("skb:consume_skb", "consume_skb per GB"),
                          ("kmem:kmalloc", "kmalloc per GB"),
                          ("kmem:kmem_cache_alloc", "kmem_cache_alloc per GB"),
                          ("kmem:mm_page_alloc", "page allocations per GB"),
                          ("timer:hrtimer_start", "hrtimer_start per GB"),
                          ("timer:hrtimer_expire_entry", "hrtimer expiries per GB"),
                          ("irq:softirq_entry", "softirqs per GB"),
                          ("sched:sched_switch", "context switches per GB"),
                          ("sched:sched_wakeup", "wakeups per GB"),
                          ("raw_syscalls:sys_enter", "system calls per GB"),
                          ("tcp:tcp_retransmit_skb", "TCP retransmissions per GB")):
            row(label, lambda r, ev=ev: f(r["perf_stat_per_gb"].get(ev), ".0f"))
        L.append("")
        for r in runs:
            if r["proto"] == "mrc":
                a, b = r.get("mrcstat_a", {}), r.get("mrcstat_b", {})
                L.append(run_label(r) + ": counters over the window (host A / host B, deltas of `/proc/net/mrc_stat`): " +
                         ", ".join("%s %d/%d" % (k, a.get(k, 0), b.get(k, 0)) for k in sorted(set(a) | set(b))) + ".\n")
                L.append(run_label(r) + ": path state changes (host A's events): %s; reasons: %s; other events: %s.\n" % (
                    r["events"]["transitions"], r["events"]["reasons"], r["events"]["other"]))
            else:
                L.append("TCP counters over the window (host A): %s.\n" % ", ".join(
                    "%s %d" % (k, v) for k, v in sorted(r.get("tcp_a", {}).items())))
        L.append("## Where the instructions go (QEMU plugin, self)\n")
        for r in runs:
            p = r.get("insns")
            if not p:
                continue
            t = p["insns_total"]
            L.append("### %s\n" % run_label(r))
            L.append("Split: " + ", ".join("%s %.1f%%" % (k, 100 * v / t) for k, v in p["space"].items()) + ".\n")
            L.append("| subsystem | share | per GB |")
            L.append("|---|---|---|")
            for g in p["groups"][:16]:
                L.append("| %s | %.1f%% | %.3g |" % (g["group"], 100 * g["share"], g["insns"] / (r["bytes"] / GB)))
            L.append("")
            gb = r["bytes"] / GB
            L.append("| symbol | module | share | calls per GB |")
            L.append("|---|---|---|---|")
            for s in p["symbols"][:25]:
                L.append("| `%s` | %s | %.2f%% | %s |" % (s["symbol"], s["module"], 100 * s["share"],
                                                         f(s["calls"] / gb, ".3g") if s.get("calls") else ""))
            L.append("")
            if p.get("calls"):
                L.append("Most called (entries per GB): " + ", ".join(
                    "`%s` %.3g" % (c["symbol"], c["calls"] / gb) for c in p["calls"][:20]) + ".\n")
    if res["record"]:
        L.append("## perf record -a -g -e cpu-clock (inside the guest)\n")
        for r in res["record"]:
            L.append("### %s: %s samples over %.1f s\n" % (r["name"], r["samples"], r["seconds"]))
            L.append("By dso:\n```\n" + "\n".join(r["dso"]) + "\n```\n")
            L.append("Self:\n```\n" + "\n".join(r["self"][:15]) + "\n```\n")
            L.append("Children:\n```\n" + "\n".join(r["children"][:15]) + "\n```\n")
    for m in res["idle"]:
        L.append("## Idle connections: %s (%d connections, %d endpoints in the guest)\n" % (
            m["name"], m["connections"], m["endpoints"]))
        L.append("Per endpoint, KB: " + ", ".join("%s %.1f" % (k, v) for k, v in m["per_endpoint_kb"].items()) + ".\n")
        L.append("| slab cache | objects per endpoint | object size | KB per endpoint |")
        L.append("|---|---|---|---|")
        for c in m["slab_caches"][:12]:
            L.append("| %s | %.2f | %d | %.2f |" % (c["cache"], c["objects_per_endpoint"], c["objsize"],
                                                    c["bytes_per_endpoint"] / 1024))
        if m["vmalloc"]:
            L.append("\nvmalloc by caller, KB per endpoint: " + ", ".join(
                "%s %.1f" % (v["caller"], v["bytes_per_endpoint"] / 1024) for v in m["vmalloc"][:5]) + ".")
        L.append("")
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--vm-seconds", type=int, default=0)
    ap.add_argument("--others", default="?")
    ap.add_argument("--vm-status", default="?")
    a = ap.parse_args()
    raw = os.path.join(a.out, "raw")
    guest = {}
    for line in read(os.path.join(raw, "guest.txt")).splitlines():
        k, _, v = line.partition(" ")
        guest[k] = v
    guest["perf"] = guest.get("perf", "")
    ks = read(os.path.join(raw, "kallsyms"))
    res = {"commit": a.commit, "vm_seconds": a.vm_seconds, "vm_status": a.vm_status, "others": a.others,
           "date": datetime.datetime.utcfromtimestamp(os.path.getmtime(os.path.join(a.out, "console.log")))
           .strftime("%Y-%m-%d %H:%M UTC") if os.path.exists(os.path.join(a.out, "console.log")) else "?",
           "guest": guest, "mrc_kallsyms": ks.count("[mrc]"),
           "stream": [], "record": [], "idle": []}
    n_idle = 0
    for line in read(os.path.join(a.out, "job.sh")).split():
        if line.startswith("BENCH_PROFILE_IDLE="):
            n_idle = int(line.split("=")[1])
    names = [os.path.basename(x)[:-len(".meta.json")] for x in glob.glob(os.path.join(raw, "*-stat.meta.json"))]
    order = {"mrc-stat": 0, "tcp-stat": 1}
    for n in sorted(names, key=lambda x: (order.get(x, 2), x)):
        r = stream_run(raw, n)
        if r:
            res["stream"].append(r)
    for p in ("mrc", "tcp"):
        r = record_run(raw, p + "-record")
        if r:
            res["record"].append(r)
    for p in ("mrc", "tcp"):
        m = idle_run(raw, p + "-idle", n_idle or 200)
        if m:
            res["idle"].append(m)
    with open(os.path.join(a.out, "summary.json"), "w") as fh:
        json.dump(res, fh, indent=1, default=str)
    text = md(res)
    with open(os.path.join(a.out, "summary.md"), "w") as fh:
        fh.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
