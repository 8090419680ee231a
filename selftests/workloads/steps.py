#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Step-time summary of an apps job (torch_ddp.py's NAME.json, or the
JSON of progs/mpi_apps.c): both hold start[i] and end[i], the wall-clock
(CLOCK_REALTIME) start and end of step i over all ranks, and "ok".

  steps.py PREFIX JOB.json [T0,T1 ...]

T0,T1: the fault windows (seconds since the epoch, as $EPOCHREALTIME
gives them). Prints shell assignments (times in whole milliseconds, -
when there is none):
  PREFIX_n                 steps done
  PREFIX_ok, PREFIX_error  1 when the JSON says "ok": true; its "error" or -
  PREFIX_base_n, PREFIX_base_{p50,p90,p99,max}_ms
                           the yardstick: every step that overlaps no
                           fault window, but the first 3 (connections
                           and buffers being set up)
  PREFIX_w<i>_n, PREFIX_w<i>_{p50,p90,max}_ms
                           the steps that overlap window i (1, 2, ...)
  PREFIX_w<i>_over_base     of those, the steps longer than base_max
  PREFIX_w<i>_before, PREFIX_w<i>_after
                           steps over before window i began; steps that
                           ended after it ended (the job went on)
  PREFIX_w<i>_wait_ms      the longest time inside window i between the
                           end of one step and the end of the next (the
                           longest stretch without progress under the
                           fault)
"""
import json
import shlex
import sys

SKIP = 3


def pct(v, q):
    if not v:
        return None
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


def ms(v):
    return "-" if v is None else str(round(v * 1000))


def main():
    pre, path = sys.argv[1], sys.argv[2]
    wins = [tuple(float(x) for x in w.split(",")) for w in sys.argv[3:]]
    try:
        j = json.load(open(path))
    except (OSError, ValueError):
        j = {}
    start, end = j.get("start", []), j.get("end", [])
    steps = list(zip(start, end))
    out = {"n": len(steps), "ok": 1 if j.get("ok") is True else 0,
           "error": shlex.quote(str(j.get("error") or "-")[:300])}

    def inside(s, e, w):
        return e >= w[0] and s <= w[1]
    base = [e - s for i, (s, e) in enumerate(steps)
            if i >= SKIP and not any(inside(s, e, w) for w in wins)]
    out["base_n"] = len(base)
    for q, k in ((0.5, "p50"), (0.9, "p90"), (0.99, "p99")):
        out[f"base_{k}_ms"] = ms(pct(base, q))
    out["base_max_ms"] = ms(max(base) if base else None)
    for n, w in enumerate(wins, 1):
        d = [e - s for s, e in steps if inside(s, e, w)]
        out[f"w{n}_n"] = len(d)
        out[f"w{n}_p50_ms"] = ms(pct(d, 0.5))
        out[f"w{n}_p90_ms"] = ms(pct(d, 0.9))
        out[f"w{n}_max_ms"] = ms(max(d) if d else None)
        out[f"w{n}_over_base"] = sum(1 for x in d if base and x > max(base))
        out[f"w{n}_before"] = sum(1 for s, e in steps if e < w[0])
        out[f"w{n}_after"] = sum(1 for s, e in steps if e > w[1])
        pts = [w[0]] + [e for s, e in steps if w[0] < e < w[1]]
        nxt = [e for s, e in steps if e >= w[1]]
        pts.append(min(nxt) if nxt else w[1])
        out[f"w{n}_wait_ms"] = ms(max(b - a for a, b in zip(pts, pts[1:])))
    for k, v in out.items():
        print(f"{pre}_{k}={v}")


if __name__ == "__main__":
    main()
