#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make demo's plot: goodput over time, MRC vs TCP, around the spine cut.

Usage: bench/plot_demo.py DEMO_OUTDIR   (writes DEMO_OUTDIR/demo.png)
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

out = sys.argv[1]
fault = float(open(os.path.join(out, "fault_unix")).read())
fig, ax = plt.subplots(figsize=(9, 4.5))
for name, label, color in (("mrc", "MRC (8 paths)", "tab:red"),
                           ("tcp", "TCP (1 static path)", "tab:blue")):
    try:
        r = json.load(open(os.path.join(out, f"{name}.server")))
    except (OSError, ValueError):
        continue
    ms = r.get("bucket_ms", 100) / 1000.0
    b = r.get("buckets_bytes", [])
    # a receiver that gave up after a stall: empty buckets for the stall
    st, ls = r.get("longest_stall_start_ms"), r.get("longest_stall_ms", 0)
    if st is not None and abs(st / 1e3 - r.get("seconds", 0)) < 2 * ms:
        b = b + [0] * int(ls / 1e3 / ms)
    k = max(1, int(round(0.1 / ms)))  # 100 ms points
    xs = [r["start_unix"] + i * ms - fault for i in range(0, len(b), k)] if "start_unix" in r else []
    ys = [sum(b[i:i + k]) * 8 / (k * ms) / 1e6 for i in range(0, len(b), k)]
    if xs:
        note = ""
        if name == "mrc" and xs[-1] < 0:
            note = " (done before the cut)"
        ax.plot(xs, ys, label=f"{label}: {r['bytes'] >> 20} MiB, longest stall "
                f"{r['longest_stall_ms']:.0f} ms{note}", color=color)
ax.axvline(0, color="black", ls="--", lw=1, label="spine link silently cut")
ax.set_xlabel("seconds from the cut")
ax.set_ylabel("goodput at the receiver, Mbit/s (100 ms bins)")
ax.set_title("make demo: a silent spine blackhole, MRC vs TCP")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(os.path.join(out, "demo.png"), dpi=90)
print(os.path.join(out, "demo.png"))
