#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Ask a Prometheus server one PromQL query over its HTTP API.

Usage: python3 -S promq.py URL QUERY [OP VALUE]

Prints the value of every series of the instant query's result, one a
line ("labels value"). With OP (gt, ge, eq, lt) and VALUE, exits 0 only
when the result has a series and the first one's value compares true
(for mrc_wait_for); without, exits 0 when the result has a series.

One HTTP/1.0 GET on a plain socket, not urllib.request: the test polls
with it, and importing urllib.request (http.client, email, ssl) costs
about a second a call in the emulated guest (45-prometheus).
"""
import json
import math
import socket
import sys
from urllib.parse import quote, urlsplit


def get(url, timeout=10):
    """The body of a 200 answer to GET url (http only)."""
    u = urlsplit(url)
    path = u.path + ("?" + u.query if u.query else "")
    with socket.create_connection((u.hostname, u.port or 80), timeout=timeout) as s:
        s.sendall(f"GET {path} HTTP/1.0\r\nHost: {u.netloc}\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    line = head.split(b"\r\n", 1)[0]
    # 400 and 422 carry Prometheus's own error (status "error") in JSON
    if line.split()[1:2] not in ([b"200"], [b"400"], [b"422"]):
        sys.exit("promq: " + line.decode(errors="replace"))
    return body


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    body = json.loads(get(sys.argv[1].rstrip("/") + "/api/v1/query?query=" +
                          quote(sys.argv[2], safe="")))
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
