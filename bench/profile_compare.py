#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two `make bench-profile` runs (summary.json) of one stream: the
per-GB figures of the data path (issue #14) for MRC, with TCP of each run
beside it, as a Markdown table.

Usage: bench/profile_compare.py BEFORE/summary.json AFTER/summary.json
"""
import json
import sys

GB = 1e9  # decimal, as the bench reports


def stream(path, proto):
    d = json.load(open(path))
    for s in d["stream"]:
        if s["proto"] == proto:
            return d, s
    raise SystemExit(f"{path}: no {proto} stream")


def per_gb(s, n):
    return n * GB / s["bytes"] if n is not None else None


def figures(s):
    i = s.get("insns") or {}
    sp = i.get("space", {})
    total = i.get("insns_total") or 0
    kern = sp.get("kernel", 0) + sp.get("mrc.ko", 0) + sp.get("other modules", 0)
    pg = s.get("perf_stat_per_gb", {})
    sym = {x["symbol"]: x for x in i.get("symbols", [])}
    clear = sym.get("clear_page_erms", {}).get("calls")
    a, b = s.get("mrcstat_a", {}), s.get("mrcstat_b", {})
    f = {
        "goodput Mbit/s": s.get("goodput_mbps"),
        "VM busy CPU s per GB (/proc/stat)": s.get("cpu_s_per_gb"),
        "guest instructions per GB": per_gb(s, total) if total else None,
        "kernel and module instructions per GB": per_gb(s, kern) if total else None,
        "packets host A sent per GB": s["host_a"].get("tx_packets_per_gb"),
        "device transmissions per GB, whole fabric": pg.get("net:net_dev_xmit"),
        "skb and slab allocations per GB (kmalloc + kmem_cache_alloc)":
            (pg.get("kmem:kmalloc") or 0) + (pg.get("kmem:kmem_cache_alloc") or 0),
        "page allocations per GB": pg.get("kmem:mm_page_alloc"),
        "bytes zeroed per byte moved (clear_page_erms calls x 4 KiB)":
            per_gb(s, clear) * 4096 / GB if clear else None,
        "hrtimer_start per GB": pg.get("timer:hrtimer_start"),
        "softirqs per GB": pg.get("irq:softirq_entry"),
        "context switches per GB": pg.get("sched:sched_switch"),
        "system calls per GB": pg.get("raw_syscalls:sys_enter"),
    }
    if s["proto"] == "mrc":
        f["SACKs per data packet (B's SackOut / A's OutPkts)"] = (
            b.get("SackOut", 0) / a["OutPkts"] if a.get("OutPkts") else None)
        f["MRC packets per skb host A sent"] = (
            a.get("OutPkts", 0) / s["host_a"]["tx_packets"]
            if s["host_a"].get("tx_packets") else None)
        f["retransmissions on timeout (RetxRto)"] = a.get("RetxRto", 0)
        f["paths out without a fault (PathToBad)"] = a.get("PathToBad", 0)
        f["reverse probes (B's PathReverseProbes)"] = b.get("PathReverseProbes", 0)
    return f


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, int) or abs(v) >= 1000:
        return f"{v:,.0f}" if abs(v) < 1e8 else f"{v:.3g}"
    return f"{v:.2f}"


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    (db, mb), (da, ma) = stream(sys.argv[1], "mrc"), stream(sys.argv[2], "mrc")
    _, tb = stream(sys.argv[1], "tcp")
    _, ta = stream(sys.argv[2], "tcp")
    fb, fa, gb, ga = figures(mb), figures(ma), figures(tb), figures(ta)
    print(f"Before: `{db['commit']}`, {db['date']}; after: `{da['commit']}`, {da['date']}.\n")
    print("| per GB moved (one stream, 128 MiB) | MRC before | MRC after | after / before "
          "| TCP (before's run) | TCP (after's run) |")
    print("|---|---|---|---|---|---|")
    for k in fb:
        b, a = fb[k], fa.get(k)
        ratio = f"{a / b:.2f}" if a is not None and b else "-"
        print(f"| {k} | {fmt(b)} | {fmt(a)} | {ratio} | {fmt(gb.get(k))} | {fmt(ga.get(k))} |")


if __name__ == "__main__":
    main()
