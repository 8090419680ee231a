#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a Grafana dashboard against the metrics the exporter writes.

Usage: check_dashboard.py DASHBOARD.json METRICS.txt|-

The dashboard must be JSON with panels; every metric name (mrc_...) its
queries use must be a sample name in METRICS (the text format, e.g. from
metrics_sample or curl of mrc-exporter), and every query must use one.
"""
import json
import re
import sys


def targets(panels):
    for p in panels:
        yield from targets(p.get("panels", []))
        for t in p.get("targets", []):
            yield p.get("title", "?"), t.get("expr", "")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        dash = json.load(f)
    text = sys.stdin.read() if sys.argv[2] == "-" else open(sys.argv[2]).read()
    have = set()
    for line in text.splitlines():
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", line)
        if m and not line.startswith("#"):
            have.add(m.group(1))
    bad = []
    n = 0
    for title, expr in targets(dash.get("panels", [])):
        n += 1
        used = set(re.findall(r"\bmrc_[a-z0-9_]+", expr))
        if not used:
            bad.append(f"panel {title!r}: query uses no mrc_ metric: {expr}")
        for name in sorted(used - have):
            bad.append(f"panel {title!r}: {name} is not in the exporter's output")
    if n == 0:
        bad.append("no panel has a query")
    for b in bad:
        print("check_dashboard:", b, file=sys.stderr)
    if bad:
        sys.exit(1)
    print(f"check_dashboard: {n} queries, every metric they use exists ({len(have)} names)")


if __name__ == "__main__":
    main()
