#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Ask a Prometheus server one PromQL query over its HTTP API.

Usage: promq.py URL QUERY [OP VALUE]

Prints the value of every series of the instant query's result, one a
line ("labels value"). With OP (gt, ge, eq, lt) and VALUE, exits 0 only
when the result has a series and the first one's value compares true
(for mrc_wait_for); without, exits 0 when the result has a series.
"""
import json
import math
import sys
import urllib.parse
import urllib.request


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    url = sys.argv[1].rstrip("/") + "/api/v1/query?" + urllib.parse.urlencode(
        {"query": sys.argv[2]})
    with urllib.request.urlopen(url, timeout=10) as r:
        body = json.load(r)
    if body.get("status") != "success":
        sys.exit(f"promq: {body.get('error', body)}")
    data = body["data"]
    res = data["result"]
    if data["resultType"] == "scalar":
        res = [{"metric": {}, "value": res}]
    for s in res:
        print(json.dumps(s["metric"], sort_keys=True), s["value"][1])
    if not res:
        sys.exit(1)
    if len(sys.argv) == 5:
        v, want = float(res[0]["value"][1]), float(sys.argv[4])
        ok = {"gt": v > want, "ge": v >= want, "eq": v == want, "lt": v < want}[sys.argv[3]]
        sys.exit(0 if ok and not math.isnan(v) else 1)


if __name__ == "__main__":
    main()
