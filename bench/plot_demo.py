#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make demo's plot: the training job's step times against wall time,
over MRC and over TCP, around the spine link's death.

Usage: bench/plot_demo.py DEMO_OUTDIR   (writes DEMO_OUTDIR/demo.png)
DEMO_OUTDIR holds fault_unix (when the link died) and mrc/job.json,
tcp/job.json (selftests/workloads/torch_ddp.py: start[i], end[i] of
every step, over the ranks).
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
for name, label, color in (("mrc", "MRC (mrcize)", "tab:red"),
                           ("tcp", "TCP (ECMP)", "tab:blue")):
    try:
        job = json.load(open(os.path.join(out, name, "job.json")))
    except (OSError, ValueError):
        continue
    # A step's time is from the end of the previous one: a stall between
    # steps (a rank waiting for the others) counts too.
    ends = job["end"]
    xs = [e - fault for e in ends[1:]]
    ys = [(b - a) * 1000 for a, b in zip(ends, ends[1:])]
    if not xs:
        continue
    after = [y for x, y in zip(xs, ys) if x >= 0]
    worst = f", longest wait for a step after the cut {max(after):.0f} ms" if after else ""
    ax.plot(xs, ys, ".-", ms=3, lw=0.8, color=color,
            label=f"{label}: {job['steps_done']} steps{worst}")
ax.axvline(0, color="black", ls="--", lw=1, label="spine link silently dies")
ax.set_yscale("log")
ax.set_xlabel("seconds from the link's death")
ax.set_ylabel("time per training step (ms)")
ax.set_title("4-rank PyTorch (gloo, DDP) job on a 4-plane SRv6 fabric")
ax.legend(loc="upper left", fontsize=8)
ax.grid(True, which="both", alpha=0.3)
path = os.path.join(out, "demo.png")
fig.tight_layout()
fig.savefig(path, dpi=110)
print(os.path.abspath(path))
